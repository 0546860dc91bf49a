"""One real-time harness for every set-up: this box and the usual buzzer
set-ups, fed the same edge script at the wall clock's pace, side by side in
the same run, repeated, with the spread and the machine load printed.

One feeder thread replays a seeded script of contests in real time. Every
edge goes, at its due moment, to every set-up at once:

* **box**: ``GpioSource`` on gpiozero's MockFactory (``pin.drive(level,
  tick)``: the tick is the edge's scripted moment, as a kernel stamps it) ->
  ``Box`` running the quiz, through the very ``LiveGame.run`` that ``play``
  runs (deciding thread, measured report delay, the journal writer on with
  fsync, the quiz's scene drawn headless, recording lights);
* **Button(bounce_time=None / 0.01 / 0.2)**: real gpiozero ``Button``s on
  MockFactory pins that behave like RPi.GPIO's (``arbitration.py``: an edge
  thread that hands each edge over as it comes, ``bouncetime`` drops edges
  within that long of the last accepted one, and the callback reads the level
  *when it runs*); ``when_pressed`` notes ``time.monotonic()``; the first
  ``when_pressed`` wins (what most Pi buzzer projects do);
* **lgpio-style callback**: gets each edge's own level and tick; the first
  falling edge wins (no filter);
* **1 kHz polling**: a thread reads every line each millisecond; the first
  pass that sees a line low decides (several seen in one pass: a tie, 1 ms
  precision);
* **last writer per frame**: a 60 fps loop drains the presses
  ``Button(bounce_time=None)`` reported since the last frame, and, as the
  common pygame buzzer loop does (``for event in events: winner = ...``), the
  last of them in the first frame with any wins.

The script: contests with the runner-up 0 to 2 ms behind (0-50 µs around the
precisions), normal bounce (up to 5 ms); a bounce-envelope sweep to 20 ms
(runner-up 0.1-20 ms behind); noise spikes of growing width on a station that
does not press, before the real first press. Each contest is judged against
the script: wrong winner, unjustified tie (declared although the gap is not
below the set-up's declared precision), justified tie, dead-heat pick (one
winner where the script has a dead heat), no winner.

From the box's real ``play`` loop, for the gap contests (normal bounce):
contact -> decision, contact -> light, contact -> frame, and settled (the
first press's last bounce edge) -> decision against the budget glitch filter +
report delay + 1 ms; and whether every live decision equals the same edges
judged in virtual time. Two load settings: idle, and "render + CPU" (each
frame costs an extra 30 ms of pure-Python work holding the GIL, and a thread
burns CPU); the baselines run in the same process, so they share the load.
The box's profiles that push the point where wrong winners begin are judged
in virtual time on the same edges (the live box equals virtual time: checked).

What it proves and what it cannot: ordering and the timing of each set-up's
own decision path under real threads and real time, on this machine. The
mock's ticks are exact: a real pin's capture error is not in the box's or
the lgpio-style figures. The baselines' edge threads hand edges over in the
order they happened (the kindest assumption for them); a Pi's slower cores,
USB and interrupt latency are not here. Edges due closer than the feeder's
wake-up are driven back to back, in script order.

    PYTHONPATH=. python benchmarks/realtime.py            # 5 runs x 2 loads, ~8 min on 2 cores
    PYTHONPATH=. python benchmarks/realtime.py --quick    # 5 runs x 2 loads, 1 contest per point, ~4 min
"""

from __future__ import annotations

import argparse
import bisect
import math
import os
import queue
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

import arbitration  # noqa: E402
from arbitration import BELL_PINS, bench_profile, rpigpio_like_pin_class  # noqa: E402

from controller import journal as journal_mod  # noqa: E402
from controller.debounce import DebounceConfig  # noqa: E402
from controller.display import loop as display_loop  # noqa: E402
from controller.display.loop import Presenter  # noqa: E402
from controller.display.screen import Screen  # noqa: E402
from controller.lights import RecordingLights  # noqa: E402
from controller.live import LiveGame  # noqa: E402
from controller.press import Edge  # noqa: E402
from controller.runtime import Box  # noqa: E402
from controller.sources.gpio import GpioSource, mock_factory  # noqa: E402
from controller.sources.simulated import BounceModel  # noqa: E402
from controller.timeline import box_now_us  # noqa: E402
from games.base import GameSettings  # noqa: E402
from games.registry import get, scene_for  # noqa: E402

