"""On a Pi the GPIO source reads the stations' edges from the kernel's GPIO
character device (uAPI v2 line events), not through lgpio's alert thread.
There is no /dev/gpiochip here: the line request's fd is stood in for by a
pipe carrying records in the kernel's own format (``tests/linechip.py``), and the request's layout is checked byte for byte against
<linux/gpio.h> (the offsets gcc gives for it, written out below)."""

from __future__ import annotations

import dataclasses
import logging
import os
import select
import struct
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.box import profile as profile_mod
from controller.box import session
from controller.box.runtime import Box
from controller.box.sources import linefd
from controller.box.sources.gpio import GpioSource, mock_factory
from controller.box.sources.linefd import (
    GPIO_GET_CHIPINFO_IOCTL,
    GPIO_V2_GET_LINE_IOCTL,
    GPIO_V2_LINE_GET_VALUES_IOCTL,
    LINE_EVENT,
    LINE_REQUEST,
    LineError,
    LineEventReader,
    header_chip,
    line_request,
)
from controller.box.timeline import box_now_us
from games import registry
from tests.linechip import StandInChip, event
from tests.processes import HANG_S


def test_the_line_request_is_laid_out_as_the_kernels_header() -> None:
    """The ioctl's argument is the kernel's ``struct gpio_v2_line_request`` (592 bytes):
    offsets[64] at 0, consumer at 256, config at 288 (flags u64, num_attrs at +8,
    attrs at +32, 272 bytes), num_lines at 560, event_buffer_size at 564, fd at 588.
    A wrong layout asks for other lines or none: built here as the header places each field."""
    expected = bytearray(592)
    struct.pack_into("=3I", expected, 0, 17, 27, 22)
    expected[256:256 + 9] = b"buzzerbox"
    flags = (1 << 2) | (1 << 4) | (1 << 5) | (1 << 8)  # INPUT, EDGE_RISING, EDGE_FALLING, BIAS_PULL_UP
    struct.pack_into("=Q", expected, 288, flags)  # no REALTIME flag: CLOCK_MONOTONIC, the box clock
    struct.pack_into("=IIi", expected, 560, 3, 1024, 0)
    struct.pack_into("=i", expected, 588, -1)
    assert bytes(line_request([17, 27, 22], pull_up=True)) == bytes(expected)
    down = line_request([5], pull_up=False)
    assert struct.unpack_from("=Q", down, 288)[0] == (1 << 2) | (1 << 4) | (1 << 5) | (1 << 9)  # BIAS_PULL_DOWN
    assert LINE_REQUEST.size == 592 and LINE_EVENT.size == 48
    # _IOWR(0xB4, 0x07, 592), _IOWR(0xB4, 0x0E, 16), _IOR(0xB4, 0x01, 68), as gcc expands them
    assert (GPIO_V2_GET_LINE_IOCTL, GPIO_V2_LINE_GET_VALUES_IOCTL, GPIO_GET_CHIPINFO_IOCTL) == (
        0xC250B407, 0xC010B40E, 0x8044B401)
    with pytest.raises(LineError, match="1 to 64"):
        line_request(list(range(65)), pull_up=True)


def test_a_machine_without_the_headers_chip_says_so_in_one_line(tmp_path: Path) -> None:
    """No gpiochip, or a file that is not one: one line naming what it found, no traceback."""
    with pytest.raises(LineError, match="no header GPIO chip") as no_chip:
        header_chip(tmp_path)
    assert "no /dev/gpiochip*" in str(no_chip.value)
    (tmp_path / "gpiochip0").write_bytes(b"")
    with pytest.raises(LineError, match="gpiochip0: ") as not_a_chip:
        header_chip(tmp_path)
    assert "\n" not in str(not_a_chip.value)


#: station 2's switches actuate this much later (a drop jig's offset): its stamps come this much earlier
OFFSET_US = 300


@pytest.fixture
def lines_box(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Box, GpioSource, StandInChip, dict[Any, int]]]:
    prof = profile_mod.load("header-4")
    prof = dataclasses.replace(prof, stations=[dataclasses.replace(st, offset_us=OFFSET_US if st.index == 2 else 0)
                                               for st in prof.stations])
    monkeypatch.setattr(linefd, "line_levels", lambda fd, count: [1] * count)  # every bell at rest (pulled up)
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4, 1), prof.station_kinds(), debounce=prof.debounce)
    chip = StandInChip()
    source = GpioSource(prof, mock_factory(), lines=chip.open)
    source.start(box)
    session.connect(box, source, prof)
    pins = {v: k for k, v in prof.input_pins().items()}
    try:
        yield box, source, chip, pins
    finally:
        source.stop()
        chip.close()


