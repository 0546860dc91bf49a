"""The menu's language row: the host changes the language between games and
every screen follows at once, no restart."""

from __future__ import annotations

import pygame

from controller.screen.menu import Menu, MenuScene
from games.i18n import current_language
from games.scenes import scene_for
from games.toolkit import theme
from games.toolkit.scene import freeze

GAMES = [("quiz", "Quiz buzzer", 2, 16), ("schicki-micki", "Schicki Micki", 2, 7)]


def choose(menu: Menu, key: str) -> None:
    while menu.items[menu.selected].key != key:
        menu.key("down")


def rows(menu: Menu) -> dict[str, str]:
    return {it["label"]: it["value"] for it in menu.view()["items"]}


def test_the_language_row_switches_every_text_at_once() -> None:
    menu = Menu(GAMES)
    assert rows(menu)["Language"] == "English" and rows(menu)["Game"] == "Quiz buzzer"
    choose(menu, "language")
    menu.key("right")
    assert current_language() == "cs"
    assert rows(menu)["Hra"] == "Kvízový bzučák" and rows(menu)["Jazyk"] == "Čeština"
    assert menu.view()["summary"].startswith("Moderátor se ptá")
    menu.key("right")
    assert current_language() == "pl" and rows(menu)["Gra"] == "Kwizowy brzęczyk"
    menu.key("left")
    menu.key("left")
    assert current_language() == "en" and rows(menu)["Game"] == "Quiz buzzer"


def test_a_published_name_stays_and_its_summary_is_translated() -> None:
    menu = Menu(GAMES)
    choose(menu, "language")
    menu.key("right")
    choose(menu, "game")
    menu.key("right")
    assert rows(menu)["Hra"] == "Schicki Micki"
    assert "slepic" in menu.view()["summary"]


def test_the_next_game_s_screen_speaks_the_menu_s_language() -> None:
    menu = Menu(GAMES)
    choose(menu, "language")
    menu.key("right")
    menu.key("right")  # Polski
    theme.DRAWN = []
    try:
        surface = pygame.Surface((1280, 720))
        MenuScene().draw(surface, freeze(menu.view()), [], 0)
        scene_for("quiz").draw(surface, freeze({"phase": "idle", "question": 1, "status": ["idle"] * 2, "queue": [],
                                                "scores": [0, 0], "margins_us": {}, "finished": False}),
                               [{"name": "Ola", "status": "idle"}, {"name": "Kuba", "status": "idle"}], 0)
        said = [shown for _asked, shown, *_ in theme.DRAWN]
    finally:
        theme.DRAWN = None
    assert "Pudełko z brzęczykami" in said and "Kwizowy brzęczyk" in said
    assert any(s.startswith("Pytanie 1") for s in said)


def test_a_box_without_names_calls_its_stations_in_the_box_language() -> None:
    """No profile and no names typed: the strip, the phones and the journal say
    "Gracz 1" on a Polish box, not "Player 1"."""
    from controller.box.runtime import Box
    from games.i18n import set_language
    from games.registry import get

    spec = get("quiz")
    try:
        set_language("pl")
        box = Box(spec, spec.settings(2, 1))
    finally:
        set_language("en")
    assert box.station_names == ["Gracz 1", "Gracz 2"]
