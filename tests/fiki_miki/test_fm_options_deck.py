"""The deck make-up, the seeded deal, and one-line errors for every bad option."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from games.base import BuzzerBoxError, GameSettings
from games.fiki_miki.cards import default_makeup
from games.fiki_miki.engine import FikiMikiEngine
from games.fiki_miki.options import FikiMikiOptions, Variant


def new(players: int = 3, seed: int = 0, **options: Any) -> FikiMikiEngine:
    return FikiMikiEngine(GameSettings(players=players, seed=seed, options=options))


def every_card(e: FikiMikiEngine) -> list[Any]:
    s = e.state
    return [*s.pile, *(c for h in s.hands for c in h)]


def test_the_default_deck_is_the_documented_make_up() -> None:
    makeup = default_makeup()
    assert makeup.kinds == ("mushroom", "apple", "leaf", "star")
    cards = every_card(new(variant="IIA"))
    assert len(cards) == 64 and len({c.id for c in cards}) == 64
    assert sum(c.blank for c in cards) == 8
    for kind in makeup.kinds:
        pictures = Counter(c.pictures for c in cards if c.kind == kind)
        assert pictures == {1: 5, 2: 3, 3: 3, 4: 2, 5: 1}
    first = every_card(new(variant="I"))
    assert len(first) == 56 and not any(c.blank for c in first)  # variant I plays without blanks


def test_the_make_up_is_configurable() -> None:
    cards = every_card(new(players=2, kinds=["sun", "moon"], copies=[2, 0, 1], blanks=1, variant="IIB", hand_size=2))
    assert Counter((c.kind, c.pictures) for c in cards) == {("sun", 1): 2, ("sun", 3): 1, ("moon", 1): 2, ("moon", 3): 1, (None, 0): 1}


def test_the_deal_is_seeded() -> None:
    def hands(seed: int) -> list[list[int]]:
        return [[c["id"] for c in new(seed=seed).private_view(p)["hand"]] for p in range(3)]

    assert hands(5) == hands(5)
    assert hands(5) != hands(6)
    assert all(len(h) == 5 for h in hands(5))
    assert all(len(new(players=4, variant="IIA").private_view(p)["hand"]) == 8 for p in range(4))


@pytest.mark.parametrize(
    ("players", "options", "names"),
    [
        (3, {"variant": "III"}, "'variant'"),
        (3, {"threshold": 0}, "'threshold'"),
        (3, {"bell_window_us": -1}, "'bell_window_us'"),
        (3, {"race_window_us": True}, "'race_window_us'"),
        (3, {"copies": []}, "'copies'"),
        (3, {"copies": [0, 0]}, "'copies'"),
        (3, {"kinds": ["apple", "apple"]}, "'kinds'"),
        (3, {"blanks": 99}, "'blanks'"),
        (3, {"hand_size": 0}, "'hand_size'"),
        (3, {"open_hands": "yes"}, "'open_hands'"),
        (3, {"open_hands": True, "variant": "IIA"}, "'open_hands'"),
        (3, {"colour": "red"}, "unknown option"),
        (3, {"deck": [{"kind": "pear", "pictures": 1}] * 20}, "'kind'"),
        (3, {"deck": [{"kind": "apple", "pictures": 12}] * 20}, "'pictures'"),
        (3, {"deck": [{"kind": None, "pictures": 2}] * 20}, "blank"),
        (3, {"deck": [{"kind": None, "pictures": 0}] * 20}, "without blank"),
        (3, {"deck": "apple"}, "'deck'"),
        (2, {"hand_size": 20, "copies": [1]}, "too few"),
        (7, {}, "2-6 players"),
        (5, {"variant": "IIB"}, "2-4 players"),
    ],
)
def test_a_bad_option_is_one_line_naming_it(players: int, options: dict[str, Any], names: str) -> None:
    with pytest.raises(BuzzerBoxError) as error:
        new(players=players, **options)
    message = str(error.value)
    assert names in message and "\n" not in message
    assert isinstance(error.value, ValueError)


def test_options_have_their_documented_defaults() -> None:
    options = FikiMikiOptions.from_mapping({})
    assert options.variant is Variant.I and options.threshold == 10 and options.open_hands is False
    assert options.cards_per_hand == 5
    assert FikiMikiOptions.from_mapping({"variant": "IIB"}).cards_per_hand == 8
