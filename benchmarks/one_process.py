"""The one-process design, kept as a baseline and a harness, never in the
product: the deciding thread beside the frame loop in one process, on a
live ``Box``. ``buzzerbox`` decides every game with people in a process of
its own (docs/processes.md); tests of the companion pages and the frame
loop's fairness, and ``benchmarks/storm.py``, run a live box here on one
thread of their own without a second process.

Everything the baseline needs beyond the product's pieces is here: the
deciding thread keeping its events for the frame thread and letting it wait
for a step (``OneProcessDecider``), the real-time frame loop on a box in
this process (``FrameRun``, ``frames_loop``: keys, ``show`` frames, the
frame drawn from the box's view), the lamps lit from that loop, the hooks
around each frame (``framed``), ``LiveGame`` (a box and its presenter run
beside this process's frames, people's as ``OneProcessGame``). The phones'
server on a box in this process is ``benchmarks/companion_box.py``.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from controller.box.deciding import LIVE_WINDOW, Decider
from controller.box.lights import LightDirector
from controller.box.runtime import Box
from controller.box.session import played_of, stop_on_sigterm, summary_line
from controller.box.sources.base import Source
from controller.box.timeline import box_now_us
from controller.protocol import View
from controller.screen.keyboard import BOX_KEYS, KeyboardSource
from controller.screen.loop import (
    QUIT,
    Presenter,
    RunResult,
    draw_box,
    goes_back,
    key_of,
    keyboard_help,
    react_box,
)
from controller.system import signals
from games.base import EventKind, GameEvent, GameSpec

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


@dataclass
class LiveResult(RunResult):
    """How a live box's run went, with what the real-time benchmark measures."""

    #: a live box's decisions: [decided, light set, first frame flipped after] in game µs
    decisions: list[list[int | None]] = field(default_factory=list)
    #: how long each frame took to draw and flip, µs
    frame_us: list[int] = field(default_factory=list)
    #: per decision (aligned with ``decisions``), where its time went, µs: how
    #: late the deciding thread woke after the moment it had planned (None: a
    #: delivery woke it), how long it waited for ``box.lock``, the step, and
    #: the guard the horizon used (above the stated delay after a late delivery)
    decision_detail: list[dict[str, int | None]] = field(default_factory=list)


def host_key(box: Box, name: str, now_us: int) -> list[GameEvent]:
    """A host key (space, c, w, n, u, r, a clicker's) as the running game's own action, or the pause card."""
    return box.host_button(name, now_us)


@dataclass
class FrameRun:
    """What the real-time frame loop needs of the run it serves: one object,
    so a reader of ``frames_loop`` sees every way it reaches back."""

    box: Box
    presenter: Presenter
    #: game time now
    now: Callable[[], int]
    #: the stamp a key press gets (as a source's edge: before the box's offset)
    key_stamp: Callable[[], int]
    #: (due, flipped) of every ``show`` answered, and every event of the run (its result's record)
    shows: deque[tuple[int, int]]
    events: deque[GameEvent]
    shift: int = 0
    #: move the game on to a time: its events, reacted to and recorded
    advance: Callable[[int], list[GameEvent]] = lambda _t: []
    #: the lamps from the box's strip now, lit from this loop (None: no lamps)
    lamps: LightDirector | None = None

    def with_advance(self, advance: Callable[[int], list[GameEvent]]) -> FrameRun:
        self.advance = advance
        return self

    def light(self) -> None:
        """The lamps from the box's strip now (only changes are sent)."""
        if self.lamps is not None:
            with self.box.lock:
                self.lamps.update(self.box.statuses(), self.box.spec.status_light)

    def react(self, events: Sequence[GameEvent], t_us: int) -> None:
        """Events to the lamps (first, in the same pass as the press), then sound and the room's lines."""
        self.light()
        react_box(self.presenter, self.box, events, t_us)

    def show(self, t_us: int) -> int:
        """A new card / GO on the screen now; the flip time is its t_show."""
        draw_box(self.presenter, self.box, t_us)
        flipped = self.presenter.screen.flip() + self.shift
        self.shows.append((t_us, flipped))
        return flipped

    def answer_shows(self, events: list[GameEvent], t_us: int) -> list[GameEvent]:
        """Events in, each ``show`` answered by a frame flipped now."""
        for e in list(events):
            if e.kind == EventKind.SHOW:
                flipped = self.show(t_us)  # drawn without the lock: a deciding thread goes on meanwhile
                with self.box.lock:
                    events += self.box.shown(flipped)
        return events

    def result(self, reason: str, t_us: int) -> LiveResult:
        """Close the run into its result: how it ended and when."""
        sounds = list(self.presenter.sound.played) if self.presenter.sound else []
        return LiveResult(reason, t_us, self.presenter.frames, list(self.events), list(self.shows), sounds)


