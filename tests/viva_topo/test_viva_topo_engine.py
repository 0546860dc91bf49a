"""Engine behaviour a player or the runtime would notice, outside the scenario files."""

from __future__ import annotations

import random

import pytest

from controller.box.press import Press
from games.base import Action, Engine, GameSettings, RuleError
from games.registry import get
from games.viva_topo import SPEC, scenario_step
from games.viva_topo.board import DEFAULT_BOARD, Board, House
from games.viva_topo.buttons import BUTTONS
from games.viva_topo.engine import FACES, VivaTopoEngine


def button_map(press: Press, station_kind: str) -> Action | None:
    """A debounced press through the game's button map, as the box sends it."""
    return BUTTONS.action(press.station, press.input, station_kind, press.t_us, press.precision_us)


def engine(players: int = 2, seed: int = 0, **options: object) -> VivaTopoEngine:
    return VivaTopoEngine(SPEC.settings(players, seed, **options))


def act(e: VivaTopoEngine, kind: str, player: int | None = None, **args: object) -> list:
    return e.handle(Action(kind, 1_000, player=e.current if player is None else player, args=args))


def test_registry_finds_the_game_and_it_meets_the_engine_protocol() -> None:
    spec = get("viva-topo")
    assert spec is SPEC and spec.title == "Viva Topo!"
    assert isinstance(spec.new_engine(spec.settings(3)), Engine)
    with pytest.raises(ValueError, match="2-4 players"):
        spec.settings(5)


# the cat lurks on the symbol numbered with the player count (board.py: symbol 2
# on space 6, 3 on space 4, 4 on space 2) and starts its first lap there
@pytest.mark.parametrize(("players", "mice", "cat_space"), [(2, 5, 6), (3, 4, 4), (4, 4, 2)])
def test_setup_by_player_count(players: int, mice: int, cat_space: int) -> None:
    view = engine(players).public_view()
    colours = ["red", "blue", "green", "yellow"][:players]
    assert view["players"] == colours
    for colour in colours:
        assert (
            len([m for m in view["mice"] if m["colour"] == colour and m["where"] == "start"])
            == mice
        )
    assert view["cat"] | {"route": 0, "route_end": 0} == {
        "route": 0,
        "route_end": 0,
        "lap": 1,
        "space": cat_space,
        "done": False,
        "step": 1,
        "start_closed": False,
    }
    assert view["cheese_left"] == {
        "house-1": 4,
        "house-2": 4,
        "house-3": 4,
        "house-4": 4,
        "emmentalia": 4,
    }


def test_seeded_rolls_repeat_and_ignore_global_random() -> None:
    def rolls(seed: int) -> list[object]:
        e = engine(seed=seed, auto_move_single=False)
        out = []
        for _ in range(30):
            if e.finished:
                break
            events = act(e, "roll")
            out.append(events[0].data["value"])
            if e.phase == "move":
                act(e, "confirm")
        return out

    random.seed(1)
    first = rolls(7)
    random.seed(2)
    assert rolls(7) == first
    assert rolls(8) != first
    assert len(first) >= 10 and set(first) <= set(FACES) and "cat" in first


def test_unknown_mouse_names_the_movable_ones() -> None:
    e = engine()
    act(e, "roll", value=3)
    with pytest.raises(RuleError, match="movable mice are red-1, red-2, red-3, red-4, red-5"):
        act(e, "move", mouse="blue-1")
    with pytest.raises(RuleError, match="it can go to space-3"):
        act(e, "move", mouse="red-1", to="house-2")
    assert e.phase == "move" and e.places()["start"][0] == "red-1"


