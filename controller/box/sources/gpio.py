"""Stations wired straight to the Pi's header.

On a Pi the inputs are read from the kernel's GPIO character device by the
box's own reader (``controller/box/sources/linefd.py``): the kernel's edge
stamps, and the box decides as soon as the reader says it has delivered
them. Where that cannot be had (no /dev/gpiochip, an old kernel, lines held
by another program) they are read through gpiozero at pin level, as below.

Through gpiozero we use ``pin.when_changed(ticks, state)`` with gpiozero's own bounce switched
off, because the debounce must keep the *first* edge's stamp. Each pin
factory stamps differently, so each gets its own tick converter:

* lgpio (every Pi, the Pi 5 included): the kernel's edge timestamp, taken in
  the interrupt; gpiozero hands it over in seconds. Precision 1 µs... of the
  stamp, but interrupt latency jitter of a few µs: reported as 5 µs.
* pigpio: the daemon's 32-bit µs tick (sampled every 5 µs by default; wraps
  every 71.6 minutes): unwrapped to 64 bits. Precision 5 µs.
* RPi.GPIO / native: stamped in Python when the callback runs, after thread
  and GIL delays. Precision reported as 1,000 µs: the arbiter calls presses
  closer than 1 ms a tie rather than guess.
* MockFactory (tests, diagnostics without hardware): exact ticks. 1 µs.

gpiozero holds ``when_changed`` callbacks weakly, so this source keeps a
strong reference to every callback it installs.
"""

from __future__ import annotations

import importlib
import logging
import struct
import time
from collections.abc import Callable
from typing import Any

from controller.box.press import Edge, InputNotice, NoticeKind
from controller.box.profile import Profile
from controller.box.sources.base import EdgeReader, InputSink, Source, SourceError
from controller.box.sources.linefd import LineEventReader, LineOpener, open_header_lines
from controller.box.sources.pipe_reader import PipeReader
from controller.box.timeline import box_now_us

log = logging.getLogger("buzzerbox.gpio")

TickConverter = Callable[[Any], int]


def _kernel_seconds_to_box_us() -> TickConverter:
    """lgpio stamps with the kernel's clock; depending on the lgpio build that is
    CLOCK_MONOTONIC (our box clock) or CLOCK_REALTIME. Decide per stamp: an
    edge is always stamped within a few seconds of now on one of the two."""

    def convert(ticks: Any) -> int:
        t_us = round(float(ticks) * 1_000_000)
        mono = time.monotonic_ns() // 1000
        real = time.time_ns() // 1000
        if abs(real - t_us) < abs(mono - t_us):
            return t_us - (real - mono)
        return t_us

    return convert


#: how often the pigpio mapping is read again from the daemon's counter: its crystal drifts 10-50 ppm from the
#: box clock (which NTP slews), so a mapping read once is ms off after minutes; 10 s leaves at most 0.5 ms
PIGPIO_REANCHOR_US = 10_000_000


def _pigpio_ticks_to_box_us(factory: Any, clock: Callable[[], int] = box_now_us) -> TickConverter:
    """pigpio's tick is a 32-bit µs counter (wraps every 71.6 min). An edge is
    converted in its callback, moments after it happened, so it is placed
    within half a wrap *before now* on the box clock: right however long the
    box sat idle, with no heartbeat needed. The counter runs on its own
    crystal, not the NTP-slewed box clock: the mapping is read again every
    ``PIGPIO_REANCHOR_US``, and an edge it would place after now (the counter
    ran ahead) moves the mapping to it and is stamped now, never refused as
    from the future."""
    period = 1 << 32
    anchor = [0, clock()]  # [box µs - pigpio ticks, box µs it was read]

    def reanchor() -> None:  # the daemon answers over a socket: its tick is placed mid-way through the ask
        before = clock()
        ticks = int(factory.ticks())
        anchor[1] = clock()
        anchor[0] = (before + anchor[1]) // 2 - ticks

    reanchor()

    def convert(ticks: Any) -> int:
        now = clock()
        if now - anchor[1] >= PIGPIO_REANCHOR_US:
            reanchor()
            now = clock()
        ago = (now - anchor[0] - int(ticks)) % period
        if ago >= period // 2:  # stamped "after" now: the counter ran ahead of the mapping
            anchor[0] = now - int(ticks)
            return now
        return now - ago

    return convert


def _seconds_to_us(ticks: Any) -> int:
    return round(float(ticks) * 1_000_000)


