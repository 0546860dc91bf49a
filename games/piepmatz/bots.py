"""Seeded Piepmatz bots: they see what a player sees (the shared screen and
their own phone: ``public_view()`` and ``private_view(seat)``) and answer
with one of the listed legal moves.

The sensible bot looks one move ahead and values every listed move by what
it does to the score (its own gain against the best opponent's, with the
engine's own scoring): seed cards taken at the differences a play's preview
lists, pests there (a squirrel costs two seed cards' eggs, a crow the bird it
would pick), perched birds won, a card laid, minus what the played card was
worth in hand (a card whose partner it holds or has collected is kept for a
pair). It takes offer cards that complete or prepare pairs, lays what scores
most, lets the crow take the bird it misses least and lays its best two at
the end. The random bot picks uniformly among the legal moves: the baseline.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.base import Action, GameEvent, GameSettings, PlannedAction, PlannedPress
from games.piepmatz.cards import Bird, FeederCard, FeederKind, Sex
from games.piepmatz.engine import (
    ROW_SIZE,
    SQUIRREL_TAKES,
    Majority,
    PiepmatzEngine,
    largest_species_birds,
    score_table,
)
from games.piepmatz.options import PEST_AND_CARD
from games.rules_version import RULES_OPTION

#: a view-reading policy: (public view, private view, rng) -> one legal move's JSON
Bot = Callable[[Mapping[str, Any], Mapping[str, Any], random.Random], Mapping[str, Any]]

#: expected worth of the feeder pile's unknown top card (seed eggs less pest risk)
UNKNOWN_TOP_WORTH = 0.8
#: a hand card whose partner is in the collection (or in hand) is kept for a pair
KEEP_PARTNER_COLLECTED = 3.0
KEEP_PARTNER_IN_HAND = 1.5
KEEP_OTHER = 0.3
#: a bird whose partner can still be had is worth a share of a future pair
OPEN_PAIR_SHARE = 0.25
#: a higher card makes later sums beat the perch more easily
VALUE_WEIGHT = 0.1


def random_bot(public: Mapping[str, Any], private: Mapping[str, Any], rng: random.Random) -> Mapping[str, Any]:
    """The baseline: any legal move, uniformly."""
    moves: Sequence[Mapping[str, Any]] = private["legal_moves"]
    return rng.choice(list(moves))


def _birds(cards: Sequence[Mapping[str, Any]]) -> list[Bird]:
    return [Bird.from_id(c["id"]) for c in cards]


class _Table:
    """The public view parsed once per decision, with scoring helpers for one seat."""

    def __init__(self, public: Mapping[str, Any], private: Mapping[str, Any]) -> None:
        self.me: int = private["player"]
        self.hand = _birds(private["hand"])
        self.collections = [_birds(c) for c in public["collections"]]
        self.seeds = [
            [FeederCard(c["id"], FeederKind(c["kind"]), c["eggs"]) for c in s] for s in public["seeds"]
        ]
        options = public["options"]
        self.pair_points: int = options["pair_points"]
        self.majority = Majority(options["majority"])
        #: the rules played: from rules 2 the seed card beside a pest is taken too
        self.pest_takes_card = options.get(RULES_OPTION, PEST_AND_CARD) >= PEST_AND_CARD
        self.row: list[Mapping[str, Any] | None] = list(public["row"])
        self.pests: list[Mapping[str, Any] | None] = list(public["pests"])
        gone = {b for c in self.collections for b in c} | set(_birds(public["bird_discard"]))
        self.gone = gone
        self.base = self._standing(self.collections[self.me], self.seeds[self.me])

    def _standing(self, collection: Sequence[Bird], seeds: Sequence[FeederCard]) -> float:
        """My total against the best opponent's, plus the promise of open pairs."""
        collections = list(self.collections)
        collections[self.me] = list(collection)
        all_seeds = list(self.seeds)
        all_seeds[self.me] = list(seeds)
        totals = [s.total for s in score_table(collections, all_seeds, self.pair_points, self.majority)]
        best_other = max(t for p, t in enumerate(totals) if p != self.me)
        return totals[self.me] - best_other + self._open_pairs(collection)

    def _open_pairs(self, collection: Sequence[Bird]) -> float:
        mine = set(collection)
        return sum(
            OPEN_PAIR_SHARE * self.pair_points
            for b in collection
            if self._partner(b) not in mine and self._partner(b) not in self.gone
        )

    @staticmethod
    def _partner(bird: Bird) -> Bird:
        return Bird(bird.species, Sex.FEMALE if bird.sex is Sex.MALE else Sex.MALE, bird.value)

    def gain(self, add: Sequence[Bird] = (), remove: Sequence[Bird] = (), eggs: float = 0.0) -> float:
        """Change of my standing if these birds join / leave my collection."""
        collection = [b for b in self.collections[self.me] if b not in remove] + list(add)
        return self._standing(collection, self.seeds[self.me]) - self.base + eggs

    def keep_worth(self, bird: Bird, hand: Sequence[Bird]) -> float:
        partner = self._partner(bird)
        if partner in self.collections[self.me]:
            return KEEP_PARTNER_COLLECTED
        if partner in hand:
            return KEEP_PARTNER_IN_HAND
        return KEEP_OTHER + VALUE_WEIGHT * bird.value

    def crow_loss(self, collection: Sequence[Bird]) -> float:
        """What a crow costs (>= 0): the bird I would miss least, at its score worth."""
        candidates = largest_species_birds(collection)
        if not candidates:
            return 0.0
        return max(0.0, -max(self.gain(remove=[b]) for b in candidates))

    def squirrel_loss(self, seeds_now: float, count: int) -> float:
        if count == 0:
            return 0.0
        return min(SQUIRREL_TAKES, count) * seeds_now / count


