"""One Esc never ends the evening's game: the screen asks first, with the
same dialog the menu shows before it quits; any other key goes on, a second
Esc ends it and the menu is back.

Played through the whole ``buzzerbox menu`` loop on a bell-only wiring
(header-7-bells, mock pins) in the default split design (the game decided in
its own process, drawn by the menu's screen), keys pressed on what the
screen shows (tests/display/kiosk.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import journal_format
from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Frame, Kiosk, Script, menu_args
from tests.display.test_menu_refusal import said

#: the question (controller/screen/loop.py END_CONFIRM), as the host reads it
END_CONFIRM = "End the game? Esc again to end, any other key to go on"
MENU_HINT = "arrows: choose and change · Enter: start · Esc: quit"


def asked(frame: Frame, text: str) -> bool:
    """``text`` was drawn in this frame (whole or shrunk to fit)."""
    return any(wanted == _(text) for wanted, _shown, _ink, _given, _screen in frame)


def end_game_and_quit(frame: Frame) -> Script:
    """From a game on the screen: Esc twice (asked, then meant) back to the menu,
    then Esc twice to quit it: the way every kiosk script here leaves."""
    yield from back_to_menu_and_quit(frame, escapes=2)


def back_to_menu_and_quit(frame: Frame, escapes: int) -> Script:
    """Esc ``escapes`` times back to the menu (a game asks first: 2; a results screen: 1),
    then Esc twice to quit it."""
    for _press in range(escapes):
        frame = yield [pygame.K_ESCAPE]
    while not asked(frame, MENU_HINT):
        frame = yield []
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def menu(frame: Frame) -> bool:
    return asked(frame, MENU_HINT)

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

PROFILE = "header-7-bells"


def host(seen: dict[str, Any]) -> Script:
    """Start a quiz, Esc once (asked), a key (on), Esc twice (ended), then quit the menu."""
    frame = yield []
    while not menu(frame):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # Start
    while not asked(frame, "Every station: press your button once"):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # the roll call skipped: the game starts
    while not asked(frame, "Quiz buzzer") or asked(frame, "Every station: press your button once"):
        frame = yield []
    frame = yield [pygame.K_ESCAPE]
    while _(END_CONFIRM) not in said(frame) and not menu(frame):
        frame = yield []
    seen["asked"] = _(END_CONFIRM) in said(frame)
    seen["still playing"] = not menu(frame)
    frame = yield [pygame.K_DOWN]  # any other key: the game goes on
    seen["went on"] = _(END_CONFIRM) not in said(frame) and not menu(frame)
    frame = yield [pygame.K_ESCAPE]
    seen["asked again"] = _(END_CONFIRM) in said(frame)
    frame = yield [pygame.K_ESCAPE]  # meant: the game ends, the menu is back
    while not menu(frame):
        frame = yield []
    seen["menu again"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_first_esc_in_a_game_asks_and_the_second_ends_it(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals = tmp_path / "journals"
    journals.mkdir()
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--profile", PROFILE)]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen.get("asked") and seen.get("still playing"), seen
    assert seen.get("went on") and seen.get("asked again") and seen.get("menu again"), seen
    [journal] = [p for p in journals.iterdir() if p.suffix == ".jsonl"]
    assert isinstance(journal_format.load(journal).records[-1], journal_format.EndRecord)  # closed, not cut off
