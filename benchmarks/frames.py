"""Frame time per scene at 1920x1080, draw only: every game's screens
mid-game and at its end, the scenes interleaved (each round draws every
scene in turn, so a slow moment of the machine hits all of them alike) and
repeated; per scene the median of the round medians, the worst frame, and
the spread of the round medians; the load average before and after. The
same frames are also timed in this process's CPU time: on a shared machine
(a load of 8 on 2 cores) the wall clock counts the other programs' turns too,
the CPU time counts the drawing only.

    PYTHONPATH=. python benchmarks/frames.py [--rounds 5] [--frames 40] [--only fiki]

Before/after a change: run this file from a copy of the old tree and from the
new one in turns (`git archive main | tar -x -C /tmp/base`, copy this file in,
then alternate the two runs), and compare the CPU medians.

What it proves: how long this machine takes to draw each scene (the budget is
16.7 ms for 60 fps; a Pi 4 is 3-5x slower, so we want under ~8 ms here).
What it cannot: the flip to a real display, or the Pi itself.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame  # noqa: E402

from controller.box.runtime import Box  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from games.registry import get  # noqa: E402
from games.scenes import scene_for
from games.toolkit.results import ResultsScene  # noqa: E402
from games.toolkit.results_words import results_drawn  # noqa: E402
from games.toolkit.scene import freeze  # noqa: E402

SIZE = (1920, 1080)
Want = Callable[[dict[str, Any]], bool]

#: (label, game, players, the moment, options)
CASES: list[tuple[str, str, int, Want, dict[str, Any]]] = [
    ("quiz: answering", "quiz", 8, lambda v: v["phase"] == "answering" and len(v["queue"]) >= 2, {}),
    ("quiz: end", "quiz", 6, lambda v: v["finished"], {"questions": 4}),
    ("reaction: go", "reaction", 6, lambda v: v["phase"] == "go", {}),
    ("reaction: end", "reaction", 6, lambda v: v["finished"], {"rounds": 3}),
    ("schicki micki: window", "schicki-micki", 7, lambda v: v["phase"] == "window" and len(v["table"]) >= 3, {}),
    ("schicki micki: end", "schicki-micki", 5, lambda v: v["phase"] == "over", {}),
    ("viva topo: move", "viva-topo", 4, lambda v: v["phase"] == "move" and v["turn_count"] > 8, {}),
    ("viva topo: end", "viva-topo", 4, lambda v: v["phase"] == "over", {}),
    ("fiki miki: play", "fiki-miki", 5, lambda v: v["phase"] != "over" and bool(v.get("last_race")), {}),
    ("fiki miki: end", "fiki-miki", 4, lambda v: v["phase"] == "over", {}),
    ("piepmatz: play", "piepmatz", 4, lambda v: v["phase"] == "play" and int(v["turns"]) >= 6, {}),
    ("piepmatz: end", "piepmatz", 4, lambda v: v["phase"] == "over", {}),
    ("pictomania: drawing", "pictomania", 6, lambda v: v["phase"] == "drawing", {}),
    ("pictomania: reveal", "pictomania", 6, lambda v: v["phase"] == "revealed", {}),
    ("pictomania: end", "pictomania", 5, lambda v: v["phase"] == "over", {}),
]


def frame(game: str, players: int, want: Want, options: dict[str, Any], surface: pygame.Surface) -> Callable[[int], None]:
    """The moment's full per-frame path: freeze the view, build the strip, draw."""
    spec = get(game)
    settings = spec.settings(players, 3, **{**spec.demo_options, **options})
    s = Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), 3)
    while s.now_us < 900_000_000 and not want(s.box.engine.public_view()):
        s.step(max(s.next_time_us() or s.now_us + 1000, s.now_us))
    scene = scene_for(game)
    if results_drawn(s.box.engine.finished, scene.own_results):
        scene = ResultsScene(game_title=scene.title)
    view, strip, now = s.box.engine.public_view(), s.box.strip(), s.now_us
    return lambda i: scene.draw(surface, freeze(view), [dict(c) for c in strip], now + i * 16_667)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--frames", type=int, default=40)
    ap.add_argument("--only", default="", help="only scenes whose label contains this")
    args = ap.parse_args()
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface(SIZE)
    draws = [(label, frame(game, players, want, opts, surface)) for label, game, players, want, opts in CASES
             if args.only in label]
    for _label, draw in draws:
        draw(0)  # warm the caches, as every frame after the first finds them
    load0 = os.getloadavg()
    medians: dict[str, list[float]] = {label: [] for label, _d in draws}
    cpu_medians: dict[str, list[float]] = {label: [] for label, _d in draws}
    worst: dict[str, float] = dict.fromkeys(medians, 0.0)
    for r in range(args.rounds):
        for label, draw in draws:
            times, cpu = [], []
            for i in range(args.frames):
                t0, c0 = time.perf_counter(), time.process_time()
                draw(r * args.frames + i)  # the clock moves: animations run as on the box
                times.append((time.perf_counter() - t0) * 1000)
                cpu.append((time.process_time() - c0) * 1000)
            medians[label].append(statistics.median(times))
            cpu_medians[label].append(statistics.median(cpu))
            worst[label] = max(worst[label], max(times))
    load1 = os.getloadavg()
    print(f"pygame {pygame.version.ver}, {os.cpu_count()} CPUs, load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    print(f"draw only at {SIZE[0]}x{SIZE[1]}, {args.rounds} interleaved rounds x {args.frames} frames per scene:")
    print(f"  {'scene':24s} {'median':>8s} {'spread':>14s} {'worst':>8s} {'CPU median':>11s} {'CPU spread':>14s}")
    for label, ms in medians.items():
        c = cpu_medians[label]
        print(f"  {label:24s} {statistics.median(ms):6.2f} ms  {min(ms):5.2f}-{max(ms):5.2f} ms {worst[label]:6.2f} ms"
              f" {statistics.median(c):8.2f} ms  {min(c):5.2f}-{max(c):5.2f} ms")


if __name__ == "__main__":
    main()