PLAYERS = 4
EXTRA_FRAME_S = 0.03
GAPS_US = (0, 5, 10, 20, 35, 50, 100, 200, 500, 1_000, 2_000)
ENVELOPES_US = (2_000, 5_000, 8_000, 12_000, 16_000, 20_000)
SPIKES_US = (50, 200, 500, 900, 1_500, 3_000)
ARM_LEAD_US = 150_000  # the host arms this long before a contest's first edge
RESET_AFTER_US = 120_000  # and resets this long after its last edge
QUIET_US = 300_000  # then quiet until the next arm (Button(bounce_time=0.2) takes the next edge)
SETUPS = ("box", "Button(bounce_time=None)", "Button(bounce_time=0.01)", "Button(bounce_time=0.2)",
          "lgpio-style callback", "1 kHz polling", "last writer per frame")
#: the precision each set-up declares (a tie closer than this is justified); None: it never calls a tie
DECLARED_PRECISION_US: dict[str, int | None] = {
    "box": 1, "Button(bounce_time=None)": None, "Button(bounce_time=0.01)": None, "Button(bounce_time=0.2)": None,
    "lgpio-style callback": 1, "1 kHz polling": 1_000, "last writer per frame": None}
#: the box's profiles judged in virtual time on the same edges: what pushes the wrong-winner point
PROFILES = {"shipped (bounce 10 ms, glitch 1 ms)": {},
            "bounce_us 25 ms": {"bounce_us": 25_000},
            "glitch_us 2 ms": {"glitch_us": 2_000},
            "bounce 25 ms + glitch 4 ms": {"bounce_us": 25_000, "glitch_us": 4_000}}

Outcome = tuple[str, tuple[int, ...]] | None  # ("winner", (station,)) / ("tie", stations) / None


# -- the script ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Contest(arbitration.Contest):
    """``arbitration.Contest`` (each real press's first contact and release,
    every edge) with the sweep it belongs to and the value swept."""

    kind: str = "gap"  # gap, bounce, spike
    value_us: int = 0

    @property
    def first(self) -> int:
        return min(self.true_us, key=lambda s: (self.true_us[s], s))  # a dead heat: the lowest station

    @property
    def dead_heat(self) -> set[int]:
        t0 = self.true_us[self.first]
        return {s for s, t in self.true_us.items() if t == t0}

    def settled_us(self, glitch_us: int) -> int:
        """When the true first press's line went active to stay so for
        ``glitch_us`` (the debounce can accept it ``glitch_us`` later)."""
        s = self.first
        mine = [(t, level) for t, st, level in self.edges if st == s]
        for (t, level), (t_next, _) in zip(mine, mine[1:], strict=False):
            if level == 0 and t_next - t >= glitch_us:
                return t
        return mine[0][0]


