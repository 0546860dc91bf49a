"""Seeded Fiki Miki players for simulations, benchmarks and soak tests.

A bot sees what a player sees: the shared screen (``public_view``), its own
phone (``private_view``: hand and legal moves) and the events. It plans moves
at human-like times (log-normal around a median):

- Variant I: it counts the stack a card lands on, sometimes wrongly; at or
  above the threshold it rings (faster after its own card: it knew first);
  just below it sometimes rings by mistake. On its turn it plays a card that
  reaches the threshold if it has one, else the card leaving its stack lowest.
- Variant II: it leads its card with the most pictures (the led card comes
  back) and follows with the fewest pictures it may give; discards its
  poorest card. In IIB it rings when it lacks the led kind, after a look at
  its hand, and now and then rings by mistake although it holds the kind.

``play_bot_game`` is a small stand-in for the box runtime: it hands the
planned moves to the engine in stamp order and ticks deadlines.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import GameEvent, GameSettings, PlannedAction, PlannedPress, RuleError
from games.fiki_miki.engine import DISCARD, PLAY, RING, FikiMikiEngine, Move
from games.fiki_miki.options import Variant

SIGMA = 0.3  # spread of the log-normal times
THINK_US = 1_200_000  # median time to choose a card
SPOT_US = 650_000  # median time to see a stack reach the threshold
OWN_SPOT_US = 450_000  # ... after playing the card oneself
NOTICE = 0.9  # chance to notice a stack at the threshold at all
NEAR_MISS = 0.08  # chance to ring by mistake when a stack is 1-2 short
FALSE_ALARM = 0.005  # chance to ring by mistake otherwise
BANNED_FORGETS = 0.03  # chance a banned player rings anyway
LACK_US = 900_000  # IIB: median time to see the led kind is missing from the hand
LACK_NOTICE = 0.85
MISREAD = 0.04  # IIB: chance to ring although holding the led kind


@dataclass(frozen=True)
class PlannedMove:
    t_us: int
    move: Move


class FikiMikiBot:
    """One seeded player."""

    def __init__(self, seed: int, player: int, variant: Variant) -> None:
        self.player = player
        self.variant = variant
        self.rng = random.Random(f"fiki-miki-bot-{seed}-{player}")
        self.skill = self.rng.uniform(0.85, 1.2)  # some players are quicker
        self.planned_key: tuple[Any, ...] | None = None

    def _after(self, now_us: int, median_us: int) -> int:
        t = self.rng.lognormvariate(math.log(median_us * self.skill), SIGMA)
        return now_us + int(max(t, 150_000))

    def forget(self) -> None:
        """The planned card could not be played (the table changed): plan anew."""
        self.planned_key = None

    def observe(
        self, public: Mapping[str, Any], private: Mapping[str, Any], events: Sequence[GameEvent], now_us: int
    ) -> list[PlannedMove]:
        plans: list[PlannedMove] = []
        for event in events:
            if event.kind == "played" and self.variant is Variant.I:
                plans += self._ring_after_play(public, event)
            elif event.kind == "led" and self.variant is Variant.IIB and event.player != self.player:
                plans += self._ring_after_lead(private, event)
        moves = [Move(m["kind"], m["args"].get("card")) for m in private.get("moves", [])]
        cards = [m for m in moves if m.kind != RING]
        key = (public["moves"], public["phase"], public["turn"], len(private.get("hand", [])))
        if cards and key != self.planned_key:
            self.planned_key = key
            plans.append(PlannedMove(self._after(now_us, THINK_US), self._choose(public, private, cards)))
        return plans

    def _ring_after_play(self, public: Mapping[str, Any], event: GameEvent) -> list[PlannedMove]:
        if self.player in public["banned"] and self.rng.random() > BANNED_FORGETS:
            return []
        threshold = int(public["threshold"])
        total = int(event.data["stack_pictures"])
        own = event.player == self.player
        if total >= threshold:
            if self.rng.random() > (0.97 if own else NOTICE):
                return []
            return [PlannedMove(self._after(event.t_us, OWN_SPOT_US if own else SPOT_US), Move(RING))]
        chance = NEAR_MISS if total >= threshold - 2 else FALSE_ALARM
        if self.rng.random() < chance:
            return [PlannedMove(self._after(event.t_us, SPOT_US), Move(RING))]
        return []

    def _ring_after_lead(self, private: Mapping[str, Any], event: GameEvent) -> list[PlannedMove]:
        kind = event.data["card"]["kind"]
        holds = any(card["kind"] == kind for card in private["hand"])
        if (not holds and self.rng.random() < LACK_NOTICE) or (holds and self.rng.random() < MISREAD):
            return [PlannedMove(self._after(event.t_us, LACK_US), Move(RING))]
        return []

    def _choose(self, public: Mapping[str, Any], private: Mapping[str, Any], moves: list[Move]) -> Move:
        hand = {card["id"]: card for card in private["hand"]}
        if self.variant is Variant.I:
            totals = {stack["kind"]: stack["pictures"] for stack in public["stacks"]}
            threshold = int(public["threshold"])

            def after(move: Move) -> int:
                card = hand[move.card]
                return int(totals[card["kind"]]) + int(card["pictures"])

            reaching = [m for m in moves if after(m) >= threshold]
            if reaching:
                return self.rng.choice(reaching)
            return min(moves, key=lambda m: (after(m), self.rng.random()))
        if public["phase"] == "lead":
            return max(moves, key=lambda m: (hand[m.card]["pictures"], self.rng.random()))
        # following or discarding: give away (or lose) as few pictures as possible
        return min(moves, key=lambda m: (hand[m.card]["pictures"], self.rng.random()))


def new_bots(settings: GameSettings) -> list[FikiMikiBot]:
    variant = Variant(settings.options.get("variant", "I"))
    return [FikiMikiBot(settings.seed, p, variant) for p in range(settings.players)]


@dataclass
class BotGame:
    """A finished bot game and what the stand-in runtime saw."""

    engine: FikiMikiEngine
    end_us: int
    rejected: int  # moves the engine refused (e.g. a banned player's ring)


def play_bot_game(settings: GameSettings, precision_us: int = 1, max_steps: int = 20_000) -> BotGame:
    """Play one game with a bot in every seat; moves reach the engine in stamp
    order, stamped with ``precision_us`` (1: a board or kernel edge stamp)."""
    engine = FikiMikiEngine(settings)
    bots = new_bots(settings)
    queue: list[tuple[int, int, int, Move]] = []
    seq = 0
    now = 0
    rejected = 0

    def observe(events: list[GameEvent]) -> None:
        nonlocal seq
        public = engine.public_view()
        for bot in bots:
            for plan in bot.observe(public, engine.private_view(bot.player), events, now):
                heapq.heappush(queue, (plan.t_us, seq, bot.player, plan.move))
                seq += 1

    observe([])
    for _ in range(max_steps):
        if engine.finished:
            return BotGame(engine, now, rejected)
        deadline = engine.next_deadline_us()
        if deadline is not None and (not queue or deadline <= queue[0][0]):
            now = max(now, deadline)
            observe(engine.tick(deadline))
            continue
        if not queue:
            raise RuntimeError(f"bot game stalled (seed {settings.seed}): nothing planned and nothing due")
        t_us, _, player, move = heapq.heappop(queue)
        now = max(now, t_us)
        if move.kind in (PLAY, DISCARD) and move not in engine.legal_moves(player):
            bots[player].forget()
            observe([])
            continue
        try:
            events = engine.handle(move.action(player, t_us, precision_us))
        except RuleError:
            rejected += 1
            events = []
        observe(events)
    raise RuntimeError(f"bot game did not end within {max_steps} steps (seed {settings.seed})")


class FikiMikiPhoneBot:
    """A seat on the box (``PhoneBot``): the same player, its bell a station
    press (timed and ranked like anyone's), its cards sent from its phone."""

    def __init__(self, seed: int, seat: int, variant: Variant) -> None:
        self.seat = seat
        self.bot = FikiMikiBot(seed, seat, variant)

    def observe_seat(
        self, view: Mapping[str, Any], private: Mapping[str, Any], events: list[GameEvent], now_us: int
    ) -> list[PlannedPress | PlannedAction]:
        if view["phase"] == "over":
            return []
        if any(e.kind == "rejected" and e.player == self.seat and e.data.get("kind") != RING for e in events):
            self.bot.forget()  # the table changed under the chosen card: choose again
        plans: list[PlannedPress | PlannedAction] = []
        for plan in self.bot.observe(view, private, events, now_us):
            if plan.move.kind == RING:
                plans.append(PlannedPress("bell", plan.t_us))
            else:
                plans.append(PlannedAction(plan.move.kind, plan.t_us, plan.move.args()))
        return plans


def new_phone_bots(settings: GameSettings) -> list[FikiMikiPhoneBot]:
    variant = Variant(settings.options.get("variant", "I"))
    return [FikiMikiPhoneBot(settings.seed, p, variant) for p in range(settings.players)]
