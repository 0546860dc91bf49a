"""The winner's lamp at a decision's moment, before the step (``Box.armed_lamp``,
``Box.fire_armed``, the deciding thread's spin): while the thread waits for the
moment a declared race is decided, it finds on copies what the step then would
light; at the moment it asks the sources whether anything came and lights it,
and the step that follows decides the same and finds it lit. Arming changes
no decision, only how soon the lamp goes on: seeded contests in virtual time
are decided alike with and without it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from controller.apps import benchkit as bk
from controller.box import profile as profile_mod
from controller.box.deciding import Decider, LampPath
from controller.box.press import Edge, Watermark
from controller.box.runtime import Box
from games import registry
from games.base import Action, GameSettings

#: the probe's allowance: an idle reader asked at ``now`` says it delivered up to ``now - LAG_US``
LAG_US = 100
PROFILE = profile_mod.load("header-4")


class Lamps:
    """``Box.first_lamp``: each lamp lit, stamped with the box's time then."""

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.lit: list[tuple[int, str, int]] = []

    def __call__(self, station: int, status: str) -> int:
        self.lit.append((station, status, self.clock()))
        return self.lit[-1][2]


class Clock:
    def __init__(self) -> None:
        self.now_us = 0

    def __call__(self) -> int:
        return self.now_us


def quiz_box(clock: Clock, players: int = 4) -> tuple[Box, Lamps]:
    box = Box(registry.get("quiz"), GameSettings(players, 1, {}), ["bell"] * players, debounce=PROFILE.debounce)
    box.follow_source("gpio", watermarks=False, probe=lambda now: now - LAG_US, probe_lag_us=LAG_US, now_us=0)
    lamps = Lamps(clock)
    box.first_lamp = lamps
    box.debouncer.start_all({(s, "bell"): 1 for s in range(players)}, 0)
    return box, lamps


def play(contests: list[bk.Contest], precision_us: int, armed: bool) -> tuple[Box, Lamps, int, int]:
    """Each contest stepped as the deciding thread steps: at every edge and every moment due;
    ``armed``: at a decision's moment the armed lamp first, as the spin lights it, and the edges
    that come before that moment wait in the inbox while they cannot change it (the thread's
    wait goes on: ``Decider._armed_through``); one that can is stepped at once. Returns the
    box, its lamps, how many were lit armed, and how many of those after edges waited beside them."""
    clock = Clock()
    box, lamps = quiz_box(clock)
    fired = absorbed = 0
    start = 100_000
    for contest in contests:
        box.host("arm", start - 50_000)
        edges = [(start + t, s, level) for t, s, level in contest.edges]
        i, t = 0, edges[0][0]
        while t < edges[-1][0] + 40_000:
            due = box.next_decision_due_us()  # the moment the thread waits for, as the last step left the box
            lamp = None
            if armed and box.drained() and due is not None and due == box.next_due_us():
                lamp = box.armed_lamp(due)
            if lamp is not None:
                assert lamp[2] >= t
                beside, took = True, 0
                while beside and i < len(edges) and edges[i][0] <= lamp[2]:  # delivered while it waits
                    t = edges[i][0]
                    box.edge(Edge(edges[i][1], "bell", edges[i][2], t), precision_us)
                    i, took = i + 1, took + 1
                    beside = box.beside_armed(lamp)
                if beside:  # nothing came that can change it: the lamp at its moment, the step after it
                    t = clock.now_us = lamp[2]
                    fired += box.fire_armed(lamp, t)
                    absorbed += took > 0
            while i < len(edges) and edges[i][0] <= t:
                box.edge(Edge(edges[i][1], "bell", edges[i][2], edges[i][0]), precision_us)
                i += 1
            clock.now_us = t
            box.first_lit = None
            box.held_records = []
            box.step(t)
            if box.armed_lit is not None:  # the step found the lamp lit, and agreed (else it raised)
                assert box.first_lit == (box.armed_lit[0], box.armed_lit[2])
                box.armed_lit = None
            box.flush_records()
            due = box.next_due_us()
            later = [x for x in (due, edges[i][0] if i < len(edges) else None) if x is not None and x > t]
            t = min(later) if later else t + 5_000
        box.host("correct", edges[-1][0] + 45_000)
        start = edges[-1][0] + 100_000
    return box, lamps, fired, absorbed


