"""How long one frame takes to draw, per scene, at 1920x1080; and how many
frames per second the whole loop keeps under a burst of 100 presses a second.

    PYTHONPATH=. python benchmarks/render.py [--frames 300] [--seconds 5]

Prints figures (a script, not a timed test): the target is a full frame well
inside 16.7 ms so a Pi 4 keeps 60 fps (see docs/display.md).
"""

from __future__ import annotations

import argparse
import os
import random
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

from controller.box.lights import LightDirector, RecordingLights  # noqa: E402
from controller.box.monitor import InputMonitor  # noqa: E402
from controller.box.press import Edge  # noqa: E402
from controller.box.runtime import Box  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from controller.box.sources.simulated import SimulatedSwitches  # noqa: E402
from controller.screen.diag import DiagScene  # noqa: E402
from controller.screen.loop import Presenter, draw_box, react_box  # noqa: E402
from controller.screen.menu import Menu, MenuScene  # noqa: E402
from controller.screen.screen import Screen  # noqa: E402
from controller.screen.sound import Sound  # noqa: E402
from games.registry import get  # noqa: E402
from games.scenes import scene_for  # noqa: E402
from games.toolkit.results import ResultsScene  # noqa: E402
from games.toolkit.scene import freeze  # noqa: E402

SIZE = (1920, 1080)


def _session(game: str, players: int, **options: Any) -> Session:
    spec = get(game)
    settings = spec.settings(players, 3, **{**spec.demo_options, **options})
    return Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), 3)


def _until(s: Session, want: Callable[[dict[str, Any]], bool]) -> None:
    while not want(s.box.engine.public_view()):
        s.step(max(s.next_time_us() or s.now_us + 1000, s.now_us))


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return f"median {statistics.median(xs):6.2f} ms   p99 {p99:6.2f} ms"


def scene_frames(frames: int) -> None:
    surface = pygame.Surface(SIZE)
    cases: list[tuple[str, Callable[[int], None]]] = []

    def game_case(label: str, game: str, players: int, want: Callable[[dict[str, Any]], bool], **opts: Any) -> None:
        s = _session(game, players, **opts)
        _until(s, want)
        scene = ResultsScene(game_title=game) if s.box.engine.finished else scene_for(game)
        view, strip = s.box.engine.public_view(), s.box.strip()

        def draw(i: int) -> None:
            # the full per-frame path: freeze the view, build the strip, draw
            scene.draw(surface, freeze(view), [dict(c) for c in strip], s.now_us + i * 16_667)

        cases.append((label, draw))

    game_case("quiz: answering (8 players, queue, timer)", "quiz", 8, lambda v: v["phase"] == "answering" and len(v["queue"]) >= 2)
    game_case("quiz: armed (16 players)", "quiz", 16, lambda v: v["phase"] == "armed")
    game_case("reaction: GO (6 players)", "reaction", 6, lambda v: v["phase"] == "go")
    game_case("reaction: result + leaderboard", "reaction", 6, lambda v: v["phase"] == "result")
    game_case("results screen", "reaction", 6, lambda v: v["finished"], rounds=3)
    game_case("schicki micki: window (7 players)", "schicki-micki", 7, lambda v: v["phase"] == "window" and len(v["table"]) >= 3)
    game_case("schicki micki: resolution", "schicki-micki", 7,
              lambda v: v["phase"] == "waiting" and bool(v["last_resolution"]) and len(v["last_resolution"]["outcomes"]) >= 4)
    game_case("viva topo: board, move highlighted (4 players)", "viva-topo", 4, lambda v: v["phase"] == "move" and v["turn_count"] > 8)
    mon = InputMonitor([(f"Player {i + 1}", ["bell", "a"]) for i in range(8)])
    diag = DiagScene()
    cases.append(("diag (16 inputs)", lambda i: diag.draw(surface, freeze(mon.view()), mon.strip(), i * 16_667)))
    menu = Menu([("quiz", "Quiz buzzer", 2, 16), ("reaction", "Reaction duel", 2, 16)])
    ms = MenuScene()
    cases.append(("menu", lambda i: ms.draw(surface, freeze(menu.view()), [], 0)))
    print(f"one frame at {SIZE[0]}x{SIZE[1]} (draw only, off-screen; {frames} frames each, text cache warm):")
    for label, draw in cases:
        draw(0)  # warm the text cache, as every frame after the first is
        times = []
        for i in range(frames):
            t0 = time.perf_counter()
            draw(i)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"  {label:44s} {_ms(times)}")


def burst(seconds: float, rate: int = 100) -> None:
    """A live quiz with 8 stations pressed 100 times a second in total (every
    press a bouncing edge train), the host arming and resetting every 0.4 s;
    each pass: debounce, engine, lights, sound, draw, flip. Unthrottled: the
    frames per second the loop could keep."""
    spec = get("quiz")
    box = Box(spec, spec.settings(8, 1, answer_time_us=10_000_000))
    screen = Screen.open(headless=True, size=SIZE)
    presenter = Presenter(screen, scene_for("quiz"), sound=Sound.open())
    lamps = LightDirector(RecordingLights([(i, "bell") for i in range(8)]))
    switches = SimulatedSwitches(1)
    rng = random.Random(1)
    t0 = time.perf_counter_ns() // 1000
    next_press, next_host, presses = 0, 0, 0
    times = []
    while True:
        now = time.perf_counter_ns() // 1000 - t0
        if now > seconds * 1_000_000:
            break
        while next_press <= now:
            switches.plan(rng.randrange(8), "bell", next_press)
            next_press += rng.randint(1, 2 * 1_000_000 // rate)
            presses += 1
        for edge in switches.due(now):
            box.edge(Edge(edge.station, edge.input, edge.level, edge.t_us), 1)
        if now >= next_host:
            legal = box.engine.legal_actions(None)
            box.host("arm" if "arm" in legal else "reset" if "reset" in legal else "next", now)
            next_host = now + 400_000
        f0 = time.perf_counter()
        events = box.step(now)
        lamps.update(box.statuses(), box.spec.status_light)
        react_box(presenter, box, events, now)
        draw_box(presenter, box, now)
        screen.flip()
        times.append((time.perf_counter() - f0) * 1000)
    print(f"burst: {presses / seconds:.0f} presses/s for {seconds:.0f} s, {len(box.press_log)} accepted presses:")
    print(f"  whole pass (debounce+engine+lights+sound+draw+flip) {_ms(times)}")
    print(f"  frames per second, unthrottled: {len(times) / seconds:.0f}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    pygame.display.init()
    pygame.font.init()
    print(f"pygame {pygame.version.ver}, SDL {'.'.join(map(str, pygame.get_sdl_version()))}, {os.cpu_count()} CPUs")
    scene_frames(args.frames)
    burst(args.seconds)


if __name__ == "__main__":
    main()
