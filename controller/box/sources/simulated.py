"""Simulated players' switches: a planned press becomes a realistic edge train.

Real arcade microswitches and bell contacts bounce: a press is a burst of
edges over 0.1-5 ms before the contact settles, and a release bounces too.
The train is drawn from a seeded generator, so a simulation is repeatable.
Stamps are exact (precision 1 µs): the simulation knows when it pressed.
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass

from controller.box.press import Edge


@dataclass(frozen=True)
class BounceModel:
    """How switches bounce (defaults from scope traces of cheap arcade switches)."""

    min_bounce_us: int = 100
    max_bounce_us: int = 5_000
    max_bounce_edges: int = 12  # edges in a train (including the first), at most
    clean_chance: float = 0.15  # some presses do not bounce at all
    min_hold_us: int = 60_000
    max_hold_us: int = 220_000
    active_level: int = 0

    def train(self, rng: random.Random, t_us: int, hold_us: int | None = None) -> list[tuple[int, int]]:
        """(t_us, level) edges for one press at ``t_us`` (its first edge) and its release."""
        active, idle = self.active_level, 1 - self.active_level
        hold = hold_us if hold_us is not None else rng.randint(self.min_hold_us, self.max_hold_us)
        edges = [(t_us, active)]
        edges += self._bounce(rng, t_us, settle_to=active)
        release = t_us + hold
        edges.append((release, idle))
        edges += self._bounce(rng, release, settle_to=idle)
        return edges

    def _bounce(self, rng: random.Random, start_us: int, settle_to: int) -> list[tuple[int, int]]:
        if rng.random() < self.clean_chance:
            return []
        span = rng.randint(self.min_bounce_us, self.max_bounce_us)
        pairs = rng.randint(1, max(1, (self.max_bounce_edges - 1) // 2))
        # 2*pairs bounce edges inside the span, alternating away from and back to settle_to
        times = sorted(rng.sample(range(start_us + 1, start_us + span + 1), 2 * pairs)) if span >= 2 * pairs else []
        out = []
        for i, t in enumerate(times):
            out.append((t, 1 - settle_to if i % 2 == 0 else settle_to))
        return out


class SimulatedSwitches:
    """Scheduled edges of every simulated station, released when due."""

    name = "simulated"
    precision_us = 1

    def __init__(self, seed: int, model: BounceModel | None = None) -> None:
        self.rng = random.Random(f"switches-{seed}")
        self.model = model or BounceModel()
        self._heap: list[tuple[int, int, Edge]] = []
        self._seq = 0
        self._held_until: dict[tuple[int, str], int] = {}

    def plan(self, station: int, input_name: str, t_us: int) -> None:
        """Press ``input_name`` of ``station`` with the first edge at ``t_us``
        (skipped if that switch is still held from an earlier press)."""
        key = (station, input_name)
        if self._held_until.get(key, -1) >= t_us:
            return
        train = self.model.train(self.rng, t_us)
        self._held_until[key] = train[-1][0] + 1_000
        for t, level in train:
            self._seq += 1
            heapq.heappush(self._heap, (t, self._seq, Edge(station, input_name, level, t)))

    def next_time_us(self) -> int | None:
        return self._heap[0][0] if self._heap else None

    def due(self, now_us: int) -> list[Edge]:
        out = []
        while self._heap and self._heap[0][0] <= now_us:
            out.append(heapq.heappop(self._heap)[2])
        return out
