"""Make the demo video round's clips: coloured shapes drawn by pygame and
encoded by PyAV (our own pictures, so the clips are ours to ship), a few
seconds at 320x180 and 12 fps, a few kilobytes each. The falling balls have
a sound track of their own: a note as each ball lands, played by the music
round's synthesiser (tools/music_round.py) and encoded as Opus in the webm.

    .venv/bin/python tools/video_round.py    # writes games/quiz/packs/video/*

Needs PyAV (``pip install -e '.[video]'``). The clips are made the same way
each run (no randomness), so the shipped files can be checked against it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from music_round import RATE, samples  # noqa: E402  (tools/ is the script's own folder)

OUT = Path(__file__).resolve().parents[1] / "games" / "quiz" / "packs" / "video"
SIZE = (320, 180)
FPS = 12
BACKGROUND = (24, 28, 40)
COLOURS = {"red": (220, 50, 50), "blue": (60, 110, 230), "green": (50, 190, 80), "yellow": (235, 210, 40),
           "white": (240, 240, 240)}


def falling_balls(n: int, surface: pygame.Surface) -> None:
    """Five balls fall one after another, 0.8 s each: red, blue, green, yellow, white."""
    t = n / FPS
    for k, colour in enumerate(COLOURS.values()):
        since = t - 0.8 * k
        if since < 0:
            break
        y = min(150, int(20 + 260 * since * since))  # falls, then rests on the floor
        pygame.draw.circle(surface, colour, (40 + 60 * k, y), 16)


#: the shapes of the second clip, half a second each
SHAPES = ("square", "circle", "square", "triangle", "square", "circle", "triangle")


def shapes(n: int, surface: pygame.Surface) -> None:
    """One shape at a time in the middle, half a second each (three squares in all)."""
    k = int(n / FPS / 0.5)
    if k >= len(SHAPES):
        return
    cx, cy, r = SIZE[0] // 2, SIZE[1] // 2, 50
    colour = list(COLOURS.values())[k % len(COLOURS)]
    if SHAPES[k] == "square":
        pygame.draw.rect(surface, colour, pygame.Rect(cx - r, cy - r, 2 * r, 2 * r))
    elif SHAPES[k] == "circle":
        pygame.draw.circle(surface, colour, (cx, cy), r)
    else:
        pygame.draw.polygon(surface, colour, [(cx, cy - r), (cx - r, cy + r), (cx + r, cy + r)])


#: the falling balls' tune: a note as each ball lands (0.8 s apart, a rising arpeggio), then the last one rings
LANDING_TUNE: list[tuple[str, float]] = [("-", 2.2), ("C", 2.5), ("E", 2.5), ("G", 2.5), ("C5", 2.5), ("E5", 1.8)]


def add_tune(out: Any, tune: list[tuple[str, float]]) -> None:
    """``tune`` (the music round's synthesiser: 8-bit mono at ``RATE``) as an Opus track of ``out``."""
    import av

    stream = out.add_stream("libopus", rate=48_000, layout="mono")
    stream.bit_rate = 12_000
    pcm = samples(tune)
    frame = av.AudioFrame(format="u8", layout="mono", samples=len(pcm))
    frame.planes[0].update(pcm + bytes(frame.planes[0].buffer_size - len(pcm)))
    frame.sample_rate, frame.pts, frame.time_base = RATE, 0, Fraction(1, RATE)
    resampler = av.AudioResampler(format="s16", layout="mono", rate=48_000, frame_size=960)
    for piece in [*resampler.resample(frame), *resampler.resample(None)]:
        for packet in stream.encode(piece):
            out.mux(packet)
    for packet in stream.encode(None):
        out.mux(packet)


def make(path: Path, codec: str, seconds: float, draw: Callable[[int, pygame.Surface], None],
         tune: list[tuple[str, float]] | None = None) -> Path:
    """Encode ``seconds`` of ``draw``'s frames into ``path`` (with ``tune`` as its sound)."""
    import av

    surface = pygame.Surface(SIZE)
    with av.open(str(path), "w") as out:
        stream = out.add_stream(codec, rate=FPS, options={"crf": "35"} if codec == "libx264" else {"crf": "40", "b": "0"})
        stream.width, stream.height, stream.pix_fmt = SIZE[0], SIZE[1], "yuv420p"
        stream.time_base = Fraction(1, FPS)
        if tune is not None:
            add_tune(out, tune)
        for n in range(int(seconds * FPS)):
            surface.fill(BACKGROUND)
            draw(n, surface)
            frame = av.VideoFrame(SIZE[0], SIZE[1], "rgb24")
            plane = frame.planes[0]
            rows = pygame.image.tobytes(surface, "RGB")
            row = SIZE[0] * 3
            plane.update(b"".join(rows[y * row:(y + 1) * row] + bytes(plane.line_size - row) for y in range(SIZE[1])))
            frame.pts = n
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return path


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for path in (make(OUT / "falling-balls.webm", "libvpx-vp9", 4.5, falling_balls, LANDING_TUNE),
                 make(OUT / "shapes.mp4", "libx264", 3.5, shapes)):
        print(f"{path.relative_to(OUT.parents[3])}: {path.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
