"""Chatter stays chatter when it comes late: a bounce storm on every bell,
delivered in late batches (as a busy core or a slow source hands it over),
is judged by its stamps: every bell flagged stuck and no press, exactly as
when every edge arrives at once. In virtual time: the deliveries, their
lateness and the deciding thread's wake-ups are scripted and seeded; the
same storm on real threads under CPU load is ``benchmarks/storm.py``. Both
horizon designs (``tests/fair/horizons.py``): the shipped one, the source
saying after each batch how far it delivered, and the fixed delay."""

from __future__ import annotations

import random

import pytest

from controller.box.debounce import DebounceConfig
from controller.box.press import Edge
from controller.box.runtime import Box
from games.registry import get
from tests.fair.horizons import DESIGNS, FIXED, delivered, follow

BELLS = 6
STORM_US = 1_300_000
CONFIG = DebounceConfig(bounce_us=10_000, glitch_us=1_000, stuck_us=1_000_000)
GUARD_US = 2_000


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
    box = Box(spec, spec.settings(BELLS), debounce=CONFIG, latency_guard_us=GUARD_US)
    box.host("arm", 0)
    return box


def outcome(box: Box) -> tuple[list[int], int, list[str]]:
    stuck = [st.stats.stuck_count for st in box.debouncer.inputs.values()]
    return stuck, box.presses_total, [e.kind for e in box.event_log if e.kind in ("buzz", "winner")]


def on_time(edges: list[tuple[int, int, int]]) -> Box:
    """Every edge reaches the box the moment it happens."""
    box = new_box()
    for t, station, level in edges:
        box.edge(Edge(station, "bell", level, t), 1)
        box.step(t)
    for t in range(STORM_US, STORM_US + 200_000, 1_000):
        box.step(t)
    return box


def in_late_batches(edges: list[tuple[int, int, int]], batch_us: int, seed: int, design: str) -> Box:
    """The edges handed over in batches every ``batch_us`` (each batch up to
    half a period later still, seeded), the report delay measured on arrival
    as live, each batch followed by its source's watermark (``design``); the
    box stepped on every delivery and at every moment it says something is
    due, as the deciding thread does."""
    rng = random.Random(seed)
    box = follow(new_box(), design)
    clock = [0]
    box.measure_report_delay(lambda: clock[0])
    i, now = 0, 0

    def step_to(t: int) -> None:
        nonlocal now
        while (due := box.next_due_us()) is not None and now < due < t:  # woken by its own due moments
            clock[0] = now = due
            box.step(due)
        clock[0] = now = max(now, t)
        box.step(now)

    arrival = 0
    while i < len(edges) or now < STORM_US + 200_000:
        arrival += batch_us + rng.randrange(0, batch_us // 2 + 1)
        step_to(arrival)
        while i < len(edges) and edges[i][0] <= arrival:
            t, station, level = edges[i]
            box.edge(Edge(station, "bell", level, t), 1)
            i += 1
        delivered(box, design, arrival)  # after the batch's edges, as a reader says it
        box.step(arrival)  # a delivery wakes the deciding thread
    return box


@pytest.mark.parametrize("design", DESIGNS)
@pytest.mark.parametrize("seed", [7, 8, 9])
@pytest.mark.parametrize("batch_us", [5_000, 10_000, 15_000])
def test_a_storm_delivered_in_late_batches_is_flagged_stuck_as_on_time(seed: int, batch_us: int, design: str) -> None:
    edges = storm(seed)
    expected = outcome(on_time(edges))
    assert expected == ([1] * BELLS, 0, [])  # the storm's meaning: every bell stuck, nobody pressed
    late = in_late_batches(edges, batch_us, seed, design)
    assert outcome(late) == expected
    if design == FIXED:  # it really was late, and measured: the guard rose
        assert late.late_deliveries > 0 and late.latency_guard_us > GUARD_US
    else:  # it really was late: decisions waited a batch's lateness for the source, no guard raised
        assert late.longest_wait_us >= batch_us and late.latency_guard_us == GUARD_US
        assert late.stalls == 0
