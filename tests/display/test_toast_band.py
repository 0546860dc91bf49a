"""The "that key does nothing" line has a band of its own below the strip (as
the keyboard's keys line): it never covers the game's text. It was drawn over
the bottom of the picture and cut the quiz's instruction in half.

Through the whole ``buzzerbox menu`` loop (mock pins, split design), keys
pressed on what the screen shows (tests/display/kiosk.py): the host starts a
quiz, presses ``c`` while there is nothing to judge, and reads the frame."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from controller.screen import screen as screen_mod
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, end_game_and_quit
from tests.fits import overlaps

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

TOAST = "That key does nothing right now"


def host(seen: dict[str, Any]) -> Script:
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # Start
    while not asked(frame, "Every station: press your button once"):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # the roll call skipped
    while not any(wanted.startswith("A: ") for wanted, *_r in frame):
        frame = yield []  # the first question on the screen, waiting for the host
    frame = yield [pygame.K_c]  # nothing to judge yet: refused
    while not asked(frame, TOAST):
        frame = yield []
    seen["frame"] = frame
    yield from end_game_and_quit(frame)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_refusal_line_covers_no_text(language: str, size: tuple[int, int], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(screen_mod, "HEADLESS_SIZE", size)  # the dummy video driver's screen
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--profile", "header-7-bells")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    frame = seen["frame"]
    assert {screen.size for *_r, screen in frame} == {size}
    toast = [ink for wanted, shown, ink, _given, _screen in frame if wanted == _(TOAST) and shown == wanted]
    assert toast, f"the line was cut: {[shown for w, shown, *_r in frame if w == _(TOAST)]}"
    assert not overlaps(frame), overlaps(frame)
    # nor over the room the game gave any of its texts (a text drawn later in that room would be covered)
    covered = [shown for wanted, shown, _ink, given, _screen in frame if wanted != _(TOAST) and given.colliderect(toast[0])]
    assert not covered, covered
