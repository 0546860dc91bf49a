"""``buzzerbox play``: real stations (or, without ``--profile``, the
keyboard's keys as stations), the game's scene (or a headless screen),
lights, sound and a journal of every press in the box's data folder;
``--resume`` carries on a journaled game after a crash or power cut."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from controller.apps.common import UsageError, default_players, options_from, print_json, spec_named
from controller.box import profile as profile_mod
from controller.box import session
from controller.box.journal_format import JournalError
from controller.box.journal_writer import JournalWriter, unsaved_line
from controller.protocol import NOT_BEGUN, EndReason, NewGame
from controller.screen import live
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import Presenter
from controller.screen.screen import Screen
from controller.system import signals
from games.base import GameSettings, GameSpec
from games.i18n import _, ngettext
from games.toolkit.theme import Color

if TYPE_CHECKING:
    from controller.box.views import Snapshot
    from controller.web.process import PhonesProcess


def say_left_out(settings: GameSettings) -> None:
    """A pack with some bad rows is played without them: the host hears how
    many before the game starts (and how to list them)."""
    left_out = settings.options.get("pack_left_out")
    if isinstance(left_out, int) and left_out > 0:
        pack = settings.options.get("pack")
        print(ngettext("{pack}: {n} row has a problem and is left out; `buzzerbox pack check {pack}` lists it",
                       "{pack}: {n} rows have problems and are left out; `buzzerbox pack check {pack}` lists them",
                       left_out).format(pack=pack, n=left_out), file=sys.stderr)


def cmd_play(args: argparse.Namespace) -> int:
    spec = spec_named(args.game)
    prof = profile_mod.load(args.profile) if args.profile else None
    if prof is not None and args.players is not None and args.players != len(prof.stations):
        raise UsageError(_("--players is for keyboard stations: profile {name} has {n} stations; "
                           "leave --players out").format(name=prof.name, n=len(prof.stations)))
    players = len(prof.stations) if prof is not None else (args.players or default_players(spec))
    if spec.phones_needed(options_from(args.option)) and args.web is None and not args.resume:
        raise UsageError(_("{title} keeps each player's hand on their phone: add --web so the phones can "
                           "join (the screen shows a QR code per seat)").format(title=spec.title))
    headless = live.is_headless(args)
    names, colors = live.names_colors(prof, players, session.saved_names(prof))  # as entered in the menu
    keyboard = None if headless else KeyboardSource(players, sends_watermarks=prof is None,
                                                    keys=prof.keys if prof is not None else None)
    if not args.resume:
        seed = args.seed if args.seed is not None else session.new_seed()
        try:
            settings = session.game_settings(spec, players, seed, options_from(args.option), prof)
        except (TypeError, ValueError) as exc:
            raise UsageError(str(exc)) from exc
        say_left_out(settings)
    # held: a signal meanwhile is acted on once the screen is open. This process opens no input and
    # writes no journal: the deciding process does both, and runs the roll call on its inputs
    with signals.held():
        if args.resume:
            # after a power cut, or ended by the host (Esc) before its end: it carries on where it stopped
            journaled = session.resumable(args.resume, prof, spec.name, carry_on=True)  # read only
            path = Path(args.resume)
            settings, new = journaled.settings, None
            first_pages: Callable[[], Snapshot] = lambda: journaled.pages  # noqa: E731
        else:
            path = Path(args.journal) if args.journal else session.new_journal_path(session.journal_dir(), spec.name)
            # a journal that cannot be written is said before any hardware is touched
            JournalWriter.check_new(path)
            new = session.new_game(spec, settings, names)  # the deciding process journals it, its header built there
            first_pages = lambda: session.starting_pages(spec, settings, names)  # noqa: E731
        screen = live.open_screen(args, headless)
    roll_call = prof is not None and not (headless or args.resume or args.no_roll_call)
    return play_split(args, spec, settings, new, first_pages, path, screen, keyboard, headless, players, names,
                      colors, roll_call)


def play_split(args: argparse.Namespace, spec: GameSpec, settings: GameSettings, new: NewGame | None,
               first_pages: Callable[[], Snapshot], path: Path, screen: Screen, keyboard: KeyboardSource | None,
               headless: bool, players: int, names: list[str] | None, colors: list[Color] | None,
               roll_call: bool) -> int:
    """The game decided in a process of its own (docs/processes.md): it opens
    the inputs and lamps, runs the roll call and writes the journal (a new
    game's, ``new``, with the header it builds); this process draws what it sends, its phones'
    pages showing ``first_pages()`` until the first snapshot it sends."""
    from controller.peer import private_socket, remove_private
    from controller.screen.viewer import SplitGame, people_game, screen_args

    port = args.web
    # the phones' server is a peer of the deciding process on its viewer socket: a private one if none was asked
    private = private_socket() if port is not None and not args.viewer_socket else None
    viewer_socket = str(private) if private is not None else args.viewer_socket
    with signals.held(raise_after=False):  # a signal from here on is acted on once the deciding process runs
        prof = profile_mod.load(args.profile) if args.profile else None
        fps = 15 if headless else 60
        game = SplitGame(path, args.profile, spec, settings, not args.resume, args.seconds,
                         screen_args(spec.name, headless=headless, fullscreen=getattr(args, "fullscreen", None),
                                     fps=fps, players=players, colors=colors, volume=args.volume, mute=args.mute,
                                     keyboard=keyboard is not None, keys=prof.keys if prof is not None else None,
                                     keys_are_stations=keyboard is not None and keyboard.sends_watermarks),
                         viewer_socket, args.feed, web=port is not None, horizon=args.horizon,
                         new_game=new, carry_on=bool(args.resume), roll_call=roll_call,
                         packs=str(getattr(args, "packs_dir", None) or session.packs_dir()))
        presenter = live.presenter_for(spec, screen, sound=live.open_sound(args, headless, prof),
                                       colors=colors)

    def phones(_view: object, first: Snapshot) -> PhonesProcess:
        """The phones' server started (its line said) before the game is handed over: a peer of the
        deciding process (aiohttp's stack only when --web asks for it)."""
        from controller.web.process import PhonesProcess

        assert port is not None and viewer_socket is not None
        server = PhonesProcess.start(viewer_socket, port, spec, players, first, private=private is not None)
        print(server.line, file=sys.stderr)
        return server

    try:
        ended = people_game(
            game, presenter, keyboard, fps, first_pages=first_pages, phones=None if port is None else phones,
            announce=lambda inputs: announce(spec, prof, inputs, presenter, path, headless, players, names))
    finally:
        with signals.held(raise_after=False):
            screen.close()
            if private is not None:
                remove_private(private)
    if ended.reason == NOT_BEGUN:
        raise KeyboardInterrupt  # Esc in the roll call: no game, no journal
    if args.timings:
        write_timings(args.timings, "split", ended.timings(TIMINGS))
    reason, played = ended.reason, ended.played
    print(session.summary_line(played, reason), file=sys.stderr)
    for written in ended.ended.results:  # written by the deciding process at the close
        print(_("results: {path}").format(path=written), file=sys.stderr)
    if args.json:
        print_json(played.summary, list(played.names))
    if ended.ended.unsaved:  # records the card refused: not the normal end, whatever stopped the game
        raise JournalError(f"{path}: " + unsaved_line(ended.ended.unsaved, ended.ended.unsaved_path))
    if reason == EndReason.STOPPED:
        raise KeyboardInterrupt
    return 0


#: what ``--timings`` writes: [decided, lamp lit] per decision (game µs), where
#: each decision's time went, frame times, [decided, first frame flipped after], the measured report delay
TIMINGS = ("decisions", "decision_detail", "frame_us", "shown", "late_deliveries", "worst_delivery_us",
           "offset_us", "stated_delay_us")


def write_timings(path: str, design: str, timings: dict[str, object]) -> None:
    """The benchmark's figures of one game (``--timings``)."""
    Path(path).write_text(json.dumps({"design": design, **timings}), encoding="utf-8")


def announce(spec: GameSpec, prof: profile_mod.Profile | None, inputs: str, presenter: Presenter, path: Path,
             headless: bool, players: int, names: list[str] | None) -> None:
    """The keys on screen (keyboard stations) and the one start line: what
    plays on what (``inputs``: what the deciding process opened), where the journal is."""
    if prof is None and not headless:
        live.show_keys(presenter, players)
    where = (_("{profile}: {inputs}").format(profile=prof.name, inputs=inputs)
             if prof is not None and inputs else live.keyboard_keys_line(players))
    print(_("{title} on {where}; journal {path}; {screen}; Ctrl+C or Esc to stop").format(
        title=_(spec.title), where=where, path=path,
        screen=_("headless") if headless else _("on screen")), file=sys.stderr)
