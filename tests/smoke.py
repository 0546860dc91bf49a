"""The few real-time smoke tests that stay in the suite (everything else runs
in virtual time; real-time figures are benchmarks/).

Such a test takes its bounds from a calibration of this machine made in the
same run (``wakeup_lateness_us``), never from a constant tuned on one
computer. When the machine is too busy to judge the claim, the test does not
skip in silence: ``cannot_judge`` says so in the run's summary
(tests/conftest.py), and the run fails when more than ``CANNOT_JUDGE_LIMIT``
smoke tests could not judge (one stalled run tells nothing; two mean the
tests no longer test)."""

from __future__ import annotations

import statistics
import threading
import time
import warnings
from collections.abc import Callable

#: user property a smoke test sets when it could not judge (read by tests/conftest.py)
CANNOT_JUDGE = "cannot_judge"
#: more smoke tests than this that cannot judge fail the run
CANNOT_JUDGE_LIMIT = 1


class CannotJudge(UserWarning):
    """This machine was too busy for a real-time smoke test to judge its claim."""


def cannot_judge(record_property: Callable[[str, object], None], why: str) -> None:
    """Say loudly that this test could not judge (and why); the run fails when
    more than ``CANNOT_JUDGE_LIMIT`` tests say so."""
    record_property(CANNOT_JUDGE, why)
    warnings.warn(CannotJudge(why), stacklevel=2)


def wakeup_lateness_us(samples: int = 40, sleep_s: float = 0.002) -> int:
    """How late a thread of this process wakes after a short sleep, on this
    machine now: the worst of ``samples`` wake-ups minus the sleep, µs (while
    another thread of this process holds the interpreter busy, as a frame
    does). A smoke test's bound is its budget plus a few of these."""
    stop = threading.Event()

    def busy() -> None:
        while not stop.is_set():
            sum(range(200))

    burner = threading.Thread(target=busy, name="smoke-calibration-load")
    burner.start()
    late = []
    try:
        for _ in range(samples):
            t0 = time.perf_counter()
            time.sleep(sleep_s)
            late.append(int((time.perf_counter() - t0 - sleep_s) * 1e6))
    finally:
        stop.set()
        burner.join()
    return max(late) if late else 0


def median_us(values: list[int]) -> int:
    return int(statistics.median(values)) if values else 0
