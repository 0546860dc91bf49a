"""Long sessions stay flat: a 10,000-question quiz and a 100,000-press
reaction session, played by the simulated players in virtual time through the
real box (debounce, arbitration, journal writer thread), printing against
session length:

* RSS of the process (MiB),
* frame time: one ``loop.draw_box`` of the game's scene, headless, 1280x720
  (median of 5),
* step time: ``Box.step`` (median and p99 over the last block),
* replay time of the journal so far (``box_from_journal``): this one should
  grow linearly, the others not at all.

What it proves: memory, frame and step cost do not grow with the length of a
session (the quiz's undo and views, the box's in-memory logs). What it cannot:
virtual time, no real inputs or screen (see benchmarks/realtime.py for those).

    PYTHONPATH=. python benchmarks/long_sessions.py            # ~2-4 min on 2 cores
    PYTHONPATH=. python benchmarks/long_sessions.py --quick    # a tenth of the length
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from controller.box import journal as journal_mod  # noqa: E402
from controller.box.runtime import Box, box_from_journal  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from controller.screen.loop import Presenter, draw_box  # noqa: E402
from controller.screen.screen import Screen  # noqa: E402
from games.registry import get  # noqa: E402
from games.scenes import scene_for


def rss_mib() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))] if s else float("nan")


def run(game: str, players: int, length: int, unit: str, checkpoints: int, folder: Path) -> None:
    spec = get(game)
    options = dict(spec.demo_options)
    if game == "quiz":
        options["questions"] = length
    else:
        options["rounds"] = length  # more than enough: we stop at the press count
    settings = spec.settings(players, 1, **options)
    box = Box(spec, settings)
    box.bound_logs()  # as a live box does (process.open_game)
    path = folder / f"{game}.jsonl"
    box.journal = journal_mod.JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 1)
    presenter = Presenter(Screen.open(headless=True, size=(1280, 720)) if _screen_takes_size() else
                          Screen.open(headless=True), scene_for(game))
    step_us: list[float] = []
    real_step = box.step

    def timed_step(now_us: int) -> list:
        t = time.perf_counter_ns()
        out = real_step(now_us)
        step_us.append((time.perf_counter_ns() - t) / 1000)
        return out

    box.step = timed_step  # type: ignore[method-assign]

    def done() -> int:
        return len(box.engine.summary().get("results", ())) if game == "quiz" else box.presses_total

    print(f"\n{spec.title}: {players} simulated players, up to {length:,} {unit}")
    print(f"{unit:>10} {'RSS MiB':>8} {'frame ms':>9} {'step p50 µs':>12} {'step p99 µs':>12} {'wall s':>7}")
    started = time.perf_counter()
    marks = [length * (k + 1) // checkpoints for k in range(checkpoints)]
    for mark in marks:
        while done() < mark and not box.engine.finished:
            session.run_virtual(session.now_us + 60_000_000)
            session.shows.clear()  # the session's own list (demo screenshots), not the box's
        frames = []
        for _ in range(5):
            t = time.perf_counter()
            draw_box(presenter, box, session.now_us)
            frames.append((time.perf_counter() - t) * 1000)
        print(f"{done():>10,} {rss_mib():>8.1f} {statistics.median(frames):>9.2f} "
              f"{pct(step_us, 0.5):>12.1f} {pct(step_us, 0.99):>12.1f} {time.perf_counter() - started:>7.1f}")
        step_us.clear()
        if box.engine.finished:
            break
    box.journal.close()
    lines = path.read_text().splitlines(keepends=True)
    print(f"replay of the journal ({len(lines):,} records in all):")
    for k in (4, 2, 1):
        part = folder / f"{game}-{k}.jsonl"
        part.write_text("".join(lines[: len(lines) // k]))
        t = time.perf_counter()
        replayed = box_from_journal(journal_mod.read(part))
        took = time.perf_counter() - t
        print(f"  {len(lines) // k:>9,} records ({replayed.presses_total:,} presses): {took:6.2f} s")


def _screen_takes_size() -> bool:
    import inspect

    return "size" in inspect.signature(Screen.open).parameters


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a tenth of the length")
    args = parser.parse_args(argv)
    scale = 10 if args.quick else 1
    print(f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        run("quiz", 4, 10_000 // scale, "questions", 5, Path(tmp))
        run("reaction", 4, 100_000 // scale, "presses", 5, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
