"""Simulated Hot Potato players, and the host bot that starts each round."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import Action, Bot, GameEvent, GameSettings, HostBot, PlannedPress
from games.humans import human_reaction_us


class Passer:
    """Passes the potato a human reaction time after it arrives."""

    def __init__(self, station: int, seed: int) -> None:
        self.station = station
        self.rng = random.Random(f"potato-{seed}-{station}")

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]:
        arrived = any(e.kind in ("passed", "round") and e.player == self.station for e in events)
        if view.get("phase") == "passing" and view.get("holder") == self.station and arrived:
            return [PlannedPress("bell", now_us + human_reaction_us(self.rng, 700.0))]
        return []


class Starter:
    """The host: starts the next round two seconds after the last one burnt."""

    def __init__(self) -> None:
        self.started_round = 0

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[Action]:
        if view.get("phase") == "idle" and view.get("round", 0) == self.started_round:
            self.started_round += 1
            return [Action("start", now_us + 2_000_000)]
        return []


def new_bots(settings: GameSettings) -> Sequence[Bot]:
    return [Passer(station, settings.seed) for station in range(settings.players)]


def new_host(settings: GameSettings) -> HostBot:
    return Starter()
