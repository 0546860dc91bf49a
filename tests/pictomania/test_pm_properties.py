"""Properties of any Pictomania game: secrets stay secret, scores add up, the
same actions give the same game.

Secrecy is tested as independence: change every hidden thing (the secrets,
the numbers on the guess cards) and what may not see it must not change."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import Action, GameSettings, RuleError
from games.pictomania.bots import BotProfile, play_bot_game
from games.pictomania.engine import (
    ADMIT,
    DONE,
    DRAWN,
    GUESS,
    LETTERS,
    REVEAL,
    START,
    Phase,
    PictomaniaEngine,
    Secret,
)
from games.pictomania.words import load_words

CARDS = load_words("en")
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _other(number: int) -> int:
    return number % 7 + 1


def _hide_differently(engine: PictomaniaEngine, keep: int | None) -> PictomaniaEngine:
    """A copy whose hidden facts all differ, except what seat ``keep`` may know."""
    twin = copy.copy(engine)  # the hidden facts are replaced, never mutated: a shallow copy will do
    twin.round = r = copy.copy(engine.round)
    r.secrets = [
        s if p == keep else Secret(LETTERS[(LETTERS.index(s.letter) + 1) % 3], _other(s.number))
        for p, s in enumerate(r.secrets)
    ]
    r.guesses = [g if g.guesser == keep else dataclasses.replace(g, number=_other(g.number))
                 for g in r.guesses]
    return twin


def check_secrecy(engine: PictomaniaEngine) -> None:
    if engine.phase not in (Phase.DRAWING, Phase.REVIEW):
        return  # before the deal nothing is hidden; after the reveal everything is shown
    twin = _hide_differently(engine, keep=None)
    assert twin.public_view() == engine.public_view()
    # the twin really differs: the check above could have failed
    assert twin.private_view(0)["secret"] != engine.private_view(0)["secret"]
    for seat in range(engine.players):
        assert _hide_differently(engine, keep=seat).private_view(seat) == engine.private_view(seat)


def check_scores(engine: PictomaniaEngine) -> None:
    totals = [0] * engine.players
    for reveal in engine.history:
        for p in range(engine.players):
            won = sum(x["token"] for d in reveal["drawers"] for x in d["guesses"] if x["guesser"] == p)
            assert reveal["earned"][p] == won
            assert reveal["kept"][p] == sum(reveal["drawers"][p]["kept"])
            assert reveal["scores"][p] == reveal["earned"][p] + reveal["bonus_score"][p] - reveal["kept"][p]
            assert reveal["bonus_score"][p] in {reveal["bonus"][p] or 0, 0, -(reveal["bonus"][p] or 0)}
            totals[p] += reveal["scores"][p]
        for d in reveal["drawers"]:
            if not any(x["tie"] for x in d["guesses"]):
                given = sum(x["token"] for x in d["guesses"])
                assert given + sum(d["kept"]) == sum(engine.scoring_tokens)
        assert reveal["totals"] == totals
    assert engine.totals == totals


step = st.tuples(
    st.integers(0, 5),  # player
    st.sampled_from([GUESS, GUESS, GUESS, DONE, DRAWN, ADMIT]),
    st.integers(0, 5),  # drawer
    st.integers(1, 7),  # number
    st.integers(0, 1_500_000),  # time since the previous step
    st.sampled_from([100, 20_000]),  # stamp precision
)


def _actions(players: int, steps: list[tuple[int, str, int, int, int, int]]) -> list[Action]:
    t = 1
    out = [Action(START, t)]
    for player, kind, drawer, number, dt, precision in steps:
        t += dt
        args: dict[str, Any] = {"drawer": drawer % players, "number": number} if kind == GUESS else {}
        out.append(Action(kind, t, player % players, args, precision_us=precision))
    out.append(Action(REVEAL, t + 10_000_000))
    return out


def _run(players: int, seed: int, options: dict[str, Any], actions: list[Action],
         check: bool) -> PictomaniaEngine:
    engine = PictomaniaEngine(GameSettings(players=players, seed=seed, options=options), CARDS)
    for action in actions:
        if action.kind == REVEAL:  # everyone still drawing rings, then the tokens settle
            for p in range(players):
                if engine.phase is Phase.DRAWING and engine.round.done_us[p] is None:
                    with contextlib.suppress(RuleError):  # a harsher round may end with the previous bell
                        engine.handle(Action(DONE, action.t_us - 8_000_000 + p * 1_000_000, p))
            engine.tick(action.t_us)
        with contextlib.suppress(RuleError):  # random steps: many are refused, state unchanged
            engine.handle(action)
        if check:
            check_secrecy(engine)
    return engine


@FAST
@given(
    players=st.integers(3, 6),
    seed=st.integers(0, 2**32),
    harsher=st.booleans(),
    token_choice=st.booleans(),
    steps=st.lists(step, max_size=40),
)
def test_random_play_keeps_secrets_adds_up_and_replays(players, seed, harsher, token_choice, steps):
    options = {"harsher": harsher, "token_choice": token_choice}
    actions = _actions(players, steps)
    engine = _run(players, seed, options, actions, check=True)
    assert engine.phase is Phase.REVEALED
    check_scores(engine)
    again = _run(players, seed, options, actions, check=False)
    assert again.summary() == engine.summary()
    assert again.public_view() == engine.public_view()
    assert [again.private_view(p) for p in range(players)] == [engine.private_view(p) for p in range(players)]


@settings(max_examples=12, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32), harsher=st.booleans(),
       accuracy=st.floats(0.0, 1.0))
def test_whole_bot_games_keep_secrets_and_add_up(players, seed, harsher, accuracy):
    game = GameSettings(players=players, seed=seed, options={"harsher": harsher})
    profile = BotProfile(accuracy=accuracy)
    seen: list[Action] = []

    def after(engine: PictomaniaEngine, action: Action) -> None:
        seen.append(action)
        check_secrecy(engine)

    engine = play_bot_game(game, CARDS, profile, after_action=after)
    assert engine.finished and len(engine.history) == 4
    check_scores(engine)
    # a replay of the accepted actions (and the settle ticks they imply) is the same game
    replay = PictomaniaEngine(game, CARDS)
    for action in seen:
        while (deadline := replay.next_deadline_us()) is not None and deadline <= action.t_us:
            replay.tick(deadline)
        replay.handle(action)
    assert replay.summary() == engine.summary()
    assert play_bot_game(game, CARDS, profile).summary() == engine.summary()
