"""Judging the table: which pairs lie, is there a two-worm hen, are two cards identical.

Pure and shared by the engine (to resolve reactions) and the bots (to decide
what a player would see), so both always agree on what the table shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from games.schicki_micki.cards import ACCESSORIES, Card

#: the outcome-table rows, in priority order (a correct knock beats everything)
TWO_WORMS = "two_worms"
IDENTICAL = "identical"
SEVERAL_PAIRS = "several_pairs"
ONE_PAIR = "one_pair"
NOTHING = "nothing"
ROWS = (TWO_WORMS, IDENTICAL, SEVERAL_PAIRS, ONE_PAIR, NOTHING)


@dataclass(frozen=True)
class Situation:
    """What the table shows. ``pairs`` lists (accessory, colour) shown on two or
    more cards; three red hats are still one pair (Decision)."""

    pairs: tuple[tuple[str, str], ...]
    two_worms: bool
    identical: bool

    @property
    def paired_accessories(self) -> frozenset[str]:
        return frozenset(accessory for accessory, _ in self.pairs)

    @property
    def row(self) -> str:
        """The outcome-table row that decides this table.

        A two-worm hen decides first (a correct knock always wins), then
        identical cards (they also make six pairs, but the red pawn is the right
        reaction), then several pairs, then one pair.
        """
        if self.two_worms:
            return TWO_WORMS
        if self.identical:
            return IDENTICAL
        if len(self.pairs) >= 2:
            return SEVERAL_PAIRS
        if len(self.pairs) == 1:
            return ONE_PAIR
        return NOTHING

    def describe(self) -> str:
        parts = []
        if self.two_worms:
            parts.append("a two-worm hen")
        if self.identical:
            parts.append("two identical cards")
        if self.pairs:
            parts.append(", ".join(f"{colour} {accessory}s" for accessory, colour in self.pairs))
        return "; ".join(parts) if parts else "no pair"


def judge(table: Sequence[Card]) -> Situation:
    """Judge the table as a whole, as the rules say, after every card."""
    counts: Counter[tuple[str, str]] = Counter()
    for card in table:
        counts.update(card.features())
    order = {accessory: i for i, accessory in enumerate(ACCESSORIES)}
    pairs = tuple(sorted((f for f, n in counts.items() if n >= 2), key=lambda f: (order[f[0]], f[1])))
    two_worms = any(card.worms == 2 for card in table)
    identical = len(set(table)) < len(table)
    return Situation(pairs=pairs, two_worms=two_worms, identical=identical)
