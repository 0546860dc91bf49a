"""Memory of a live game over a long evening: presses at 20/s, in real time,
through ``play``'s own path (``python -m controller play quiz --profile
header-4``, its real GPIO source on mock pins fed through a FIFO, the
journal on disk, the screen drawing on SDL's dummy driver), the resident
memory (RSS) of the deciding process and of the screen process sampled
every ``--every`` seconds while the game runs: from the first edge fed to
the last, both processes alive at every sample (the game is stopped by
the benchmark after the last sample, not by its own clock).

Each second the host arms (a press on the host's arm pin), the stations
press 20 times between them, and the host judges the first right.

The warm-up (imports, fonts, caches filling up to their bounds) is
measured, per process: it is over from the first sample after which the
growth measured to the end no longer depends on where it starts
(``warm_up``), searched in the first third of the run. The growth is the
slope of the least-squares line through every sample after it, per hour. The goal: under 5 MiB an hour for each process. What it proves:
the live path keeps no per-press history in memory (the journal has it).
What it cannot: an hour on a Pi (another allocator's fragmentation, a real
KMSDRM screen); a shorter run's slope is extrapolated, and says so.

    PYTHONPATH=. python benchmarks/live_memory.py --minutes 60    # the hour the goal is stated for
    PYTHONPATH=. python benchmarks/live_memory.py --minutes 8     # a shorter run, extrapolated
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from controller.box import profile as profile_mod  # noqa: E402
from controller.box.timeline import box_now_us  # noqa: E402

#: the goal, per process
GOAL_MIB_PER_HOUR = 5.0
#: the warm-up is over once the growth measured from a later start changes by at most this (a fifth of the goal)
SETTLED_MIB_PER_HOUR = 1.0
#: the game's own clock is set this much past the feed: the benchmark stops it after its last sample
MARGIN_S = 600
#: the game's close after SIGTERM (the journal's end, lamps off) gets this long
CLOSE_S = 120


def rss_kib(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) if match else None


def feed(fifo: Path, seconds: float, rate: int, profile: profile_mod.Profile, stop: threading.Event,
         started: threading.Event) -> int:
    """The presses, each second's written at their moments; ``started`` is set
    once the deciding process has opened the FIFO (the game runs)."""
    pins = profile.input_pins()
    bells = sorted(pin for pin, (station, name) in pins.items() if name == "bell")
    host = {name: pin for pin, (station, name) in pins.items() if station < 0}
    presses = 0
    with fifo.open("w", encoding="ascii") as out:  # opens when the deciding process reads it
        started.set()
        start = box_now_us() + 200_000
        second = 0
        while not stop.is_set() and second < seconds:
            t0 = start + second * 1_000_000
            lines = [(t0, host["arm"], 0), (t0 + 20_000, host["arm"], 1)]
            for k in range(rate):
                t = t0 + 40_000 + k * (900_000 // rate)
                pin = bells[k % len(bells)]
                lines += [(t, pin, 0), (t + 15_000, pin, 1)]
            lines += [(t0 + 960_000, host["correct"], 0), (t0 + 980_000, host["correct"], 1)]
            for t, pin, level in sorted(lines):
                while (left := t - box_now_us()) > 0:
                    time.sleep(left / 1e6)
                out.write(f"{pin} {level} {t}\n")
                out.flush()
            presses += rate
            second += 1
    return presses


def fit(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """The least-squares line through ``points``: (slope, intercept, sum of squared residuals)."""
    n = len(points)
    mean_t, mean_y = sum(t for t, _ in points) / n, sum(y for _, y in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    slope = sum((t - mean_t) * (y - mean_y) for t, y in points) / var if var else 0.0
    intercept = mean_y - slope * mean_t
    return slope, intercept, sum((y - intercept - slope * t) ** 2 for t, y in points)


def warm_up(points: list[tuple[float, float]]) -> tuple[int, bool]:
    """The index of the first sample after the warm-up, and whether it was
    found. The slope fitted from a sample to the end is the growth measured
    from there; while the warm-up lasts it changes with the sample chosen
    (falls, as the caches fill), after it stays put: the warm-up is over at
    the first sample from which every later start up to half the run
    gives the same slope within ``SETTLED_MIB_PER_HOUR``. Searched in the
    first third of the run (a step later on is growth, not warm-up); not
    found: the third's last sample, and the slope after it still counts
    some warm-up."""
    end = points[-1][0]
    starts = [k for k, (t, _) in enumerate(points) if len(points) - k >= 6]
    last = max([k for k in starts if points[k][0] <= end / 3], default=0)  # the warm-up's latest end
    compared = max([k for k in starts if points[k][0] <= end / 2], default=0)  # ... compared with starts up to here
    slopes = [fit(points[k:])[0] * 3600 / 1024 for k in range(compared + 1)]
    for k in range(last + 1):
        if max(slopes[k:]) - min(slopes[k:]) <= SETTLED_MIB_PER_HOUR:
            return k, True
    return last, False


def judge(label: str, points: list[tuple[float, float]], minutes: float) -> bool:
    """One line per process: the warm-up found, the growth after it; True within the goal."""
    k, settled = warm_up(points)
    late = points[k:]
    slope = fit(late)[0] * 3600 / 1024  # KiB per second -> MiB per hour
    ok = slope < GOAL_MIB_PER_HOUR
    print(f"{label}: warm-up {late[0][0]:.0f} s ({points[0][1] / 1024:.1f} -> {late[0][1] / 1024:.1f} MiB), then "
          f"{late[0][1] / 1024:.1f} -> {late[-1][1] / 1024:.1f} MiB in {(late[-1][0] - late[0][0]) / 60:.1f} min; "
          f"slope {slope:+.2f} MiB per hour ({'within' if ok else 'over'} the goal of {GOAL_MIB_PER_HOUR:g})"
          + ("" if minutes >= 60 else "; extrapolated from a shorter run")
          + ("" if settled else "; the growth measured still changes with where it starts at a third of the "
             "run (still warming up?): run longer"))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--rate", type=int, default=20, help="presses per second")
    parser.add_argument("--every", type=float, default=5.0, help="seconds between RSS samples")
    args = parser.parse_args()
    seconds = args.minutes * 60
    profile = profile_mod.load("header-4")
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    samples: list[tuple[float, int, int | None]] = []  # (s since the feed began, screen KiB, deciding KiB)
    with tempfile.TemporaryDirectory() as tmp:
        fifo, journal = Path(tmp) / "feed", Path(tmp) / "game.jsonl"
        os.mkfifo(fifo)
        command = [sys.executable, "-m", "controller", "play", "quiz", "--profile", "header-4", "--window", "--mute",
                   "--no-roll-call", "--journal", str(journal), "--seconds", str(seconds + MARGIN_S),
                   "--feed", str(fifo)]
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        decider: list[int] = []
        ready = threading.Event()  # the deciding process said its pid (it may open the feed before)
        said: list[str] = []

        def read_stderr() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                said[:] = [line.strip()]  # its last line: why it ended, if it ended early
                if line.startswith("deciding process "):
                    decider.append(int(line.split()[2].rstrip(":")))
                    ready.set()

        threading.Thread(target=read_stderr, daemon=True).start()
        stop, started = threading.Event(), threading.Event()
        fed: list[int] = []
        feeder = threading.Thread(target=lambda: fed.append(feed(fifo, seconds, args.rate, profile, stop, started)),
                                  daemon=True)
        feeder.start()
        problem = None
        closed = None  # how the game's own close went wrong, if it did
        try:
            while not (started.wait(1.0) and ready.wait(1.0)):
                if proc.poll() is not None:
                    problem = f"play ended before the game began (exit status {proc.returncode}: {''.join(said)})"
                    break
            t_start = time.monotonic()
            while problem is None:
                done = not feeder.is_alive()  # the last presses were fed: one more sample, then stop
                screen = rss_kib(proc.pid)
                deciding = rss_kib(decider[0]) if decider else None
                if screen is None or deciding is None:
                    problem = f"a process of the game ended at {time.monotonic() - t_start:.0f} s, before the feed"
                    break
                samples.append((time.monotonic() - t_start, screen, deciding))
                s = samples[-1]
                print(f"{s[0]:7.0f} s  screen {s[1] / 1024:7.1f} MiB  deciding {((s[2] or 0) / 1024):7.1f} MiB",
                      flush=True)
                if done:
                    problem = None if fed else "the feed stopped before its last press (see the game's errors)"
                    break
                feeder.join(args.every)
        finally:
            stop.set()
            proc.terminate()  # SIGTERM: the game's own close (journal's end, lamps off), as systemd stops it
            try:
                proc.wait(timeout=CLOSE_S)
            except subprocess.TimeoutExpired:  # the samples are judged anyway: an hour's run is not thrown away
                proc.kill()
                proc.wait()
                closed = f"the game did not end within {CLOSE_S} s of SIGTERM (killed)"
        size = journal.stat().st_size if journal.exists() else 0  # none: the game ended before it began
        print(f"journal {size / 1e6:.1f} MB on disk; {fed[0] if fed else 0} presses fed; "
              f"load average {os.getloadavg()}")
    if problem is not None:
        print(problem)
        return 1
    if len(samples) < 8:
        print("too short to judge: run long enough for eight samples (--minutes, --every)")
        return 1
    ok = closed is None
    if closed is not None:
        print(closed)
    for label, index in (("screen", 1), ("deciding", 2)):
        points = [(t, float(kib)) for t, *k in samples if (kib := k[index - 1]) is not None]
        if len(points) >= 8:
            ok = judge(label, points, args.minutes) and ok
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
