"""Seeded, time-bounded fuzz of what the engine reads from outside: options
(from a journal or a settings page) and action args (from phones). Junk is
refused in one line with the box's own error, never a traceback."""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, BuzzerBoxError, GameSettings
from games.pictomania.engine import (
    ADMIT,
    DONE,
    DRAWN,
    GUESS,
    NEXT,
    REVEAL,
    START,
    SWAP,
    PictomaniaEngine,
    PictomaniaOptions,
)
from games.pictomania.words import load_words

CARDS = load_words("en")
CASES = 20  # seeded games (and 20x as many option sets); the same every run
NAMES = [f.name for f in PictomaniaOptions.__dataclass_fields__.values()] + ["x", ""]


def junk(rng: random.Random, depth: int = 0) -> Any:
    choices: list[Any] = [None, True, False, -1, 0, 1, 3, 7, 8, 2**40, 1.5, "", "A", "easiest",
                          "rising", "en", "\x00", [], {}]
    if depth < 2:
        choices += [[junk(rng, depth + 1) for _ in range(rng.randint(0, 6))],
                    {str(rng.randint(2, 7)): junk(rng, depth + 1) for _ in range(rng.randint(0, 3))}]
    return rng.choice(choices)


def test_junk_options_are_refused_in_one_line() -> None:
    rng = random.Random(19)
    for _ in range(CASES * 20):  # a fixed number of seeded cases
        options = {rng.choice(NAMES): junk(rng) for _ in range(rng.randint(1, 3))}
        try:
            PictomaniaOptions.from_mapping(options)
        except BuzzerBoxError as e:
            assert "\n" not in str(e) and str(e)


def test_junk_actions_are_refused_in_one_line_and_the_game_goes_on() -> None:
    rng = random.Random(20)
    kinds = [GUESS, DONE, DRAWN, ADMIT, SWAP, START, REVEAL, NEXT, "shout"]
    games = 0
    while games < CASES:  # a fixed number of seeded games
        engine = PictomaniaEngine(GameSettings(players=rng.randint(3, 6), seed=games), CARDS)
        games += 1
        t = 0
        for _ in range(200):
            t += rng.randint(-50_000, 3_000_000)
            args = {rng.choice(["drawer", "number", "token", "card", "player"]): junk(rng)
                    for _ in range(rng.randint(0, 2))}
            player = rng.choice([None, None, 0, 1, 2, 5, 9, -1])
            try:
                engine.handle(Action(rng.choice(kinds), max(t, 0), player, args))
            except BuzzerBoxError as e:
                assert "\n" not in str(e) and str(e)
            engine.public_view()
            for p in range(engine.players):
                engine.private_view(p)
    assert games > 1
