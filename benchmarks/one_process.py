"""The one-process design, kept as a baseline and a harness, never in the
product: the deciding thread beside the frame loop in one process, on a
live ``Box``. ``buzzerbox`` decides every game with people in a process of
its own (docs/processes.md); tests of the companion pages and the frame
loop's fairness, and ``benchmarks/storm.py``, run a live box here on one
thread of their own without a second process.

Everything the baseline needs beyond the product's pieces is here: the
deciding thread keeping its events for the frame thread and letting it wait
for a step (``OneProcessDecider``), the hooks around each frame (``framed``),
``LiveGame`` (a box and its presenter run beside this process's frames:
simulated players' for the pages' tests, people's as ``OneProcessGame``).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from controller.box.deciding import LIVE_WINDOW, Decider
from controller.box.runtime import Box
from controller.box.session import played_of, stop_on_sigterm, summary_line
from controller.box.simulate import Session
from controller.box.sources.base import Source
from controller.box.timeline import box_now_us
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import Pace, Presenter, RunResult, frame_run, frames_loop
from controller.system import signals
from games.base import GameEvent

log = logging.getLogger("buzzerbox")

#: how often the interpreter lets another thread run (default 5 ms): short,
#: so the deciding thread gets the GIL soon after a delivery wakes it even
#: while a frame is being drawn
LIVE_SWITCH_INTERVAL_S = 0.0002
#: the renderer's C calls (a full-screen fill, big rects and blits: 1-2 ms
#: each at 1080p) hold the GIL however short the switch interval, so a
#: decision due while a frame is drawn waits for them (measured: a thread
#: waking during the quiz's frame is late p90 3.5 ms, p99 7 ms, vs 0.1/1.7 ms
#: beside a sleeping loop). When a decision is due within the last frame's
#: drawing time, the frame thread first waits, at most this long, until the
#: deciding thread has stepped past it (0: never wait)
FRAME_YIELD_MAX_S = 0.012


class OneProcessDecider(Decider):
    """The deciding thread beside a frame loop: what it decided waits for the
    frame thread (``take``: sound, messages, ``show`` frames), which may wait
    for it to step past a moment before drawing (``wait_past``)."""

    def __init__(self, box: Box, now: Callable[[], int], light: Callable[[], int | None]) -> None:
        super().__init__(box, now, light, after=self._keep)
        self.events: list[GameEvent] = []
        #: box time of the last step, and a condition the frame thread waits on (``wait_past``)
        self.stepped_at = -(1 << 62)
        self._stepped = threading.Condition()

    def _keep(self, events: list[GameEvent], _t_us: int, _stirred: bool = True) -> None:
        if events:
            with self.box.lock:
                self.events.extend(events)

    def decide(self, woke: int, woke_late_us: int | None, delivered: bool = True) -> tuple[int, int | None]:
        stepped = super().decide(woke, woke_late_us, delivered)
        with self._stepped:
            self.stepped_at = stepped[0]
            self._stepped.notify_all()
        return stepped

    def wait_past(self, due_us: int, timeout_s: float) -> None:
        """Return once a step at or after ``due_us`` (box time) has run, or after
        ``timeout_s`` (the frame thread, before drawing: see ``FRAME_YIELD_MAX_S``)."""
        with self._stepped:
            self._stepped.wait_for(lambda: self.stepped_at >= due_us or self._stopping.is_set(), timeout_s)

    def take(self) -> list[GameEvent]:
        """The events decided since the last call (hold ``box.lock``)."""
        events, self.events = self.events, []
        return events

    def stop(self) -> None:
        self._stopping.set()
        with self._stepped:
            self._stepped.notify_all()
        super().stop()


@contextmanager
def framed(presenter: Presenter, now: Callable[[], int], before_draw: Callable[[int], None],
           after_flip: Callable[[int], None]) -> Iterator[None]:
    """Around every frame the loop draws (``show`` frames too), for the run:
    ``before_draw`` given the last frame's drawing time (µs), ``after_flip``
    given when it flipped (game µs, ``now``). The product's frame loop has no
    such hooks: the presenter's ``draw`` and its screen's ``flip`` are wrapped here."""
    draw, flip = presenter.draw, presenter.screen.flip
    drawing = [20_000, 0]  # the last frame's drawing time, when this one began

    def drawn(box: Box, now_us: int, surface: pygame.Surface | None = None) -> None:
        before_draw(drawing[0])
        drawing[1] = now()
        draw(box, now_us, surface)

    def flipped() -> int:
        shown = flip()
        shown_at = now()
        drawing[0] = shown_at - drawing[1]
        after_flip(shown_at)
        return shown

    presenter.draw = drawn  # type: ignore[method-assign]
    presenter.screen.flip = flipped  # type: ignore[method-assign]
    try:
        yield
    finally:
        del presenter.draw, presenter.screen.flip  # the classes' own again


def run_live(box: Box, presenter: Presenter, *, until_us: int | None = None, keyboard: KeyboardSource | None = None,
             clock: Callable[[], int] = box_now_us, fps: int = 60, results_s: float = 10.0,
             realtime: bool = True, to_game_us: int | None = None) -> RunResult:
    """A live box (its sources already started on it) decided on a thread
    beside this frame loop until it ends, ``until_us``, Esc or the window
    closes. ``realtime`` and ``to_game_us`` are there to match
    ``controller.screen.loop.run``'s call (a live box runs on the clock)."""
    if not realtime:
        raise ValueError("virtual time needs a Session (a live box runs on the clock)")
    frames = frame_run(box, presenter, keyboard, clock, box.time_offset_us, realtime=True, window=LIVE_WINDOW)
    decider = OneProcessDecider(box, frames.now, lambda: presenter.light(box))

    def advance(t_us: int) -> list[GameEvent]:
        if decider.error is not None:
            raise decider.error
        with box.lock:
            decided = decider.take()
        events = frames.answer_shows(decided, t_us)
        if events:
            presenter.react(box, events, t_us)
            frames.events.extend(events)
        return events

    def before_draw(drawing_us: int) -> None:
        if FRAME_YIELD_MAX_S > 0:
            with box.lock:
                due = box.next_decision_due_us()
            if due is not None and due - frames.now() < drawing_us + 1_000:
                decider.wait_past(due, FRAME_YIELD_MAX_S)  # the decision first, then the frame's long C calls

    def after_flip(shown_at: int) -> None:
        with box.lock:
            for decision in reversed(decider.decisions):
                if decision[2] is not None:
                    break
                decision[2] = shown_at

    switch = sys.getswitchinterval()
    try:
        sys.setswitchinterval(LIVE_SWITCH_INTERVAL_S)
        decider.start()
        with framed(presenter, frames.now, before_draw, after_flip):
            outcome = frames_loop(box, presenter, keyboard, frames.with_advance(advance),
                                  Pace(until_us, results_s, fps))
        with box.lock:  # what was decided since the last frame belongs to how the run went
            outcome.events.extend(decider.take())
    finally:
        decider.stop()
        sys.setswitchinterval(switch)
    outcome.decisions = list(decider.decisions)
    outcome.decision_detail = list(decider.detail)
    return outcome


