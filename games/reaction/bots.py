"""Simulated duellists: human visual reaction times, the odd false start."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Action, EventKind, GameEvent, GameSettings, PlannedPress
from games.humans import human_reaction_us


class Duellist:
    def __init__(self, player: int, seed: int, jumpy: float = 0.04, gullible: float = 0.25) -> None:
        self.player = player
        self.rng = random.Random(f"duellist-{seed}-{player}")
        self.median_ms = self.rng.uniform(210, 330)
        self.jumpy = jumpy
        self.gullible = gullible

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]:
        plans = []
        for event in events:
            what = event.data.get("what") if event.kind == EventKind.SHOW else None
            if what == "go":
                plans.append(PlannedPress("bell", now_us + human_reaction_us(self.rng, self.median_ms, 0.2)))
            elif what == "wait" and self.rng.random() < self.jumpy:
                plans.append(PlannedPress("bell", now_us + self.rng.randint(800_000, 1_600_000)))
            elif what == "decoy" and self.rng.random() < self.gullible:
                plans.append(PlannedPress("bell", now_us + human_reaction_us(self.rng, self.median_ms, 0.2)))
        return plans


class Starter:
    """Presses start once; the engine runs the rounds by itself after that."""

    def __init__(self) -> None:
        self.started = False

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[Action]:
        if self.started or view["phase"] != "ready":
            return []
        self.started = True
        return [Action("start", now_us + 1_000_000)]


def new_bots(settings: GameSettings) -> list[Duellist]:
    return [Duellist(p, settings.seed) for p in range(settings.players)]


def new_host(settings: GameSettings) -> Starter:
    return Starter()
