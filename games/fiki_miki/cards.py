"""Fiki Miki cards as small frozen values, the deck make-up, and their JSON.

The deck is data (``deck.json`` beside this file): picture kinds, how many
cards of each kind show 1, 2, 3 ... pictures, and how many blank cards. Every
card gets an ``id`` (its place in the unshuffled deck) so that a card can be
followed from pile to hand to stack and the tests can prove no card is ever in
two places. Ids say nothing hidden: they are only ever shown next to the face.

JSON of one card: ``{"id": 7, "kind": "apple", "pictures": 3}``; a blank card
has ``"kind": null`` and ``"pictures": 0``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from games.base import BuzzerBoxError, OptionError

MAX_PICTURES = 9  # the most pictures one card may show (the art has room for this many)


class FikiMikiError(BuzzerBoxError, ValueError):
    """A bad option or card description; the one-line message names it and the fix."""


class FikiMikiOptionError(FikiMikiError, OptionError):
    """An option the option table refuses: the contract's ``OptionError`` as every engine's."""


@dataclass(frozen=True)
class Card:
    """One card: ``kind`` None is a blank card (no pictures)."""

    id: int
    kind: str | None
    pictures: int

    @property
    def blank(self) -> bool:
        return self.kind is None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "pictures": self.pictures}


@dataclass(frozen=True)
class DeckMakeup:
    """What the deck holds: ``copies[i]`` cards of every kind show ``i + 1`` pictures."""

    kinds: tuple[str, ...]
    copies: tuple[int, ...]
    blanks: int

    def picture_cards(self) -> int:
        return len(self.kinds) * sum(self.copies)

    def cards(self, with_blanks: bool) -> list[Card]:
        """The unshuffled deck: kinds in order, fewest pictures first, blanks last."""
        out: list[Card] = []
        for kind in self.kinds:
            for index, count in enumerate(self.copies):
                out += [Card(len(out) + k, kind, index + 1) for k in range(count)]
        if with_blanks:
            out += [Card(len(out) + k, None, 0) for k in range(self.blanks)]
        return out


def default_makeup() -> DeckMakeup:
    """The deck the box plays unless options say otherwise (read from deck.json)."""
    text = resources.files("games.fiki_miki").joinpath("deck.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return DeckMakeup(tuple(data["kinds"]), tuple(data["copies"]), int(data["blanks"]))


def cards_from_json(items: Any, kinds: Sequence[str], where: str = "deck") -> list[Card]:
    """Parse an explicit deck (top card first); ids are the positions in the list.

    Ids in the input are not needed and, if given, must match the position, so
    a list copied out of a view reads back unchanged.
    """
    if not isinstance(items, list) or not items:
        raise FikiMikiError(f"option {where!r}: expected a non-empty list of cards (top first), got {items!r}")
    cards: list[Card] = []
    for i, item in enumerate(items):
        cards.append(_card_from_json(item, i, kinds, f"{where}[{i}]"))
    return cards


def _card_from_json(data: Any, position: int, kinds: Sequence[str], where: str) -> Card:
    hint = 'like {"kind": "apple", "pictures": 3} or {"kind": null, "pictures": 0} for a blank'
    if not isinstance(data, Mapping):
        raise FikiMikiError(f"{where}: expected a card {hint}, got {data!r}")
    extra = set(data) - {"id", "kind", "pictures"}
    if extra:
        raise FikiMikiError(f"{where}: unknown field(s) {sorted(extra)}; a card has kind and pictures")
    if "id" in data and data["id"] != position:
        raise FikiMikiError(f"{where}: 'id' is {data['id']!r} but ids are positions; use {position} or leave it out")
    kind = data.get("kind")
    pictures = data.get("pictures", 0 if kind is None else None)
    if kind is not None and kind not in kinds:
        raise FikiMikiError(f"{where}: 'kind' is {kind!r}; use one of: {', '.join(kinds)} (or null for a blank)")
    if isinstance(pictures, bool) or not isinstance(pictures, int):
        raise FikiMikiError(f"{where}: 'pictures' is {pictures!r}; use a whole number, card {hint}")
    if kind is None and pictures != 0:
        raise FikiMikiError(f"{where}: a blank card (kind null) shows 0 pictures, not {pictures}")
    if kind is not None and not 1 <= pictures <= MAX_PICTURES:
        raise FikiMikiError(f"{where}: 'pictures' is {pictures}; a picture card shows 1 to {MAX_PICTURES}")
    return Card(position, kind, pictures)


#: each kind's colour, the same on the big screen and on the phones (RGB)
KIND_COLORS: dict[str, tuple[int, int, int]] = {
    "mushroom": (190, 80, 60),
    "apple": (90, 170, 70),
    "leaf": (40, 130, 90),
    "star": (235, 190, 40),
}
BLANK_COLOR: tuple[int, int, int] = (200, 200, 205)
