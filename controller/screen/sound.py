"""Bell, buzz and tick, synthesised at start-up (no sound files to ship),
and each station's own buzz, so the room hears who pressed.

No sound device, or a mixer that will not open: the box plays silently and
says so once in the log. Volume and mute come from the settings.

A station's own sound (``sound =`` in the wiring profile) is one of the
synthesised set (``profile.STATION_SOUNDS``) or a WAV file. It replaces the
bell for events that name the station (the winner's bell). A WAV that is
missing or will not play is one line in the log (``Sound.problems``, listed
by ``buzzerbox doctor --profile``) and the station gets the bell: a bad file
never stops a game.
"""

from __future__ import annotations

import array
import logging
import math
import os
import random
import wave
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pygame

from controller.box.clips import NO_CLIPS, ClipPlayer
from controller.box.profile import STATION_SOUNDS
from games.base import COMMON_EVENT_SOUNDS, ClipCues, GameEvent
from games.i18n import _

log = logging.getLogger("buzzerbox.sound")



@dataclass
class SoundSettings:
    volume: float = 0.8  # 0..1
    mute: bool = False


def _pcm(samples: Iterable[float], channels: int) -> bytes:
    """Floats in -1..1 to signed 16-bit native-endian PCM, channels interleaved."""
    out = array.array("h")
    for s in samples:
        v = int(max(-1.0, min(1.0, s)) * 32000)
        out.extend([v] * channels)
    return out.tobytes()


def bell(rate: int, seconds: float = 1.4) -> list[float]:
    """A struck bell: inharmonic partials, each dying away at its own pace."""
    partials = [(1.0, 1.0, 2.2), (2.76, 0.5, 3.5), (5.40, 0.25, 6.0), (8.93, 0.12, 9.0)]
    f0 = 880.0
    n = int(rate * seconds)
    out = []
    for i in range(n):
        t = i / rate
        attack = min(1.0, t / 0.003)
        out.append(0.45 * attack * sum(a * math.exp(-d * t) * math.sin(2 * math.pi * f0 * k * t) for k, a, d in partials))
    return out


def buzz(rate: int, seconds: float = 0.45) -> list[float]:
    """A harsh low buzz: two detuned square waves (the game-show "wrong")."""
    n = int(rate * seconds)
    out = []
    for i in range(n):
        t = i / rate
        env = min(1.0, t / 0.01) * min(1.0, (seconds - t) / 0.05)
        s = (1.0 if math.sin(2 * math.pi * 110 * t) >= 0 else -1.0) + (1.0 if math.sin(2 * math.pi * 116.5 * t) >= 0 else -1.0)
        out.append(0.22 * env * s)
    return out


def tick(rate: int, seconds: float = 0.035) -> list[float]:
    """A short woodblock tick for the timer's last seconds."""
    rng = random.Random(7)
    n = int(rate * seconds)
    return [0.6 * math.exp(-i / rate * 140) * (math.sin(2 * math.pi * 1900 * i / rate) + 0.2 * (rng.random() - 0.5)) for i in range(n)]


SYNTHS: dict[str, Callable[[int], list[float]]] = {"bell": bell, "buzz": buzz, "tick": tick}


def _notes(rate: int, notes: Sequence[tuple[float, float, float]], shape: Callable[[float], float],
           decay: float) -> list[float]:
    """(frequency, start s, length s) notes of one wave shape, each with a
    3 ms attack and an exponential decay, mixed."""
    end = max(start + length for _f, start, length in notes)
    out = [0.0] * int(rate * end)
    for freq, start, length in notes:
        first = int(rate * start)
        for i in range(int(rate * length)):
            t = i / rate
            env = min(1.0, t / 0.003) * math.exp(-decay * t) * min(1.0, (length - t) / 0.01)
            out[first + i] += env * shape(2 * math.pi * freq * t)
    return out


def _square(x: float) -> float:
    return 1.0 if math.sin(x) >= 0 else -1.0


def _saw(x: float) -> float:
    return (x / math.pi) % 2.0 - 1.0


def chime(rate: int) -> list[float]:
    """Two bright notes rising a fourth: a doorbell."""
    return [0.4 * v for v in _notes(rate, [(1318.5, 0.0, 0.45), (1760.0, 0.18, 0.6)], math.sin, 5.0)]


def ding(rate: int) -> list[float]:
    """One high, short, pure note."""
    return [0.5 * v for v in _notes(rate, [(2093.0, 0.0, 0.5)], math.sin, 9.0)]


def gong(rate: int) -> list[float]:
    """Low inharmonic partials, dying slowly."""
    out = [0.0] * int(rate * 1.2)
    for ratio, amp in ((1.0, 1.0), (1.48, 0.6), (2.27, 0.4), (3.1, 0.25)):
        for i, v in enumerate(_notes(rate, [(98.0 * ratio, 0.0, 1.2)], math.sin, 2.5 + ratio)):
            out[i] += 0.3 * amp * v
    return out


