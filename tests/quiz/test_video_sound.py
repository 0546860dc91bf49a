"""A video question's own sound: decoded by PyAV a piece at a time, played on
a reserved channel of pygame's mixer (SDL's silent driver here) in step with
the pictures: it starts with them (from the pack's start mark), pauses on the
decided buzz, plays on after a wrong answer, stops on the answer, and F5
plays both again. An ``audio`` cell wins; a video without sound plays silent
without a word; a damaged track is one line and the pictures play on."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import threading
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.apps.packs import cmd_pack_check
from controller.box.press import Press
from controller.box.runtime import Box
from controller.cli import main
from controller.screen.loop import Presenter, draw_box, react_box
from controller.screen.screen import Screen
from controller.screen.sound import Sound
from games import registry
from games.quiz import PACKS_DIR
from games.scenes import scene_for
from tests.web.test_split_phones import DEADLINE_S, reply, started

pytest.importorskip("av")
import av  # noqa: E402

from controller.screen.video import TRACK_PIECE_S, SoundTrack  # noqa: E402

SPEC = registry.get("quiz")
BALLS = PACKS_DIR / "video" / "falling-balls.webm"  # 4.5 s with a tune of its own (tools/video_round.py)
SHAPES = PACKS_DIR / "video" / "shapes.mp4"  # pictures only


class Recorder:
    """The mixer's real channel, each call kept (what the room would hear, in order)."""

    def __init__(self, channel: Any) -> None:
        self.channel = channel
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.channel, name)

        def call(*args: Any) -> Any:
            if name not in ("get_busy", "get_queue", "set_volume"):
                self.calls.append(name)
            return method(*args)
        return call


class Clock:
    s = 0.0

    def __call__(self) -> float:
        return self.s


@pytest.fixture
def mixer(monkeypatch: pytest.MonkeyPatch) -> Sound:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    if pygame.mixer.get_init():
        pygame.mixer.quit()
    sound = Sound.open()
    assert sound.available
    return sound


def pack(tmp_path: Path, video: Path, audio: str = "") -> Path:
    (tmp_path / "v").mkdir(exist_ok=True)
    (tmp_path / "v" / video.name).write_bytes(video.read_bytes())
    if audio:
        (tmp_path / "v" / "tune.wav").write_bytes((PACKS_DIR / "music" / "twinkle.wav").read_bytes())
    path = tmp_path / "pack.csv"
    path.write_text(f"question,answer,video,audio\nWhat colour?,Green,v/{video.name}@1.3,{audio}\n", encoding="utf-8")
    return path


def presenter(sound: Sound) -> tuple[Presenter, Recorder, Clock]:
    p = Presenter(Screen.open(headless=True, size=(640, 360)), scene_for("quiz"), sound=sound)
    clock = Clock()
    p.video_screen.clock = clock
    pygame.mixer.set_reserved(1)
    recorder = Recorder(pygame.mixer.Channel(0))
    p.video_screen.channel = recorder
    return p, recorder, clock


def test_the_videos_sound_starts_pauses_plays_on_and_stops_with_its_pictures(
        mixer: Sound, tmp_path: Path) -> None:
    p, channel, clock = presenter(mixer)
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(pack(tmp_path, BALLS))))
    react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
    track = p.video_screen.track
    assert p.video.state == "playing" and track is not None and channel.calls == ["play"]
    assert TRACK_PIECE_S <= track.decoded_s < TRACK_PIECE_S + 0.1  # a piece at a time (whole frames)
    assert channel.channel.get_busy()  # the mixer is playing it
    clock.s = 0.1
    draw_box(p, box, 1_100_000, pygame.Surface((640, 360)))
    assert channel.calls == ["play", "queue"]  # the next piece waits behind the one playing
    box.apply_press(Press(0, "bell", 1_200_000))
    react_box(p, box, box.step(1_300_000), 1_300_000)  # the lamp first (the box), then the screen pauses
    assert p.video.state == "paused" and channel.calls[-1] == "pause"
    react_box(p, box, box.host("wrong", 2_000_000), 2_000_000)
    assert p.video.state == "playing" and channel.calls[-1] == "unpause"
    p.replay()  # F5: pictures and sound from the start mark again, the old piece stopped
    assert p.video_screen.track is not track and channel.calls[-2:] == ["stop", "play"]
    box.apply_press(Press(1, "bell", 2_500_000))
    react_box(p, box, box.step(2_600_000), 2_600_000)
    react_box(p, box, box.host("correct", 3_000_000), 3_000_000)
    assert p.video.state == "stopped" and p.video_screen.track is None and channel.calls[-1] == "stop"
    assert not channel.channel.get_busy()


def test_the_start_mark_cuts_the_sound_where_it_cuts_the_pictures(mixer: Sound) -> None:
    full = SoundTrack.open(BALLS, 0.0, None, (8000, 8, 1))
    late = SoundTrack.open(BALLS, 1.3, None, (8000, 8, 1))
    assert full is not None and late is not None
    assert full.check() - late.check() == pytest.approx(1.3, abs=0.01)


def test_an_audio_cell_wins_over_the_videos_own_sound(mixer: Sound, tmp_path: Path) -> None:
    p, channel, _clock = presenter(mixer)
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(pack(tmp_path, BALLS, "v/tune.wav"))))
    react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
    assert p.video.state == "playing" and p.video_screen.track is None and channel.calls == []
    assert mixer.clips.state == "playing"  # the cell's clip, through pygame.mixer.music


