"""Journal writer benchmark: what one journal record costs the loop thread.

Three ways of writing the same records (the records of a simulated quiz,
replayed at a steady pace like a busy game), side by side in one run, each
repeated (5 by default) with the spread printed:

(old)    the writer before format 2, copied here as it was: json.dumps, write,
         flush and ``os.fsync`` on the calling thread for every press / host /
         action / end record (this is what ran inside ``Box.step``);
(inline) today's ``JournalWriter(threaded=False)``: the same inline fsync,
         plus the checksum chain (shows what the chain itself costs);
(thread) today's ``JournalWriter`` as ``play`` uses it: encode + queue on the
         calling thread, write + batched fsync on the writer thread.

Printed per set-up: the calling thread's time per ``write`` (median, p99,
max, in µs; the median over runs, and the smallest-largest run beside it), and
for the threaded writer the longest time from ``write`` to its fsync, which
is what the 50 ms durability promise is about.

What it proves: how long a decision step waits for the journal, on this disk.
What it cannot: an SD card's fsync on a Pi (run it there: ``--dir`` on the
card), nor a power cut (fsync's own guarantee is the kernel's and the card's).
The directory must be on a real disk: on tmpfs fsync is free and (old) looks
as cheap as (thread).

    PYTHONPATH=. python benchmarks/journal_writer.py                # ~30 s
    PYTHONPATH=. python benchmarks/journal_writer.py --dir /media/sd --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from controller.box.journal import JournalWriter, load
from controller.box.simulate import simulate
from games.registry import get as get_game

OLD_SYNCED_TYPES = {"session", "press", "host", "action", "end"}


class OldWriter:
    """The journal writer as it was before format 2 (controller/box/journal.py at 6b78981)."""

    def __init__(self, path: Path) -> None:
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the run

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n")
        self._file.flush()
        if record.get("type") in OLD_SYNCED_TYPES:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def game_records(count: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Header and records of real simulated quizzes, as dicts the box writes."""
    with tempfile.TemporaryDirectory() as tmp:
        records: list[dict[str, Any]] = []
        seed = 0
        while len(records) < count:
            path = Path(tmp) / f"{seed}.jsonl"
            simulate(get_game("quiz"), 4, seed, str(path))
            lines = [json.loads(x) for x in path.read_text().splitlines()]
            header = {k: v for k, v in lines[0].items() if k not in ("seq", "sum", "type", "version")}
            records += [{k: v for k, v in r.items() if k not in ("seq", "sum")} for r in lines[1:]]
            seed += 1
    return header, records[:count]


def run_once(make: Callable[[Path], Any], folder: Path, header: dict[str, Any], records: list[dict[str, Any]],
             pace_s: float) -> tuple[list[float], float | None]:
    path = folder / f"bench-{time.monotonic_ns()}.jsonl"
    writer = make(path)
    if isinstance(writer, OldWriter):
        writer.write({"type": "session", "version": 1, **header})
    costs = []
    next_at = time.perf_counter()
    for record in records:
        next_at += pace_s
        while time.perf_counter() < next_at:
            time.sleep(max(0.0, min(0.0005, next_at - time.perf_counter())))
        start = time.perf_counter_ns()
        writer.write(record)
        costs.append((time.perf_counter_ns() - start) / 1000)
    lag = getattr(writer, "max_lag_ms", None)
    writer.close()
    if not isinstance(writer, OldWriter):
        found = load(path)
        assert found.damage is None and len(found.records) == len(records), "the benchmark's journal is wrong"
    path.unlink()
    return costs, lag


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def filesystem(folder: Path) -> str:
    try:
        out = subprocess.run(["df", "-T", str(folder)], capture_output=True, text=True, check=True).stdout
        return out.splitlines()[1].split()[1]
    except (OSError, subprocess.CalledProcessError, IndexError):
        return "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=".", help="where to write (a real disk; default: here)")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--records", type=int, default=400)
    parser.add_argument("--pace-ms", type=float, default=2.0, help="time between records (a busy game: 2 ms)")
    args = parser.parse_args()
    header, records = game_records(args.records)
    setups: dict[str, Callable[[Path], Any]] = {
        "old (inline fsync, format 1)": OldWriter,
        "inline (fsync, format 2)": lambda p: JournalWriter.create(p, header, threaded=False),
        "thread (play's writer)": lambda p: JournalWriter.create(p, header),
    }
    with tempfile.TemporaryDirectory(dir=args.dir, prefix=".journal-bench-") as tmp:
        folder = Path(tmp)
        print(f"{len(records)} records of simulated quizzes, one every {args.pace_ms} ms, {args.runs} runs each; "
              f"{folder.parent.resolve()} on {filesystem(folder)}; load average {os.getloadavg()[0]:.2f}; "
              f"{os.cpu_count()} CPUs")
        results: dict[str, list[tuple[float, float, float, float | None]]] = {name: [] for name in setups}
        for _run in range(args.runs):
            for name, make in setups.items():  # interleaved, so load changes hit every set-up alike
                costs, lag = run_once(make, folder, header, records, args.pace_ms / 1000)
                results[name].append((statistics.median(costs), pct(costs, 0.99), max(costs), lag))
        print(f"\ncalling thread per write, µs: median of {args.runs} runs [smallest-largest run]")
        print(f"{'set-up':30} {'median':>20} {'p99':>22} {'max':>24}  write->fsync max")
        for name, rows in results.items():
            cells = []
            for i in range(3):
                values = [r[i] for r in rows]
                cells.append(f"{statistics.median(values):8.1f} [{min(values):.0f}-{max(values):.0f}]")
            lags = [r[3] for r in rows if r[3] is not None]
            lag = f"{max(lags):.1f} ms (worst run)" if lags else "-"
            print(f"{name:30} {cells[0]:>20} {cells[1]:>22} {cells[2]:>24}  {lag}")
        print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
