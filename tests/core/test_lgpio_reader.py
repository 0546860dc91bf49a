"""On lgpio (every Pi) the GPIO source reads the kernel's edges from a
notification pipe of its own, so the box can ask how far it has delivered.
lgpio is stood in for by the pipe and the few calls the source makes; the
reports are lgpio's own format (tick in ns, chip, GPIO, level, flags)."""

from __future__ import annotations

import dataclasses
import os
import struct
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from controller.box import profile as profile_mod
from controller.box import session
from controller.box.runtime import Box
from controller.box.sources.gpio import LGPIO_REPORT, GpioSource, mock_pin_class
from games import registry
from tests.processes import HANG_S


class LGPIOFactory(MockFactory):
    """Named as gpiozero's lgpio factory (the source picks its way by the name); mock pins."""

    _handle = 7


class StandInLgpio:
    """The calls the source makes, and the pipe lgpio's alert thread writes."""

    BOTH_EDGES = 3

    def __init__(self) -> None:
        self.alerts: list[tuple[int, int, int, int | None]] = []
        self.closed: list[int] = []
        self.writer: int | None = None

    def notify_open(self) -> int:
        os.mkfifo(".lgd-nfy4")
        return 4

    def notify_close(self, handle: int) -> None:
        self.closed.append(handle)
        if self.writer is not None:
            os.close(self.writer)
            self.writer = None

    def gpio_get_mode(self, handle: int, gpio: int) -> int:
        return 1 << 5  # pulled up

    def gpio_claim_alert(self, handle: int, gpio: int, edges: int, flags: int, notify_handle: int | None = None) -> int:
        self.alerts.append((gpio, edges, flags, notify_handle))
        return 0

    def report(self, gpio: int, level: int, t_us: int) -> bytes:
        return LGPIO_REPORT.pack(t_us * 1000, 0, gpio, level, 0, 0)


#: station 2's switches actuate this much later (a drop jig's offset): its edges' stamps come this much earlier
OFFSET_US = 300


@pytest.fixture
def lgpio_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Box, GpioSource, StandInLgpio, dict[Any, int]]]:
    monkeypatch.chdir(tmp_path)  # lgpio makes its pipes in its working folder
    prof = profile_mod.load("header-4")
    prof = dataclasses.replace(prof, stations=[dataclasses.replace(st, offset_us=OFFSET_US if st.index == 2 else 0)
                                               for st in prof.stations])
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    lgpio = StandInLgpio()
    source = GpioSource(prof, LGPIOFactory(pin_class=mock_pin_class()), lgpio=lgpio)
    source.start(box)
    session.connect(box, source, prof)
    lgpio.writer = os.open(".lgd-nfy4", os.O_WRONLY)
    pins = {v: k for k, v in prof.input_pins().items()}
    try:
        yield box, source, lgpio, pins
    finally:
        source.stop()


def test_every_pin_alerts_on_the_sources_own_pipe_and_the_box_follows_its_watermarks(lgpio_box) -> None:
    box, source, lgpio, pins = lgpio_box
    assert sorted(a[0] for a in lgpio.alerts) == sorted(pins.values())
    assert {(a[1], a[2], a[3]) for a in lgpio.alerts} == {(3, 1 << 5, 4)}  # both edges, the pull kept, our pipe
    assert box.decided_by() == {"gpio": "watermarks"}


def test_edges_come_with_the_kernels_stamps_and_the_reader_says_when_all_are_in(lgpio_box) -> None:
    box, source, lgpio, pins = lgpio_box
    reader = source.reader
    assert reader is not None
    now = reader_now = 5_000_000
    # nothing queued: an edge stamped from then on may still come, and station 2's comes stamped earlier
    assert reader.delivered_until_us(reader_now) == now - reader.capture_us - OFFSET_US
    delivered = threading.Event()
    reader.wake = delivered.set
    t0 = 4_000_000
    report = lgpio.report(pins[(0, "bell")], 0, t0)
    assert lgpio.writer is not None
    box.arrived.clear()
    os.write(lgpio.writer, report + report[:5])  # one report and a part of the next
    assert box.arrived.wait(HANG_S)  # the whole one delivered ...
    assert reader.delivered_until_us(reader_now) is None  # ... the part read keeps the reader busy
    assert not delivered.is_set()
    os.write(lgpio.writer, report[5:])
    assert delivered.wait(HANG_S)
    box.step(t0 + 100)
    assert box.debouncer.state(0, "bell").t0_us == t0  # the kernel's stamp, ns to µs
    assert reader.delivered_until_us(reader_now) == now - reader.capture_us - OFFSET_US


def test_reports_being_handed_over_hold_the_watermark_before_their_stamps(lgpio_box) -> None:
    """While the reader hands a chunk over, the box may decide any moment before
    the reports it still holds (less the stations' largest offset), not past them."""
    box, source, lgpio, pins = lgpio_box
    reader = source.reader
    assert reader is not None
    gate, inside = threading.Event(), threading.Event()
    callback = source._stamped[pins[(1, "bell")]]

    def held(t_us: int, state: int) -> None:
        callback(t_us, state)
        inside.set()
        gate.wait()

    source._stamped[pins[(1, "bell")]] = held
    assert lgpio.writer is not None
    os.write(lgpio.writer, lgpio.report(pins[(1, "bell")], 0, 1_000) + lgpio.report(pins[(0, "bell")], 0, 1_010))
    try:
        assert inside.wait(HANG_S)
        # read, not yet delivered: every edge before it is in; station 2's comes stamped earlier
        assert reader.delivered_until_us(2_000_000) == 1_000 - 1 - OFFSET_US
    finally:
        gate.set()


