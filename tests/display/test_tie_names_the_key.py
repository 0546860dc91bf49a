"""A tie tells the host what to do: the banner names the key that draws who
answers (it said only "the host picks"; the key was in the help list alone).

Through the whole ``buzzerbox menu`` loop (keyboard stations, split design),
keys pressed on what the screen shows (tests/display/kiosk.py): the host
starts a quiz and arms it, two players press in the same frame (a keyboard
tie: 25 ms apart at best), the host reads the banner and presses its key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Frame, Kiosk, Script, Steps, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, end_game_and_quit
from tests.display.test_menu_refusal import said
from tests.fits import overlaps

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

BANNER = "too close to call: host, press {key} to draw who answers"


def to_a_tie(frame: Frame) -> Steps:
    """From the menu: a quiz started and armed, players 1 and 2 press in one frame: the tie on the screen."""
    while not asked(frame, MENU_HINT):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # Start
    while not any(wanted.startswith("A: ") for wanted, *_r in frame):
        frame = yield []
    frame = yield [pygame.K_SPACE]  # arm
    while not asked(frame, "BUZZ!"):
        frame = yield []
    frame = yield [pygame.K_1, pygame.K_2]  # two bells in one frame: a tie
    while not asked(frame, "TIE"):
        frame = yield []
    return frame


def host(seen: dict[str, Any]) -> Script:
    frame = yield []
    frame = yield from to_a_tie(frame)
    seen["tie"] = said(frame)
    seen["frame"] = frame
    frame = yield [pygame.K_p]  # what the banner says
    while asked(frame, "TIE"):
        frame = yield []
    seen["after"] = said(frame)
    yield from end_game_and_quit(frame)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_tie_banner_names_the_key_and_the_key_decides(language: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert _(BANNER).format(key="P") in seen["tie"], seen["tie"]
    assert not overlaps(seen["frame"]), overlaps(seen["frame"])
    answering = [_("Player {n}").format(n=1), _("Player {n}").format(n=2)]
    assert any(name in seen["after"] for name in answering), seen["after"]