@dataclass
class LiveGame:
    """A box with its presenter and its simulated players (``session``), run
    beside this process's frames until it ends and always closed the same
    way: the older design, kept for the harness of the pages' and the frame
    loop's tests (the product decides every live game, simulated players'
    too, in a process of its own: ``controller.screen.viewer``)."""

    box: Box
    presenter: Presenter
    session: Session | None = None
    stopped: bool = False  # Ctrl+C or SIGTERM
    #: the companion pages' server (``--web``), stopped with the game
    companion: Any = None
    closed: bool = field(default=False, repr=False)

    def game_now(self) -> int:
        return box_now_us() + self.box.time_offset_us

    def run(self, *, realtime: bool = True, seconds: float | None = None, keyboard: KeyboardSource | None = None,
            fps: int = 60, to_game_us: int | None = None) -> RunResult | None:
        """Play until the game ends, ``seconds`` pass, Esc, Ctrl+C or SIGTERM;
        None when it was stopped. Closes the game in every case."""
        from controller.screen.loop import run

        session = self.session
        if session is None:
            raise ValueError("a game with people is decided in a process of its own (controller.screen.viewer)")
        if realtime and to_game_us is not None:
            # the sources' stated report delay is checked on every delivery from
            # now on; simulated players stamp on their session's own timeline
            # (unless it follows the box clock), so their lateness means nothing
            self.box.measure_report_delay(box_now_us)
        # simulated players keep the session's own timeline
        until = None if seconds is None else self.box.now_us + int(seconds * 1_000_000)
        return self.closed_after(lambda: run(session, self.presenter, realtime=realtime, until_us=until,
                                             keyboard=keyboard, fps=fps, to_game_us=to_game_us))

    def closed_after(self, frames: Callable[[], RunResult]) -> RunResult | None:
        """``frames()`` until the game ends; None when it was stopped (Ctrl+C,
        SIGTERM). Closes the game in every case."""
        try:
            with stop_on_sigterm():
                signals.check()  # a signal held during start-up stops the game now, through its close
                return frames()
        except KeyboardInterrupt:
            self.stopped = True
            log.info("%s stopped (Ctrl+C or SIGTERM)", self.box.spec.title)
            return None
        finally:
            self.close()

    def close(self) -> None:
        """Lights off, the phones told, the journal's end written: once, however it ended."""
        if self.closed:
            return
        self.closed = True
        with signals.held(raise_after=False):  # a signal now must not cut the close short
            self._close()

    def _close(self) -> None:
        stop_companion(self)
        try:
            self.presenter.close()
        finally:
            box = self.box
            # every press taken is journaled before the end
            box.end(box.now_us if self.session is not None else max(self.game_now(), box.now_us))

    def summary_line(self, result: RunResult | None) -> str:
        """One line for the terminal and the log: how it ended and the scores."""
        return summary_line(played_of(self.box), "stopped" if result is None else result.reason)




