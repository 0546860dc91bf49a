"""Card encoding and the seeded deck."""

from __future__ import annotations

from collections import Counter

import pytest

from games.schicki_micki.cards import (
    ACCESSORIES,
    COLOURS,
    CardError,
    CloseUp,
    Hen,
    card_from_json,
)
from games.schicki_micki.deck import new_deck

HEN = {"umbrella": "red", "hat": "blue", "scarf": "yellow", "beak": "green", "tail": "pink", "worm": "purple", "worms": 1}


def test_json_round_trip_uses_the_fixed_shape() -> None:
    hen = card_from_json(HEN)
    assert hen == Hen("red", "blue", "yellow", "green", "pink", "purple")
    assert hen.to_json() == HEN
    closeup = card_from_json({"closeup": "hat", "color": "orange"})
    assert closeup == CloseUp("hat", "orange")
    assert closeup.to_json() == {"closeup": "hat", "color": "orange"}


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({**HEN, "hat": "violet"}, ["deck[2]", "'hat'", "'violet'", "red, blue, yellow"]),
        ({**HEN, "worms": 3}, ["deck[2]", "'worms'", "1 or 2"]),
        ({k: v for k, v in HEN.items() if k != "beak"}, ["deck[2]", "missing 'beak'"]),
        ({**HEN, "tail": "red"}, ["deck[2]", "'umbrella' and 'tail' are both 'red'", "different colours"]),
        ({"closeup": "hats", "color": "red"}, ["deck[2]", "'closeup'", "umbrella, hat, scarf"]),
        ({"closeup": "hat", "colour": "red"}, ["deck[2]", "'colour'"]),
        ("red hen", ["deck[2]", "expected an object"]),
    ],
)
def test_bad_cards_name_the_field_and_the_fix(data: object, words: list[str]) -> None:
    with pytest.raises(CardError) as info:
        card_from_json(data, "deck[2]")
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize("seed", range(40))
def test_deck_composition(seed: int) -> None:
    deck = new_deck(seed)
    assert len(deck) == 64
    hens = [c for c in deck if isinstance(c, Hen)]
    assert sum(h.worms == 1 for h in hens) == 46
    assert sum(h.worms == 2 for h in hens) == 6
    closeups = Counter(c.accessory for c in deck if isinstance(c, CloseUp))
    assert closeups == dict.fromkeys(ACCESSORIES, 2)
    counts = Counter(deck)
    twins = [card for card, n in counts.items() if n == 2]
    assert len(twins) == 29 and max(counts.values()) == 2  # every one-worm hen and close-up twice
    assert all(counts[h] == 1 for h in hens if h.worms == 2)
    for hen in hens:  # six different colours on one hen
        assert len({hen.colour(a) for a in ACCESSORIES}) == 6
        assert {hen.colour(a) for a in ACCESSORIES} <= set(COLOURS)


def test_the_shuffle_is_fair_twins_land_anywhere() -> None:
    """Where one copy of a twin lies says nothing about the other: over many
    seeds the copies are as far apart as two random places in 64 (mean 21.7)
    and next to each other about 2 times in 64."""
    gaps = []
    for seed in range(60):
        deck = new_deck(seed)
        for card, n in Counter(deck).items():
            if n == 2:
                first = deck.index(card)
                gaps.append(deck.index(card, first + 1) - first)
    mean = sum(gaps) / len(gaps)
    adjacent = sum(g == 1 for g in gaps) / len(gaps)
    assert 19 < mean < 24.5, mean
    assert adjacent < 0.07, adjacent


def test_deck_is_deterministic_per_seed_and_differs_between_seeds() -> None:
    assert new_deck(5) == new_deck(5)
    assert new_deck(5) != new_deck(6)
