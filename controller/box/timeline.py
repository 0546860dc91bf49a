"""The box timeline: integer microseconds, monotonic, one per box.

Sources stamp in their own units (kernel nanoseconds, pigpio's 32-bit µs
ticks, the board's 30-bit ``ticks_us``) and each source module brings its own
onto this timeline without losing the stamp's precision.
"""

from __future__ import annotations

import time


def box_now_us() -> int:
    """The box timeline's now (CLOCK_MONOTONIC, the clock the kernel stamps
    GPIO edges with)."""
    return time.monotonic_ns() // 1000
