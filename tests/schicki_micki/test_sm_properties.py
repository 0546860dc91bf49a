"""Properties over random action sequences: cards are conserved, nobody goes
negative, a refused action changes nothing, and a replay gives the same game."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import HOST_SHOWN, Action, GameEvent, GameSettings, RuleError
from games.schicki_micki.cards import ACCESSORIES
from games.schicki_micki.deck import new_deck
from games.schicki_micki.engine import SchickiMickiEngine

KINDS = ("knock", "call", "blue", "red")

step = st.one_of(
    st.tuples(st.just("turn"), st.integers(0, 400_000)),
    st.tuples(st.just("tick"), st.integers(0, 3_000_000)),
    st.tuples(st.just("shown"), st.integers(0, 50_000)),
    st.tuples(
        st.just("react"),
        st.integers(-50_000, 900_000),
        st.integers(0, 6),
        st.sampled_from(KINDS),
        st.sampled_from([None, *ACCESSORIES]),
        st.sampled_from([1, 1, 2_000]),
    ),
)
game = st.fixed_dictionaries(
    {
        "players": st.integers(2, 7),
        "seed": st.integers(0, 50),
        "won": st.lists(st.integers(0, 3), min_size=7, max_size=7),
        "auto": st.sampled_from([None, 900_000]),
        "deck_size": st.sampled_from([None, 2, 4, 8]),
        "steps": st.lists(step, min_size=20, max_size=150),
    }
)


def new_engine(g: dict[str, Any]) -> SchickiMickiEngine:
    options: dict[str, Any] = {"won": g["won"][: g["players"]], "turn_interval_us": g["auto"], "interval_shrink": 0.9}
    if g["deck_size"] is not None:  # short decks reach the end of the game
        options["deck"] = [card.to_json() for card in new_deck(g["seed"])[: g["deck_size"]]]
    return SchickiMickiEngine(GameSettings(players=g["players"], seed=g["seed"], options=options))


def state(e: SchickiMickiEngine) -> str:
    return json.dumps([e.public_view(), e.summary(), e.next_deadline_us()], sort_keys=True)


def play(g: dict[str, Any], check: bool) -> tuple[SchickiMickiEngine, list[dict[str, Any]]]:
    e = new_engine(g)
    now = 0
    log: list[dict[str, Any]] = []
    for s in g["steps"]:
        before = state(e)
        events: list[GameEvent] = []
        try:
            if s[0] == "turn":
                now += s[1]
                events = e.handle(Action("turn", now))
            elif s[0] == "tick":
                now += s[1]
                events = e.tick(now)
                if check and state(e) != before:
                    assert events, "a tick changed the state without an event"
            elif s[0] == "shown":
                events = e.handle(Action(HOST_SHOWN, now + s[1]))
            else:
                _, dt, player, kind, accessory, precision = s
                args = {"accessory": accessory} if kind == "call" and accessory else {}
                t = now + dt
                now = max(now, t)
                events = e.handle(Action(kind, t, player % g["players"], args, precision))
        except RuleError:
            if check:
                assert state(e) == before, "a refused action changed the state"
        log.append({"events": [ev.to_json() for ev in events]})
        if check:
            s_ = e.summary()
            assert s_["deck"] + len(s_["table"]) + sum(s_["won"]) == s_["total_cards"]
            assert min(s_["won"]) >= 0 and min(s_["owed"]) >= 0 and s_["deck"] >= 0
    return e, log


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game)
def test_conserved_non_negative_and_refusals_change_nothing(g: dict[str, Any]) -> None:
    play(g, check=True)


@settings(max_examples=60, deadline=None)
@given(game)
def test_replaying_the_same_actions_gives_the_same_game(g: dict[str, Any]) -> None:
    first, log1 = play(g, check=False)
    second, log2 = play(g, check=False)
    assert log1 == log2
    assert state(first) == state(second)