def test_out_of_turn_and_out_of_phase_actions_are_rejected() -> None:
    e = engine()
    with pytest.raises(RuleError, match="red's turn, not blue's"):
        act(e, "roll", player=1)
    with pytest.raises(RuleError, match="must roll first"):
        act(e, "move", mouse="red-1")
    with pytest.raises(RuleError, match="no face 6"):
        act(e, "roll", value=6)
    act(e, "roll", value=2)
    with pytest.raises(RuleError, match="already rolled"):
        act(e, "roll", value=2)
    assert e.legal_actions(0) == ["move", "select", "confirm", "bell"] and e.legal_actions(1) == []


def test_stations_roll_step_and_confirm_the_highlighted_move() -> None:
    e = engine(auto_move_single=False)
    blue_bell = button_map(Press(station=1, input="bell", t_us=10), "buttons")
    assert blue_bell == Action("bell", 10, player=1)
    with pytest.raises(RuleError):
        e.handle(blue_bell)
    e.handle(button_map(Press(0, "bell", 20), "buttons"))
    moves = e.public_view()["legal_moves"]
    assert e.public_view()["highlighted"] == moves[0]
    e.handle(button_map(Press(0, "prev", 30), "buttons"))
    view = e.public_view()
    assert view["highlight"] == len(moves) - 1 and view["highlighted"] == moves[-1]
    e.handle(button_map(Press(0, "next", 40), "buttons"))
    e.handle(button_map(Press(0, "next", 50), "buttons"))
    chosen = e.public_view()["highlighted"]
    assert chosen == moves[1]
    e.handle(button_map(Press(0, "ok", 60), "buttons"))
    assert chosen["mouse"] in e.places()[chosen["to"]]
    assert button_map(Press(0, "b7", 70), "buttons") is None


def test_a_bell_and_one_numbered_button_play_a_whole_turn() -> None:
    """What the keyboard and the header profiles give a station: bell + 'a'."""
    e = engine(auto_move_single=False)
    e.handle(button_map(Press(0, "bell", 10), "compact"))  # rolls
    moves = e.public_view()["legal_moves"]
    e.handle(button_map(Press(0, "a", 20), "compact"))  # next mouse
    chosen = e.public_view()["highlighted"]
    assert chosen == moves[1]
    e.handle(button_map(Press(0, "bell", 30), "compact"))  # confirms
    assert chosen["mouse"] in e.places()[chosen["to"]]
    assert e.public_view()["turn"] == 1


def test_mouse_on_arrow_space_offers_house_and_run() -> None:
    e = engine(start={"mice": {"red-1": 9}})
    act(e, "roll", value=2)
    options = [m["to"] for m in e.legal_moves() if m["mouse"] == "red-1"]
    assert options == ["space-11", "house-2"]


def test_danger_is_shown_in_legal_moves() -> None:
    e = engine(auto_move_single=False, start={"mice": {"red-1": 3}})
    act(e, "roll", value=5)
    danger = {m["mouse"]: m["passes_cat"] for m in e.legal_moves() if m["kind"] == "run"}
    # the cat waits on space 6 (2 players): 3 + 5 runs past it, mice leaving the start do not
    assert danger == {"red-1": True, "red-2": False, "red-3": False, "red-4": False, "red-5": False}
    act(e, "move", mouse="red-1")
    assert e.places()["space-8"] == ["red-1"]  # ahead of the cat, not eaten by its own move


def test_public_view_and_summary_keys() -> None:
    e = engine(3)
    view = e.public_view()
    assert {
        "phase",
        "scores",
        "status",
        "turn",
        "turn_count",
        "board",
        "mice",
        "cat",
        "cheese_left",
        "roll",
        "legal_moves",
        "highlight",
        "highlighted",
        "players",
        "last_events",
    } <= set(view)
    assert view["status"] == ["turn", "idle", "idle"] and view["phase"] == "roll"
    summary = e.summary()
    assert {
        "scores",
        "winners",
        "turns",
        "finished",
        "places",
        "mice",
        "cheese_left",
        "cat",
        "log",
    } <= set(summary)
    assert e.tick(10**9) == [] and e.next_deadline_us() is None


