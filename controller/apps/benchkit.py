"""The parts of the honest benchmark that ``buzzerbox bench`` and
``benchmarks/realtime.py`` share: a seeded script of contests, a feeder
process that stamps like a kernel, the machine's floor (a bare thread at the
deciding process's priority), one ``play`` game fed and measured, and the
judging of what it decided.

Why each piece is as it is:

* **The feeder** is a process of its own, at real-time priority when the
  kernel allows it (else the best nice level), and it stamps as a kernel
  does: it reads the clock at the moment it writes each edge into the box's
  FIFO and writes that stamp (a kernel stamps in the interrupt and queues
  at once). Its lateness against the script is recorded and printed, and
  kept out of the box's figures: the box is judged on the stamps written.
* **The floor**: a bare thread, in a process of its own at the deciding
  process's priority, waking on the same kind of timer the deciding thread
  waits on (``threading.Event.wait`` with a timeout). How late it wakes is
  what this machine gives any thread at that priority; the box cannot be
  expected to beat it.
* **Confirmation**: the earliest moment a correct box may light the lamp: the
  glitch filter's moment of the first press (its last bounce edge +
  ``glitch_us``), of every press inside the tie window too, or the tie
  window's end if later. **Overhead** = lamp − confirmation: what the box's
  code, its threads and the machine add.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.box import journal as journal_mod
from controller.box import profile as profile_mod
from controller.box.debounce import DebounceConfig
from controller.box.deciding import DECIDER_RT_PRIORITY, ask_realtime
from controller.box.feed import Feed
from controller.box.press import Edge
from controller.box.runtime import Box, box_from_journal
from controller.box.sources.simulated import BounceModel
from controller.box.timeline import box_now_us
from games.base import EventKind, GameSettings
from games.registry import get

#: the runner-up's gaps behind the first, µs (0: a dead heat, a tie)
GAPS_US = (0, 5, 10, 20, 35, 50, 100, 200, 500, 1_000, 2_000)
#: every this many contests, the audit's realistic contest (issue 46)
AUDIT_EVERY = 10
#: the audit's contest: the first presser's contact bounces open at this moment for this long
#: (then closes for good); the runner-up, a clean press, this far behind
AUDIT_OPEN_AT_US, AUDIT_OPEN_US, AUDIT_GAP_US = 40, 947, 35
#: presses are held this long (short: contests follow each other quickly)
BOUNCE = BounceModel(min_hold_us=40_000, max_hold_us=80_000)
#: per contest: the host arms this long before it, says "correct" this long after its last
#: edge, and nothing happens for this long before the next arm
ARM_LEAD_US, JUDGE_AFTER_US, QUIET_US = 100_000, 60_000, 150_000
HOST_HOLD_US = 20_000  # the host holds arm / correct this long
#: the feeder starts the script this long after the box opened the FIFO (a box may open it before
#: its game clock starts: a press before that clock is refused)
FEED_LEAD_US = 3_000_000
#: the feeder sleeps until this long before an edge is due, then spins to it
FEEDER_SPIN_US = 200
#: above the deciding process (a kernel's interrupt comes before every thread), below the kernel's own (50)
FEEDER_RT_PRIORITY = DECIDER_RT_PRIORITY + 10
FEEDER_NICE = -20
#: the floor thread's timed waits, drawn uniformly (the deciding thread waits ~1-5 ms)
FLOOR_WAIT_US = (500, 3_000)
#: a paused game (``Pauser``): the box's processes are stopped this often
PAUSE_EVERY_S = 2.0
#: what a game's overhead p99 may exceed the floor's p99 by (issue 46's goal), and its p50 at most
GOAL_OVER_FLOOR_US, GOAL_P50_US = 500, 300

#: (kind, stations): ("winner", (s,)) / ("tie", stations) / None (no decision)
Outcome = tuple[str, tuple[int, ...]] | None


# -- statistics -------------------------------------------------------------------------------


def percentile(values: Iterable[int], p: float) -> int | None:
    """Nearest rank (``p`` in 0..1): a value that occurred, None of nothing.
    With fewer than 100 values the p99 is the maximum: say so beside it."""
    s = sorted(values)
    if not s:
        return None
    return s[max(0, min(len(s) - 1, math.ceil(p * len(s)) - 1))]


def ms(value_us: int | None, digits: int = 2) -> str:
    return "-" if value_us is None else f"{value_us / 1000:.{digits}f}"


@dataclass(frozen=True)
class Summary:
    """p50 / p99 / max of µs values, and how many."""

    n: int
    p50: int | None
    p99: int | None
    max: int | None

    @classmethod
    def of(cls, values: Sequence[int]) -> Summary:
        return cls(len(values), percentile(values, 0.5), percentile(values, 0.99), max(values, default=None))

    def text(self, with_max: bool = True) -> str:
        """``p50 x  p99 y [max z] ms``; a p99 of fewer than 100 values is their maximum: marked ``*``."""
        star = "*" if 0 < self.n < 100 else ""
        return f"p50 {ms(self.p50)}  p99 {ms(self.p99)}{star}" + (f"  max {ms(self.max)}" if with_max else "") + " ms"


# -- the script -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Contest:
    """One contested press: every edge, ``(t_us, station, level)`` in time
    order, from the contest's start (or, once written, the box µs the feeder
    stamped). Active level 0 (switch to ground)."""

    kind: str  # "gap" or "audit"
    edges: tuple[tuple[int, int, int], ...]

    def contacts(self) -> dict[int, int]:
        """Each pressing station's first contact."""
        out: dict[int, int] = {}
        for t, s, level in self.edges:
            if level == 0 and s not in out:
                out[s] = t
        return out

    @property
    def first(self) -> int:
        """The first presser (a dead heat: the lowest station)."""
        contacts = self.contacts()
        return min(contacts, key=lambda s: (contacts[s], s))

    @property
    def dead_heat(self) -> set[int]:
        contacts = self.contacts()
        t0 = min(contacts.values())
        return {s for s, t in contacts.items() if t == t0}

    @property
    def gap_us(self) -> int:
        times = sorted(self.contacts().values())
        return times[1] - times[0] if len(times) > 1 else 1 << 40

    @property
    def span_us(self) -> int:
        return self.edges[-1][0] - self.edges[0][0]

    def settled_us(self, station: int, glitch_us: int) -> int:
        """The station's last onset edge: from it the line stayed active for
        ``glitch_us`` (the glitch filter accepts the press ``glitch_us`` later)."""
        mine = [(t, level) for t, s, level in self.edges if s == station]
        for (t, level), (t_next, _) in zip(mine, mine[1:], strict=False):
            if level == 0 and t_next - t >= glitch_us:
                return t
        return next(t for t, level in reversed(mine) if level == 0)

    def confirmation_us(self, glitch_us: int, tie_wait_us: int) -> int:
        """The earliest moment a correct box may decide: the glitch filter's
        moment of the first press and of every press inside the tie window,
        or the tie window's end if later."""
        contacts = self.contacts()
        first = min(contacts.values())
        inside = [s for s, t in contacts.items() if t <= first + tie_wait_us]
        return max([first + tie_wait_us] + [self.settled_us(s, glitch_us) + glitch_us for s in inside])

    def stamped(self, stamps: Sequence[int]) -> Contest:
        """The same contest at the moments the feeder wrote its edges."""
        return Contest(self.kind, tuple((t, s, level) for t, (_, s, level) in zip(stamps, self.edges, strict=True)))


