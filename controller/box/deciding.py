"""Deciding, as it happens: the thread that steps a live box and lights its
lamps at once, whoever draws the frames.

It runs alone in the deciding process (``controller/box/process.py``,
docs/processes.md), where what it decided is published to the viewers
after the lamp is lit.

Nothing here draws or serves: no pygame, no aiohttp.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from controller.box import stepprofile
from controller.box.runtime import ArmedLamp, Box
from games.base import GameEvent
from games.i18n import N_, _

log = logging.getLogger("buzzerbox")

#: the deciding thread sleeps at most this long between steps when nothing is
#: due: a bound on a missed wake-up, cheap when idle (a step is ~10 µs)
DECIDER_MAX_SLEEP_S = 0.005
#: a timed wait for a moment someone waits on (a press confirmed, a held input or an engine
#: deadline passing the horizon: ``Box.next_decision_due_us``) ends this long before it, and the
#: thread spins the rest: a timed wait on a loaded machine wakes ~50 µs late at p50 (the
#: benchmark's floor), a spin is there at the moment. It holds the interpreter (released at every
#: turn, a thread busy drawing took it for a whole switch interval, 5 ms), so the process's other
#: threads wait at most this long, and an edge read meanwhile is handed over at the step (its
#: reader is busy or its pipe not empty: the step does not decide past it). 300 µs, not 150: the
#: spin first finds the lamp the moment will light (``Box.armed_lamp``, ~50 µs), and a wake later
#: than the lead (>100 µs: a tenth of the benchmark's wakes under load) lost the armed lamp
DECIDER_WAKE_LEAD_US = 300
#: a turn of that spin takes well under 1 µs: a clock that does not move (a test's) ends it after this many
DECIDER_SPIN_TURNS_MAX = 20_000
#: the spin asks every this many turns, and at the moment, whether a source holds an edge it has not
#: handed over that the decision waits for (``Box.sources_holding``). Bytes waiting in a reader's pipe
#: are read and handed over by that question itself, on this thread (``PipeReader.take_waiting``: no
#: wait for the reader thread's turn); what is left is a reader thread busy handing a chunk over (bytes
#: not yet split, or a report stamped before the decision's moment; one stamped after it is decided
#: past while the reader still holds it: ``PipeReader``). Then the thread waits for that delivery
#: instead: the spin held the interpreter the reader needed, and the step at the moment found the
#: source busy, decided nothing, and the lamp waited for the reader's turn and another step (a third
#: of the benchmark's contests, ~0.2 ms each, before the spin asked)
DECIDER_SPIN_LOOK_EVERY = 16
#: ... at most this long (a reader that delivers nothing in that time is waited for by the step's own
#: wait: ``Box.next_due_us`` past a moment the sources have not delivered through)
DECIDER_HANDOVER_S = 0.002
#: a step that decided nothing hands its views on (``after``) only when no decision is due within this:
#: building and sending them took ~0.1-0.3 ms of the deciding thread, which a contest's bounces kept busy
#: until after the moment the winner's lamp was due (the benchmark's tail); what the viewers would
#: have seen goes out with the decision's step (the screen draws every ~16 ms anyway)
VIEW_DEFERRED_US = 3_000
#: ... but a view is not put off for longer than this (a line chattering for seconds moves the decision on)
VIEW_DEFERRED_MAX_US = 20_000
#: the spin reads the lamp's path over first (``Decider.rehearse``) only with at least this long left:
#: with less (a step that ran into the moment) the reads would only make the lamp later. The lamp is
#: armed even then, the moment passed or not: arming (~50 µs) and lighting it cost less than the step
#: that lights it otherwise (~0.19 ms from the wake; the benchmark's "squeezed" lamps, ~6 %)
REHEARSE_LEFT_US = 50
#: the wait for an armed lamp parks the edge readers (``Decider._park_readers``) only with at least this
#: long left before its spin: a parked reader wakes once to see it, which must fall in this thread's sleep
PARK_LEFT_US = 200
#: a live run keeps the newest this many events, decisions and frame times
#: (people play for hours; the journal keeps every input, and a window is
#: all the benchmark and the summary read): memory stays bounded
LIVE_WINDOW = 1_024
#: the real-time priority the deciding process asks for (1-99; the kiosk unit
#: grants it): above the screen, the web server and the desktop, below the
#: kernel's own threads (50)
DECIDER_RT_PRIORITY = 20
#: the nice level asked for when real-time scheduling is not allowed
DECIDER_NICE = -10

#: what may run on the deciding thread between steps: returns the events it decided
Command = Callable[[], list[GameEvent]]


class LampPath(IntEnum):
    """How the step that lit a lamp came to run (``Decider.detail``'s ``path``): the benchmark
    splits the lamp's overhead by it, to say which way the tail goes."""

    DELIVERY = 0  #: a delivery or a command woke the thread before its timed wait ended
    TIMED = 1  #: the timed wait ended, for a moment nobody spins to (a quiet step's next due)
    UNARMED = 2  #: the spin found no lamp the moment would light (``Box.armed_lamp``)
    DISARMED = 3  #: a delivery during the spin could change the armed lamp
    HANDOVER = 4  #: a source held an edge not handed over: the spin waited for its reader
    REFUSED = 5  #: armed, but at the moment a source had not said it delivered that far
    ARMED = 6  #: lit at the decision's moment, before the step (``Box.fire_armed``)


class Decider(threading.Thread):
    """Decides for a live box, independently of the frames: wakes on every
    delivery (``box.arrived``) and at the next moment something is due, steps
    the box and lights the lamps at once (``light``: returns when the first
    lamp went on, or None for "now"), then hands what was decided on
    (``after``: the deciding process publishes the view there).
    Whoever touches the box holds ``box.lock``."""

    def __init__(self, box: Box, now: Callable[[], int], light: Callable[[], int | None],
                 after: Callable[[list[GameEvent], int, bool], None] | None = None,
                 rehearse: Callable[[], object] | None = None) -> None:
        super().__init__(name="buzzerbox-decider", daemon=True)
        self.box = box
        #: read-only calls on the lamp's path (the statuses, the lamps' plan), made once the timed wait
        #: for a decision's moment ends and before its spin: the step that decides runs on warm caches
        #: (a step after a 3 ms sleep took ~3x a warm one's time)
        self.rehearse = rehearse
        box.held_log = []  # the decided events' log lines wait for the lamp (``Box.flush_log``)
        self.now = now
        self.light = light
        self.after = after
        #: per decision: [decided, lamp lit, first frame flipped after] in game µs
        self.decisions: deque[list[int | None]] = deque(maxlen=LIVE_WINDOW)
        #: per decision, where its time went (see ``RunResult.decision_detail``)
        self.detail: deque[dict[str, int | None]] = deque(maxlen=LIVE_WINDOW)
        self.error: BaseException | None = None
        self._stopping = threading.Event()
        self._commands: deque[Command] = deque()
        self._due: int | None = None  # when the box was next due after the last step
        #: ... and when next for something a player waits on (``Box.next_decision_due_us``)
        self._decision_due: int | None = None
        #: a quiet step's ``after`` put off (``VIEW_DEFERRED_US``): since when, and whether one was stirred
        self._deferred_since: int | None = None
        self._deferred_stirred = False
        #: the lamp the spin armed (``Box.armed_lamp``) and spun to the moment of: lit by the next step first
        self._armed: ArmedLamp | None = None
        #: ... armed already in the wait before the spin, when a delivery woke it (``_armed_through``)
        self._ahead: ArmedLamp | None = None
        #: the moment the last spin aimed at (a decision armed a little later than the one due)
        self._spun_to: int | None = None
        #: how the coming step came to run (recorded with its lamp)
        self._path = LampPath.DELIVERY
        #: the box's edge readers are parked (``_park_readers``)
        self._readers_parked = False
        #: the decision's moment ``Box.armed_lamp`` found no lamp for, on the box as the last step left it
        self._unarmed_for: int | None = None

    def submit(self, command: Command) -> None:
        """Run ``command`` on the deciding thread before its next step (a host
        key or a flip time from a viewer), and wake it."""
        self._commands.append(command)
        self.box.arrived.set()

    def run(self) -> None:
        box = self.box
        timeout = 0.0
        planned: int | None = None  # the due moment the last wait aimed at (box time)
        spin = False  # the wait ends DECIDER_WAKE_LEAD_US before ``planned``: the rest is spun
        absorbed = False  # deliveries that cannot change the armed lamp waited for the step at its moment
        park_at: int | None = None  # the wait for an armed lamp parks the readers at this moment (``_wait_armed``)
        profile = stepprofile.install(self)  # the benchmark's per-stage stamps (nothing when not asked)
        try:
            while not self._stopping.is_set():
                delivered = box.arrived.wait(timeout)
                if delivered and spin and planned is not None and (ahead := self._armed_through(planned)):
                    absorbed, planned = True, ahead.at_us
                    timeout, park_at = self._wait_armed(ahead)
                    continue
                if not delivered and park_at is not None and self._ahead is not None:
                    timeout, park_at = self._wait_armed(self._ahead)  # the readers' word covers the race now
                    continue
                self._path = LampPath.DELIVERY if delivered or planned is None else LampPath.TIMED
                if spin and not delivered and planned is not None:
                    delivered = self._spin_until(planned)
                    planned = self._spun_to
                box.arrived.clear()
                woke = self.now()
                late = None if delivered or planned is None else woke - planned
                _t, due = self.decide(woke, late, delivered or absorbed)
                absorbed = False
                # the wait is counted from now, not from the step's start: the step, the lamp and the
                # publish took their time, and a wait counted from before them wakes late by as much
                now = self.now()
                planned = due if due is not None and due - now <= DECIDER_MAX_SLEEP_S * 1e6 else None
                spin = planned is not None and planned == self._decision_due
                if spin and planned is not None and (ahead := self._armed_ahead(planned)):
                    planned = ahead.at_us  # (the race's own moment, when a little later)
                    timeout, park_at = self._wait_armed(ahead)
                    continue
                self._park_readers(False)
                park_at = None
                lead = DECIDER_WAKE_LEAD_US if spin else 0
                timeout = (DECIDER_MAX_SLEEP_S if due is None
                           else min(DECIDER_MAX_SLEEP_S, max(0.0, (due - lead - now) / 1e6)))
        except BaseException as exc:  # whoever runs the game raises it: a game never runs on undecided
            self.error = exc
        finally:
            self._park_readers(False)
            if profile is not None:
                profile.dump()

    def _armed_ahead(self, due_us: int) -> ArmedLamp | None:
        """The lamp a decision's moment (``due_us``) lights, armed as the wait for it begins
        (``Box.armed_lamp``; None: nothing armed, or the box is left to the step): the edge
        readers are parked for the wait (``_wait_armed``). None is remembered for that moment
        until the next step (``_unarmed_for``): the box is the same, and so is the answer."""
        if self._ahead is None and self.rehearse is not None and self._unarmed_for != due_us:
            with self.box.lock:
                if self.box.may_stay_armed():
                    self._ahead = self.box.armed_lamp(due_us)
                    self._unarmed_for = due_us if self._ahead is None else None
        return self._ahead

    def _wait_armed(self, armed: ArmedLamp) -> tuple[float, int | None]:
        """The wait for ``armed``'s moment: how long (seconds, to the spin), and the moment the
        readers are to be parked (None: parked now, or not at all). Parked only once every reader's
        word covers the race (its stamp and tie window, ``race_us``, plus the reader's allowance): an
        edge stamped before it may still reach a pipe until then, and one that can change the lamp
        is taken at once; and only with ``PARK_LEFT_US`` left before the spin, so the reader's one
        wake to see it falls in this thread's sleep, not in its spin."""
        now = self.now()
        spin_at = armed.at_us - DECIDER_WAKE_LEAD_US
        park_from = armed.race_us + max((m.probe_lag_us for m in self.box.marks.values() if m.probe is not None),
                                        default=0)
        if spin_at - max(now, park_from) < PARK_LEFT_US:
            self._park_readers(False)  # too little left to be worth a park
            return max(0.0, (spin_at - now) / 1e6), None
        if now < park_from:
            self._park_readers(False)
            return (park_from - now) / 1e6, park_from
        self._park_readers(True)
        return (spin_at - now) / 1e6, None

    def _park_readers(self, parked: bool) -> None:
        """Park the box's edge readers while the thread waits for an armed lamp, and let them go on
        once it does not: parked, a reader does not wake for an edge, so a runner-up's bounce neither
        wakes this thread nor takes the interpreter in the middle of its spin (the reader took it at the
        switch interval, and the lamp waited for its turn): it waits in the pipe for this thread's own
        reads (``Box.sources_holding`` in the spin, ``Box.fire_armed`` at the moment), which are what
        decide anyway. When they may park is ``_wait_armed``'s."""
        if parked and self._stopping.is_set():
            return  # stopping: none is parked again (``stop`` lets them go on)
        if parked != self._readers_parked:
            self._readers_parked = parked
            for reader in self.box.edge_readers:
                reader.park(parked)

    def _spin_until(self, due_us: int) -> bool:
        """Spin to ``due_us`` (box time), the interpreter held (``DECIDER_WAKE_LEAD_US``);
        True if a delivery came first. A source holding an edge not handed over
        gets the interpreter instead: the thread waits for its delivery
        (``DECIDER_SPIN_LOOK_EVERY``), and spins on if it cannot change the armed
        lamp (a runner-up's bounce). A clock that does not move (a test's)
        ends it after ``DECIDER_SPIN_TURNS_MAX`` turns."""
        arrived, now, stopping = self.box.arrived, self.now, self._stopping
        armed = self._ahead  # armed in the wait already (``_armed_through``)
        self._path = LampPath.UNARMED
        if self.rehearse is not None:
            with self.box.lock:
                if due_us - now() >= REHEARSE_LEFT_US:
                    self.box.debouncer.next_due_us()
                    self.box.engine.next_deadline_us()
                    self.box.first_press_rule()  # the race the engine declared, read before its decision's step
                    self.rehearse()
                if armed is None and self._unarmed_for != due_us:  # its lamp, if nothing comes before the moment
                    armed = self.box.armed_lamp(due_us)  # (even one passed: see below)
            if armed is not None:
                self._path, due_us = LampPath.REFUSED, armed.at_us  # the race's own moment, when a little later
        holding = self.box.sources_holding
        absorbed = False  # deliveries that cannot change the armed lamp were let wait for the step
        self._spun_to = due_us
        for turn in range(DECIDER_SPIN_TURNS_MAX):
            if arrived.is_set():
                if armed is None or not self._beside(armed):
                    self._path = LampPath.DISARMED if armed is not None else self._path
                    return True
                absorbed = True
            if turn % DECIDER_SPIN_LOOK_EVERY == 0 and holding():
                self._park_readers(False)  # a reader busy with a chunk: it is waited for
                handed = arrived.wait(DECIDER_HANDOVER_S)  # the reader's turn: it wakes the thread when delivered
                if not handed or armed is None or not self._beside(armed):
                    self._path = LampPath.HANDOVER
                    return handed or absorbed
                absorbed = True  # what it handed over cannot change the armed lamp: the spin goes on
            if now() >= due_us or stopping.is_set():
                break
        if (arrived.is_set() and (armed is None or not self._beside(armed))) or stopping.is_set():
            self._path = LampPath.DISARMED if armed is not None else self._path
            return True
        if armed is not None and now() >= due_us:
            self._armed = armed  # lit by the step that follows, first (``decide``)
            return absorbed
        if holding():
            self._path = LampPath.HANDOVER
            self._park_readers(False)
            return arrived.wait(DECIDER_HANDOVER_S) or absorbed
        return arrived.is_set() or absorbed

    def _armed_through(self, due_us: int) -> ArmedLamp | None:
        """A delivery woke the wait for a decision's moment (``due_us``): the lamp that moment
        lights, armed now if not yet (``Box.armed_lamp``, on the box as the last step left it),
        if what came cannot change it (``_beside``): the wait goes on, the deliveries wait for
        the step at the moment, and the spin starts armed. A runner-up's bounce near the
        moment took a step of ~0.15 ms, which ran into the moment and left no time to arm
        (a sixth of the benchmark's lamps, ~0.2 ms later). None: the step takes them now."""
        armed = self._ahead
        if armed is None:
            if self.rehearse is None:
                return None
            if self._unarmed_for == due_us:  # found unarmed on this box already (``_armed_ahead``)
                return None
            with self.box.lock:  # (a winner's bounce, a phone's move: stepped without arming first)
                armed = self.box.armed_lamp(due_us) if self.box.may_stay_armed() else None
            if armed is None:
                return None
        # ``_beside`` clears ``arrived`` when it lets them wait (else the wait returns at once, for ever)
        self._ahead = armed if self._beside(armed) else None
        return self._ahead

    def _beside(self, armed: ArmedLamp) -> bool:
        """What was delivered during the spin cannot change the armed lamp (``Box.beside_armed``),
        and no command waits (a host's key or a flip runs before the step): the spin goes on to
        its moment (the step takes them then)."""
        with self.box.lock:
            self.box.arrived.clear()
            if not self._commands and self.box.beside_armed(armed):
                return True
        self.box.arrived.set()
        return False

    def decide(self, woke: int, woke_late_us: int | None, delivered: bool = True) -> tuple[int, int | None]:
        """One step of the deciding thread, woken at ``woke`` (box time; ``woke_late_us``
        after the moment it aimed at, None if an input woke it; ``delivered``:
        a source or a viewer delivered something since the last step): the
        submitted commands and the box's step, the lamp, then ``after``, told
        whether anything but time can have changed the box (a delivery, a
        command, a due moment passed: ``stirred``). Returns when it stepped
        and when the box is next due (None: nothing is)."""
        box = self.box
        # no collection of the interpreter's garbage before the lamp (a young one cost ~0.2 ms in a step
        # that lit one): it runs at the first allocation after it
        collecting = gc.isenabled()
        gc.disable()
        armed, self._armed, self._ahead = self._armed, None, None
        self._unarmed_for = None  # the step changes the box
        with box.lock:
            t = self.now()
            fired = None
            # the armed lamp first, if the sources say nothing came that can change it, and no command waits
            if armed is not None and not self._commands and box.fire_armed(armed, t):
                fired = t
                self._path = LampPath.ARMED
            stirred = delivered or bool(self._commands) or (self._due is not None and t >= self._due)
            events: list[GameEvent] = []
            lit: int | None = None
            first: tuple[int, int | None] | None = None
            box.held_records = []  # the journal encodes this step's records once the lamp is lit
            box.first_lit = None
            try:
                while self._commands and fired is None:  # (lit armed: one that came since waits for the next step)
                    events += self._commands.popleft()()
                events += box.step(t)
                first = box.first_lit  # the winner's lamp, lit in the step before the engine decided
                lamp, box.armed_lit = box.armed_lit, None  # ... or at the moment, before this step
                missed = lamp is not None and first != (lamp[0], lamp[2])
                if lamp is not None and missed:
                    box.armed_missed(lamp)
                if events or first is not None or missed:  # a miss that decided nothing: its lamp put right too
                    stamp = self.light()
                    if first is not None and first[1] is not None:
                        stamp = first[1]
                    else:
                        first = None  # none lit early, or not the decision's lamp (a miss)
                    if events:
                        lit = self.now() if stamp is None else stamp
            finally:
                if collecting:
                    gc.enable()
                box.flush_records()
            if lit is not None:
                self.decisions.append([t, lit, None])
                lit_from = t if fired is None else fired  # an armed lamp: from the moment it fired
                self.detail.append({"woke_late_us": woke_late_us, "lock_wait_us": t - woke,
                                    "step_and_light_us": lit - lit_from, "guard_us": box.latency_guard_us,
                                    "first_press": int(first is not None), "armed": int(fired is not None),
                                    "path": int(self._path)})
            due = self._due = box.next_due_us()
            self._decision_due = box.next_decision_due_us() if due is not None else None
        box.flush_log()  # the lamp is lit: now the log may say what was decided
        if not events and self._decision_near(t):  # the decision first: the views go out with it
            self._deferred_since = t if self._deferred_since is None else self._deferred_since
            self._deferred_stirred = self._deferred_stirred or stirred
            return t, due
        if self.after is not None:  # ... and the viewers may hear of it (and of the steps put off before it)
            self.after(events, t, stirred or self._deferred_stirred)
        self._deferred_since, self._deferred_stirred = None, False
        if not events:
            with box.lock:  # a quiet step: a checkpoint, when one is due (a restart replays only since it);
                box.checkpoint_if_due()  # a fork: a child encodes it (controller/box/snapshot.py)
        return t, due

    def _decision_near(self, t: int) -> bool:
        """A decision a player waits on is due within ``VIEW_DEFERRED_US`` of ``t``, and no
        view has been put off for ``VIEW_DEFERRED_MAX_US`` yet."""
        due = self._decision_due
        return (due is not None and due - t <= VIEW_DEFERRED_US
                and (self._deferred_since is None or t - self._deferred_since < VIEW_DEFERRED_MAX_US))

    def stop(self) -> None:
        self._stopping.set()
        self.box.arrived.set()
        if self.ident is not None:  # a stop (Ctrl+C, SIGTERM) may come before it was started
            self.join(timeout=1.0)
        self._park_readers(False)  # a thread that hangs: they go on all the same
        with self.box.lock:  # what the close decides is logged at once again
            self.box.flush_log()
            self.box.held_log = None


#: what ``ask_realtime`` got, in words: English for the bench (it reads the figures back), else translated
PRIORITY_WORDS = {
    "fifo": N_("real-time priority (SCHED_FIFO {n})"),
    "nice": N_("nice {n} (SCHED_FIFO not allowed: the kiosk unit grants it, docs/display.md)"),
    "normal": N_("normal priority, nice {n} (neither SCHED_FIFO nor a lower nice level allowed: "
                 "the kiosk unit grants them, docs/display.md)"),
}


def lift(pid: int, priority: int = DECIDER_RT_PRIORITY, nice: int = DECIDER_NICE) -> None:
    """A deciding process its screen just started runs at its priority from its first
    import, not from when it asks for itself (``ask_realtime``, after its imports): a
    restart's imports and resume are what the players wait for, and on a loaded box
    they waited for the other processes' turns. Not allowed here: nothing changes (the
    process's own ask says what it got)."""
    try:
        os.sched_setscheduler(pid, os.SCHED_FIFO, os.sched_param(priority))
    except (AttributeError, OSError):  # no SCHED_FIFO here, or not allowed; a process gone already
        with contextlib.suppress(OSError):
            if os.getpriority(os.PRIO_PROCESS, pid) > nice:
                os.setpriority(os.PRIO_PROCESS, pid, nice)


def ask_realtime(priority: int = DECIDER_RT_PRIORITY, nice: int = DECIDER_NICE, translated: bool = False) -> str:
    """Ask the kernel to run this process (its threads started from now on)
    before the screen and the web server: SCHED_FIFO, else a nice level.
    Returns what it got, in words, for the one log line: in the box's
    language when ``translated`` (a person reads it), else in English."""
    kind, n = "fifo", priority
    setscheduler: Any = getattr(os, "sched_setscheduler", None)
    fifo = getattr(os, "SCHED_FIFO", None)
    try:
        if setscheduler is None or fifo is None:
            raise OSError("no SCHED_FIFO here")
        setscheduler(0, fifo, os.sched_param(priority))
    except (PermissionError, OSError):
        try:
            before = os.nice(0)
            if before > nice:
                os.nice(nice - before)
            kind = "nice"
        except (PermissionError, OSError):
            kind = "normal"
        n = os.nice(0)
    words = PRIORITY_WORDS[kind]
    return (_(words) if translated else words).format(n=n)
