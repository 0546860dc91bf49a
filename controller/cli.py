"""``buzzerbox``: the box's command line."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from controller import journal as journal_mod
from controller import profile as profile_mod
from controller import scenario as scenario_mod
from controller.display.commands import add_commands as add_display_commands
from controller.display.commands import add_screen_args
from controller.firmware_tools import add_firmware_commands
from controller.runtime import Box, box_from_journal
from controller.simulate import Session, simulate
from controller.wiring_pack.commands import add_commands as add_wiring_commands
from games import registry

log = logging.getLogger("buzzerbox")


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=True))


def _spec(name: str) -> registry.GameSpec:
    try:
        return registry.get(name)
    except LookupError as exc:
        raise SystemExit(f"buzzerbox: {exc}") from exc


def _options(pairs: Sequence[str]) -> dict[str, Any]:
    """--option key=value (value parsed as JSON when it can be)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"buzzerbox: --option wants key=value, got {pair!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


# -- commands -------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    spec = _spec(args.game)
    try:
        session = simulate(spec, args.players, args.seed, args.journal, _options(args.option))
    except (TypeError, ValueError, journal_mod.JournalError) as exc:
        raise SystemExit(f"buzzerbox simulate: {exc}") from exc
    summary = session.box.summary()
    if args.json:
        _print_json(summary)
    else:
        print(f"{spec.title}: {args.players} simulated players, seed {args.seed}, "
              f"{session.now_us / 1e6:.1f} s of play, {len(session.box.press_log)} presses")
        print(f"scores: {summary.get('scores')}")
        if args.journal:
            print(f"journal: {args.journal}")
    return 0


def cmd_demo_summary(args: argparse.Namespace) -> int:
    """Headless demo: a whole game by simulated players, summarised in words.
    ``buzzerbox demo`` (controller/display/commands.py) falls back to it for a
    game without a scene yet."""
    spec = _spec(args.game)
    players = args.players or max(spec.min_players, min(4, spec.max_players))
    settings = spec.settings(players, args.seed, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), args.seed)
    until = None if args.seconds is None else int(args.seconds * 1_000_000)
    session.run_virtual(until)
    print(f"{spec.title} — demo with {players} simulated players (seed {args.seed}), no screen found: headless")
    print_demo_log(box)
    return 0


def print_demo_log(box: Box) -> None:
    """The demo's story in words, then the summary as JSON."""
    for event in box.event_log:
        if event.kind in ("winner", "correct", "wrong", "early", "round_over", "game_over", "tie", "eaten", "cheese"):
            who = "" if event.player is None else f" {box.station_names[event.player]}"
            print(f"  {event.t_us / 1e6:8.3f} s  {event.kind}{who}")
    print(json.dumps(box.summary(), sort_keys=True))


def cmd_scenario(args: argparse.Namespace) -> int:
    return scenario_mod.command(args.file, as_json=args.json, with_events=args.events)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        box = box_from_journal(journal_mod.read(args.file))
    except (journal_mod.JournalError, LookupError) as exc:
        raise SystemExit(f"buzzerbox replay: {exc}") from exc
    if args.json:
        _print_json(box.summary())
    else:
        print(f"{box.spec.title}: {len(box.press_log)} presses replayed; scores {box.engine.public_view().get('scores')}")
        if args.disputes:
            print_disputes(box)
    return 0