def test_a_video_without_sound_plays_silent_without_a_word(
        mixer: Sound, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    p, channel, clock = presenter(mixer)
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(pack(tmp_path, SHAPES))))
    with caplog.at_level(logging.WARNING):
        react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
        clock.s = 0.5
        draw_box(p, box, 1_500_000, pygame.Surface((640, 360)))
    assert p.video.state == "playing" and p.video_screen.track is None and channel.calls == []
    assert p.video_screen.still is not None and not caplog.records


def damaged(folder: Path) -> Path:
    """The demo clip with every sound packet overwritten (the pictures untouched)."""
    path = folder / "damaged.webm"
    with av.open(str(BALLS)) as source, av.open(str(path), "w") as out:
        pictures = out.add_stream_from_template(source.streams.video[0])
        sound = out.add_stream_from_template(source.streams.audio[0])
        for packet in source.demux():
            if packet.dts is None:
                continue
            if packet.stream.type == "audio":
                bad = av.Packet(b"\xff" * packet.size)
                bad.pts, bad.dts, bad.time_base, bad.stream = packet.pts, packet.dts, packet.time_base, sound
                out.mux(bad)
            else:
                packet.stream = pictures
                out.mux(packet)
    return path


def test_a_damaged_sound_track_is_one_line_and_the_pictures_play_on(
        mixer: Sound, tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]) -> None:
    path = damaged(tmp_path)
    p, channel, clock = presenter(mixer)
    (tmp_path / "v").mkdir()
    path.rename(tmp_path / "v" / "damaged.webm")
    csv = tmp_path / "pack.csv"
    csv.write_text("question,answer,video\nWhat colour?,Green,v/damaged.webm\n", encoding="utf-8")
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(csv)))
    with caplog.at_level(logging.WARNING):
        react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
        for k in range(1, 5):
            clock.s = 0.5 * k
            draw_box(p, box, 1_000_000 + 500_000 * k, pygame.Surface((640, 360)))
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "the sound of" in said[0] and "the pictures play on" in said[0]
    assert p.video.state == "playing" and p.video_screen.track is None and p.video_screen.clip is not None
    assert p.video_screen.clip.shown_s == pytest.approx(2.0, abs=0.1)  # the pictures went on to 2 s
    code = cmd_pack_check(argparse.Namespace(file=str(csv)))
    out, err = capsys.readouterr()
    assert code == 1 and out.count("\n") == 1 and "has a sound track that cannot be decoded" in out
    assert "Traceback" not in out + err


def test_pack_check_says_which_videos_play_their_own_sound(capsys: pytest.CaptureFixture[str]) -> None:
    code = cmd_pack_check(argparse.Namespace(file=str(PACKS_DIR / "en-video.csv")))
    out, _err = capsys.readouterr()
    assert code == 0 and "2 with videos, 1 video with its own sound" in out


def test_a_muted_box_plays_the_pictures_without_their_sound(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from controller.screen.sound import SoundSettings

    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setitem(os.environ, "SDL_VIDEODRIVER", "dummy")
    p, channel, _clock = presenter(Sound.open(SoundSettings(mute=True)))
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(pack(tmp_path, BALLS))))
    react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
    assert p.video.state == "playing" and p.video_screen.track is None and channel.calls == []


async def arm_until_heard(port: int, pin: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    """The host arms the demo video round's first question (the falling balls), waits for the
    screen's process (``play``'s own: the deciding one is its child) to say its sound plays,
    then ends the game; what the video's player said."""
    import aiohttp

    def said() -> list[str]:
        return [r.getMessage() for r in list(caplog.records) if r.name == "buzzerbox.video"]

    async with aiohttp.ClientSession() as session:
        host = await session.ws_connect(f"http://localhost:{port}/ws/host")
        await host.send_json({"type": "hello", "pin": pin})
        await reply(host, lambda m: m["type"] == "host" and m["live"])
        await host.send_json({"type": "host", "action": "arm", "seq": 1})
        assert (await reply(host, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
        give_up = time.monotonic() + DEADLINE_S
        while not said() and time.monotonic() < give_up:
            await asyncio.sleep(0.01)  # waiting for the screen's line, not pacing the test
        await host.send_json({"type": "host", "action": "end", "seq": 2})
        await reply(host, lambda m: m["type"] == "ended")
        await host.close()
        return said()


def test_buzzerbox_play_plays_the_demo_videos_own_sound_on_the_screens_side(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    seen: dict[str, Any] = {}

    def host() -> None:
        try:
            port, pin = started(capsys)  # the port the server bound itself (--web 0)
            seen["said"] = asyncio.run(arm_until_heard(port, pin, caplog))
        except BaseException as exc:  # noqa: BLE001 (the main thread fails the test with it)
            seen["error"] = exc

    thread = threading.Thread(target=host)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="buzzerbox.video"):
            assert main(["play", "quiz", "--players", "2", "--headless", "--seconds", str(DEADLINE_S), "--option",
                         "pack=en-video", "--journal", str(tmp_path / "quiz.jsonl"), "--web", "0"]) == 0
    finally:
        thread.join(DEADLINE_S)
    if "error" in seen:
        raise seen["error"]
    [line] = seen["said"]  # the clip as kept beside the journal (by its content) plays with its sound
    assert line.startswith("video: ") and line.endswith(".webm plays its own sound from 0.0 s")


def test_without_pyav_the_video_question_is_silent_with_the_one_line_as_before(
        mixer: Sound, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import controller.screen.video as video

    monkeypatch.setattr(video, "missing_decoder", lambda: True)
    p, channel, _clock = presenter(mixer)
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(pack(tmp_path, BALLS))))
    with caplog.at_level(logging.WARNING, logger="buzzerbox.video"):
        react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
    assert p.video_screen.track is None and channel.calls == []
    [line] = [r.getMessage() for r in caplog.records if r.name == "buzzerbox.video"]
    assert "pip install 'buzzerbox[video]'" in line
