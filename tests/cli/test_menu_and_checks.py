"""Issue 14 and 22: the menu asks before Esc quits, follows the player count
and takes the players' names; the roll call ticks off every station; diag
is honest about what is simulated and about keyboard taps; play works on a
laptop with keyboard stations."""

from __future__ import annotations

import json
from pathlib import Path

import pygame

from controller.box.debounce import DebounceConfig
from controller.box.monitor import InputMonitor, RollCall
from controller.box.press import Edge
from controller.cli import main
from controller.screen.diag import DiagScene, diag_health
from controller.screen.loop import draw_box
from controller.screen.menu import Menu, MenuScene, NameEditor, strip_for_players
from controller.screen.screen import Screen
from games.registry import available, get
from games.toolkit.scene import freeze


def menu(players: int = 4) -> Menu:
    games = [(n, get(n).title, get(n).min_players, get(n).max_players) for n in available() if get(n).scene]
    return Menu(games, players)


def test_esc_in_the_menu_asks_first_and_any_other_key_stays() -> None:
    m = menu()
    assert m.escape() is False and m.view()["confirm_quit"]  # the first Esc only asks
    m.key("down")  # changed their mind
    assert not m.view()["confirm_quit"]
    assert m.escape() is False and m.escape() is True  # Esc, Esc: quit


def test_the_menus_strip_follows_the_player_count_as_it_changes() -> None:
    m = menu(4)
    m.selected = next(i for i, it in enumerate(m.items) if it.key == "players")
    m.key("right")
    m.key("right")
    strip = [{"name": f"Player {i + 1}", "status": "idle"} for i in range(4)]
    assert len(strip_for_players(strip, m.view()["players"])) == 6
    m.key("left")
    m.key("left")
    m.key("left")
    assert [c["name"] for c in strip_for_players(strip, m.view()["players"])] == ["Player 1", "Player 2", "Player 3"]


def test_names_typed_in_the_menu_name_the_strip_and_the_game(tmp_path: Path, monkeypatch) -> None:
    from controller.box import session
    from controller.screen import live

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    m = menu(3)
    m.selected = next(i for i, it in enumerate(m.items) if it.key == "names")
    choice = m.key("select")
    assert choice is not None and choice.edit_names and not m.started
    editor = NameEditor(m.names, choice.players)
    editor.text("Anna")
    editor.key("down")
    editor.text("Bo\x07b")  # a control character typed by accident is dropped
    editor.key("backspace")
    editor.key("done")
    m.names = editor.result()
    assert m.names == ["Anna", "Bo", ""]
    cells = strip_for_players([{"name": "Player 1"}, {"name": "Player 2"}, {"name": "Player 3"}], 3, m.names)
    assert [c["name"] for c in cells] == ["Anna", "Bo", "Player 3"]
    session.save_names(None, m.names)
    assert session.saved_names(None) == ["Anna", "Bo", ""]
    names, _colors = live.names_colors(None, 3, session.saved_names(None))
    assert names == ["Anna", "Bo", "Player 3"]  # what the box, the strip and the results call them


def test_roll_call_ticks_off_each_station_once() -> None:
    call = RollCall([(0, "bell", "Red"), (1, "bell", "Blue"), (2, "bell", "Green")])
    call.press(1)
    call.press(1)
    assert call.missing == ["Red", "Green"] and not call.done
    cells = call.strip([{"name": n, "status": "idle"} for n in ("Red", "Blue", "Green")])
    assert [c.get("label") for c in cells] == ["press!", "HERE", "press!"]
    call.press(0)
    call.press(2)
    assert call.done and call.missing == []


def test_the_menu_and_the_roll_call_draw(tmp_path: Path) -> None:
    from controller.screen.menu import RollCallScene

    screen = Screen.open(headless=True)
    m = menu(5)
    m.escape()
    MenuScene().draw(screen.surface, freeze(m.view()), [{"name": "Red", "status": "idle"}], 0)
    screen.save(tmp_path / "menu.png")
    call = RollCall([(0, "bell", "Red"), (1, "bell", "Blue")])
    call.press(0)
    RollCallScene().draw(screen.surface, freeze(call.view()), call.strip([{"name": "Red"}, {"name": "Blue"}]), 0)
    screen.save(tmp_path / "roll.png")
    assert pygame.image.load(str(tmp_path / "roll.png")).get_size() == (1920, 1080)


def test_a_quick_key_tap_is_a_press_not_a_glitch() -> None:
    monitor = InputMonitor([("Player 1", ["bell"])], DebounceConfig())
    monitor.edge(Edge(0, "bell", 0, 1_000_000), 25_000)  # down and up read in the same frame
    monitor.edge(Edge(0, "bell", 1, 1_000_000), 25_000)
    monitor.step(1_200_000)
    row = monitor.view()["inputs"][0]
    assert row["presses"] == 1 and row["glitches"] == 0
    assert diag_health(monitor.view()["inputs"]) == "1 input · all good"


def test_a_real_glitch_is_not_all_good() -> None:
    monitor = InputMonitor([("Red", ["bell"])], DebounceConfig())
    monitor.edge(Edge(0, "bell", 0, 1_000_000), 1)  # a 200 µs spike on a wired input
    monitor.edge(Edge(0, "bell", 1, 1_000_200), 1)
    monitor.step(1_200_000)
    assert diag_health(monitor.view()["inputs"]) == "1 input · 1 had a glitch"