@pytest.mark.parametrize("precision_us", [1, bk.tie_wait_us(PROFILE)], ids=["a pin's 1 µs", "the header's tie window"])
def test_armed_lamps_decide_as_the_steps_alone_do(precision_us: int) -> None:
    contests = bk.make_contests(random.Random(f"armed-{precision_us}"), 120, 4)
    alone, alone_lamps, _none, _no = play(contests, precision_us, armed=False)
    box, lamps, fired, absorbed = play(contests, precision_us, armed=True)
    assert [(e.kind, e.t_us, e.player) for e in box.event_log] == [(e.kind, e.t_us, e.player) for e in alone.event_log]
    assert [lit[:2] for lit in lamps.lit] == [lit[:2] for lit in alone_lamps.lit]  # the same winners lit
    assert box.first_press_misses == 0
    assert fired >= 100, fired  # (most races are lit armed: a contest's own edges come after its moment)
    assert absorbed >= 40, absorbed  # (a runner-up's bounces before the moment wait beside the lamp)
    # an armed lamp goes on at the decision's moment: never later than the step alone lit it
    assert all(a[2] <= b[2] for a, b in zip(lamps.lit, alone_lamps.lit, strict=True))


def armed_race(precision_us: int = 1) -> tuple[Box, Lamps, Clock, tuple[int, str, int]]:
    """Station 2 pressed at 10 ms (no bounce), station 0 at 10.5 ms: armed before station 2's moment."""
    clock = Clock()
    box, lamps = quiz_box(clock)
    box.host("arm", 1_000)
    box.edge(Edge(2, "bell", 0, 10_000), precision_us)
    box.edge(Edge(0, "bell", 0, 10_500), precision_us)
    clock.now_us = 10_600
    box.step(clock.now_us)
    lamp = box.armed_lamp(box.next_decision_due_us() or 0)
    assert lamp is not None and lamp[:2] == (2, "first") and lamp[2] == 10_000 + 1_000 + LAG_US
    return box, lamps, clock, lamp


def test_a_bounce_of_the_winner_after_arming_is_left_to_the_step() -> None:
    box, lamps, clock, lamp = armed_race()
    box.edge(Edge(2, "bell", 1, 10_900), 1)  # its contact opens again before the glitch filter confirmed it
    clock.now_us = lamp[2]
    assert not box.fire_armed(lamp, clock.now_us) and lamps.lit == []
    box.step(clock.now_us)
    assert box.first_lit is None and lamps.lit == []  # not confirmed: nothing is decided yet


@pytest.mark.parametrize(("station", "t_us", "fires"), [(1, 10_002, True), (1, 9_990, False), (0, 10_800, True)],
                         ids=["another station after the race's moment", "another station before the winner",
                              "a runner-up's bounce"])
def test_a_delivery_after_arming_fires_only_if_it_cannot_change_the_lamp(station: int, t_us: int, fires: bool) -> None:
    box, lamps, clock, lamp = armed_race()
    box.edge(Edge(station, "bell", 0 if station == 1 else 1, t_us), 1)
    clock.now_us = lamp[2]
    assert box.fire_armed(lamp, clock.now_us) is fires
    box.first_lit = None
    box.step(clock.now_us)
    winner = 1 if t_us < 10_000 else 2
    if fires:
        assert lamps.lit == [(2, "first", lamp[2])] and box.first_lit == (2, lamp[2])
    else:  # the step decides: station 1's press, earlier, is still being confirmed
        assert lamps.lit == [] and box.first_lit is None and winner == 1


