"""How fast a restarted deciding process is back, and in how much memory.

Plays a long evening (a quiz by default) with the simulated players in virtual time
through the real box (journal writer, checkpoints every ``CHECKPOINT_EVERY``
records at quiet moments, as the deciding thread writes them), then, each in
a fresh process as a restarted deciding process is:

* resume: ``live.resumed_box`` (lock, read every line with its checksum
  chain, keep only what follows the newest checkpoint, restore it, replay the
  rest, append): wall time of that call and the process's peak RSS;
* the same journal replayed whole (what a resume did before checkpoints);
* ``buzzerbox journal check`` of a 2 MB and a 20 MB cut of it: peak RSS (flat in
  the file's size);

and what a checkpoint costs per game (encode ms, median of 5; bytes), each game
played to ``--cost-records`` records with the live box's bounded logs.

What it proves: resume time and memory for a journal this long on this machine.
What it cannot: a Pi's slower core (3-5x), or a checkpoint-less journal an old
box wrote (that one is replayed whole, as before).

    PYTHONPATH=. python benchmarks/resume.py            # 400,000 records: several minutes on 2 cores
    PYTHONPATH=. python benchmarks/resume.py --quick    # 40,000 records
    PYTHONPATH=. python benchmarks/resume.py --keep /tmp/evenings   # the evening is kept, and reused next time

The last line: ``RESULT records=... resume_s=... rss_mib=...``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from controller import checkpoint
from controller import journal as journal_mod
from controller.runtime import CHECKPOINT_EVERY, Box, box_from_journal
from controller.simulate import Session
from games.registry import available, get

_RESUME = """
import sys, time
from controller import live
t, cpu = time.perf_counter(), time.process_time()
box, journal = live.resumed_box(sys.argv[1])
took, cpu = time.perf_counter() - t, time.process_time() - cpu
box.journal.close()
print(took, journal.count, journal.dropped, cpu)
"""
_REPLAY = """
import sys, time
from controller.journal import load
from controller.runtime import box_from_journal
t, cpu = time.perf_counter(), time.process_time()
box = box_from_journal(load(sys.argv[1]))
print(time.perf_counter() - t, box.presses_total, 0, time.process_time() - cpu)
"""


def child_peak_mib(argv: list[str]) -> tuple[list[str], float, int]:
    """Output, peak RSS (MiB) and exit code of one child process."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": "."})
    assert proc.stdout is not None and proc.stderr is not None
    _pid, status, usage = os.wait4(proc.pid, 0)
    out = proc.stdout.read().decode()
    err = proc.stderr.read().decode()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv[-2:])}: {err[-500:]}")
    return out.split(), usage.ru_maxrss / 1024, code


def evening(path: Path, records: int, game: str) -> Box:
    """A 4-player evening of ``game`` journaled to ``path`` until it holds ``records`` records."""
    spec = get(game)
    options = dict(spec.demo_options)
    options["questions" if game == "quiz" else "rounds"] = 10**6
    settings = spec.settings(4, 1, **options)
    box = Box(spec, settings)
    box.bound_logs()  # as a live box does
    partial = path.with_name(path.name + ".partial")  # a run stopped midway leaves no evening to reuse
    partial.unlink(missing_ok=True)
    box.journal = journal_mod.JournalWriter.create(partial, box.header(mode="play"), fsync=False)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 1)
    while box.journal.next_seq < records and not box.engine.finished:
        session.run_virtual(session.now_us + 60_000_000)
        session.shows.clear()
    box.journal.close()
    partial.rename(path)
    return box


def checkpoint_cost(game: str, records: int) -> tuple[float, int]:
    """Encode ms (median of 5) and bytes of one game's checkpoint after ``records`` records."""
    spec = get(game)
    settings = spec.settings(3, 1, **spec.demo_options)
    box = Box(spec, settings)
    box.bound_logs()
    with tempfile.TemporaryDirectory() as tmp:
        box.journal = journal_mod.JournalWriter.create(Path(tmp) / "j.jsonl", box.header(mode="play"), fsync=False)
        box.checkpoint_every = 10**9
        session = Session(box, spec.new_bots(settings), spec.new_host(settings), 1)
        while box.journal.next_seq < records and not box.engine.finished:
            due = session.next_time_us()
            if due is None:
                break
            session.step(max(due, session.now_us))
        box.journal.close()
    return encode_cost(box)