def horn(rate: int) -> list[float]:
    """A short brassy chord, root and major third (a car horn)."""
    return [0.18 * v for v in _notes(rate, [(220.0, 0.0, 0.5), (277.2, 0.0, 0.5)], _saw, 0.8)]


def whistle(rate: int) -> list[float]:
    """A sine sliding up an octave."""
    n = int(rate * 0.4)
    phase, out = 0.0, []
    for i in range(n):
        t = i / rate
        phase += 2 * math.pi * (1200.0 + 1200.0 * t / 0.4) / rate
        out.append(0.45 * min(1.0, t / 0.01) * min(1.0, (0.4 - t) / 0.03) * math.sin(phase))
    return out


def blip(rate: int) -> list[float]:
    """Three quick square-wave blips (an arcade coin)."""
    return [0.35 * v for v in _notes(rate, [(660.0, 0.0, 0.07), (880.0, 0.09, 0.07), (1320.0, 0.18, 0.1)],
                                    _square, 4.0)]


def cowbell(rate: int) -> list[float]:
    """Two detuned squares with a fast decay: the classic drum machine cowbell."""
    return [0.2 * v for v in _notes(rate, [(540.0, 0.0, 0.35), (800.0, 0.0, 0.35)], _square, 12.0)]


def fanfare(rate: int) -> list[float]:
    """A brassy rising C-E-G-C, the last note held: the podium's (a game maps an
    event to ``"fanfare"`` in its spec's ``event_sounds``, as the quiz does)."""
    notes = [(523.25, 0.0, 0.16), (659.25, 0.15, 0.16), (783.99, 0.30, 0.16), (1046.5, 0.45, 0.7)]
    return [0.2 * v for v in _notes(rate, notes, _saw, 1.2)]


#: how many sound names a Sound remembers having played
PLAYED_KEPT = 4_096

#: the stations' sounds, one synthesiser per name in ``profile.STATION_SOUNDS``
STATION_SYNTHS: dict[str, Callable[[int], list[float]]] = {
    "bell": bell, "buzz": buzz, "chime": chime, "ding": ding, "gong": gong, "horn": horn,
    "whistle": whistle, "blip": blip, "cowbell": cowbell,
}
assert set(STATION_SYNTHS) == set(STATION_SOUNDS), "every sound a profile may name has a synthesiser"
SYNTHS["fanfare"] = fanfare
#: a station's WAV is its buzz: a few seconds at most, and small enough to load at once
MAX_WAV_SECONDS = 5.0
MAX_WAV_BYTES = 4_000_000
#: the sound a station's own sound stands in for
STATION_EVENT_SOUND = "bell"


def is_wav(choice: str) -> bool:
    return choice.lower().endswith(".wav")


def wav_problem(path: str | Path) -> str | None:
    """Why this WAV cannot be a station's buzz (one line, with the fix), or None."""
    p = Path(path)
    try:
        if not p.exists():
            return "not found; check the path in the profile (relative paths start at the profile's folder)"
        if not p.is_file():
            return "not a file; name a .wav file"
        if p.stat().st_size > MAX_WAV_BYTES:
            return f"larger than {MAX_WAV_BYTES // 1_000_000} MB; a buzz is a short sound: trim it"
        with wave.open(str(p), "rb") as w:
            frames, framerate = w.getnframes(), w.getframerate()
            if w.getnchannels() not in (1, 2) or w.getsampwidth() not in (1, 2) or not 8000 <= framerate <= 96000:
                return (f"{w.getnchannels()} channel(s), {8 * w.getsampwidth()}-bit, {framerate} Hz: save it as "
                        "16-bit PCM, mono or stereo, 8-96 kHz")
            if frames == 0:
                return "holds no sound; record or export it again"
            if frames / framerate > MAX_WAV_SECONDS:
                return (f"{frames / framerate:.1f} s long; a buzz is at most {MAX_WAV_SECONDS:g} s: trim it")
    except (wave.Error, EOFError) as exc:
        return f"not a PCM WAV file ({exc}); export it again as 16-bit PCM WAV"
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc}); check its permissions"
    return None


def wav_description(path: str | Path) -> str:
    """'0.42 s, 44100 Hz, 16-bit mono' for a WAV that passed ``wav_problem``."""
    with wave.open(str(path), "rb") as w:
        channels = {1: "mono", 2: "stereo"}.get(w.getnchannels(), f"{w.getnchannels()} channels")
        return f"{w.getnframes() / w.getframerate():.2f} s, {w.getframerate()} Hz, {8 * w.getsampwidth()}-bit {channels}"


def station_name(names: Sequence[str], station: int) -> str:
    """A station as the host calls it: its name, else its number."""
    return names[station] if station < len(names) else _("station {n}").format(n=station + 1)


