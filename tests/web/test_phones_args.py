"""A move's args on the wire, widened for the phone panels (a short list of
cards, a whole move held for the station): seeded random args of any shape
are either taken or refused with one line, never anything else, and nothing
deeper or bigger than a held move gets through."""

from __future__ import annotations

import random
from typing import Any

from controller.web.server import MAX_ARGS, Refused, _args

SCALARS: tuple[Any, ...] = (None, True, 0, -3, 2.5, "", "sparrow-f3", "x" * 201, 2**60)


def _value(rng: random.Random, depth: int) -> Any:
    roll = rng.random()
    if depth <= 0 or roll < 0.45:
        return rng.choice(SCALARS)
    if roll < 0.7:
        return [_value(rng, depth - 1) for _ in range(rng.randint(0, 10))]
    keys = ["kind", "args", "card", "move", "k" * rng.choice((1, 41))]
    return {rng.choice(keys): _value(rng, depth - 1) for _ in range(rng.randint(0, 10))}


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _sizes_ok(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= 200
    if isinstance(value, (dict, list)):
        items = list(value.values()) if isinstance(value, dict) else value
        return len(items) <= MAX_ARGS and all(_sizes_ok(v) for v in items)
    return True


def test_random_args_are_taken_or_refused_in_one_line_and_never_deeper_than_a_held_move() -> None:
    rng = random.Random(20261130)
    taken = refused = 0
    for _ in range(2000):  # a fixed number of seeded cases, however busy the machine
        args = _value(rng, 5)
        try:
            out = _args({"args": args})
        except Refused as exc:
            refused += 1
            assert "\n" not in str(exc) and str(exc)
            continue
        taken += 1
        # {"move": {"kind": ..., "args": {"cards": [...]}}}: four levels at most, nothing oversized
        assert _depth(out) <= 4 and _sizes_ok(out), out
    assert taken > 50 and refused > 50  # both sides were really tried
    assert _args({"args": {"move": {"kind": "play", "args": {"card": "sparrow-f3", "perch": 0}}}})
    assert _args({"args": {"cards": ["sparrow-f3", "kos-m1"]}})