def print_disputes(box: Box) -> None:
    """Every press with its stamp, and every decision with who was how far
    behind: what settles "I was first!" after the fact."""
    from controller.timeline import format_margin

    def name(station: int) -> str:
        return box._name(station) if station >= 0 else "host"

    timeline: list[tuple[int, int, str]] = [
        (p.t_us, 0, f"press  {name(p.station)} {p.input} (stamped to ±{p.precision_us} µs, {p.edges} edges)")
        for p in box.press_log
    ]
    for event in box.event_log:
        if event.kind == "winner":
            queue = event.data.get("queue", [])
            margins = event.data.get("margins_us", [])
            behind = ", ".join(f"{name(s)} {format_margin(m)}" for s, m in zip(queue, margins, strict=False))
            text = f"FIRST  {name(event.player if event.player is not None else -1)}" + (f"; then {behind}" if behind else "")
        elif event.kind == "tie":
            text = "TIE    " + " = ".join(name(s) for s in event.data.get("stations", [])) + " (closer than the stamps can tell)"
        elif event.kind == "early":
            text = f"early  {name(event.player if event.player is not None else -1)} pressed before it was allowed"
        else:
            continue
        timeline.append((event.t_us, 1, text))
    for t_us, _order, text in sorted(timeline):
        print(f"  {t_us / 1e6:12.6f} s  {text}")


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue a journaled game after a crash or power cut."""
    try:
        if journal_mod.read(args.file).header.get("mode") == "play":  # look before touching the file
            raise SystemExit("buzzerbox resume: live games resume with 'buzzerbox play GAME --profile P --resume FILE'")
        journal = journal_mod.repair(args.file)
        writer = journal_mod.JournalWriter(args.file)
        box = box_from_journal(journal, writer)
    except (journal_mod.JournalError, LookupError) as exc:
        raise SystemExit(f"buzzerbox resume: {exc}") from exc
    print(f"resuming {box.spec.title} from {args.file}: {len(journal.records)} records replayed"
          + (" (a torn last line was cut off)" if journal.torn_tail else ""), file=sys.stderr)
    spec, settings = box.spec, box.settings
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed + 1)
    session.now_us = box.now_us
    session.run_virtual(None if args.seconds is None else box.now_us + int(args.seconds * 1e6))
    box._write({"type": "end", "t_us": session.now_us})
    writer.close()
    if args.json:
        _print_json(box.summary())
    else:
        print(f"finished: scores {box.summary().get('scores')}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    """Real stations: the profile's source, the game's scene (or a headless
    screen), lights, sound, and a journal of every press."""
    from controller.display import commands as display
    from controller.display.loop import Presenter, run
    from controller.display.scene import scene_for
    from controller.sources import open_source
    from controller.sources.keyboard import KeyboardSource
    from controller.timeline import box_now_us

    spec = _spec(args.game)
    try:
        prof = profile_mod.load(args.profile)
    except profile_mod.ProfileError as exc:
        raise SystemExit(f"buzzerbox play: {exc}") from exc
    names = [s.name for s in prof.stations]
    if args.resume:
        try:
            journal = journal_mod.repair(args.resume)
            box = box_from_journal(journal, journal_mod.JournalWriter(args.resume))
        except (journal_mod.JournalError, LookupError) as exc:
            raise SystemExit(f"buzzerbox play --resume: {exc}") from exc
        # carry on a second after the journal's last moment, whatever the clock
        # did meanwhile (restarted at 0 after a power cut, or ran on)
        box.time_offset_us = journal.last_t_us + 1_000_000 - box_now_us()
        path = args.resume
    else:
        try:
            settings = spec.settings(len(prof.stations), args.seed, **_options(args.option))
        except ValueError as exc:
            raise SystemExit(f"buzzerbox play: {exc}") from exc
        box = Box(spec, settings, prof.station_kinds(), debounce=prof.debounce, station_names=names)
        box.time_offset_us = -box_now_us()  # the game's own timeline starts now, at 0
        path = args.journal or time.strftime("journal-%Y%m%d-%H%M%S.jsonl")
        box.journal = journal_mod.JournalWriter.create(path, box.header(mode="play", profile=prof.name))
    try:
        source = open_source(prof)
        box.latency_guard_us = source.report_delay_us(prof.debounce)
        source.start(box)
    except Exception as exc:
        raise SystemExit(f"buzzerbox play: cannot open the {prof.source} inputs of {prof.name}: {exc}") from exc
    def game_now() -> int:
        return box_now_us() + box.time_offset_us

    box.debouncer.start_all(source.levels(), game_now())
    headless = display.is_headless(args)
    _names, colors = display.names_colors(prof, len(prof.stations))
    scene = scene_for(spec.name, colors)
    presenter = Presenter(display.open_screen(args, headless), scene, lights=display.open_lights(prof, source),
                          sound=display.open_sound(args, headless))
    print(f"{spec.title} on {prof.name}: {source.describe()}; journal {path}; "
          f"{'headless' if headless else 'on screen'}; Ctrl+C or Esc to stop", file=sys.stderr)
    try:
        until = None if args.seconds is None else game_now() + int(args.seconds * 1_000_000)
        result = run(box, presenter, realtime=True, fps=15 if headless else 60, until_us=until,
                     keyboard=None if headless else KeyboardSource(len(prof.stations)))
        log.info("play ended: %s", result.reason)
    except KeyboardInterrupt:
        log.info("play stopped (Ctrl+C)")
    finally:
        presenter.close()  # every light off, however the game ended
        source.stop()
        box._write({"type": "end", "t_us": game_now()})
        if box.journal is not None:
            box.journal.close()
    _print_json(box.summary())
    return 0


def cmd_wiring_check(args: argparse.Namespace) -> int:
    try:
        prof = profile_mod.load(args.profile)
    except profile_mod.ProfileError as exc:
        print(f"FAIL {exc}", file=sys.stderr)
        return 1
    inputs = sum(len(s.inputs) for s in prof.stations) + len(prof.host)
    lights = sum(len(s.lights) for s in prof.stations)
    print(f"OK {prof.name}: {len(prof.stations)} stations, {inputs} inputs, {lights} lights on {prof.source}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="buzzerbox",
        description="The buzzer box: fair first-press arbitration for quizzes and tabletop reaction games.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv for debug)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = ", ".join(registry.available())

    # demo (on the screen, or headless with a screenshot), diag, doctor, menu
    add_display_commands(sub)
    add_firmware_commands(sub)

    p = sub.add_parser("simulate", help="a whole game with bots, no waiting, deterministic for a seed")
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument("--journal", help="write the session journal to this file (must not exist)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (repeatable)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("scenario", help="run a JSON scenario file and print its outcome")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--events", action="store_true", help="include every event in the JSON")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("replay", help="rebuild a game's final state from its journal")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--disputes", action="store_true", help="list every press with its stamp and precision")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("resume", help="continue a journaled game after a crash or power cut")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seconds", type=float, help="play at most this much more box time")
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("play", help="play with real stations wired as a profile says")
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("--profile", required=True, help="wiring profile name (wiring/NAME.toml) or path")
    p.add_argument("--seed", type=int, default=int(time.time()) % 1_000_000)
    p.add_argument("--journal", help="journal file (default: journal-DATE-TIME.jsonl)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--seconds", type=float, help="stop after this long (a test run)")
    p.add_argument("--resume", metavar="JOURNAL", help="continue the game in this journal (after a crash or power cut)")
    add_screen_args(p, profile=False)
    p.add_argument("--headless", action="store_true", help="no window even where there is a screen")
    p.set_defaults(func=cmd_play)

    wiring = sub.add_parser("wiring", help="wiring profiles: check, draw, table, guided test").add_subparsers(dest="wiring_command", required=True, metavar="ACTION")
    p = wiring.add_parser("check", help="validate a wiring profile")
    p.add_argument("profile")
    p.set_defaults(func=cmd_wiring_check)
    add_wiring_commands(wiring)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    # a box with real players says what happened by default (journald keeps it)
    base = 1 if args.command in ("play", "menu", "diag") else 0
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose + base, 2)]
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # `buzzerbox ... | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
