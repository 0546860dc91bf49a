"""The display's subcommands for ``buzzerbox``: demo, diag, doctor, menu.

``controller.cli`` calls ``add_commands(subparsers)``; each command sets
``func`` to a callable(args) -> exit status.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

log = logging.getLogger("buzzerbox.display")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # keep the commands' output ours


def add_commands(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "demo", help="watch a game played by simulated players (a window, or headless with --headless)",
        description="Simulated players play GAME on the screen. Where there is no display (or with "
        "--headless) it plays SECONDS of box time as fast as it can and prints a summary.",
    )
    p.add_argument("game", nargs="?", default="quiz", help="quiz, reaction, ... (a game without a scene yet: headless summary)")
    p.add_argument("--players", type=int, default=None, help="how many simulated players (default 4, or the game's limit)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--headless", action="store_true", help="no window: virtual time, print a summary")
    p.add_argument("--seconds", type=float, default=None, help="box time to play (headless default: 60)")
    p.add_argument("--screenshot", metavar="FILE", help="save the last frame as a 1920x1080 PNG")
    p.add_argument("--board-sim", action="store_true",
                   help="players' switches go through the firmware board's own logic, a pseudo-terminal and the "
                        "board driver (real time)")
    add_screen_args(p)
    p.set_defaults(func=cmd_demo)

    p = subparsers.add_parser("diag", help="every input of every station, live: presses, bounce, stuck, noise")
    p.add_argument("--players", type=int, default=4, help="stations when no --profile is given")
    p.add_argument("--simulate", action="store_true", help="simulated presses (and one noisy input) instead of real ones")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--screenshot", metavar="FILE")
    add_screen_args(p)
    p.set_defaults(func=cmd_diag)

    p = subparsers.add_parser("doctor", help="which video and audio drivers and which GPIO pin factory this box has")
    p.add_argument("--quick", action="store_true", help="do not try to open each driver")
    p.set_defaults(func=cmd_doctor)

    p = subparsers.add_parser("menu", help="the start menu (what the kiosk runs): choose a game, players, options, start")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--headless", action="store_true", help="draw the menu once (with --screenshot) and exit")
    p.add_argument("--screenshot", metavar="FILE")
    p.add_argument("--journal-dir", default=str(Path.home() / ".local/share/buzzerbox/journals"),
                   help="where each game with real players is journaled (default: %(default)s)")
    add_screen_args(p)
    p.set_defaults(func=cmd_menu)


def add_screen_args(p: argparse.ArgumentParser, profile: bool = True) -> None:
    if profile:
        p.add_argument("--profile", help="wiring profile: station names, colours and the lights' pins")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None)
    g.add_argument("--window", dest="fullscreen", action="store_false")
    p.add_argument("--volume", type=float, default=0.8, help="0..1")
    p.add_argument("--mute", action="store_true")


# -- shared set-up --------------------------------------------------------------------


def load_profile(args: argparse.Namespace) -> Any:
    if not getattr(args, "profile", None):
        return None
    from controller.profile import load

    return load(args.profile)


def open_lights(profile: Any, source: Any = None) -> Any:
    """The profile's button lights: GPIO pins, or the input board's outputs."""
    from controller.lights import GpioLights, NoLights

    if profile is None or not profile.light_pins():
        return NoLights()
    if profile.source == "board":
        return source.lights() if source is not None and hasattr(source, "lights") else NoLights()
    if profile.source != "gpio":
        return NoLights()
    try:
        return GpioLights.from_profile(profile)
    except Exception as exc:  # no GPIO here (a desktop): show the game anyway
        print(f"lights: off ({exc.__class__.__name__}: {exc})", file=sys.stderr)
        return NoLights()


def names_colors(profile: Any, players: int) -> tuple[list[str] | None, list[Any] | None]:
    if profile is None:
        return None, None
    from games.toolkit.theme import PALETTE, hex_color

    names = [profile.stations[i].name if i < len(profile.stations) else f"Player {i + 1}" for i in range(players)]
    colors = [hex_color(profile.stations[i].color) if i < len(profile.stations) else PALETTE[i % len(PALETTE)] for i in range(players)]
    return names, colors


def open_screen(args: argparse.Namespace, headless: bool) -> Any:
    from controller.display.screen import Screen

    return Screen.open(headless=headless, fullscreen=getattr(args, "fullscreen", None))


def open_sound(args: argparse.Namespace, headless: bool) -> Any:
    from controller.sound import Sound, SoundSettings

    if headless and "SDL_AUDIODRIVER" not in os.environ:
        os.environ["SDL_AUDIODRIVER"] = "dummy"  # headless: count sounds, play none
    return Sound.open(SoundSettings(volume=args.volume, mute=args.mute))


def is_headless(args: argparse.Namespace) -> bool:
    from controller.display.screen import has_display

    return bool(args.headless) or not has_display()


# -- commands -------------------------------------------------------------------------


def cmd_demo(args: argparse.Namespace) -> int:
    from controller.display.loop import Presenter, run, snapshot
    from controller.runtime import Box
    from controller.simulate import Session
    from controller.sources.keyboard import KeyboardSource
    from games.registry import get, scene_for

    try:
        spec = get(args.game)
        if args.players is None:
            args.players = max(spec.min_players, min(4, spec.max_players))
        settings = spec.settings(args.players, args.seed, **spec.demo_options)
    except (LookupError, ValueError) as exc:
        print(f"demo: {exc}", file=sys.stderr)
        return 2
    headless = is_headless(args)
    try:
        scene = scene_for(args.game, None)
    except (LookupError, ImportError) as exc:
        if not headless or args.screenshot:
            print(f"demo: {spec.title} cannot be shown yet ({exc}); playing it headless", file=sys.stderr)
        from controller.cli import cmd_demo_summary

        return cmd_demo_summary(args)
    profile = load_profile(args)
    names, colors = names_colors(profile, args.players)
    box = Box(spec, settings, station_names=names)
    board = None
    if args.board_sim:
        board = _attach_board_sim(box, settings.players, spec.inputs)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), args.seed)
    lights = open_lights(profile)
    if board is not None:
        session.edge_sink, session.lookahead_us = board.edge_sink, 5_000_000
        lights = board.source.lights()
    screen = open_screen(args, headless)
    scene.colors = colors
    presenter = Presenter(screen, scene, lights=lights, sound=open_sound(args, headless))
    seconds = args.seconds if args.seconds is not None else (60.0 if headless else None)
    started_us = box.now_us
    until = None if seconds is None else started_us + int(seconds * 1_000_000)
    try:
        if headless and board is None:
            result = run(session, presenter, realtime=False, until_us=until)
        else:  # a simulated board runs on the real clock, window or not
            result = run(session, presenter, realtime=True, until_us=until,
                         keyboard=None if headless else KeyboardSource(args.players),
                         # the board stamps on the real box clock: the session's game time must follow it
                         to_game_us=box.time_offset_us if board is not None else None)
    finally:
        if board is not None:
            board.close()
    if args.screenshot:
        snapshot(presenter, box, result.now_us, args.screenshot)
    kinds = Counter(e.kind for e in result.events)
    summary = box.summary()
    print(f"{spec.title}: {args.players} players, seed {args.seed}, {(result.now_us - started_us) / 1e6:.1f} s of box time "
          f"({'virtual, headless' if headless and board is None else 'real time'}"
          f"{', through the simulated input board' if board is not None else ''}), ended: {result.reason}")
    print(f"frames drawn: {result.frames}; cards/GO shown: {len(result.shows)}; sounds: {dict(Counter(result.sounds))}")
    print("events: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"scores: {summary.get('scores')}")
    if args.screenshot:
        print(f"screenshot: {args.screenshot} (1920x1080)")
    if headless:
        from controller.cli import print_demo_log

        print_demo_log(box)
    screen.close()
    return 0


class _BoardSimLink:
    """A simulated input board between the simulated players and the box."""

    def __init__(self, box: Any, players: int, inputs: tuple[str, ...]) -> None:
        from controller.sources.board_sim import start_simulated_board
        from controller.timeline import box_now_us
        from firmware.buzzer import pinmap

        free = sorted(pinmap.DIRECT) + list(range(32, 32 + 8 * pinmap.SR_CHIPS))  # see board-pinmap.toml
        wanted = [(station, name) for station in range(players) for name in inputs]
        if len(wanted) > len(free):
            raise SystemExit(f"demo --board-sim: {len(wanted)} inputs, but the board reads {len(free)}")
        self.channels = dict(zip(wanted, free, strict=False))
        channel_map = {ch: key for key, ch in self.channels.items()}
        light_map = {(station, "bell"): station for station in range(players)}
        self.sim, self.source = start_simulated_board(channel_map, light_map)
        box.latency_guard_us = self.source.report_delay_us(box.debouncer.config)
        # the board stamps on the real box clock; the game's timeline starts now, at 0
        box.time_offset_us = -box_now_us()
        self.box = box
        self.source.start(box)

    def edge_sink(self, edge: Any, precision_us: int) -> None:
        """Schedule the edge on the board at its own (future) time."""
        channel = self.channels.get((edge.station, edge.input))
        if channel is not None:
            raw = edge.t_us - self.box.time_offset_us  # game time -> box clock -> the board's own time
            self.sim.edges(channel, [(0, edge.level)], at_us=raw - self.sim.host_offset_us)

    def close(self) -> None:
        self.source.stop()
        self.sim.close()


def _attach_board_sim(box: Any, players: int, inputs: tuple[str, ...]) -> _BoardSimLink:
    return _BoardSimLink(box, players, inputs)


def cmd_diag(args: argparse.Namespace) -> int:
    from controller.debounce import DebounceConfig
    from controller.display.diag import InputMonitor
    from controller.display.loop import run_diag
    from controller.sources.keyboard import KeyboardSource

    profile = load_profile(args)
    if profile is not None:
        stations = [(st.name, list(st.inputs)) for st in profile.stations]
        debounce = profile.debounce
        host = list(profile.host)
    else:
        stations = [(f"Player {i + 1}", ["bell", "a"]) for i in range(args.players)]
        debounce, host = DebounceConfig(), []
    headless = is_headless(args)
    monitor = InputMonitor(stations, debounce, host)
    real = profile is not None and not args.simulate
    simulator = None if real else (_diag_simulator(monitor, stations) if (args.simulate or headless) else None)
    source = None
    if real:
        from controller.sources import open_source
        from controller.timeline import box_now_us

        try:
            source = open_source(profile)
            source.start(monitor)
        except Exception as exc:
            raise SystemExit(f"buzzerbox diag: cannot open the {profile.source} inputs of {profile.name}: {exc}") from exc
        monitor.debouncer.start_all(source.levels(), box_now_us())
        print(f"diag: {profile.name} via {source.describe()}; Esc or Ctrl+C to stop", file=sys.stderr)
    screen = open_screen(args, headless)
    seconds = args.seconds if args.seconds is not None else (20.0 if headless else None)
    try:
        if real:  # the sources stamp on the box clock: run on it, window or not
            from controller.timeline import box_now_us

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


def _diag_simulator(monitor: Any, stations: list[tuple[str, list[str]]]) -> Any:
    """Presses on every input now and then, and one input that picks up noise
    (the screen shows what a loose wire looks like)."""
    from controller.press import Edge
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


def _new_journal_path(folder: Path, game: str) -> Path:
    """game-DATE-TIME.jsonl, numbered when two games start within a second."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = time.strftime(f"{game}-%Y%m%d-%H%M%S")
    path, n = folder / f"{stem}.jsonl", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.jsonl"
    return path


