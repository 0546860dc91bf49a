"""Every Fiki Miki option in one place: its type, default and allowed range
(``OPTIONS``, the one table the spec, the menu and the engine read).

``FikiMikiOptions.from_mapping(settings.options)`` checks them all and turns
them into the engine's types; a bad one raises ``FikiMikiError`` with one line
naming the option and what to use.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from games.base import TIE_WINDOW, Option, checked_options, tie_window_option
from games.fiki_miki.cards import (
    Card,
    DeckMakeup,
    FikiMikiError,
    FikiMikiOptionError,
    cards_from_json,
    default_makeup,
)
from games.i18n import N_
from games.rules_version import RULES_OPTION, rules_option


class Variant(str, Enum):
    """The three ways the box plays the deck (see README.md)."""

    I = "I"  # noqa: E741 - the rulebook's own name for the variant
    IIA = "IIA"
    IIB = "IIB"


#: each variant as the start menu says it: its number in the rulebook and what it plays (README.md)
VARIANT_NAMES: dict[str, str] = {Variant.I.value: N_("I: four stacks and a bell"),
                                 Variant.IIA.value: N_("II A: follow the picture"),
                                 Variant.IIB.value: N_("II B: follow the picture with the bell")}

#: players per variant (the rulebook's ranges)
PLAYERS: dict[Variant, tuple[int, int]] = {Variant.I: (2, 6), Variant.IIA: (2, 4), Variant.IIB: (2, 4)}
#: cards dealt to each player unless ``hand_size`` says otherwise
HAND_SIZE: dict[Variant, int] = {Variant.I: 5, Variant.IIA: 8, Variant.IIB: 8}

#: the rules version new games play (journals keep it; ``games.rules_version``):
#: 1 lifted a wrong ringer's bell ban with their lost turn, so the ban's length
#: depended on the seat; 2 keeps it until their own turn after the lost one begins
RULES_VERSION = 2
#: the first rules version whose bell ban runs to the ringer's next own turn
BAN_TO_OWN_TURN = 2

#: every option, declared once (type, default, range, menu choices): the spec and
#: the menu read this table, ``FikiMikiOptions.from_mapping`` checks against it
OPTIONS: dict[str, Option] = {
    "variant": Option(Variant.I.value, str, label=N_("Variant"), choices=tuple(VARIANT_NAMES.items())),
    "open_hands": Option(False, bool, label=N_("Hands (variant I)"),
                         choices=((False, N_("on phones")), (True, N_("open on screen")))),
    "threshold": Option(10, int, low=1, high=100, label=N_("Pictures to ring"), choices=((8, "8"), (10, "10"), (12, "12"))),
    # None: 5 in variant I, 8 in II (``HAND_SIZE``)
    "hand_size": Option(None, int, low=1, high=20),
    "bell_window_us": Option(2_000_000, int, low=0, high=60_000_000),
    "race_window_us": Option(100_000, int, low=1, high=5_000_000),
    TIE_WINDOW: tie_window_option(),
    # the deck make-up; None: deck.json's
    "kinds": Option(None, list),
    "copies": Option(None, list),
    "blanks": Option(None, int, low=0, high=40),
    # an explicit deck, top card first (scenarios and tests)
    "deck": Option(None, list),
    # the rules version to play (an old journal replays under its own)
    RULES_OPTION: rules_option(RULES_VERSION),
}


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
    - ``rules_version``: 1-2, the rules version played (``RULES_VERSION``;
      older ones only for replaying old journals).
    """

    variant: Variant = Variant.I
    makeup: DeckMakeup | None = None
    deck: tuple[Card, ...] | None = None
    hand_size: int | None = None
    threshold: int = OPTIONS["threshold"].default
    bell_window_us: int = OPTIONS["bell_window_us"].default
    race_window_us: int = OPTIONS["race_window_us"].default
    tie_window_us: int = OPTIONS[TIE_WINDOW].default
    open_hands: bool = OPTIONS["open_hands"].default
    rules_version: int = RULES_VERSION

    @property
    def cards_per_hand(self) -> int:
        return self.hand_size if self.hand_size is not None else HAND_SIZE[self.variant]

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> FikiMikiOptions:
        values = checked_options(OPTIONS, options, "Fiki Miki", error=FikiMikiOptionError)
        raw_variant = values["variant"]
        try:
            variant = Variant(raw_variant)
        except ValueError:
            raise FikiMikiError(f"option 'variant' is {raw_variant!r}; use one of: I, IIA, IIB") from None
        default = default_makeup()
        kinds = _kinds(values["kinds"] if values["kinds"] is not None else list(default.kinds))
        copies = _copies(values["copies"] if values["copies"] is not None else list(default.copies))
        blanks = values["blanks"] if values["blanks"] is not None else default.blanks
        makeup = DeckMakeup(kinds, copies, blanks)
        deck = None
        if values["deck"] is not None:
            deck = tuple(cards_from_json(values["deck"], kinds))
        hand_size = values["hand_size"]
        ints = {name: values[name] for name in ("threshold", "bell_window_us", "race_window_us", TIE_WINDOW)}
        open_hands = values["open_hands"]
        if open_hands and variant is not Variant.I:
            raise FikiMikiError(
                f"option 'open_hands' is for variant I only (teaching mode); variant {variant.value} needs hidden hands"
            )
        return cls(variant, makeup, deck, hand_size, open_hands=open_hands, rules_version=values[RULES_OPTION], **ints)


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
