"""``buzzerbox play``: real stations (or, without ``--profile``, the
keyboard's keys as stations), the game's scene (or a headless screen),
lights, sound and a journal of every press in the box's data folder;
``--resume`` carries on a journaled game after a crash or power cut."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from controller import signals
from controller.apps.common import UsageError, default_players, options_from, print_json, spec_named
from controller.apps.results import write_beside
from controller.box import journal as journal_mod
from controller.box import profile as profile_mod
from controller.box import session
from controller.box.journal_format import JournalError
from controller.box.journal_writer import unsaved_line
from controller.box.runtime import Box, box_from_journal
from controller.box.sources.base import Source
from controller.screen import live
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import Presenter
from controller.screen.screen import Screen
from games.base import GameSettings
from games.i18n import _, ngettext
from games.toolkit.theme import Color


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
    # the journal first: a journal that cannot be used is said before any hardware is touched
    created: Path | None = None
    if not args.resume:
        seed = args.seed if args.seed is not None else session.new_seed()
        try:
            settings = session.game_settings(spec, players, seed, options_from(args.option), prof)
        except (TypeError, ValueError) as exc:
            raise UsageError(str(exc)) from exc
        say_left_out(settings)
    relay = live.Relay()
    start = live.Start()
    box: Box | None = None
    source = None
    try:
        # held: a signal while the journal is made or the inputs open is acted on once they are (the
        # journal of a game that never began is then removed below)
        with signals.held():
            if args.resume:
                # after a power cut, or ended by the host (Esc) before its end: it carries on where it stopped
                box, _journal = session.resumed_box(args.resume, prof, spec.name, carry_on=True)
                path = Path(args.resume)
            else:
                path = Path(args.journal) if args.journal else session.new_journal_path(session.journal_dir(), spec.name)
                box = session.new_box(spec, settings, prof, path, station_names=names)
                created = path
            # split: the deciding process takes the feed (this process only opens the inputs for the roll call)
            feed = args.feed if args.one_process else None
            source = session.open_inputs(prof, relay, feed) if prof is not None else None
            screen = live.open_screen(args, headless)
        skip_roll_call = headless or args.resume or args.no_roll_call
        if (prof is not None and source is not None and not skip_roll_call
                and not live.roll_call(screen, prof, source, relay, keyboard)):
            screen.close()
            raise KeyboardInterrupt  # Esc in the roll call: no game, no journal
        if created is not None:
            session.restart_clock(box)  # the game's time starts now, after the roll call
        if not args.one_process:
            return play_split(args, box, path, start, source, screen, keyboard, headless, players, names, colors)
        box.horizon_policy = args.horizon
        with signals.held(raise_after=False):  # a signal from here on is acted on as the game runs: it closes it
            game = one_process_game(args, box, prof, relay, source, screen, headless, colors)
    except BaseException:
        if not start.handed_over:  # from then on the deciding process closes the game
            if source is not None:
                source.stop()
            if box is not None:
                session.abandon_start(box, created)  # a game that never started leaves no journal behind
        raise
    announce(box, prof, source, game.presenter, path, headless, players, names)
    result = game.run(realtime=True, seconds=args.seconds, fps=15 if headless else 60, keyboard=keyboard)
    if args.timings and result is not None:
        write_timings(args.timings, "one-process", {
            "decisions": [d[:2] for d in result.decisions], "decision_detail": result.decision_detail,
            "frame_us": result.frame_us, "shown": [[d[0], d[2]] for d in result.decisions if d[2] is not None],
            "late_deliveries": box.late_deliveries, "worst_delivery_us": box.worst_delivery_us,
            "offset_us": box.time_offset_us, "stated_delay_us": box.stated_delay_us})
    print(game.summary_line(result), file=sys.stderr)
    for written in write_beside(path):  # a quiz's record to take home (nothing for other games)
        print(_("results: {path}").format(path=written), file=sys.stderr)
    if args.json:
        print_json(box.summary(), box.station_names)
    if result is None:
        raise KeyboardInterrupt  # closed cleanly; the command line says "stopped", exit 130
    return 0


def play_split(args: argparse.Namespace, box: Box, path: Path, start: live.Start, source: Source | None,
               screen: Screen, keyboard: KeyboardSource | None, headless: bool, players: int,
               names: list[str] | None, colors: list[Color] | None) -> int:
    """The game decided in a process of its own (docs/processes.md): this
    process hands it the journal and the inputs, then draws its views."""
    from controller.screen.viewer import (
        DecidingLink,
        SplitGame,
        follow_board,
        run_split,
        screen_args,
    )

    with signals.held(raise_after=False):  # a signal from here on is acted on once the deciding process runs
        prof = profile_mod.load(args.profile) if args.profile else None
        if source is not None:
            source.stop()  # the deciding process opens the inputs itself (a GPIO line has one owner)
        if box.journal is not None:
            box.journal.close()  # ... and takes the journal over
        fps = 15 if headless else 60
        game = SplitGame(path, args.profile, box.spec, box.settings, not args.resume, args.seconds,
                         screen_args(box.spec.name, headless=headless, fullscreen=getattr(args, "fullscreen", None),
                                     fps=fps, players=players, colors=colors, volume=args.volume, mute=args.mute,
                                     keyboard=keyboard is not None, keys=prof.keys if prof is not None else None,
                                     keys_are_stations=keyboard is not None and keyboard.sends_watermarks),
                         args.viewer_socket, args.feed, start=start,
                         web=args.web is not None or bool(getattr(args, "board_hooks", ())), horizon=args.horizon)
        presenter = live.presenter_for(box, screen, lights=None, sound=live.open_sound(args, headless, prof),
                                       colors=colors)
        view = DecidingLink(box.spec, box.settings)
        try:  # the phones' server first: a port that is taken is said before the game is handed over
            phones = None if args.web is None else live.RelayedPhones.serving(presenter, args.web, box, view, prof)
        except BaseException:
            presenter.close()
            raise
        pages = follow_board(getattr(args, "board_hooks", ()), presenter, box, view, phones)
        announce(box, prof, source, presenter, path, headless, players, names)
    try:
        ended = run_split(game, presenter, keyboard, fps, pages, view)
    finally:
        with signals.held(raise_after=False):
            if phones is not None:
                phones.stop()  # the pages hear the game ended
            presenter.close()
            screen.close()
    if args.timings:
        write_timings(args.timings, "split", {key: ended.get(key) for key in TIMINGS})
    played = box_from_journal(journal_mod.read(path))  # the game of record: its journal
    reason = str(ended["reason"])
    print(session.summary_line(played, reason), file=sys.stderr)
    for written in write_beside(path):
        print(_("results: {path}").format(path=written), file=sys.stderr)
    if args.json:
        print_json(played.summary(), played.station_names)
    if ended.get("unsaved"):  # records the card refused: not the normal end, whatever stopped the game
        raise JournalError(f"{path}: " + unsaved_line(int(ended["unsaved"]), ended.get("unsaved_path")))
    if reason == "stopped":
        raise KeyboardInterrupt
    return 0


def one_process_game(args: argparse.Namespace, box: Box, prof: profile_mod.Profile | None, relay: live.Relay,
                     source: Source | None, screen: Screen, headless: bool, colors: list[Color] | None) -> live.LiveGame:
    """The older design (``--one-process``): the deciding thread beside the frames."""
    game = live.live_game(box, screen, source=source, profile=prof, relay=relay, lights=session.open_lights(prof, source),
                          sound=live.open_sound(args, headless, prof), colors=colors)
    hooks = getattr(args, "board_hooks", ())
    if hooks:  # a tournament's link follows the pages' public board (controller/league)
        from controller.box.views import watching

        publisher = watching(box)
        for hook in hooks:
            hook(publisher)
    live.start_companion(game, args.web, prof)
    return game


#: what ``--timings`` writes, in both designs: [decided, lamp lit] per decision (game µs), where
#: each decision's time went, frame times, [decided, first frame flipped after], the measured report delay
TIMINGS = ("decisions", "decision_detail", "frame_us", "shown", "late_deliveries", "worst_delivery_us",
           "offset_us", "stated_delay_us")


def write_timings(path: str, design: str, timings: dict[str, object]) -> None:
    """The benchmark's figures of one game (``--timings``)."""
    Path(path).write_text(json.dumps({"design": design, **timings}), encoding="utf-8")


def announce(box: Box, prof: profile_mod.Profile | None, source: Source | None, presenter: Presenter, path: Path,
             headless: bool, players: int, names: list[str] | None) -> None:
    """The keys on screen (keyboard stations) and the one start line: what plays on what, where the journal is."""
    if prof is None and not headless:
        live.show_keys(presenter, players)
    where = (_("{profile}: {inputs}").format(profile=prof.name, inputs=source.describe())
             if prof is not None and source is not None else live.keyboard_keys_line(players))
    print(_("{title} on {where}; journal {path}; {screen}; Ctrl+C or Esc to stop").format(
        title=_(box.spec.title), where=where, path=path,
        screen=_("headless") if headless else _("on screen")), file=sys.stderr)
