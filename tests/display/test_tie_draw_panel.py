"""After a tie's fair draw (the host's `p`), the screen tells the room what happened: the one
drawn answers "drawn by lot from a tie with" the other, whose tile and whose row under "next in
line" agree that they are next (#2). (The panel said "next in line: nobody" while the other's
tile said IN LINE, and the caption "0.000 ms ahead", as if the race had been won on time.)

Through the whole ``buzzerbox menu`` loop (keyboard stations, split design): two players press
in the same frame (a keyboard tie), the host presses `p`; in English, Czech and Polish."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import asked, end_game_and_quit
from tests.display.test_menu_refusal import said
from tests.display.test_tie_names_the_key import to_a_tie
from tests.fits import overlaps

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

CAPTION = "answers · drawn by lot from a tie with {names}"


def drawn(seen: dict[str, Any]) -> Script:
    frame = yield []
    frame = yield from to_a_tie(frame)
    frame = yield [pygame.K_p]  # the fair draw
    while asked(frame, "TIE") or not asked(frame, "next in line"):
        frame = yield []
    seen["after"] = said(frame)
    seen["frame"] = frame
    seen["nobody"] = asked(frame, "nobody")
    yield from end_game_and_quit(frame)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_after_the_draw_the_other_tied_player_is_next_in_line_and_the_caption_says_drawn(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, drawn(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    after = seen["after"]
    names = [_("Player {n}").format(n=1), _("Player {n}").format(n=2)]
    others = [other for other in names if _(CAPTION).format(names=other) in after]
    assert len(others) == 1, after  # the caption names the other of the tie
    assert not seen["nobody"] and f"2. {others[0]}" in after, after  # ... who is next in line
    assert "#2" in after, after  # on the panel as on the tile
    assert _("tied") in after, after  # and tied, not some milliseconds behind
    assert not overlaps(seen["frame"]), overlaps(seen["frame"])