def frame_run(box: Box, presenter: Presenter, keyboard: KeyboardSource | None, clock: Callable[[], int],
              shift: int, *, window: int | None, lamps: LightDirector | None = None) -> FrameRun:
    """A run's frame side on ``box``: its keyboard started with the host keys
    and help; game time is ``clock() + shift``; ``window``: how many shows and
    events it keeps (None: all)."""
    if keyboard is not None:
        keyboard.add_host_keys(box.spec.host_keys)
        keyboard.add_host_keys({key: action for key, action in BOX_KEYS.items() if action in presenter.box_actions})
        with box.lock:
            presenter.help = keyboard_help(box.spec, keyboard, box.engine.public_view())

    def now() -> int:
        return clock() + shift

    def key_stamp() -> int:
        """Keys reach the box like any source's edges: the box adds its own offset."""
        return now() - box.time_offset_us

    run = FrameRun(box, presenter, now, key_stamp, deque(maxlen=window), deque(maxlen=window), shift, lamps=lamps)
    if keyboard is not None:
        keyboard.start(box)
    return run


@dataclass(frozen=True)
class Pace:
    """How long a real-time run goes and how fast it draws."""

    until_us: int | None = None  # game time to stop at (None: until it ends)
    results_s: float = 10.0  # how long the final standings stay up
    fps: int = 60


