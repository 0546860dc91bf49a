"""After a tie's fair draw (the host's `p`), the screen tells the room what happened: the one
drawn answers "drawn by lot from a tie", and the other's tile and row under "next in
line" agree that they are next (#2). (The panel said "next in line: nobody" while the other's
tile said IN LINE, and the caption "0.000 ms ahead", as if the race had been won on time.)

Through the whole ``buzzerbox menu`` loop (keyboard stations, split design): two players press
in the same frame (a keyboard tie), the host presses `p`; in English, Czech and Polish."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from games.i18n import _
from tests.display.kiosk import Script, in_the_menu
from tests.display.test_game_end_confirm import asked, end_game_and_quit
from tests.display.test_menu_refusal import said
from tests.display.test_tie_names_the_key import to_a_tie
from tests.fits import overlaps

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

CAPTION = "answers · drawn by lot from a tie"


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
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, drawn(seen), language=language, players=4, seen=seen)
    after = seen["after"]
    names = [_("Player {n}").format(n=1), _("Player {n}").format(n=2)]
    assert _(CAPTION) in after, after  # the caption says the turn was drawn (the panel names the other)
    others = [other for other in names if f"2. {other}" in after]
    assert len(others) == 1, after
    assert not seen["nobody"] and f"2. {others[0]}" in after, after  # ... who is next in line
    assert "#2" in after, after  # on the panel as on the tile
    assert _("tied") in after, after  # and tied, not some milliseconds behind
    assert not overlaps(seen["frame"]), overlaps(seen["frame"])


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("tied", [2, 3])
@pytest.mark.parametrize("how", ["drawn", "chosen"])
def test_the_tie_caption_is_whole_with_the_longest_names(language: str, tied: int, how: str) -> None:
    """The caption under the one answering says how a tie was settled, whole at 720p and 1080p with
    the longest names and three tied (the names it listed were cut on one line: the queue panel
    beside it lists them)."""
    from controller.box.press import Press
    from controller.box.runtime import Box
    from controller.screen.loop import Presenter, draw_box
    from controller.screen.screen import Screen
    from games.i18n import set_language
    from games.quiz import PACKS_DIR
    from games.registry import get
    from games.scenes import scene_for
    from tests.fits import LONG_NAMES, measured

    set_language(language)
    spec = get("quiz")
    box = Box(spec, spec.settings(4, 1, pack=str(PACKS_DIR / "en-general.csv"), answer_time_us=10_000_000),
              station_names=LONG_NAMES[:4])
    box.host_button("arm", 1_000_000)
    for station in range(tied):
        box.apply_press(Press(station, "bell", 2_000_000))
    box.apply_press(Press(3, "bell", 2_300_000))
    box.step(2_400_000)
    box.host("pick", 2_500_000, **({"player": 1} if how == "chosen" else {}))
    caption = _("answers · drawn by lot from a tie") if how == "drawn" else _("answers · the host's pick from a tie")
    presenter = Presenter(Screen.open(headless=True), scene_for("quiz", None))
    for size in [(1280, 720), (1920, 1080)]:
        drawn_texts, _smallest = measured(lambda surface: draw_box(presenter, box, 2_600_000, surface), size, 4)
        captions = [(asked_, shown) for asked_, shown, *_rest in drawn_texts if asked_.startswith(_("answers") + " ·")]
        assert captions, (size, [d[0] for d in drawn_texts])
        assert all(asked_ == shown for asked_, shown in captions), (size, captions)  # nothing cut
        assert [asked_ for asked_, _shown in captions] == [caption], (size, captions)
