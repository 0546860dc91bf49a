"""The 64-card deck, built and shuffled deterministically from a seed.

What the deck holds (and the Decisions behind it):

- 46 one-worm hens, 6 two-worm hens, 12 close-ups (2 per accessory).
- "On one hen all six accessories have different colours": each hen uses six
  of the seven colours, one per accessory, so a hen can never pair with itself
  and any two hens share an accessory colour with a fair chance (1 in 7 per
  accessory). ``Hen`` enforces this for every card, scenario cards included.
- Exactly 3 identical pairs, all among the one-worm hens (40 distinct faces +
  3 faces twice). Two-worm hens are all different and differ from every
  one-worm hen (their worm count differs). The two close-ups of one accessory
  have different colours, so close-ups are never identical.
- Tuning: a plain shuffle almost never puts both copies of a twin on the table
  together (the table is cleared every few cards), so the second copy of each
  twin is moved right behind the first (a gap of up to 3 was tried: about one
  identical situation per game and 29 of 100 bot games without any; right
  behind gives about two and 8 of 100 without). Pairs and two-worm hens need
  no help: with 1-in-7 colour matches a pair appears within two or three cards.

Only ``random.Random(seed)`` is used, never the global generator.
"""

from __future__ import annotations

import random

from games.schicki_micki.cards import ACCESSORIES, COLOURS, Card, CloseUp, Hen

DECK_SIZE = 64
ONE_WORM_HENS = 46
TWO_WORM_HENS = 6
CLOSEUPS_PER_ACCESSORY = 2
IDENTICAL_PAIRS = 3
#: the second copy of a twin lands this many places (at most) after the first
TWIN_MAX_GAP = 1


def _random_hen(rng: random.Random, worms: int) -> Hen:
    colours = rng.sample(COLOURS, len(ACCESSORIES))
    return Hen(*colours, worms=worms)  # type: ignore[misc, arg-type]  # one colour per accessory, in field order


def deck_cards(seed: int) -> list[Card]:
    """The 64 faces of this seed's deck, unshuffled (twins adjacent)."""
    rng = random.Random(f"schicki-micki-faces-{seed}")
    faces: set[Hen] = set()
    one_worm: list[Hen] = []
    while len(one_worm) < ONE_WORM_HENS - IDENTICAL_PAIRS:
        hen = _random_hen(rng, 1)
        if hen not in faces:
            faces.add(hen)
            one_worm.append(hen)
    twins = one_worm[:IDENTICAL_PAIRS]
    two_worm: list[Hen] = []
    while len(two_worm) < TWO_WORM_HENS:
        hen = _random_hen(rng, 2)
        if hen not in two_worm:
            two_worm.append(hen)
    closeups: list[CloseUp] = []
    for accessory in ACCESSORIES:
        for colour in rng.sample(COLOURS, CLOSEUPS_PER_ACCESSORY):
            closeups.append(CloseUp(accessory, colour))
    cards: list[Card] = [*one_worm, *twins, *two_worm, *closeups]
    assert len(cards) == DECK_SIZE
    return cards


def new_deck(seed: int) -> list[Card]:
    """The shuffled deck of this seed, top card first."""
    cards = deck_cards(seed)
    rng = random.Random(f"schicki-micki-shuffle-{seed}")
    rng.shuffle(cards)
    # Bring each twin's second copy close behind the first (see module doc).
    seen: set[Card] = set()
    twins = {card for card in cards if cards.count(card) == 2}
    i = 0
    while i < len(cards):
        card = cards[i]
        if card in twins and card not in seen:
            seen.add(card)
            j = cards.index(card, i + 1)
            cards.pop(j)
            target = min(i + rng.randint(1, TWIN_MAX_GAP), len(cards))
            cards.insert(target, card)
        i += 1
    return cards
