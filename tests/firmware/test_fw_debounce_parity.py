"""The board debounces exactly as the box does: same presses, same times,
same noise and stuck reports, for any edge train (the board's copy exists
only because MicroPython has no dataclasses or 64-bit time)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.box.debounce import DebounceConfig, Debouncer
from controller.box.press import Press
from firmware.buzzer.debounce import KIND_NAMES
from firmware.buzzer.debounce import Debouncer as BoardDebouncer

CONFIG = DebounceConfig(bounce_us=10_000, glitch_us=1_000, stuck_us=200_000)


def host_run(edges: list[tuple[int, int]], polls: list[int]) -> list[tuple[str, int]]:
    d = Debouncer(CONFIG)
    d.start(0, "bell", 1, 0)
    out = []
    for kind, t, level in sorted([("edge", t, lv) for t, lv in edges] + [("poll", t, 0) for t in polls],
                                 key=lambda x: (x[1], x[0])):
        got = d.edge(0, "bell", level, t) if kind == "edge" else d.poll(t)
        out += [("press", o.t_us) if isinstance(o, Press) else (o.kind, o.t_us) for o in got]
    return out


def board_run(edges: list[tuple[int, int]], polls: list[int]) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    d = BoardDebouncer(1, lambda kind, ch, t, n: out.append((KIND_NAMES[kind], t)),
                       bounce_us=CONFIG.bounce_us, glitch_us=CONFIG.glitch_us, stuck_us=CONFIG.stuck_us)
    d.start(0, 1, 0)
    for kind, t, level in sorted([("edge", t, lv) for t, lv in edges] + [("poll", t, 0) for t in polls],
                                 key=lambda x: (x[1], x[0])):
        if kind == "edge":
            d.edge(0, level, t)
        else:
            d.poll(t)
    return out


@st.composite
def edge_trains(draw):
    gaps = draw(st.lists(st.integers(20, 30_000), min_size=1, max_size=60))
    t, level, edges = 1_000, 1, []
    for gap in gaps:
        t += gap
        level = 1 - level
        edges.append((t, level))
    return edges


@settings(max_examples=300, deadline=None)
@given(edge_trains())
def test_board_and_box_debounce_agree(edges):
    end = edges[-1][0] + 400_000
    polls = list(range(0, end, 700))
    assert board_run(edges, polls) == host_run(edges, polls)


def test_they_agree_on_a_loose_contact_and_on_noise_before_a_press():
    chatter = [(1_000 + 500 * i, i % 2 == 0 and 0 or 1) for i in range(800)]  # 400 ms of toggling
    noise_then_press = [(1_000, 0), (1_200, 1), (7_200, 0), (60_000, 1)]
    for edges in (chatter, noise_then_press):
        polls = list(range(0, edges[-1][0] + 300_000, 500))
        assert board_run(edges, polls) == host_run(edges, polls)
    assert ("glitch", 1_000) in host_run(noise_then_press, list(range(0, 300_000, 500)))
