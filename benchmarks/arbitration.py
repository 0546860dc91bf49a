"""Arbitration benchmark: who pressed first, this box vs. the usual Pi buzzer.

Seeded contested presses (2-6 players, the runner-up 0.05-20 ms behind the
first, every press a realistic bounce train from ``BounceModel``) are judged by

(a) this pipeline, fed the edges with their source stamps: ``GpioSource`` on
    gpiozero's MockFactory (``pin.drive(level, t_us)``) -> ``Box`` running the
    quiz engine, armed, stepped like ``buzzerbox play`` steps it -> debounce ->
    arbiter. Virtual time, no waiting: 10,000 contests by default; (a') the
    same with the quiz's ``settle_us`` at 10 ms (checks the pending-press bug);
(b) what most Raspberry Pi buzzer projects do: a gpiozero ``Button(pin,
    bounce_time=0.01, pull_up=True)`` whose ``when_pressed`` reads
    ``time.monotonic()``, fed the same edges in real time from a feeder thread
    while a pygame renderer loads the same process. Its pin emulates RPi.GPIO's
    ``bouncetime`` (gpiozero's MockPin ignores ``bounce``) and, like gpiozero's
    RPi.GPIO pin, the callback reads the level when it runs. 1,000 contests.

Both count wrong winners and the error of every stamped press vs. the true
first contact (p50, p99, max). (a) also reports press-to-decision latency
in-process (``time.perf_counter_ns`` around the Box calls).

    PYTHONPATH=. python benchmarks/arbitration.py            # full run (~3 min)
    PYTHONPATH=. python benchmarks/arbitration.py --quick    # ~30 s
"""

from __future__ import annotations

import argparse
import bisect
import math
import os
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from controller.box import profile as profile_mod  # noqa: E402
from controller.box.runtime import Box  # noqa: E402
from controller.box.sources.gpio import GpioSource, mock_factory  # noqa: E402
from controller.box.sources.simulated import BounceModel  # noqa: E402
from games.registry import get as get_game  # noqa: E402

STATIONS = 6
BELL_PINS = (17, 5, 19, 20, 16, 12)  # BCM GPIOs of the six bells (header, not reserved)
MIN_GAP_US, MAX_GAP_US = 50, 20_000
HOLD_US = (60_000, 120_000)  # how long a bell is held (BounceModel's 60-220 ms, shortened so (b) runs faster)


# -- the contests ---------------------------------------------------------------------


@dataclass(frozen=True)
class Contest:
    """One contested press: who pressed when (µs from the contest's start) and
    every edge their switches made (press bounce, hold, release bounce)."""

    true_us: dict[int, int]  # station -> true first contact
    release_us: dict[int, int]  # station -> first edge of the release
    edges: list[tuple[int, int, int]]  # (t_us, station, level), time order

    @property
    def first(self) -> int:
        return min(self.true_us, key=self.true_us.__getitem__)

    @property
    def gap_us(self) -> int:
        """How far the runner-up is behind the first."""
        times = sorted(self.true_us.values())
        return times[1] - times[0]

    @property
    def span_us(self) -> int:
        return self.edges[-1][0]


def make_contests(count: int, seed: int, model: BounceModel) -> list[Contest]:
    """2-6 players; the runner-up 0.05-20 ms (log-uniform) behind the first, the
    others anywhere up to 20 ms behind; each press a seeded bounce train."""
    rng = random.Random(f"arbitration-{seed}")
    contests = []
    for _ in range(count):
        n = rng.randint(2, STATIONS)
        stations = rng.sample(range(STATIONS), n)
        gap = round(math.exp(rng.uniform(math.log(MIN_GAP_US), math.log(MAX_GAP_US))))
        offsets = [0, gap] + [rng.randint(gap, MAX_GAP_US) for _ in range(n - 2)]
        start = 1_000  # leave room before the first edge
        true_us = {s: start + off for s, off in zip(stations, offsets, strict=True)}
        holds = {s: rng.randint(model.min_hold_us, model.max_hold_us) for s in stations}
        edges = [(t, s, level) for s in stations for t, level in model.train(rng, true_us[s], holds[s])]
        edges.sort()
        contests.append(Contest(true_us, {s: true_us[s] + holds[s] for s in stations}, edges))
    return contests


# -- figures ----------------------------------------------------------------------------