def test_diag_simulates_only_when_asked_and_says_so(capsys) -> None:
    assert main(["diag", "--headless", "--seconds", "10"]) == 0
    quiet = capsys.readouterr()
    assert "noisy" not in quiet.out and "nothing to read" in quiet.err
    assert main(["diag", "--headless", "--seconds", "10", "--simulate"]) == 0
    said = capsys.readouterr()
    assert "SIMULATED" in said.err and "noisy (simulated)" in said.out
    title, _right = DiagScene().header(freeze({"simulated": True, "inputs": ()}))
    assert "SIMULATED" in title


def test_play_without_a_profile_uses_keyboard_stations_and_the_data_folder(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert main(["play", "--json", "quiz", "--headless", "--seconds", "0.1", "--players", "3"]) == 0
    out = capsys.readouterr()
    assert "keyboard stations (1 = Player 1, 2 = Player 2, 3 = Player 3" in out.err
    journals = list((tmp_path / "buzzerbox" / "journals").glob("quiz-*.jsonl"))
    assert len(journals) == 1 and str(journals[0]) in out.err  # shown at start
    assert json.loads(journals[0].read_text().splitlines()[-1])["type"] == "end"


def test_headless_demo_is_a_short_summary_and_json_on_request(capsys) -> None:
    assert main(["demo", "quiz", "--headless", "--seconds", "20"]) == 0
    out = capsys.readouterr().out
    assert "frames drawn" not in out and "--screenshot" in out and "scores: " in out
    assert max(len(line) for line in out.splitlines()) < 200
    assert main(["demo", "quiz", "--headless", "--seconds", "20", "--json"]) == 0
    assert "scores" in json.loads(capsys.readouterr().out)


def test_a_demo_without_a_screen_says_why_it_plays_headless(capsys, monkeypatch) -> None:
    """Issue 33: with no display (and no --headless) the demo went headless
    without a word; asked for --headless, it says nothing of a display."""
    import controller.screen.screen as screen_mod

    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    monkeypatch.setattr(screen_mod, "has_display", lambda: False)
    assert main(["demo", "quiz", "--seconds", "3"]) == 0
    err = capsys.readouterr().err
    assert "no display found" in err and "playing headless" in err
    assert main(["demo", "quiz", "--seconds", "3", "--headless"]) == 0
    assert "no display" not in capsys.readouterr().err


def test_texts_for_people_count_from_one_and_use_names(capsys) -> None:
    """A whole simulated game's JSON: no text for people says "player 0", and
    with names given, players are called by them (indexes stay 0-based)."""
    from controller.apps.common import people_json

    assert main(["simulate", "schicki-micki", "--players", "3", "--seed", "2", "--json"]) == 0
    out = capsys.readouterr().out
    assert "player 0" not in out.lower() and "player 1" in out.lower()
    shown = people_json({"outcomes": [{"text": "player 1 knocked", "player": 0}]}, ["Red", "Blue"])
    assert shown["outcomes"][0] == {"text": "Red knocked", "player": 0}


def test_keyboard_play_shows_whose_key_is_which_on_screen(tmp_path: Path) -> None:
    from controller.box import session
    from controller.box.runtime import Box
    from controller.screen import live

    spec = get("quiz")
    box = Box(spec, spec.settings(3, 1))
    screen = Screen.open(headless=True)
    presenter = live.presenter_for(box.spec, screen, sound=None, colors=None)
    plain = pygame.Surface(screen.surface.get_size())
    draw_box(presenter, box, 1_000_000, plain)
    live.show_keys(presenter, 3)
    hinted = pygame.Surface(screen.surface.get_size())
    draw_box(presenter, box, 1_000_000, hinted)
    late = pygame.Surface(screen.surface.get_size())
    draw_box(presenter, box, session.KEYS_HINT_US + 1, late)
    changed = sum(1 for x in range(0, 1920, 8) for y in range(0, 1080, 8) if plain.get_at((x, y)) != hinted.get_at((x, y)))
    assert changed > 100  # a line of text drawn over the picture (one sample in 64 pixels)
    gone = sum(1 for x in range(0, 1920, 8) for y in range(0, 1080, 8) if plain.get_at((x, y)) != late.get_at((x, y)))
    assert gone < changed // 10  # and away after the first half minute


def test_a_damaged_names_file_never_stops_the_box(tmp_path: Path, monkeypatch) -> None:
    """players.json is read at every start: whatever is in it (seeded random
    bytes and JSON shapes, a bounded run), the box starts with some names."""
    import random

    from controller.box import session
    from controller.screen import live

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = session.names_path()
    path.parent.mkdir(parents=True)
    rng = random.Random(14)
    shapes = ['{"keyboard": ["Anna", 3, null, {"x": 1}]}', "[1, 2]", '{"keyboard": "Anna"}', "null", '"x"',
              '{"keyboard": ["' + "A" * 500 + '"]}']
    runs = 0
    while runs < 200:  # a fixed number of seeded cases
        data = rng.choice(shapes).encode() if runs % 2 else bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        path.write_bytes(data)
        names = session.saved_names(None)
        assert isinstance(names, list) and all(isinstance(n, str) and len(n) <= session.NAME_LENGTH for n in names)
        live.names_colors(None, 4, names)
        runs += 1
    session.save_names(None, ["Anna"])  # and saving over a damaged file works
    assert session.saved_names(None) == ["Anna"]
