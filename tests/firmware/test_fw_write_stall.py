"""A board that stops draining USB never stops the box deciding (issue 46). The
deciding thread asks a board for its watermark and lights its lamps: with the
port written on that thread, under the driver's lock, a board whose USB took no
more bytes held every decision (a keyboard's or the GPIO's too) behind a write
that never returned. The driver's commands go out through a writer thread of
its own: the deciding thread only queues them. Through the simulator, on a pty
whose board end stops reading, its buffer filled."""

from __future__ import annotations

import os
import threading
import time
from types import SimpleNamespace

from controller.box import session as box_session
from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim
from games import registry
from games.base import GameEvent
from tests.firmware.conftest import caught_up

#: ends a hang only (the fixed driver decides in a fraction of a second): bounds nothing asserted
HANG_S = 60.0


def fill(port: str) -> int:
    """Fill the pty's host -> board buffer, which the board no longer drains: the host's
    next write waits for room that never comes. Returns the bytes it took."""
    fd = os.open(port, os.O_WRONLY | os.O_NOCTTY | os.O_NONBLOCK)
    taken = 0
    try:
        while True:
            try:
                taken += os.write(fd, b"\n" * 1024)  # empty lines: nothing to the board's parser
            except BlockingIOError:
                return taken
    finally:
        os.close(fd)


def test_a_board_that_stops_draining_usb_leaves_a_keyboard_press_to_be_decided() -> None:
    sim = BoardSim()
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3))
    source = BoardSource({0: (0, "bell"), 1: (1, "bell"), 2: (2, "bell")}, {(1, "bell"): 1}, port=lambda: sim.port,
                         clock=sim.host_clock, clock_slack_us=0, reconnect_delay_s=0.02, sync_interval_us=200_000)
    source.follow_lockout = lambda box: None  # type: ignore[method-assign]  # (the board's own lamps: tested apart)
    box_session.connect(box, source, SimpleNamespace(debounce=box.debouncer.config))  # type: ignore[arg-type]
    source.start(box)
    events: list[GameEvent] = []
    decided, done = threading.Event(), threading.Event()

    def deciding() -> None:
        """The deciding thread's part: a keyboard's press (the screen forwards it), then steps
        as the thread takes them, each after the driver read every line the board sent."""
        t = sim.host_clock()
        box.host("arm", t)
        box.press(Press(1, "bell", t + 1_000, 1_000), measured=False)
        while not done.is_set():
            sim.advance(250, step_us=250)
            give_up = time.monotonic() + HANG_S
            while sim.unread_by_host() and time.monotonic() < give_up and not done.is_set():
                time.sleep(0.0005)  # the driver's reader taking the board's lines (readiness)
            events.extend(box.step(sim.host_clock()))
            box.next_due_us()  # where it asks the board how far it delivered
            if any(e.kind == "winner" for e in events):
                source.set_light(1, "bell", "on")  # the winner's lamp: a write the board will not take
                decided.set()
                return

    thread = threading.Thread(target=deciding, name="deciding", daemon=True)
    try:
        while sim.now_us < 300_000 or not source.connected:  # connected, its clock mapped
            sim.advance(1_000)
            caught_up(sim, source)
            box.step(sim.host_clock())
        sim.stop_draining()
        assert fill(sim.port or "") > 0
        thread.start()
        decided.wait(HANG_S)
        assert decided.is_set(), "no decision: the deciding thread waits on the board's USB"
        assert [e.player for e in events if e.kind == "winner"] == [1]
    finally:
        done.set()
        sim.resume_draining()  # the old driver's writes return: its threads end
        if thread.ident is not None:
            thread.join(HANG_S)
        source.stop()
        sim.close()
