"""``buzzerbox diag``: every input of every station, live (presses, bounce,
stuck, noise); ``buzzerbox doctor``: which drivers this box has."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from controller.box import profile as profile_mod
from controller.box import session
from controller.box.debounce import DebounceConfig
from controller.box.monitor import InputMonitor
from controller.box.press import Edge
from controller.box.timeline import box_now_us
from controller.screen import live
from controller.screen.diag_link import DiagLink
from controller.screen.keyboard import KeyboardSource
from games.i18n import _, format_number, ngettext


def cmd_diag(args: argparse.Namespace) -> int:
    """On a profile, its inputs are read by a deciding process of diag's own
    (``DiagLink``): this process, the screen's, opens none. Without one: the
    keyboard's stations, or made-up presses (``--simulate``), debounced here."""
    profile = profile_mod.load(args.profile) if getattr(args, "profile", None) else None
    if profile is not None and any(profile.station_sounds()):  # what each bell will sound like in a game
        from controller.screen.sound import station_sound_lines

        lines = station_sound_lines(profile.station_sounds(), [st.name for st in profile.stations])
        print(_("diag: station sounds: {sounds}").format(sounds="; ".join(lines)), file=sys.stderr)
    simulated = bool(args.simulate)
    if profile is not None and not simulated:
        link = DiagLink(args.profile, feed=getattr(args, "feed", None))
        inputs = link.start()  # inputs that will not open there: its one line, exit 1
        try:
            print(_("diag: {profile} via {inputs}; Esc or Ctrl+C to stop").format(
                profile=profile.name, inputs=inputs), file=sys.stderr)
            return show_diag(args, link, len(profile.stations), real=True)
        finally:
            link.stop()
    if profile is not None:
        stations = [(st.name, list(st.inputs)) for st in profile.stations]
        debounce = profile.debounce
        host = list(profile.host)
    else:
        names, _colors = live.names_colors(None, args.players, session.saved_names(None))  # as entered in the menu
        stations = [(names[i] if names else _("Player {n}").format(n=i + 1), ["bell", "a"]) for i in range(args.players)]
        debounce, host = DebounceConfig(), []
    monitor = InputMonitor(stations, debounce, host, simulated=simulated)
    if simulated:
        print(_("diag: SIMULATED presses and one made-up noisy input (--simulate), not real stations"), file=sys.stderr)
    elif live.is_headless(args):
        print(_("diag: no screen and no --profile: nothing to read; give --profile P for real stations "
                "(or --simulate to see what the screen shows)"), file=sys.stderr)
    else:
        monitor.keys_hint = diag_keys_hint(len(stations))
        print(_("diag: keyboard stations ({keys}); give --profile P for real stations").format(
            keys=monitor.keys_hint), file=sys.stderr)
    return show_diag(args, monitor, len(stations), real=False,
                     simulator=diag_simulator(monitor, stations) if simulated else None)


def show_diag(args: argparse.Namespace, monitor: InputMonitor | DiagLink, stations: int, *, real: bool,
              simulator: Callable[[int], None] | None = None) -> int:
    """The diagnostics screen until Esc, Ctrl+C or ``--seconds``, then one line
    per input that needs a look. ``real``: the profile's inputs, stamped on
    the box clock (the screen runs on it, window or not)."""
    from controller.screen.loop import run_diag

    headless = live.is_headless(args)
    screen = live.open_screen(args, headless)
    seconds = args.seconds if args.seconds is not None else (20.0 if headless else None)
    keyboard = None if headless else KeyboardSource(stations)
    interrupted = False
    try:
        with session.stop_on_sigterm():
            if real:
                until = None if seconds is None else box_now_us() + int(seconds * 1_000_000)
                run_diag(screen, monitor, keyboard=keyboard, realtime=True, until_us=until, origin_us=0)
            else:
                until = None if seconds is None else int(seconds * 1_000_000)
                run_diag(screen, monitor, keyboard=keyboard, simulator=simulator, realtime=not headless, until_us=until)
    except KeyboardInterrupt:
        interrupted = True
    if args.screenshot:
        screen.save(args.screenshot)
        print(_("screenshot: {path}").format(path=args.screenshot))
    view = monitor.view()
    label = _(" (simulated)") if view["simulated"] else ""
    for row in view["inputs"]:
        if row["flag"]:
            print(_("{name} {input}: {flag}{label} ({glitches}, last bounce {bounce} µs)").format(
                name=row["name"], input=row["input"], flag=row["flag"], label=label,
                glitches=ngettext("{n} glitch", "{n} glitches", row["glitches"]).format(n=row["glitches"]),
                bounce=format_number(row["bounce_us"])))
    screen.close()
    if interrupted:
        raise KeyboardInterrupt  # the inputs are closed and the findings printed; the command line says "stopped"
    return 0


def diag_keys_hint(stations: int) -> str:
    """'keys 1-4: bells, keypad 1-4: button a; Esc: leave'."""
    last = min(stations, 10) % 10
    return _("keys 1-{last}: bells · keypad 1-{pad}: button a · Esc: leave").format(last=last, pad=min(stations, 8))


def diag_simulator(monitor: InputMonitor, stations: list[tuple[str, list[str]]]) -> Callable[[int], None]:
    """Presses on every input now and then, and one input that picks up noise
    (the screen shows what a loose wire looks like)."""
    from controller.box.sources.simulated import SimulatedSwitches

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
    from controller.screen.doctor import report

    text, ready = report(probe_drivers=not args.quick)
    print(text)
    if getattr(args, "profile", None):  # each station's own buzz, checked without opening the mixer
        from controller.screen.sound import station_sound_lines

        prof = profile_mod.load(args.profile)
        print(_("station sounds ({profile}):").format(profile=prof.name))
        for line in station_sound_lines(prof.station_sounds(), [st.name for st in prof.stations]):
            print(f"  {line}")
    return 0 if ready else 1
