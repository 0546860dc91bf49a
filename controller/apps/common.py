"""Small pieces every app shares: games by name, ``--option`` parsing, JSON out."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from games import registry
from games.base import BuzzerBoxError, GameSpec


class UsageError(BuzzerBoxError):
    """A command line the box cannot act on (unknown game, malformed option)."""


def spec_named(name: str) -> GameSpec:
    try:
        return registry.get(name)
    except LookupError as exc:
        raise UsageError(str(exc)) from exc


def default_players(spec: GameSpec) -> int:
    """Four players, or as near as the game allows."""
    return max(spec.min_players, min(4, spec.max_players))


def options_from(pairs: Sequence[str]) -> dict[str, Any]:
    """--option key=value (value parsed as JSON when it can be)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"--option wants key=value, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))
