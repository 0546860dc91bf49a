"""All-play on keyboard stations: a keyboard station has one button (``a``,
on the keypad), so the screen says the players answer on a phone, not
"press A, B, C, D" (on a wiring with answer buttons it still says press).

Through the whole ``buzzerbox menu`` loop (split design), keys pressed on
what the screen shows (tests/display/kiosk.py): the host sets Rules to
all-play, starts, opens the first question (space) and reads the screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, end_game_and_quit
from tests.display.test_menu_refusal import rules_to, said

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def host(seen: dict[str, Any]) -> Script:
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    frame = yield from rules_to(frame, "all play: everyone answers")
    frame = yield [pygame.K_RETURN]  # Start
    while not any(wanted.startswith("A: ") for wanted, *_r in frame):
        frame = yield []  # the first question on the screen, waiting for the host
    frame = yield [pygame.K_SPACE]  # the host opens it
    while _("{n} of {total} locked in").format(n=0, total=4) not in said(frame):
        frame = yield []  # open: nobody has answered yet
    seen["open"] = said(frame)
    yield from end_game_and_quit(frame)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_all_play_on_keyboard_stations_says_phones(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    letters = "A, B, C, D"
    assert _("Everyone answers on a phone: {letters}").format(letters=letters) in seen["open"], seen["open"]
    assert _("Everyone answers: press {letters}").format(letters=letters) not in seen["open"]
