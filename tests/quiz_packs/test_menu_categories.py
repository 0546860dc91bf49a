"""Categories from the menu: the chosen pack's categories, one row for the
whole quiz or one per round, each chosen category asked in its round only."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.apps.menu import PackScan
from controller.screen.menu import Menu
from games import registry
from games.i18n import set_language

GAMES = [("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)]
PACK = ("# title: Mixed\nquestion,answer,category\nRed planet?,Mars,Space\nLargest ocean?,Pacific,Earth\n"
        "Nearest star?,The Sun,Space\nLongest river?,Nile,Earth\nMoons of Mars?,Two,Space\n")
PLAIN = "# title: Plain\nquestion,answer\nTwo and two?,Four\n"


@pytest.fixture()
def menu(tmp_path: Path) -> Menu:
    set_language("en")
    (tmp_path / "a-mixed.csv").write_text(PACK, encoding="utf-8")
    (tmp_path / "b-plain.csv").write_text(PLAIN, encoding="utf-8")
    scan = PackScan(tmp_path, [tmp_path / "no-media"])
    return Menu(GAMES, 3, found=scan.choices(), rescan=scan, categories=scan.categories)


def rows(menu: Menu) -> dict[str, tuple[str, str]]:
    return {it["key"]: (it["label"], it["value"]) for it in menu.view()["items"] if it["key"].startswith("category")}


def change(menu: Menu, key: str, value: object) -> None:
    menu.selected = [it.key for it in menu.items].index(key)
    while menu.items[menu.selected].value != value:
        menu.key("right")


def questions(menu: Menu) -> list[tuple[str, int | None]]:
    choice = menu.choice()
    settings = registry.get("quiz").settings(choice.players, 1, **choice.options)
    return [(q["text"], q.get("round")) for q in settings.options["pack_questions"]]


def test_one_category_for_the_whole_quiz_asks_only_its_questions(menu: Menu) -> None:
    assert rows(menu) == {"category": ("Category", "all")}
    assert len(questions(menu)) == 5  # "all": every question
    change(menu, "category", "Space")
    assert rows(menu) == {"category": ("Category", "Space")}  # the pack's own word, never translated
    assert questions(menu) == [("Red planet?", None), ("Nearest star?", None), ("Moons of Mars?", None)]


def test_with_rounds_each_round_gets_its_own_category_row(menu: Menu) -> None:
    change(menu, "rounds", [{"questions": 10}] * 2)
    assert rows(menu) == {"category_1": ("Round 1: category", "all"), "category_2": ("Round 2: category", "all")}
    change(menu, "category_1", "Earth")
    change(menu, "category_2", "Space")
    assert questions(menu) == [("Largest ocean?", 1), ("Longest river?", 1),
                               ("Red planet?", 2), ("Nearest star?", 2), ("Moons of Mars?", 2)]
    set_language("cs")
    assert rows(menu)["category_2"] == ("Kolo 2: kategorie", "Space")
    set_language("en")


def test_a_pack_without_categories_has_no_category_row_and_the_host_page_follows(menu: Menu) -> None:
    change(menu, "category", "Earth")
    pack = menu.item("pack")
    plain = next(v for k, v in enumerate(pack.values) if k in pack.found and pack.found[k].title == "Plain")
    assert menu.set_option("pack", plain)  # chosen on the host page
    assert rows(menu) == {}
    assert "categories" not in menu.choice().options