class _Relay:
    """The stations' source is opened once; this hands its deliveries to
    whatever runs now: the menu's monitor or the game's box."""

    def __init__(self) -> None:
        self.target: Any = None

    def edge(self, edge: Any, precision_us: int) -> None:
        if self.target is not None:
            self.target.edge(edge, precision_us)

    def press(self, press: Any) -> None:
        if self.target is not None:
            self.target.press(press)

    def notice(self, notice: Any) -> None:
        if self.target is not None:
            self.target.notice(notice)


def cmd_doctor(args: argparse.Namespace) -> int:
    from controller.display.doctor import report

    print(report(probe_drivers=not args.quick))
    return 0


def cmd_menu(args: argparse.Namespace) -> int:
    from controller.display.diag import InputMonitor
    from controller.display.loop import Presenter, run, run_menu
    from controller.display.menu import Menu, MenuScene
    from controller.journal import JournalWriter
    from controller.runtime import Box
    from controller.simulate import Session
    from controller.sources.keyboard import KeyboardSource
    from controller.timeline import box_now_us
    from games.registry import available, get, scene_for
    from games.toolkit.scene import freeze

    games = []
    for name in available():
        spec = get(name)
        if spec.scene:
            games.append((name, spec.title, spec.min_players, spec.max_players))
    profile = load_profile(args)
    players = len(profile.stations) if profile is not None else args.players
    headless = is_headless(args) if args.headless else False
    screen = open_screen(args, headless)
    menu = Menu(games, players)
    if headless:
        MenuScene().draw(screen.surface, freeze(menu.view()), [], 0)
        if args.screenshot:
            screen.save(args.screenshot)
            print(f"screenshot: {args.screenshot}")
        return 0
    sound = open_sound(args, False)
    relay = _Relay()
    source = None
    if profile is not None:  # the stations' own buttons drive the menu and the games
        from controller.sources import open_source

        try:
            source = open_source(profile)
            source.start(relay)
        except Exception as exc:
            print(f"menu: the stations of {profile.name} cannot be read ({exc}); keyboard only", file=sys.stderr)
            source = None
    lights = open_lights(profile, source)
    levels = source.levels() if source is not None else {}
    try:
        while True:
            names, colors = names_colors(profile, max(players, 16))
            if profile is not None:
                stations = [(st.name, list(st.inputs)) for st in profile.stations]
                monitor = InputMonitor(stations, profile.debounce, list(profile.host))
            else:
                monitor = InputMonitor([(f"Player {i + 1}", ["bell"]) for i in range(players)])
            monitor.debouncer.start_all(levels, box_now_us())
            relay.target = monitor
            choice = run_menu(screen, menu, keyboard=KeyboardSource(players), monitor=monitor)
            if choice is None:
                break
            sound.settings = choice.sound
            spec = get(choice.game)
            settings = spec.settings(choice.players, random.randrange(1 << 30),
                                     **({**spec.demo_options, **choice.options} if choice.bots else choice.options))
            kinds = profile.station_kinds()[: choice.players] if profile is not None else None
            box = Box(spec, settings, kinds, debounce=profile.debounce if profile is not None else None,
                      station_names=(names or None) and names[: choice.players])
            target: Any = box
            if choice.bots:
                target = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed)
            else:
                box.time_offset_us = -box_now_us()  # the game's own timeline starts now, at 0
                path = _new_journal_path(Path(args.journal_dir), choice.game)
                box.journal = JournalWriter.create(path, box.header(mode="play", profile=profile.name if profile else None))
                log.info("journal: %s", path)
                if source is not None:
                    box.latency_guard_us = source.report_delay_us(profile.debounce)
                    box.debouncer.start_all(levels, 0)
                    relay.target = box
            presenter = Presenter(screen, scene_for(choice.game, colors), lights=lights, sound=sound)
            try:
                result = run(target, presenter, realtime=True, keyboard=KeyboardSource(choice.players))
            finally:
                relay.target = None
                if box.journal is not None:
                    box.journal.close()
            log.info("game ended: %s", result.reason)
            if result.reason == "quit":
                break
    finally:
        if source is not None:
            source.stop()
    sound.close()
    screen.close()
    return 0