def station_sound_lines(choices: Sequence[str | None], names: Sequence[str]) -> list[str]:
    """What each station will sound like, one line each (``doctor --profile``)."""
    lines = []
    for station, choice in enumerate(choices):
        name = station_name(names, station)
        if choice is None:
            lines.append(_("{name}: the game's bell").format(name=name))
        elif not is_wav(choice):
            lines.append(_("{name}: {sound} (synthesised)").format(name=name, sound=choice))
        else:
            problem = wav_problem(choice)
            lines.append(_("{name}: {sound} ({what})").format(name=name, sound=choice, what=wav_description(choice))
                         if problem is None else
                         _("{name}: {sound}: {problem}; it plays the bell instead").format(name=name, sound=choice,
                                                                                         problem=problem))
    return lines


class Sound:
    """The box's sounds. ``Sound.open()`` never raises: without a device it is silent."""

    def __init__(self, settings: SoundSettings | None = None) -> None:
        self.settings = settings or SoundSettings()
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.available = False
        self.reason = "not opened"
        #: what was asked for (the demo's summary, tests): the newest ``PLAYED_KEPT`` (a kiosk plays for hours)
        self.played: deque[str] = deque(maxlen=PLAYED_KEPT)
        #: station -> its own sound's name (a synth's, or the WAV's path); the bell otherwise
        self.station_choices: dict[int, str] = {}
        #: one line per station sound that could not be used (it plays the bell)
        self.problems: list[str] = []
        #: an audio question's clip (controller/box/clips.py): silent until the mixer opens
        self.clips = ClipPlayer(None)

    @classmethod
    def open(cls, settings: SoundSettings | None = None) -> Sound:
        self = cls(settings)
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=44100, size=-16, channels=2, buffer=512)
            init = pygame.mixer.get_init()
            if not init:
                raise pygame.error("mixer did not initialise")
            rate, _size, channels = init
            for name, synth in SYNTHS.items():
                self.sounds[name] = pygame.mixer.Sound(buffer=_pcm(synth(rate), channels))
            self.available = True
            self.reason = f"{pygame.mixer.get_init()} via {_audio_driver()}"
            muted = self.settings.mute or self.settings.volume <= 0
            self.clips = ClipPlayer(None if muted else pygame.mixer.music, max(0.0, min(1.0, self.settings.volume)))
        except (pygame.error, NotImplementedError, OSError) as exc:
            self.sounds.clear()
            self.reason = f"no sound: {exc}"
            log.warning("playing silently (%s)", exc)
        return self

    def use_station_sounds(self, choices: Sequence[str | None], names: Sequence[str] = ()) -> list[str]:
        """Give each station its own buzz (``Profile.station_sounds()``); a WAV
        that is missing or will not play is one logged line, and that station
        keeps the bell. Returns those lines (also kept in ``problems``)."""
        self.station_choices.clear()
        self.problems = []
        for station, choice in enumerate(choices):
            if choice is None:
                continue
            name = station_name(names, station)
            problem = wav_problem(choice) if is_wav(choice) else None
            if problem is None and self.available and choice not in self.sounds:
                problem = self._load(choice)
            if problem is not None:
                line = _("{name}'s sound {sound}: {problem}; it plays the bell instead").format(
                    name=name, sound=choice, problem=problem)
                log.warning("%s", line)
                self.problems.append(line)
                continue
            self.station_choices[station] = choice
        return list(self.problems)

    def _load(self, choice: str) -> str | None:
        """Load one station sound into the mixer; the reason it would not, or None."""
        init = pygame.mixer.get_init()
        try:
            if is_wav(choice):
                self.sounds[choice] = pygame.mixer.Sound(file=choice)
            elif init:
                self.sounds[choice] = pygame.mixer.Sound(buffer=_pcm(STATION_SYNTHS[choice](init[0]), init[2]))
        except (pygame.error, OSError, ValueError) as exc:
            return f"the mixer would not play it ({exc}); export it again as 16-bit PCM WAV"
        return None

    def play(self, name: str) -> pygame.mixer.Channel | None:
        """Play one sound now; returns its channel, or None when silent or muted."""
        self.played.append(name)
        snd = self.sounds.get(name)
        if snd is None or self.settings.mute or self.settings.volume <= 0:
            return None
        snd.set_volume(max(0.0, min(1.0, self.settings.volume)))
        return snd.play()

    def on_events(self, events: Iterable[GameEvent], sound_for: Callable[[str], str | None] | None = None,
                  cues: ClipCues = NO_CLIPS) -> list[str]:
        """The sounds for a batch of events (one of each kind at most);
        ``sound_for`` is the running game's (``GameSpec.sound_for``), else
        only the common events sound; ``cues``: its clips' (``GameSpec.clip_cues``)."""
        events = list(events)
        self.clips.on_events(events, cues)
        names: list[str] = []
        for event in events:
            name = sound_for(event.kind) if sound_for is not None else COMMON_EVENT_SOUNDS.get(event.kind)
            if name == STATION_EVENT_SOUND and event.player is not None:
                name = self.station_choices.get(event.player, name)  # the room hears who pressed
            if name and name not in names:
                names.append(name)
        for name in names:
            self.play(name)
        return names

    def close(self) -> None:
        if self.available:
            pygame.mixer.quit()
            self.available = False


def _audio_driver() -> str:
    return os.environ.get("SDL_AUDIODRIVER", "SDL's default driver")
