"""How fast a restarted deciding process is back, and in how much memory.

Plays a long evening (a quiz by default) with the simulated players in virtual time
through the real box (journal writer, checkpoints every ``CHECKPOINT_EVERY``
records at quiet moments, as the deciding thread writes them), then, each in
a fresh process as a restarted deciding process is:

* resume: ``box_session.resumed_box`` as the deciding process calls it, at
  its priority (SCHED_FIFO where allowed: ``deciding.ask_realtime``) (``checked``: lock, the newest checkpoint found from the file's end, its
  line and what follows read and checked, restore it, replay the rest,
  append): wall time of that call and the process's peak RSS;
* the same with every line's checksum chain checked (``resumed_box`` without
  ``checked``: what the deciding process did before), and the screen's check
  at ``play --resume`` (``session.resumable``: the whole chain, the newest
  checkpoint decoded for the phones' pages), done once per game handed over;
* restart, what the players wait: ``buzzerbox play --resume`` of the journal
  cut just before its newest checkpoint, its deciding process killed (-9)
  as it shows the game; wall time from the kill to the next one's first
  ``View`` on the viewer socket, and to the screen's process taking it (its
  ``showing view`` line) (its resume replaying the most records a resume
  replays, said with the checkpoints the file held then);
* the same journal replayed whole (what a resume did before checkpoints);
* ``buzzerbox journal check`` of a 2 MB and a 20 MB cut of it: peak RSS (flat in
  the file's size);

and what a checkpoint costs per game (encode ms, median of 5; bytes), each game
played to ``--cost-records`` records with the live box's bounded logs.

``--burners N`` runs N ``yes > /dev/null`` beside it all (a loaded box).

What it proves: resume time and memory for a journal this long on this machine.
What it cannot: a Pi's slower core (3-5x), or a checkpoint-less journal an old
box wrote (that one is replayed whole, as before).

    PYTHONPATH=. python benchmarks/resume.py            # 400,000 records: several minutes on 2 cores
    PYTHONPATH=. python benchmarks/resume.py --quick    # 40,000 records
    PYTHONPATH=. python benchmarks/resume.py --keep /tmp/evenings   # the evening is kept, and reused next time
    PYTHONPATH=. python benchmarks/resume.py --keep /tmp/evenings --every 10000 --no-costs   # another interval's worst case

The last line: ``RESULT records=... resume_s=... rss_mib=... restart_s=... screen_s=... check_s=...``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from controller.box import checkpoint
from controller.box import journal as journal_mod
from controller.box import session as box_session
from controller.box.runtime import CHECKPOINT_EVERY, Box
from controller.box.simulate import Session
from games.registry import available, get

#: the child's own peak RSS (a wait4 peak counts the parent's memory the child had before its exec)
_PEAK = """
def peak_mib():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) / 1024
"""
_RESUME = _PEAK + """
import sys, time
from controller.box import session as box_session
from controller.box.deciding import ask_realtime
ask_realtime()  # as the deciding process runs (its screen lifts it as it starts it: ``deciding.lift``)
t, cpu = time.perf_counter(), time.process_time()
box, journal = box_session.resumed_box(sys.argv[1], checked=sys.argv[2] == "checked")
took, cpu = time.perf_counter() - t, time.process_time() - cpu
box.journal.close()
print(took, journal.count, journal.dropped, cpu, peak_mib())
"""
_SCREEN = _PEAK + """
import sys, time
from controller.box import session as box_session
t, cpu = time.perf_counter(), time.process_time()
box_session.resumable(sys.argv[1], carry_on=True)
print(time.perf_counter() - t, 0, 0, time.process_time() - cpu, peak_mib())
"""
_REPLAY = _PEAK + """
import sys, time
from controller.box.journal import load
from controller.box.runtime import box_from_journal
t, cpu = time.perf_counter(), time.process_time()
box = box_from_journal(load(sys.argv[1]))
print(time.perf_counter() - t, box.presses_total, 0, time.process_time() - cpu, peak_mib())
"""
_CHECK = _PEAK + """
import sys
from controller.cli import main
code = main(["journal", "check", sys.argv[1]])
print(peak_mib())
sys.exit(code)
"""
_IDLE = _PEAK + """
import controller.box.session
print(peak_mib())
"""


def worst_cut(source: Path, target: Path, every: int = CHECKPOINT_EVERY) -> None:
    """``source`` cut where a box journaling a checkpoint every ``every`` records
    replays the most on a resume: just before the newest checkpoint, or ``every``
    records after the one before it if that comes first (an evening made with a
    longer interval measures a shorter one's worst case)."""
    data = source.read_bytes()
    newest = data.rfind(b"\n", 0, data.rfind(b'"type":"checkpoint"')) + 1  # where its line starts
    end = newest
    before = data.rfind(b'"type":"checkpoint"', 0, newest)
    if before >= 0:
        at = data.find(b"\n", before)  # the end of that checkpoint's line, then ``every`` records
        for _ in range(every):
            at = data.find(b"\n", at + 1)
            if at < 0 or at + 1 >= newest:
                break
        else:
            end = at + 1
    target.write_bytes(data[:end])


def restart_wait(journal: Path, folder: Path, game: str) -> tuple[float, float, bool, float]:
    """``play --resume`` of ``journal`` (a copy is played), its deciding process killed (-9) as it
    shows the game: seconds from the kill to its successor's first ``View``, the CPU seconds the
    successor had used by then (from its exec: imports, resume, first view), whether the file
    held no checkpoint more by then (the successor replayed every record after the cut's newest),
    and seconds from the kill to the screen's process taking that successor's first view (its
    ``showing view`` line: its restarting line goes, the game is drawn)."""
    from controller import channel
    from controller import protocol as p
    from controller.box.process import READY_LINE

    copy, at = folder / "restart.jsonl", folder / "views.sock"
    shutil.copy(journal, copy)
    before = copy.read_bytes().count(b'"type":"checkpoint"')
    ready = READY_LINE.split("{pid}")[0]
    showing = "screen process: showing view"  # the screen's debug line (play -vv)
    shown: list[float] = []  # when the screen took each deciding process's first view
    proc = subprocess.Popen([sys.executable, "-m", "controller", "-vv", "--lang", "en", "play", game, "--players", "4",
                             "--headless", "--seconds", "3600", "--resume", str(copy), "--viewer-socket", str(at)],
                            env={**os.environ, "PYTHONPATH": ".", "SDL_VIDEODRIVER": "dummy",
                                 "SDL_AUDIODRIVER": "dummy"},
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    pids: list[int] = []

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            if line.startswith(ready):
                pids.append(int(line[len(ready):].split(":")[0]))
            elif showing in line:
                shown.append(time.perf_counter())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()

    def first_view(give_up_s: float = 600.0) -> None:
        """Until the deciding process that listens now sends a ``View`` (polling: a benchmark, not a test)."""
        until = time.monotonic() + give_up_s
        while True:
            if proc.poll() is not None or time.monotonic() > until:
                raise SystemExit(f"play --resume ended (exit {proc.returncode}) before its deciding process showed the game")
            sock = socket.socket(socket.AF_UNIX)
            try:
                sock.connect(str(at))
            except OSError:
                sock.close()
                time.sleep(0.005)
                continue
            with sock:
                while (message := channel.receive(sock)) is not None:
                    if isinstance(message, p.View):
                        return
            time.sleep(0.005)

    def started(n: int) -> int:
        """The ``n``-th deciding process's pid, from its start line (read by the thread above: it came before its view)."""
        while len(pids) < n:
            if not reader.is_alive():
                raise SystemExit("play --resume never said which deciding process it started")
            time.sleep(0.005)
        return pids[n - 1]

    def screen_showed(n: int, give_up_s: float = 600.0) -> None:
        """Until the screen's process has taken ``n`` deciding processes' first views (its debug line)."""
        until = time.monotonic() + give_up_s
        while len(shown) < n:
            if not reader.is_alive() or time.monotonic() > until:
                raise SystemExit(f"play --resume's screen never showed deciding process {n}'s first view")
            time.sleep(0.005)  # (polling: a benchmark, not a test)

    try:
        first_view()
        screen_showed(1)  # the players see the game when it dies (killed before, the screen would show one view only)
        killed = time.perf_counter()
        os.kill(started(1), signal.SIGKILL)
        first_view()
        took = time.perf_counter() - killed
        with open(f"/proc/{started(2)}/stat") as f:  # utime and stime, after the name (which may hold spaces)
            ticks = f.read().rsplit(")", 1)[1].split()
        cpu = (int(ticks[11]) + int(ticks[12])) / os.sysconf("SC_CLK_TCK")
        worst = copy.read_bytes().count(b'"type":"checkpoint"') == before
        screen_showed(2)
        screen = shown[1] - killed
        proc.send_signal(signal.SIGTERM)
        proc.wait(120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        reader.join(10)
    return took, cpu, worst, screen


def child(code: str, *args: str) -> tuple[list[str], int]:
    """The last line a fresh python printed running ``code`` (its figures, its own peak RSS last) and its exit code."""
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": "."})
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(args)}: {proc.stderr[-500:]}")
    return proc.stdout.strip().splitlines()[-1].split(), proc.returncode


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
    """What encoding ``box``'s checkpoint costs (a forked child's time since
    ``benchmarks/checkpoint_hold.py``'s change; the deciding thread only forks): CPU ms (median of 5), bytes."""
    times = []
    for _ in range(5):
        t = time.process_time()
        text = json.dumps(checkpoint.encode(box._replayable()), separators=(",", ":"))
        times.append((time.process_time() - t) * 1000)
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
    parser.add_argument("--no-full-replay", action="store_true", help="skip the full replay (slow) it compares with")
    parser.add_argument("--keep", help="keep the evening's journal in this folder (and reuse one found there)")
    parser.add_argument("--cost-records", type=int, default=3000, help="records per game before a checkpoint is costed")
    parser.add_argument("--every", type=int, default=CHECKPOINT_EVERY,
                        help="the worst case of a box journaling a checkpoint every this many records "
                             "(default: the box's; at most the evening's own interval)")
    parser.add_argument("--no-costs", action="store_true", help="skip the checkpoint's cost per game")
    parser.add_argument("--burners", type=int, default=0, help="run this many `yes > /dev/null` beside it")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # the burners are stopped below all the same
    burners = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL, start_new_session=True)
               for _ in range(args.burners)]
    try:
        return measure(args)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def spread(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


def measure(args: argparse.Namespace) -> int:
    """The figures, printed as they come; the RESULT line last."""
    records = args.records or (40_000 if args.quick else 400_000)
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores "
          f"({args.burners} burners); "
          f"a checkpoint every {CHECKPOINT_EVERY:,} records; the worst case for one every {args.every:,}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = Path(args.keep or tmp) / f"evening-{args.game}-{records}.jsonl"
        t = time.perf_counter()
        if not path.exists():
            evening(path, records, args.game)
        size = path.stat().st_size
        count = sum(1 for _ in path.open("rb"))
        checkpoints = path.read_bytes().count(b'"type":"checkpoint"')
        print(f"{args.game}: {count:,} lines ({size / 1e6:.1f} MB, made in {time.perf_counter() - t:.0f} s); "
              f"{checkpoints} checkpoints")
        copy = folder / "copy.jsonl"
        shutil.copy(path, copy)
        box, _journal = box_session.resumed_box(copy, checked=True)
        assert box.journal is not None
        box.journal.close()
        ms, size = encode_cost(box)
        print(f"its last checkpoint costs {ms:.0f} ms CPU to encode (median of 5; a forked child's time); "
              f"{size / 1024:.0f} KiB")
        resume_s, resume_cpu, resume_peak = [], [], []
        worst = folder / "worst.jsonl"
        worst_cut(path, worst, args.every)
        for name, source in (("the newest checkpoint at the end", path), ("the most records after it", worst)):
            walls, cpus = [], []
            for _ in range(3):
                shutil.copy(source, copy)
                out, _code = child(_RESUME, str(copy), "checked")
                walls.append(float(out[0]))
                cpus.append(float(out[3]))
                resume_peak.append(float(out[4]))
                print(f"resume, {name}: {float(out[0]):.2f} s ({float(out[3]):.2f} s CPU; {int(out[1]):,} records "
                      f"in it, {int(out[1]) - int(out[2]):,} replayed), peak RSS {float(out[4]):.0f} MiB, "
                      f"load {os.getloadavg()[0]:.1f}")
            print(f"  spread: wall {spread(walls)} s, CPU {spread(cpus)} s")
            resume_s += walls
            resume_cpu += cpus
        shutil.copy(worst, copy)
        out, _code = child(_RESUME, str(copy), "whole")
        print(f"resume checking every line's chain (before), the most records after it: {float(out[0]):.2f} s "
              f"({float(out[3]):.2f} s CPU), peak RSS {float(out[4]):.0f} MiB, load {os.getloadavg()[0]:.1f}")
        checks = []
        for _ in range(2):
            out, _code = child(_SCREEN, str(worst))
            checks.append(float(out[0]))
            print(f"the screen's check at play --resume (resumable: every line's chain, the checkpoint decoded for "
                  f"the pages): {float(out[0]):.2f} s ({float(out[3]):.2f} s CPU), peak RSS {float(out[4]):.0f} MiB, "
                  f"load {os.getloadavg()[0]:.1f}")
        waits, screens = [], []
        for _ in range(3):
            took, cpu, worst_case, screen = restart_wait(worst, folder, args.game)
            waits.append(took)
            screens.append(screen)
            print(f"restart, kill -9 to the next one's first view: {took:.2f} s ({cpu:.2f} s CPU of the next one, "
                  f"from its exec), the screen's process took it at {screen:.2f} s, load {os.getloadavg()[0]:.1f}"
                  + ("" if worst_case else " (a checkpoint was written meanwhile: not the worst case)"))
        print(f"  spread: {spread(waits)} s; the screen's: {spread(screens)} s")
        if not args.no_full_replay:
            out, _code = child(_REPLAY, str(path))
            print(f"full replay (what a resume did before checkpoints): {float(out[0]):.2f} s ({float(out[3]):.2f} s "
                  f"CPU), peak RSS {float(out[4]):.0f} MiB")
        out, _code = child(_IDLE)
        print(f"(a python that only imports controller.box.session peaks at {float(out[0]):.0f} MiB)")
        for mb in (2, 20):
            part = folder / f"cut{mb}.jsonl"
            cut(path, part, mb * 1_000_000)
            out, code = child(_CHECK, str(part))
            print(f"journal check of {mb} MB: peak RSS {float(out[0]):.0f} MiB (exit {code})")
    if not args.no_costs:
        print("checkpoint cost per game (encode + JSON, CPU ms, median of 5), after "
              f"{args.cost_records:,} records:")
        for game in available():
            ms, size = checkpoint_cost(game, args.cost_records)
            print(f"  {game:<14} {ms:6.1f} ms {size / 1024:7.0f} KiB")
    print(f"load average {os.getloadavg()[0]:.2f}: wall time is the deciding process's share of the cores; "
          f"CPU time is what it needs (resume worst {max(resume_cpu):.2f} s CPU)")
    print(f"RESULT records={count} resume_s={max(resume_s):.2f} rss_mib={max(resume_peak):.0f} "
          f"restart_s={max(waits):.2f} screen_s={max(screens):.2f} check_s={max(checks):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
