"""A Czech or Polish host reads no English where the box speaks to them
(issue 51): the "did you mean" of a game's name, a folder given to
``--journal``, a margin behind the first press ("+56,896 ms" with the
decimal comma), the help list's word keys, and "Standings" of a quiz
without teams (it said "team standings" in Czech)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from controller.box.runtime import Box
from controller.cli import main
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import keyboard_help
from games.arbitration import format_margin
from games.i18n import _, set_language
from games.registry import get
from tests.cli.test_bad_input import one_line_ending
from tests.processes import HANG_S

LANGUAGES = ["en", "cs", "pl"]


@pytest.fixture(params=LANGUAGES)
def language(request: pytest.FixtureRequest) -> object:
    set_language(request.param)
    yield request.param
    set_language("en")


def test_a_near_miss_game_name_is_suggested_in_the_reader_s_language(language: str, capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    status, err = one_line_ending(lambda: main(["--lang", language, "play", "quizz", "--headless"]), capsys)
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert _("(did you mean {name}?)").format(name="quiz") in err, err
    assert (language == "en") == ("did you mean" in err), err


def test_a_folder_given_to_journal_is_named_a_folder(language: str, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    status, err = one_line_ending(lambda: main(["--lang", language, "play", "quiz", "--headless", "--seconds", "1",
                                                "--journal", str(tmp_path)]), capsys)
    assert status in (1, 2) and "Traceback" not in err, err
    assert _("{path} is a folder: give a journal file's name, e.g. {path}/night.jsonl").format(path=tmp_path) in err, err


def test_a_margin_is_written_with_the_language_s_decimal_mark(language: str) -> None:
    assert format_margin(56_896) == ("+56.896 ms" if language == "en" else "+56,896 ms")


def test_the_help_list_names_the_word_keys_in_the_language(language: str) -> None:
    pygame.display.init()
    pygame.font.init()
    spec = get("quiz")
    box = Box(spec, spec.settings(2))
    keyboard = KeyboardSource(2)
    keyboard.add_host_keys(spec.host_keys)
    rows = keyboard_help(box.spec, keyboard, box.engine.public_view()).rows
    keys = [key for key, _meaning in rows]
    assert _("space") in keys and ("space" in keys) == (language == "en"), keys
    assert "escape" not in keys, keys


def test_standings_without_teams_do_not_say_teams() -> None:
    set_language("cs")
    try:
        assert "tým" not in _("Standings").lower()
    finally:
        set_language("en")


def test_stopped_before_it_started_is_said_in_the_asked_language() -> None:
    """Ctrl+C in the first second (the command line not read yet): the line in
    --lang's language. In a process of its own (the entry point takes the signals)."""
    script = ("import sys, controller.cli\n"
              "def interrupted(*args): raise KeyboardInterrupt\n"
              "controller.cli.main = interrupted\n"
              "sys.argv = ['buzzerbox', '--lang', 'cs', 'play', 'quiz']\n"
              "from controller.__main__ import run\n"
              "sys.exit(run())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=HANG_S, check=False)
    set_language("cs")
    try:
        assert done.returncode == 130 and _("buzzerbox: stopped before it started") in done.stderr, done.stderr
        assert "stopped before it started" not in done.stderr, done.stderr
    finally:
        set_language("en")
