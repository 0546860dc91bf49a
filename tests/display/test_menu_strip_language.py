"""The menu's player strip follows the Language row: "Hráč 1" the moment the
host picks Czech, not "Player 1" until the next start (keyboard stations,
nobody named).

Through the whole ``buzzerbox menu`` loop (tests/display/kiosk.py): the host
goes down to the Language row and changes it, and reads the strip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from games.i18n import _, current_language
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def host(seen: dict[str, Any], target: str) -> Script:
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    while not panel_of(frame).startswith(_("Language") + ":"):
        frame = yield [pygame.K_DOWN]
    while current_language() != target:
        frame = yield [pygame.K_RIGHT]
    frame = yield []  # drawn in the new language
    seen["language"] = current_language()
    seen["strip"] = said(frame)
    seen["player 1"] = _("Player {n}").format(n=1)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("target", ["cs", "pl"])
def test_the_strip_follows_the_language_row(target: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen, target))
    assert main(["--lang", "en", *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen["language"] == target
    assert seen["player 1"] in seen["strip"] and "Player 1" not in seen["strip"], seen["strip"]
