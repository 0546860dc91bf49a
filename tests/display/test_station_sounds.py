"""Sounds per station: the room hears who pressed. Each station may name one of
the synthesised sounds or a WAV file in its profile; a WAV that is missing or
will not play is one line and the station keeps the bell."""

from __future__ import annotations

import array
import math
import os
import struct
import wave
from pathlib import Path

import pygame
import pytest

from controller.box import profile as profile_mod
from controller.box.profile import STATION_SOUNDS, ProfileError
from controller.cli import main
from controller.screen.sound import Sound, wav_problem
from games.base import GameEvent

TWO_STATIONS = '[[stations]]\nname = "Red"\n{red}inputs = {{ bell = 17 }}\n\n[[stations]]\nname = "Blue"\n{blue}inputs = {{ bell = 27 }}\n'


@pytest.fixture
def mixer():
    pygame.mixer.quit()
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    yield
    pygame.mixer.quit()


def write_wav(path: Path, seconds: float = 0.3, rate: int = 22050, width: int = 2) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(width)
        w.setframerate(rate)
        fmt = "<h" if width == 2 else "<i"
        w.writeframes(b"".join(struct.pack(fmt, int(12000 * math.sin(2 * math.pi * 440 * i / rate)))
                               for i in range(int(rate * seconds))))
    return path


def profile_with(tmp_path: Path, red: str = "", blue: str = "") -> profile_mod.Profile:
    path = tmp_path / "two.toml"
    path.write_text(TWO_STATIONS.format(red=red and f"sound = {red!r}\n".replace("'", '"'),
                                        blue=blue and f"sound = {blue!r}\n".replace("'", '"')), encoding="utf-8")
    return profile_mod.load(str(path))


def test_a_station_s_own_sound_replaces_the_bell_when_it_wins(tmp_path: Path, mixer) -> None:
    write_wav(tmp_path / "blue.wav")
    prof = profile_with(tmp_path, red="chime", blue="blue.wav")
    assert prof.station_sounds() == ["chime", str(tmp_path / "blue.wav")]  # a WAV is found beside the profile
    snd = Sound.open()
    assert snd.use_station_sounds(prof.station_sounds(), ["Red", "Blue"]) == []
    assert snd.on_events([GameEvent("winner", 0, 0)]) == ["chime"]
    assert snd.on_events([GameEvent("winner", 0, 1)]) == [str(tmp_path / "blue.wav")]
    assert snd.on_events([GameEvent("winner", 0, 2)]) == ["bell"]  # no sound of its own: the bell
    assert snd.on_events([GameEvent("wrong", 0, 0)]) == ["buzz"]  # only the bell is the station's
    assert snd.play("chime") is not None and snd.play(str(tmp_path / "blue.wav")) is not None


@pytest.mark.parametrize(("make", "said"), [
    (lambda p: p, "not found"),
    (lambda p: (p.write_bytes(b"RIFF\x00\x00garbage" * 10), p)[1], "not a PCM WAV"),
    (lambda p: write_wav(p, seconds=6.0, rate=8000), "at most 5 s"),
    (lambda p: write_wav(p, width=4), "16-bit PCM"),
])
def test_a_bad_wav_is_one_line_and_the_bell(tmp_path: Path, mixer, caplog, make, said) -> None:
    make(tmp_path / "red.wav")
    prof = profile_with(tmp_path, red="red.wav", blue="gong")
    snd = Sound.open()
    problems = snd.use_station_sounds(prof.station_sounds(), ["Red", "Blue"])
    assert len(problems) == 1 and problems[0].startswith("Red's sound ") and said in problems[0]
    assert problems[0].endswith("it plays the bell instead") and "\n" not in problems[0]
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == problems
    assert snd.on_events([GameEvent("winner", 0, 0)]) == ["bell"]
    assert snd.on_events([GameEvent("winner", 0, 1)]) == ["gong"]


def test_without_a_sound_device_the_choices_hold_and_nothing_plays(tmp_path: Path) -> None:
    pygame.mixer.quit()
    os.environ["SDL_AUDIODRIVER"] = "no-such-driver"
    try:
        snd = Sound.open()
        assert not snd.available
        snd.use_station_sounds(["whistle", None], ["Red", "Blue"])
        assert snd.on_events([GameEvent("winner", 0, 0)]) == ["whistle"]
        assert snd.play("whistle") is None
    finally:
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        pygame.mixer.quit()


