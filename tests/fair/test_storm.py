"""Chatter stays chatter under load: a bounce storm on every bell, delivered
in late batches while frames draw and another thread burns CPU, is judged
by its stamps: every bell flagged stuck and no press, as in virtual time."""

from __future__ import annotations

import random
import threading
import time

import pytest

from controller.debounce import DebounceConfig
from controller.display.loop import Presenter, run
from controller.display.screen import Screen
from controller.press import Edge
from controller.runtime import Box, raised_guard_us
from controller.timeline import box_now_us
from games.registry import get, scene_for

BELLS = 6
STORM_US = 1_300_000
BATCH_S = 0.01  # the storm reaches the box in 10 ms batches: up to 10 ms late, five times the stated delay
CONFIG = DebounceConfig(bounce_us=10_000, glitch_us=1_000, stuck_us=1_000_000)


def storm(seed: int) -> list[tuple[int, int, int]]:
    """(offset µs, station, level): each bell flips every 0.3–0.9 ms, never still for the glitch time."""
    rng = random.Random(seed)
    edges = []
    for station in range(BELLS):
        t, level = rng.randrange(0, 500), 0
        while t < STORM_US:
            edges.append((t, station, level))
            t += rng.randrange(300, 900)
            level = 1 - level
        if level == 1:  # end released
            edges.append((t, station, 1))
    return sorted(edges)


def new_box() -> Box:
    spec = get("quiz")
    box = Box(spec, spec.settings(BELLS), debounce=CONFIG, latency_guard_us=2_000)
    box.host("arm", 0)
    return box


def outcome(box: Box) -> tuple[list[int], int, list[str]]:
    stuck = [st.stats.stuck_count for st in box.debouncer.inputs.values()]
    return stuck, box.presses_total, [e.kind for e in box.event_log if e.kind in ("buzz", "winner")]


def test_a_late_storm_under_load_is_flagged_stuck_as_in_virtual_time() -> None:
    edges = storm(7)
    virtual = new_box()
    for t, station, level in edges:
        virtual.edge(Edge(station, "bell", level, t), 1)
        virtual.step(t)
    for t in range(STORM_US, STORM_US + 100_000, 1_000):
        virtual.step(t)
    expected = outcome(virtual)
    assert expected == ([1] * BELLS, 0, [])  # the storm's meaning: every bell stuck, nobody pressed

    live = new_box()
    start = box_now_us() + 30_000
    live.time_offset_us = -start + 0  # game time 0 is the storm's start
    live.measure_report_delay(box_now_us)
    busy = threading.Event()

    def burn() -> None:
        while not busy.is_set():
            sum(range(1000))

    gaps: list[int] = []

    def deliver() -> None:
        i, last = 0, box_now_us()
        while i < len(edges):
            time.sleep(BATCH_S)
            now = box_now_us()
            gaps.append(now - last)
            last = now
            while i < len(edges) and start + edges[i][0] <= now:
                t, station, level = edges[i]
                live.edge(Edge(station, "bell", level, start + t), 1)
                i += 1

    threads = [threading.Thread(target=burn), threading.Thread(target=deliver)]
    for th in threads:
        th.start()
    try:
        run(live, Presenter(Screen.open(headless=True), scene_for("quiz")), realtime=True,
            until_us=STORM_US + 200_000, fps=60)
    finally:
        busy.set()
        for th in threads:
            th.join()
    assert live.late_deliveries > 0  # it really was late
    grew = [b for a, b in zip(gaps, gaps[1:], strict=False) if b >= raised_guard_us(a)]
    if grew:
        # the machine starved the feeder longer than the guard raised by the batch before:
        # a lateness no guard learns in time (docs/architecture.md says so); not this test's claim
        pytest.skip(f"the test machine stalled the storm's delivery {max(grew) / 1000:.0f} ms")
    assert outcome(live) == expected
