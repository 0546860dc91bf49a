"""Decisions wait for what the sources say they have delivered, not a fixed delay.

The contest every test here plays is the one an audit found the box getting
wrong: the first presser's contact bounces open for 947 µs (shorter than the
glitch filter: it is still one press, at its first edge), the runner-up
touches 35 µs after the first contact. If the re-close reaches the box late
(its edge reader did not get the interpreter), a box that decides a fixed
delay after the stamps rules the first contact noise and crowns the runner-up.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks.one_process import OneProcessDecider
from controller.box import profile as profile_mod
from controller.box import session, views
from controller.box.debounce import DebounceConfig
from controller.box.deciding import DECIDER_MAX_SLEEP_S
from controller.box.feed import Feed
from controller.box.press import Edge, Watermark
from controller.box.runtime import (
    DEAF_GAP_US,
    GUARD_RELAX_US,
    HORIZON_FIXED_DELAY,
    HORIZON_WATERMARKS,
    INPUTS_LATE,
    INPUTS_STALLED,
    MAX_GUARD_US,
    STALL_US,
    Box,
    raised_guard_us,
)
from controller.box.sources import linefd
from controller.box.sources.gpio import GpioSource, mock_factory
from controller.box.timeline import box_now_us
from games import registry
from games.base import GameEvent
from games.i18n import _, set_language
from tests.fair.horizons import DESIGNS, FIXED, SHIPPED, follow
from tests.linechip import StandInChip
from tests.processes import HANG_S

FIRST, RUNNER_UP = 0, 1
CONTACT_US = 100_000  # the first presser's contact (game µs)
OPEN_US, REOPEN_US = 50, 947  # its contact opens 50 µs in, for 947 µs
BEHIND_US = 35  # the runner-up's lead over nobody: 35 µs after the first contact
STORM_CONFIG = DebounceConfig(bounce_us=10_000, glitch_us=1_000, stuck_us=1_000_000)


def contest(t0: int) -> list[Edge]:
    """The audit's contest as the edges of both bells, in stamp order."""
    return [Edge(FIRST, "bell", 0, t0), Edge(RUNNER_UP, "bell", 0, t0 + BEHIND_US),
            Edge(FIRST, "bell", 1, t0 + OPEN_US), Edge(FIRST, "bell", 0, t0 + OPEN_US + REOPEN_US)]


def armed_box(policy: str = HORIZON_WATERMARKS) -> Box:
    prof = profile_mod.load("header-4")
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce, latency_guard_us=2_000)
    box.horizon_policy = policy
    box.host("arm", 0)
    box.step(50_000)
    return box


def winners(events: list[GameEvent]) -> list[int | None]:
    return [e.player for e in events if e.kind == "winner"]


#: how often a live box's deciding thread looks at its sources at least (``DECIDER_MAX_SLEEP_S``)
LOOKS_EVERY_US = int(DECIDER_MAX_SLEEP_S * 1e6)
#: the edge reader the step tests follow has handed over all it read: it answers now less its lag (the feed's)
READER_LAG_US = 100
#: the steps the deciding thread takes for the audit's contest (the deliveries, the runner-up's confirmation,
#: the first presser's), and for the reaction game's false start and GO (the deliveries, the confirmation)
STEPS_OF_THE_CONTEST = 3
STEPS_TO_GO = {SHIPPED: 2, FIXED: 2}


def caught_up_reader(box: Box) -> Box:
    """``box`` following an edge reader that holds nothing (the shipped design asks it at every
    step): decisions wait its lag, not the fixed delay."""
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: now_us - READER_LAG_US,
                      probe_lag_us=READER_LAG_US)
    assert not box._waits_fixed_delay()
    return box


def test_a_press_held_behind_one_still_bouncing_is_not_due_in_the_past() -> None:
    """The deciding thread sleeps until the box's next due moment. The runner-up's
    press is confirmed first but must wait for the first presser's, still being
    debounced: its moment was returned although past, and the thread stepped
    every few µs until the bounce settled (with watermarks: it slept until the
    sources' stall time, and the contest was decided half a second late). Every
    due moment is ahead of the step that asked; the contest takes three steps
    (the deliveries, the runner-up's confirmation, the first presser's) and is
    decided at the first presser's confirmation plus the reader's lag."""
    box = caught_up_reader(armed_box())
    for edge in contest(CONTACT_US):
        box.edge(edge, 1)
    now, steps, events = CONTACT_US + OPEN_US + REOPEN_US, 0, []
    while not winners(events):
        events += box.step(now)
        steps += 1
        due = box.next_due_us()
        assert due is not None and due > now, f"step {steps} at {now}: next due {due} is not ahead"
        if not winners(events):
            now = due
        assert steps < 20, "a contest of two presses takes a handful of steps"
    assert winners(events) == [FIRST]
    assert (steps, now) == (STEPS_OF_THE_CONTEST, CONTACT_US + OPEN_US + REOPEN_US + box.debouncer.config.glitch_us
                            + READER_LAG_US)


