"""How fast simulated people are: shared by every game's bots (a game never
imports another game, so the model lives in the contract layer)."""

from __future__ import annotations

import random


def human_reaction_us(rng: random.Random, median_ms: float = 550.0, spread: float = 0.35) -> int:
    """A reaction time drawn from a log-normal: most near the median, a long slow tail."""
    return int(rng.lognormvariate(0, spread) * median_ms * 1000)