def drained(reader: Any) -> None:
    """Wait until the reader has handed over everything queued (readiness, not a delay)."""
    done = threading.Event()
    while (reader._busy or select.select([reader._fd], [], [], 0)[0]) and not done.wait(0.001):
        pass


def hold(source: GpioSource, offset: int) -> tuple[threading.Event, threading.Event]:
    """The reader held inside this line's edge (as a reader that does not get the
    interpreter): (set when it is inside, set to let it go on)."""
    inside, gate = threading.Event(), threading.Event()
    callback: Callable[[int, int], None] = source._stamped[offset]

    def held(t_us: int, level: int) -> None:
        callback(t_us, level)
        inside.set()
        gate.wait()

    source._stamped[offset] = held
    return inside, gate


def test_the_inputs_are_read_from_the_kernels_line_events_and_the_log_says_so(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Where the header's lines can be requested, every input is one line of one
    request (pulled up: the bells close to ground), gpiozero opens none of them,
    the box decides by the reader's watermarks, and one log line names the way."""
    monkeypatch.setattr(linefd, "line_levels", lambda fd, count: [1] * count)
    prof = profile_mod.load("header-4")
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    chip = StandInChip()
    source = GpioSource(prof, mock_factory(), lines=chip.open)
    with caplog.at_level(logging.INFO, logger="buzzerbox.gpio"):
        source.start(box)
    try:
        session.connect(box, source, prof)
        assert chip.asked == [(sorted(prof.input_pins()), True)]
        assert source.pins == {} and source.reader is source.line_reader is not None
        assert box.decided_by() == {"gpio": "watermarks"}
        said = [r.getMessage() for r in caplog.records if "GPIO source" in r.getMessage()]
        assert len(said) == 1 and "kernel's line events (/dev/gpiochip0 pinctrl-rp1" in said[0]
    finally:
        reader = source.line_reader
        source.stop()
        assert reader is not None and chip.writer is not None
        reader.join(HANG_S)  # its thread closes the request as it ends
        assert not reader.is_alive()
        with pytest.raises(BrokenPipeError):  # stopped: the request is closed, the lines are free
            chip.queue(chip.edge(17, 0, 1))
        chip.close()


def test_lines_the_kernel_will_not_give_leave_gpiozeros_pins(caplog: pytest.LogCaptureFixture) -> None:
    """No chip (or the lines held by another program): the inputs go through
    gpiozero as before, and the box waits the stated delay for them; the log says why."""

    def refused(offsets: list[int], pull_up: bool) -> tuple[int, str]:
        raise LineError(16, "/dev/gpiochip0: the kernel refused lines [17]: Device or resource busy")

    prof = profile_mod.load("header-4")
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    source = GpioSource(prof, mock_factory(), lines=refused)
    with caplog.at_level(logging.INFO, logger="buzzerbox.gpio"):
        source.start(box)
    try:
        session.connect(box, source, prof)
        assert source.line_reader is None and sorted(source.pins) == sorted(prof.input_pins())
        assert box.decided_by() == {"gpio": "delay"}
        assert any("resource busy" in r.getMessage() and "MockFactory" in r.getMessage() for r in caplog.records)
    finally:
        source.stop()


def test_edges_carry_the_kernels_monotonic_stamps(lines_box) -> None:
    """A falling edge (the bell closes to ground) is the press's first edge, stamped
    with the kernel's CLOCK_MONOTONIC ns as box µs, less the station's offset."""
    box, source, chip, pins = lines_box
    t0 = box_now_us()
    box.arrived.clear()
    chip.queue(chip.edge(pins[(2, "bell")], 0, t0), chip.edge(pins[(0, "bell")], 0, t0 + 40))
    drained(source.reader)
    box.step(t0 + 100)
    assert box.debouncer.state(2, "bell").t0_us == t0 - OFFSET_US
    assert box.debouncer.state(0, "bell").t0_us == t0 + 40
    assert box.debouncer.state(1, "bell").phase.value == "idle"  # untouched


def test_an_edge_queued_before_the_probe_is_delivered_before_the_watermark_passes_it(lines_box) -> None:
    """The reader is held handing over station 1's edge; station 0's edge, stamped
    after it, is queued behind. Asked meanwhile, the reader says nothing at or past
    station 1's stamp (less the stations' largest offset); once it has delivered,
    it says everything up to now less its lag, and station 0's edge is in the box."""
    box, source, chip, pins = lines_box
    reader = source.reader
    assert reader is not None and reader.lag_us == LineEventReader.capture_us + OFFSET_US
    inside, gate = hold(source, pins[(1, "bell")])
    t1 = box_now_us()
    try:
        chip.queue(chip.edge(pins[(1, "bell")], 0, t1))
        assert inside.wait(HANG_S)
        chip.queue(chip.edge(pins[(0, "bell")], 0, t1 + 500))
        asked_at = t1 + 50_000
        answer = reader.delivered_until_us(asked_at)
        assert answer is not None and answer <= t1 - 1 - OFFSET_US, answer
    finally:
        gate.set()
    drained(reader)
    box.step(asked_at)
    assert box.debouncer.state(0, "bell").t0_us == t1 + 500
    assert reader.delivered_until_us(asked_at) == asked_at - reader.lag_us


def test_a_brush_whose_release_is_queued_is_never_confirmed_as_a_press(lines_box) -> None:
    """Station 0's contact closes at T and opens at T+900 (a brush: shorter than the 1 ms
    glitch filter); station 1 closes at T+890 and holds. The reader is held handing over
    station 1's close while station 0's open waits in the queue behind it: the box, stepping
    long past station 0's confirmation, must not crown it; released, station 1 wins."""
    box, source, chip, pins = lines_box
    assert box.debouncer.config.glitch_us == 1_000
    inside, gate = hold(source, pins[(1, "bell")])
    t = box_now_us()
    box.host("arm", t - 10_000)
    box.step(t - 5_000)
    events = []
    try:
        chip.queue(chip.edge(pins[(0, "bell")], 0, t), chip.edge(pins[(1, "bell")], 0, t + 890),
                   chip.edge(pins[(0, "bell")], 1, t + 900))
        assert inside.wait(HANG_S)
        for now in range(t + 1_000, t + 30_000, 500):  # long past station 0's confirmation
            events += box.step(now)
        assert [e.player for e in events if e.kind == "winner"] == []
    finally:
        gate.set()
    drained(source.reader)
    for now in range(t + 30_000, t + 60_000, 1_000):
        events += box.step(now)
    assert [e.player for e in events if e.kind == "winner"] == [1]


def test_a_press_whose_contact_bounced_open_before_the_kernel_read_it_starts_at_its_close(lines_box) -> None:
    """The kernel names an event's direction by the level its IRQ thread reads, not by the
    edge it stamped: station 0's bell closes at T and bounces open before that thread runs,
    so the kernel queues (T, rising), a level the line already rests at. Station 1 closes at
    T+40, station 0 closes again at T+60 and both hold. Station 0 touched first and wins; its
    press starts at T, not at its re-close."""
    box, source, chip, pins = lines_box
    t = box_now_us()
    box.host("arm", t - 10_000)
    box.step(t - 5_000)
    chip.queue(chip.edge(pins[(0, "bell")], 1, t), chip.edge(pins[(1, "bell")], 0, t + 40),
               chip.edge(pins[(0, "bell")], 0, t + 60))
    drained(source.reader)
    events = []
    for now in range(t + 1_000, t + 60_000, 1_000):
        events += box.step(now)
    assert [e.player for e in events if e.kind == "winner"] == [0]
    assert [(p.station, p.t_us) for p in box.press_log] == [(0, t), (1, t + 40)]


def test_a_line_events_edge_goes_to_the_box_with_the_kernels_stamp_precision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel stamps a line's edge to 5 µs (``LINE_PRECISION_US``), plus the
    station's front-end spread: what the arbiter calls a tie, not the 1 µs of a mock pin."""
    monkeypatch.setattr(linefd, "line_levels", lambda fd, count: [1] * count)
    prof = profile_mod.load("header-4")
    got: list[tuple[Any, int]] = []

    class Sink:
        def edge(self, edge: Any, precision_us: int) -> None:
            got.append((edge, precision_us))

    chip = StandInChip()
    source = GpioSource(prof, mock_factory(), lines=chip.open)
    source.start(Sink())  # type: ignore[arg-type]
    try:
        chip.queue(chip.edge(17, 0, 3_000_000))
        drained(source.reader)
    finally:
        source.stop()
        chip.close()
    assert [(e.station, e.level, e.t_us, p) for e, p in got] == [
        (0, 0, 3_000_000, 5 + prof.precision_extra_us(0, "bell"))]


def test_events_the_kernel_dropped_are_counted_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A line's ``line_seqno`` skipping (the kernel's queue overflowed while the reader
    was behind) is counted and logged; two lines' events out of the request-wide order
    (each line's IRQ thread queues its own) are not a loss."""
    got: list[tuple[int, int, int]] = []
    r, w = os.pipe()
    reader = LineEventReader(r, lambda offset, level, t: got.append((offset, level, t)))
    records = [event(17, 0, 1_000, 2, 1), event(27, 0, 1_005, 1, 1),  # queued out of seqno order: no loss
               event(17, 1, 1_100, 3, 2), event(17, 0, 1_400, 6, 5)]  # line 17's 3 and 4 were dropped
    os.write(w, b"".join(records))
    os.close(w)  # the reader ends when it has read them all
    with caplog.at_level(logging.WARNING, logger="buzzerbox.gpio"):
        reader.start()
        reader.join(HANG_S)
    assert not reader.is_alive()
    assert got == [(17, 0, 1_000), (27, 0, 1_005), (17, 1, 1_100), (17, 0, 1_400)]
    assert reader.lost == 2
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1 and "GPIO line 17" in warned[0] and "dropped 2" in warned[0]


def test_a_record_that_is_not_an_edge_is_not_delivered() -> None:
    """Only rising and falling events are edges: another id (a future kernel's) is skipped."""
    got: list[int] = []
    r, w = os.pipe()
    reader = LineEventReader(r, lambda offset, level, t: got.append(t))
    os.write(w, LINE_EVENT.pack(5_000_000, 9, 17, 1, 1) + event(17, 0, 6_000, 2, 2))
    os.close(w)
    reader.start()
    reader.join(HANG_S)
    assert got == [6_000] and reader.lost == 0


def test_each_inputs_level_at_rest_is_its_lines_bit_in_the_request(monkeypatch: pytest.MonkeyPatch) -> None:
    """The debounce starts from each input's level now: the request's values (bit i: its
    i-th line, asked with every line's bit in the mask). A bell held down at the start
    (station 1's, offset 5, low) reads low and no other does."""
    prof = profile_mod.load("header-4")
    offsets = sorted(prof.input_pins())
    asked: list[tuple[int, bytes]] = []

    def ioctl(fd: int, request: int, arg: bytearray, mutate: bool) -> int:
        asked.append((request, bytes(arg)))
        held = offsets.index(5)
        struct.pack_into("=Q", arg, 0, ((1 << len(offsets)) - 1) & ~(1 << held))
        return 0

    chip = StandInChip()
    monkeypatch.setattr(linefd.fcntl, "ioctl", ioctl)
    source = GpioSource(prof, mock_factory(), lines=chip.open)
    spec = registry.get("quiz")
    source.start(Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce))
    try:
        levels = source.levels()
    finally:
        source.stop()
        chip.close()
    values = (GPIO_V2_LINE_GET_VALUES_IOCTL, struct.pack("=QQ", 0, (1 << len(offsets)) - 1))
    assert asked == [values, values]  # at the start (the level the lines' first events leave), and now
    assert prof.input_pins()[5] == (1, "bell")
    assert levels == {where: 0 if where == (1, "bell") else 1 for where in prof.input_pins().values()}


def test_edges_the_kernel_dropped_are_said_on_the_screen_and_kept_in_the_journal(
        lines_box, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The kernel's queue overflowed while the reader was behind: station 2's line skips two
    events. The screen's inputs line says a press may be missing, and the journal keeps a
    notice of it: ``journal check`` (and a replay) say so, long after the log is gone."""
    from controller.box.journal import JournalWriter
    from controller.box.views import inputs_line, view_of
    from controller.cli import main

    box, source, chip, pins = lines_box
    path = tmp_path / "quiz.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    t = box_now_us()
    line = pins[(2, "bell")]
    box.step(t - 1_000)
    assert inputs_line(box, t) is None
    chip.queue(event(line, 0, t, 1, 1), event(line, 1, t + 5_000, 4, 4))  # its events 2 and 3 dropped
    drained(source.reader)
    box.step(t + 10_000)
    shown = view_of(box, t + 10_000).inputs
    assert shown == "The kernel dropped button edges 1 time (the inputs' reader fell behind): a press may be missing"
    box.journal.close()
    box.journal = None
    capsys.readouterr()
    assert main(["journal", "check", str(path)]) == 0
    said = capsys.readouterr().err
    assert "the kernel dropped button edges 1 time while it was played" in said, said
