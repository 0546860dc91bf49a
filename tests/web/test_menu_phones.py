"""The menu is honest about phones: a phone game says it needs them; with
the Phones row off, a game with an open-hands variant is set to it, and
one without turns the phones on at Start (the row shows it)."""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from controller.cli import main
from controller.screen.menu import Menu
from games.i18n import set_language
from games.registry import get
from tests.keys import escape_every

GAMES = [(name, get(name).title, get(name).min_players, get(name).max_players)
         for name in ("quiz", "fiki-miki", "piepmatz")]


def choose(menu: Menu, game: int) -> None:
    menu.selected = 0
    for _ in range(game):
        menu.key("right")


def set_row(menu: Menu, key: str, value: object) -> None:
    item = menu.item(key)
    item.index = item.values.index(value)
    if key == "phones":
        menu.phones = bool(value)


def test_phones_off_plays_fiki_miki_with_open_hands_and_says_so() -> None:
    set_language("en")
    menu = Menu(GAMES)
    choose(menu, 1)
    assert menu.item("phones").value is False
    assert (menu.item("variant").value, menu.item("open_hands").value) == ("I", True)
    assert "shown open on this screen" in menu.view()["summary"]
    choice = menu.choice()
    assert not choice.phones and choice.options["open_hands"] is True
    assert not get("fiki-miki").phones_needed(choice.options)


def test_a_hand_on_phones_with_phones_off_turns_them_on_at_start() -> None:
    menu = Menu(GAMES)
    choose(menu, 1)
    set_row(menu, "variant", "IIA")
    assert "needs phones: Start turns them on" in menu.view()["summary"]
    choice = menu.choice()
    assert choice.phones and menu.item("phones").value is True


def test_piepmatz_has_no_open_hands_so_start_turns_the_phones_on() -> None:
    menu = Menu(GAMES)
    choose(menu, 2)
    assert menu.choice().phones


def test_the_quiz_needs_no_phones_and_the_row_turns_the_host_remote_on() -> None:
    menu = Menu(GAMES)
    assert not menu.choice().phones and "Phones" not in menu.view()["summary"]
    menu.selected = [i.key for i in menu.items].index("phones")
    menu.key("right")
    assert menu.choice().phones
    assert Menu(GAMES, phones=True).choice().phones  # --web starts with it on


def test_turning_phones_off_sets_the_open_hands_variant_again() -> None:
    menu = Menu(GAMES, phones=True)
    choose(menu, 1)
    assert menu.item("open_hands").value is False  # phones on: the game's own default
    menu.selected = [i.key for i in menu.items].index("phones")
    menu.key("left")
    assert menu.item("open_hands").value is True and not menu.choice().phones


def test_the_kiosk_menu_serves_the_pages_once_and_closes_them_when_it_ends(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], mock_pins: None) -> None:
    """``menu --web``: a game cut off by a power cut is carried on first, with
    the session's server; leaving the menu closes the port."""
    assert main(["play", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless",
                 "--journal", str(tmp_path / "quiz-1.jsonl")]) == 0
    journal = tmp_path / "quiz-1.jsonl"
    journal.write_text("\n".join(journal.read_text().splitlines()[:-1]) + "\n")  # no end: cut off
    capsys.readouterr()
    with escape_every():  # leave the resumed game, then the menu
        assert main(["menu", "--profile", "header-4", "--journal-dir", str(tmp_path), "--window", "--web", "0"]) == 0
    err = capsys.readouterr().err
    found = re.search(r"companion pages: http://[\d.]+:(\d+)/board", err)
    assert found and err.count("companion pages:") == 1, err
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", int(found.group(1))), timeout=1):
        pass  # the menu ended: nothing listens any more
