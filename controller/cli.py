"""``buzzerbox``: the box's command line. Only argument parsing lives here;
each command is an app in ``controller/apps``.

Every command ends the same way when something goes wrong: one line on
stderr, ``buzzerbox COMMAND: what went wrong: what to do``, and an exit
status a script can act on: 2 for a command line the box cannot act on, 1 for
a failure, 130 for Ctrl+C (after the game was closed cleanly). A traceback is
shown only with ``-vv``, for a bug report."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import Any, NoReturn

from controller.apps.bench import cmd_bench
from controller.apps.common import UsageError
from controller.apps.demo import cmd_demo
from controller.apps.diag import cmd_diag, cmd_doctor
from controller.apps.firmware_tools import add_firmware_commands
from controller.apps.journal import DURABILITY_SIMULATE, add_journal_commands
from controller.apps.kiosk import add_kiosk_commands
from controller.apps.menu import cmd_menu
from controller.apps.packs import add_pack_commands
from controller.apps.play import cmd_play
from controller.apps.records import cmd_replay, cmd_resume, cmd_scenario, cmd_simulate
from controller.apps.results import add_results_command
from controller.box import profile as profile_mod
from controller.box.runtime import HORIZON_POLICIES, HORIZON_WATERMARKS
from controller.box.session import journal_dir, packs_dir, quiet_gpio_fallbacks
from controller.league.commands import add_box_args, add_league_commands, in_league, in_league_menu
from controller.pack_store import MEDIA_ROOTS
from controller.system import signals, terminal
from controller.web import DEFAULT_PORT
from controller.wiring_pack.commands import add_commands as add_wiring_commands
from games import i18n, registry
from games.base import BuzzerBoxError
from games.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, early_language, set_language

EXIT_FAILURE, EXIT_USAGE, EXIT_INTERRUPTED = 1, 2, 130


#: argparse's own texts (the standard library's, in English), listed so the
#: catalogues carry them; ``speak_argparse`` has argparse look them up there
ARGPARSE_TEXTS = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("invalid %(type)s value: %(value)r"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("expected at most one argument"), N_("expected at least one argument"),
    N_("not allowed with argument %s"), N_("one of the arguments %s is required"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def speak_argparse() -> None:
    """argparse builds its texts with ``gettext`` from its module's globals:
    pointing them at the box's catalogue makes "usage:", "the following
    arguments are required" and the rest speak the box's language."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


class Parser(argparse.ArgumentParser):
    """argparse, but a command line it cannot read is one line too:
    ``buzzerbox demo: argument --players: invalid int value: 'x' (see buzzerbox demo --help)``, exit 2."""

    def error(self, message: str) -> NoReturn:
        print(_("{prog}: {message} (see {prog} --help)").format(prog=self.prog, message=message), file=sys.stderr)
        raise CommandFailed(f"{self.prog}: {message}", EXIT_USAGE)

    def error_for(self, args: argparse.Namespace, message: str) -> NoReturn:
        prog = f"{self.prog} {command_name(args)}"
        print(_("{prog}: {message} (see {prog} --help)").format(prog=prog, message=message), file=sys.stderr)
        raise CommandFailed(f"{prog}: {message}", EXIT_USAGE)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a number").format(text=text)) from None
    if value != value or value in (float("inf"), float("-inf")):
        raise argparse.ArgumentTypeError(_("{text!r} is not a number").format(text=text))
    return value


