"""A name typed with an emoji: the big screen's font has no glyph for it (an
empty box on the TV), so the names editor leaves it out and says so in one
line, in the host's language; the rest of the name is kept.

Through the whole ``buzzerbox menu`` loop (tests/display/kiosk.py): the host
opens Player names, types "Eva🎉", reads the line, and finishes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, Steps, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

EDITOR = "type a name · up/down: next player · Enter: done"


def to_the_names_editor() -> Steps:
    """From the menu's first frame down to Player names and into the editor: its first frame."""
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    while not panel_of(frame).startswith(_("Player names") + ":"):
        frame = yield [pygame.K_DOWN]
    frame = yield [pygame.K_RETURN]
    while not asked(frame, EDITOR):
        frame = yield []
    return frame


def done_and_quit(seen: dict[str, Any]) -> Script:
    """Enter: the names kept, the menu's panel read into ``seen["panel"]``; then Esc, Esc."""
    frame = yield [pygame.K_RETURN]
    while not asked(frame, MENU_HINT):
        frame = yield []
    seen["panel"] = panel_of(frame)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def host(seen: dict[str, Any]) -> Script:
    yield from to_the_names_editor()
    frame = yield [pygame.event.Event(pygame.TEXTINPUT, text="Eva🎉")]
    frame = yield []
    seen["typed"] = said(frame)
    yield from done_and_quit(seen)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_an_emoji_in_a_name_is_left_out_and_said(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    line = _("{chars}: the big screen cannot draw these; letters, digits and punctuation only").format(chars="🎉")
    assert line in seen["typed"], seen["typed"]
    assert "Eva" in seen["panel"] and "🎉" not in seen["panel"], seen["panel"]