def audit_contest(first: int, runner_up: int, hold_us: int = 60_000) -> Contest:
    """Issue 46's realistic contest: the first presser's contact bounces open
    for 947 µs, the runner-up (clean) 35 µs behind."""
    edges = [(0, first, 0), (AUDIT_OPEN_AT_US, first, 1), (AUDIT_OPEN_AT_US + AUDIT_OPEN_US, first, 0),
             (hold_us, first, 1), (AUDIT_GAP_US, runner_up, 0), (AUDIT_GAP_US + hold_us, runner_up, 1)]
    return Contest("audit", tuple(sorted(edges)))


def make_contests(rng: random.Random, count: int, stations: int, gaps: Sequence[int] = GAPS_US,
                  audit_every: int = AUDIT_EVERY) -> list[Contest]:
    """``count`` seeded contests among ``stations``: 2 to 4 pressers, the
    runner-up one of ``gaps`` behind, normal bounce (up to 5 ms); every
    ``audit_every``-th the audit's contest between two random stations."""
    out = []
    for k in range(count):
        if audit_every and k % audit_every == audit_every - 1:
            a, b = rng.sample(range(stations), 2)
            out.append(audit_contest(a, b, rng.randint(BOUNCE.min_hold_us, BOUNCE.max_hold_us)))
            continue
        n = rng.randint(2, min(4, stations))
        who = rng.sample(range(stations), n)
        gap = rng.choice(list(gaps))
        offsets = [0, gap] + [gap + rng.randint(0, 3_000) for _ in range(n - 2)]
        edges = []
        for s, off in zip(who, offsets, strict=True):
            edges += [(t, s, level) for t, level in BOUNCE.train(rng, off)]
        out.append(Contest("gap", tuple(sorted(edges))))
    return out


