"""``buzzerbox demo``: simulated players play a game on the screen, a live
game decided in the deciding process as ``play``'s (their presses an input
source there: ``controller/box/bots.py``), or headless in virtual
time in this process with a summary (and a screenshot when asked)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter
from pathlib import Path

from controller.apps.common import UsageError, default_players, print_json, with_suggestion
from controller.box import profile as profile_mod
from controller.box import session as box_session
from controller.box.journal_writer import JournalWriter
from controller.box.runtime import Box, event_words
from controller.box.simulate import Session
from controller.protocol import NOT_BEGUN, Bots, EndReason
from controller.screen import live
from controller.screen.keyboard import KeyboardSource
from controller.system import signals
from games.base import GameSettings, GameSpec
from games.i18n import _, format_number, ngettext
from games.registry import available, get
from games.scenes import scene_for

log = logging.getLogger("buzzerbox")


def cmd_demo(args: argparse.Namespace) -> int:
    if args.game is None:
        args.game = available()[0]
    try:
        spec = get(args.game)
        if args.players is None:
            args.players = default_players(spec)
        settings = spec.settings(args.players, args.seed, **spec.demo_options)
    except LookupError as exc:
        raise UsageError(with_suggestion(str(exc).strip("'\""), args.game, available())) from exc
    except (TypeError, ValueError) as exc:
        raise UsageError(str(exc).strip("'\"")) from exc
    headless = live.is_headless(args)
    if headless and not args.headless and not live.driver_chosen():  # issue 33: it went headless without a word
        print(_("demo: {problem}; playing headless").format(problem=live.no_display_found()), file=sys.stderr)
    if not headless and not args.headless and not has_window(args):
        headless = True
    try:
        scene_for(args.game, None)
    except (LookupError, ImportError) as exc:
        if not headless or args.screenshot:
            print(_("demo: {title} cannot be shown yet ({exc}); playing it headless").format(title=_(spec.title), exc=exc),
                  file=sys.stderr)
        return demo_summary(args)
    profile = profile_mod.load(args.profile) if getattr(args, "profile", None) else None
    if not headless or args.board_sim:  # a live game: decided in the deciding process, as play's
        return live_demo(args, spec, settings, profile, headless)
    return virtual_demo(args, spec, settings, profile)


def virtual_demo(args: argparse.Namespace, spec: GameSpec, settings: GameSettings,
                 profile: profile_mod.Profile | None) -> int:
    """Headless: simulated players in virtual time, in this process (a simulation,
    not a live game: nothing is journaled, no lamp is lit), the frames drawn
    headless for the screenshot, and the summary."""
    from controller.screen.loop import run_virtual, snapshot

    names, colors = live.names_colors(profile, args.players)
    box = Box(spec, settings, station_names=names)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), args.seed)
    screen = live.open_screen(args, True)
    presenter = live.presenter_for(box.spec, screen, sound=live.open_sound(args, True, profile), colors=colors)
    seconds = args.seconds if args.seconds is not None else 60.0
    started_us = box.now_us
    until = box.now_us + int(seconds * 1_000_000)
    try:
        with box_session.stop_on_sigterm():
            result = run_virtual(session, presenter, until_us=until)
    finally:
        box.end(box.now_us)
    if args.screenshot:
        snapshot(presenter, box, result.now_us, args.screenshot)
    screen.close()
    session.say_if_waiting_for_a_host("demo")
    summary = box.summary()
    if args.json:
        print_json(summary, box.station_names)
        return 0
    kinds = Counter(e.kind for e in result.events)
    print(_("{title}: {players}, seed {seed}, {seconds} s of box time ({how}), {reason}").format(
        title=_(spec.title), players=ngettext("{n} player", "{n} players", args.players).format(n=args.players), seed=args.seed,
        seconds=format_number((result.now_us - started_us) / 1e6, 1), how=_("virtual, headless"),
        reason=box_session.how_it_ended(result.reason)))
    print_demo_log(box)
    log.debug("events: %s", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(box_session.scores_line(box.station_names, summary))
    if args.screenshot:
        print(_("screenshot: {path} (1920x1080)").format(path=args.screenshot))
    else:
        print(_("(--screenshot FILE.png saves the last frame; --json prints the whole summary)"))
    return 0


def live_demo(args: argparse.Namespace, spec: GameSpec, settings: GameSettings,
              profile: profile_mod.Profile | None, headless: bool) -> int:
    """In real time (a window, or ``--board-sim``): a live game started as
    ``play`` starts one (``viewer.people_game``), its simulated players an
    input source of the deciding process (``protocol.Bots``), which lights
    the profile's lamps (or the simulated board's) and journals every press;
    the keyboard's station keys count as the stations' as in ``play``."""
    from controller.screen.loop import snapshot_view
    from controller.screen.viewer import SplitGame, people_game, screen_args

    names, colors = live.names_colors(profile, args.players)
    path = Path(args.journal) if args.journal else box_session.new_journal_path(box_session.journal_dir(), spec.name)
    JournalWriter.check_new(path)  # a journal that cannot be written is said before anything starts
    new = box_session.new_game(spec, settings, names, mode=box_session.DEMO_MODE)  # journaled by the deciding process
    keyboard = None if headless else KeyboardSource(args.players, sends_watermarks=profile is None,
                                                    keys=profile.keys if profile is not None else None)
    seconds = args.seconds if args.seconds is not None else (60.0 if headless else None)
    fps = 15 if headless else 60
    with signals.held(raise_after=False):  # a signal from here on is acted on once the deciding process runs
        screen = live.open_screen(args, headless)
        game = SplitGame(path, profile.name if profile is not None else None, spec, settings, True, seconds,
                         screen_args(spec.name, headless=headless, fullscreen=getattr(args, "fullscreen", None),
                                     fps=fps, players=args.players, colors=colors, volume=args.volume,
                                     mute=args.mute, keyboard=keyboard is not None,
                                     keys=profile.keys if profile is not None else None,
                                     keys_are_stations=keyboard is not None and keyboard.sends_watermarks),
                         new_game=new, bots=Bots(board_sim=bool(args.board_sim)))
        presenter = live.presenter_for(spec, screen, sound=live.open_sound(args, headless, profile), colors=colors)

    def started(_inputs: str) -> None:  # the last line before the game runs (tests wait for it before they signal)
        if keyboard is not None and profile is None:
            live.show_keys(presenter, args.players)
        print(_("{title}: a real-time demo, journal {path}; Ctrl+C or Esc to stop").format(
            title=_(spec.title), path=path), file=sys.stderr)

    try:
        ended = people_game(game, presenter, keyboard, fps, first_pages=lambda: box_session.starting_pages(
            spec, settings, names), announce=started)
        if args.screenshot and ended.reason != NOT_BEGUN:
            snapshot_view(presenter, ended.last, spec, ended.last.t_us, args.screenshot)
    finally:
        with signals.held(raise_after=False):
            screen.close()
    if ended.reason in (EndReason.STOPPED, NOT_BEGUN):  # Ctrl+C: the game was closed; the command line says "stopped"
        raise KeyboardInterrupt
    played = ended.played
    if args.json:
        print_json(played.summary, list(played.names))
        return 0
    how = _("real time")
    if args.board_sim:
        how += _(", through the simulated input board")
    print(_("{title}: {players}, seed {seed}, {seconds} s of box time ({how}), {reason}").format(
        title=_(spec.title), players=ngettext("{n} player", "{n} players", args.players).format(n=args.players),
        seed=args.seed, seconds=format_number(ended.last.t_us / 1e6, 1), how=how,
        reason=box_session.how_it_ended(ended.reason)))
    print(box_session.scores_line(list(played.names), played.summary))
    if args.screenshot:
        print(_("screenshot: {path} (1920x1080)").format(path=args.screenshot))
    return 0


def has_window(args: argparse.Namespace) -> bool:
    """True when a window can be opened; else says so, once: the demo then
    plays headless instead of in real time into nothing."""
    try:
        live.open_screen(args, False).close()
    except live.NoDisplayError as exc:
        print(_("demo: {problem}; playing headless").format(problem=exc), file=sys.stderr)
        return False
    return True


def demo_summary(args: argparse.Namespace) -> int:
    """A game without a scene: played by simulated players, summarised in words."""
    spec = get(args.game)
    players = args.players or default_players(spec)
    settings = spec.settings(players, args.seed, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), args.seed)
    until = None if args.seconds is None else int(args.seconds * 1_000_000)
    session.run_virtual(until)
    session.say_if_waiting_for_a_host("demo")
    if args.json:
        print_json(box.summary(), box.station_names)
        return 0
    print(_("{title}: demo with {players} simulated players (seed {seed}), headless").format(
        title=_(spec.title), players=players, seed=args.seed))
    print_demo_log(box)
    print(box_session.scores_line(box.station_names, box.summary()))
    return 0


def print_demo_log(box: Box) -> None:
    """The demo's story in words: the events the game says are worth a log line."""
    for event in box.event_log:
        if box.spec.logs(event.kind):
            who = None if event.player is None else box.station_names[event.player]
            print(f"  {format_number(event.t_us / 1e6, 3):>8} s  {event_words(box.spec, event.kind, who)}")
