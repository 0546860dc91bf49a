"""``buzzerbox diag``: every input of every station, live (presses, bounce,
stuck, noise); ``buzzerbox doctor``: which drivers this box has."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from controller import live
from controller import profile as profile_mod
from controller.debounce import DebounceConfig
from controller.display.diag import InputMonitor
from controller.press import Edge
from controller.sources.base import Source
from controller.sources.keyboard import KeyboardSource
from controller.timeline import box_now_us


def cmd_diag(args: argparse.Namespace) -> int:
    from controller.display.loop import run_diag

    profile = profile_mod.load(args.profile) if getattr(args, "profile", None) else None
    if profile is not None:
        stations = [(st.name, list(st.inputs)) for st in profile.stations]
        debounce = profile.debounce
        host = list(profile.host)
    else:
        stations = [(f"Player {i + 1}", ["bell", "a"]) for i in range(args.players)]
        debounce, host = DebounceConfig(), []
    headless = live.is_headless(args)
    monitor = InputMonitor(stations, debounce, host)
    real = profile is not None and not args.simulate
    simulator = None if real else (diag_simulator(monitor, stations) if (args.simulate or headless) else None)
    source: Source | None = None
    if real and profile is not None:
        source = live.open_inputs(profile, monitor)
        monitor.debouncer.start_all(source.levels(), box_now_us())
        print(f"diag: {profile.name} via {source.describe()}; Esc or Ctrl+C to stop", file=sys.stderr)
    screen = live.open_screen(args, headless)
    seconds = args.seconds if args.seconds is not None else (20.0 if headless else None)
    try:
        with live.stop_on_sigterm():
            if real:  # the sources stamp on the box clock: run on it, window or not
                until = None if seconds is None else box_now_us() + int(seconds * 1_000_000)
                run_diag(screen, monitor, keyboard=None if headless else KeyboardSource(len(stations)),
                         realtime=True, until_us=until, origin_us=0)
            else:
                until = None if seconds is None else int(seconds * 1_000_000)
                keyboard = None if headless else KeyboardSource(len(stations))
                run_diag(screen, monitor, keyboard=keyboard, simulator=simulator, realtime=not headless, until_us=until)
    except KeyboardInterrupt:
        pass
    finally:
        if source is not None:
            source.stop()
    if args.screenshot:
        screen.save(args.screenshot)
        print(f"screenshot: {args.screenshot}")
    for row in monitor.view()["inputs"]:
        if row["flag"]:
            print(f"{row['name']} {row['input']}: {row['flag']} ({row['glitches']} glitches, last bounce {row['bounce_us']} µs)")
    screen.close()
    return 0


def diag_simulator(monitor: InputMonitor, stations: list[tuple[str, list[str]]]) -> Callable[[int], None]:
    """Presses on every input now and then, and one input that picks up noise
    (the screen shows what a loose wire looks like)."""
    from controller.sources.simulated import SimulatedSwitches

    switches = SimulatedSwitches(7)
    rng = random.Random(7)
    next_press = {(s, i): rng.randint(200_000, 3_000_000) for s, (_n, inputs) in enumerate(stations) for i in inputs}
    noisy = (min(1, len(stations) - 1), stations[min(1, len(stations) - 1)][1][0])
    next_noise = [500_000]

    def feed(now_us: int) -> None:
        for key, due in next_press.items():
            if due <= now_us:
                switches.plan(key[0], key[1], due)
                next_press[key] = due + rng.randint(1_500_000, 6_000_000)
        while next_noise[0] <= now_us:  # a 200 µs spike: too short to be a finger
            t = next_noise[0]
            monitor.edge(Edge(noisy[0], noisy[1], 0, t), 1)
            monitor.edge(Edge(noisy[0], noisy[1], 1, t + 200), 1)
            next_noise[0] += rng.randint(700_000, 2_500_000)
        for edge in switches.due(now_us):
            monitor.edge(edge, switches.precision_us)

    return feed


def cmd_doctor(args: argparse.Namespace) -> int:
    from controller.display.doctor import report

    print(report(probe_drivers=not args.quick))
    return 0