@pytest.mark.parametrize("design", DESIGNS)
def test_an_engine_deadline_behind_a_press_still_bouncing_is_not_due_in_the_past(design: str) -> None:
    """The reaction game's GO is an engine deadline; a false start's contact
    closes 300 µs before it and bounces open for 650 µs (under the glitch
    filter: one press, at its first edge). GO waits for that press, so its
    moment, passed while the press is still being debounced, is not a due
    moment: every due moment is ahead of the step that asked, and the press
    is decided at the glitch filter's moment plus the reader's lag (with the
    fixed delay: its delay after it), in a few steps, as the false start it is, before GO."""
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, 3), debounce=STORM_CONFIG, latency_guard_us=2_000)
    box = caught_up_reader(box) if design != FIXED else follow(box, design)
    box.host("start", 0)
    box.step(2_000)
    go_at = box.engine.go_at_us  # type: ignore[attr-defined]
    assert go_at is not None
    for edge in (Edge(FIRST, "bell", 0, go_at - 300), Edge(FIRST, "bell", 1, go_at - 250),
                 Edge(FIRST, "bell", 0, go_at + 400)):
        box.edge(edge, 1)
    now, steps, events, decided_at = go_at + 450, 0, [], None
    while not [e for e in events if e.kind == "show"]:
        events += box.step(now)
        if decided_at is None and [e for e in events if e.kind == "early"]:
            decided_at = now
        steps += 1
        due = box.next_due_us()
        assert due is not None and due > now, f"step {steps} at {now}: next due {due} is not ahead"
        now = due
        assert steps < 20, "a false start and GO take a handful of steps"
    kinds = [(e.kind, e.player) for e in events]
    assert kinds.index(("early", FIRST)) < kinds.index(("show", None))
    confirmed = go_at + 400 + STORM_CONFIG.glitch_us
    assert decided_at == confirmed + (box.latency_guard_us if design == FIXED else READER_LAG_US)
    assert steps == STEPS_TO_GO[design]


def test_the_box_waits_for_a_late_edge_its_source_has_not_said_it_delivered() -> None:
    """The re-close reaches the box 5 ms late; its source said it had delivered
    only up to just after the runner-up's press. With watermarks the box waits
    and names the first presser; the old fixed delay decided past it."""
    for policy, expected in ((HORIZON_WATERMARKS, [FIRST]), (HORIZON_FIXED_DELAY, [RUNNER_UP])):
        box = armed_box(policy)
        box.follow_source("gpio", watermarks=True)
        edges = contest(CONTACT_US)
        for edge in edges[:3]:
            box.edge(edge, 1)
        box.watermark(Watermark("gpio", CONTACT_US + OPEN_US + 10))
        events: list[GameEvent] = []
        for now in range(CONTACT_US, CONTACT_US + 12_000, 500):
            events += box.step(now)
        reclosed = CONTACT_US + 12_000
        box.edge(edges[3], 1)
        box.watermark(Watermark("gpio", reclosed))
        for now in range(reclosed, reclosed + 20_000, 500):
            box.watermark(Watermark("gpio", now))
            events += box.step(now)
        assert winners(events) == expected, policy


def test_an_edge_delivered_after_its_sources_word_is_counted_and_the_next_contest_waits_for_such_a_one(
        caplog: pytest.LogCaptureFixture) -> None:
    """The source said it delivered everything up to 60 ms, then hands over two edges stamped
    57 ms: it broke its word (a kernel line's IRQ thread that did not run within its 250 µs).
    Both are counted, the burst logged once, and the box waits that source's lateness and more
    for it from then on (the screen says so). So in the audit's contest after it, whose re-close
    the source hands over 7 ms late although it keeps saying it delivered up to now, nothing is
    decided without the re-close and the first presser wins; with no late edge for 3 s the
    allowance halves back."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True)
    box.watermark(Watermark("gpio", 60_000))
    box.step(60_000)
    box.edge(Edge(2, "bell", 1, 57_000), 1)  # two release edges of an idle bell: they decide nothing
    box.edge(Edge(3, "bell", 1, 57_000), 1)
    box.watermark(Watermark("gpio", 61_000))
    with caplog.at_level(logging.INFO, logger="buzzerbox"):
        box.step(61_000)
        box.step(61_500)
    allowance = raised_guard_us(61_000 - 57_000)
    assert (box.late_deliveries, box.worst_delivery_us, box.marks["gpio"].probe_lag_us) == (2, 4_000, allowance)
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(said) == 2 and "4.00 ms after its stamp" in said[0] and said[1].startswith("2 inputs"), said
    assert box.inputs_notice() == _(INPUTS_LATE).format(source="gpio", count=2, delay=f"{allowance / 1e3:g}")
    assert box.sources_until_us(62_000) == 62_000 - allowance  # the next decision waits the allowance
    edges = contest(CONTACT_US)
    for edge in edges[:3]:
        box.edge(edge, 1)
    events: list[GameEvent] = []
    recloses_at = CONTACT_US + 8_000
    for now in range(CONTACT_US, recloses_at + 20_000, 100):
        if now == recloses_at:
            assert winners(events) == []  # nothing decided while the source holds the re-close
            box.edge(edges[3], 1)
        box.watermark(Watermark("gpio", now))  # it keeps saying it delivered up to now
        events += box.step(now)
    assert winners(events) == [FIRST]
    assert box.late_deliveries == 2  # the allowance covered the re-close: no wrong winner, nothing counted
    box.step(recloses_at + 20_000 + GUARD_RELAX_US)
    assert box.marks["gpio"].probe_lag_us == allowance // 2


def test_a_deciding_step_says_a_broken_promise_only_after_its_lamp(caplog: pytest.LogCaptureFixture) -> None:
    """A step of the deciding thread holds its log lines until the lamp is lit (``held_log``): a
    line written to stderr costs the lamp ~0.16 ms. The broken promise's line, the burst's count
    and the relaxed allowance's line are the step's too: none is written before ``flush_log``."""
    box = armed_box()
    box.held_log = []  # as the deciding thread holds them (``Decider``)
    box.follow_source("gpio", watermarks=True)
    box.watermark(Watermark("gpio", 60_000))
    box.step(60_000)
    with caplog.at_level(logging.INFO, logger="buzzerbox"):
        box.edge(Edge(2, "bell", 1, 57_000), 1)
        box.edge(Edge(3, "bell", 1, 57_000), 1)
        box.watermark(Watermark("gpio", 61_000))
        box.step(61_000)
        assert box.late_deliveries == 2 and caplog.records == []  # the lamp is not lit yet
        box.flush_log()
        assert "4.00 ms after its stamp" in caplog.records[0].getMessage()
        caplog.clear()
        for now in [*range(61_500, 61_500 + GUARD_RELAX_US, LOOKS_EVERY_US), 61_500 + GUARD_RELAX_US + 1]:
            box.watermark(Watermark("gpio", now))
            box.step(now)  # the burst ends at the first, the allowance relaxes at the last
        assert caplog.records == []
        box.flush_log()
    said = [r.getMessage() for r in caplog.records]
    assert said[0].startswith("2 inputs") and "on time again" in said[1], said


def test_a_source_whose_asks_time_out_is_waited_its_raised_allowance_not_the_stated_delay() -> None:
    """A board that broke its word (its allowance raised to 7 ms) and then leaves an ask
    unanswered falls back to the stated delay (2 ms): decisions still wait the 7 ms for it,
    or a press it delivers 5 ms late is decided past again."""
    box = armed_box()
    box.follow_source("board", watermarks=True, ask=lambda: True)
    mark = box.marks["board"]
    mark.probe_lag_us = raised_guard_us(4_000)
    mark.broken_at_us = 60_000
    box.watermark(Watermark("board", 61_000))
    mark.timed_out = True  # its last ask went unanswered
    assert mark.fallback
    assert box.sources_until_us(61_000) == 61_000 - mark.probe_lag_us
    mark.probe_lag_us = mark.stated_lag_us  # relaxed back: the stated delay decides
    assert box.sources_until_us(61_000) == 61_000 - box.latency_guard_us


def test_an_input_behind_a_horizon_passed_before_the_allowance_was_raised_is_still_a_broken_promise() -> None:
    """The first broken promise raises the allowance to 7 ms: the horizon now trails 61.5 ms by
    7 ms, but the box had decided up to 61 ms. A second input stamped 59 ms, delivered after
    its source's word passed it, came after a decision went past it: it is counted too."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True)
    box.watermark(Watermark("gpio", 61_000))
    box.step(61_000)
    box.edge(Edge(2, "bell", 1, 57_000), 1)
    box.step(61_500)
    assert box.late_deliveries == 1 and box.horizon_us < 59_000
    box.edge(Edge(3, "bell", 1, 59_000), 1)
    box.step(62_000)
    assert box.late_deliveries == 2


