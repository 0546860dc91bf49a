"""The menu's games are journaled by their deciding process: the menu's
process (the screen) never writes a journal, yet a game started from the
menu and ended there is in its journal, header to end. Through ``buzzerbox
menu`` in the default mode, keys pressed on what the screen shows
(tests/display/kiosk.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import journal_format
from controller.box.journal_writer import JournalWriter
from controller.cli import main
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_carry_on import first_question
from tests.display.test_game_end_confirm import MENU_HINT, asked

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def one_game(seen: dict[str, Any]) -> Script:
    """Start the first game, end it at its first question, quit the menu."""
    yield from first_question()
    seen["played"] = True
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # the game ends
    while not asked(frame, MENU_HINT):
        frame = yield []
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]  # the menu quits


def test_a_menu_game_is_journaled_by_its_deciding_process_alone(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the menu's process wrote a journal")

    monkeypatch.setattr(JournalWriter, "create", refused)  # here, in the menu's process only
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals = tmp_path / "journals"
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, one_game(seen))
    assert main(menu_args(tmp_path, "--players", "4")) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen.get("played")
    [journal] = journals.glob("*.jsonl")
    records = journal_format.load(journal).records
    assert journal_format.load(journal).session is not None and journal_format.load(journal).ended
    assert isinstance(records[-1], journal_format.EndRecord)
