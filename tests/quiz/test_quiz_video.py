"""Video questions: a pack's ``video`` cell names an mp4 or webm clip (with a
start and a length, as ``audio``); the screen's presenter decodes it on the
frame's side and blits it in the question's place, playing from arming,
paused by the decided buzz, on again after a wrong answer, stopped by the
reveal, again from its start on F5. ``pack check`` decodes each clip; a box
without PyAV says how to install it and plays the question with a placeholder."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pygame
import pytest

import controller.screen.video as video
from controller.apps.packs import cmd_pack_check
from controller.box.press import Press
from controller.box.runtime import Box
from controller.screen.loop import Presenter, draw_box, react_box
from controller.screen.screen import Screen
from games import registry
from games.quiz import PACKS_DIR
from games.quiz.packs import check_pack, load_pack
from games.scenes import scene_for

pytest.importorskip("av")

SPEC = registry.get("quiz")
DEMO = PACKS_DIR / "en-video.csv"
SIZE = (1280, 720)
#: the demo's second clip (shapes.mp4): a red square, a blue circle from 0.5 s, a green square from 1 s
RED, BLUE, GREEN = (220, 50, 50), (60, 110, 230), (50, 190, 80)


def check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = cmd_pack_check(argparse.Namespace(file=str(path)))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_demo_video_round_ships_with_its_clips_and_checks_clean(capsys: pytest.CaptureFixture[str]) -> None:
    pack = load_pack(DEMO)
    assert [q.video.name if q.video else None for q in pack.questions] == ["falling-balls.webm", "shapes.mp4"]
    assert all(q.video is not None and q.video.stat().st_size < 20_000 for q in pack.questions)  # a few kB each
    assert pack.questions[1].audio is not None and pack.questions[1].audio_length_s == 4.0  # its sound beside it
    code, out, _err = check(capsys, DEMO)
    assert code == 0 and "2 with videos" in out and out.count("\n") == 1


@pytest.mark.parametrize(("cell", "said"), [
    ("v/nothing.mp4", "video 'v/nothing.mp4' is not in"),
    ("v/clip.avi", "is not a clip the box plays; use .mp4, .webm"),
    ("../clip.mp4", "video '../clip.mp4' must be a path inside the pack's folder"),
    ("v/clip.mp4@5+0", "plays 0.0 s; give a length from 1 to 600 s")])
def test_a_bad_video_cell_is_one_line_naming_the_row(tmp_path: Path, cell: str, said: str) -> None:
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "clip.mp4").write_bytes((PACKS_DIR / "video" / "shapes.mp4").read_bytes())
    (tmp_path / "v" / "clip.avi").write_bytes(b"RIFF")
    path = tmp_path / "pack.csv"
    path.write_text(f"question,answer,video\nGood?,Yes,v/clip.mp4@1.5+2\nBad?,No,{cell}\n", encoding="utf-8")
    [problem] = check_pack(path)
    assert str(problem).startswith("pack.csv line 3: ") and said in str(problem)
    good = load_pack(path).questions[0]
    assert (good.video, good.video_start_s, good.video_length_s) == (tmp_path / "v" / "clip.mp4", 1.5, 2.0)


def test_pack_check_decodes_every_video_one_line_for_each_bad_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "v").mkdir()
    balls = (PACKS_DIR / "video" / "falling-balls.webm").read_bytes()
    shapes = (PACKS_DIR / "video" / "shapes.mp4").read_bytes()
    files = {"good.mp4": shapes, "cut.mp4": shapes[:3000], "cut.webm": balls[:1000], "text.webm": b"not a video\n"}
    for name, data in files.items():
        (tmp_path / "v" / name).write_bytes(data)
    path = tmp_path / "pack.csv"
    path.write_text("question,answer,video\nA?,a,v/good.mp4\nB?,b,v/cut.mp4\nC?,c,v/cut.webm\nD?,d,v/text.webm\n"
                    "E?,e,v/good.mp4@9\n", encoding="utf-8")
    code, out, err = check(capsys, path)
    lines = out.splitlines()
    assert code == 1 and [line.split(":")[0] for line in lines] == [f"pack.csv line {n}" for n in (3, 4, 5, 6)]
    assert all("cannot be decoded: it is cut short, damaged or not really a video" in line for line in lines[:3])
    assert "starts at 9.0 s but lasts 3.4 s" in lines[3] and "Traceback" not in out + err
    assert "1 good question can be played" in err


def test_without_the_decoder_pack_check_says_how_to_install_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(video, "missing_decoder", lambda: True)
    code, out, _err = check(capsys, DEMO)
    assert code == 0 and out.splitlines()[1] == ("2 video questions show a placeholder on this box: the video decoder "
                                                 "is not installed; install it with pip install 'buzzerbox[video]'")


class Clock:
    def __init__(self) -> None:
        self.s = 0.0

    def __call__(self) -> float:
        return self.s


def presenter(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> Presenter:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    p = Presenter(Screen.open(headless=True, size=SIZE), scene_for("quiz"))
    p.video_screen.clock = clock
    return p


def colour_in_clip(p: Presenter, box: Box, now_us: int, colour: tuple[int, int, int]) -> bool:
    """Whether the frame drawn now shows ``colour`` (the clip's shape) in the question's video place."""
    surface = pygame.Surface(SIZE)
    draw_box(p, box, now_us, surface)
    right = surface.subsurface(pygame.Rect(SIZE[0] // 2, 0, SIZE[0] // 2, SIZE[1] // 2))
    return any(all(abs(a - b) < 40 for a, b in zip(right.get_at((x, y))[:3], colour, strict=True))
               for x in range(0, right.get_width(), 4) for y in range(0, right.get_height(), 4))


def test_the_screen_plays_the_clip_pauses_on_the_buzz_plays_on_after_a_wrong_answer_and_stops_on_reveal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    clock = Clock()
    p = presenter(monkeypatch, clock)
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(DEMO)))
    react_box(p, box, box.host("next", 500_000), 500_000)  # to the shapes question (the second)
    assert p.video.state == "stopped" and colour_in_clip(p, box, 600_000, RED)  # its first frame as the still
    react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
    assert p.video.state == "playing" and colour_in_clip(p, box, 1_000_000, RED)
    clock.s = 0.7  # the clip's own time: the circle is on
    assert colour_in_clip(p, box, 1_700_000, BLUE)
    box.apply_press(Press(0, "bell", 1_800_000))
    react_box(p, box, box.step(1_900_000), 1_900_000)  # the lamp was lit by the box; the screen pauses after
    assert p.video.state == "paused"
    clock.s = 5.0  # time passes while the player answers: the clip waits on its frame
    assert colour_in_clip(p, box, 5_000_000, BLUE) and p.video_screen.playing is False
    react_box(p, box, box.host("wrong", 5_100_000), 5_100_000)
    assert p.video.state == "playing"
    clock.s = 5.4  # 0.7 s + 0.4 s of play: the second square (green) from 1.0 s
    assert colour_in_clip(p, box, 5_400_000, GREEN)
    p.replay()  # F5: from its start again
    assert p.video.state == "playing" and p.video_screen._played_s == 0.0
    box.apply_press(Press(1, "bell", 5_600_000))
    react_box(p, box, box.step(5_700_000), 5_700_000)
    react_box(p, box, box.host("correct", 6_000_000), 6_000_000)  # the question is over: the clip stops on its frame
    assert p.video.state == "stopped" and p.video_screen.clip is None and p.scene.video is not None
    react_box(p, box, box.host("reveal", 6_500_000), 6_500_000)
    p.replay()  # F5 after the reveal: plays it again for the room
    assert p.video.state == "playing"


def test_without_the_decoder_the_video_question_plays_with_a_placeholder_saying_the_fix(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setattr(video, "missing_decoder", lambda: True)
    p = presenter(monkeypatch, Clock())
    box = Box(SPEC, SPEC.settings(2, 1, pack=str(DEMO)))
    with caplog.at_level(logging.WARNING, logger="buzzerbox.video"):
        react_box(p, box, box.host("arm", 1_000_000), 1_000_000)
        draw_box(p, box, 1_100_000, pygame.Surface(SIZE))
        react_box(p, box, box.host("next", 2_000_000), 2_000_000)
        react_box(p, box, box.host("arm", 3_000_000), 3_000_000)
    assert p.scene.video is not None and p.scene.video.frame is None
    assert p.scene.video.note == "pip install 'buzzerbox[video]'"
    said = [r.getMessage() for r in caplog.records if r.name == "buzzerbox.video"]
    assert len(said) == 1 and "pip install 'buzzerbox[video]'" in said[0]  # once a run, not once a question