def make_script(rng: random.Random, per_point: int, gaps: Sequence[int], envelopes: Sequence[int],
                spikes: Sequence[int]) -> list[Contest]:
    """Every point of every sweep ``per_point`` times, in a shuffled order
    (load and time of day spread over all of them)."""
    contests = []

    def build(kind: str, value: int, model: BounceModel, offsets: list[int], spike: tuple[int, int] | None) -> Contest:
        stations = rng.sample(range(PLAYERS), len(offsets) + (spike is not None))
        start = 1_000 + (spike[1] if spike else 0)
        edges, true_us, release = [], {}, {}
        for s, off in zip(stations, offsets, strict=False):
            hold = rng.randint(model.min_hold_us, model.max_hold_us)
            true_us[s], release[s] = start + off, start + off + hold
            edges += [(t, s, level) for t, level in model.train(rng, start + off, hold)]
        if spike is not None:  # a station that does not press: one pulse, before the real first press
            width = spike[0]
            edges += [(1_000, stations[-1], 0), (1_000 + width, stations[-1], 1)]
        edges.sort()
        return Contest(true_us, release, edges, kind=kind, value_us=value)

    for _ in range(per_point):
        for gap in gaps:
            n = rng.randint(2, PLAYERS)
            contests.append(build("gap", gap, BounceModel(), [0, gap] + [gap + rng.randint(0, 3_000) for _ in range(n - 2)], None))
        for env in envelopes:
            model = BounceModel(min_bounce_us=env // 2, max_bounce_us=env, clean_chance=0.0)
            gap = round(math.exp(rng.uniform(math.log(100), math.log(20_000))))
            contests.append(build("bounce", env, model, [0, gap], None))
        for width in spikes:
            contests.append(build("spike", width, BounceModel(), [0, rng.randint(500, 5_000)],
                                  (width, width + rng.randint(500, 3_000))))
    rng.shuffle(contests)
    return contests


def judge(contest: Contest, outcome: Outcome, precision_us: int | None) -> str:
    """right / wrong / tie ok / tie bad / pick (one winner of a dead heat) / none."""
    if outcome is None:
        return "none"
    kind, stations = outcome
    if kind == "tie":
        justified = precision_us is not None and contest.gap_us < precision_us and contest.first in stations
        return "tie ok" if justified else "tie bad"
    if len(contest.dead_heat) > 1 and stations[0] in contest.dead_heat:
        return "pick"
    return "right" if stations[0] == contest.first else "wrong"


# -- the baselines --------------------------------------------------------------------------


class ButtonSetup:
    """gpiozero Buttons on RPi.GPIO-like mock pins, one edge thread."""

    def __init__(self, bounce_time: float | None, on_press: Callable[[int, int], None] | None = None) -> None:
        from gpiozero import Button
        from gpiozero.pins.mock import MockFactory

        self.factory = MockFactory(pin_class=rpigpio_like_pin_class(level_at_callback=True))
        self.hits: list[tuple[int, int, int]] = []  # (contest, station, time.monotonic µs)
        self.contest = -1
        self.on_press = on_press
        self.buttons = []
        for station, pin in enumerate(BELL_PINS[:PLAYERS]):
            button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=self.factory)
            button.when_pressed = self._pressed(station)
            self.buttons.append(button)
        self.pins = [self.factory.pin(p) for p in BELL_PINS[:PLAYERS]]
        self.inbox: queue.SimpleQueue[tuple[int, int, int] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._edges, name="rpigpio-edge-thread", daemon=True)

    def _pressed(self, station: int) -> Callable[[], None]:
        def pressed() -> None:
            self.hits.append((self.contest, station, time.monotonic_ns() // 1000))
            if self.on_press is not None:
                self.on_press(self.contest, station)
        return pressed

    def plan(self, per_pin: list[tuple[list[float], list[int]]]) -> None:
        for pin, (times, levels) in zip(self.pins, per_pin, strict=True):
            pin.set_plan(times, levels)

    def _edges(self) -> None:
        while (item := self.inbox.get()) is not None:
            k, station, level = item
            self.contest = k
            self.pins[station].edge_seen(level)

    def outcomes(self, count: int) -> list[Outcome]:
        first: dict[int, list[tuple[int, int]]] = {}
        for k, station, t in self.hits:
            first.setdefault(k, []).append((t, station))
        out: list[Outcome] = []
        for k in range(count):
            got = sorted(first.get(k, []))
            if not got:
                out.append(None)
            elif len(got) > 1 and got[0][0] == got[1][0]:
                out.append(("tie", tuple(s for t, s in got if t == got[0][0])))
            else:
                out.append(("winner", (got[0][1],)))
        return out

    def close(self) -> None:
        self.inbox.put(None)
        self.thread.join(2)
        for button in self.buttons:
            button.close()
        self.factory.close()


class LastWriterPerFrame:
    """A 60 fps loop: the presses reported since the last frame, the last one wins."""

    def __init__(self, contest: list[int]) -> None:
        self.contest = contest
        self.pending: list[tuple[int, int]] = []
        self.decided: dict[int, int] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._frames, name="last-writer-frames", daemon=True)

    def press(self, k: int, station: int) -> None:
        self.pending.append((k, station))

    def _frames(self) -> None:
        while not self.stop.wait(1 / 60):
            events, self.pending = self.pending, []
            winner = None
            for k, station in events:
                if k == self.contest[0] and k not in self.decided:
                    winner = station  # the common loop: every press event overwrites the winner
            if winner is not None:
                self.decided[self.contest[0]] = winner


class Polling:
    """Reads every line each millisecond; the first pass that sees one low decides."""

    def __init__(self, contest: list[int], per_pin: list[tuple[list[float], list[int]]]) -> None:
        self.contest = contest
        self.per_pin = per_pin
        self.decided: dict[int, tuple[int, ...]] = {}
        self.stop = threading.Event()
        self.passes = 0
        self.late_passes = 0  # passes more than 2 ms after the previous one
        self.thread = threading.Thread(target=self._poll, name="polling", daemon=True)

    def _level(self, station: int, now: float) -> int:
        times, levels = self.per_pin[station]
        i = bisect.bisect_right(times, now)
        return levels[i - 1] if i else 1

    def _poll(self) -> None:
        last = time.monotonic()
        while not self.stop.is_set():
            now = time.monotonic()
            self.passes += 1
            self.late_passes += now - last > 0.002
            last = now
            k = self.contest[0]
            if k >= 0 and k not in self.decided:
                low = tuple(s for s in range(PLAYERS) if self._level(s, now) == 0)
                if low:
                    self.decided[k] = low
            time.sleep(max(0.0, 0.001 - (time.monotonic() - now)))


# -- the box ----------------------------------------------------------------------------------


class HeavyScene:
    """The quiz's own scene, plus ``extra_s`` of pure-Python work per frame."""

    def __init__(self, extra_s: float) -> None:
        self.inner = scene_for("quiz")
        self.extra_s = extra_s

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def draw(self, *args: Any, **kwargs: Any) -> None:
        self.inner.draw(*args, **kwargs)
        end = time.perf_counter() + self.extra_s
        while time.perf_counter() < end:
            sum(range(200))


def box_outcome(events: Sequence[Any], start: int, end: int) -> Outcome:
    """The first winner or tie the box announced between two game moments."""
    for e in events:
        if e.kind in ("winner", "tie") and start <= e.t_us < end:
            return ("winner", (e.player,)) if e.kind == "winner" else ("tie", tuple(e.data["stations"]))
    return None


def virtual_outcome(edges: Sequence[tuple[int, int, int]], debounce: DebounceConfig) -> Outcome:
    """The same edges judged in virtual time (no thread, no lateness)."""
    box = Box(get("quiz"), GameSettings(PLAYERS, 1, {"settle_us": 0}), ["bell"] * PLAYERS, debounce=debounce)
    box.debouncer.start_all({(s, "bell"): 1 for s in range(PLAYERS)}, edges[0][0] - 60_000)
    box.host("arm", edges[0][0] - 50_000)
    for t, s, level in edges:
        box.step(t)
        box.edge(Edge(s, "bell", level, t), 1)
    for t in range(edges[-1][0], edges[-1][0] + 60_000, 500):
        box.step(t)
    return box_outcome(box.event_log, edges[0][0], edges[-1][0] + 60_000)


# -- one run ----------------------------------------------------------------------------------


@dataclass
class RunResult:
    outcomes: dict[str, list[Outcome]]
    script: list[Contest]
    decision: list[int] = field(default_factory=list)  # gap contests, µs
    settle: list[int] = field(default_factory=list)
    light: list[int] = field(default_factory=list)
    frame: list[int] = field(default_factory=list)
    live_vs_virtual: int = 0
    late_evidence: int = 0  # presses announced as too late to count
    guard_floor_us: int = 0
    late: int = 0
    worst_late_us: int = 0
    feeder_late_us: list[int] = field(default_factory=list)
    load: tuple[float, float] = (0.0, 0.0)
    frame_ms: float = math.nan
    budget_us: int = 0
    poll_late: float = 0.0
    decider: dict[str, list[int]] = field(default_factory=dict)  # where each decision's time went
    settle_stated: list[int] = field(default_factory=list)  # settled -> decision with the stated guard
    settle_raised: list[int] = field(default_factory=list)  # ... and with the guard raised by a late delivery


def sleep_until(due_us: int) -> None:
    while (left := due_us - box_now_us()) > 0:
        time.sleep(left / 1e6)


def one_run(script: list[Contest], seed: int, loaded: bool, folder: Path, baselines: bool = True) -> RunResult:
    profile = bench_profile()
    box = Box(get("quiz"), GameSettings(PLAYERS, seed, {"settle_us": 0}), ["bell"] * PLAYERS, debounce=profile.debounce)
    source = GpioSource(profile, mock_factory())
    source.start(box)
    box.latency_guard_us = source.report_delay_us(profile.debounce)
    box.time_offset_us = -box_now_us()
    box.debouncer.start_all(source.levels(), box_now_us() + box.time_offset_us)
    folder.mkdir(parents=True, exist_ok=True)
    box.journal = journal_mod.JournalWriter.create(folder / "run.jsonl", box.header(mode="play"))
    box_pins = [source.pins[p] for p in BELL_PINS[:PLAYERS]]

    def game_now() -> int:
        return box_now_us() + box.time_offset_us

    lights = RecordingLights([(s, "bell") for s in range(PLAYERS)], clock=game_now)
    scene = HeavyScene(EXTRA_FRAME_S if loaded else 0.0)
    presenter = Presenter(Screen.open(headless=True), scene, lights=lights, results=scene)  # type: ignore[arg-type]

    # the schedule, in box µs (CLOCK_MONOTONIC)
    origin = box_now_us() + 400_000
    starts, t = [], origin
    for c in script:
        starts.append(t + ARM_LEAD_US)
        t += ARM_LEAD_US + c.span_us + RESET_AFTER_US + QUIET_US
    total_s = (t - origin) / 1e6 + 0.6
    per_pin: list[tuple[list[float], list[int]]] = [([], []) for _ in range(PLAYERS)]
    for c, start in zip(script, starts, strict=True):
        for dt, s, level in c.edges:
            per_pin[s][0].append((start + dt) / 1e6)
            per_pin[s][1].append(level)

    contest = [-1]
    frames_loop = LastWriterPerFrame(contest)
    buttons = {0.0: ButtonSetup(None, frames_loop.press), 0.01: ButtonSetup(0.01), 0.2: ButtonSetup(0.2)} if baselines else {}
    for b in buttons.values():
        b.plan(per_pin)
    polling = Polling(contest, per_pin)
    lgpio: dict[int, list[tuple[int, int]]] = {}
    feeder_late: list[int] = []
    stop = threading.Event()

    def burn() -> None:
        while not stop.is_set():
            sum(range(1000))

    def feeder() -> None:
        for k, (c, start) in enumerate(zip(script, starts, strict=True)):
            sleep_until(start - ARM_LEAD_US)
            with box.lock:  # a host key in `play`: the frame thread's react sets the lights after it
                box.host("arm", game_now())
                presenter.light(box)
            contest[0] = k
            for dt, s, level in c.edges:
                due = start + dt
                sleep_until(due)
                feeder_late.append(box_now_us() - due)
                box_pins[s].drive(level, due)  # the kernel's stamp: the edge's own moment
                if level == 0:
                    lgpio.setdefault(k, []).append((due, s))  # lgpio-style: the edge's own level and tick
                for b in buttons.values():
                    b.inbox.put((k, s, level))
            sleep_until(start + c.span_us + RESET_AFTER_US)
            with box.lock:
                box.host("reset", game_now())
                presenter.light(box)
            for pin in box_pins:
                pin.clear_states()
        stop.set()

    threads = [threading.Thread(target=feeder, name="edge-feeder", daemon=True)]
    if baselines:
        threads += [frames_loop.thread, polling.thread]
    threads += [b.thread for b in buttons.values()]
    if loaded:
        threads.append(threading.Thread(target=burn, daemon=True))
    load_before = os.getloadavg()[0]
    for th in threads:
        th.start()
    game = LiveGame(box, presenter, source=source)  # the very object `play` runs
    result = game.run(seconds=total_s)
    assert result is not None
    stop.set()
    frames_loop.stop.set()
    polling.stop.set()
    for b in buttons.values():
        b.close()
    for th in threads:
        th.join(timeout=2)

    n = len(script)
    out: dict[str, list[Outcome]] = {name: [] for name in SETUPS}
    offset = box.time_offset_us
    run = RunResult(out, script)
    for k, (c, start) in enumerate(zip(script, starts, strict=True)):
        contact = start + c.true_us[c.first] + offset
        window_end = start + c.span_us + RESET_AFTER_US + offset
        outcome = box_outcome(result.events, start + offset, window_end)
        out["box"].append(outcome)
        virtual = virtual_outcome([(start + dt, s, lv) for dt, s, lv in c.edges], profile.debounce)
        run.live_vs_virtual += outcome != virtual
        if outcome != virtual and os.environ.get("REALTIME_DEBUG"):
            print("live != virtual", c.kind, c.value_us, c.true_us, "live", outcome, "virtual", virtual, file=sys.stderr)
        if c.kind == "gap" and outcome is not None:
            i = next((i for i, d in enumerate(result.decisions) if contact <= (d[0] or 0) < window_end), None)
            d = result.decisions[i] if i is not None else None
            if d is not None and d[0] is not None:
                run.decision.append(d[0] - contact)
                settle = d[0] - (start + c.settled_us(profile.debounce.glitch_us) + offset)
                run.settle.append(settle)
                detail = result.decision_detail[i] if i is not None and i < len(result.decision_detail) else {}
                raised = (detail.get("guard_us") or 0) > (box.stated_delay_us or 0)
                (run.settle_raised if raised else run.settle_stated).append(settle)
                for key, value in detail.items():
                    if value is not None and key != "guard_us":
                        run.decider.setdefault(key, []).append(value)
                if d[2] is not None:
                    run.frame.append(d[2] - contact)
            lit = next((t for s, t in lights.lit if s == outcome[1][0] and contact <= t < window_end), None)
            if lit is not None:
                run.light.append(lit - contact)
        presses = sorted(lgpio.get(k, []))
        if not presses:
            out["lgpio-style callback"].append(None)
        else:
            dead = tuple(s for t, s in presses if t == presses[0][0])
            out["lgpio-style callback"].append(("tie", dead) if len(dead) > 1 else ("winner", dead))
        low = polling.decided.get(k)
        out["1 kHz polling"].append(None if low is None else ("tie", low) if len(low) > 1 else ("winner", low))
        w = frames_loop.decided.get(k)
        out["last writer per frame"].append(None if w is None else ("winner", (w,)))
    for bounce, b in buttons.items():
        out[f"Button(bounce_time={'None' if bounce == 0.0 else f'{bounce:g}'})"] = b.outcomes(n)
    run.late, run.worst_late_us = box.late_deliveries, box.worst_delivery_us
    run.late_evidence = sum(e.kind == "late_evidence" for e in result.events)
    run.feeder_late_us = feeder_late
    run.load = (load_before, os.getloadavg()[0])
    run.frame_ms = statistics.median(result.frame_us) / 1000 if result.frame_us else math.nan
    run.budget_us = profile.debounce.glitch_us + (box.stated_delay_us or 0) + 1_000
    run.poll_late = polling.late_passes / max(1, polling.passes)
    return run


# -- report ------------------------------------------------------------------------------------


def pct(values: Sequence[int], p: float) -> float:
    """Nearest-rank percentile (p in 0..1), in ms."""
    s = sorted(values)
    return s[max(0, min(len(s) - 1, math.ceil(p * len(s)) - 1))] / 1000 if s else math.nan


def spread(values: Sequence[float]) -> str:
    vals = [v for v in values if not math.isnan(v)]
    if not vals:
        return "   -  /   -  /   -  "
    return f"{min(vals):6.2f}/{statistics.median(vals):6.2f}/{max(vals):6.2f}"


def sweep_table(runs: list[RunResult], kind: str, points: Sequence[int], unit: str) -> None:
    """Per set-up and point: wrong / unjustified ties / justified ties (+ picks, none), summed over runs."""
    scale = 1000 if unit == "ms" else 1
    head = f"  {'set-up':<26}" + "".join(f"{p / scale:>9g}" for p in points) + f"  {'wrong from':>10}   wrong+unj. per run"
    print(head + f"\n  {'':<26}" + "".join(f"{'w/u/j':>9}" for _ in points))
    for name in SETUPS:
        cells, first_wrong, per_run = [], None, []
        for p in points:
            tally = dict.fromkeys(("right", "wrong", "tie ok", "tie bad", "pick", "none"), 0)
            for r in runs:
                for c, o in zip(r.script, r.outcomes[name], strict=True):
                    if c.kind == kind and c.value_us == p:
                        tally[judge(c, o, DECLARED_PRECISION_US[name])] += 1
            failed = tally["wrong"] + tally["none"]
            if first_wrong is None and failed + tally["tie bad"]:
                first_wrong = p
            cell = f"{failed}/{tally['tie bad']}/{tally['tie ok']}"
            if tally["pick"]:
                cell += f"p{tally['pick']}"
            cells.append(f"{cell:>9}")
        for r in runs:
            per_run.append(sum(judge(c, o, DECLARED_PRECISION_US[name]) in ("wrong", "none", "tie bad")
                               for c, o in zip(r.script, r.outcomes[name], strict=True) if c.kind == kind))
        start = "none" if first_wrong is None else f"{first_wrong / scale:g} {unit}"
        print(f"  {name:<26}" + "".join(cells) + f"  {start:>10}   {per_run}")


def profile_table(runs: list[RunResult], kind: str, points: Sequence[int], unit: str) -> None:
    """The box's profiles in virtual time on the same edges: wrong winners per point."""
    scale = 1000 if unit == "ms" else 1
    base = bench_profile().debounce
    for label, change in PROFILES.items():
        cfg = replace(base, **change)
        cells, first_wrong = [], None
        for p in points:
            bad = n = 0
            for r in runs:
                for c in r.script:
                    if c.kind == kind and c.value_us == p:
                        n += 1
                        bad += judge(c, virtual_outcome(c.edges, cfg), 1) in ("wrong", "none", "tie bad")
            if first_wrong is None and bad:
                first_wrong = p
            cells.append(f"{bad}/{n}".rjust(9))
        start = "none" if first_wrong is None else f"{first_wrong / scale:g} {unit}"
        print(f"  box, {label:<34}" + "".join(cells) + f"  wrong from {start}")


def report(label: str, runs: list[RunResult], args: argparse.Namespace) -> None:
    print(f"\n=== {label}: {len(runs)} runs x {len(runs[0].script)} contests "
          f"(load average 1 min, before/after each run: {', '.join(f'{a:.2f}/{b:.2f}' for a, b in (r.load for r in runs))})")
    print("  cells: wrong or no winner / unjustified ties / justified ties (pN: one winner picked in a dead heat), "
          "summed over runs")
    print(f"\n  runner-up gap, µs (normal bounce up to 5 ms; {args.per_point} contests per point per run):")
    sweep_table(runs, "gap", args.gaps, "µs")
    print("\n  bounce envelope, ms (every press bounces for half to all of it; runner-up 0.1-20 ms behind):")
    sweep_table(runs, "bounce", args.envelopes, "ms")
    profile_table(runs, "bounce", args.envelopes, "ms")
    print("\n  noise spike on a station that does not press, before the real first press, width µs:")
    sweep_table(runs, "spike", args.spikes, "µs")
    profile_table(runs, "spike", args.spikes, "µs")
    report_box(runs)


def report_box(runs: list[RunResult]) -> None:
    """The box's latency figures from the real play loop."""
    budget = runs[0].budget_us / 1000
    print(f"\n  box, the real play loop with the journal on (gap contests; ms, per run p50/p99; "
          f"budget settled -> decision {budget:.1f} ms = glitch + report delay + 1 ms):")
    print("    contact->decision  settled->decision  contact->light  contact->frame   late  worst  live!=virtual"
          "  late evid.  frame  feeder late p99")
    for r in runs:
        print(f"    {pct(r.decision, .5):6.2f}/{pct(r.decision, .99):6.2f}    {pct(r.settle, .5):6.2f}/{pct(r.settle, .99):6.2f}"
              f"     {pct(r.light, .5):6.2f}/{pct(r.light, .99):6.2f}  {pct(r.frame, .5):6.2f}/{pct(r.frame, .99):6.2f}"
              f"   {r.late:>4} {r.worst_late_us / 1000:5.1f}ms {r.live_vs_virtual:>5}/{len(r.script)} {r.late_evidence:>7}"
              f"  {r.frame_ms:5.1f}ms {pct(r.feeder_late_us, .99):6.2f}ms")
    for name, key in (("contact->decision", "decision"), ("settled->decision", "settle"), ("contact->light", "light"),
                      ("contact->frame", "frame")):
        p50 = [pct(getattr(r, key), .5) for r in runs]
        p99 = [pct(getattr(r, key), .99) for r in runs]
        print(f"    {name:<18} over runs (min/median/max): p50 {spread(p50)}  p99 {spread(p99)} ms")
    met = sum(pct(r.settle, .99) <= budget for r in runs)
    print(f"    settled->decision p99 within the {budget:.1f} ms budget in {met} of {len(runs)} runs; "
          f"1 kHz polling passes more than 2 ms apart: {spread([100 * r.poll_late for r in runs])} %")
    for name, key in (("with the stated guard", "settle_stated"), ("with a raised guard", "settle_raised")):
        n = sum(len(getattr(r, key)) for r in runs)
        print(f"    settled->decision {name:<22} ({n:>3} decisions): p50 {spread([pct(getattr(r, key), .5) for r in runs])}"
              f"  p99 {spread([pct(getattr(r, key), .99) for r in runs])} ms")
    for key in ("woke_late_us", "lock_wait_us", "step_and_light_us"):
        print(f"    deciding thread {key:<18} p50 {spread([pct(r.decider.get(key, []), .5) for r in runs])}"
              f"  p99 {spread([pct(r.decider.get(key, []), .99) for r in runs])} ms")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="1 contest per point per run (default 2)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--per-point", type=int, default=None)
    parser.add_argument("--idle-only", action="store_true", help="skip the render + CPU load setting")
    parser.add_argument("--loaded-only", action="store_true", help="skip the idle setting")
    parser.add_argument("--gaps", type=lambda s: [int(v) for v in s.split(",")], default=list(GAPS_US))
    parser.add_argument("--envelopes", type=lambda s: [int(v) for v in s.split(",")], default=list(ENVELOPES_US))
    parser.add_argument("--spikes", type=lambda s: [int(v) for v in s.split(",")], default=list(SPIKES_US))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", action="store_true",
                        help="also run, interleaved, the box with no floor on its raised guard, and with "
                             "its frame not waiting for a due decision (before/after)")
    parser.add_argument("--baselines", action="store_true",
                        help="the older harness: this box beside the usual buzzer set-ups, all in one process "
                             "(the default compares the box's two designs, benchmarks/designs.py)")
    parser.add_argument("--loaded", dest="loaded_only", action="store_true", help="as --loaded-only")
    args = parser.parse_args(argv)
    if args.per_point is None:
        args.per_point = 1 if args.quick else 2
    if not args.baselines:
        import designs

        if args.envelopes == list(ENVELOPES_US):
            args.envelopes = [5_000]  # the designs differ in time, not in bounce: one normal envelope
        return designs.main(args)
    shipped_yield = display_loop.FRAME_YIELD_MAX_S
    settings = [s for s in (False, True) if not (s and args.idle_only) and not (not s and args.loaded_only)]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()}; "
          f"{args.runs} runs per setting; set-ups: {', '.join(SETUPS)}")
    with tempfile.TemporaryDirectory() as tmp:
        for loaded in settings:
            label = "render + CPU load" if loaded else "idle"
            # (label, the frame waits for a due decision); --compare interleaves
            # the variants run by run: the same script, the same minute's machine load
            variants = [(label, True)]
            if args.compare:
                variants += [(f"{label}, box whose frame does not wait for a due decision (before the fix)", False)]
            by_variant: dict[str, list[RunResult]] = {name: [] for name, _ in variants}
            for k in range(args.runs):
                script = make_script(random.Random(f"realtime-{args.seed}-{k}"), args.per_point, args.gaps,
                                     args.envelopes, args.spikes)
                for i, (name, frame_waits) in enumerate(variants):
                    display_loop.FRAME_YIELD_MAX_S = shipped_yield if frame_waits else 0.0
                    try:
                        folder = Path(tmp) / f"{int(loaded)}-{k}-{i}"
                        by_variant[name].append(one_run(script, args.seed * 100 + k, loaded, folder))
                    finally:
                        display_loop.FRAME_YIELD_MAX_S = shipped_yield
            for name, frame_waits in variants:
                if frame_waits:
                    report(name, by_variant[name], args)
                else:
                    print(f"\n=== {name}: {args.runs} runs (load average before/after each run: "
                          f"{', '.join(f'{a:.2f}/{b:.2f}' for a, b in (r.load for r in by_variant[name]))})")
                    report_box(by_variant[name])
    return 0


if __name__ == "__main__":
    sys.exit(main())
