"""How soon the Pictomania demo shows a scored reveal: box seconds from the
start to the first ``reveal`` event, the demo's options against the table's.

Run: PYTHONPATH=. .venv/bin/python benchmarks/pictomania_demo_pace.py [SEEDS]

Both paces play the same seeds with 3 to 6 simulated players on a virtual-time
box (the path ``buzzerbox demo pictomania --headless`` takes), so the
``table`` row is the baseline the ``demo`` row is measured against.

What it proves: the box time an unattended demo needs before anything is
scored, per player count, with the spread over seeds. What it cannot: wall
time on a slow machine (virtual time runs as fast as it can) or how long real
people take (the table pace is a guess at that, not a measurement).
"""

from __future__ import annotations

import statistics
import sys

from controller.box.runtime import Box
from controller.box.simulate import Session
from games.registry import get


def first_reveal_s(players: int, seed: int, pace: str, limit_s: int = 600) -> float:
    spec = get("pictomania")
    settings = spec.settings(players, seed, bot_pace=pace)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
    t_us = 0
    while t_us < limit_s * 1_000_000:
        t_us += 250_000
        session.run_virtual(t_us)
        for event in box.event_log:
            if event.kind == "reveal":
                return event.t_us / 1e6
    return float("inf")


def main(seeds: int = 20) -> None:
    print(f"first scored reveal, box seconds, {seeds} seeds per row")
    print("pace   players   mean    sd     min    max")
    for pace in ("table", "demo"):
        for players in (3, 4, 5, 6):
            times = [first_reveal_s(players, seed, pace) for seed in range(1, seeds + 1)]
            print(f"{pace:6} {players:7} {statistics.mean(times):7.1f} {statistics.stdev(times):5.1f} "
                  f"{min(times):6.1f} {max(times):6.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
