"""Memory of a live game over a long evening: presses at 20/s, in real time,
through ``play``'s own path (``python -m controller play quiz --profile
header-4``, its real GPIO source on mock pins fed through a FIFO, the
journal on disk, the screen drawing on SDL's dummy driver), the resident
memory (RSS) of the deciding process and of the screen process sampled
every ``--every`` seconds.

Each second the host arms (a press on the host's arm pin), the stations
press 20 times between them, and the host judges the first right. The
figure is the growth after the first minute (imports, fonts and caches
settled): the first and last samples, and the slope of a least-squares line
through every sample after the warm-up, per hour. What it proves: the live
path keeps no per-press history in memory (the journal has it). What it
cannot: an hour on a Pi (another allocator's fragmentation, a real KMSDRM
screen); a shorter run's slope is extrapolated, and says so.

    PYTHONPATH=. python benchmarks/live_memory.py --minutes 60    # the hour the issue asks for
    PYTHONPATH=. python benchmarks/live_memory.py --minutes 5     # a shorter run, extrapolated
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

from controller import profile as profile_mod  # noqa: E402
from controller.timeline import box_now_us  # noqa: E402

WARM_UP_S = 60


def rss_kib(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    match = re.search(r"VmRSS:\s+(\d+) kB", text)
    return int(match.group(1)) if match else None


def feed(fifo: Path, seconds: float, rate: int, profile: profile_mod.Profile, stop: threading.Event) -> int:
    pins = profile.input_pins()
    bells = sorted(pin for pin, (station, name) in pins.items() if name == "bell")
    host = {name: pin for pin, (station, name) in pins.items() if station < 0}
    presses = 0
    with fifo.open("w", encoding="ascii") as out:  # opens when the deciding process reads it
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--rate", type=int, default=20, help="presses per second")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between RSS samples")
    parser.add_argument("--one-process", action="store_true", help="the baseline design")
    args = parser.parse_args()
    seconds = args.minutes * 60
    profile = profile_mod.load("header-4")
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with tempfile.TemporaryDirectory() as tmp:
        fifo, journal = Path(tmp) / "feed", Path(tmp) / "game.jsonl"
        os.mkfifo(fifo)
        command = [sys.executable, "-m", "controller", "play", "quiz", "--profile", "header-4", "--window", "--mute",
                   "--no-roll-call", "--journal", str(journal), "--seconds", str(seconds + 5), "--feed", str(fifo)]
        command += ["--one-process"] if args.one_process else []
        proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        decider: list[int] = []

        def read_stderr() -> None:
            assert proc.stderr is not None
            for line in proc.stderr:
                if line.startswith("deciding process "):
                    decider.append(int(line.split()[2].rstrip(":")))

        threading.Thread(target=read_stderr, daemon=True).start()
        stop = threading.Event()
        fed: list[int] = []
        feeder = threading.Thread(target=lambda: fed.append(feed(fifo, seconds, args.rate, profile, stop)), daemon=True)
        feeder.start()
        samples: list[tuple[float, int, int | None]] = []  # (s since start, screen KiB, decider KiB)
        t_start = time.monotonic()
        try:
            while feeder.is_alive():
                time.sleep(args.every)
                screen = rss_kib(proc.pid)
                if screen is None:
                    break
                samples.append((time.monotonic() - t_start, screen, rss_kib(decider[0]) if decider else None))
                s = samples[-1]
                print(f"{s[0]:7.0f} s  screen {s[1] / 1024:7.1f} MiB  deciding {((s[2] or 0) / 1024):7.1f} MiB",
                      flush=True)
        finally:
            stop.set()
            proc.wait(timeout=120)
        print(f"journal {journal.stat().st_size / 1e6:.1f} MB on disk; {fed[0] if fed else 0} presses fed; "
              f"load average {os.getloadavg()}")
    late = [s for s in samples if s[0] >= WARM_UP_S]
    if len(late) < 2:
        print("too short to judge: run at least two samples past the first minute")
        return 1
    for label, index in (("screen" if not args.one_process else "the one process", 1), ("deciding", 2)):
        points = [(t, kib) for t, *k in late if (kib := k[index - 1]) is not None]
        if len(points) < 2:
            continue
        n = len(points)
        mean_t, mean_k = sum(t for t, _ in points) / n, sum(k for _, k in points) / n
        slope = sum((t - mean_t) * (k - mean_k) for t, k in points) / max(1e-9, sum((t - mean_t) ** 2 for t, _ in points))
        grown = (points[-1][1] - points[0][1]) / 1024
        print(f"{label}: {points[0][1] / 1024:.1f} -> {points[-1][1] / 1024:.1f} MiB after the first minute "
              f"({grown:+.2f} MiB in {(points[-1][0] - points[0][0]) / 60:.1f} min); slope "
              f"{slope * 3600 / 1024:+.2f} MiB per hour"
              + ("" if args.minutes >= 60 else " (extrapolated from a shorter run)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