@pytest.mark.parametrize("asks", [False, True])
def test_a_moment_a_pushing_source_has_not_reached_is_woken_by_its_delivery_not_a_timer(asks: bool) -> None:
    """The screen's keyboard pushes its watermarks and cannot be asked: a press confirmed at
    1 ms can be decided only once its next watermark passes that, so the deciding thread does
    not wake at 1 ms to find nothing decidable; it sleeps until that delivery (or the stall
    time). An input board can be asked: it is woken at the moment itself to ask."""
    box = armed_box()
    asked: list[int] = []

    def ask() -> bool:
        asked.append(box.now_us)
        return True
    box.follow_source("board" if asks else "keyboard", watermarks=True, ask=ask if asks else None)
    source = next(iter(box.marks))
    box.watermark(Watermark(source, CONTACT_US))
    settled_press(box, FIRST, CONTACT_US)
    box.step(CONTACT_US + 100)
    confirmed = CONTACT_US + box.debouncer.config.glitch_us
    assert box.next_due_us() == (confirmed if asks else confirmed + STALL_US)
    box.watermark(Watermark(source, confirmed + 400))  # its next delivery wakes the thread
    events = box.step(confirmed + 400)
    assert winners(events) == [FIRST] and asked == []


def looked_through(box: Box, from_us: int, to_us: int, reader: list[int] | None = None) -> None:
    """Steps from ``from_us`` to ``to_us`` as often as a live box's deciding thread looks at its
    sources: a longer pause is the box's own (``DEAF_GAP_US``), not the sources' silence. ``reader``:
    the answer of a reader's probe, which has delivered everything each time (now less its lag)."""
    for now in [*range(from_us, to_us, LOOKS_EVERY_US), to_us]:
        if reader is not None:
            reader[0] = now - READER_LAG_US
        box.step(now)


def settled_press(box: Box, station: int, t_us: int) -> None:
    box.edge(Edge(station, "bell", 0, t_us), 1)


