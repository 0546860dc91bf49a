"""The firmware's debounce: the box's rules, on 30-bit ticks, across the wrap."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware.buzzer.debounce import GLITCH, PRESS, STUCK, UNSTUCK, Debouncer

MASK = (1 << 30) - 1


def run(edges: list[tuple[int, int]], offset: int = 0, until: int = 200_000) -> list[tuple]:
    """Feed (t, level) edges on channel 0 with all times shifted by ``offset``
    on the 30-bit ring; poll every 100 µs. Returns outputs with times unshifted."""
    out: list[tuple] = []
    d = Debouncer(1, lambda k, c, t, n: out.append((k, (t - offset) & MASK, n)), 10_000, 1_000, 50_000)
    pending = sorted(edges)
    t = 0
    while t <= until:
        while pending and pending[0][0] <= t:
            et, lv = pending.pop(0)
            d.edge(0, lv, (et + offset) & MASK)
        d.poll((t + offset) & MASK)
        t += 100
    return out


def test_bounce_train_is_one_press_at_its_first_edge() -> None:
    out = run([(1000, 0), (1100, 1), (1250, 0), (1300, 1), (1400, 0)], until=40_000)
    assert out == [(PRESS, 1000, 5)]


def test_short_isolated_pulse_is_noise() -> None:
    assert run([(1000, 0), (1300, 1)]) == [(GLITCH, 1000, 2)]


def test_release_bounce_does_not_press_again() -> None:
    out = run([(1000, 0), (30_000, 1), (30_200, 0), (30_400, 1)])
    assert [o[0] for o in out] == [PRESS]


def test_held_line_is_stuck_then_unstuck() -> None:
    out = run([(1000, 0), (100_000, 1)])
    assert [o[0] for o in out] == [PRESS, STUCK, UNSTUCK]
    assert out[1][1] == 51_000  # stuck limit after the last change


@given(offset=st.integers(min_value=0, max_value=MASK),
       gaps=st.lists(st.integers(min_value=30, max_value=3000), min_size=1, max_size=8))
def test_same_decisions_anywhere_on_the_30_bit_ring(offset: int, gaps: list[int]) -> None:
    t, level, edges = 1000, 0, []
    for g in gaps:
        edges.append((t, level))
        t += g
        level ^= 1
    assert run(edges, offset) == run(edges, 0)