def pct(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile (p in 0..100) of a non-empty sequence."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[rank]


@dataclass
class Tally:
    """What one judge got right and wrong."""

    name: str
    contests: int = 0
    wrong: int = 0
    no_winner: int = 0
    ties: int = 0
    ties_unjustified: int = 0  # called a tie although the true gap was above the precision
    missed: int = 0  # a real press that never registered
    phantom: int = 0  # a press registered twice / out of bounce
    errors_us: list[float] = field(default_factory=list)
    wrong_gaps_us: list[int] = field(default_factory=list)
    wrong_first_missed: int = 0  # wrong or no winner because the true first press never registered

    def judge(self, contest: Contest, winner: int | None, tie: list[int] | None, precision_us: int) -> None:
        self.contests += 1
        if tie:
            self.ties += 1
            if contest.gap_us >= precision_us:
                self.ties_unjustified += 1
        elif winner is None:
            self.no_winner += 1
        elif winner != contest.first:
            self.wrong += 1
            self.wrong_gaps_us.append(contest.gap_us)


# -- (a) this pipeline ------------------------------------------------------------------


def bench_profile() -> profile_mod.Profile:
    """Six bells on the header, the shipped profile's debounce limits."""
    shipped = profile_mod.load("header-4")
    data = {
        "name": "bench-6",
        "source": "gpio",
        "debounce": {
            "bounce_us": shipped.debounce.bounce_us,
            "glitch_us": shipped.debounce.glitch_us,
            "stuck_us": shipped.debounce.stuck_us,
        },
        "stations": [{"name": f"P{i + 1}", "kind": "bell", "inputs": {"bell": pin}} for i, pin in enumerate(BELL_PINS)],
    }
    return profile_mod.parse(data)


@dataclass
class PipelineResult:
    tally: Tally
    latency_ns: list[int]  # last edge handed to the Box -> winner event returned
    step_ns: list[int]  # the box.step call that returned the winner
    decided_after_us: list[int]  # box time: true first contact -> the step that decided
    precision_us: int
    seconds: float
    settle_us: int


def run_pipeline(
    contests: Sequence[Contest], tick_us: int, guard_us: int, seed: int, name: str, settle_us: int | None = None
) -> PipelineResult:
    """Feed every contest through GpioSource(mock) -> Box(quiz, armed), stepping the
    box every ``tick_us`` of box time as ``buzzerbox play`` does (virtual time).
    ``settle_us`` overrides the quiz's option of that name (None: its default)."""
    prof = bench_profile()
    spec = get_game("quiz")
    options = {} if settle_us is None else {"settle_us": settle_us}
    settings = spec.settings(STATIONS, seed, **options)
    box = Box(spec, settings, prof.station_kinds(), debounce=prof.debounce, latency_guard_us=guard_us)
    source = GpioSource(prof, pin_factory=mock_factory())
    source.start(box)
    box.debouncer.start_all(source.levels(), 0)
    pins = [source.pins[p] for p in BELL_PINS]
    tally = Tally(name)
    latency: list[int] = []
    step_ns: list[int] = []
    decided_after: list[int] = []
    period = 1_000_000  # one contest per box second
    settle_tail = prof.debounce.bounce_us + guard_us + 2 * tick_us
    perf = time.perf_counter_ns
    started = time.perf_counter()
    for k, contest in enumerate(contests):
        base = (k + 1) * period
        box.step(base - 500_000)
        box.host("arm", base - 400_000)
        seen = len(box.press_log)
        edges = [(base + t, station, level) for t, station, level in contest.edges]
        i, n = 0, len(edges)
        now = base  # the loop's first step after the first edge
        end = edges[-1][0] + settle_tail
        handed_ns = 0
        decision: tuple[int | None, list[int] | None] | None = None
        while now <= end:
            while i < n and edges[i][0] <= now:
                t, station, level = edges[i]
                handed_ns = perf()
                pins[station].drive(level, t)  # pin callback -> GpioSource -> box.edge
                i += 1
            t_step = perf()
            events = box.step(now)
            t_done = perf()
            for event in events:
                if decision is None and event.kind in ("winner", "tie"):
                    latency.append(t_done - handed_ns)
                    step_ns.append(t_done - t_step)
                    decided_after.append(now - (base + contest.true_us[contest.first]))
                    decision = (event.player, list(event.data["stations"]) if event.kind == "tie" else None)
            now += tick_us
        winner, tie = decision if decision is not None else (None, None)
        tally.judge(contest, winner, tie, source.precision_us)
        stamped: dict[int, int] = {}
        for press in list(box.press_log)[seen:]:
            if press.station in stamped:
                tally.phantom += 1
            else:
                stamped[press.station] = press.t_us
        for station, true in contest.true_us.items():
            if station in stamped:
                tally.errors_us.append(abs(stamped[station] - (base + true)))
            else:
                tally.missed += 1
        box.host("next", end)
        for pin in pins:
            pin.clear_states()  # MockPin keeps a history of every edge: keep memory flat
        box.event_log.clear()
        box.press_log.clear()
    seconds = time.perf_counter() - started
    source.stop()
    settle = box.engine.options.settle_us  # type: ignore[attr-defined]
    return PipelineResult(tally, latency, step_ns, decided_after, source.precision_us, seconds, settle)


# -- (b) the usual Pi buzzer --------------------------------------------------------------


def rpigpio_like_pin_class(level_at_callback: bool = True) -> type:
    """A MockPin that behaves like an RPi.GPIO pin with ``add_event_detect``.

    gpiozero's MockPin ignores ``bounce`` (its ``_set_bounce`` is a no-op), so
    this pin does what RPi.GPIO's ``bouncetime`` does: an edge is dropped if it
    comes within ``bounce`` seconds of the last *accepted* edge (RPi.GPIO
    compares ``gettimeofday`` in its edge thread with ``lastcall``). The line's
    level follows the physical edge plan in real time, and, like gpiozero's
    RPi.GPIO pin (``GPIO.input`` in ``_call_when_changed``), the callback gets
    the level read *when it runs* — during a bounce that can be the idle level.
    ``level_at_callback=False`` hands over the edge's own level instead.
    """
    from gpiozero.pins.mock import MockPin
    from gpiozero.pins.pi import PiPin

    class RpiGpioLikePin(MockPin):
        def __init__(self, factory: Any, info: Any) -> None:
            super().__init__(factory, info)
            self.plan_s: list[float] = []
            self.plan_level: list[int] = []
            self.last_accepted: float | None = None
            self.suppressed = 0

        def set_plan(self, times_s: list[float], levels: list[int]) -> None:
            self.plan_s, self.plan_level = times_s, levels

        def _get_state(self) -> bool:
            i = bisect.bisect_right(self.plan_s, time.monotonic())
            return bool(self.plan_level[i - 1]) if i else self._pull == "up"

        def edge_seen(self, level: int) -> None:
            """The edge-detect thread noticed an edge (to ``level``) on this line."""
            now = time.monotonic()
            if self._bounce is not None and self.last_accepted is not None and now - self.last_accepted <= self._bounce:
                self.suppressed += 1
                return
            self.last_accepted = now
            if self._when_changed is not None:
                state = self._get_state() if level_at_callback else bool(level)
                PiPin._call_when_changed(self, time.monotonic(), state)

    return RpiGpioLikePin


class RenderLoad:
    """The CPU load of a buzzer app's screen, in the same process as the pin
    callbacks: a thread that renders 60 frames a second with pygame (dummy video
    driver). Per frame: ``python_ms`` of pure-Python work (animation state,
    layout, a view dict serialised: the app's own code), then a fill, six
    station tiles with text, 600 particles as circles, a smoothscale to
    800x480 and a flip."""

    def __init__(self, python_ms: float = 3.0, particles: int = 600, size: tuple[int, int] = (800, 480)) -> None:
        self.python_s = python_ms / 1000
        self.particles = particles
        self.size = size
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.frames = 0
        self.busy_s = 0.0
        self.python_busy_s = 0.0
        self.thread = threading.Thread(target=self._run, name="render-load", daemon=True)

    def start(self) -> None:
        self.thread.start()
        self.ready.wait(10)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)

    def _run(self) -> None:
        import json

        import pygame

        pygame.display.init()
        pygame.font.init()
        screen = pygame.display.set_mode(self.size)
        w, h = self.size
        half = pygame.Surface((w // 2, h // 2))
        font = pygame.font.Font(None, 40)
        rng = random.Random(7)
        parts = [[rng.uniform(0, w), rng.uniform(0, h), rng.uniform(-3, 3), rng.uniform(-3, 3)] for _ in range(self.particles)]
        frame_s = 1 / 60
        next_frame = time.perf_counter()
        self.ready.set()
        while not self.stop.is_set():
            t0 = time.perf_counter()
            for p in parts:  # animation state
                p[0] += p[2]
                p[1] += p[3]
                if not 0 <= p[0] < w:
                    p[2] = -p[2]
                if not 0 <= p[1] < h:
                    p[3] = -p[3]
                p[3] += 0.05 * math.sin(p[0] / 50)
            layout = [(i % 3 * w // 3, i // 3 * h // 2, f"Player {i + 1}: {self.frames % 97}") for i in range(STATIONS)]
            while time.perf_counter() - t0 < self.python_s:  # the rest of the app's per-frame Python
                json.dumps({"frame": self.frames, "tiles": layout, "parts": parts[:50]})
            t1 = time.perf_counter()
            half.fill((20, 20, 40))
            for x, y, label in layout:
                pygame.draw.rect(half, (60, 60 + x % 120, 120), (x // 2 + 4, y // 2 + 4, w // 6 - 8, h // 4 - 8), border_radius=8)
                half.blit(font.render(label, True, (255, 255, 255)), (x // 2 + 8, y // 2 + 8))
            for x, y, _, _ in parts:
                pygame.draw.circle(half, (250, 200, 80), (int(x) // 2, int(y) // 2), 3)
            pygame.transform.smoothscale(half, self.size, screen)
            pygame.display.flip()
            t2 = time.perf_counter()
            self.frames += 1
            self.python_busy_s += t1 - t0
            self.busy_s += t2 - t0
            next_frame += frame_s
            delay = next_frame - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            else:
                next_frame = time.perf_counter()
        pygame.quit()


@dataclass
class ButtonResult:
    tally: Tally
    suppressed: int
    seconds: float
    feeder_late_us: list[float]
    load: RenderLoad | None
    level_at_callback: bool


def button_timeline(contests: Sequence[Contest], bounce_time: float, gap_s: float) -> list[float]:
    """Start of each contest on the real timeline (s), once the last one settled."""
    starts, t = [], 0.0
    for contest in contests:
        starts.append(t)
        t += contest.span_us / 1e6 + bounce_time + gap_s
    return starts


def run_buttons(
    contests: Sequence[Contest],
    bounce_time: float,
    load_python_ms: float | None,
    level_at_callback: bool = True,
    gap_s: float = 0.02,
) -> ButtonResult:
    """Play the contests in real time into gpiozero Buttons (RPi.GPIO-like pins)
    from a feeder thread, with the render load (None: no load) in this process."""
    from gpiozero import Button
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory(pin_class=rpigpio_like_pin_class(level_at_callback))
    hits: list[tuple[int, int, float]] = []  # (contest, station, time.monotonic() in when_pressed)
    current = [0]

    def on_pressed(station: int) -> Callable[[], None]:
        def pressed() -> None:  # what the typical project does
            hits.append((current[0], station, time.monotonic()))

        return pressed

    buttons = []
    for station, pin in enumerate(BELL_PINS):
        button = Button(pin, pull_up=True, bounce_time=bounce_time, pin_factory=factory)
        button.when_pressed = on_pressed(station)
        buttons.append(button)
    pins = [factory.pin(p) for p in BELL_PINS]

    render = RenderLoad(load_python_ms) if load_python_ms is not None else None
    if render is not None:
        render.start()
        time.sleep(0.5)  # let it reach its frame rate
    starts = button_timeline(contests, bounce_time, gap_s)
    origin = time.monotonic() + 0.3
    plan: list[tuple[float, int, int, int]] = []  # (due, contest, station, level)
    per_pin: list[tuple[list[float], list[int]]] = [([], []) for _ in range(STATIONS)]
    for k, contest in enumerate(contests):
        for t_us, station, level in contest.edges:
            due = origin + starts[k] + t_us / 1e6
            plan.append((due, k, station, level))
            per_pin[station][0].append(due)
            per_pin[station][1].append(level)
    plan.sort()
    for pin, (times, levels) in zip(pins, per_pin, strict=True):
        pin.set_plan(times, levels)

    late: list[float] = []

    def feed() -> None:
        """Plays the switch and RPi.GPIO's edge thread: wake at each edge's due time."""
        for due, k, station, level in plan:
            while (left := due - time.monotonic()) > 0:
                time.sleep(left)
            late.append((time.monotonic() - due) * 1e6)
            current[0] = k
            pins[station].edge_seen(level)

    started = time.perf_counter()
    feeder = threading.Thread(target=feed, name="edge-feeder")
    feeder.start()
    feeder.join()
    seconds = time.perf_counter() - started
    if render is not None:
        render.close()

    label = "Button(bounce_time=" + f"{bounce_time:g})" + ("" if level_at_callback else " edge lvl")
    tally = Tally(f"(b) {label}")
    by_contest: dict[int, list[tuple[int, float]]] = {}
    for k, station, stamp in hits:
        by_contest.setdefault(k, []).append((station, stamp))
    for k, contest in enumerate(contests):
        at = origin + starts[k]
        got = sorted(by_contest.get(k, []), key=lambda hit: hit[1])
        winner = got[0][0] if got else None  # the app's rule: the first when_pressed wins
        tie = [s for s, v in got if v == got[0][1]] if len(got) > 1 and got[0][1] == got[1][1] else None
        tally.judge(contest, winner, tie, 1)
        stamps: dict[int, float] = {}
        for station, stamp in got:
            real = station in contest.true_us and stamp < at + contest.release_us[station] / 1e6
            if not real or station in stamps:
                tally.phantom += 1  # fired on a release bounce, or twice
            else:
                stamps[station] = stamp
        for station, true in contest.true_us.items():
            if station in stamps:
                tally.errors_us.append((stamps[station] - (at + true / 1e6)) * 1e6)
            else:
                tally.missed += 1
        if winner != contest.first and contest.first not in stamps:
            tally.wrong_first_missed += 1
    suppressed = sum(pin.suppressed for pin in pins)
    for button in buttons:
        button.close()
    factory.close()
    return ButtonResult(tally, suppressed, seconds, late, render, level_at_callback)


# -- report -----------------------------------------------------------------------------


def row(t: Tally) -> str:
    e = t.errors_us or [math.nan]
    frac = 100 * t.wrong / t.contests if t.contests else 0.0
    return (
        f"{t.name:<34} {t.contests:>6} {t.wrong:>5} {frac:>6.2f}% {t.no_winner:>4} {t.ties:>4} "
        f"{t.missed:>6} {t.phantom:>7} {pct(e, 50):>8.0f} {pct(e, 99):>8.0f} {max(e):>8.0f}"
    )


def report(pipelines: list[PipelineResult], buttons: list[ButtonResult], args: argparse.Namespace) -> None:
    print()
    print(f"seed {args.seed}; 2-{STATIONS} players; runner-up {MIN_GAP_US / 1000:g}-{MAX_GAP_US / 1000:g} ms behind "
          f"the first (log-uniform); BounceModel trains, holds {HOLD_US[0] // 1000}-{HOLD_US[1] // 1000} ms")
    print()
    head = f"{'judge':<34} {'runs':>6} {'wrong':>5} {'':>7} {'none':>4} {'ties':>4} {'missed':>6} {'phantom':>7} "
    head += f"{'err p50':>8} {'err p99':>8} {'err max':>8}"
    print(head)
    print("-" * len(head))
    for result in [*pipelines, *buttons]:
        print(row(result.tally))
    print("(err: stamped press time - true first contact, µs; missed: real presses never registered;")
    print(" phantom: registrations from a release bounce or a second one for the same press)")
    print()
    for a in pipelines:
        ms = [v / 1000 for v in a.decided_after_us]
        print(f"{a.tally.name}: GpioSource(mock, {a.precision_us} µs) -> Box(quiz, armed), stepped every "
              f"{args.tick_us} µs, latency guard {args.guard_us} µs, quiz settle_us {a.settle_us}; {a.seconds:.1f} s")
        print(f"    press-to-decision in-process (last edge handed to the Box -> winner event returned): "
              f"median {pct(a.latency_ns, 50) / 1000:.1f} µs, p99 {pct(a.latency_ns, 99) / 1000:.1f} µs; "
              f"the deciding box.step alone: median {pct(a.step_ns, 50) / 1000:.1f} µs, p99 {pct(a.step_ns, 99) / 1000:.1f} µs")
        print(f"    decided at box time first contact + {pct(ms, 50):.1f} ms (median), {pct(ms, 99):.1f} ms (p99)")
        if a.tally.wrong_gaps_us:
            gaps = a.tally.wrong_gaps_us
            print(f"    wrong winners: true gap to the runner-up median {pct(gaps, 50)} µs, max {max(gaps)} µs")
    for b in buttons:
        print(f"{b.tally.name}: {b.seconds:.0f} s real time; feeder woke late by p50 {pct(b.feeder_late_us, 50):.0f} µs, "
              f"p99 {pct(b.feeder_late_us, 99):.0f} µs, max {max(b.feeder_late_us):.0f} µs; "
              f"{b.suppressed} edges dropped by bounce_time")
        if b.load is not None and b.load.frames:
            print(f"    load: pygame renderer thread at {b.load.frames / b.seconds:.0f} fps, busy "
                  f"{1000 * b.load.busy_s / b.load.frames:.1f} ms per frame "
                  f"({1000 * b.load.python_busy_s / b.load.frames:.1f} ms of it pure Python)")
        else:
            print("    load: none")
        if b.tally.wrong_gaps_us:
            gaps = b.tally.wrong_gaps_us
            print(f"    wrong winners: true gap to the runner-up median {pct(gaps, 50)} µs, max {max(gaps)} µs; "
                  f"{b.tally.wrong_first_missed} of the {b.tally.wrong + b.tally.no_winner} wrong/none "
                  "had the true first press missed, the rest were reordered by callback delay")
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--contests", type=int, default=10_000, help="contests for (a) (default 10,000)")
    parser.add_argument("--button-contests", type=int, default=1_000, help="contests for (b), played in real time (default 1,000)")
    parser.add_argument("--quick", action="store_true", help="1,000 contests for (a), 150 for (b): about 30 s")
    parser.add_argument("--tick-us", type=int, default=2_000, help="(a) the loop's step period in box time (play: 2 ms)")
    parser.add_argument("--guard-us", type=int, default=2_000, help="(a) the Box's latency guard (play: 2 ms)")
    parser.add_argument("--check-settle-us", type=int, default=10_000,
                        help="(a') rerun (a) with the quiz's settle_us set to this (0: skip)")
    parser.add_argument("--bounce-time", type=float, default=0.01, help="(b) the Button's bounce_time, seconds")
    parser.add_argument("--load-python-ms", type=float, default=3.0, help="(b) pure-Python work per rendered frame, ms")
    parser.add_argument("--no-load", action="store_true", help="(b) without the render load")
    parser.add_argument("--edge-level", action="store_true",
                        help="(b) the callback gets the edge's level, not the level read when it runs")
    parser.add_argument("--only", choices=("a", "b"), help="run one side only")
    args = parser.parse_args(argv)
    if args.quick:
        args.contests, args.button_contests = 1_000, 150
    model = BounceModel(min_hold_us=HOLD_US[0], max_hold_us=HOLD_US[1])
    pipelines: list[PipelineResult] = []
    buttons: list[ButtonResult] = []
    if args.only != "b":
        contests = make_contests(args.contests, args.seed, model)
        print(f"(a) {len(contests)} contests through the pipeline ...", file=sys.stderr)
        pipelines.append(run_pipeline(contests, args.tick_us, args.guard_us, args.seed, "(a) this box"))
        if args.check_settle_us:
            print(f"(a') again with settle_us={args.check_settle_us} ...", file=sys.stderr)
            name = f"(a') same, settle_us={args.check_settle_us}"
            pipelines.append(run_pipeline(contests, args.tick_us, args.guard_us, args.seed, name, args.check_settle_us))
    if args.only != "a":
        contests = make_contests(args.button_contests, args.seed, model)  # the first N of (a)'s contests
        starts = button_timeline(contests, args.bounce_time, 0.02)
        est = starts[-1] + contests[-1].span_us / 1e6
        print(f"(b) {len(contests)} contests in real time (~{est:.0f} s) ...", file=sys.stderr)
        load = None if args.no_load else args.load_python_ms
        buttons.append(run_buttons(contests, args.bounce_time, load, not args.edge_level))
    report(pipelines, buttons, args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