def stop_companion(game: LiveGame) -> None:
    """The companion pages' server the harness hosts (``--web``), stopped with the game."""
    if game.companion is not None:
        game.companion.stop()
        game.companion = None


@dataclass
class OneProcessGame(LiveGame):
    """A live box of people's (no session: its sources already started on it)
    decided beside this process's frames (``run_live``), closed as the
    product closes a game, ``source`` (if given) stopped first."""

    source: Source | None = None

    def run(self, *, realtime: bool = True, seconds: float | None = None, keyboard: KeyboardSource | None = None,
            fps: int = 60, to_game_us: int | None = None) -> RunResult | None:
        if realtime:
            self.box.measure_report_delay(box_now_us)  # the sources' stated delay, checked on every delivery
        self.box.bound_logs()  # people play for hours: the journal keeps everything, memory the newest
        until = None if seconds is None else self.game_now() + int(seconds * 1_000_000)
        return self.closed_after(lambda: run_live(self.box, self.presenter, until_us=until, keyboard=keyboard,
                                                  fps=fps))

    def _close(self) -> None:
        try:
            if self.source is not None:
                self.source.stop()
        finally:
            super()._close()


def play(args: argparse.Namespace) -> int:
    """``play``'s options, the game decided beside this process's frames (the
    older design, as ``play --one-process`` played it): the profile's inputs
    (``--feed``: mock pins driven from a FIFO) and lamps opened here, the
    journal written here, ``--timings`` as ``play`` writes them."""
    from controller.apps.common import default_players, options_from, spec_named
    from controller.apps.play import write_timings
    from controller.box import profile as profile_mod
    from controller.box import session
    from controller.screen import live

    spec = spec_named(args.game)
    prof = profile_mod.load(args.profile) if args.profile else None
    players = len(prof.stations) if prof is not None else (args.players or default_players(spec))
    headless = live.is_headless(args)
    names, colors = live.names_colors(prof, players, session.saved_names(prof))
    keyboard = None if headless else KeyboardSource(players, sends_watermarks=prof is None,
                                                    keys=prof.keys if prof is not None else None)
    seed = args.seed if args.seed is not None else session.new_seed()
    settings = session.game_settings(spec, players, seed, options_from(args.option), prof)
    path = Path(args.journal) if args.journal else session.new_journal_path(session.journal_dir(), spec.name)
    relay = session.Relay()
    box = session.new_box(spec, settings, prof, path, station_names=names)
    source = session.open_inputs(prof, relay, args.feed) if prof is not None else None
    try:
        presenter = live.presenter_for(spec, live.open_screen(args, headless),
                                       lights=session.open_lights(prof, source),
                                       sound=live.open_sound(args, headless, prof), colors=colors)
    except BaseException:
        if source is not None:
            source.stop()
        raise
    box.horizon_policy = args.horizon
    if source is not None and prof is not None:
        session.connect(box, source, prof)
    relay.target = box
    game = OneProcessGame(box, presenter, source=source)
    # benchkit reads the deciding thread's priority from this line, as from the deciding process's own
    print(f"deciding process {os.getpid()} (one process, beside the frames): normal priority, nice {os.nice(0)}",
          file=sys.stderr, flush=True)
    result = game.run(realtime=True, seconds=args.seconds, fps=15 if headless else 60, keyboard=keyboard)
    if args.timings and result is not None:
        write_timings(args.timings, "one-process", {
            "decisions": [d[:2] for d in result.decisions], "decision_detail": result.decision_detail,
            "frame_us": result.frame_us, "shown": [[d[0], d[2]] for d in result.decisions if d[2] is not None],
            "late_deliveries": box.late_deliveries, "worst_delivery_us": box.worst_delivery_us,
            "offset_us": box.time_offset_us, "stated_delay_us": box.stated_delay_us})
    print(game.summary_line(result), file=sys.stderr)
    if result is None:
        raise KeyboardInterrupt  # closed cleanly; the command line says "stopped"
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.one_process play GAME [play's options]``
    (benchmarks/realtime.py's one-process design): the command line and its
    one-line failures are ``buzzerbox``'s own."""
    from controller import cli
    from controller.system import signals

    args = cli.build_parser().parse_args(argv)
    if args.command != "play":
        raise SystemExit("benchmarks/one_process.py: only play (e.g. play quiz --profile header-4 --feed FIFO)")
    logging.basicConfig(level=[logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)],
                        format="%(asctime)s %(name)s %(levelname)s %(message)s")
    args.func = play
    with signals.handled():
        return cli.run_command(args, "play")


if __name__ == "__main__":
    sys.exit(main())