def seconds(text: str) -> float:
    """``--seconds``: a time to play or wait, more than nothing."""
    value = _number(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(_("{text} seconds is no time to play; give more than 0").format(text=text))
    return value


def players(text: str) -> int:
    """``--players``: a count of stations, one or more (0 used to play with 4 without a word)."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text} is not a number of players: give one like 4").format(text=text)) from None
    if count < 1:
        raise argparse.ArgumentTypeError(_("{text} players cannot play: give 1 or more (4 when left out)").format(text=text))
    return count


def volume(text: str) -> float:
    """``--volume``: from silent (0) to full (1)."""
    value = _number(text)
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(_("volume {text} is outside 0 to 1; 0.8 is the default, "
                                           "--mute is silence").format(text=text))
    return value


def add_screen_args(p: argparse.ArgumentParser, profile: bool = True) -> None:
    if profile:
        p.add_argument("--profile", help=_("wiring profile: station names, colours and the lights' pins "
                                           "(a name from wiring/ or a path to a .toml file)"))
    g = p.add_mutually_exclusive_group()
    g.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None,
                   help=_("fill the screen (the default where no desktop runs)"))
    g.add_argument("--window", dest="fullscreen", action="store_false",
                   help=_("play in a window (the default on a desktop)"))
    p.add_argument("--volume", type=volume, default=0.8, help=_("sound volume from 0 to 1 (default %(default)s)"))
    p.add_argument("--mute", action="store_true", help=_("no sound"))


def add_seed_arg(p: argparse.ArgumentParser, default: int | None, what: str) -> None:
    p.add_argument("--seed", type=int, default=default, help=what)


def add_option_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help=_("a game option, e.g. --option questions=10 for the quiz (repeatable; the menu lists each game's options)"))


def add_display_commands(sub: argparse._SubParsersAction) -> None:
    """demo (on the screen, or headless with a screenshot), diag, doctor, menu."""
    games = ", ".join(registry.available())
    p = sub.add_parser(
        "demo", help=_("watch a game played by simulated players (a window, or headless with --headless)"),
        description=_("Simulated players play GAME on the screen. Where there is no display (or with "
                      "--headless) it plays SECONDS of box time as fast as it can and prints a summary."),
    )
    p.add_argument("game", nargs="?", default=None,
                   help=_("one of: {games} (default: the first)").format(games=games))
    p.add_argument("--players", type=players, default=None, help=_("how many simulated players (default 4, or the game's limit)"))
    add_seed_arg(p, 1, _("the same seed plays the same game (default %(default)s)"))
    p.add_argument("--headless", action="store_true", help=_("no window: virtual time, print a summary"))
    p.add_argument("--seconds", type=seconds, default=None, help=_("box time to play (headless default: 60)"))
    p.add_argument("--screenshot", metavar="FILE", help=_("save the last frame as a 1920x1080 PNG"))
    p.add_argument("--json", action="store_true", help=_("headless: print the game's summary as JSON"))
    p.add_argument("--journal", metavar="FILE", default=None,
                   help=_("in real time: the game's journal (default: a new file in the box's journals folder)"))
    p.add_argument("--board-sim", action="store_true",
                   help=_("players' switches go through the firmware board's own logic, a pseudo-terminal and the "
                          "board driver (real time)"))
    add_screen_args(p)
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("diag", help=_("every input of every station, live: presses, bounce, stuck, noise"))
    p.add_argument("--players", type=players, default=4, help=_("keyboard stations when no --profile is given (default %(default)s)"))
    p.add_argument("--simulate", action="store_true",
                   help=_("made-up presses (and one noisy input) to see what the screen shows; labelled as simulated"))
    p.add_argument("--headless", action="store_true", help=_("no window (with --seconds and --screenshot)"))
    p.add_argument("--seconds", type=seconds, default=None, help=_("stop after this long (headless default: 20)"))
    p.add_argument("--screenshot", metavar="FILE", help=_("save the last frame as a PNG"))
    p.add_argument("--feed", default=None, metavar="FIFO",
                   help=_("with --profile: its GPIO pins are mock pins driven by the synthetic edges in this FIFO "
                          "(a test's)"))
    add_screen_args(p)
    p.set_defaults(func=cmd_diag)

    p = sub.add_parser("doctor", help=_("which video and audio drivers and which GPIO pin factory this box has"))
    p.add_argument("--quick", action="store_true", help=_("do not try to open each driver"))
    p.add_argument("--profile", help=_("also list each station's own sound in this wiring profile (and a WAV that "
                                       "will not play)"))
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("menu", help=_("the start menu (what the kiosk runs): choose a game, players, options, start"))
    p.add_argument("--players", type=players, default=4, help=_("keyboard stations when no --profile is given (default %(default)s)"))
    p.add_argument("--headless", action="store_true", help=_("draw the menu once (with --screenshot) and exit"))
    p.add_argument("--screenshot", metavar="FILE", help=_("with --headless: save the menu as a PNG"))
    p.add_argument("--journal-dir", default=str(journal_dir()),
                   help=_("where each game with real players is journaled (default: %(default)s)"))
    p.add_argument("--fresh", action="store_true",
                   help=_("do not resume the newest journaled game even if it was cut off mid-game"))
    p.add_argument("--packs-dir", default=str(packs_dir()),
                   help=_("the host's question packs, offered first in the quiz's pack row (default: %(default)s)"))
    p.add_argument("--media-root", action="append", default=None, metavar="DIR",
                   help=_("where USB sticks are mounted, looked at for packs and copied results to (repeatable; "
                          "default: {roots})").format(roots=", ".join(MEDIA_ROOTS)))
    p.add_argument("--web", type=int, nargs="?", const=DEFAULT_PORT, default=None, metavar="PORT",
                   help=_("serve the companion pages (phones, host remote, scoreboard) on the LAN, port PORT "
                          "(default {port})").format(port=DEFAULT_PORT))
    p.add_argument("--first-run", action="store_true",
                   help=_("walk through setting the box up again (language, wiring, names, a test press, phones) "
                          "before the menu; shown by itself only at the box's first start"))
    add_screen_args(p)
    add_process_args(p)
    add_box_args(p)
    p.set_defaults(func=in_league_menu(cmd_menu))


def language_code(text: str) -> str:
    """``--lang``'s value: a shipped language, else one line naming them all."""
    if text in LANGUAGES:
        return text
    shipped = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
    raise argparse.ArgumentTypeError(_("{code!r} is not a language the box speaks; use one of: {shipped}").format(
        code=text, shipped=shipped))


def add_language_arg(p: argparse.ArgumentParser, default: Any) -> None:
    p.add_argument("--lang", type=language_code, default=default, metavar="{" + ",".join(LANGUAGES) + "}",
                   help=_("the screens' language (default: the wiring profile's, else en)"))


def _everywhere(sub: argparse._SubParsersAction) -> None:
    """``--lang`` after the command too (``demo quiz --lang cs``): every
    subcommand takes it, and leaves the top-level value alone when not given."""
    for command in set(sub.choices.values()):
        add_language_arg(command, default=argparse.SUPPRESS)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                _everywhere(action)


def build_parser() -> Parser:
    parser = Parser(
        prog="buzzerbox",
        description=_("The buzzer box: fair first-press arbitration for quizzes and tabletop reaction games."),
        epilog=_("Every command has --help. Errors end with one line and exit status 2 (usage), "
                 "1 (failure) or 130 (Ctrl+C)."),
    )
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help=_("log more (-vv for debug, and a traceback for a bug report)"))
    add_language_arg(parser, default=None)
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}",
                        help=_("show program's version number and exit"))  # argparse words it at import
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    games = ", ".join(registry.available())

    # demo (on the screen, or headless with a screenshot), diag, doctor, menu
    add_display_commands(sub)
    add_firmware_commands(sub)
    add_journal_commands(sub)
    add_pack_commands(sub)
    add_results_command(sub)
    add_kiosk_commands(sub)
    add_league_commands(sub)

    p = sub.add_parser("simulate", help=_("a whole game with bots, no waiting, deterministic for a seed"))
    p.add_argument("game", help=_("one of: {games}").format(games=games))
    p.add_argument("--players", type=players, required=True, help=_("how many simulated players"))
    add_seed_arg(p, 0, _("the same seed plays the same game (default %(default)s)"))
    p.add_argument("--json", action="store_true", help=_("print the outcome as JSON"))
    p.add_argument("--journal", help=_("write the session journal to this file (must not exist); {durability}")
                   .format(durability=_(DURABILITY_SIMULATE)))
    p.add_argument("--pack", metavar="FILE",
                   help=_("quiz: ask the questions of this pack (CSV, JSON, .xlsx or .ods; checked first, kept in the journal)"))
    add_option_arg(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("scenario", help=_("run a JSON scenario file and print its outcome"))
    p.add_argument("file", help=_("a scenario file (.json)"))
    p.add_argument("--json", action="store_true", help=_("print the outcome as JSON"))
    p.add_argument("--events", action="store_true", help=_("include every event in the JSON"))
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("replay", help=_("rebuild a game's final state from its journal"))
    p.add_argument("file", help=_("a journal file (.jsonl)"))
    p.add_argument("--json", action="store_true", help=_("print the final state as JSON"))
    p.add_argument("--disputes", action="store_true", help=_("list every press with its stamp and precision"))
    p.add_argument("--until-damage", action="store_true",
                   help=_("show a damaged journal's outcome up to its first bad line (said on stderr and in the JSON)"))
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("resume", help=_("continue a journaled simulated game after a crash or power cut"))
    p.add_argument("file", help=_("the journal of a simulated game (.jsonl)"))
    p.add_argument("--json", action="store_true", help=_("print the final state as JSON"))
    p.add_argument("--seconds", type=seconds, help=_("play at most this much more box time"))
    p.set_defaults(func=cmd_resume)

    p = sub.add_parser("play", help=_("play with real stations wired as a profile says (or keyboard stations)"),
                       description=_("Play GAME with the stations of a wiring profile. Without --profile the "
                                     "keyboard's keys are the stations (shown on screen): try the box on a laptop."))
    p.add_argument("game", nargs="?", help=_("one of: {games} (with --league: the match's)").format(games=games))
    p.add_argument("--profile", default=None,
                   help=_("wiring profile name (wiring/NAME.toml) or path; without it: keyboard stations"))
    p.add_argument("--players", type=players, default=None,
                   help=_("keyboard stations when no --profile is given (default: 4, or the game's limit)"))
    add_seed_arg(p, None, _("default: a fresh one each game (the journal keeps it)"))
    p.add_argument("--journal", help=_("journal file (default: a new file in {folder})").format(folder=journal_dir()))
    add_option_arg(p)
    p.add_argument("--seconds", type=seconds, help=_("stop after this long (a test run)"))
    p.add_argument("--resume", metavar="JOURNAL", help=_("continue the game in this journal (after a crash or power cut)"))
    p.add_argument("--no-roll-call", action="store_true",
                   help=_("start at once, without every station pressing once first"))
    add_screen_args(p, profile=False)
    p.add_argument("--headless", action="store_true", help=_("no window even where there is a screen"))
    p.add_argument("--web", type=int, nargs="?", const=DEFAULT_PORT, default=None, metavar="PORT",
                   help=_("serve the companion pages (phones, host remote, scoreboard) on the LAN, port PORT "
                          "(default {port})").format(port=DEFAULT_PORT))
    p.add_argument("--json", action="store_true", help=_("at the end, print the game's summary as JSON"))
    add_process_args(p)
    add_box_args(p)
    p.set_defaults(func=in_league(cmd_play))

    p = sub.add_parser("bench", help=_("the acceptance check: the box's decision timing on this machine"),
                       description=_("Measure the box's overhead (lamp - confirmation) against this machine's "
                                     "floor through play's own path (synthetic edges from a feeder process, or a "
                                     "loopback jig with --jig): wiring/README.md, \"The acceptance check\"."))
    p.add_argument("--profile", default="header-4", help=_("wiring profile (default %(default)s)"))
    p.add_argument("--contests", type=int, default=100, help=_("how many contests (default %(default)s, ~1 min)"))
    p.add_argument("--seed", type=int, default=1, help=_("the contests' gaps and order (default %(default)s)"))
    p.add_argument("--jig", type=int, default=None, metavar="PIN",
                   help=_("the GPIO output of a loopback jig wired to the first two stations' bells"))
    p.set_defaults(func=cmd_bench)

    wiring = sub.add_parser("wiring", help=_("wiring profiles: check, draw, table, guided test")).add_subparsers(
        dest="wiring_command", required=True, metavar="ACTION")
    add_wiring_commands(wiring)
    _everywhere(sub)
    return parser


class OneProcessGone(argparse.Action):
    """``--one-process`` (the older design) is no more: said in one line, exit 2."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        parser.error(_("--one-process is no more: every game with people is decided in a process of its own "
                       "(docs/processes.md); leave it out"))


def socket_path(text: str) -> str:
    """``--viewer-socket``'s value: a path a Unix socket can be bound at, else one line (the
    deciding process died binding it, with a traceback, after the game's start line)."""
    from controller.peer import SOCKET_PATH_MAX

    size = len(os.fsencode(text))
    if size > SOCKET_PATH_MAX:
        raise argparse.ArgumentTypeError(_("{path} is too long for a socket ({size} bytes, at most {most}); "
                                           "give a shorter path").format(path=text, size=size, most=SOCKET_PATH_MAX))
    return text


def add_process_args(p: argparse.ArgumentParser) -> None:
    """The deciding process's switches (the box decides in a process of its own: docs/processes.md)."""
    p.add_argument("--one-process", nargs=0, action=OneProcessGone, help=argparse.SUPPRESS)
    p.add_argument("--viewer-socket", default=None, metavar="PATH", type=socket_path,
                   help=_("also publish the game's views on this Unix socket (another screen, buzzerbox bench)"))
    p.add_argument("--feed", default=None, metavar="FIFO",
                   help=_("synthetic edges from this FIFO on mock GPIO pins (buzzerbox bench, benchmarks/realtime.py)"))
    # how the box knows every input is in: the sources' watermarks, or (the benchmark's comparison) the
    # old fixed delay raised by late edges
    p.add_argument("--horizon", choices=HORIZON_POLICIES, default=HORIZON_WATERMARKS, help=argparse.SUPPRESS)
    p.add_argument("--timings", default=None, metavar="PATH",
                   help=_("when the game ends, write its decisions' and frames' timings here as JSON (the benchmarks)"))


def version() -> str:
    try:
        return metadata.version("buzzerbox")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "(not installed)"


def command_name(args: argparse.Namespace) -> str:
    """``wiring test``, ``firmware sim``, ``play``: the prefix of every error line."""
    parts = [args.command]
    for attr in ("wiring_command", "firmware_command", "journal_command", "pack_command", "league_command",
                 "kiosk_command"):
        if getattr(args, attr, None):
            parts.append(getattr(args, attr))
    return " ".join(parts)


class CommandFailed(SystemExit):
    """How a command ends when it cannot do its job: the one line is already
    on stderr; ``code`` is the exit status (2 usage, 1 failure, 130 Ctrl+C)
    and ``str()`` the line without its prefix, for tests and callers."""

    def __init__(self, line: str, status: int) -> None:
        super().__init__(status)
        self.line = line

    def __str__(self) -> str:
        return self.line


def fail(command: str, message: str, status: int) -> CommandFailed:
    line = f"buzzerbox {command}: {message}"
    print(line, file=sys.stderr)
    return CommandFailed(line, status)


def stopped(command: str) -> CommandFailed:
    """The one line (and exit status) of a command a signal or Ctrl+C stopped,
    after its game was closed, as ``signals.EXIT_STATUS`` says (SIGTERM, a
    stop asked for, exits 0 without it)."""
    signum = signals.received()
    if signum == signal.SIGHUP:
        return fail(command, _("stopped (SIGHUP: the terminal went away)"), signals.EXIT_STATUS[signum])
    if signum == signal.SIGQUIT:
        return fail(command, _("stopped (SIGQUIT)"), signals.EXIT_STATUS[signum])
    return fail(command, _("stopped (Ctrl+C)"), EXIT_INTERRUPTED)


def main(argv: Sequence[str] | None = None) -> int:
    asked = early_language(sys.argv[1:] if argv is None else list(argv))
    if asked:  # before the parser is built, so its help speaks the language too
        set_language(asked)
    speak_argparse()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said for the command they were given to, not for "buzzerbox"
        parser.error_for(args, _("unrecognized arguments: {args}").format(args=" ".join(extra)))
    # a box run as a service says what happened (journald keeps it: systemd sets
    # JOURNAL_STREAM); at a terminal only problems are said unless -v asks for more
    base = 1 if args.command in ("play", "menu", "diag") and os.environ.get("JOURNAL_STREAM") else 0
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose + base, 2)]
    logging.basicConfig(level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    quiet_gpio_fallbacks(args.verbose)
    command = terminal.command = command_name(args)
    with signals.handled():  # a stopping signal at any moment ends in the same close (nested: run's)
        return run_command(args, command)


def run_command(args: argparse.Namespace, command: str) -> int:
    """The command, its failures said in one line with their exit status."""
    try:
        set_language(profile_mod.start_language(args.lang, None if args.command == "wiring" else getattr(args, "profile", None)))
        return int(args.func(args) or 0)
    except SystemExit as exc:  # a command that said its own one line (wiring, firmware)
        if isinstance(exc.code, str):
            raise fail(command, exc.code.removeprefix(f"buzzerbox {command}: "), EXIT_FAILURE) from None
        raise
    except UsageError as exc:  # a command line the box cannot act on
        raise fail(command, str(exc), EXIT_USAGE) from None
    except BuzzerBoxError as exc:  # said for a person: one line, no traceback
        raise fail(command, str(exc), EXIT_FAILURE) from None
    except KeyboardInterrupt:  # the apps close their games first; this is the one line after
        if signals.received() == signal.SIGTERM:  # systemd stopping the kiosk asked for it; the summary said so
            return 0
        raise stopped(command) from None
    except BrokenPipeError:  # `buzzerbox ... | head`: the reader left, nothing is wrong
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except EOFError:
        raise fail(command, _("the input ended (stdin closed): run it in a terminal to answer its questions"),
                   EXIT_FAILURE) from None
    except OSError as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        raise fail(command, _("{problem}{where}: check the path and its permissions").format(
            problem=exc.strerror or exc, where=where), EXIT_FAILURE) from None
    except Exception as exc:
        if args.verbose >= 2:
            raise
        raise fail(command, _("unexpected {kind}: {exc}; this is a bug: run it again with -vv and report what it "
                              "prints").format(kind=type(exc).__name__, exc=exc), EXIT_FAILURE) from None


if __name__ == "__main__":
    sys.exit(main())