def test_a_stalled_source_holds_every_decision_its_stall_time_and_says_so() -> None:
    """A source that stops saying how far it delivered is waited for: a press
    due during its silence is decided ``STALL_US`` after its moment, never
    sooner (the source may still deliver an earlier one), never later; the
    stall is counted and named, and while the source stays silent the next
    decision waits as long. Once it speaks, decisions follow its word again."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True)
    settled_press(box, FIRST, CONTACT_US)
    box.watermark(Watermark("gpio", CONTACT_US + 10))
    events: list[GameEvent] = []
    for now in range(CONTACT_US, CONTACT_US + STALL_US - 10_000, 5_000):
        events += box.step(now)
    assert not winners(events) and box.stalled_sources() == [] and box.stalls == 0
    decided_at = None
    for now in range(CONTACT_US + STALL_US - 10_000, CONTACT_US + STALL_US + 50_000, 1_000):
        if winners(box.step(now)):
            decided_at = now
            break
    assert decided_at is not None and box.engine.public_view()["winner"] == FIRST
    confirmed = CONTACT_US + max(box.debouncer.config.glitch_us, box.engine.options.settle_us)
    assert 0 <= decided_at - (confirmed + STALL_US) <= 1_000  # its stall time late, to the step
    assert box.stalled_sources() == ["gpio"] and box.stalls == 1
    assert now - box.horizon_us == STALL_US  # still silent: the next decision waits as long
    later = CONTACT_US + STALL_US + 60_000
    box.watermark(Watermark("gpio", later))
    box.step(later)
    assert box.stalled_sources() == [] and box.stalls == 1 and box.horizon_us == later


def test_a_source_that_never_reports_is_stalled_its_stall_time_after_it_was_followed() -> None:
    """A followed source that never says anything (a board that lost its heartbeat
    from the start) has been silent since it was followed: nothing past that
    moment is decided while it may still speak, it is stalled (counted, named)
    ``STALL_US`` after it, not at the first step, and then the other source's
    press is decided ``STALL_US`` late: it cannot hold the game for ever."""
    box = armed_box()
    followed = box.now_us
    box.follow_source("gpio", watermarks=True)
    box.follow_source("board", watermarks=True)
    settled_press(box, FIRST, CONTACT_US)
    events: list[GameEvent] = []
    for now in range(CONTACT_US, followed + STALL_US, 5_000):
        box.watermark(Watermark("gpio", now))
        events += box.step(now)
        assert box.horizon_us <= followed and box.stalled_sources() == [] and box.stalls == 0, now
    assert not winners(events)
    for now in range(followed + STALL_US, CONTACT_US + 2 * STALL_US, 5_000):
        box.watermark(Watermark("gpio", now))
        events += box.step(now)
        if winners(events):
            break
    assert winners(events) == [FIRST]
    assert now >= CONTACT_US + STALL_US
    assert box.stalled_sources() == ["board"] and box.stalls == 1


def test_a_source_followed_later_is_given_its_stall_time_from_then() -> None:
    """A source followed well into the game (``session.connect`` says when) is
    not stalled at once for having said nothing before it was followed."""
    box = armed_box()
    box.follow_source("board", watermarks=True, now_us=10 * STALL_US)
    looked_through(box, 10 * STALL_US, 11 * STALL_US - 1)
    assert box.stalled_sources() == [] and box.horizon_us == 10 * STALL_US
    box.step(11 * STALL_US + 1)
    assert box.stalled_sources() == ["board"] and box.stalls == 1


@pytest.mark.parametrize("paused_us", [STALL_US + 100_000, 3 * STALL_US])
def test_a_pause_of_the_box_s_own_is_not_its_reader_s_silence(paused_us: int) -> None:
    """The deciding process stopped (or paused by the machine) for longer than ``STALL_US``
    while the audit's contest went into its reader's pipe: as it runs again, its reader hands
    over all but the first presser's re-close. The pause was the box's, not the reader's
    silence: the box waits for the reader's word, and the first presser wins. (It called the
    reader stalled, decided past the re-close and crowned the runner-up: the benchmark's game
    with the deciding process stopped for 0.6 s every 2 s.) Said once, in the log."""
    box = armed_box()
    answer = [0]
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: answer[0], probe_lag_us=READER_LAG_US)
    last_look = CONTACT_US - 1_000
    looked_through(box, CONTACT_US - 20_000, last_look, answer)
    *handed, reclose = contest(CONTACT_US)
    for edge in handed:
        box.edge(edge, 1)
    answer[0] = reclose.t_us - 1  # busy handing the re-close over
    resumed = last_look + paused_us
    events = box.step(resumed)
    assert not winners(events) and box.stalled_sources() == [] and box.deaf_pauses == 1
    box.edge(reclose, 1)
    answer[0] = resumed + LOOKS_EVERY_US - READER_LAG_US
    events += box.step(resumed + LOOKS_EVERY_US)
    assert winners(events) == [FIRST] and box.stalls == 0


def test_a_reader_silent_through_the_box_s_pause_is_stalled_its_stall_time_after_it() -> None:
    """A reader that stays silent once the box runs again is stalled ``STALL_US`` after the
    box's pause, not sooner (the pause is not its silence) and not never: the press is then
    decided, and the next pause of the box changes nothing for a stalled source."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: CONTACT_US - 2_000, probe_lag_us=READER_LAG_US)
    looked_through(box, CONTACT_US - 20_000, CONTACT_US - 1_000)
    settled_press(box, FIRST, CONTACT_US)
    resumed = CONTACT_US + 2 * STALL_US
    looked_through(box, resumed, resumed + STALL_US - 2 * LOOKS_EVERY_US)
    assert box.stalled_sources() == [] and box.engine.public_view()["winner"] is None
    events: list[GameEvent] = []
    for now in range(resumed + STALL_US - LOOKS_EVERY_US, resumed + STALL_US + 10 * LOOKS_EVERY_US, LOOKS_EVERY_US):
        events += box.step(now)
    assert box.stalled_sources() == ["gpio"] and winners(events) == [FIRST]
    box.step(now + 2 * STALL_US)
    assert box.stalled_sources() == ["gpio"] and box.stalls == 1 and box.deaf_pauses == 2