def test_scenario_steps_map_to_actions_for_the_current_player() -> None:
    assert scenario_step({"roll": "cat"}, 5) == Action("roll", 5, args={"value": "cat"})
    assert scenario_step({"move": "blue-2"}, 6) == Action("move", 6, args={"mouse": "blue-2"})
    assert scenario_step({"press": {}}, 7) is None
    e = engine()
    e.handle(scenario_step({"roll": 3}, 8))  # player None: acts for the current player
    assert e.roll == 3


@pytest.mark.parametrize(
    ("start", "message"),
    [
        ({"mice": {"pink-1": 3}}, "no mouse 'pink-1'"),
        ({"mice": {"red-1": 21}}, "off the track"),
        ({"mice": {"red-1": 6}}, "cat's space 6"),
        ({"cat": {"lap": 1, "space": 5}}, "cat symbols only"),
        ({"cat": {"lap": 0, "space": 12}}, "cannot be on space 12 in lap 0"),
        ({"cat": {"lap": 2, "space": 8}}, "cannot be on space 8 in lap 2"),  # lap 2 runs 2 symbols a roll
        ({"cat": {"lap": 3, "space": 2}}, "cannot be on space 2 in lap 3"),
        ({"mice": {f"blue-{i}": 7 for i in range(1, 6)}}, "more than 4"),
        ({"colour": "x"}, "unknown start keys"),
    ],
)
def test_bad_start_positions_are_explained(start: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        engine(start=start)


def test_another_board_is_a_data_change() -> None:
    board = Board(
        spaces=12,
        start_exit=1,
        houses=(House("den", arrow_space=4, value=5, pieces=1),),
        emmentalia_wheels=1,
        wheel_value=9,
        cat_symbols=(3, 6, 9, 12),
        cat_start=((2, 9),),
        cat_speed=(1, 2),
        space_capacity=2,
        mice_per_player=((2, 2),),
        colours=((2, ("red", "blue")),),
    )
    e = VivaTopoEngine(GameSettings(players=2, options={"auto_move_single": False}), board)
    act(e, "roll", value=5)
    assert [m["to"] for m in e.legal_moves()][:2] == ["space-5", "den"]
    act(e, "move", mouse="red-1", to="den")
    assert e.scores == [5, 0] and e.house_left == {"den": 0}
    assert e.cat_space == 9 and e.cat_lap == 1 and e.cat_g == 2
    assert DEFAULT_BOARD.cat_start_space(4) == 2 and DEFAULT_BOARD.cat_start_route(4) == 0
    with pytest.raises(ValueError, match="start exit must lie before the first cat symbol"):
        Board(**{**board.__dict__, "start_exit": 3})


def test_last_events_let_the_screen_animate_the_roll_and_the_cats_meal() -> None:
    # a cat roll: red-1 walks 15 -> 16, then the cat (lap 1) runs 12 -> 14 and eats blue-1 on 13
    mice = {"red-1": 15, "blue-1": 13, "red-2": 2, "red-3": 3, "blue-2": 2, "blue-3": 3}
    e = engine(auto_move_single=False, start={"cat": {"lap": 1, "space": 12}, "mice": mice})
    assert e.public_view()["last_events"] == []
    e.handle(Action("roll", 5_000, player=0, args={"value": "cat"}))
    e.handle(Action("move", 7_000, player=0, args={"mouse": "red-1"}))
    shown = e.public_view()["last_events"]
    assert [(x["kind"], x["t_us"]) for x in shown] == [("roll", 5_000), ("cat", 7_000), ("eaten", 7_000)]
    assert shown[0]["value"] == "cat" and shown[0]["player"] == 0
    assert shown[-1]["mice"] == ["blue-1"] and shown[-1]["text"] == "THE CAT EATS blue-1"
    for _ in range(5):  # a long game keeps only the last few
        act(e, "roll", value=2)
        if e.phase == "move":
            act(e, "confirm")
    assert len(e.public_view()["last_events"]) == 8
