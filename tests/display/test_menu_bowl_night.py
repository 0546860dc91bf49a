"""The menu's Rounds row offers a quiz bowl night (a warm-up, then a bowl
round). With the host's own questions the moderator reads the bonuses from
their packet; a pack holds tossups only, so with a pack the bowl round plays
tossups only, and the menu says so beside its rows before Start instead of
promising a bonus nobody can read."""

from __future__ import annotations

from typing import Any

import pytest

from controller.box import profile as profile_mod
from controller.box import session
from controller.box.press import Press
from controller.box.runtime import Box
from controller.screen.menu import Choice, Menu
from games.i18n import _, set_language
from games.quiz.bowl_scoring import TOSSUPS_ONLY
from games.registry import get
from tests.display.test_menu_panel import panel_said

QUIZ = [("quiz", get("quiz").title, get("quiz").min_players, get("quiz").max_players)]

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def choose(menu: Menu, key: str, shown: str) -> None:
    """The host goes to row ``key`` and presses right until it says ``shown``."""
    menu.selected = [it.key for it in menu.items].index(key)
    for _press in range(len(menu.item(key).values)):
        if menu.item(key).shown(menu.item(key).index) == shown:
            return
        menu.key("right")
    raise AssertionError(f"the {key} row never said {shown!r}")


def bowl_night(menu: Menu, pack: str) -> Choice:
    """The host picks the pack, then the bowl night on the Rounds row, and Start."""
    choose(menu, "pack", pack)
    choose(menu, "rounds", _("5 warm-up, then 10 quiz bowl"))
    menu.selected = [it.key for it in menu.items].index("start")
    choice = menu.key("select")
    assert choice is not None
    return choice


def started(choice: Choice) -> Box:
    """The game Start begins on a bell-only wiring, as the kiosk starts it."""
    settings = session.game_settings(get(choice.game), choice.players, 5, choice.options,
                                  profile_mod.load("header-7-bells"))
    return Box(get(choice.game), settings)


def into_the_bowl_round(box: Box) -> dict[str, Any]:
    """The warm-up's five questions answered, then the bowl round's first tossup
    won by station 1: the public view just after the moderator's "correct"."""
    t = 0
    for _question in range(5):
        box.host("arm", t)
        box.apply_press(Press(0, "bell", t + 100_000))
        box.step(t + 200_000)
        box.host("correct", t + 300_000)
        box.host("next", t + 400_000)
        t += 1_000_000
    view = box.engine.public_view()
    assert view["round"]["number"] == 2 and view["round"]["rules"] == "bowl", view["round"]
    box.host("arm", t)
    box.apply_press(Press(0, "bell", t + 100_000))
    box.step(t + 200_000)
    box.host("correct", t + 300_000)
    return box.engine.public_view()


def test_the_bowl_night_with_the_hosts_own_questions_has_bonuses() -> None:
    menu = Menu(QUIZ, 7)
    box = started(bowl_night(menu, _("host's own")))
    assert menu.fit_notes() == []
    view = into_the_bowl_round(box)
    assert view["round"]["bonus_parts"] == 3
    assert view["phase"] == "bonus"  # the team that got the tossup answers its bonus


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_bowl_night_with_a_pack_plays_tossups_only_and_says_so(language: str) -> None:
    set_language(language)
    menu = Menu(QUIZ, 7)
    choice = bowl_night(menu, _("general knowledge (English)"))
    assert menu.view()["refused"] == []
    assert _(TOSSUPS_ONLY) in panel_said(menu, (1280, 720))  # beside Start, before the night begins
    menu.selected = [it.key for it in menu.items].index("rounds")
    assert _(TOSSUPS_ONLY) in panel_said(menu, (1280, 720))  # and beside the Rounds row
    english_words = "this pack has no bonuses"
    assert (english_words in panel_said(menu, (1280, 720))) == (language == "en")
    view = into_the_bowl_round(started(choice))
    assert view["round"]["bonus_parts"] == 0
    assert view["phase"] != "bonus" and view["bowl"]["bonus_team"] is None  # no bonus to wait for