def test_after_the_box_s_pause_no_due_moment_is_already_past() -> None:
    """A reader silent through the box's pause and after it: each step's next due moment is
    ahead of it, so the deciding thread sleeps to the stall (never spinning on a moment past)."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: CONTACT_US - 2_000, probe_lag_us=READER_LAG_US)
    looked_through(box, CONTACT_US - 20_000, CONTACT_US - 1_000)
    settled_press(box, FIRST, CONTACT_US)
    now, steps, events = CONTACT_US + STALL_US + 100_000, 0, []
    while not winners(events):
        events = box.step(now)
        due = box.next_due_us()
        assert due is None or due > now, (now, due)
        now = now + LOOKS_EVERY_US if due is None else min(due, now + LOOKS_EVERY_US)
        steps += 1
        assert steps < 2 * STALL_US // LOOKS_EVERY_US
    assert winners(events) == [FIRST] and box.stalled_sources() == ["gpio"]


def test_an_ask_in_flight_through_the_box_s_pause_is_not_unanswered() -> None:
    """The board was asked how far it delivered just before the box paused: the pause is not
    its silence, its answer right after counts, and the screen does not say it leaves asks
    unanswered."""
    box = armed_box()
    box.follow_source("board", watermarks=True, ask=lambda: True)
    looked_through(box, CONTACT_US - 20_000, CONTACT_US - 1_000)
    box.watermark(Watermark("board", CONTACT_US - 1_000))
    settled_press(box, FIRST, CONTACT_US)
    looked_through(box, CONTACT_US, CONTACT_US + 1_500)  # the press is confirmed: the board is asked ...
    box.next_due_us()  # ... as the deciding thread plans its next wake
    mark = box.marks["board"]
    assert mark.asked_us is not None
    resumed = CONTACT_US + 1_500 + STALL_US // 2
    box.step(resumed)
    assert not mark.timed_out and mark.unanswered == 0 and box.inputs_notice() is None
    box.watermark(Watermark("board", resumed))
    assert winners(box.step(resumed + 100)) == [FIRST] and not mark.timed_out


@pytest.mark.parametrize("followed_before_us", [20_000, 2_000_000])
@pytest.mark.parametrize("decided_by", ["refused", "timed out", HORIZON_FIXED_DELAY])
def test_a_source_decided_by_its_stated_delay_is_given_that_delay_after_the_box_s_pause(
        decided_by: str, followed_before_us: int) -> None:
    """A board that does not answer asks (older firmware, or its last ask timed out) is decided
    by its stated delay, as every source is by the fixed-delay guard. The box pauses; in its
    pause the first presser pressed on the board and the runner-up, 1 ms later, on the GPIO
    reader. As it runs again it has the runner-up's press and not yet the board's (its bytes
    still in the serial buffer: the deciding thread runs first). The board's stated delay is
    counted in the box's listening, so its press is still taken, and wins. (The runner-up won:
    the whole pause was decided past at once; and, with the board followed long before, a
    review found it called stalled for the pause.)"""
    box = armed_box(HORIZON_FIXED_DELAY if decided_by == HORIZON_FIXED_DELAY else HORIZON_WATERMARKS)
    answer = [0]
    followed = box.now_us
    contact = followed + followed_before_us
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: answer[0], probe_lag_us=READER_LAG_US)
    box.follow_source("board", watermarks=True, ask=lambda: False)
    board = box.marks["board"]
    if decided_by == "refused":
        board.refused = True  # older firmware: its stated delay decides for it
    else:
        board.timed_out = True  # its last ask went unanswered (as the fixed-delay guard, all the same)
    last_look = contact - 1_000
    looked_through(box, followed, last_look, answer)
    settled_press(box, RUNNER_UP, contact + 1_000)  # the GPIO reader's, taken as the box runs again
    resumed = last_look + 600_000
    answer[0] = resumed - READER_LAG_US
    assert not winners(box.step(resumed)) and box.deaf_pauses == 1 and box.stalled_sources() == []
    assert box.next_due_us() == resumed + box.latency_guard_us  # its delay of listening: not sooner
    settled_press(box, FIRST, contact)  # the board's, read from the serial buffer
    events: list[GameEvent] = []
    for now in range(resumed + 1_000, resumed + 20_000, 1_000):
        answer[0] = now - READER_LAG_US
        events += box.step(now)
    assert winners(events) == [FIRST] and box.stalled_sources() == []


def test_pauses_in_a_row_hold_a_stated_delay_that_long_of_listening_not_longer() -> None:
    """The box pauses 60 ms in every 120 ms (a machine that throttles it) while a source it
    waits 150 ms for (its stated delay) holds a press: the press is decided once the box has
    listened 150 ms since it, not sooner, and not only once the pauses stop."""
    box = armed_box(HORIZON_FIXED_DELAY)
    box.latency_guard_us = 150_000
    box.follow_source("board", watermarks=False)
    window, pause = 60_000, 60_000
    pressed, listened, decided_after, last = None, 0, None, None
    t = CONTACT_US
    for _cycle in range(40):
        for now in range(t, t + window, LOOKS_EVERY_US):
            if pressed is None and now >= CONTACT_US + 30_000:
                pressed = now
                settled_press(box, FIRST, pressed)
            if pressed is not None and last is not None and now - last <= DEAF_GAP_US:
                listened += now - max(last, pressed)  # (the time since the box's last step before a pause is not)
            last = now
            if winners(box.step(now)):
                decided_after = listened
                break
        if decided_after is not None:
            break
        t += window + pause
    glitch = box.debouncer.config.glitch_us
    assert decided_after is not None and box.deaf_pauses >= 2
    assert box.latency_guard_us + glitch <= decided_after <= box.latency_guard_us + glitch + 2 * LOOKS_EVERY_US


def test_a_step_as_late_as_the_pause_bound_is_no_pause_and_pauses_in_a_row_each_count() -> None:
    box = armed_box()
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: now_us - READER_LAG_US, probe_lag_us=READER_LAG_US)
    box.step(CONTACT_US)
    box.step(CONTACT_US + DEAF_GAP_US)
    assert box.deaf_pauses == 0
    box.step(CONTACT_US + 2 * DEAF_GAP_US + 1)
    box.step(CONTACT_US + 3 * DEAF_GAP_US + 2)
    assert box.deaf_pauses == 2


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
def test_the_views_inputs_line_says_the_stall_and_what_it_costs(lang: str) -> None:
    """The screen's inputs line (the view's ``inputs``) names a stalled source
    and the wait every decision takes for it, in the box's language; it goes
    when the source speaks again."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True)
    box.watermark(Watermark("gpio", CONTACT_US))
    box.step(CONTACT_US)
    set_language(lang)
    assert views.view_of(box, CONTACT_US).inputs is None
    looked_through(box, CONTACT_US, CONTACT_US + STALL_US + 1)
    said = views.view_of(box, CONTACT_US + STALL_US + 1).inputs
    assert said == _(INPUTS_STALLED).format(source="gpio", delay="500")
    assert said is not None and "500 ms" in said and (lang == "en") == ("stopped reporting" in said)
    box.watermark(Watermark("gpio", CONTACT_US + STALL_US + 2))
    box.step(CONTACT_US + STALL_US + 2)
    assert views.view_of(box, CONTACT_US + STALL_US + 2).inputs is None


