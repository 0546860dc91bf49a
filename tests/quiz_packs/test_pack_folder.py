"""The packs folder: the host's own packs in the kiosk menu (each with its
title, question count or problems, checked as `pack check` checks), the
menu's default that always has questions, and a seeded, journaled shuffle."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from controller.apps.menu import folder_choices
from controller.box import session
from controller.box.journal import JournalWriter, load
from controller.box.runtime import Box, box_from_journal
from controller.screen.menu import Menu, MenuScene
from controller.screen.screen import Screen
from games import registry
from games.base import OptionError
from games.i18n import set_language
from games.quiz import PACKS_DIR
from games.quiz.packs import check_pack, find_packs, load_pack
from games.toolkit.scene import freeze

GAMES = [("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)]
GOOD = "# title: Our pub quiz\nquestion,answer,category\nRed planet?,Mars,Space\nLargest ocean?,Pacific,Earth\n" \
       "Nearest star?,The Sun,Space\n"
BROKEN = "question,answer\nWhat?,\n,nobody asked\n"  # no good row: nothing to play
#: Czech Excel's CSV: semicolons, one row without its answer (left out, the other two played)
PARTIAL = "# language: cs\nquestion;answer;points\nHlavní město Polska?;Varšava;2,0\nKolik je 2+2?;;1\nNejdelší řeka?;Nil;1\n"


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "a-broken.csv").write_text(BROKEN, encoding="utf-8")  # first by name: never the default
    (packs / "pub.csv").write_text(GOOD, encoding="utf-8")
    (packs / "notes.txt").write_text("not a pack", encoding="utf-8")
    (packs / "old.json").mkdir()  # a folder with a pack's name is no pack
    return packs


def test_the_folder_lists_each_pack_with_its_title_and_count_or_the_checker_s_problems(folder: Path) -> None:
    found = find_packs(folder)
    assert [(f.path.name, f.title, f.questions) for f in found] == [("a-broken.csv", "a-broken", 0),
                                                                    ("pub.csv", "Our pub quiz", 3)]
    assert list(found[0].problems) == check_pack(folder / "a-broken.csv")  # the same lines as `pack check`
    assert len(found[0].problems) == 2 and found[1].problems == ()
    assert find_packs(folder / "missing") == []


def test_the_packs_folder_is_under_xdg_data_home(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert session.packs_dir() == tmp_path / "buzzerbox" / "packs"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert session.packs_dir() == tmp_path / "home" / ".local" / "share" / "buzzerbox" / "packs"


def test_the_menu_offers_the_folder_s_packs_first_and_starts_a_good_one(folder: Path) -> None:
    menu = Menu(GAMES, 3, found={"pack": folder_choices(folder)})
    row = next(it for it in menu.view()["items"] if it["key"] == "pack")
    assert row["value"] == "Our pub quiz (3 questions)"  # the first good pack, not the broken one before it
    menu.selected = [it.key for it in menu.items].index("pack")
    menu.key("left")  # to the broken pack
    view = menu.view()
    assert next(it for it in view["items"] if it["key"] == "pack")["value"] == "a-broken (2 problems)"
    assert view["problems"] == [str(p) for p in check_pack(folder / "a-broken.csv")]  # one line per problem, on the screen
    assert menu.key("select") is None and not menu.started  # a broken pack is never started
    menu.key("right")
    choice = menu.key("select")
    assert choice is not None and choice.options["pack"] == str(folder / "pub.csv")
    settings = registry.get("quiz").settings(choice.players, 1, **choice.options)
    assert [q["text"] for q in settings.options["pack_questions"]] == [q.text for q in load_pack(folder / "pub.csv").questions]


def test_the_menu_s_default_quiz_has_questions_without_any_folder(tmp_path: Path) -> None:
    menu = Menu(GAMES, 3, found={"pack": folder_choices(tmp_path / "none")})
    menu.selected = len(menu.items) - 1
    choice = menu.key("select")
    assert choice is not None and choice.options.get("pack") is not None
    settings = registry.get("quiz").settings(choice.players, 1, **choice.options)
    assert len(settings.options["pack_questions"]) >= 10
    assert registry.get("quiz").new_engine(settings).public_view()["ask"]["text"]  # question 1 has its text


def test_a_shuffle_is_seeded_and_the_journal_keeps_the_order_asked(tmp_path: Path) -> None:
    spec = registry.get("quiz")
    pack = str(PACKS_DIR / "en-general.csv")
    in_order = [q.text for q in load_pack(pack).questions]

    def order(seed: int) -> list[str]:
        return [q["text"] for q in spec.settings(3, seed, pack=pack, shuffle=True).options["pack_questions"]]

    assert order(4) == order(4) and sorted(order(4)) == sorted(in_order)
    assert order(4) != in_order and order(4) != order(5)
    settings = spec.settings(3, 4, pack=pack, shuffle=True)
    path = tmp_path / "shuffled.jsonl"
    box = Box(spec, settings)
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    box.host("arm", 1_000_000)
    box._write({"type": "end", "t_us": 2_000_000})
    box.journal.close()
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert "shuffle" in json.dumps(header)
    replayed = box_from_journal(load(path))
    assert replayed.engine.public_view()["ask"]["text"] == order(4)[0]  # replayed as asked, no pack read


def test_categories_choose_the_questions_and_an_unknown_one_is_one_line() -> None:
    spec = registry.get("quiz")
    pack = str(PACKS_DIR / "en-general.csv")
    known = load_pack(pack).categories()
    asked = spec.settings(3, 1, pack=pack, categories=known[:1]).options["pack_questions"]
    assert asked and {q["category"] for q in asked} == {known[0]}
    with pytest.raises(OptionError) as err:
        spec.settings(3, 1, pack=pack, categories=["Astrology"])
    assert "Astrology" in str(err.value) and known[0] in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_menu_draws_a_broken_pack_s_problems(folder: Path, tmp_path: Path, lang: str, size: tuple[int, int],
                                                  monkeypatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    set_language(lang)
    try:
        menu = Menu(GAMES, 3, found={"pack": folder_choices(folder)})
        menu.selected = [it.key for it in menu.items].index("pack")
        menu.key("left")
        screen = Screen.open(headless=True, size=size)
        MenuScene().draw(screen.surface, freeze(menu.view()), [], 0)
        shot = tmp_path / f"menu-broken-pack-{lang}-{size[0]}.png"
        screen.save(shot)
        assert pygame.image.load(str(shot)).get_size() == size
    finally:
        set_language("en")


def test_a_pack_with_a_bad_row_is_offered_and_played_without_it(folder: Path, capsys) -> None:
    """Issue 33: a Czech Excel pack (semicolons, "2,0") with one row lacking
    its answer is listed as playable, saying how many rows are left out; the
    menu's default stays the whole pack; started, it asks the good rows;
    `play --option pack=` says the same on the terminal before the game."""
    from controller.apps.play import say_left_out

    (folder / "b-partial.csv").write_text(PARTIAL, encoding="utf-8")
    found = {f.path.name: f for f in find_packs(folder)}
    assert (found["b-partial.csv"].questions, found["b-partial.csv"].left_out, found["b-partial.csv"].problems) == (2, 1, ())
    menu = Menu(GAMES, 3, found={"pack": folder_choices(folder)})
    row = next(it for it in menu.view()["items"] if it["key"] == "pack")
    assert row["value"] == "Our pub quiz (3 questions)"  # not the one with a row left out, before it by name
    menu.selected = [it.key for it in menu.items].index("pack")
    menu.key("left")
    assert next(it for it in menu.view()["items"] if it["key"] == "pack")["value"] == \
        "b-partial (2 questions, 1 row left out)"
    set_language("cs")
    try:
        assert next(it for it in menu.view()["items"] if it["key"] == "pack")["value"] == \
            "b-partial (2 otázky, 1 řádek vynechán)"
    finally:
        set_language("en")
    choice = menu.key("select")
    assert choice is not None and choice.options["pack"] == str(folder / "b-partial.csv")
    settings = registry.get("quiz").settings(choice.players, 1, **choice.options)
    asked = settings.options["pack_questions"]
    assert [(q["text"], q["points"]) for q in asked] == [("Hlavní město Polska?", 2), ("Nejdelší řeka?", 1)]
    capsys.readouterr()
    say_left_out(settings)
    err = capsys.readouterr().err
    assert err == (f"{folder / 'b-partial.csv'}: 1 row has a problem and is left out; "
                   f"`buzzerbox pack check {folder / 'b-partial.csv'}` lists it\n")
    whole = registry.get("quiz").settings(3, 1, pack=str(folder / "pub.csv"))
    say_left_out(whole)
    assert capsys.readouterr().err == ""
