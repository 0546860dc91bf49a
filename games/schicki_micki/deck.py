"""The 64-card deck, built and shuffled deterministically from a seed.

What the deck holds (and the Decisions behind it):

- 46 one-worm hens, 6 two-worm hens, 12 close-ups (2 per accessory).
- "On one hen all six accessories have different colours": each hen uses six
  of the seven colours, one per accessory, so a hen can never pair with itself
  and any two hens share an accessory colour with a fair chance (1 in 7 per
  accessory). ``Hen`` enforces this for every card, scenario cards included.
- Identical cards (the deck's make-up is ours; the shuffle is the rulebook's
  fair one): every one-worm hen has an identical twin (23 faces, each twice)
  and so has every close-up (the two close-ups of an accessory share a
  colour): 29 identical pairs. Two-worm hens are all different and differ from
  every one-worm hen (their worm count differs).
- Why so many: the table is cleared every few cards, so a fair shuffle rarely
  puts both copies of a twin on it together. Measured with
  ``benchmarks/schicki_micki_situations.py`` (5 bots, fair shuffle, 40 games):
  3 twin pairs gave 0.05 identical situations per game (38 of 40 games
  without), 20 gave 0.7 (20 of 40 without), this deck 1.3 (16 of 40 without).
  Pairs and two-worm hens need no help: with 1-in-7 colour matches a pair
  appears within two or three cards.

Only ``random.Random(seed)`` is used, never the global generator.
"""

from __future__ import annotations

import random

from games.schicki_micki.cards import ACCESSORIES, COLOURS, Card, CloseUp, Hen

DECK_SIZE = 64
ONE_WORM_HENS = 46
TWO_WORM_HENS = 6
CLOSEUPS_PER_ACCESSORY = 2
#: one-worm hen faces printed twice (all of them: 46 = 23 x 2)
IDENTICAL_PAIRS = ONE_WORM_HENS // 2


def _random_hen(rng: random.Random, worms: int) -> Hen:
    colours = rng.sample(COLOURS, len(ACCESSORIES))
    return Hen(*colours, worms=worms)  # type: ignore[misc, arg-type]  # one colour per accessory, in field order


def deck_cards(seed: int) -> list[Card]:
    """The 64 faces of this seed's deck, unshuffled (twins adjacent)."""
    rng = random.Random(f"schicki-micki-faces-{seed}")
    faces: list[Hen] = []
    while len(faces) < ONE_WORM_HENS - IDENTICAL_PAIRS:
        hen = _random_hen(rng, 1)
        if hen not in faces:
            faces.append(hen)
    one_worm = [*faces, *faces[:IDENTICAL_PAIRS]]
    two_worm: list[Hen] = []
    while len(two_worm) < TWO_WORM_HENS:
        hen = _random_hen(rng, 2)
        if hen not in two_worm:
            two_worm.append(hen)
    # the close-ups of one accessory are twins: one colour, printed twice
    closeups = [CloseUp(accessory, rng.choice(COLOURS)) for accessory in ACCESSORIES]
    closeups = [card for card in closeups for _ in range(CLOSEUPS_PER_ACCESSORY)]
    cards: list[Card] = [*one_worm, *two_worm, *closeups]
    assert len(cards) == DECK_SIZE
    return cards


def new_deck(seed: int) -> list[Card]:
    """The shuffled deck of this seed, top card first: a fair shuffle (the
    rulebook: "shuffle thoroughly"), so where twins lie tells nobody anything."""
    cards = deck_cards(seed)
    random.Random(f"schicki-micki-shuffle-{seed}").shuffle(cards)
    return cards