@dataclass(frozen=True)
class Step:
    """One line the feeder writes: due ``due_us`` after its start; ``contest``
    and ``station`` say whose edge it is (-1: the host's)."""

    due_us: int
    pin: int
    level: int
    contest: int = -1
    station: int = -1


def schedule(contests: Sequence[Contest], bells: dict[int, int], host: dict[str, int]) -> list[Step]:
    """Every line of a game, in time order: per contest the host's arm, the
    contest's edges, the host's "correct" (presses on the host's pins)."""
    steps, t = [], 0
    for k, c in enumerate(contests):
        arm, start = t, t + ARM_LEAD_US
        judge = start + c.span_us + JUDGE_AFTER_US
        steps += [Step(arm, host["arm"], 0), Step(arm + HOST_HOLD_US, host["arm"], 1)]
        steps += [Step(start + dt, bells[s], level, k, s) for dt, s, level in c.edges]
        steps += [Step(judge, host["correct"], 0), Step(judge + HOST_HOLD_US, host["correct"], 1)]
        t = judge + HOST_HOLD_US + QUIET_US
    return sorted(steps, key=lambda st: st.due_us)


# -- the feeder and the floor: processes of their own --------------------------------------------


def wait_until(due_us: int) -> None:
    """Sleep until just before ``due_us``, then spin to it (the sleep's own lateness stays)."""
    while (left := due_us - FEEDER_SPIN_US - box_now_us()) > 0:
        time.sleep(left / 1e6)
    while box_now_us() < due_us:
        pass


def feeder_main(fifo: str, lines: list[tuple[int, int, int]], conn: Any) -> None:
    """The feeder process: once the box opened the FIFO, writes each
    ``(due_us, pin, level)`` at ``FEED_LEAD_US`` + its due moment, stamped
    with the clock read at the write; sends back the priority it got, the
    stamps and its lateness against the script."""
    priority = ask_realtime(FEEDER_RT_PRIORITY, FEEDER_NICE)
    stamps: list[int] = []
    #: stamp -> written (os.write returned): what the feed's capture allowance (``Feed.capture_us``) must cover
    hops: list[int] = []
    fd = os.open(fifo, os.O_WRONLY)  # blocks until the box's feed thread opened it: the box is ready
    try:
        t0 = box_now_us() + FEED_LEAD_US
        for due, pin, level in lines:
            wait_until(t0 + due)
            now = box_now_us()  # the kernel's stamp, and at once the queue
            os.write(fd, f"{pin} {level} {now}\n".encode("ascii"))
            hops.append(box_now_us() - now)
            stamps.append(now)
    except BrokenPipeError:
        pass  # the box went away: the game reports why
    finally:
        os.close(fd)
    conn.send({"priority": priority, "t0": t0, "stamps": stamps, "hops": hops})
    conn.close()


