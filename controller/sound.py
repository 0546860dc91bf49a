"""Bell, buzz and tick, synthesised at start-up (no sound files to ship).

No sound device, or a mixer that will not open: the box plays silently and
says so once in the log. Volume and mute come from the settings.
"""

from __future__ import annotations

import array
import logging
import math
import os
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pygame

from games.base import COMMON_EVENT_SOUNDS, GameEvent

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


SYNTHS = {"bell": bell, "buzz": buzz, "tick": tick}


class Sound:
    """The box's sounds. ``Sound.open()`` never raises: without a device it is silent."""

    def __init__(self, settings: SoundSettings | None = None) -> None:
        self.settings = settings or SoundSettings()
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.available = False
        self.reason = "not opened"
        self.played: list[str] = []  # what was asked for (the demo's summary, tests)

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
        except (pygame.error, NotImplementedError, OSError) as exc:
            self.sounds.clear()
            self.reason = f"no sound: {exc}"
            log.warning("playing silently (%s)", exc)
        return self

    def play(self, name: str) -> pygame.mixer.Channel | None:
        """Play one sound now; returns its channel, or None when silent or muted."""
        self.played.append(name)
        snd = self.sounds.get(name)
        if snd is None or self.settings.mute or self.settings.volume <= 0:
            return None
        snd.set_volume(max(0.0, min(1.0, self.settings.volume)))
        return snd.play()

    def on_events(self, events: Iterable[GameEvent], sound_for: Callable[[str], str | None] | None = None) -> list[str]:
        """The sounds for a batch of events (one of each kind at most);
        ``sound_for`` is the running game's (``GameSpec.sound_for``), else
        only the common events sound."""
        names: list[str] = []
        for event in events:
            name = sound_for(event.kind) if sound_for is not None else COMMON_EVENT_SOUNDS.get(event.kind)
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
