"""Simulated Schicki Micki players for demos, simulations and soak tests.

A bot looks at the table on the shared screen when a new card appears, judges
it like a person would (sometimes wrongly, sometimes not at all) and plans one
press with a human-like reaction time: log-normal around a median that grows
with how hard the situation is to spot.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from games.base import Bot, EventKind, GameEvent, GameSettings, PlannedPress
from games.schicki_micki.cards import ACCESSORIES, cards_from_json
from games.schicki_micki.situation import (
    IDENTICAL,
    NOTHING,
    ONE_PAIR,
    SEVERAL_PAIRS,
    TWO_WORMS,
    judge,
)

#: median reaction time (µs) and chance to notice it at all, per situation
DIFFICULTY: dict[str, tuple[int, float]] = {
    TWO_WORMS: (450_000, 0.9),
    ONE_PAIR: (700_000, 0.8),
    SEVERAL_PAIRS: (900_000, 0.7),
    IDENTICAL: (1_000_000, 0.6),
}
MISTAKE = 0.06  # chance to press a wrong button instead
FALSE_ALARM = 0.03  # chance to press something when nothing is there
SIGMA = 0.25  # spread of the log-normal reaction time


class SchickiMickiBot:
    """One seeded player at a full station."""

    def __init__(self, seed: int, player: int) -> None:
        self.player = player
        self.rng = random.Random(f"schicki-micki-bot-{seed}-{player}")
        self.skill = self.rng.uniform(0.85, 1.2)  # some players are quicker

    def _press_time(self, now_us: int, median_us: int) -> int:
        median = median_us * self.skill
        t = self.rng.lognormvariate(math.log(median), SIGMA)
        return now_us + int(min(max(t, 250_000), 1_400_000))

    def _right_input(self, situation: Any) -> str:
        row = situation.row
        if row == TWO_WORMS:
            return "bell"
        if row == IDENTICAL:
            return "red"
        if row == SEVERAL_PAIRS:
            return "blue"
        return situation.pairs[0][0]

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]:
        shows = [e for e in events if e.kind == EventKind.SHOW]
        if not shows or view.get("phase") == "over":
            return []
        t_show = shows[-1].t_us
        situation = judge(cards_from_json(list(view["table"]), "table"))
        row = situation.row
        wrong = self.rng.choice(["bell", "blue", "red", *ACCESSORIES])
        if row == NOTHING:
            if self.rng.random() < FALSE_ALARM:
                return [PlannedPress(wrong, self._press_time(t_show, 800_000))]
            return []
        median, notice = DIFFICULTY[row]
        if self.rng.random() > notice:
            return []
        press = wrong if self.rng.random() < MISTAKE else self._right_input(situation)
        if row == ONE_PAIR and press in ACCESSORIES and self.rng.random() < 0.3:
            median = int(median * 1.2)  # naming the accessory takes a moment longer
        return [PlannedPress(press, self._press_time(t_show, median))]


def new_bots(settings: GameSettings) -> list[Bot]:
    return [SchickiMickiBot(settings.seed, p) for p in range(settings.players)]