def floor_main(stop: Any, conn: Any, seed: int) -> None:
    """The floor process: a bare thread at the deciding process's priority
    waking on timed waits until ``stop``; sends back each wake's lateness."""
    priority = ask_realtime()
    late: list[int] = []

    def run() -> None:
        rng, event = random.Random(seed), threading.Event()
        while not stop.is_set():
            wait_us = rng.randint(*FLOOR_WAIT_US)
            start = box_now_us()
            event.wait(wait_us / 1e6)
            late.append(box_now_us() - start - wait_us)

    thread = threading.Thread(target=run, name="floor")  # started after the priority: it inherits it
    thread.start()
    thread.join()
    conn.send({"priority": priority, "late": late})
    conn.close()


def burner_main(stop: Any) -> None:
    """A CPU burner (the loaded setting): spins at normal priority until ``stop``."""
    while not stop.is_set():
        sum(range(10_000))


def processes() -> Any:
    """Fork where there is fork: the children start at once and need nothing pickled."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else methods[0])


class Burners:
    """``count`` CPU burners, each a process of its own, while in the ``with``."""

    def __init__(self, count: int) -> None:
        ctx = processes()
        self.stop = ctx.Event()
        self.procs = [ctx.Process(target=burner_main, args=(self.stop,), daemon=True) for _ in range(count)]

    def __enter__(self) -> Burners:
        for p in self.procs:
            p.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for p in self.procs:
            p.join(5)


def process_tree(pid: int) -> list[int]:
    """``pid`` and every process under it, as /proc has them now."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:  # gone meanwhile
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        tree.append(todo.pop())
        todo += children.get(tree[-1], [])
    return tree


class Pauser:
    """While in the ``with``: every ``every_s`` the process ``pid`` and all under it (the box:
    ``play``, its deciding process and screen) are stopped (SIGSTOP) for ``pause_ms``, then let go
    on (SIGCONT), as a machine that stalls the box does (its VM's host busy, swapping) while the
    feeder writes on. A box decides as it would unpaused, only later: a wrong winner here is a box
    that took its own pause for its sources' silence (docs/architecture.md)."""

    def __init__(self, pid: int, pause_ms: int, every_s: float = PAUSE_EVERY_S) -> None:
        self.pid, self.pause_s, self.every_s = pid, pause_ms / 1000, every_s
        self.pauses = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pauser", daemon=True)

    def __enter__(self) -> Pauser:
        if self.pause_s > 0:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.ident is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            stopped: list[int] = []
            try:
                for pid in process_tree(self.pid):
                    with suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGSTOP)
                        stopped.append(pid)
                self.pauses += 1
                self._stop.wait(self.pause_s)  # the pause itself
            finally:
                for pid in stopped:
                    with suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGCONT)


class Floor:
    """The floor process while in the ``with``; then ``priority`` and ``late`` (µs per wake)."""

    def __init__(self, seed: int) -> None:
        ctx = processes()
        self.stop = ctx.Event()
        self._in, out = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=floor_main, args=(self.stop, out, seed), daemon=True)
        self.priority = "?"
        self.late: list[int] = []

    def __enter__(self) -> Floor:
        self.proc.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        if self._in.poll(10):
            got = self._in.recv()
            self.priority, self.late = got["priority"], got["late"]
        self.proc.join(5)


# -- judging --------------------------------------------------------------------------------------


def outcome_in(events: Iterable[Any], start_us: int, end_us: int) -> tuple[Outcome, int | None]:
    """The first winner or tie announced between two game moments, and its moment."""
    for e in events:
        if e.kind in (EventKind.WINNER, EventKind.TIE) and start_us <= e.t_us < end_us:
            if e.kind == EventKind.WINNER:
                return ("winner", (e.player,)), e.t_us
            return ("tie", tuple(e.data["stations"])), e.t_us
    return None, None


