"""Make the demo music round's clips: public-domain tunes played by our own
synthesiser (sine tones with a short fade), so the clips are ours to ship.

    python tools/music_round.py      # writes games/quiz/packs/music/*.wav

8-bit mono WAV at 11,025 Hz keeps each clip near 40 kB; the quiz streams it
through pygame's mixer (games/quiz/packs/en-music.csv names them).
"""

from __future__ import annotations

import math
import wave
from pathlib import Path

RATE = 11_025
OUT = Path(__file__).resolve().parent.parent / "games" / "quiz" / "packs" / "music"
#: semitones from A4 by note name (one octave and a bit is all these tunes need)
NOTES = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2, "C5": 3, "D5": 5, "E5": 7, "G3": -14,
         "F#": -3}
BEAT_S = 0.32
#: each tune: (note, beats); "-" is a rest
TUNES: dict[str, list[tuple[str, float]]] = {
    "twinkle": [("C", 1), ("C", 1), ("G", 1), ("G", 1), ("A", 1), ("A", 1), ("G", 2),
                ("F", 1), ("F", 1), ("E", 1), ("E", 1), ("D", 1), ("D", 1), ("C", 2)],
    "ode-to-joy": [("E", 1), ("E", 1), ("F", 1), ("G", 1), ("G", 1), ("F", 1), ("E", 1), ("D", 1),
                   ("C", 1), ("C", 1), ("D", 1), ("E", 1), ("E", 1.5), ("D", 0.5), ("D", 2)],
    "frere-jacques": [("C", 1), ("D", 1), ("E", 1), ("C", 1), ("C", 1), ("D", 1), ("E", 1), ("C", 1),
                      ("E", 1), ("F", 1), ("G", 2), ("E", 1), ("F", 1), ("G", 2)],
    "jingle-bells": [("E", 1), ("E", 1), ("E", 2), ("E", 1), ("E", 1), ("E", 2),
                     ("E", 1), ("G", 1), ("C", 1.5), ("D", 0.5), ("E", 4)],
    "mary-lamb": [("E", 1), ("D", 1), ("C", 1), ("D", 1), ("E", 1), ("E", 1), ("E", 2),
                  ("D", 1), ("D", 1), ("D", 2), ("E", 1), ("G", 1), ("G", 2)],
}


def samples(tune: list[tuple[str, float]]) -> bytes:
    out = bytearray()
    for note, beats in tune:
        n = int(RATE * BEAT_S * beats)
        freq = 440.0 * 2 ** (NOTES[note] / 12) if note != "-" else 0.0
        fade = int(RATE * 0.02)
        for k in range(n):
            env = min(1.0, k / fade, (n - k) / fade)
            value = 0.45 * env * (math.sin(2 * math.pi * freq * k / RATE) + 0.3 * math.sin(4 * math.pi * freq * k / RATE))
            out.append(max(0, min(255, 128 + round(value * 127))))
    return bytes(out)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, tune in TUNES.items():
        with wave.open(str(OUT / f"{name}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(1)
            w.setframerate(RATE)
            w.writeframes(samples(tune))


if __name__ == "__main__":
    main()