def test_every_synthesised_station_sound_is_audible_and_its_own(mixer) -> None:
    snd = Sound.open()
    snd.use_station_sounds(list(STATION_SOUNDS))
    raws = {}
    for name in STATION_SOUNDS:
        samples = array.array("h", snd.sounds[name].get_raw())
        assert max(abs(v) for v in samples) > 8000, f"{name}: nobody would hear it"
        assert 0.05 < snd.sounds[name].get_length() <= 1.5, name
        raws[name] = samples.tobytes()
    assert len(set(raws.values())) == len(STATION_SOUNDS)


def test_a_sound_the_box_does_not_have_is_a_profile_error_naming_the_closest(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match=r"sound 'chme' is neither .*did you mean chime\?.*\.wav"):
        profile_with(tmp_path, red="chme")


def test_doctor_lists_each_station_s_sound(tmp_path: Path, capsys) -> None:
    write_wav(tmp_path / "blue.wav", seconds=0.25)
    profile_with(tmp_path, red="missing.wav", blue="blue.wav")
    assert main(["doctor", "--quick", "--profile", str(tmp_path / "two.toml")]) == 0
    out = capsys.readouterr().out
    assert "station sounds (two):" in out
    assert f"Red: {tmp_path / 'missing.wav'}: not found" in out and "plays the bell instead" in out
    assert f"Blue: {tmp_path / 'blue.wav'} (0.25 s, 22050 Hz, 16-bit mono)" in out


def test_wav_problem_accepts_a_good_file(tmp_path: Path) -> None:
    assert wav_problem(write_wav(tmp_path / "ok.wav")) is None


def test_diag_says_what_each_station_will_sound_like(tmp_path: Path, capsys) -> None:
    profile_with(tmp_path, red="horn")
    assert main(["diag", "--profile", str(tmp_path / "two.toml"), "--simulate", "--headless", "--seconds", "0.1"]) == 0
    err = capsys.readouterr().err
    assert "diag: station sounds: Red: horn (synthesised); Blue: the game's bell" in err


def test_the_fanfare_is_ready_for_the_podium(mixer) -> None:
    snd = Sound.open()
    fanfare = snd.sounds["fanfare"]
    assert max(abs(v) for v in array.array("h", fanfare.get_raw())) > 8000
    assert fanfare.get_length() > snd.sounds["buzz"].get_length()
    assert snd.play("fanfare") is not None


def test_every_sound_a_game_may_name_is_synthesised_and_the_quiz_podium_plays_the_fanfare() -> None:
    """A game's ``event_sounds`` name a ``SoundName``; one without a synthesiser
    would be silent. The podium was mapped to the bell until the fanfare landed."""
    from typing import get_args

    from controller.screen.sound import SYNTHS
    from games.base import SoundName
    from games.registry import get

    assert set(get_args(SoundName)) <= set(SYNTHS)
    assert get("quiz").sound_for("podium") == "fanfare"
    tune = SYNTHS["fanfare"](8000)
    assert 0.8 * 8000 < len(tune) < 2 * 8000 and max(abs(v) for v in tune) <= 1.0


def test_wiring_check_warns_of_a_station_wav_that_will_not_play(tmp_path: Path, capsys) -> None:
    """The profile's check is where a builder looks: a 10 s WAV must not pass
    it silently (only `doctor` said so before)."""
    write_wav(tmp_path / "long.wav", seconds=10, rate=8000)
    write_wav(tmp_path / "blue.wav", seconds=0.25)
    profile_with(tmp_path, red="long.wav", blue="blue.wav")
    assert main(["wiring", "check", str(tmp_path / "two.toml")]) == 0
    warned = [line for line in capsys.readouterr().out.splitlines() if line.startswith("WARN")]
    assert any(line.startswith("WARN Red: sound") and "10.0 s long" in line for line in warned), warned
    assert not any("Blue" in line for line in warned)
