"""Every Fiki Miki option in one place: its type, default and allowed range.

``FikiMikiOptions.from_mapping(settings.options)`` checks them all; a bad one
raises ``FikiMikiError`` with one line naming the option and what to use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from games.fiki_miki.cards import Card, DeckMakeup, FikiMikiError, cards_from_json, default_makeup


class Variant(str, Enum):
    """The three ways the box plays the deck (see README.md)."""

    I = "I"  # noqa: E741 - the rulebook's own name for the variant
    IIA = "IIA"
    IIB = "IIB"


#: players per variant (the rulebook's ranges)
PLAYERS: dict[Variant, tuple[int, int]] = {Variant.I: (2, 6), Variant.IIA: (2, 4), Variant.IIB: (2, 4)}
#: cards dealt to each player unless ``hand_size`` says otherwise
HAND_SIZE: dict[Variant, int] = {Variant.I: 5, Variant.IIA: 8, Variant.IIB: 8}

#: name -> (default, lowest, highest) for the whole-number options
_INTS: dict[str, tuple[int, int, int]] = {
    "threshold": (10, 1, 100),
    "bell_window_us": (2_000_000, 0, 60_000_000),
    "race_window_us": (100_000, 1, 5_000_000),
    "tie_window_us": (0, 0, 1_000_000),
}
_KNOWN = {"variant", "kinds", "copies", "blanks", "hand_size", "deck", "open_hands", *_INTS}


@dataclass(frozen=True)
class FikiMikiOptions:
    """Checked options of one game.

    - ``variant``: I | IIA | IIB (default I).
    - ``kinds`` (1-8 distinct names), ``copies`` (1-9 counts, 0-20 each: cards
      per kind with 1, 2, ... pictures), ``blanks`` (0-40): the deck make-up,
      default from deck.json. Variant I plays without blanks.
    - ``deck``: an explicit deck, top card first (scenarios and tests); it
      replaces the shuffled make-up deck.
    - ``hand_size``: 1-20 cards dealt (default 5 in I, 8 in II).
    - ``threshold``: 1-100 pictures on a stack that make the bell right (I; 10).
    - ``bell_window_us``: 0-60 s after a card lands (I) or is led (IIB) in
      which the bell is open and the next card waits (2 s).
    - ``race_window_us``: 1 µs-5 s after the first ring in which later-stamped
      rings still join the race (100 ms; must exceed the sources' precision).
    - ``tie_window_us``: 0-1 s: rings closer than this are a tie (0: only the
      sources' precision decides).
    - ``open_hands``: true puts hands on the shared screen (variant I only:
      teaching mode). Default false.
    """

    variant: Variant = Variant.I
    makeup: DeckMakeup | None = None
    deck: tuple[Card, ...] | None = None
    hand_size: int | None = None
    threshold: int = 10
    bell_window_us: int = 2_000_000
    race_window_us: int = 100_000
    tie_window_us: int = 0
    open_hands: bool = False

    @property
    def cards_per_hand(self) -> int:
        return self.hand_size if self.hand_size is not None else HAND_SIZE[self.variant]

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> FikiMikiOptions:
        unknown = sorted(set(options) - _KNOWN)
        if unknown:
            raise FikiMikiError(f"unknown option(s) {unknown}; Fiki Miki knows: {', '.join(sorted(_KNOWN))}")
        raw_variant = options.get("variant", "I")
        try:
            variant = Variant(raw_variant)
        except ValueError:
            raise FikiMikiError(f"option 'variant' is {raw_variant!r}; use one of: I, IIA, IIB") from None
        default = default_makeup()
        kinds = _kinds(options.get("kinds", list(default.kinds)))
        copies = _copies(options.get("copies", list(default.copies)))
        blanks = _int(options, "blanks", default.blanks, 0, 40)
        makeup = DeckMakeup(kinds, copies, blanks)
        deck = None
        if options.get("deck") is not None:
            deck = tuple(cards_from_json(options["deck"], kinds))
        hand_size = None if options.get("hand_size") is None else _int(options, "hand_size", 0, 1, 20)
        ints = {name: _int(options, name, *limits) for name, limits in _INTS.items()}
        open_hands = options.get("open_hands", False)
        if not isinstance(open_hands, bool):
            raise FikiMikiError(f"option 'open_hands' is {open_hands!r}; use true or false")
        if open_hands and variant is not Variant.I:
            raise FikiMikiError(
                f"option 'open_hands' is for variant I only (teaching mode); variant {variant.value} needs hidden hands"
            )
        return cls(variant, makeup, deck, hand_size, open_hands=open_hands, **ints)


def _int(options: Mapping[str, Any], name: str, default: int, low: int, high: int) -> int:
    value = options.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise FikiMikiError(f"option {name!r} is {value!r}; use a whole number from {low} to {high}")
    return value


def _kinds(value: Any) -> tuple[str, ...]:
    if (
        not isinstance(value, list | tuple)
        or not 1 <= len(value) <= 8
        or any(not isinstance(k, str) or not k for k in value)
        or len(set(value)) != len(value)
    ):
        raise FikiMikiError(f"option 'kinds' is {value!r}; use 1 to 8 different names, e.g. [\"apple\", \"leaf\"]")
    return tuple(value)


def _copies(value: Any) -> tuple[int, ...]:
    if (
        not isinstance(value, list | tuple)
        or not 1 <= len(value) <= 9
        or any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= 20 for n in value)
        or sum(value) == 0
    ):
        raise FikiMikiError(
            f"option 'copies' is {value!r}; use 1 to 9 counts of 0-20 (cards per kind with 1, 2, ... pictures), "
            "not all 0, e.g. [5, 3, 3, 2, 1]"
        )
    return tuple(value)