class Spun:
    """``box.arrived`` for the spin: nothing is delivered."""

    def is_set(self) -> bool:
        return False

    def wait(self, timeout: float) -> bool:
        return False

    def clear(self) -> None:
        pass

    def set(self) -> None:
        pass


class Ticking(Clock):
    def __call__(self) -> int:
        self.now_us += 10
        return self.now_us


def waiting_race() -> tuple[Box, Lamps, Ticking, Decider, int]:
    """Station 2 pressed at 10 ms; the deciding thread stepped at 10.6 ms and waits for the moment."""
    clock = Ticking()
    box, lamps = quiz_box(clock)
    box.arrived = Spun()  # type: ignore[assignment]
    box.host("arm", 1_000)
    box.edge(Edge(2, "bell", 0, 10_000), 1)
    decider = Decider(box, clock, lambda: None, after=lambda events, t, stirred=True: None, rehearse=lambda: None)
    clock.now_us = 10_600
    decider.decide(clock(), None)
    due = box.next_decision_due_us()
    assert due == 10_000 + 1_000 + LAG_US
    return box, lamps, clock, decider, due


def spun_race() -> tuple[Box, Lamps, Ticking, Decider, int]:
    """Station 2 pressed at 10 ms; the deciding thread spun to its decision's moment, armed."""
    box, lamps, clock, decider, due = waiting_race()
    clock.now_us = due - 200  # the timed wait ended before the moment: the spin
    assert decider._spin_until(due) is False
    assert lamps.lit == []  # armed: the step lights it, first
    return box, lamps, clock, decider, due


def test_the_deciding_thread_lights_the_armed_lamp_first_and_the_step_finds_it_lit() -> None:
    box, lamps, clock, decider, due = spun_race()
    took: list[int] = []
    take = box.take
    box.take = lambda *a, **k: (took.append(clock.now_us), take(*a, **k))[1]  # type: ignore[method-assign]
    decider.decide(clock(), 0, False)
    assert len(lamps.lit) == 1 and lamps.lit[0][:2] == (2, "first") and due <= lamps.lit[0][2] <= due + 40
    assert lamps.lit[0][2] <= took[0]  # before the step took anything
    assert decider.decisions[-1][1] == lamps.lit[0][2]  # the decision's lamp is the armed one, lit once
    assert decider.detail[-1]["armed"] == 1 and box.first_press_misses == 0
    assert [e.player for e in box.event_log if e.kind == "winner"] == [2]


def test_a_host_key_during_the_spin_leaves_the_lamp_to_the_step() -> None:
    """A host's key (here: the pause card) runs before the step: the lamp the spin armed is not
    what that step decides, so it is not lit (a review found it lit, then put right)."""
    box, lamps, clock, decider, due = spun_race()
    decider.submit(lambda: box.host_button("blank", clock.now_us))
    decider.decide(clock(), 0, True)
    assert lamps.lit == [] and box.host_paused and box.first_press_misses == 0


def test_a_first_watermark_of_a_source_not_followed_yet_is_left_to_the_step() -> None:
    """The screen's keyboard is followed from its first watermark, which can hold the horizon
    back: delivered after arming, the lamp is the step's to light (or not)."""
    box, lamps, clock, lamp = armed_race()
    box.watermark(Watermark("keyboard", 9_000))
    clock.now_us = lamp[2]
    assert not box.fire_armed(lamp, clock.now_us)
    box.step(clock.now_us)
    assert box.first_lit is None and lamps.lit == []  # the keyboard has not said it delivered that far


