"""Schicki Micki cards as small frozen values, and their JSON encoding.

The JSON shape is fixed (scenarios and the journal use it):
hen ``{"umbrella": C, "hat": C, "scarf": C, "beak": C, "tail": C, "worm": C, "worms": 1}``,
close-up ``{"closeup": "hat", "color": C}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import BuzzerBoxError

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "pink", "purple", "orange")
ACCESSORIES: tuple[str, ...] = ("umbrella", "hat", "scarf", "beak", "tail", "worm")


class CardError(BuzzerBoxError, ValueError):
    """A card description that is not a Schicki Micki card; the message names the field."""


def _check_colour(value: Any, field: str, where: str) -> str:
    if value not in COLOURS:
        raise CardError(
            f"{where}: {field!r} is {value!r}; use one of: {', '.join(COLOURS)}"
        )
    return str(value)


@dataclass(frozen=True)
class Hen:
    """A hen with her six accessories. ``worms`` is 2 on a two-worm hen, whose
    worms share one colour (the ``worm`` colour)."""

    umbrella: str
    hat: str
    scarf: str
    beak: str
    tail: str
    worm: str
    worms: int = 1

    def __post_init__(self) -> None:
        for name in ACCESSORIES:
            _check_colour(getattr(self, name), name, "hen")
        if self.worms not in (1, 2):
            raise CardError(f"hen: 'worms' is {self.worms!r}; use 1 or 2")
        seen: dict[str, str] = {}
        for name in ACCESSORIES:
            colour = getattr(self, name)
            if colour in seen:
                raise CardError(
                    f"hen: {seen[colour]!r} and {name!r} are both {colour!r}; on one hen all six "
                    "accessories have different colours, so change one of them"
                )
            seen[colour] = name

    def colour(self, accessory: str) -> str:
        return str(getattr(self, accessory))

    def features(self) -> tuple[tuple[str, str], ...]:
        """(accessory, colour) pairs this card shows, for pair finding."""
        return tuple((name, self.colour(name)) for name in ACCESSORIES)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {name: self.colour(name) for name in ACCESSORIES}
        out["worms"] = self.worms
        return out


@dataclass(frozen=True)
class CloseUp:
    """One accessory, enlarged: counts as that accessory in that colour."""

    accessory: str
    color: str

    def __post_init__(self) -> None:
        if self.accessory not in ACCESSORIES:
            raise CardError(
                f"close-up: 'closeup' is {self.accessory!r}; use one of: {', '.join(ACCESSORIES)}"
            )
        _check_colour(self.color, "color", "close-up")

    @property
    def worms(self) -> int:
        return 0

    def features(self) -> tuple[tuple[str, str], ...]:
        return ((self.accessory, self.color),)

    def to_json(self) -> dict[str, Any]:
        return {"closeup": self.accessory, "color": self.color}


Card = Hen | CloseUp


def card_to_json(card: Card) -> dict[str, Any]:
    return card.to_json()


def card_from_json(data: Any, where: str = "card") -> Card:
    """Parse one card; ``where`` (e.g. ``deck[3]``) prefixes every error so a
    bad scenario line can be found and fixed."""
    if not isinstance(data, Mapping):
        raise CardError(
            f"{where}: expected an object like {{'closeup': 'hat', 'color': 'red'}} or a hen with "
            f"{', '.join(ACCESSORIES)} and worms, got {data!r}"
        )
    try:
        if "closeup" in data:
            extra = set(data) - {"closeup", "color"}
            if extra:
                raise CardError(f"close-up: unknown field(s) {sorted(extra)}; a close-up has only 'closeup' and 'color'")
            if "color" not in data:
                raise CardError(f"close-up: 'color' is missing; use one of: {', '.join(COLOURS)}")
            return CloseUp(accessory=data["closeup"], color=data["color"])
        missing = [name for name in ACCESSORIES if name not in data]
        if missing:
            raise CardError(
                f"hen: missing {', '.join(repr(m) for m in missing)}; a hen needs all of "
                f"{', '.join(ACCESSORIES)} (colours: {', '.join(COLOURS)}) and 'worms' (1 or 2)"
            )
        extra = set(data) - set(ACCESSORIES) - {"worms"}
        if extra:
            raise CardError(
                f"hen: unknown field(s) {sorted(extra)}; allowed: {', '.join(ACCESSORIES)}, worms"
            )
        worms = data.get("worms", 1)
        if isinstance(worms, bool) or not isinstance(worms, int):
            raise CardError(f"hen: 'worms' is {worms!r}; use 1 or 2")
        return Hen(**{name: data[name] for name in ACCESSORIES}, worms=worms)
    except CardError as exc:
        raise CardError(f"{where}: {exc}") from None


def cards_from_json(items: Any, where: str = "deck") -> list[Card]:
    if not isinstance(items, list):
        raise CardError(f"{where}: expected a list of cards (top first), got {type(items).__name__}")
    return [card_from_json(item, f"{where}[{i}]") for i, item in enumerate(items)]
