"""``buzzerbox demo``: simulated players play a game on the screen, or
headless in virtual time with a summary (and a screenshot when asked)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections import Counter
from typing import Any

from controller.apps.common import UsageError, default_players, print_json, with_suggestion
from controller.box import profile as profile_mod
from controller.box import session as box_session
from controller.box.runtime import Box, event_words
from controller.box.simulate import Session
from controller.screen import live
from controller.screen.keyboard import KeyboardSource
from games.i18n import _, format_number, ngettext
from games.registry import available, get
from games.scenes import scene_for

log = logging.getLogger("buzzerbox")


def cmd_demo(args: argparse.Namespace) -> int:
    from controller.screen.loop import snapshot

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
    names, colors = live.names_colors(profile, args.players)
    box = Box(spec, settings, station_names=names)
    board = BoardSimLink(box, settings.players, spec.inputs) if args.board_sim else None
    try:
        session = Session(box, spec.new_bots(settings), spec.new_host(settings), args.seed)
        lights = box_session.open_lights(profile)
        if board is not None:
            session.edge_sink, session.lookahead_us = board.edge_sink, 5_000_000
            lights = board.source.lights()
        screen = live.open_screen(args, headless)
        presenter = live.presenter_for(box.spec, screen, lights=lights, sound=live.open_sound(args, headless, profile), colors=colors)
        seconds = args.seconds if args.seconds is not None else (60.0 if headless else None)
        started_us = box.now_us
        virtual = headless and board is None
        game = live.LiveGame(box, presenter, session=session)
        if not virtual:  # the last line before the game runs (tests wait for it before they signal)
            print(_("{title}: a real-time demo; Ctrl+C or Esc to stop").format(title=_(spec.title)), file=sys.stderr)
        result = game.run(realtime=not virtual, seconds=seconds,
                          keyboard=None if headless else KeyboardSource(args.players),
                          # the board stamps on the real box clock: the session's game time must follow it
                          to_game_us=box.time_offset_us if board is not None else None)
    finally:
        if board is not None:
            board.close()
    now_us = result.now_us if result is not None else box.now_us
    if args.screenshot:
        snapshot(presenter, box, now_us, args.screenshot)
    screen.close()
    if result is None:  # Ctrl+C: the game was closed; the command line says "stopped"
        raise KeyboardInterrupt
    session.say_if_waiting_for_a_host("demo")
    summary = box.summary()
    if args.json:
        print_json(summary, box.station_names)
        return 0
    kinds = Counter(e.kind for e in result.events)
    how = _("virtual, headless") if virtual else _("real time")
    if board is not None:
        how += _(", through the simulated input board")
    print(_("{title}: {players}, seed {seed}, {seconds} s of box time ({how}), {reason}").format(
        title=_(spec.title), players=ngettext("{n} player", "{n} players", args.players).format(n=args.players), seed=args.seed,
        seconds=format_number((result.now_us - started_us) / 1e6, 1), how=how, reason=box_session.how_it_ended(result.reason)))
    if headless:
        print_demo_log(box)
    log.debug("events: %s", ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(box_session.scores_line(box.station_names, summary))
    if args.screenshot:
        print(_("screenshot: {path} (1920x1080)").format(path=args.screenshot))
    elif headless:
        print(_("(--screenshot FILE.png saves the last frame; --json prints the whole summary)"))
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


class BoardSimLink:
    """A simulated input board between the simulated players and the box."""

    def __init__(self, box: Box, players: int, inputs: tuple[str, ...], realtime: bool = True) -> None:
        """``realtime=False``: the board on its virtual clock (tests move it), the box on the same."""
        from controller.box.sources.board_sim import start_simulated_board
        from firmware.buzzer import pinmap

        free = sorted(pinmap.DIRECT) + list(range(32, 32 + 8 * pinmap.SR_CHIPS))  # see board-pinmap.toml
        wanted = [(station, name) for station in range(players) for name in inputs]
        if len(wanted) > len(free):
            raise UsageError(f"--board-sim: {len(wanted)} inputs, but the board reads {len(free)}")
        self.channels = dict(zip(wanted, free, strict=False))
        channel_map = {ch: key for key, ch in self.channels.items()}
        light_map = {(station, "bell"): station for station in range(players)}
        self.sim, self.source = start_simulated_board(channel_map, light_map, realtime=realtime)
        box.latency_guard_us = self.source.report_delay_us(box.debouncer.config)
        # the board stamps on the box clock (the real one, or the simulator's); the game's timeline starts now, at 0
        box.time_offset_us = -self.source.clock()
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
