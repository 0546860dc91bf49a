"""The box timeline: integer microseconds, monotonic, one per box.

Sources stamp in their own units (kernel nanoseconds, pigpio's 32-bit µs
ticks, the board's 30-bit ``ticks_us``) and each source module brings its own
onto this timeline without losing the stamp's precision.
"""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], int]


def box_now_us() -> int:
    """The box timeline's now (CLOCK_MONOTONIC, the clock the kernel stamps
    GPIO edges with)."""
    return time.monotonic_ns() // 1000


class VirtualClock:
    """A clock that only moves when told to: simulations and tests."""

    def __init__(self, start_us: int = 0) -> None:
        self.now_us = start_us

    def __call__(self) -> int:
        return self.now_us

    def advance_to(self, t_us: int) -> None:
        self.now_us = max(self.now_us, t_us)


def format_margin(us: int) -> str:
    """'+0.412 ms' — how the screen and the logs show a margin behind the first."""
    return f"+{us / 1000:.3f} ms"