def encode_cost(box: Box) -> tuple[float, int]:
    """What writing ``box``'s checkpoint costs the deciding thread: ms (median of 5), bytes."""
    times = []
    for _ in range(5):
        t = time.perf_counter()
        text = json.dumps(checkpoint.encode(box._replayable()), separators=(",", ":"))
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times), len(text)


def cut(source: Path, target: Path, size: int) -> None:
    """The first whole lines of ``source`` up to ``size`` bytes."""
    data = source.read_bytes()[:size]
    target.write_bytes(data[: data.rfind(b"\n") + 1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="40,000 records instead of 400,000")
    parser.add_argument("--records", type=int, help="the evening's length in records")
    parser.add_argument("--game", default="quiz", help="the evening's game (quiz or reaction: they run on)")
    parser.add_argument("--keep", help="keep the evening's journal in this folder (and reuse one found there)")
    parser.add_argument("--cost-records", type=int, default=3000, help="records per game before a checkpoint is costed")
    args = parser.parse_args(argv)
    records = args.records or (40_000 if args.quick else 400_000)
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"a checkpoint every {CHECKPOINT_EVERY:,} records")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = Path(args.keep or tmp) / f"evening-{args.game}-{records}.jsonl"
        t = time.perf_counter()
        if path.exists():
            box = box_from_journal(journal_mod.load(path))
        else:
            box = evening(path, records, args.game)
        size = path.stat().st_size
        count = sum(1 for _ in path.open("rb"))
        checkpoints = path.read_bytes().count(b'"type":"checkpoint"')
        print(f"{args.game}: played {count:,} lines ({size / 1e6:.1f} MB) in {time.perf_counter() - t:.0f} s; "
              f"{checkpoints} checkpoints" + (f" (none: {box.checkpoint_refused})" if box.checkpoint_refused else ""))
        ms, size = encode_cost(box)
        print(f"its last checkpoint costs the deciding thread {ms:.0f} ms to encode (median of 5); {size / 1024:.0f} KiB")
        copy = folder / "copy.jsonl"
        shutil.copy(path, copy)
        out, replay_peak, _code = child_peak_mib([sys.executable, "-c", _REPLAY, str(copy)])
        print(f"full replay (before checkpoints): {float(out[0]):.2f} s ({float(out[3]):.2f} s CPU), "
              f"peak RSS {replay_peak:.0f} MiB")
        resume_s, resume_cpu, resume_peak = [], [], []
        for _ in range(3):
            shutil.copy(path, copy)
            out, peak, _code = child_peak_mib([sys.executable, "-c", _RESUME, str(copy)])
            resume_s.append(float(out[0]))
            resume_cpu.append(float(out[3]))
            resume_peak.append(peak)
            print(f"resume from the newest checkpoint: {float(out[0]):.2f} s ({float(out[3]):.2f} s CPU; "
                  f"{int(out[1]):,} records read, "
                  f"{int(out[2]):,} not held), peak RSS {peak:.0f} MiB")
        _out, idle, _code = child_peak_mib([sys.executable, "-c", "import controller.live"])
        print(f"(a python that only imports controller.live peaks at {idle:.0f} MiB)")
        for mb in (2, 20):
            part = folder / f"cut{mb}.jsonl"
            cut(path, part, mb * 1_000_000)
            _out, peak, code = child_peak_mib([sys.executable, "-m", "controller", "journal", "check", str(part)])
            print(f"journal check of {mb} MB: peak RSS {peak:.0f} MiB (exit {code})")
    print("checkpoint cost per game (encode + JSON, median of 5), after "
          f"{args.cost_records:,} records:")
    for game in available():
        ms, size = checkpoint_cost(game, args.cost_records)
        print(f"  {game:<14} {ms:6.1f} ms {size / 1024:7.0f} KiB")
    print(f"load average {os.getloadavg()[0]:.2f}: wall time is the deciding process's share of the cores; "
          f"CPU time is what it needs (resume median {statistics.median(resume_cpu):.2f} s CPU)")
    print(f"RESULT records={count} resume_s={statistics.median(resume_s):.2f} rss_mib={max(resume_peak):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