def virtual_outcome(edges: Sequence[tuple[int, int, int]], debounce: DebounceConfig, players: int,
                    precision_us: int) -> Outcome:
    """The same edges judged by the box's own code in virtual time (no thread, no lateness)."""
    box = Box(get("quiz"), GameSettings(players, 1, {}), ["bell"] * players, debounce=debounce)
    box.debouncer.start_all({(s, "bell"): 1 for s in range(players)}, edges[0][0] - 60_000)
    box.host("arm", edges[0][0] - 50_000)
    for t, s, level in edges:
        box.step(t)
        box.edge(Edge(s, "bell", level, t), precision_us)
    for t in range(edges[-1][0], edges[-1][0] + 60_000, 500):
        box.step(t)
    return outcome_in(box.event_log, edges[0][0], edges[-1][0] + 60_000)[0]


def judge(contest: Contest, outcome: Outcome, tie_wait_us: int) -> str:
    """right / wrong / tie ok (inside the tie window) / tie bad / pick (one winner of a dead heat) / none."""
    if outcome is None:
        return "none"
    kind, stations = outcome
    if kind == "tie":
        return "tie ok" if contest.gap_us <= tie_wait_us and contest.first in stations else "tie bad"
    if len(contest.dead_heat) > 1 and stations[0] in contest.dead_heat:
        return "pick"
    return "right" if stations[0] == contest.first else "wrong"


@dataclass
class Judged:
    """One contest as the box decided it: times in µs."""

    kind: str
    verdict: str
    live_is_virtual: bool
    contact_to_lamp: int | None = None
    settle_to_lamp: int | None = None
    overhead: int | None = None  # lamp - confirmation
    note: str = ""  # what went wrong, when something did
    #: where the deciding thread's time went in the step that lit it (``Decider.detail``), if recorded
    step_and_light: int | None = None
    woke_late: int | None = None
    #: how that step came to run (``deciding.LampPath``), if recorded
    path: int | None = None
    #: its edges the feeder wrote later after their stamps than the feed's allowance (``Feed.capture_us``):
    #: the box may have decided past them before they were in the FIFO, so the contest proves nothing
    late_writes: int = 0


def judge_game(contests: Sequence[Contest], steps: Sequence[Step], stamps: Sequence[int], events: Sequence[Any],
               decisions: Sequence[Sequence[int | None]], offset_us: int, debounce: DebounceConfig, players: int,
               precision_us: int, detail: Sequence[dict[str, int | None]] = (), hops: Sequence[int] = (),
               allowance_us: int = Feed.capture_us) -> list[Judged]:
    """Each contest of a fed game, on the stamps the feeder wrote (box µs):
    its outcome against them and against virtual time, and, when decided,
    contact/settle/confirmation -> the lamp the deciding thread stamped
    (``decisions``: [stepped, lamp lit] in game µs = box µs + ``offset_us``);
    ``hops``: each step's stamp -> written, those over ``allowance_us`` counted (``Judged.late_writes``)."""
    written: dict[int, list[int]] = {}
    late: dict[int, int] = {}
    for n, (step, stamp) in enumerate(zip(steps, stamps, strict=False)):
        if step.contest >= 0:
            written.setdefault(step.contest, []).append(stamp)
            late[step.contest] = late.get(step.contest, 0) + (n < len(hops) and hops[n] > allowance_us)
    host = [stamp for step, stamp in zip(steps, stamps, strict=False) if step.contest < 0]
    out = []
    for k, c in enumerate(contests):
        mine = written.get(k, [])
        if len(mine) < len(c.edges):
            break  # the feeder stopped (the box went away): the rest was never played
        live = c.stamped(mine)
        # the contest's window: from its first edge to the host's "correct" after it
        end = min((h for h in host if h > live.edges[-1][0]), default=live.edges[-1][0] + JUDGE_AFTER_US)
        outcome, decided_at = outcome_in(events, live.edges[0][0] + offset_us, end + offset_us)
        virtual = virtual_outcome(live.edges, debounce, players, precision_us)
        judged = Judged(c.kind, judge(live, outcome, precision_us), outcome == virtual, late_writes=late.get(k, 0))
        if judged.verdict not in ("right", "tie ok") or not judged.live_is_virtual:
            judged.note = (f"{c.kind} contest {k}: first {live.first} by {live.gap_us} µs; live {outcome}, "
                           f"virtual {virtual}")
        if decided_at is not None:
            # the step that announced it: the first at or after its moment (however late: a lamp after the
            # host's next key still counts, and counts late)
            i = next((i for i, d in enumerate(decisions) if d[0] is not None and d[1] is not None
                      and d[0] >= decided_at), None)
            if i is not None:
                lamp = int(decisions[i][1] or 0) - offset_us
                if i < len(detail):
                    judged.step_and_light = detail[i].get("step_and_light_us")
                    judged.woke_late = detail[i].get("woke_late_us")
                    judged.path = detail[i].get("path")
                first = live.first
                judged.contact_to_lamp = lamp - live.contacts()[first]
                judged.settle_to_lamp = lamp - live.settled_us(first, debounce.glitch_us)
                judged.overhead = lamp - live.confirmation_us(debounce.glitch_us, precision_us)
        out.append(judged)
    return out


