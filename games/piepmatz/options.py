"""Piepmatz's options, declared once: type, default, range and menu choices.
The spec and the start menu read this table; the engine checks its settings
against it (``games.base.checked_options``) and only turns the values into its
own types (``engine.PiepmatzOptions``).
"""

from __future__ import annotations

from enum import Enum

from games.base import Option
from games.i18n import N_
from games.piepmatz.cards import DEFAULT_CROWS, DEFAULT_SEED_CARDS, DEFAULT_SQUIRRELS, SPECIES
from games.rules_version import RULES_OPTION, rules_option

#: the rules version new games play (journals keep it; ``games.rules_version``):
#: 1 let a pest at the won position strike instead of the seed card; 2 gives
#: the seed card and the pest strikes too (the final lay, hidden until everyone
#: has chosen, changes what the screen shows, not an outcome)
RULES_VERSION = 2
#: the first rules version in which the player takes the seed card beside a pest
PEST_AND_CARD = 2

#: the most seed cards of one kind (1, 2 or 3 eggs)
SEED_CARDS_MAX = 20


class Majority(str, Enum):
    UNPAIRED = "unpaired"  # the leader scores 1 per bird of the species not in a pair
    ALL = "all"  # the leader scores 1 per bird of the species


def _counts(default: int, label: str, *choices: int) -> Option:
    return Option(default, int, low=0, high=12, label=label,
                  choices=tuple((c, str(c)) for c in sorted({default, *choices})))


OPTIONS: dict[str, Option] = {
    # None: 2 perches for 2-3 players, 3 for 4 (``engine.default_perches``)
    "perches": Option(None, int, low=2, high=3, label=N_("Perches"),
                      choices=((None, N_("by players")), (2, "2"), (3, "3"))),
    "crows": _counts(DEFAULT_CROWS, N_("Crows"), 0, 3, 9),
    "squirrels": _counts(DEFAULT_SQUIRRELS, N_("Squirrels"), 0, 3, 9),
    "pair_points": Option(5, int, low=0, high=20, label=N_("Points per pair"), choices=((3, "3"), (5, "5"), (7, "7"))),
    "majority": Option(Majority.UNPAIRED.value, str, label=N_("Majority counts"),
                       choices=((Majority.UNPAIRED.value, N_("birds not in a pair")),
                                (Majority.ALL.value, N_("every bird")))),
    # the species left out with 2 players (None: play with all six)
    "removed_species": Option(SPECIES[-1], str, nullable=True, label=N_("Left out with 2 players"),
                              choices=((SPECIES[-1], SPECIES[-1]), (None, N_("none")))),
    # seed cards with 1, 2 and 3 eggs
    "seed_cards": Option(list(DEFAULT_SEED_CARDS), list, high=SEED_CARDS_MAX),
    # scenario and test seams: these card ids lie on top of their deck, in order
    # (bird deal order: perches, offer, then 4 cards per player in seat order)
    "bird_deck_top": Option(None, list),
    "feeder_deck_top": Option(None, list),
    # the rules version to play (an old journal replays under its own)
    RULES_OPTION: rules_option(RULES_VERSION),
}
