"""Real-time harness: the real ``play`` loop (``controller.display.loop.run``
with its deciding thread), the journal writer on (fsync), the quiz's scene
drawn headless, contested presses driven into gpiozero mock pins by a feeder
thread at the wall clock's pace, each with a realistic bounce train.

For every contest it measures, on the box clock (game µs):

* contact -> decision: the first contact of the true first press to the step
  that announced the winner (``RunResult.decisions``),
* contact -> light: to the winner's light being set ``on`` (a recording light
  back-end, set from the deciding thread),
* contact -> frame: to the first frame flipped after the decision,

and counts wrong winners (against the stamps the feeder actually drove: the
mock pin's tick is the drive moment, exact, so this proves the ordering and
the timing of the decision path, not the capture error of a real pin). Two
load settings in the same run: idle, and "render + CPU" (each frame costs an
extra 30 ms of pure-Python work holding the GIL, and a thread burns CPU).
Each setting is repeated (>= 5) and the spread of the per-run p50/p99 and the
machine's load average are printed.

The budget the box aims at is contact + glitch filter + report delay + 1 ms
(p99). The quiz runs with ``settle_us`` 0 here: the box's horizon already
waits out the report delay; the quiz's own 2 ms default would add to it.

What it cannot show: a real pin's capture error and interrupt latency (the
mock stamps exactly), USB or a Pi's slower cores. Baselines (gpiozero
``Button`` at several ``bounce_time``s, polling, last-writer-per-frame) are in
``benchmarks/arbitration.py`` (b), not yet in this harness.

    PYTHONPATH=. python benchmarks/realtime.py            # ~3 min on 2 cores
    PYTHONPATH=. python benchmarks/realtime.py --quick    # ~1 min
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parent))

from arbitration import BELL_PINS, bench_profile  # noqa: E402

from controller import journal as journal_mod  # noqa: E402
from controller.display.loop import Presenter  # noqa: E402
from controller.display.screen import Screen  # noqa: E402
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


class RecordingLights:
    """A light back-end that notes when each station's light went on."""

    def __init__(self, clock: Any) -> None:
        self.clock = clock
        self.on: list[tuple[int, int]] = []

    def set(self, station: int, input: str, mode: str) -> None:
        if mode == "on":
            self.on.append((station, self.clock()))

    def lights(self) -> list[tuple[int, str]]:
        return [(s, "bell") for s in range(PLAYERS)]

    def close(self) -> None:
        pass


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


