"""``buzzerbox``: the box's command line. Only argument parsing lives here;
each command is an app in ``controller/apps``. An error the box raises on
purpose (``BuzzerBoxError``) ends the command with one line, exit status 1."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Sequence

from controller.apps.demo import cmd_demo
from controller.apps.diag import cmd_diag, cmd_doctor
from controller.apps.journal import DURABILITY_SIMULATE, add_journal_commands
from controller.apps.menu import cmd_menu
from controller.apps.play import cmd_play
from controller.apps.records import cmd_replay, cmd_resume, cmd_scenario, cmd_simulate
from controller.firmware_tools import add_firmware_commands
from controller.web import DEFAULT_PORT
from controller.wiring_pack.commands import add_commands as add_wiring_commands
from games import registry
from games.base import BuzzerBoxError

DEFAULT_JOURNAL_DIR = "~/.local/share/buzzerbox/journals"



def add_screen_args(p: argparse.ArgumentParser, profile: bool = True) -> None:
    if profile:
        p.add_argument("--profile", help="wiring profile: station names, colours and the lights' pins")
    g = p.add_mutually_exclusive_group()
    g.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None)
    g.add_argument("--window", dest="fullscreen", action="store_false")
    p.add_argument("--volume", type=float, default=0.8, help="0..1")
    p.add_argument("--mute", action="store_true")


def add_display_commands(sub: argparse._SubParsersAction) -> None:
    """demo (on the screen, or headless with a screenshot), diag, doctor, menu."""
    p = sub.add_parser(
        "demo", help="watch a game played by simulated players (a window, or headless with --headless)",
        description="Simulated players play GAME on the screen. Where there is no display (or with "
        "--headless) it plays SECONDS of box time as fast as it can and prints a summary.",
    )
    p.add_argument("game", nargs="?", default=None,
                   help="one of the games (default: the first; a game without a scene yet: headless summary)")
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

    p = sub.add_parser("diag", help="every input of every station, live: presses, bounce, stuck, noise")
    p.add_argument("--players", type=int, default=4, help="stations when no --profile is given")
    p.add_argument("--simulate", action="store_true", help="simulated presses (and one noisy input) instead of real ones")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--seconds", type=float, default=None)
    p.add_argument("--screenshot", metavar="FILE")
    add_screen_args(p)
    p.set_defaults(func=cmd_diag)

    p = sub.add_parser("doctor", help="which video and audio drivers and which GPIO pin factory this box has")
    p.add_argument("--quick", action="store_true", help="do not try to open each driver")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("menu", help="the start menu (what the kiosk runs): choose a game, players, options, start")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--headless", action="store_true", help="draw the menu once (with --screenshot) and exit")
    p.add_argument("--screenshot", metavar="FILE")
    p.add_argument("--journal-dir", default=os.path.expanduser(DEFAULT_JOURNAL_DIR),
                   help="where each game with real players is journaled (default: %(default)s)")
    p.add_argument("--fresh", action="store_true",
                   help="do not resume the newest journaled game even if it was cut off mid-game")
    p.add_argument("--web", type=int, nargs="?", const=DEFAULT_PORT, default=None, metavar="PORT",
                   help=f"serve the companion pages (phones, host remote, scoreboard) on the LAN, port PORT (default {DEFAULT_PORT})")
    add_screen_args(p)
    p.set_defaults(func=cmd_menu)


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
    add_journal_commands(sub)

    p = sub.add_parser("simulate", help="a whole game with bots, no waiting, deterministic for a seed")
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the outcome as JSON")
    p.add_argument("--journal", help=f"write the session journal to this file (must not exist); {DURABILITY_SIMULATE}")
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
    p.add_argument("--until-damage", action="store_true",
                   help="show a damaged journal's outcome up to its first bad line (said on stderr and in the JSON)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("resume", help="continue a journaled game after a crash or power cut")
    p.add_argument("file")
    p.add_argument("--json", action="store_true")
    p.add_argument("--seconds", type=float, help="play at most this much more box time")
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("play", help="play with real stations wired as a profile says")
    p.add_argument("game", help=f"one of: {games}")
    p.add_argument("--profile", required=True, help="wiring profile name (wiring/NAME.toml) or path")
    p.add_argument("--seed", type=int, default=None, help="default: a fresh one each game (the journal keeps it)")
    p.add_argument("--journal", help="journal file (default: journal-DATE-TIME.jsonl)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--seconds", type=float, help="stop after this long (a test run)")
    p.add_argument("--resume", metavar="JOURNAL", help="continue the game in this journal (after a crash or power cut)")
    add_screen_args(p, profile=False)
    p.add_argument("--headless", action="store_true", help="no window even where there is a screen")
    p.add_argument("--web", type=int, nargs="?", const=DEFAULT_PORT, default=None, metavar="PORT",
                   help=f"serve the companion pages (phones, host remote, scoreboard) on the LAN, port PORT (default {DEFAULT_PORT})")
    p.set_defaults(func=cmd_play)

    wiring = sub.add_parser("wiring", help="wiring profiles: check, draw, table, guided test").add_subparsers(dest="wiring_command", required=True, metavar="ACTION")
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
    except BuzzerBoxError as exc:  # said for a person: one line, no traceback
        raise SystemExit(f"buzzerbox {args.command}: {exc}") from None
    except BrokenPipeError:  # `buzzerbox ... | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
