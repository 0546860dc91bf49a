"""Sound: synthesised, mapped to events, silent (never crashing) without a device."""

from __future__ import annotations

import array
import os

import pygame
import pytest

from controller.screen.sound import Sound, SoundSettings
from games.base import GameEvent


@pytest.fixture
def audio_driver():
    def use(name: str) -> None:
        pygame.mixer.quit()
        os.environ["SDL_AUDIODRIVER"] = name
    yield use
    pygame.mixer.quit()
    os.environ["SDL_AUDIODRIVER"] = "dummy"


def test_no_sound_device_plays_silently(audio_driver) -> None:
    audio_driver("no-such-driver")
    snd = Sound.open()
    assert not snd.available and "no sound" in snd.reason
    assert snd.play("bell") is None
    assert snd.on_events([GameEvent("winner", 0, 1), GameEvent("early", 0, 2)]) == ["bell", "buzz"]


def test_sounds_are_audible_and_distinct(audio_driver) -> None:
    audio_driver("dummy")
    snd = Sound.open()
    assert snd.available
    bell, buzz, tick = (snd.sounds[n] for n in ("bell", "buzz", "tick"))
    assert bell.get_length() > buzz.get_length() > tick.get_length()
    for s in (bell, buzz, tick):
        peak = max(abs(v) for v in array.array("h", s.get_raw()))
        assert peak > 8000, "a sound nobody can hear"
    assert snd.play("bell") is not None


def test_events_choose_the_sound(audio_driver) -> None:
    audio_driver("dummy")
    snd = Sound.open()
    assert snd.on_events([GameEvent("winner", 0, 1)]) == ["bell"]
    assert snd.on_events([GameEvent("wrong", 0, 1), GameEvent("time_up", 0, 1)]) == ["buzz"]
    assert snd.on_events([GameEvent("timer_warning", 0, 1)]) == ["tick"]
    assert snd.on_events([GameEvent("armed", 0)]) == []


def test_mute_and_volume(audio_driver) -> None:
    audio_driver("dummy")
    snd = Sound.open(SoundSettings(volume=0.3, mute=True))
    assert snd.play("bell") is None
    snd.settings.mute = False
    assert snd.play("bell") is not None
    assert snd.sounds["bell"].get_volume() == pytest.approx(0.3, abs=0.01)