def one_run(contests: int, seed: int, loaded: bool, folder: Path) -> dict[str, Any]:
    spec = get("quiz")
    profile = bench_profile()
    box = Box(spec, GameSettings(PLAYERS, seed, {"settle_us": 0}), ["bell"] * PLAYERS, debounce=profile.debounce)
    factory = mock_factory()
    source = GpioSource(profile, factory)
    source.start(box)
    box.latency_guard_us = source.report_delay_us(profile.debounce)
    box.time_offset_us = -box_now_us()
    box.debouncer.start_all(source.levels(), box_now_us() + box.time_offset_us)
    box.journal = journal_mod.JournalWriter.create(folder / f"run-{seed}-{loaded}.jsonl", box.header(mode="play"))
    pins = [source.pins[p] for p in BELL_PINS[:PLAYERS]]

    def game_now() -> int:
        return box_now_us() + box.time_offset_us

    lights = RecordingLights(game_now)
    scene = HeavyScene(EXTRA_FRAME_S if loaded else 0.0)
    presenter = Presenter(Screen.open(headless=True), scene, lights=lights, results=scene)  # type: ignore[arg-type]
    model = BounceModel()
    rng = random.Random(f"realtime-{seed}")
    truths: list[tuple[int, int, int]] = []  # (contact game µs, true first station, runner-up gap µs)
    driven: list[list[tuple[int, int, int]]] = []  # every contest's edges as driven (game µs, station, level)
    settled: list[int] = []  # when the first press's line settled (its last onset edge), game µs
    stop = threading.Event()

    def burn() -> None:
        while not stop.is_set():
            sum(range(1000))

    def feeder() -> None:
        time.sleep(0.2)
        for _ in range(contests):
            with box.lock:
                box.host("arm", game_now())
            time.sleep(0.08)
            stations = rng.sample(range(PLAYERS), rng.randint(2, PLAYERS))
            gap = rng.choice([0, 20, 50, 200, 1_000, 2_000, 5_000])
            base = box_now_us() + 2_000
            edges = []
            for k, s in enumerate(stations):
                start = base + (0 if k == 0 else gap + rng.randint(0, 3_000) * (k > 1))
                edges += [(t, s, level) for t, level in model.train(rng, start, rng.randint(40_000, 80_000))]
            edges.sort()
            first: dict[int, int] = {}
            drove: list[tuple[int, int, int]] = []
            for t, s, level in edges:
                wait = t - box_now_us()
                if wait > 400:
                    time.sleep((wait - 300) / 1e6)  # sleep most of the way (the feeder must not hog the GIL) ...
                while box_now_us() < t:
                    pass  # ... and spin the rest: sleep() alone would add its own lateness to the stamp order
                stamp = box_now_us()
                if s not in first and level == 0:
                    first[s] = stamp
                pins[s].drive(level, stamp)
                drove.append((stamp + box.time_offset_us, s, level))
            order = sorted(first, key=first.__getitem__)
            driven.append(drove)
            onset = [t for t, s, _ in drove if s == order[0] and t < first[order[0]] + box.time_offset_us + 20_000]
            settled.append(max(onset))
            truths.append((first[order[0]] + box.time_offset_us, order[0], first[order[1]] - first[order[0]]))
            if os.environ.get("REALTIME_DEBUG"):
                print("contest", gap, {s: t - first[order[0]] for s, t in first.items()}, file=sys.stderr)
            time.sleep(0.05)
            with box.lock:
                box.host("reset", game_now())
            for pin in pins:
                pin.clear_states()
            time.sleep(0.03)
        stop.set()

    threads = [threading.Thread(target=feeder, daemon=True)]
    if loaded:
        threads.append(threading.Thread(target=burn, daemon=True))
    for th in threads:
        th.start()
    load_before = os.getloadavg()[0]
    # the very object `play` runs: measured report delay, bounded logs, the journal's end on close
    game = LiveGame(box, presenter, source=source)
    result = game.run(seconds=0.2 + contests * 0.35 + 0.5)
    assert result is not None
    stop.set()
    for th in threads:
        th.join(timeout=2)
    winners = [e for e in result.events if e.kind in ("winner", "tie")]
    decision, settle, light, frame, wrong, ties = [], [], [], [], 0, 0
    base_wrong = dict.fromkeys(BASELINES, 0)
    for (contact, _first, _gap), edges, calm in zip(truths, driven, settled, strict=False):
        won = next((e for e in winners if e.t_us >= contact), None)
        if won is None:
            continue
        expected = virtual_winner(edges, profile.debounce, seed)
        if won.kind == "tie":
            ties += 1
        if (won.kind, won.player) != expected:
            wrong += 1
            if os.environ.get("REALTIME_DEBUG"):
                print("wrong", contact, expected, won, file=sys.stderr)
        for name, judge in BASELINES.items():
            base_wrong[name] += judge(edges) != expected[1]
        d = next((d for d in result.decisions if d[0] >= contact), None)
        if d is not None:
            decision.append(d[0] - contact)
            settle.append(d[0] - calm)
            if d[2] is not None:
                frame.append(d[2] - contact)
        lit = next((t for s, t in lights.on if t >= contact), None)
        if lit is not None:
            light.append(lit - contact)
    return {"baselines": base_wrong, "decision": decision, "settle": settle, "light": light, "frame": frame, "wrong": wrong, "ties": ties,
            "contests": len(truths), "late": box.late_deliveries, "load": max(load_before, os.getloadavg()[0]),
            "budget": profile.debounce.glitch_us + (box.stated_delay_us or 0) + 1_000,
            "frame_ms": statistics.median(result.frame_us) / 1000 if result.frame_us else float("nan")}


