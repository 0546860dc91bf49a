"""Small helpers to lay out an exact Fiki Miki table for a rules test."""

from __future__ import annotations

import json
from typing import Any

from games.base import Action, GameEvent, GameSettings
from games.fiki_miki.engine import FikiMikiEngine


def card(kind: str, pictures: int) -> dict[str, Any]:
    return {"kind": kind, "pictures": pictures}


BLANK: dict[str, Any] = {"kind": None, "pictures": 0}


def engine(deck: list[dict[str, Any]], players: int, hand_size: int, seed: int = 1, **options: Any) -> FikiMikiEngine:
    """Hands are dealt in blocks from the top: seat 0 gets the first hand_size cards."""
    options.update(deck=deck, hand_size=hand_size)
    return FikiMikiEngine(GameSettings(players=players, seed=seed, options=options))


def play(e: FikiMikiEngine, player: int, card_id: int, t_us: int) -> list[GameEvent]:
    return e.handle(Action("play", t_us, player, {"card": card_id}))


def discard(e: FikiMikiEngine, player: int, card_id: int, t_us: int) -> list[GameEvent]:
    return e.handle(Action("discard", t_us, player, {"card": card_id}))


def ring(e: FikiMikiEngine, player: int, t_us: int, precision_us: int = 1) -> list[GameEvent]:
    return e.handle(Action("ring", t_us, player, precision_us=precision_us))


def hand(e: FikiMikiEngine, player: int) -> list[int]:
    return [c["id"] for c in e.private_view(player)["hand"]]


def kinds(events: list[GameEvent]) -> list[str]:
    return [event.kind for event in events]


def snapshot(e: FikiMikiEngine) -> str:
    """Everything a player or the runtime can see, for "nothing changed" checks."""
    views = [e.private_view(p) for p in range(e.players)]
    return json.dumps([e.public_view(), views, e.summary(), e.next_deadline_us()], sort_keys=True)
