"""The menu's "Copy results to USB stick" row, as the kiosk runs the menu
(tests/display/kiosk.py): Enter on it copies the evening's journals and
results to the stick plugged in (a folder under the menu's --media-root)
and the panel beside the rows says how many files went where."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box.results.quiz import write_replayed
from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_panel import panel_of
from tests.quiz.test_quiz_bowl import play_journaled_match


def evening(tmp_path: Path) -> Path:
    """A journals folder with a quiz bowl match and its results beside it."""
    journals = tmp_path / "journals"
    journals.mkdir()
    play_journaled_match(journals / "quiz-20261205-201500.jsonl")
    assert write_replayed(journals / "quiz-20261205-201500.jsonl")
    return journals


def box_files(journals: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in journals.iterdir()}


def stick(tmp_path: Path) -> Path:
    at = tmp_path / "media" / "pi" / "STICK"
    at.mkdir(parents=True)
    return at


def copier(seen: dict[str, Any]) -> Script:
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    while not panel_of(frame).startswith(_("Copy results to USB stick") + ":"):
        frame = yield [pygame.K_DOWN]
    frame = yield [pygame.K_RETURN]
    while _("Copy results to USB stick") + ":" in panel_of(frame):  # the row's own line, until what it did
        frame = yield []
    seen["panel"] = panel_of(frame)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")
def test_the_menu_row_copies_and_says_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals = evening(tmp_path)
    at = stick(tmp_path)
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, copier(seen))
    assert main(["--lang", "en", *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert "Copied 5 files to the USB stick STICK, folder buzzerbox-results." in seen["panel"], seen["panel"]
    assert sorted(p.name for p in (at / "buzzerbox-results").iterdir()) == sorted(
        [*box_files(journals), "quiz-20261205-201500.qbj"])
