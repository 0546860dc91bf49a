"""The one-process design, kept as a baseline and a harness, never in the
product: the deciding thread beside the frame loop in one process, on a
live ``Box``. ``buzzerbox`` decides every game with people in a process of
its own (docs/processes.md); tests of the companion pages and the frame
loop's fairness, and ``benchmarks/storm.py``, run a live box here on one
thread of their own without a second process.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from controller.box.deciding import LIVE_WINDOW, Decider
from controller.box.runtime import Box
from controller.box.timeline import box_now_us
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import Pace, Presenter, RunResult, frame_run, frames_loop
from games.base import GameEvent

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
    decider = Decider(box, frames.now, lambda: presenter.light(box))

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

    def closing() -> None:
        with box.lock:  # what was decided since the last frame belongs to how the run went
            frames.events.extend(decider.take())

    frames.advance, frames.before_draw, frames.after_flip, frames.closing = advance, before_draw, after_flip, closing
    switch = sys.getswitchinterval()
    try:
        sys.setswitchinterval(LIVE_SWITCH_INTERVAL_S)
        decider.start()
        outcome = frames_loop(box, presenter, keyboard, frames, Pace(until_us, results_s, fps))
    finally:
        decider.stop()
        sys.setswitchinterval(switch)
    outcome.decisions = list(decider.decisions)
    outcome.decision_detail = list(decider.detail)
    return outcome