def first_edge(edges: list[tuple[int, int, int]]) -> int | None:
    """lgpio-style callback (each edge's own level and tick), first falling edge wins."""
    return next((s for _t, s, level in edges if level == 0), None)


def sampled(period_us: int, phase_us: int) -> Any:
    """A loop that reads every pin each ``period_us`` and lets the first station
    it sees pressed win (the lowest number when several are seen in one pass):
    1 kHz polling, or last-writer-per-frame at 60 fps."""

    def judge(edges: list[tuple[int, int, int]]) -> int | None:
        level = dict.fromkeys(range(PLAYERS), 1)
        t, i = edges[0][0] - edges[0][0] % period_us + phase_us, 0
        while i < len(edges) or t <= edges[-1][0]:
            while i < len(edges) and edges[i][0] <= t:
                level[edges[i][1]] = edges[i][2]
                i += 1
            seen = [s for s in range(PLAYERS) if level[s] == 0]
            if seen:
                return seen[0]
            t += period_us
        return None

    return judge


#: judged offline on the very edges the box was fed (a model of each set-up, not a run of it)
BASELINES = {"lgpio-style callback": first_edge, "1 kHz polling": sampled(1_000, 373),
             "read per 60 fps frame": sampled(16_667, 5_011)}


def virtual_winner(edges: list[tuple[int, int, int]], debounce: Any, seed: int) -> tuple[str, int | None]:
    """The same driven edges, judged in virtual time (no thread, no lateness):
    what the box must decide. A press the driving turned into noise (a sleep
    overshooting under load) is judged the same way in both."""
    spec = get("quiz")
    box = Box(spec, GameSettings(PLAYERS, seed, {"settle_us": 0}), ["bell"] * PLAYERS, debounce=debounce)
    box.host("arm", edges[0][0] - 50_000)
    for t, s, level in edges:
        box.step(t)
        box.edge(Edge(s, "bell", level, t), 1)
    for t in range(edges[-1][0], edges[-1][0] + 50_000, 500):
        for e in box.step(t):
            if e.kind in ("winner", "tie"):
                return e.kind, e.player
    won = next((e for e in box.event_log if e.kind in ("winner", "tie")), None)
    return ("none", None) if won is None else (won.kind, won.player)


def pct(values: list[int], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))] / 1000 if s else float("nan")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer contests per run")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    contests = 12 if args.quick else 30
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {args.runs} runs x {contests} contests per setting")
    with tempfile.TemporaryDirectory() as tmp:
        for loaded in (False, True):
            label = "render + CPU load" if loaded else "idle"
            print(f"\n{label}: per run  p50/p99 ms  contact->decision | settled->decision | contact->light | "
                  "->frame   wrong ties late load frame")
            runs = [one_run(contests, seed, loaded, Path(tmp)) for seed in range(args.runs)]
            for r in runs:
                print(f"  {pct(r['decision'], .5):5.2f}/{pct(r['decision'], .99):5.2f}   "
                      f"{pct(r['settle'], .5):5.2f}/{pct(r['settle'], .99):5.2f}   "
                      f"{pct(r['light'], .5):5.2f}/{pct(r['light'], .99):5.2f}   "
                      f"{pct(r['frame'], .5):6.2f}/{pct(r['frame'], .99):6.2f}   "
                      f"{r['wrong']:>3}/{r['contests']} {r['ties']:>3} {r['late']:>4} {r['load']:5.2f} "
                      f"{r['frame_ms']:5.1f} ms")
            p99s = [pct(r["settle"], .99) for r in runs]
            budget = runs[0]["budget"] / 1000
            for name in BASELINES:
                wrongs = [r["baselines"][name] for r in runs]
                print(f"  baseline {name} (same edges, judged offline): wrong winners per run {wrongs}")
            print(f"  settled->decision p99 over runs: min {min(p99s):.2f}, median {statistics.median(p99s):.2f}, "
                  f"max {max(p99s):.2f} ms (budget glitch + report delay + 1 ms = {budget:.1f} ms); "
                  f"wrong winners {sum(r['wrong'] for r in runs)}/{sum(r['contests'] for r in runs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
