"""The two designs side by side (``benchmarks/realtime.py``'s default): the
box deciding in a process of its own (split, what ``play`` runs) and the
one-process baseline (``play --one-process``), each run as ``play`` itself
(``python -m controller play quiz --profile header-4 --window`` on SDL's
dummy driver: real frames at 60 fps into memory), interleaved run by run on
the same seeded script.

The feeder is this process: it writes each edge, at its due moment, into a
FIFO that the box's deciding process reads (``--feed``: a thread blocked on
the FIFO drives gpiozero's mock pins with the edge's own moment as its
stamp, as the kernel stamps a GPIO edge). The host's arm and correct are
presses on the profile's host pins. Nothing else runs in the box's process;
``--loaded`` adds CPU burners in processes of their own.

Per design: contact -> decision, contact -> lamp, contact -> first frame
after, settle -> decision (p50/p99 over the gap contests), the budget
(glitch + stated report delay + 1 ms) met from the settle, edges later than
the stated delay (%), wrong winners against the script, live outcomes that
differ from the same edges judged in virtual time, frame time p50/p99, and
the load average. The last line is machine-readable.

What it cannot show: a Pi's ARM cores, the KMSDRM page flip (the dummy
driver flips into memory), lgpio's own C edge thread and the interrupt
latency before the kernel's stamp (the mock pins take the scripted stamp).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import realtime  # the script, the judge and the virtual-time outcome are that harness's

from controller import journal as journal_mod
from controller import profile as profile_mod
from controller.runtime import box_from_journal
from controller.timeline import box_now_us

ROOT = Path(__file__).resolve().parents[1]
PROFILE = "header-4"
DESIGNS = ("split", "one-process")
HOLD_US = 30_000  # the host holds arm / correct this long
STARTUP_S = 30.0  # the most a game may take to open its inputs (bounds a failure only)


@dataclass
class DesignRun:
    design: str
    decision: list[int] = field(default_factory=list)  # contact -> decision, µs (gap contests)
    light: list[int] = field(default_factory=list)
    frame: list[int] = field(default_factory=list)
    settle: list[int] = field(default_factory=list)
    frame_us: list[int] = field(default_factory=list)
    wrong: int = 0
    none: int = 0
    live_vs_virtual: int = 0
    late: int = 0
    edges: int = 0
    worst_late_us: int = 0
    budget_us: int = 0
    load: tuple[float, float] = (0.0, 0.0)


def burn(stop: Any) -> None:
    while not stop.is_set():
        sum(range(10_000))


def host_pins(profile: profile_mod.Profile) -> dict[str, int]:
    return {name: pin for pin, (station, name) in profile.input_pins().items() if station < 0}


def feed_lines(script: list[realtime.Contest], starts: list[int], profile: profile_mod.Profile) -> list[tuple[int, str]]:
    """(due box µs, line) for every edge: the host's arm, the contest, the host's correct."""
    bells = {station: pin for pin, (station, name) in profile.input_pins().items() if name == "bell"}
    host = host_pins(profile)
    out = []
    for contest, start in zip(script, starts, strict=True):
        arm = start - realtime.ARM_LEAD_US
        judge = start + contest.span_us + realtime.RESET_AFTER_US
        for t, pin, level in ((arm, host["arm"], 0), (arm + HOLD_US, host["arm"], 1),
                              (judge, host["correct"], 0), (judge + HOLD_US, host["correct"], 1)):
            out.append((t, f"{pin} {level} {t}\n"))
        for dt, station, level in contest.edges:
            out.append((start + dt, f"{bells[station]} {level} {start + dt}\n"))
    return sorted(out)


def one_design(design: str, script: list[realtime.Contest], folder: Path, loaded: bool) -> DesignRun:
    folder.mkdir(parents=True)
    fifo, journal, timings = folder / "feed", folder / "game.jsonl", folder / "timings.json"
    os.mkfifo(fifo)
    profile = profile_mod.load(PROFILE)
    span = sum(c.span_us + realtime.ARM_LEAD_US + realtime.RESET_AFTER_US + realtime.QUIET_US for c in script)
    seconds = span / 1e6 + 3
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    command = [sys.executable, "-m", "controller", "play", "quiz", "--profile", PROFILE, "--window", "--mute",
               "--no-roll-call", "--journal", str(journal), "--seconds", f"{seconds:.1f}", "--feed", str(fifo),
               "--timings", str(timings)] + (["--one-process"] if design == "one-process" else [])
    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,), daemon=True) for _ in range(2 if loaded else 0)]
    for b in burners:
        b.start()
    load_before = os.getloadavg()[0]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        with fifo.open("w", encoding="ascii") as feed:  # opens once the box's deciding process reads it: ready
            t0 = box_now_us() + 500_000
            starts, t = [], t0 + realtime.ARM_LEAD_US
            for c in script:
                starts.append(t)
                t += c.span_us + realtime.ARM_LEAD_US + realtime.RESET_AFTER_US + realtime.QUIET_US
            for due, line in feed_lines(script, starts, profile):
                realtime.sleep_until(due)
                feed.write(line)
                feed.flush()
        _out, err = proc.communicate(timeout=seconds + 60)
    finally:
        proc.kill()
        stop.set()
        for b in burners:
            b.join()
    if proc.returncode != 0:
        raise SystemExit(f"{design}: play exited {proc.returncode}: {err[-2000:]}")
    measured = json.loads(timings.read_text())
    return judge_run(design, script, starts, measured, journal, profile, load_before)


def judge_run(design: str, script: list[realtime.Contest], starts: list[int], measured: dict[str, Any],
              journal: Path, profile: profile_mod.Profile, load_before: float) -> DesignRun:
    run = DesignRun(design)
    offset = int(measured["offset_us"])
    events = list(box_from_journal(journal_mod.read(journal)).event_log)
    decisions = measured["decisions"] or []
    shown = measured["shown"] or []
    glitch = profile.debounce.glitch_us
    run.budget_us = glitch + int(measured["stated_delay_us"] or 0) + 1_000
    for c, start in zip(script, starts, strict=True):
        contact = start + c.true_us[c.first] + offset
        window_end = start + c.span_us + realtime.RESET_AFTER_US + offset
        outcome = realtime.box_outcome(events, start + offset, window_end)
        verdict = realtime.judge(c, outcome, 1)
        run.wrong += verdict in ("wrong", "tie bad")
        run.none += verdict == "none"
        virtual = realtime.virtual_outcome([(start + dt, s, lv) for dt, s, lv in c.edges], profile.debounce)
        run.live_vs_virtual += outcome != virtual
        if c.kind != "gap" or outcome is None:
            continue
        d = next((d for d in decisions if contact <= d[0] < window_end), None)
        if d is None:
            continue
        run.decision.append(d[0] - contact)
        run.light.append(d[1] - contact)
        run.settle.append(d[0] - (start + c.settled_us(glitch) + offset))
        f = next((f for f in shown if f[0] >= d[0]), None)  # the first frame flipped after it
        if f is not None:
            run.frame.append(f[1] - contact)
    run.late = int(measured["late_deliveries"])
    run.worst_late_us = int(measured["worst_delivery_us"])
    run.edges = sum(len(c.edges) + 4 for c in script)
    run.frame_us = list(measured["frame_us"] or [])
    run.load = (load_before, os.getloadavg()[0])
    return run


def ms(values: list[int], p: float) -> float:
    return realtime.pct(values, p)


def report(design: str, runs: list[DesignRun]) -> None:
    pooled = {key: [v for r in runs for v in getattr(r, key)] for key in ("decision", "light", "frame", "settle", "frame_us")}
    budget = runs[0].budget_us if runs else 0
    within = sum(v <= budget for v in pooled["settle"])
    print(f"\n=== {design}: {len(runs)} runs; load average before/after: "
          f"{', '.join(f'{a:.2f}/{b:.2f}' for a, b in (r.load for r in runs))}")
    for key, label in (("decision", "contact -> decision"), ("light", "contact -> lamp"),
                       ("frame", "contact -> first frame after"), ("settle", "settle -> decision"),
                       ("frame_us", "frame time (draw + flip)")):
        per_run = [ms(getattr(r, key), 0.99) for r in runs]
        print(f"  {label:<30} p50 {ms(pooled[key], 0.5):7.2f} ms  p99 {ms(pooled[key], 0.99):7.2f} ms"
              f"   p99 per run min/median/max {realtime.spread(per_run)}   (n={len(pooled[key])})")
    print(f"  budget from the settle ({budget / 1000:.1f} ms = glitch + stated delay + 1 ms): "
          f"{within}/{len(pooled['settle'])} decisions within it; from the contact: "
          f"{sum(v <= budget for v in pooled['decision'])}/{len(pooled['decision'])}")
    edges, late = sum(r.edges for r in runs), sum(r.late for r in runs)
    print(f"  edges later than the stated delay: {late}/{edges} ({100 * late / max(1, edges):.2f} %), "
          f"worst {max((r.worst_late_us for r in runs), default=0) / 1000:.1f} ms")
    print(f"  wrong winners {sum(r.wrong for r in runs)}, no winner {sum(r.none for r in runs)}, "
          f"live != virtual time {sum(r.live_vs_virtual for r in runs)} (of {sum(len(r.decision) for r in runs)} "
          f"timed gap contests)")


def main(args: argparse.Namespace) -> int:
    settings = [s for s in (False, True) if not (s and args.idle_only) and not (not s and args.loaded_only)]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()}; "
          f"designs {', '.join(DESIGNS)} interleaved, {args.runs} runs per setting")
    results: dict[str, list[DesignRun]] = {d: [] for d in DESIGNS}
    with tempfile.TemporaryDirectory() as tmp:
        for loaded in settings:
            label = "CPU burners in 2 other processes" if loaded else "idle"
            by_design: dict[str, list[DesignRun]] = {d: [] for d in DESIGNS}
            for k in range(args.runs):
                script = realtime.make_script(random.Random(f"designs-{args.seed}-{k}"), args.per_point, args.gaps,
                                              args.envelopes, [])
                order = DESIGNS if k % 2 == 0 else tuple(reversed(DESIGNS))
                for design in order:
                    run = one_design(design, script, Path(tmp) / f"{int(loaded)}-{k}-{design}", loaded)
                    by_design[design].append(run)
                    results[design].append(run)
            print(f"\n##### {label}")
            for design in DESIGNS:
                report(design, by_design[design])
    split = [v for r in results["split"] for v in r.decision]
    one = [v for r in results["one-process"] for v in r.decision]
    print(f"RESULT split_p99_ms={ms(split, 0.99):.2f} one_process_p99_ms={ms(one, 0.99):.2f} "
          f"split_wrong={sum(r.wrong for r in results['split'])} "
          f"one_process_wrong={sum(r.wrong for r in results['one-process'])}")
    return 0

