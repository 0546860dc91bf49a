"""Simulated Tally players: a press every human reaction time."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Bot, GameEvent, GameSettings, PlannedPress
from games.humans import human_reaction_us


class Tapper:
    def __init__(self, station: int, seed: int) -> None:
        self.rng = random.Random(f"tally-{seed}-{station}")
        self.next_us: int | None = None

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]:
        if view.get("phase") == "over" or (self.next_us is not None and now_us < self.next_us):
            return []
        self.next_us = now_us + human_reaction_us(self.rng, 400.0)
        return [PlannedPress("bell", self.next_us)]


def new_bots(settings: GameSettings) -> Sequence[Bot]:
    return [Tapper(station, settings.seed) for station in range(settings.players)]
