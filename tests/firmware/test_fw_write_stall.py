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
from controller.box.sources.board.serial_io import OUTBOX_LIMIT
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


class SerialTimeoutException(Exception):  # noqa: N818 - pyserial's name: the driver tells a timeout by it
    pass


class WedgedPort:
    """A port whose first write takes part of a frame and then times out (a board not draining USB)."""

    def __init__(self) -> None:
        self.taken: list[bytes] = []

    def write(self, data: bytes) -> int:
        if not self.taken:
            self.taken.append(data[:3])  # "L 1" went, the rest of the line did not
            raise SerialTimeoutException("Write timeout")
        self.taken.append(data)
        return len(data)


def written(source: BoardSource) -> None:
    """The driver's writer thread's work, on this thread: hands over what is queued, then returns."""
    source._stop.set()
    source._write_loop()
    source._stop.clear()


def test_a_lamp_command_dropped_or_torn_is_sent_again_and_the_next_frame_is_not_glued() -> None:
    """A lamp's command the board's USB did not take (its outbox full, or its write timed out) is
    not lost: the lights are sent again as after a reconnect (``relight``). A write given up
    part-way left the board half a line: the next command starts with a newline, not glued to it."""
    source = BoardSource({0: (0, "bell")}, {(0, "bell"): 1})
    port = WedgedPort()
    source._ser = port
    source.session.connected = True
    source.set_light(0, "bell", "on")
    written(source)  # times out after "L 1"
    assert source.session.relight
    source.session.relight = False
    source.set_light(0, "bell", "off")
    written(source)
    lines = b"".join(port.taken).split(b"\n")  # as the board's parser splits what it got
    assert lines[0] == b"L 1" and lines[1].startswith(b"L 1 off")  # the torn line ended, not glued on
    source._out += bytes(OUTBOX_LIMIT)  # the outbox full: the board takes nothing
    source.set_light(0, "bell", "on")
    assert source.session.relight and source._lights[1] == "on"  # sent again once it answers
