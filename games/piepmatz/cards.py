"""Piepmatz cards as data: birds and feeder cards, their ids and the decks.

Every card has a stable string id, because that is what a phone sends and a
journal stores: a bird is ``"<species>-<m|f><value>"`` (``"sparrow-f3"``), a
feeder card ``"egg<eggs>-<nn>"``, ``"crow-<nn>"`` or ``"squirrel-<nn>"``.
Each (species, sex, value) exists exactly once, so a pair is unique too.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from games.base import BuzzerBoxError

#: the six species, in the order of the box; with 2 players the last one is removed
SPECIES: tuple[str, ...] = (
    "blackbird",
    "chaffinch",
    "yellowhammer",
    "greenfinch",
    "sparrow",
    "bullfinch",
)
VALUES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
#: seed cards by eggs shown: 10 with one egg, 8 with two, 6 with three (our decision)
DEFAULT_SEED_CARDS: tuple[int, int, int] = (10, 8, 6)
DEFAULT_CROWS = 6
DEFAULT_SQUIRRELS = 6


class CardError(BuzzerBoxError, ValueError):
    """A card id that names no Piepmatz card; the message says what a valid one looks like."""


class Sex(str, Enum):
    MALE = "m"
    FEMALE = "f"


#: each species' colour, the same on the big screen and on the phones (RGB)
SPECIES_COLORS: dict[str, tuple[int, int, int]] = {
    "blackbird": (70, 70, 80),
    "chaffinch": (214, 120, 90),
    "yellowhammer": (240, 200, 40),
    "greenfinch": (90, 160, 70),
    "sparrow": (150, 110, 70),
    "bullfinch": (200, 50, 60),
}

#: how a card shows its bird's sex, on the big screen and the phones alike (no word to translate)
SEX_SIGNS = {Sex.MALE.value: "♂", Sex.FEMALE.value: "♀"}


class FeederKind(str, Enum):
    SEED = "seed"
    CROW = "crow"
    SQUIRREL = "squirrel"


@dataclass(frozen=True, order=True)
class Bird:
    species: str
    sex: Sex
    value: int

    @property
    def id(self) -> str:
        return f"{self.species}-{self.sex.value}{self.value}"

    @property
    def pair_key(self) -> tuple[str, int]:
        """Male and female with the same key make a pair."""
        return (self.species, self.value)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "species": self.species, "sex": self.sex.value, "value": self.value}

    @classmethod
    def from_id(cls, card_id: object) -> Bird:
        """Parse ``"sparrow-f3"``; raise CardError naming the bad id."""
        text = str(card_id)
        species, _, rest = text.rpartition("-")
        if (
            species not in SPECIES
            or len(rest) != 2
            or rest[0] not in ("m", "f")
            or not rest[1].isdigit()
            or int(rest[1]) not in VALUES
        ):
            raise CardError(
                f"{card_id!r} is no bird card; a bird is SPECIES-m|fVALUE, e.g. 'sparrow-f3' "
                f"(species: {', '.join(SPECIES)}; values 1-6)"
            )
        return cls(species, Sex(rest[0]), int(rest[1]))


@dataclass(frozen=True, order=True)
class FeederCard:
    """A seed card (``eggs`` 1-3) or a pest (crow, squirrel: ``eggs`` 0)."""

    id: str
    kind: FeederKind
    eggs: int = 0

    @property
    def is_pest(self) -> bool:
        return self.kind is not FeederKind.SEED

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind.value, "eggs": self.eggs}


def bird_deck(species: tuple[str, ...] = SPECIES) -> list[Bird]:
    """Every bird of the given species, in a fixed order (shuffle it yourself)."""
    return [Bird(s, sex, v) for s in species for sex in Sex for v in VALUES]


def feeder_deck(
    seed_cards: tuple[int, ...] = DEFAULT_SEED_CARDS,
    crows: int = DEFAULT_CROWS,
    squirrels: int = DEFAULT_SQUIRRELS,
) -> list[FeederCard]:
    """The feeder deck in a fixed order: ``seed_cards[i]`` cards with i+1 eggs, then the pests."""
    cards = [
        FeederCard(f"egg{eggs}-{n:02d}", FeederKind.SEED, eggs)
        for eggs, count in enumerate(seed_cards, start=1)
        for n in range(1, count + 1)
    ]
    cards += [FeederCard(f"crow-{n:02d}", FeederKind.CROW) for n in range(1, crows + 1)]
    cards += [FeederCard(f"squirrel-{n:02d}", FeederKind.SQUIRREL) for n in range(1, squirrels + 1)]
    return cards