def test_sources_that_speak_let_the_box_decide_at_the_glitch_filters_moment() -> None:
    """With every source's watermark at now, a lone press is decided as soon as
    the glitch filter confirms it and the game's own wait has passed: no stated
    report delay is added."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True)
    settled_press(box, FIRST, CONTACT_US)
    glitch = box.debouncer.config.glitch_us
    decided_at = None
    for now in range(CONTACT_US, CONTACT_US + 10_000, 100):
        box.watermark(Watermark("gpio", now))
        if winners(box.step(now)):
            decided_at = now
            break
    assert decided_at is not None
    wait = max(glitch, box.engine.options.settle_us, 1)  # the quiz's own wait for a tie
    assert decided_at - CONTACT_US <= wait + 100  # the step after the moment: nothing added


def test_forwarded_inputs_do_not_raise_the_guard_of_the_stations() -> None:
    """A key the screen forwards late (a busy screen) says nothing about the
    stations' sources: the stated delay the GPIO decisions wait stays."""
    box = armed_box(HORIZON_FIXED_DELAY)
    clock = [CONTACT_US + 300_000]
    box.measure_report_delay(lambda: clock[0])
    box.edge(Edge(2, "bell", 0, CONTACT_US), 25_000, measured=False)
    box.step(clock[0])
    assert box.latency_guard_us == 2_000 and box.late_deliveries == 0
    box.edge(Edge(3, "bell", 0, CONTACT_US + 1_000), 1)  # a station's own edge that late does raise it
    box.step(clock[0])
    assert box.latency_guard_us > 2_000


@pytest.mark.parametrize("clocked", [True, False], ids=["live clock", "virtual time"])
@pytest.mark.parametrize("paused", [True, False], ids=["box paused", "box running"])
def test_a_press_made_in_the_box_s_own_pause_is_no_late_delivery(paused: bool, clocked: bool) -> None:
    """The fixed-delay guard rises for seconds after an input that reached the box later than
    its stated delay. A press made while the box's own process was paused (0.6 s) waited for
    the box, not for its source: it is on time, and the decisions after the pause do not wait
    longer. The same press as late with the box running is late evidence. (It raised the guard
    to its most, 0.5 s: the decisions of the next seconds waited that long.)"""
    box = armed_box(HORIZON_FIXED_DELAY)
    clock = [0]
    box.measure_report_delay((lambda: clock[0]) if clocked else None)
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: now_us - READER_LAG_US, probe_lag_us=READER_LAG_US)
    last_look = CONTACT_US - 1_000
    looked_through(box, CONTACT_US - 20_000, last_look)
    resumed = last_look + 600_000
    if not paused:
        looked_through(box, last_look, resumed - LOOKS_EVERY_US)
    clock[0] = resumed - box.time_offset_us  # it reaches the inbox as the box runs again
    settled_press(box, FIRST, CONTACT_US)
    box.step(resumed)
    assert box.deaf_pauses == (1 if paused else 0)
    if paused:
        assert box.late_deliveries == 0 and box.latency_guard_us == 2_000
    else:
        assert box.late_deliveries == 1 and box.latency_guard_us == MAX_GUARD_US


def test_a_press_stamped_before_the_box_s_pause_is_as_late_as_the_box_listened_after_it() -> None:
    """A press stamped 20 ms before the box's own pause (0.6 s), taken after it, was 20 ms
    late by the box's listening: the fixed-delay guard covers 20 ms, not the most (0.5 s)."""
    box = armed_box(HORIZON_FIXED_DELAY)
    box.measure_report_delay()
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: now_us - READER_LAG_US, probe_lag_us=READER_LAG_US)
    last_look = CONTACT_US - 1_000
    looked_through(box, CONTACT_US - 40_000, last_look)
    settled_press(box, FIRST, last_look - 20_000)
    box.step(last_look + 600_000)
    assert box.deaf_pauses == 1 and box.late_deliveries == 1 and box.worst_delivery_us == 20_000
    assert box.latency_guard_us == raised_guard_us(20_000)


def test_an_edge_held_through_the_box_s_pause_broke_its_source_s_word_by_the_box_s_listening() -> None:
    """The source said it delivered everything up to 60 ms; the box pauses 0.6 s; as it runs
    again the source hands over an edge stamped 57 ms. It broke its word by the 3 ms the box
    listened before its pause, not by the pause: the allowance the box waits for that source
    covers 3 ms (it was raised to the most, 0.5 s, for the seconds after)."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True)
    box.watermark(Watermark("gpio", 60_000))
    box.step(60_000)
    resumed = 60_000 + 600_000
    box.edge(Edge(2, "bell", 1, 57_000), 1)  # a release edge of an idle bell: it decides nothing
    box.watermark(Watermark("gpio", resumed))
    box.step(resumed)
    assert box.deaf_pauses == 1 and (box.late_deliveries, box.worst_delivery_us) == (1, 3_000)
    assert box.marks["gpio"].probe_lag_us == raised_guard_us(3_000)


def test_the_box_s_own_pause_is_no_wait_for_its_sources() -> None:
    """The game's end says the longest any decision waited for the sources (``Ended``): a
    board decided by its stated delay (2 ms) beside a reader; the box pauses 0.6 s. The
    decisions waited the board's 2 ms of listening, not the pause."""
    box = armed_box()
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: now_us - READER_LAG_US, probe_lag_us=READER_LAG_US)
    box.follow_source("board", watermarks=False)
    last_look = CONTACT_US - 1_000
    looked_through(box, CONTACT_US - 40_000, last_look)
    looked_through(box, last_look + 600_000, last_look + 650_000)
    assert box.deaf_pauses == 1 and box.longest_wait_us == box.latency_guard_us == 2_000


# -- through the real threads: the feed's reader, the GPIO source, the deciding thread --------