# -- one game ---------------------------------------------------------------------------------------


@dataclass
class Game:
    """One fed ``play`` game: what was judged and what the machine did meanwhile."""

    judged: list[Judged]
    feeder_priority: str
    feeder_late: list[int]
    floor_priority: str
    floor_late: list[int]
    decider_priority: str
    load: tuple[float, float]
    late_deliveries: int = 0
    worst_delivery_us: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def bell_and_host_pins(profile: profile_mod.Profile) -> tuple[dict[int, int], dict[str, int]]:
    """station -> bell pin, host input -> pin."""
    pins = profile.input_pins()
    bells = {station: pin for pin, (station, name) in pins.items() if name == "bell"}
    host = {name: pin for pin, (station, name) in pins.items() if station < 0}
    return bells, host


def tie_wait_us(profile: profile_mod.Profile, pin_precision_us: int = 1) -> int:
    """How close two presses are a tie here: the pins' precision plus the front end's spread
    (the quiz decides no sooner after the first press)."""
    return max(pin_precision_us + profile.precision_extra_us(s, "bell") for s in range(len(profile.stations)))


#: what ``play_game`` runs ``play`` with (after the interpreter)
PLAY_PROGRAM = ("-m", "controller")


def play_game(profile_name: str, contests: Sequence[Contest], folder: Path, play_args: Sequence[str],
              seed: int, lang: str | None = None, code: Path | None = None,
              program: Sequence[str] = PLAY_PROGRAM, pause_ms: int = 0) -> Game:
    """Play ``contests`` through ``python -m controller play quiz --feed``
    (the real GPIO source on mock pins) with ``play_args``, the feeder and
    the floor in processes of their own, and judge it. ``code``: the tree of
    another version of the box to play (``benchmarks/realtime.py --before``);
    ``program``: what plays instead of ``-m controller`` (the one-process
    baseline: ``-m benchmarks.one_process``, which takes ``play``'s options); ``pause_ms``: the box's
    processes stopped that long every ``PAUSE_EVERY_S`` (``Pauser``)."""
    profile = profile_mod.load(profile_name)
    bells, host = bell_and_host_pins(profile)
    steps = schedule(contests, bells, host)
    folder.mkdir(parents=True, exist_ok=True)
    fifo, journal, timings = folder / "feed", folder / "game.jsonl", folder / "timings.json"
    os.mkfifo(fifo)
    seconds = (FEED_LEAD_US + steps[-1].due_us) / 1e6 + 2.0
    command = [sys.executable, *program, "play", "quiz", "--profile", profile_name, "--mute",
               "--no-roll-call", "--journal", str(journal), "--seconds", f"{seconds:.1f}", "--feed", str(fifo),
               "--timings", str(timings), *play_args] + (["--lang", lang] if lang else [])
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    if code is not None:
        env["PYTHONPATH"] = str(code)
    ctx = processes()
    feed_in, feed_out = ctx.Pipe(duplex=False)
    feeder = ctx.Process(target=feeder_main, args=(str(fifo), [(s.due_us, s.pin, s.level) for s in steps], feed_out),
                         daemon=True)
    load_before = os.getloadavg()[0]
    with Floor(seed) as floor:
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                cwd=code)
        feeder.start()
        try:
            with Pauser(proc.pid, pause_ms):
                fed = feed_in.recv() if feed_in.poll(seconds + 120) else None
                _out, err = proc.communicate(timeout=seconds + 120)
        finally:
            if proc.poll() is None:
                proc.kill()
            feeder.join(5)
            if feeder.is_alive():
                feeder.kill()
    if proc.returncode != 0 or fed is None:
        raise RuntimeError(f"play exited {proc.returncode}: {err.strip()[-1500:]}")
    measured = json.loads(timings.read_text())
    offset = int(measured["offset_us"])
    events = list(box_from_journal(journal_mod.read(journal)).event_log)
    judged = judge_game(contests, steps, fed["stamps"], events, measured["decisions"] or [], offset,
                        profile.debounce, len(profile.stations), tie_wait_us(profile),
                        measured.get("decision_detail") or [], fed.get("hops") or [])
    ready = next((ln for ln in err.splitlines() if ln.startswith("deciding process ")), "")
    decider = ready.split(": ", 1)[1] if ": " in ready else "unknown (the deciding process said no priority)"
    return Game(judged, fed["priority"], [stamp - (fed["t0"] + s.due_us) for s, stamp in zip(steps, fed["stamps"],
                                                                                          strict=False)],
                floor.priority, floor.late, decider, (load_before, os.getloadavg()[0]),
                int(measured["late_deliveries"]), int(measured["worst_delivery_us"]),
                {"stderr": err, "t0": fed["t0"], "offset_us": offset, "detail": measured.get("decision_detail"),
                 "hops": fed.get("hops") or []})


