"""How long a checkpoint holds the deciding thread and ``box.lock``, before and after the fork.

Plays a long evening of the quiz (``resume.py``'s, reused with ``--keep``),
resumes it as a restarted deciding process does, and journals a checkpoint of
that state again and again to a threaded journal (as ``play`` has one),
alternating in the same run:

* before: what the deciding thread did until now, copied here: under
  ``box.lock`` encode the state (``checkpoint.encode``), measure its JSON, hand
  the record to the journal (which encodes and checksums its line on the
  calling thread), then ``malloc_trim`` outside the lock;
* after: ``Box.checkpoint`` as the deciding thread calls it now: under
  ``box.lock`` reserve the record's place and fork; a child encodes, the
  journal's thread takes its line and trims.

It asks for the deciding process's priority (SCHED_FIFO, else a nice
level: ``deciding.ask_realtime``) before it measures, as ``play`` does.
Per run: the deciding thread's hold (wall and its own CPU time), the lock's
hold; after the fork, how long a record journaled right after it waited in
memory for the checkpoint's line (``JournalWriter.max_held_ms``), and the box's
steps meanwhile (the child's copy-on-write faults land on them). Min / median /
max of the runs.

What it proves: the hold no longer grows with the game (a fork copies page
tables, no objects). What it cannot: a Pi's fork (slower page-table copy,
~1-3 ms for this process's ~40 MiB) or its slower core for the child; wall
figures on a loaded machine include waiting for a core (CPU time does not);
and a record journaled while the child encodes reaches the disk that much
later (the price: it cannot stand before the checkpoint's line).

    PYTHONPATH=. python benchmarks/checkpoint_hold.py                      # 100,000 records
    PYTHONPATH=. python benchmarks/checkpoint_hold.py --records 400000 --keep /tmp/evenings

Last line: ``RESULT records=... before_hold_ms=... after_hold_ms=... held_ms=...`` (medians).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from resume import evening  # benchmarks/resume.py: the same evening

from controller.box import checkpoint, snapshot
from controller.box import session as box_session
from controller.box.deciding import ask_realtime
from controller.box.journal import CheckpointRecord, JournalWriter
from controller.box.runtime import Box


def old_checkpoint(box: Box) -> Callable[[], None]:
    """The deciding thread's checkpoint until now (main at 7086f83), under the lock; returns the trim that followed it."""
    assert box.journal is not None
    record = CheckpointRecord(box.now_us, checkpoint.encode(box._replayable()))
    json.dumps(record.state, separators=(",", ":"))  # its size check
    box.journal.write(record)
    box.checkpoint_seq = box.journal.next_seq - 1
    return snapshot.trim_heap


def new_checkpoint(box: Box) -> Callable[[], None]:
    """The deciding thread's checkpoint now: a reserved place and a fork."""
    assert box.checkpoint()
    return lambda: None


def hold(box: Box, take: Callable[[Box], Callable[[], None]]) -> tuple[float, float, float]:
    """One checkpoint as the deciding thread takes it: (thread hold ms, its CPU ms, lock hold ms)."""
    wall, cpu = time.perf_counter(), time.thread_time()
    with box.lock:
        after = take(box)
        locked = time.perf_counter()
    after()
    end, cpu_end = time.perf_counter(), time.thread_time()
    return (end - wall) * 1000, (cpu_end - cpu) * 1000, (locked - wall) * 1000


def steps_meanwhile(box: Box) -> list[float]:
    """The box's steps (ms each) until the checkpoint's line is in the journal."""
    assert box.journal is not None
    times = []
    t_us = box.now_us
    while box.journal.waiting:
        t_us += 1000
        t = time.perf_counter()
        with box.lock:
            box.step(t_us)
        times.append((time.perf_counter() - t) * 1000)
        time.sleep(0.001)  # a step a millisecond, as a busy evening's presses come
    return times


def spread(values: list[float]) -> str:
    return f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--records", type=int, default=100_000, help="the evening's length in records")
    parser.add_argument("--runs", type=int, default=7, help="checkpoints per way")
    parser.add_argument("--normal-priority", action="store_true",
                        help="do not ask for the deciding process's real-time priority")
    parser.add_argument("--keep", help="keep the evening's journal in this folder (and reuse one found there)")
    args = parser.parse_args(argv)
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = Path(args.keep or tmp) / f"evening-quiz-{args.records}.jsonl"
        if not path.exists():
            evening(path, args.records, "quiz")
        copy = folder / "copy.jsonl"
        shutil.copy(path, copy)
        box, journal = box_session.resumed_box(copy)
        assert box.journal is not None
        box.journal.close()
        copy.unlink()
        print(f"quiz: {journal.count:,} records resumed; deciding process RSS "
              f"{int(Path('/proc/self/status').read_text().split('VmRSS:')[1].split()[0]) / 1024:.0f} MiB")
        box.journal = JournalWriter.create(folder / "bench.jsonl", box.header(mode="play"), fsync=False, threaded=True)
        if not args.normal_priority:  # as the deciding process runs (its journal's threads too)
            print(f"measured at {ask_realtime()}")
        before: list[tuple[float, float, float]] = []
        after: list[tuple[float, float, float]] = []
        held: list[float] = []
        child_ms: list[float] = []
        steps: list[float] = []
        for _ in range(args.runs):
            before.append(hold(box, old_checkpoint))
            box.journal.flush()
            box.journal.max_held_ms = 0.0
            t = time.perf_counter()
            after.append(hold(box, new_checkpoint))
            box.journal.write({"type": "tick", "t_us": box.now_us})  # waits for the line in memory
            steps += steps_meanwhile(box)
            box.journal.flush()
            child_ms.append((time.perf_counter() - t) * 1000)
            held.append(box.journal.max_held_ms)
        box.journal.close()
        size = (folder / "bench.jsonl").stat().st_size / (2 * args.runs + 1)
    print(f"{args.runs} checkpoints each way, ~{size / 1024:.0f} KiB each; min / median / max ms:")
    for name, runs in (("before (encoded on the deciding thread)", before), ("after (a fork; a child encodes)", after)):
        print(f"  {name}:")
        print(f"    deciding thread held {spread([r[0] for r in runs])} (its CPU {spread([r[1] for r in runs])}); "
              f"box.lock held {spread([r[2] for r in runs])}")
    print(f"  after: the child's line in the journal {spread(child_ms)} after the fork; a record journaled "
          f"right after the fork waited for it {spread(held)}")
    print(f"  the box's steps while children encoded: {len(steps)}, {spread(steps)}")
    print(f"load average {os.getloadavg()[0]:.2f}")
    print(f"RESULT records={journal.count} before_hold_ms={statistics.median(r[0] for r in before):.2f} "
          f"after_hold_ms={statistics.median(r[0] for r in after):.2f} held_ms={statistics.median(held):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