def tick_converter(factory: Any, clock: Callable[[], int] = box_now_us) -> tuple[TickConverter, int, str]:
    """(converter from this factory's ticks to box µs, precision µs, a label)."""
    kind = type(factory).__name__
    if kind == "MockFactory":
        return _seconds_to_us, 1, "mock (exact ticks)"
    if kind == "LGPIOFactory":
        return _kernel_seconds_to_box_us(), 5, "lgpio (kernel edge timestamps)"
    if kind == "PiGPIOFactory":
        return _pigpio_ticks_to_box_us(factory, clock), 5, "pigpio (daemon ticks, 5 µs sampling)"
    if kind in ("RPiGPIOFactory", "NativeFactory"):
        return _seconds_to_us, 1_000, f"{kind} (stamped in Python: 1 ms precision)"
    log.warning("unknown pin factory %s: treating its ticks as seconds stamped in Python", kind)
    return _seconds_to_us, 1_000, f"{kind} (unknown: 1 ms precision)"


def _is_mock(factory: Any) -> bool:
    """gpiozero's mock pins (tests, the benchmarks' feed): never the header's lines."""
    from gpiozero.pins.mock import MockFactory

    return isinstance(factory, MockFactory)


def default_factory() -> Any:
    """The factory gpiozero would pick (GPIOZERO_PIN_FACTORY, else lgpio ...)."""
    from gpiozero import Device

    if Device.pin_factory is None:
        Device.pin_factory = Device._default_pin_factory()
    return Device.pin_factory


#: the kernel stamps a line's edge in its interrupt handler: interrupt latency jitter of a few µs
LINE_PRECISION_US = 5

#: lgpio's notification report: the kernel's stamp (ns), chip, GPIO, level, flags (none defined), padding
LGPIO_REPORT = struct.Struct("QBBBBI")
#: gpiozero's mask of a line's mode bits that are its flags (pull, active low, drive)
LGPIO_LINE_FLAGS = (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6) | (1 << 7)


class LgpioEdgeReader(PipeReader):
    """The lgpio pins' edges read from a notification pipe of the source's own.
    gpiozero hands edges over from lgpio's callback thread, which reads its
    pipe through a buffered file and cannot say how far it has delivered;
    this reader can (``PipeReader``), so the box decides by it instead of a
    stated delay. lgpio's alert thread (native, at the deciding process's
    priority) moves each kernel event into the pipe: ``capture_us`` covers
    that hop. It is not one read and one write: each ppoll turn (lgPthAlerts.c,
    ``lgPthAlert``) reads every ready line and writes only the reports stamped
    up to the least of each line's last stamps, holding the rest for its next
    turn, which with no new edge comes after ppoll's 0.5 ms timeout, the
    kernel's timer slack (50 µs) and the thread's wake-up (on a loaded Pi,
    hundreds of µs): 2 ms covers that. The cost: on lgpio's pins a decision
    waits up to 2 ms after its confirmation. So on a Pi the source reads the
    kernel's line events itself (``LineEventReader``, 0.25 ms); this reader is
    the way left where those cannot be had."""

    capture_us = 2_000

    def __init__(self, lgpio: Any, on_edge: Callable[[int, int, int], None], convert: TickConverter) -> None:
        self.lgpio = lgpio
        self.convert = convert
        self.notify = int(lgpio.notify_open())
        try:
            super().__init__(f".lgd-nfy{self.notify}", "buzzerbox-gpio-edges")  # where lgpio makes it
        except OSError:
            lgpio.notify_close(self.notify)
            raise
        self.on_edge = on_edge

    def split(self, data: bytes) -> tuple[list[bytes], bytes]:
        size = LGPIO_REPORT.size
        whole = len(data) - len(data) % size
        return [data[i:i + size] for i in range(0, whole, size)], data[whole:]

    def stamp_us(self, report: bytes) -> int | None:
        """The kernel's stamp in box µs (None: lgpio defines no flags yet, a report with some is no edge)."""
        tick_ns, _chip, _gpio, _level, flags, _pad = LGPIO_REPORT.unpack(report)
        return self.convert(tick_ns / 1_000_000_000) if flags == 0 else None

    def deliver(self, report: bytes, t_us: int | None) -> None:
        """The edge to the pin's callback, stamped ``t_us`` (``stamp_us``: converted once, so the
        reader's bound and the edge agree)."""
        if t_us is not None:
            _tick, _chip, gpio, level, _flags, _pad = LGPIO_REPORT.unpack(report)
            self.on_edge(gpio, level, t_us)

    def stop(self) -> None:
        super().stop()
        self.lgpio.notify_close(self.notify)  # after the thread handed over what was in the pipe (``stop``)


