"""Properties over random games of every variant: cards are conserved and never
in two places, no hidden card reaches the shared screen (views and events), a
phone sees only its own hand, a refused action changes nothing, and the same
actions give the same game."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Action, GameEvent, GameSettings, RuleError
from games.fiki_miki.engine import FikiMikiEngine

VARIANTS = ("I", "IIA", "IIB")


def card_ids(data: Any) -> Iterator[int]:
    """Every card id in a JSON-like value (cards are the dicts with id + pictures)."""
    if isinstance(data, dict):
        if "id" in data and "pictures" in data:
            yield int(data["id"])
        for value in data.values():
            yield from card_ids(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            yield from card_ids(value)


def check(e: FikiMikiEngine, events: list[GameEvent]) -> None:
    s = e.state
    places = [
        *s.pile,
        *(c for h in s.hands for c in h),
        *(c for pile in s.collected for c in pile),
        *(c for stack in s.stacks.values() for c in stack),
        *s.discards,
        *(c for _, c in s.trick),
    ]
    ids = sorted(c.id for c in places)
    assert ids == list(range(e.total_cards)), "a card was lost, made up or is in two places"
    in_hand = {c.id: p for p, h in enumerate(s.hands) for c in h}
    hidden = {c.id for c in s.pile} | {c.id for c in s.discards}
    if not e.options.open_hands:
        hidden |= set(in_hand)
    shown = set(card_ids(e.public_view())) | set(card_ids([ev.to_json() for ev in events]))
    assert not shown & hidden, f"hidden cards {sorted(shown & hidden)} on the shared screen"
    for p in range(e.players):
        seen = set(card_ids(e.private_view(p)))
        assert all(in_hand.get(i) == p for i in seen & (hidden | set(in_hand))), "a phone shows another hand"
    assert all(score >= 0 for score in e.scores())


def state(e: FikiMikiEngine) -> str:
    views = [e.private_view(p) for p in range(e.players)]
    return json.dumps([e.public_view(), views, e.summary(), e.next_deadline_us(), e.finished], sort_keys=True)


step = st.tuples(
    st.sampled_from(["move", "move", "move", "tick", "ring", "junk"]),
    st.integers(0, 5),  # player
    st.integers(0, 40),  # which legal move / which card id
    st.integers(0, 2_500_000),  # time passing
    st.sampled_from([1, 1, 1_000]),  # stamp precision
)
game = st.fixed_dictionaries(
    {
        "variant": st.sampled_from(VARIANTS),
        "players": st.integers(2, 6),
        "seed": st.integers(0, 10_000),
        "copies": st.sampled_from([None, [2, 1, 1], [3, 2, 1, 0, 1]]),
        "blanks": st.sampled_from([None, 1, 3]),
        "open_hands": st.booleans(),
        "steps": st.lists(step, min_size=10, max_size=160),
    }
)


def new_engine(g: dict[str, Any]) -> FikiMikiEngine:
    players = g["players"] if g["variant"] == "I" else min(g["players"], 4)
    cards = 4 * sum(g["copies"] or [14])  # four kinds; the default make-up has 14 a kind
    options: dict[str, Any] = {"variant": g["variant"], "hand_size": min(3, cards // players)}
    if g["copies"] is not None:
        options["copies"] = g["copies"]
    if g["blanks"] is not None:
        options["blanks"] = g["blanks"]
    options["open_hands"] = g["open_hands"] and g["variant"] == "I"
    return FikiMikiEngine(GameSettings(players=players, seed=g["seed"], options=options))


def run(g: dict[str, Any], checking: bool) -> tuple[FikiMikiEngine, list[Any]]:
    """Play the steps; the log holds every action and tick that was applied."""
    e = new_engine(g)
    now = 0
    log: list[Any] = []
    for kind, player, index, dt, precision in g["steps"]:
        p = player % e.players
        if kind == "tick":
            now += dt
            log.append(("tick", now))
            events = e.tick(now)
            if checking:
                check(e, events)
            continue
        if kind == "move":
            moves = e.legal_moves(p)
            if not moves:
                continue
            action = moves[index % len(moves)].action(p, now + dt // 10, precision)
        elif kind == "ring":
            action = Action("ring", max(0, now + dt // 20 - 60_000), p, precision_us=precision)
        else:
            action = Action(random.Random(index).choice(["play", "discard"]), now, p, {"card": index})
        before = state(e) if checking else ""
        try:
            events = e.handle(action)
        except RuleError:
            if checking:
                assert state(e) == before, "a refused action changed the game"
            continue
        now = max(now, action.t_us)
        log.append(action.to_json())
        if checking:
            check(e, events)
    return e, log


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game)
def test_random_games_keep_every_promise(g: dict[str, Any]) -> None:
    e, log = run(g, checking=True)
    replay = new_engine(g)
    for entry in log:
        if isinstance(entry, tuple):
            replay.tick(entry[1])
        else:
            replay.handle(Action.from_json(entry))
    assert state(replay) == state(e), "the same actions gave a different game"


def test_many_whole_games_never_show_a_hidden_card() -> None:
    """Random legal players play 60 games to the end; every view is checked."""
    finished = 0
    for seed in range(60):
        variant = VARIANTS[seed % 3]
        players = 2 + seed % (5 if variant == "I" else 3)
        e = FikiMikiEngine(GameSettings(players=players, seed=seed, options={"variant": variant}))
        rng = random.Random(seed)
        now = 0
        for _ in range(3_000):
            if e.finished:
                break
            p = rng.randrange(players)
            moves = e.legal_moves(p)
            deadline = e.next_deadline_us()
            if deadline is not None and (rng.random() < 0.3 or not any(m.kind != "ring" for m in moves)):
                now = max(now, deadline)
                check(e, e.tick(now))
                continue
            if not moves:
                continue
            move = rng.choice(moves)
            if move.kind == "ring" and rng.random() < 0.7:
                continue  # a ring now and then, not at every step
            now += rng.randrange(1, 400_000)
            try:
                events = e.handle(move.action(p, now))
            except RuleError:
                continue  # a deadline passed meanwhile and the move is no longer legal
            check(e, events)
        finished += e.finished
    assert finished == 60
