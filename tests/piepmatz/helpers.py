"""Build Piepmatz positions for tests: decks stacked through the engine's own
``bird_deck_top``/``feeder_deck_top`` options, mid-game pieces moved out of the
piles (so every card is still counted exactly once)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.base import Action, GameEvent, GameSettings
from games.piepmatz.engine import Phase, PiepmatzEngine

PERCHES = ("blackbird-m3", "chaffinch-m6")
OFFER = ("sparrow-m1", "sparrow-m2", "sparrow-m3")
HANDS = (
    ("blackbird-f5", "chaffinch-f2", "yellowhammer-m4", "greenfinch-m1"),
    ("blackbird-f1", "chaffinch-f6", "yellowhammer-f4", "greenfinch-f3"),
    ("blackbird-m1", "chaffinch-m1", "yellowhammer-m1", "greenfinch-m2"),
    ("blackbird-m2", "chaffinch-m2", "yellowhammer-m2", "greenfinch-m3"),
)
ROW = ("egg1-01", "egg2-01", "egg3-01", "egg1-02")


def game(
    players: int = 2,
    perches: Sequence[str] = PERCHES,
    offer: Sequence[str] = OFFER,
    hands: Sequence[Sequence[str]] | None = None,
    pile: Sequence[str] = (),
    row: Sequence[str] = ROW,
    feeder: Sequence[str] = (),
    seed: int = 0,
    **options: Any,
) -> PiepmatzEngine:
    """A game whose perches, offer, hands, row and pile tops are the given cards."""
    hands = HANDS[:players] if hands is None else hands
    bird_top = [*perches, *offer, *(c for h in hands for c in h), *pile]
    return PiepmatzEngine(
        GameSettings(
            players,
            seed,
            {
                "bird_deck_top": bird_top,
                "feeder_deck_top": [*row, *feeder],
                "perches": len(perches),
                **options,
            },
        )
    )


def act(engine: PiepmatzEngine, player: int, kind: str, **args: Any) -> list[GameEvent]:
    return engine.handle(Action(kind, 0, player, args))


def kinds(events: list[GameEvent]) -> list[str]:
    return [e.kind for e in events]


def finish_turn(engine: PiepmatzEngine) -> list[GameEvent]:
    """Take the offer's first cards until the turn is over."""
    events: list[GameEvent] = []
    while engine.phase is Phase.TAKE:
        events += act(engine, engine.current, "take", card=engine.offer[0].id)
    return events


def _from_pile(engine: PiepmatzEngine, pile: list[Any], card_id: str) -> Any:
    for card in pile:
        if card.id == card_id:
            pile.remove(card)
            return card
    raise AssertionError(f"{card_id} is not in the pile")


def queue(engine: PiepmatzEngine, perch: int, ids: Sequence[str]) -> None:
    for card_id in ids:
        engine.queues[perch].append(_from_pile(engine, engine.bird_pile, card_id))


def collect(engine: PiepmatzEngine, player: int, ids: Sequence[str]) -> None:
    for card_id in ids:
        engine.collections[player].append(_from_pile(engine, engine.bird_pile, card_id))


def give_seeds(engine: PiepmatzEngine, player: int, ids: Sequence[str]) -> None:
    for card_id in ids:
        engine.seeds[player].append(_from_pile(engine, engine.feeder_pile, card_id))


def put_pest(engine: PiepmatzEngine, position: int, card_id: str) -> None:
    engine.pests[position - 1] = _from_pile(engine, engine.feeder_pile, card_id)


def hand_ids(engine: PiepmatzEngine, player: int) -> list[str]:
    return [b.id for b in engine.hands[player]]


def ids(cards: Sequence[Any]) -> list[str]:
    return [c.id for c in cards if c is not None]
