"""Where a lamp step's time goes, in the live deciding process (issue 46's
benchmark: ``benchmarks/realtime.py --profile-steps``).

With ``BUZZERBOX_STEP_PROFILE`` set to a folder, the deciding thread wraps the
stages of its step (the box's input, settle and engine calls, the lamps' call
and each pin write) on its own objects, stamps each stage's entry and exit
(wall clock and the thread's CPU time) in memory, and writes the steps that lit
a lamp to ``<folder>/steps-<pid>.json`` when it stops. Without the variable
nothing is wrapped: the step runs as shipped, at no cost.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import resource
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: the folder the profile is written to (unset: no profile)
ENV = "BUZZERBOX_STEP_PROFILE"
#: lamp steps kept (the newest)
KEPT = 4_096

#: the box's methods wrapped, and what the profile calls them
BOX_STAGES = {"take": "take", "drain": "drain", "_delivered": "delivered", "sources_until_us": "sources_until",
              "_settle": "settle", "_deliver": "deliver", "_tick": "tick", "_emit": "emit", "_write": "write",
              "_journal_changed": "journal_changed", "statuses": "statuses", "flush_records": "flush_records",
              "next_due_us": "next_due", "next_decision_due_us": "next_decision_due",
              "_first_press_due": "first_press_due"}
ENGINE_STAGES = {"handle": "engine_handle", "tick": "engine_tick", "station_statuses": "engine_statuses"}
DEBOUNCER_STAGES = {"poll": "poll"}


class StepProfile:
    """The stamps of the step running now, and the kept lamp steps."""

    def __init__(self, folder: str) -> None:
        self.path = Path(folder) / f"steps-{os.getpid()}.json"
        self.steps: deque[dict[str, Any]] = deque(maxlen=KEPT)
        #: every step: (start, woke late, delivered, µs taken, lit a lamp, µs in ``after``)
        self.every: deque[tuple[int, int | None, bool, int, bool, int | None]] = deque(maxlen=16 * KEPT)
        self.marks: list[tuple[str, int, int]] | None = None
        self.start: tuple[int, int] = (0, 0)
        self.lamp = False

    def mark(self, label: str) -> None:
        if self.marks is not None:
            self.marks.append((label, time.perf_counter_ns(), time.thread_time_ns()))

    def wrap(self, owner: Any, name: str, label: str) -> None:
        """Stamp entry and exit of ``owner.name`` (the instance's own attribute: nothing else changes)."""
        original = getattr(owner, name, None)
        if original is None:
            return

        @functools.wraps(original)
        def stamped(*args: Any, **kwargs: Any) -> Any:
            self.mark(label + ">")
            try:
                return original(*args, **kwargs)
            finally:
                self.mark(label + "<")

        setattr(owner, name, stamped)

    def decide(self, original: Callable[..., tuple[int, int | None]], now: Callable[[], int]) -> Callable[..., Any]:
        """The deciding thread's step, stamped: kept when it lit a lamp."""

        def step(woke: int, woke_late_us: int | None, delivered: bool = True) -> tuple[int, int | None]:
            self.marks = []
            self.lamp = False
            usage = resource.getrusage(resource.RUSAGE_THREAD)
            start_box, start_ns, start_cpu = now(), time.perf_counter_ns(), time.thread_time_ns()
            result = original(woke, woke_late_us, delivered)
            marks, self.marks = self.marks, None
            end_ns = time.perf_counter_ns()
            publish = [ns for label, ns, _cpu in marks if label in ("after>", "after<")]
            self.every.append((start_box, woke_late_us, delivered, (end_ns - start_ns) // 1000, self.lamp,
                               (publish[-1] - publish[0]) // 1000 if len(publish) == 2 else None))
            if self.lamp:
                ended = resource.getrusage(resource.RUSAGE_THREAD)
                self.steps.append({
                    "woke_box_us": woke, "woke_late_us": woke_late_us, "start_box_us": start_box,
                    "switches": [ended.ru_nvcsw - usage.ru_nvcsw, ended.ru_nivcsw - usage.ru_nivcsw],
                    "marks": [(label, (ns - start_ns) // 1000, (cpu - start_cpu) // 1000)
                              for label, ns, cpu in marks]})
            return result

        return step

    def lamp_written(self) -> None:
        self.lamp = True
        self.mark("lamp")

    def dump(self) -> None:
        with contextlib.suppress(OSError):
            self.path.write_text(json.dumps(list(self.steps)), encoding="utf-8")
            self.path.with_suffix(".every.json").write_text(json.dumps(list(self.every)), encoding="utf-8")


def install(decider: Any) -> StepProfile | None:
    """Wrap ``decider``'s step and the box's stages when ``ENV`` says so (None: it does not)."""
    folder = os.environ.get(ENV)
    if not folder:
        return None
    profile = StepProfile(folder)
    box = decider.box
    for name, label in BOX_STAGES.items():
        profile.wrap(box, name, label)
    for name, label in ENGINE_STAGES.items():
        profile.wrap(box.engine, name, label)
    for name, label in DEBOUNCER_STAGES.items():
        profile.wrap(box.debouncer, name, label)
    game = getattr(decider.light, "__self__", None)
    director = getattr(game, "lights", None)
    if director is not None:
        profile.wrap(director, "update", "update")
        profile.wrap(director, "light_station", "first_lamp")
        backend = director.backend
        original_set = backend.set

        def set_lamp(station: int, input: str, mode: str) -> None:
            profile.mark("set>")
            original_set(station, input, mode)
            if mode == "on":
                profile.lamp_written()
            profile.mark("set<")

        backend.set = set_lamp
    profile.wrap(decider, "light", "light")
    if decider.after is not None:
        profile.wrap(decider, "after", "after")
    decider.decide = profile.decide(decider.decide, decider.now)
    return profile
