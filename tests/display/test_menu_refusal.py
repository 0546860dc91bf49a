"""Start refused by the game (all-play on bell-only stations): the kiosk
menu stays and says why beside its rows, in the host's language, until the
next key. It used to log the reason only, so Start seemed to do nothing."""

from __future__ import annotations

import pytest

from controller import profile as profile_mod
from controller.apps.menu import started_settings
from controller.display.menu import Menu
from games.i18n import _, set_language
from games.registry import get
from tests.display.test_menu_panel import panel_said

QUIZ = [("quiz", get("quiz").title, get("quiz").min_players, get("quiz").max_players)]

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def all_play_start(menu: Menu) -> None:
    """The host sets the Rules row to all-play and goes down to Start."""
    assert menu.set_option("rules", "all-play")
    menu.selected = [it.key for it in menu.items].index("start")


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_all_play_on_bell_only_stations_is_refused_on_the_menu_screen(language: str) -> None:
    set_language(language)
    menu = Menu(QUIZ, 7)
    all_play_start(menu)
    choice = menu.key("select")
    assert choice is not None
    settings = started_settings(menu, get("quiz"), choice.players, choice.options,
                                profile_mod.load("header-7-bells"), seed=1)
    assert settings is None and not menu.started
    said = panel_said(menu, (1280, 720))
    assert _("Start refused; change an option and start again:") in said
    english_words = "these stations have 0"
    assert (english_words in said) == (language == "en"), said  # the reason in the host's language
    assert "0" in said
    menu.key("up")  # any key: the refusal is gone, the panel says the row again
    assert menu.view()["refused"] == []


def test_the_refusal_follows_the_language_chosen_after_it() -> None:
    menu = Menu(QUIZ, 7)
    all_play_start(menu)
    choice = menu.key("select")
    assert choice is not None
    started_settings(menu, get("quiz"), choice.players, choice.options, profile_mod.load("header-7-bells"), seed=1)
    english = menu.view()["refused"]
    set_language("cs")
    assert menu.view()["refused"] != english and len(menu.view()["refused"]) == 1


def test_a_game_that_starts_has_its_settings_and_no_refusal() -> None:
    menu = Menu(QUIZ, 7)
    menu.selected = [it.key for it in menu.items].index("start")
    choice = menu.key("select")
    assert choice is not None
    settings = started_settings(menu, get("quiz"), choice.players, choice.options,
                                profile_mod.load("header-7-bells"), seed=1)
    assert settings is not None and settings.players == 7
    assert menu.view()["refused"] == []