def frames_loop(box: Box, presenter: Presenter, keyboard: KeyboardSource | None, run: FrameRun,
                pace: Pace) -> LiveResult:
    """The frame loop of a real-time run: keys, what the game did (sound,
    messages, ``show`` frames), the frame."""
    frame_clock = pygame.time.Clock()
    finished_at: int | None = None
    frame_us: deque[int] = deque(maxlen=LIVE_WINDOW)

    def done(reason: str, t_us: int) -> LiveResult:
        out = run.result(reason, t_us)
        out.frame_us = list(frame_us)
        return out

    while True:
        t = run.now()
        for event in pygame.event.get():
            name = key_of(event, presenter, keyboard, run.key_stamp())
            if name == QUIT:
                return done("quit", t)
            if name == "menu" and (finished_at is not None or presenter.end_confirmed()):
                return done("menu", t)
            if name == "menu":  # the first Esc: the screen asks
                continue
            if name in presenter.box_actions:  # the box's own (the PIN on screen): the game never sees it
                presenter.box_actions[name]()
                continue
            if name is not None and finished_at is None:
                with box.lock:
                    keyed = host_key(box, name, t)
                events = run.answer_shows(keyed, t)
                run.react(events, t)
                run.events.extend(events)
            elif finished_at is not None and (name is not None or goes_back(event)):
                return done("finished", t)
        t = run.now()
        run.advance(t)
        with box.lock:
            finished = box.engine.finished
        if finished and finished_at is None:
            finished_at = t
        if pace.until_us is not None and t >= pace.until_us:
            return done("time", t)
        if finished_at is not None and t - finished_at > pace.results_s * 1_000_000:
            return done("finished", t)
        t_draw = run.now()
        draw_box(presenter, box, t)
        presenter.screen.flip()
        shown_at = run.now()
        frame_us.append(shown_at - t_draw)
        frame_clock.tick(pace.fps)


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
    such hooks: the presenter's ``draw_view`` and its screen's ``flip`` are wrapped here."""
    draw, flip = presenter.draw_view, presenter.screen.flip
    drawing = [20_000, 0]  # the last frame's drawing time, when this one began

    def drawn(shown: View, spec: GameSpec, now_us: int, surface: pygame.Surface | None = None,
              frozen: bool = False) -> None:
        before_draw(drawing[0])
        drawing[1] = now()
        draw(shown, spec, now_us, surface, frozen)

    def flipped() -> int:
        shown = flip()
        shown_at = now()
        drawing[0] = shown_at - drawing[1]
        after_flip(shown_at)
        return shown

    presenter.draw_view = drawn  # type: ignore[method-assign]
    presenter.screen.flip = flipped  # type: ignore[method-assign]
    try:
        yield
    finally:
        del presenter.draw_view, presenter.screen.flip  # the classes' own again


def run_live(box: Box, presenter: Presenter, *, until_us: int | None = None, keyboard: KeyboardSource | None = None,
             clock: Callable[[], int] = box_now_us, fps: int = 60, results_s: float = 10.0,
             lamps: LightDirector | None = None) -> LiveResult:
    """A live box (its sources already started on it) decided on a thread
    beside this frame loop until it ends, ``until_us``, Esc or the window
    closes; ``lamps`` lit from the box's strip by the deciding thread as it decides."""
    frames = frame_run(box, presenter, keyboard, clock, box.time_offset_us, window=LIVE_WINDOW, lamps=lamps)
    decider = OneProcessDecider(box, frames.now, frames.light)

    def advance(t_us: int) -> list[GameEvent]:
        if decider.error is not None:
            raise decider.error
        with box.lock:
            decided = decider.take()
        events = frames.answer_shows(decided, t_us)
        if events:
            frames.react(events, t_us)
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
    """A box with its presenter run beside this process's frames until it
    ends and always closed the same way: the older design, kept for the
    harness of the pages' and the frame loop's tests (the product decides
    every live game in a process of its own: ``controller.screen.viewer``)."""

    box: Box
    presenter: Presenter
    stopped: bool = False  # Ctrl+C or SIGTERM
    #: the companion pages' server (``--web``), stopped with the game
    companion: Any = None
    #: the profile's lamps, lit from this process's deciding thread (None: none)
    lamps: LightDirector | None = None
    closed: bool = field(default=False, repr=False)

    def game_now(self) -> int:
        return box_now_us() + self.box.time_offset_us

    def closed_after(self, frames: Callable[[], LiveResult]) -> LiveResult | None:
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
            if self.lamps is not None:
                self.lamps.all_off()
        finally:
            box = self.box
            # every press taken is journaled before the end
            box.end(max(self.game_now(), box.now_us))

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
            fps: int = 60) -> LiveResult | None:
        if realtime:
            self.box.measure_report_delay(box_now_us)  # the sources' stated delay, checked on every delivery
        self.box.bound_logs()  # people play for hours: the journal keeps everything, memory the newest
        until = None if seconds is None else self.game_now() + int(seconds * 1_000_000)
        return self.closed_after(lambda: run_live(self.box, self.presenter, until_us=until, keyboard=keyboard,
                                                  fps=fps, lamps=self.lamps))

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
                                       sound=live.open_sound(args, headless, prof), colors=colors)
        lights = session.open_lights(prof, source)
    except BaseException:
        if source is not None:
            source.stop()
        raise
    box.horizon_policy = args.horizon
    if source is not None and prof is not None:
        session.connect(box, source, prof)
    relay.target = box
    game = OneProcessGame(box, presenter, lamps=LightDirector(lights), source=source)
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