class Stall:
    """Holds the edge reader inside one pin's edge, as a reader thread that does
    not get the interpreter holds the edges behind it."""

    def __init__(self, pin: Any, level: int, before: bool = False) -> None:
        self.release = threading.Event()
        self.held = threading.Event()
        drive = pin.drive

        def held_drive(lvl: int, t_us: int) -> None:
            if not before:
                drive(lvl, t_us)
            if lvl == level and not self.held.is_set():
                self.held.set()
                self.release.wait()
            if before:  # held before its pin moves: the edge is not handed over yet
                drive(lvl, t_us)

        pin.drive = held_drive


@pytest.fixture
def fed(tmp_path: Path) -> Iterator[dict[str, Any]]:
    prof = profile_mod.load("header-4")
    factory = mock_factory()
    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    yield {"profile": prof, "factory": factory, "fifo": fifo}


class StalledLine:
    """Holds the kernel line events' reader inside one line's edge of this level
    (after handing it over), as a reader thread that does not get the interpreter."""

    def __init__(self, source: GpioSource, offset: int, level: int) -> None:
        self.release = threading.Event()
        self.held = threading.Event()
        callback = source._stamped[offset]

        def held(t_us: int, lvl: int) -> None:
            callback(t_us, lvl)
            if lvl == level and not self.held.is_set():
                self.held.set()
                self.release.wait()

        source._stamped[offset] = held


#: the edge readers a fed contest goes through: the benchmarks' feed FIFO (mock pins), and
#: the kernel's GPIO line events (a pipe carrying the kernel's records: ``tests/linechip.py``)
READERS = ["feed", "kernel lines"]