def test_what_comes_after_the_armed_lamp_is_the_next_steps() -> None:
    """Between the lamp and its step's drain another thread may deliver (a phone's move, an
    earlier-stamped edge): that step takes only what was looked at when the lamp went on, as a
    step at that moment would have, and asks the sources nothing more; the next step takes it.
    (Phones say nothing of how far they delivered: such a move is late whenever it comes.)"""
    box, lamps, clock, lamp = armed_race()
    clock.now_us = lamp[2]
    assert box.fire_armed(lamp, clock.now_us)
    box.deliver_action(Action("buzz", 9_990, 1))  # a phone's, stamped before the winner: taken, player 1 won
    box.first_lit = None
    box.step(clock.now_us)
    assert box.first_lit == (2, lamp[2]) and box.armed_lit is not None and box.first_press_misses == 0
    assert not box.drained()  # left for the next step
    box.armed_lit = None
    clock.now_us += 50
    box.step(clock.now_us)
    assert box.drained()


def test_a_runner_ups_edge_in_the_wait_leaves_the_lamp_armed_for_its_moment() -> None:
    """A delivery that wakes the wait for a decision's moment and cannot change its lamp is
    left in the inbox: no step before the moment (one ran into it and left no time to arm),
    the lamp armed then lit first, and the step at the moment takes the edge."""
    box, lamps, clock, decider, due = waiting_race()
    box.edge(Edge(1, "bell", 0, 10_700), 1)  # another station, after the race's moment
    ahead = decider._armed_through(due)
    assert ahead is not None and ahead[:2] == (2, "first") and not box.drained()
    clock.now_us = due - 200
    assert decider._spin_until(due) is False
    decider.decide(clock(), 0, True)
    assert lamps.lit[0][:2] == (2, "first") and decider.detail[-1]["path"] == LampPath.ARMED
    assert box.drained() and box.first_press_misses == 0
    assert [e.player for e in box.event_log if e.kind == "winner"] == [2]


@pytest.mark.parametrize(("station", "t_us", "level"), [(2, 10_700, 1), (1, 9_990, 0)],
                         ids=["the winner's own bounce", "another station before the winner"])
def test_a_delivery_in_the_wait_that_can_change_the_lamp_is_stepped_at_once(station: int, t_us: int,
                                                                            level: int) -> None:
    box, lamps, clock, decider, due = waiting_race()
    box.edge(Edge(station, "bell", level, t_us), 1)
    assert decider._armed_through(due) is None and decider._ahead is None
    decider.decide(clock(), None)
    assert lamps.lit == [] and box.drained()  # the step took it: nobody is confirmed yet


class HandedOver(Spun):
    """``box.arrived`` while a reader holds an edge: the spin's wait for it gets it delivered."""

    def __init__(self, box: Box, edge: Edge) -> None:
        self.box, self.edge, self.handed = box, edge, False

    def wait(self, timeout: float) -> bool:
        self.box.edge(self.edge, 1)
        self.handed = True
        return True


@pytest.mark.parametrize(("edge", "armed"), [(Edge(1, "bell", 0, 10_700), True), (Edge(2, "bell", 1, 10_700), False)],
                         ids=["a runner-up's edge", "the winner's own bounce"])
def test_an_edge_a_reader_hands_over_during_the_spin_disarms_only_if_it_can_change_the_lamp(edge: Edge,
                                                                                           armed: bool) -> None:
    box, lamps, clock, decider, due = waiting_race()
    arrived = HandedOver(box, edge)
    box.arrived = arrived  # type: ignore[assignment]
    box.sources_holding = lambda: not arrived.handed  # type: ignore[method-assign]
    clock.now_us = due - 200
    assert decider._spin_until(due) is True  # something was delivered: the step takes it
    assert (decider._armed is not None) is armed  # the bounce: the spin ended at the handover, disarmed
    assert (decider._path == LampPath.HANDOVER) is not armed
    decider.decide(clock(), 0, True)
    assert arrived.handed and box.drained() and box.first_press_misses == 0
    if armed:  # the spin went on to the moment, armed, and lit it first
        assert lamps.lit[0][:2] == (2, "first") and lamps.lit[0][2] >= due
        assert decider.detail[-1]["path"] == LampPath.ARMED
    else:  # the winner's line opened again: nothing is confirmed, nothing lit
        assert lamps.lit == []