class GpioSource(Source):
    """Every input of a wiring profile, via gpiozero pins (on lgpio, their
    edges through a reader of our own: ``LgpioEdgeReader``)."""

    name = "gpio"

    def __init__(self, profile: Profile, pin_factory: Any = None, lgpio: Any = None,
                 lines: LineOpener | None = None) -> None:
        """``lines`` opens the inputs' kernel line events (tests give a stand-in); by default
        the header's chip is tried unless the pins are gpiozero's mock ones."""
        if profile.source != "gpio":
            raise SourceError(f"profile {profile.name!r} is for source {profile.source!r}, not the GPIO header")
        self.profile = profile
        self.factory = pin_factory
        self.pins: dict[int, Any] = {}
        self._callbacks: dict[int, Callable[[Any, int], None]] = {}  # strong refs: gpiozero keeps weak ones
        #: each pin's edge already stamped in box µs (what lgpio's reader delivers)
        self._stamped: dict[int, Callable[[int, int], None]] = {}
        self.precision_us = 1
        self.label = ""
        #: the thread that delivers the pins' edges, when it can say how far it has (lgpio, ``--feed``)
        self.reader: EdgeReader | None = None
        self._lgpio = lgpio  # the lgpio module (tests give a stand-in); imported when the factory is lgpio's
        self._lgpio_reader: LgpioEdgeReader | None = None
        self._lines = lines
        #: the kernel's line events, when the inputs are read from them (``LineEventReader``)
        self.line_reader: LineEventReader | None = None
        #: the requested lines' offsets (BCM numbers), in the request's order
        self._line_offsets: list[int] = []

    def start(self, sink: InputSink) -> None:
        factory = self.factory or default_factory()
        for number, (station, input_name) in self.profile.input_pins().items():
            self._stamped[number] = self._stamped_callback(sink, station, input_name)
        if self._read_lines(factory, sink):
            log.info("GPIO source: %d inputs via %s", len(self._line_offsets), self.label)
            return
        convert, self.precision_us, self.label = tick_converter(factory)
        pull = "up" if self.profile.debounce.active_level == 0 else "down"
        for number in self.profile.input_pins():
            pin = factory.pin(number)
            pin.function = "input"
            pin.pull = pull
            pin.bounce = None  # our debounce keeps the first edge; the library's would not
            self._callbacks[number] = self._callback(self._stamped[number], convert)
            self.pins[number] = pin
        reader = self._read_lgpio(factory, convert) if type(factory).__name__ == "LGPIOFactory" else None
        for number, pin in self.pins.items():
            if reader is None:
                pin.edges = "both"
                pin.when_changed = self._callbacks[number]
        if reader is not None:
            self._lgpio_reader = reader
            self.adopt(reader)
            reader.start()
            self.label += ", edges read by the box's own reader (decisions by its watermarks)"
        log.info("GPIO source: %d inputs via %s", len(self.pins), self.label)

    def adopt(self, reader: PipeReader) -> None:
        """The reader the box asks how far the pins' edges are delivered (``edge_reader``);
        it answers that much earlier for the stations' offsets, which come off the stamps."""
        reader.offset_us = max([0, *(self.profile.offset_us(s) for s, _ in self.profile.input_pins().values())])
        self.reader = reader

    def _read_lines(self, factory: Any, sink: InputSink) -> bool:
        """The inputs read from the kernel's line events by a reader of our own
        (``LineEventReader``), if they can be had: True, and the reader started."""
        opener = self._lines
        if opener is None:
            if _is_mock(factory):
                return False  # mock pins: their edges are the test's or the feed's
            opener = open_header_lines
        offsets = sorted(self.profile.input_pins())
        try:
            fd, chip = opener(offsets, self.profile.debounce.active_level == 0)
        except OSError as exc:
            log.warning("GPIO inputs not read from the kernel's line events (%s): through %s instead",
                        exc, type(factory).__name__)
            return False
        callbacks = self._stamped

        def on_edge(offset: int, level: int, t_us: int) -> None:
            callback = callbacks.get(offset)
            if callback is not None:
                callback(t_us, level)

        reader = LineEventReader(fd, on_edge, on_lost=self._lost_notice(sink))
        try:
            reader.rest(dict(zip(offsets, reader.levels(len(offsets)), strict=True)))  # what its events leave
        except OSError as exc:
            reader.stop()  # never started: closes the request
            log.warning("GPIO inputs not read from the kernel's line events (%s): through %s instead",
                        exc, type(factory).__name__)
            return False
        self._line_offsets = offsets
        self.line_reader = reader
        self.precision_us = LINE_PRECISION_US
        self.label = f"the kernel's line events ({chip}), read by the box's own reader (decisions by its watermarks)"
        self.adopt(reader)
        reader.start()
        return True

    def _read_lgpio(self, factory: Any, convert: TickConverter) -> LgpioEdgeReader | None:
        """Alerts for every pin into a notification pipe of our own (``LgpioEdgeReader``),
        or None where lgpio will not (then gpiozero's callbacks, and the stated delay)."""
        try:
            lgpio = self._lgpio if self._lgpio is not None else importlib.import_module("lgpio")
            callbacks = self._stamped

            def on_edge(gpio: int, level: int, t_us: int) -> None:
                callback = callbacks.get(gpio)
                if callback is not None:
                    callback(t_us, level)

            reader = LgpioEdgeReader(lgpio, on_edge, convert)
        except Exception as exc:  # noqa: BLE001 (no lgpio, no notification pipe: gpiozero's way still works)
            log.warning("lgpio edges through gpiozero's callbacks (%s): decisions wait the stated delay", exc)
            return None
        handle = factory._handle
        try:
            for number in self.pins:
                flags = lgpio.gpio_get_mode(handle, number) & LGPIO_LINE_FLAGS
                lgpio.gpio_claim_alert(handle, number, lgpio.BOTH_EDGES, flags, notify_handle=reader.notify)
        except Exception as exc:  # noqa: BLE001
            reader.stop()
            log.warning("lgpio would not alert on our pipe (%s): edges through gpiozero's callbacks", exc)
            return None
        return reader

    def _lost_notice(self, sink: InputSink) -> Callable[[int, int, int], None]:
        """Edge events the kernel dropped on a line, as a notice of its input (``NoticeKind.LOST``):
        the box journals it and the screen says so; a press may be missing from the game."""
        pins = self.profile.input_pins()

        def on_lost(offset: int, _missed: int, t_us: int) -> None:
            where = pins.get(offset)
            if where is not None:
                station, input_name = where
                sink.notice(InputNotice(station, input_name, NoticeKind.LOST, t_us - self.profile.offset_us(station)))

        return on_lost

    def _stamped_callback(self, sink: InputSink, station: int, input_name: str) -> Callable[[int, int], None]:
        """An input's edge, stamped in box µs, to the sink."""
        # the front end's spread between stations widens what counts as a tie;
        # the station's drop-jig offset comes off its stamps (wiring/README.md).
        # The source's own precision is read at each edge: ``start`` builds these
        # callbacks before it knows which way the edges come (line events, lgpio, RPi.GPIO)
        extra = self.profile.precision_extra_us(station, input_name)
        offset = self.profile.offset_us(station)

        def on_edge(t_us: int, state: int) -> None:
            sink.edge(Edge(station, input_name, int(state), t_us - offset), self.precision_us + extra)

        return on_edge

    @staticmethod
    def _callback(stamped: Callable[[int, int], None], convert: TickConverter) -> Callable[[Any, int], None]:
        def on_change(ticks: Any, state: int) -> None:
            # runs on gpiozero's pin thread: stamp, enqueue, nothing else
            stamped(convert(ticks), state)

        return on_change

    def edge_reader(self) -> EdgeReader | None:
        """The reader of the inputs' edges (the kernel's line events, lgpio's pipe, the
        benchmarks' feed). gpiozero's own edge thread cannot say how far it has
        delivered: without a reader the box waits the stated report delay."""
        return self.reader

    def levels(self) -> dict[tuple[int, str], int]:
        """Each input's level now (so the debounce knows what 'at rest' is)."""
        pins = self.profile.input_pins()
        if self.line_reader is not None:
            levels = self.line_reader.levels(len(self._line_offsets))
            return {pins[n]: level for n, level in zip(self._line_offsets, levels, strict=True)}
        return {pins[n]: int(pin.state) for n, pin in self.pins.items()}

    def stop(self) -> None:
        if self.line_reader is not None:
            self.line_reader.stop()  # hands over what is queued, then closes the request: the lines are free
            self.line_reader = self.reader = None
        if self._lgpio_reader is not None:
            self._lgpio_reader.stop()
            self._lgpio_reader = self.reader = None
        for pin in self.pins.values():
            pin.when_changed = None
            pin.close()
        self.pins.clear()
        self._callbacks.clear()


def mock_pin_class() -> type:
    """A MockPin whose edges carry exact, chosen tick values (tests, diag demo).

    ``pin.drive(level, t_us)`` changes the level at box time ``t_us`` and fires
    the callback with that stamp, as the kernel would."""
    from gpiozero.pins.mock import MockPin

    class TimedMockPin(MockPin):
        def drive(self, level: int, t_us: int) -> None:
            if bool(level) == self._state:  # type: ignore[has-type]
                return
            self._last_change = t_us / 1_000_000
            self._state = bool(level)
            self.states.append(type(self.states[0])(0.0, bool(level)))
            if self._when_changed is not None and self._edges in ("both", "rising" if level else "falling"):
                self._call_when_changed()

    return TimedMockPin


def mock_factory() -> Any:
    from gpiozero.pins.mock import MockFactory

    return MockFactory(pin_class=mock_pin_class())
