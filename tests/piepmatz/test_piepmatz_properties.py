"""Properties of whole Piepmatz games, over seeds, player counts, options and choices:
cards are conserved and each lies in one place, hands never reach the shared
screen, what the engine lists as legal is exactly what it accepts, a refusal
changes nothing, and replaying the actions gives the same game."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Action, BuzzerBoxError, GameSettings, RuleError
from games.piepmatz.engine import PLAYER_ACTIONS, PiepmatzEngine

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 8) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=2),
    max_leaves=5,
)


def _state(engine: PiepmatzEngine) -> str:
    views = [engine.public_view(), engine.summary()]
    views += [engine.private_view(p) for p in range(engine.players)]
    return json.dumps([views, sorted(engine.locations())], sort_keys=True)


def _check_invariants(engine: PiepmatzEngine, all_cards: list[str]) -> None:
    places = engine.locations()
    counts = Counter(card_id for card_id, _ in places)
    assert sorted(counts) == all_cards, "a card appeared or vanished"
    assert max(counts.values()) == 1, "a card lies in two places"
    public = json.dumps(engine.public_view())
    for player in range(engine.players):
        private = json.dumps(engine.private_view(player))
        for bird in engine.hands[player]:
            assert f'"{bird.id}"' not in public, "a hand card is on the shared screen"
            for other in range(engine.players):
                if other != player:
                    assert f'"{bird.id}"' not in json.dumps(engine.private_view(other))
        assert [b["id"] for b in json.loads(private)["hand"]] == [b.id for b in engine.hands[player]]
    view = engine.public_view()
    assert len(view["scores"]) == len(view["status"]) == engine.players


def _same_move(kind: str, args: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    for move in legal:
        if move["kind"] != kind:
            continue
        if kind == "final":
            if sorted(move["args"]["cards"]) == sorted(args.get("cards", [])) and set(args) == {"cards"}:
                return True
        elif move["args"] == args:
            return True
    return False


@FAST
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 2**32),
    three_perches=st.booleans(),
    crows=st.integers(0, 12),
    squirrels=st.integers(0, 12),
    choices=st.lists(st.integers(0, 10**6), max_size=400),
    probes=st.lists(
        st.tuples(
            st.integers(0, 3),
            st.sampled_from(PLAYER_ACTIONS),
            st.integers(0, 10**6),
            st.integers(-1, 3),
        ),
        max_size=60,
    ),
)
def test_whole_games_keep_their_invariants_and_replay_exactly(
    players: int,
    seed: int,
    three_perches: bool,
    crows: int,
    squirrels: int,
    choices: list[int],
    probes: list[tuple[int, str, int, int]],
) -> None:
    game_settings = GameSettings(
        players, seed, {"perches": 3 if three_perches else 2, "crows": crows, "squirrels": squirrels}
    )
    engine = PiepmatzEngine(game_settings)
    all_cards = sorted(card_id for card_id, _ in engine.locations())
    every_id = [c for c in all_cards]
    actions: list[Action] = []
    step = 0
    while not engine.finished:
        assert step < 1_000, "the game does not end"
        # a probe: any action at all is either listed as legal and accepted, or refused unchanged
        if step < len(probes):
            player, kind, card_pick, perch = probes[step]
            player %= players
            card = every_id[card_pick % len(every_id)]
            args: dict[str, Any] = {"card": card, "perch": perch} if kind == "play" else {"card": card}
            if kind == "final":
                hand = [b.id for b in engine.hands[player]]
                args = {"cards": (hand + [card])[card_pick % 2 :][:2]}
            legal = [m.to_json() for m in engine.legal_moves(player)]
            before = _state(engine)
            probe = Action(kind, step, player, args)
            try:
                engine.handle(probe)
            except RuleError:
                assert not _same_move(kind, args, legal), f"listed move refused: {kind} {args}"
                assert _state(engine) == before, "a refused action changed the game"
            else:
                assert _same_move(kind, args, legal), f"unlisted move accepted: {kind} {args}"
                actions.append(probe)
                _check_invariants(engine, all_cards)
                step += 1
                continue
        seat = engine.to_act()[0]
        moves = engine.legal_moves(seat)
        assert moves, "the player to act has no legal move"
        assert engine.legal_actions(seat) == sorted({m.kind for m in moves}, key=[m.kind for m in moves].index)
        pick = choices[step] if step < len(choices) else 0
        move = moves[pick % len(moves)]
        action = Action(move.kind, step, seat, move.args)
        engine.handle(action)
        actions.append(action)
        _check_invariants(engine, all_cards)
        step += 1
    assert engine.winners and all(s == "won" or s == "idle" for s in engine.public_view()["status"])
    again = PiepmatzEngine(GameSettings.from_json(json.loads(json.dumps(game_settings.to_json()))))
    for action in actions:
        again.handle(Action.from_json(json.loads(json.dumps(action.to_json()))))
    assert _state(again) == _state(engine)


@settings(max_examples=150, deadline=None)
@given(
    options=st.dictionaries(
        st.sampled_from(
            ["perches", "seed_cards", "crows", "squirrels", "pair_points", "majority",
             "removed_species", "bird_deck_top", "feeder_deck_top", "other"]
        ),
        JSON_VALUES,
        max_size=3,
    ),
    players=st.integers(0, 6),
)
def test_any_options_either_start_a_game_or_give_a_one_line_error(
    options: dict[str, Any], players: int
) -> None:
    try:
        engine = PiepmatzEngine(GameSettings(players, 1, options))
    except BuzzerBoxError as exc:
        assert "\n" not in str(exc) and str(exc)
    else:
        assert engine.public_view()["phase"] == "play"


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 1000),
    advance=st.integers(0, 150),
    kind=st.sampled_from([*PLAYER_ACTIONS, "bell", ""]),
    player=st.none() | st.integers(-1, 4),
    args=st.dictionaries(st.sampled_from(["card", "cards", "perch", "x"]), JSON_VALUES, max_size=3),
)
def test_any_action_is_applied_or_refused_with_a_rule_error(
    seed: int, advance: int, kind: str, player: int | None, args: dict[str, Any]
) -> None:
    engine = PiepmatzEngine(GameSettings(2, seed))
    for t in range(advance):  # reach any phase, the final cards included
        if engine.finished:
            break
        seat = engine.to_act()[0]
        move = engine.legal_moves(seat)[-1]
        engine.handle(Action(move.kind, t, seat, move.args))
    before = _state(engine)
    try:
        engine.handle(Action(kind, 1_000, player, args))
    except RuleError as exc:
        assert "\n" not in str(exc)
        assert _state(engine) == before
