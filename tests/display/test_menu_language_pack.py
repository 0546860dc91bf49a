"""The menu's pack row starts on the shipped pack in the box's language (a
Polish box: the Polish pack), and follows the Language row while the host has
not chosen another; the host's own packs (the packs folder's) still come first."""

from __future__ import annotations

import pytest

from controller.screen.menu import FolderChoice, Menu
from games.i18n import set_language
from games.registry import get

QUIZ = [("quiz", get("quiz").title, get("quiz").min_players, get("quiz").max_players)]


@pytest.fixture(autouse=True)
def english_after() -> object:
    yield
    set_language("en")


@pytest.mark.parametrize(("language", "pack"), [("en", "en-general"), ("cs", "cs-general"), ("pl", "pl-general")])
def test_the_pack_row_starts_on_the_pack_in_the_box_s_language(language: str, pack: str) -> None:
    set_language(language)
    assert Menu(QUIZ, 6).item("pack").value == pack


def choose_language(menu: Menu, code: str) -> None:
    menu.selected = [it.key for it in menu.items].index("language")
    while menu.item("language").value != code:
        menu.key("right")


def test_the_pack_row_follows_the_language_row_until_the_host_chooses_a_pack() -> None:
    menu = Menu(QUIZ, 6)
    assert menu.item("pack").value == "en-general"
    choose_language(menu, "pl")
    assert menu.item("pack").value == "pl-general"
    menu.selected = [it.key for it in menu.items].index("pack")
    menu.key("left")  # the host's choice: the Czech pack
    menu.key("left")
    chosen = menu.item("pack").value
    assert chosen != "pl-general"
    choose_language(menu, "en")
    assert menu.item("pack").value == chosen  # never changed behind the host's back


def test_the_host_s_own_packs_still_come_first() -> None:
    set_language("pl")
    own = FolderChoice("/packs/friday.csv", "Friday", 30)
    assert Menu(QUIZ, 6, found={"pack": [own]}).item("pack").value == "/packs/friday.csv"
