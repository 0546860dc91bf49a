"""Whatever happens, no mouse is lost or duplicated and no cheese appears or vanishes."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import Action
from games.viva_topo import SPEC
from games.viva_topo.board import DEFAULT_BOARD
from games.viva_topo.bots import VivaTopoBot, play_bot_game
from games.viva_topo.engine import FACES, VivaTopoEngine

TOTAL_VALUE = sum(h.value * h.pieces for h in DEFAULT_BOARD.houses) + (
    DEFAULT_BOARD.emmentalia_wheels * DEFAULT_BOARD.wheel_value
)
TOTAL_PIECES = sum(h.pieces for h in DEFAULT_BOARD.houses) + DEFAULT_BOARD.emmentalia_wheels


def check_invariants(e: VivaTopoEngine) -> None:
    view = e.public_view()
    ids = [m["id"] for m in view["mice"]]
    per = DEFAULT_BOARD.mice_count(e.players)
    assert len(ids) == len(set(ids)) == per * e.players
    assert Counter(m["owner"] for m in view["mice"]) == dict.fromkeys(range(e.players), per)
    places = e.places()
    assert sorted(i for group in places.values() for i in group) == sorted(ids)
    on_track = Counter(m["space"] for m in view["mice"] if m["where"].startswith("space-"))
    assert all(n <= DEFAULT_BOARD.space_capacity for n in on_track.values())
    assert view["cat"]["space"] not in on_track
    if view["cat"]["start_closed"]:
        assert "start" not in places
    left = view["cheese_left"]
    value_left = sum(left[h.name] * h.value for h in DEFAULT_BOARD.houses)
    value_left += left["emmentalia"] * DEFAULT_BOARD.wheel_value
    assert value_left + sum(view["scores"]) == TOTAL_VALUE
    assert sum(left.values()) + sum(len(c) for c in e.cheese) == TOTAL_PIECES


#: seeded bot games, a third at each player count (a thousand took a tenth of the suite's time;
#: the engine's rules are also walked by the Hypothesis test below)
BOT_GAMES = 400


def test_hundreds_of_bot_games_keep_every_mouse_and_every_cheese() -> None:
    lengths = []
    for seed in range(BOT_GAMES):
        players = 2 + seed % 3
        e = play_bot_game(SPEC.settings(players, seed), after_action=check_invariants)
        assert e.finished
        check_invariants(e)
        assert "start" not in e.places() and not any(k.startswith("space-") for k in e.places())
        assert e.winners == [p for p, s in enumerate(e.scores) if s == max(e.scores)]
        lengths.append(e.turn_count)
    assert 10 < sum(lengths) / len(lengths) < 200


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 4), data=st.data())
def test_any_sequence_of_rolls_and_choices_keeps_the_invariants(
    players: int, data: st.DataObject
) -> None:
    e = VivaTopoEngine(SPEC.settings(players, 0, auto_move_single=data.draw(st.booleans())))
    for _ in range(400):
        if e.finished:
            break
        face = data.draw(st.sampled_from(FACES))
        e.handle(Action("roll", 0, player=e.current, args={"value": face}))
        if e.phase == "move":
            index = data.draw(st.integers(0, len(e.moves) - 1))
            e.handle(
                Action(
                    "move",
                    0,
                    player=e.current,
                    args={"mouse": e.moves[index].mouse, "to": e.moves[index].target},
                )
            )
        check_invariants(e)


def test_bots_are_seeded() -> None:
    a = play_bot_game(SPEC.settings(3, 11))
    b = play_bot_game(SPEC.settings(3, 11))
    assert a.log == b.log
    assert play_bot_game(SPEC.settings(3, 12)).log != a.log


def bot_choice(start: dict, roll: object) -> dict:
    e = VivaTopoEngine(SPEC.settings(2, 0, auto_move_single=False, start=start))
    e.handle(Action("roll", 0, player=0, args={"value": roll}))
    view = e.public_view()
    return view["legal_moves"][VivaTopoBot(0, seed=1).choose(view)]


def test_bot_does_not_run_past_the_cat_when_it_can_move_another_mouse() -> None:
    # the cat waits on 14 on its way to the start: a 3 takes red-1 from 12 past it;
    # red-2 can walk safely instead
    best = bot_choice({"mice": {"red-1": 12, "red-2": 2}}, 3)
    assert best["mouse"] != "red-1" and not best["passes_cat"]


def test_bot_ducks_into_a_house_when_the_cat_is_coming() -> None:
    # a cat roll: the cat (lap 2, space 6) will cover spaces 7-10 right after this move
    best = bot_choice(
        {"cat": {"lap": 2, "space": 6}, "mice": {"red-1": 8, "red-2": 9, "blue-1": 16}}, "cat"
    )
    assert (best["mouse"], best["to"]) == ("red-2", "house-2")


def test_bot_prefers_the_house_with_the_better_cheese_left() -> None:
    # on house-3's arrow with a 5: house-3 is empty, house-4 (arrow 18) still pays 4
    start = {
        "cat": {"lap": 2, "space": 10},
        "mice": {"red-1": 14},
        "cheese": {"house-3": 0, "emmentalia": 0},
    }
    best = bot_choice(start, 5)
    assert best["to"] == "house-4"


def test_bot_presses_bell_then_navigates_and_confirms() -> None:
    e = VivaTopoEngine(SPEC.settings(2, 0))
    bot = VivaTopoBot(0, seed=3)
    plan = bot.observe(e.public_view(), [], 1_000)
    assert [p.input for p in plan] == ["bell"] and 250_000 <= plan[0].t_us - 1_000 <= 700_000
    assert bot.observe(e.public_view(), [], 2_000) == []  # already planned
    e.handle(Action("roll", plan[0].t_us, player=0, args={"value": 3}))
    plan = bot.observe(e.public_view(), [], plan[0].t_us)
    assert plan[-1].input == "ok" and {p.input for p in plan[:-1]} <= {"next", "prev"}
    assert [p.t_us for p in plan] == sorted(p.t_us for p in plan)
    assert VivaTopoBot(1, seed=3).observe(e.public_view(), [], 0) == []


@pytest.mark.parametrize(("space", "roll"), [(9, 3), (8, 3), (8, 2)])
def test_bot_takes_a_small_house_when_the_cat_comes_past_soon(space: int, roll: int) -> None:
    # the cat (lap 1, space 6) covers 7-8 on its next roll and 9-10 on the one after:
    # red-1 on or just before house-2's arrow banks its 2 rather than running on, since
    # red's other mice share its moves (the old bots ran on to 10-12 and were caught)
    mice = {"red-1": space, "red-2": 16, "blue-1": 12}
    if roll == 3:
        mice["red-3"] = 17
    best = bot_choice({"cat": {"lap": 1, "space": 6}, "mice": mice}, roll)
    assert (best["mouse"], best["to"]) == ("red-1", "house-2")


def test_bot_brings_mice_out_of_the_start_while_the_cat_nears_the_exit() -> None:
    # the cat is two rolls from the start exit with four red mice waiting:
    # a mouse leaves the start instead of red-1 running on
    best = bot_choice({"cat": {"lap": 1, "space": 18}, "mice": {"red-1": 6}}, 4)
    assert best["mouse"] != "red-1"