def test_a_pipe_lgpio_will_not_give_leaves_gpiozeros_callbacks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No notification pipe (an old lgpio, no room for the pipe): the source works as before,
    by gpiozero's callbacks, and the box waits its stated delay for it."""
    monkeypatch.chdir(tmp_path)

    class NoPipe(StandInLgpio):
        def notify_open(self) -> int:
            raise OSError("no notification pipe")

    prof = profile_mod.load("header-4")
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    factory = LGPIOFactory(pin_class=mock_pin_class())
    source = GpioSource(prof, factory, lgpio=NoPipe())
    source.start(box)
    try:
        session.connect(box, source, prof)
        assert box.decided_by() == {"gpio": "delay"}
        pin = factory.pin(next(n for n, where in prof.input_pins().items() if where == (2, "bell")))
        pin.drive(0, 3_000)
        box.step(3_100)
        assert box.debouncer.state(2, "bell").t0_us == 3_000
    finally:
        source.stop()


def test_lgpio_reports_are_what_the_reader_unpacks() -> None:
    assert LGPIO_REPORT.size == 16 and LGPIO_REPORT.format == struct.Struct("QBBBBI").format


def idle(reader: Any) -> None:
    """Wait until the reader has handed over all it read (readiness, not a delay)."""
    done = threading.Event()
    while reader._busy and not done.wait(0.001):
        pass


def test_an_edge_lgpio_holds_for_its_next_poll_is_not_claimed_delivered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """lgpio's alert thread (lgPthAlerts.c, lgPthAlert) reads every ready line in one ppoll turn and
    writes only the reports stamped up to the least of each line's last stamps; the rest wait for its
    next turn (the next edge, or ppoll's 0.5 ms timeout). Station A's edge at s and B's at s+20 read in
    one turn: B reaches the pipe at least 0.5 ms after lgpio read it. Asked just before, the idle reader
    must not say B is delivered."""
    from controller.box.sources.gpio import LgpioEdgeReader

    monkeypatch.chdir(tmp_path)
    got: list[tuple[int, int, int]] = []
    arrived = threading.Event()

    def on_edge(gpio: int, level: int, t: int) -> None:
        got.append((gpio, level, t))
        arrived.set()

    lgpio = StandInLgpio()
    reader = LgpioEdgeReader(lgpio, on_edge, lambda secs: round(secs * 1e6))
    writer = os.open(".lgd-nfy4", os.O_WRONLY)
    reader.start()
    try:
        s = 10_000_000
        read_by_lgpio = s + 20 + 60  # its turn woke 60 µs after B's edge (a loaded Pi: later)
        os.write(writer, lgpio.report(17, 0, s))  # A: up to tmax, written at once
        assert arrived.wait(HANG_S)
        idle(reader)
        b_written_at = read_by_lgpio + 500  # the next turn: ppoll's 0.5 ms timeout (its wake-up ignored)
        answer = reader.delivered_until_us(b_written_at - 10)
        assert answer is not None and answer < s + 20, (
            f"the reader says every edge up to {answer} is delivered; B, stamped {s + 20}, is written at {b_written_at}")
    finally:
        os.close(writer)
        reader.stop()
        reader.join(HANG_S)


@pytest.mark.parametrize("open_in_time", [False, True])
def test_a_brush_whose_release_lgpio_holds_for_its_next_poll_does_not_win(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_in_time: bool) -> None:
    """In the box's virtual time, through the GPIO source's own lgpio reader: station 0's contact
    closes at T and opens at T+900 (a brush, shorter than the 1 ms glitch filter); station 1 presses
    at T+890 and holds. lgpio's turn that reads both lines writes up to T+890 only; station 0's open
    waits for its next turn (0.5 ms timeout, timer slack, wake-up): in the pipe at T+1500 or later.
    The box steps at station 0's confirmation T+1000 plus the reader's lag: station 1 must win
    (control: lgpio wrote the open in time)."""
    monkeypatch.chdir(tmp_path)
    prof = profile_mod.load("header-4")
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4, 1), prof.station_kinds(), debounce=prof.debounce)
    lgpio = StandInLgpio()
    source = GpioSource(prof, LGPIOFactory(pin_class=mock_pin_class()), lgpio=lgpio)
    source.start(box)
    session.connect(box, source, prof)
    writer = os.open(".lgd-nfy4", os.O_WRONLY)
    pins = {v: k for k, v in prof.input_pins().items()}
    reader = source.reader
    assert reader is not None and box.debouncer.config.glitch_us == 1_000

    def lgpio_writes(station: int, level: int, t_us: int) -> None:
        box.arrived.clear()
        os.write(writer, lgpio.report(pins[(station, "bell")], level, t_us))
        assert box.arrived.wait(HANG_S)
        idle(reader)

    try:
        box.host("arm", 1_000_000)
        box.step(1_000_100)
        t = 2_000_000
        lgpio_writes(0, 0, t)  # station 0 closes
        box.step(t + 100)
        lgpio_writes(1, 0, t + 890)  # the turn that read both lines writes up to its tmax only
        box.step(t + 1_000)
        if open_in_time:
            lgpio_writes(0, 1, t + 900)
        box.step(t + 1_000 + 500)  # station 0's confirmation plus lgpio's 0.5 ms poll
        if not open_in_time:
            lgpio_writes(0, 1, t + 900)  # station 0's open, written on lgpio's next turn
        box.step(t + 1_000 + reader.lag_us + 1_000)
        box.step(t + 20_000)
        statuses = box.engine_statuses()
        assert statuses[0] != "first" and statuses[1] == "first", f"statuses {statuses}: the brush won"
    finally:
        os.close(writer)
        source.stop()