@dataclass(frozen=True)
class Figures:
    """A design's figures over its games (µs)."""

    contests: int
    timed: int
    contact: Summary
    settle: Summary
    overhead: Summary
    within_1ms: int
    wrong: int  # a wrong winner or a tie where there was none
    undecided: int
    audit_wrong: int
    audit: int
    live_not_virtual: int
    #: edges the feeder wrote later than the feed's allowance, the contests they were in (apart from every
    #: figure above: they do not test the watermark), and how many of those were wrong or undecided
    late_edges: int = 0
    late_contests: int = 0
    late_wrong: int = 0

    @classmethod
    def of(cls, judged: Sequence[Judged]) -> Figures:
        late = [j for j in judged if j.late_writes]
        judged = [j for j in judged if not j.late_writes]
        timed = [j for j in judged if j.overhead is not None]
        overhead = [j.overhead for j in timed if j.overhead is not None]
        audits = [j for j in judged if j.kind == "audit"]
        return cls(len(judged), len(timed),
                   Summary.of([j.contact_to_lamp for j in timed if j.contact_to_lamp is not None]),
                   Summary.of([j.settle_to_lamp for j in timed if j.settle_to_lamp is not None]),
                   Summary.of(overhead), sum(v <= 1_000 for v in overhead),
                   sum(j.verdict in ("wrong", "tie bad", "pick") for j in judged),
                   sum(j.verdict == "none" for j in judged),
                   sum(j.verdict in ("wrong", "tie bad", "pick", "none") for j in audits), len(audits),
                   sum(not j.live_is_virtual for j in judged),
                   sum(j.late_writes for j in late), len(late),
                   sum(j.verdict in ("wrong", "tie bad", "pick", "none") for j in late))


def meets_goal(figures: Figures, floor: Summary) -> bool:
    """Issue 46's goal: overhead p50 <= 0.3 ms, p99 <= the floor's p99 + 0.5 ms, no wrong winner
    and none undecided (a contest the box never decided has no overhead to count: left out, it
    would flatter the figures)."""
    o = figures.overhead
    return (o.p50 is not None and o.p99 is not None and floor.p99 is not None and figures.wrong == 0
            and figures.undecided == 0 and o.p50 <= GOAL_P50_US and o.p99 <= floor.p99 + GOAL_OVER_FLOOR_US)