def sensible_bot(public: Mapping[str, Any], private: Mapping[str, Any], rng: random.Random) -> Mapping[str, Any]:
    """The best-valued legal move (ties broken by the seeded rng)."""
    moves: list[Mapping[str, Any]] = list(private["legal_moves"])
    table = _Table(public, private)
    scored = [(_value(table, move), rng.random(), i) for i, move in enumerate(moves)]
    return moves[max(scored)[2]]


def _value(table: _Table, move: Mapping[str, Any]) -> float:
    kind = move["kind"]
    args = move["args"]
    if kind == "play":
        return _play_value(table, Bird.from_id(args["card"]), move["preview"])
    if kind == "lay":
        return table.gain(add=[Bird.from_id(args["card"])])
    if kind == "crow":
        return table.gain(remove=[Bird.from_id(args["card"])])
    if kind == "take":
        bird = Bird.from_id(args["card"])
        return table.keep_worth(bird, table.hand)
    if kind == "final":
        return table.gain(add=[Bird.from_id(c) for c in args["cards"]])
    return 0.0


def _play_value(table: _Table, bird: Bird, preview: Mapping[str, Any]) -> float:
    hand = [b for b in table.hand if b != bird]
    value = -table.keep_worth(bird, hand)
    diffs: list[int] = preview["diffs"]
    if not diffs:
        # not greater: the best card I may lay, no higher than the one played
        lays = [table.gain(add=[b]) for b in hand if b.value <= bird.value]
        return value + (max(lays) if lays else 0.0)
    row = list(table.row)
    pests = list(table.pests)
    eggs = 0.0
    collection = list(table.collections[table.me])
    seeds_now = float(sum(c.eggs for c in table.seeds[table.me]))
    seed_count = len(table.seeds[table.me])
    for diff, taken in zip(diffs, preview["birds"], strict=True):
        if diff > ROW_SIZE:
            eggs += UNKNOWN_TOP_WORTH
            collection.append(Bird.from_id(taken))
            continue
        pest, pests[diff - 1] = pests[diff - 1], None
        card = row[diff - 1]
        if card is not None and (pest is None or table.pest_takes_card):
            row[diff - 1] = None
            eggs += card["eggs"]
            seeds_now += card["eggs"]
            seed_count += 1
        if pest is not None and pest["kind"] == FeederKind.SQUIRREL.value:
            loss = table.squirrel_loss(seeds_now, seed_count)
            eggs -= loss
            seeds_now -= loss
            seed_count -= min(SQUIRREL_TAKES, seed_count)
        elif pest is not None:
            eggs -= table.crow_loss(collection)
        collection.append(Bird.from_id(taken))
    added = collection[len(table.collections[table.me]) :]
    return value + table.gain(add=added, eggs=eggs)


def play_game(settings: GameSettings, bots: Sequence[Bot]) -> PiepmatzEngine:
    """A whole game, seat p played by ``bots[p]``; each bot has its own seeded rng."""
    engine = PiepmatzEngine(settings)
    rngs = [random.Random(settings.seed * 101 + seat) for seat in range(settings.players)]
    t_us = 0
    while not engine.finished:
        seat = engine.to_act()[0]
        move = bots[seat](engine.public_view(), engine.private_view(seat), rngs[seat])
        t_us += 1
        engine.handle(Action(move["kind"], t_us, seat, move["args"]))
    return engine


# ---------------------------------------------------------------------- on the box

#: median time a player takes to choose on the phone, and the log-normal spread
THINK_US = 2_500_000
THINK_SIGMA = 0.35


class PiepmatzPhoneBot:
    """A seat on the box: reads the shared screen and its own phone, and sends
    the chosen legal move from the phone after a human pause (``PhoneBot``)."""

    def __init__(self, seed: int, seat: int, policy: Bot = sensible_bot) -> None:
        self.seat = seat
        self.policy = policy
        self.rng = random.Random(f"piepmatz-phone-{seed}-{seat}")
        self._planned: tuple[Any, ...] | None = None

    def observe_seat(
        self, view: Mapping[str, Any], private: Mapping[str, Any], events: list[GameEvent], now_us: int
    ) -> list[PlannedPress | PlannedAction]:
        if any(e.kind == "rejected" and e.player == self.seat for e in events):
            self._planned = None  # the table changed under the plan: choose again
        moves = private.get("legal_moves") or []
        # one plan per decision: the same table and hand is the same decision
        key = (view["turns"], view["phase"], tuple(c["id"] for c in private["hand"]),
               tuple(len(c) for c in view["collections"]), repr(moves))
        if not moves or key == self._planned:
            return []
        self._planned = key
        move = self.policy(view, private, self.rng)
        think = self.rng.lognormvariate(math.log(THINK_US), THINK_SIGMA)
        return [PlannedAction(move["kind"], now_us + int(min(max(think, 600_000), 12_000_000)), move["args"])]


def new_bots(settings: GameSettings) -> list[PiepmatzPhoneBot]:
    return [PiepmatzPhoneBot(settings.seed, seat) for seat in range(settings.players)]