@pytest.mark.parametrize("reader_kind", READERS)
@pytest.mark.parametrize("policy,expected", [(HORIZON_WATERMARKS, FIRST), (HORIZON_FIXED_DELAY, RUNNER_UP)])
def test_a_stalled_edge_reader_never_lets_the_runner_up_win(fed: dict[str, Any], policy: str, expected: int,
                                                            reader_kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The audit's contest through an edge reader's thread (the feed's, or the
    kernel line events' the box reads on a Pi), the real GPIO source and the
    deciding thread: the reader stalls right after the first presser's contact
    opens, with the re-close already queued. The deciding thread runs on well
    past the moment a fixed delay decides; with watermarks nothing is decided
    until the reader delivers, and the first presser wins."""
    prof, factory = fed["profile"], fed["factory"]
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    box.horizon_policy = policy
    pins = {v: k for k, v in prof.input_pins().items()}
    chip = StandInChip()
    stall: Stall | StalledLine
    if reader_kind == "feed":
        source = GpioSource(prof, factory)
        reader: Any = Feed(fed["fifo"], factory)
        source.reader = reader
        source.start(box)
    else:
        monkeypatch.setattr(linefd, "line_levels", lambda fd, count: [1] * count)  # every bell at rest
        source = GpioSource(prof, factory, lines=chip.open)
        source.start(box)
        reader = source.reader
    session.connect(box, source, prof)
    if reader_kind == "feed":
        stall = Stall(factory.pin(pins[(FIRST, "bell")]), 1)
        reader.start()
        writer = os.open(fed["fifo"], os.O_WRONLY)
    else:
        stall = StalledLine(source, pins[(FIRST, "bell")], 1)
    box.host("arm", box_now_us())
    decider = OneProcessDecider(box, box_now_us, lambda: None)  # its events kept for this thread
    try:
        t0 = box_now_us()
        if reader_kind == "feed":
            lines = "".join(f"{pins[(e.station, e.input)]} {e.level} {e.t_us}\n" for e in contest(t0))
            os.write(writer, lines.encode())
        else:
            chip.queue(*(chip.edge(pins[(e.station, e.input)], e.level, e.t_us) for e in contest(t0)))
        assert stall.held.wait(HANG_S)
        # only now the deciding thread: it reads what waits itself (``take_waiting``), so started
        # before, it could take the contest first and stall inside its own step; started now, it
        # finds the reader's thread holding the queue mid-delivery, as a stalled reader does
        decider.start()
        decider.wait_past(t0 + 30_000, HANG_S)  # 30 ms: a fixed delay decided long ago
        with box.lock:
            decided_while_stalled = winners(decider.take())
        stall.release.set()
        for wait_until in range(t0 + 40_000, t0 + 60_000_000, 10_000):
            decider.wait_past(wait_until, HANG_S)
            with box.lock:
                decided_while_stalled += winners(decider.take())
            if decided_while_stalled:
                break
        assert decided_while_stalled == [expected]
    finally:
        stall.release.set()
        decider.stop()
        if reader_kind == "feed":
            os.close(writer)
            reader.join(HANG_S)
        source.stop()
        chip.close()


def test_a_source_waited_for_by_its_stated_delay_is_not_followed_by_its_watermarks() -> None:
    """A source followed by its stated delay (``sends_watermarks`` False): the
    watermarks it sends anyway change nothing."""
    box = armed_box()
    box.follow_source("board", watermarks=False)
    box.watermark(Watermark("board", CONTACT_US))
    box.step(CONTACT_US + 10_000)
    assert box.decided_by() == {"board": "delay"}
    assert box.sources_until_us(CONTACT_US + 10_000) == CONTACT_US + 10_000 - box.latency_guard_us


@pytest.mark.parametrize("policy", [HORIZON_WATERMARKS, HORIZON_FIXED_DELAY])
def test_a_source_holding_an_edge_is_told_by_its_probe_alone(policy: str) -> None:
    """The deciding thread's spin asks whether a source holds an edge it has
    not handed over (``Box.sources_holding``), to give its reader the
    interpreter: the probe's "not now" says so, a stalled source and the
    fixed-delay guard (which waits a delay, not for deliveries) do not, and
    asking changes nothing the horizon is found by."""
    box = armed_box(policy)
    answer: list[int | None] = [None]
    box.follow_source("gpio", watermarks=True, probe=lambda now_us: answer[0], probe_lag_us=100)
    mark = box.marks["gpio"]
    assert box.sources_holding() is (policy == HORIZON_WATERMARKS)
    assert mark.mark_us is None and not mark.stalled
    answer[0] = 5_000
    assert not box.sources_holding()
    answer[0] = None
    mark.stalled = True
    assert not box.sources_holding()


@pytest.mark.parametrize("behind_us,decided_while_held", [(3_000, True), (500, False)])
def test_a_reader_handing_over_a_later_edge_does_not_hold_a_decision_before_it(
        fed: dict[str, Any], behind_us: int, decided_while_held: bool) -> None:
    """The first presser's lone press is confirmed 1 ms after its contact (the glitch
    filter); the reader is stuck handing over the runner-up's edge. Stamped after
    that moment, it holds nothing the decision waits for: the box names the first
    presser while the reader still holds it. Stamped before, the box waits for it."""
    prof, factory = fed["profile"], fed["factory"]
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    source = GpioSource(prof, factory)
    reader = Feed(fed["fifo"], factory)
    source.start(box)
    source.adopt(reader)
    session.connect(box, source, prof)
    pins = {v: k for k, v in prof.input_pins().items()}
    stall = Stall(factory.pin(pins[(RUNNER_UP, "bell")]), 0, before=True)
    reader.start()
    writer = os.open(fed["fifo"], os.O_WRONLY)
    try:
        t0 = box_now_us()
        box.host("arm", t0 - 10_000)
        box.step(t0)  # the reader idle: it has delivered up to now less its lag
        lines = f"{pins[(FIRST, 'bell')]} 0 {t0}\n{pins[(RUNNER_UP, 'bell')]} 0 {t0 + behind_us}\n"
        os.write(writer, lines.encode())
        assert stall.held.wait(HANG_S)
        events: list[GameEvent] = []
        for now in range(t0 + 500, t0 + 20_000, 500):  # long past the confirmation, the reader stuck
            events += box.step(now)
        assert winners(events) == ([FIRST] if decided_while_held else [])
        box.next_decision_due_us()  # as the deciding thread asks before it spins
        assert box.sources_holding() is not decided_while_held  # the spin yields the interpreter only then
        stall.release.set()
        for now in range(t0 + 20_000, t0 + 60_000_000, 10_000):
            box.arrived.clear()
            if reader.delivered_until_us(now) is None:
                assert box.arrived.wait(HANG_S)  # the reader's hand-over done
            events += box.step(now)
            if winners(events):
                break
        assert winners(events) == [FIRST]
    finally:
        stall.release.set()
        os.close(writer)
        reader.join(HANG_S)
        source.stop()


class Unscheduled(Feed):
    """The feed's reader whose thread has not had its turn yet: started, it reads nothing
    until ``turn`` is set (the machine gave the interpreter, or a core, to someone else)."""

    def __init__(self, path: Path, factory: Any) -> None:
        super().__init__(path, factory)
        self.turn = threading.Event()

    def run(self) -> None:
        self.turn.wait(HANG_S)
        super().run()


def test_an_edge_written_before_a_step_is_taken_in_that_step_without_the_readers_thread(
        fed: dict[str, Any]) -> None:
    """The feed's writer queues the first presser's contact, then the runner-up's, while the
    reader's thread waits for its turn: each step takes what was written before it (the box
    reads the pipe itself, under the reader's lock), so the first presser is named at its
    confirmation plus the reader's lag, not after that thread's turn; and the deciding thread's
    spin, asking whether a source holds an edge, takes it too instead of waiting for that thread."""
    prof, factory = fed["profile"], fed["factory"]
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    source = GpioSource(prof, factory)
    reader = Unscheduled(fed["fifo"], factory)
    source.start(box)
    source.adopt(reader)
    session.connect(box, source, prof)
    pins = {v: k for k, v in prof.input_pins().items()}
    reader.start()
    writer = os.open(fed["fifo"], os.O_WRONLY)
    try:
        t0 = box_now_us()
        box.host("arm", t0 - 10_000)
        box.step(t0)
        os.write(writer, f"{pins[(FIRST, 'bell')]} 0 {t0}\n".encode())
        box.step(t0 + 100)
        assert box.debouncer.state(FIRST, "bell").t0_us == t0  # taken in the step after it was written
        box.next_decision_due_us()  # as the deciding thread asks before it spins to the confirmation
        box.arrived.clear()
        os.write(writer, f"{pins[(RUNNER_UP, 'bell')]} 0 {t0 + 400}\n".encode())
        assert not box.sources_holding()  # the spin took the runner-up's edge: nothing left to wait for
        assert box.arrived.is_set()  # ... and wakes the step at once
        events = box.step(t0 + box.debouncer.config.glitch_us + reader.lag_us)
        assert winners(events) == [FIRST]
        assert box.debouncer.state(RUNNER_UP, "bell").t0_us == t0 + 400
        assert reader.edges == 2
    finally:
        reader.turn.set()
        os.close(writer)
        reader.join(HANG_S)
        source.stop()


@pytest.mark.parametrize("clocked", [True, False], ids=["arrivals-clocked", "judged-when-taken"])
def test_a_broken_promise_beside_a_source_of_stated_delay_is_one_late_input(clocked: bool) -> None:
    """The GPIO reader says it delivered past 61 ms, then an edge stamped 57 ms comes: one input late,
    though two measures look at it (the stated delay's guard, for the board beside it that has no
    watermark, and the reader's broken promise). The count the screen and the game's end say is of
    inputs: it was two for this one."""
    box = armed_box()
    now = [0]
    if clocked:
        box.measure_report_delay(lambda: now[0] - box.time_offset_us)
    else:
        box.measure_report_delay()
    box.follow_source("gpio", watermarks=True)
    box.follow_source("board", watermarks=False)
    box.watermark(Watermark("gpio", 61_000))
    now[0] = 61_000
    box.step(61_000)
    now[0] = 61_500
    box.edge(Edge(2, "bell", 1, 57_000), 1)
    box.step(61_500)
    assert box.late_deliveries == 1
    assert box.worst_delivery_us == 4_500
