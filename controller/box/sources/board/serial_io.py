"""The board's serial port and reader thread (the I/O around ``BoardSession``).

The reader never dies of what comes over the wire: an unexpected error while
handling a line is logged, the line dropped and the session resynchronised
(hello asked again; the board replays what was not acked). Should the thread
end anyway, the sink is told ``disconnected``, exactly as for an unplugged
board, so the game pauses instead of silently hearing no more presses.

Commands go out through a writer thread of their own: whoever sends one (the
deciding thread asking for a watermark or lighting a lamp, the reader acking)
only queues its bytes. A board that stops draining USB blocks that thread alone
(its writes give up after ``WRITE_TIMEOUT_S``, the bytes dropped, logged): the
box decides on, by the board's stated delay once its asks go unanswered (the
screen's inputs line says so), instead of hanging every decision behind a write.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

from controller.box.press import InputNotice, NoticeKind, Press, Watermark
from controller.box.sources.base import InputSink, Source
from controller.box.sources.board.session import (
    BOARD_INPUT,
    BOARD_STATION,
    Arm,
    BoardSession,
    ChannelMap,
    LampLit,
    Output,
)
from controller.box.timeline import box_now_us
from firmware.buzzer.proto import MAX_LINE, frame

log = logging.getLogger(__name__)

#: Raspberry Pi's USB vendor id, and the product ids of MicroPython's CDC on the RP2040/RP2350
BOARD_VID = 0x2E8A
BOARD_PIDS = (0x0005, 0x0009, 0x0010)
LIGHT_MODES = ("on", "off", "blink")
#: a write the board has not taken in this long is given up (its bytes dropped): a board that stopped
#: draining USB must not hold the writer thread, nor anything waiting behind it, forever
WRITE_TIMEOUT_S = 1.0
#: bytes of commands waiting for the writer beyond which more are dropped (the board is not taking them:
#: what matters is sent again, the lockout by its heartbeats' reconciling, the lights after a reconnect)
OUTBOX_LIMIT = 64 * 1024
#: how long the reader waits for the board's next byte before it looks at the session's timers again
READ_WAIT_S = 0.02


def find_board_port() -> str | None:
    """The first serial port with Raspberry Pi's USB id and a MicroPython CDC product id."""
    from serial.tools import list_ports

    for p in list_ports.comports():
        if p.vid == BOARD_VID and p.pid in BOARD_PIDS:
            return p.device
    return None


class BoardSource(Source):
    """The board as an input source (name ``board``, precision 1 µs).

    ``channel_map``: board input channel -> (station, input name), built by the
    wiring profile loader. ``light_map``: (station, input name) -> board light
    channel. ``port``: a device path, a callable returning one (or None while
    there is none), or None to find the board by USB id. ``clock``: the box
    timeline in µs (tests pass a fake).
    """

    name = "board"
    #: heartbeats and clock replies say how far it delivered, and a decision waiting on it asks (``ask_watermark``)
    sends_watermarks = True
    precision_us = 1  # the best case; each press carries its own (capture precision or clock-mapping error)
    active_level = 0  # the board's inputs switch to ground (firmware pinmap ACTIVE_LEVEL)

    def __init__(self, channel_map: ChannelMap, light_map: Mapping[tuple[int, str], int] | None = None,
                 port: str | Callable[[], str | None] | None = None,
                 clock: Callable[[], int] = box_now_us, *, baudrate: int = 115200,
                 reconnect_delay_s: float = 0.2, sync_interval_us: int = 1_000_000,
                 silence_us: int = 1_000_000, clock_slack_us: int = 100,
                 serial_factory: Callable[..., object] | None = None) -> None:
        for ch, where in channel_map.items():
            if not isinstance(ch, int) or not (isinstance(where, tuple) and len(where) == 2):
                raise ValueError(f"channel map entry {ch!r}: {where!r} must be int -> (station, input name)")
        self.channel_map = dict(channel_map)
        self.light_map = dict(light_map or {})
        self._port = port
        self.clock = clock
        self.baudrate = baudrate
        self.reconnect_delay_s = reconnect_delay_s
        self.session = BoardSession(channel_map, sync_interval_us=sync_interval_us,
                                    silence_us=silence_us, clock_slack_us=clock_slack_us, name=self.name)
        self._serial_factory = serial_factory
        self._lights: dict[int, str] = {}
        self._lock = threading.Lock()
        self._ser: object | None = None
        self._thread: threading.Thread | None = None
        #: framed commands for the writer thread, and whether it is writing some now
        self._out = bytearray()
        self._out_cv = threading.Condition()
        self._writing = False
        self._writer: threading.Thread | None = None
        self._dropped_bytes = 0  # commands dropped since the writer last got some through
        self._torn = False  # a write given up part-way: the next data starts with a newline
        #: the reader handled everything it read and waits on an empty port (``quiet``)
        self._rx_idle = True
        self._stop = threading.Event()
        self._sink: InputSink | None = None
        self.port_name: str | None = None
        self._missing_told = False
        self.reader_alive = True
        self.internal_errors = 0
        self._ever_opened = False  # later absences are the session's "went away"
        #: who hears of the lamps the board lit itself (the lockout referee)
        self.on_lamp: Callable[[LampLit], None] | None = None
        self._follower: Any = None

    @classmethod
    def from_profile(cls, profile: Any, **kwargs: Any) -> BoardSource:
        """The board a wiring profile (source = "board") describes."""
        source = cls(profile.input_pins(), profile.light_pins(), **kwargs)
        source.session.stamp_adjust = {
            (station, name): (profile.precision_extra_us(station, name), profile.offset_us(station))
            for station, name in source.channel_map.values()
        }
        return source

    def levels(self) -> dict[tuple[int, str], int]:
        """Each mapped input's electrical level as the board last reported it
        (hello or ``query_levels``): an input at its active level at rest is a
        normally-closed contact, a held button or a short. Used by the guided
        wiring test's ``begin`` like ``GpioSource.levels``."""
        active = self.active_level
        held = self.session.info.held
        return {where: active if ch in held else 1 - active for ch, where in self.channel_map.items()}

    def query_levels(self, timeout_s: float = 1.0) -> dict[tuple[int, str], int]:
        """Ask the running board for its input levels now and wait for the answer
        (``levels()`` as of the hello if it does not come in ``timeout_s``)."""
        before = self.session.info.held_at_us
        with self._lock:
            self.session.query_levels()
        self._flush()
        deadline = threading.Event()
        for _ in range(max(1, int(timeout_s / 0.01))):
            if self.session.info.held_at_us != before:
                break
            deadline.wait(0.01)
        return self.levels()

    def report_delay_us(self, debounce: Any) -> int:
        """The board debounces before it sends, so the box cannot see a press
        still bouncing there: wait out the bounce window, the glitch time and
        the USB hand-over before deciding (only for a board that does not
        answer ``ask_watermark``)."""
        return debounce.bounce_us + debounce.glitch_us + 3_000

    def ask_watermark(self) -> bool:
        """A decision waits on the board: ask it now how far it has sent every
        press (its answer is a ``Watermark``, a round trip later). False when it
        cannot answer (firmware before 3.2): the box waits the stated report
        delay (``report_delay_us``) for it instead."""
        with self._lock:
            asked = self.session.ask_watermark(self.clock())
            self._take_outbox()
        return asked

    def lights(self) -> BoardLights:
        """The board's light outputs as a light back-end for the display loop."""
        return BoardLights(self)

    # ---- public --------------------------------------------------------------
    def start(self, sink: InputSink) -> None:
        self._sink = sink
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-reader", daemon=True)
        self._writer = threading.Thread(target=self._write_loop, name="board-writer", daemon=True)
        self._thread.start()
        self._writer.start()

    def stop(self) -> None:
        """The reader ends; the commands queued (the lamps darkened at a game's end) go out
        first, for as long as the board takes them, then the port closes."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with self._out_cv:
            self._out_cv.notify_all()
        if self._writer is not None:
            self._writer.join(timeout=2 * WRITE_TIMEOUT_S)
        self._close()

    def quiet(self) -> bool:
        """Everything the board sent that was read has been handled, the reader waits on an
        empty port, and every command queued has been handed to the port: what a test waits
        for before it moves a simulated board's time on (readiness, not a duration)."""
        with self._out_cv:
            return self._rx_idle and not self._out and not self._writing

    @property
    def connected(self) -> bool:
        return self.session.connected

    @property
    def running(self) -> bool:
        """Its reader reads the board (started, not stopped, not ended by an internal error)."""
        return self._thread is not None and self._thread.is_alive() and not self._stop.is_set()

    def set_light(self, station: int, input_name: str, mode: str) -> None:
        """Light, blink or darken a station's button; remembered and sent
        again after a reconnect or a board reboot."""
        if mode not in LIGHT_MODES:
            raise ValueError(f"light mode {mode!r}: use one of {', '.join(LIGHT_MODES)}")
        ch = self.light_map.get((station, input_name))
        if ch is None:
            raise ValueError(f"no board light for station {station} input {input_name!r}: "
                             f"add it to the wiring profile's lights")
        with self._lock:
            self._lights[ch] = mode
            if self.session.connected:
                self._write([f"L {ch} {mode}"])

    @property
    def lockout(self) -> bool:
        """The board now connected lights a contest's first lamp itself (protocol v3)."""
        return self.session.hello_seen and self.session.info.lockout

    def arm_lockout(self, request: Arm) -> None:
        """Have the board hold a contest (sent at once; again after a loss or a reboot)."""
        with self._lock:
            self.session.arm(request)
            self._take_outbox()

    def end_lockout(self, contest: int, on: tuple[int, ...] = ()) -> None:
        """The host's decision: the board drops the contest and lights ``on`` (lamp
        channels, remembered like ``set_light`` for a reconnect)."""
        with self._lock:
            for ch in on:
                self._lights[ch] = "on"
            self.session.end(contest, on)
            self._take_outbox()

    def follow_lockout(self, box: Any) -> None:
        """Let the board light the first lamp of ``box``'s contests itself, when
        its game declares them (``GameSpec.lamp_contest``) and the board speaks
        protocol v3; the box's decision confirms or overrides it. A previous
        game's hook is closed first (the menu keeps one board for every game)."""
        from controller.box.sources.board.lockout import BoardLockout

        self.unfollow_lockout()
        if getattr(box.spec, "lamp_contest", None) is not None:
            self._follower = BoardLockout(box, self)

    def unfollow_lockout(self) -> None:
        """The game followed is over, the board kept (an evening's next game):
        it must hold no contest of it, or it lights a press's lamp by itself."""
        if self._follower is not None:
            self._follower.close()
            self._follower = None

    # ---- reader thread -------------------------------------------------------
    def _find_port(self) -> str | None:
        if callable(self._port):
            return self._port()
        if self._port is not None:
            return self._port
        return find_board_port()

    def _open(self) -> bool:
        port = self._find_port()
        if port is None:
            return False
        try:
            if self._serial_factory is not None:
                ser = self._serial_factory(port, self.baudrate, timeout=0, write_timeout=WRITE_TIMEOUT_S)
            else:
                import serial

                ser = serial.Serial(port, self.baudrate, timeout=0, write_timeout=WRITE_TIMEOUT_S)
        except (OSError, ValueError) as exc:  # SerialException is an OSError
            log.debug("board port %s not openable yet: %s", port, exc)
            return False
        with self._lock:
            self._ser = ser
        self.port_name = port
        self._ever_opened = True
        log.info("board port %s opened", port)
        self.session.opened(self.clock())
        self._flush()
        return True

    def _close(self) -> None:
        with self._lock:
            ser, self._ser = self._ser, None
        with self._out_cv:
            self._out.clear()  # for the port just closed: a new one starts with the hello
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.cancel_write()  # type: ignore[attr-defined]  # a write the board is not taking ends now
            with contextlib.suppress(OSError):
                ser.close()  # type: ignore[attr-defined]

    def _deliver(self, outputs: Iterable[Output]) -> None:
        sink = self._sink
        if sink is None:
            return
        for o in outputs:
            if isinstance(o, Press):
                sink.press(o)
            elif isinstance(o, LampLit):
                if self.on_lamp is not None:
                    self.on_lamp(o)
            elif isinstance(o, Watermark):
                sink.watermark(o)
            else:
                sink.notice(o)
                if o.station == BOARD_STATION and o.kind == NoticeKind.CONNECTED:
                    self._resend_lights()

    def _resend_lights(self) -> None:
        with self._lock:
            self._write(["L * off"] + [f"L {ch} {m}" for ch, m in sorted(self._lights.items()) if m != "off"])

    def _write(self, bodies: list[str]) -> None:
        """Caller holds the lock. Never waits for the port: what it takes at once goes now
        (nothing queued before it), the rest to the writer thread."""
        if self._ser is None or not bodies:
            return
        data = b"".join(frame(b) for b in bodies)
        with self._out_cv:
            if self._torn:  # a write given up part-way left the board half a line: end it first
                data, self._torn = b"\n" + data, False
            if not self._out and not self._writing:
                data = data[self._write_now(data):]
                if not data:
                    return
            if len(self._out) + len(data) > OUTBOX_LIMIT:
                if not self._dropped_bytes:
                    log.warning("board takes no commands (its USB is not draining): commands dropped until "
                                "it does")
                self._dropped_bytes += len(data)
                self.session.relight = True  # a lamp's command may be among them: sent again as it answers
                return
            self._out += data
            self._out_cv.notify()

    def _write_now(self, data: bytes) -> int:
        """Hand ``data`` to a non-blocking port's descriptor, as much as it takes without waiting
        (a write that would wait is the writer thread's): the bytes taken."""
        fd = getattr(self._ser, "fd", None)
        if not isinstance(fd, int):
            return 0
        try:
            return 0 if os.get_blocking(fd) else os.write(fd, data)
        except BlockingIOError:
            return 0
        except OSError as exc:  # the port went away: the reader notices
            log.debug("write to board failed (%s); the reader will notice", exc)
            return len(data)

    def _write_loop(self) -> None:
        """The writer thread: hands the queued commands to the port; a write the board does
        not take within ``WRITE_TIMEOUT_S`` is given up (its bytes dropped), and the next tried."""
        while True:
            with self._out_cv:
                while not self._out and not self._stop.is_set():
                    self._out_cv.wait()
                if not self._out:  # stopped, everything queued handed over
                    return
                data, ser = bytes(self._out), self._ser
                self._out.clear()
                self._writing = ser is not None
            if ser is None:
                continue
            try:
                ser.write(data)  # type: ignore[attr-defined]
            except Exception as exc:  # noqa: BLE001 - a timeout, a port gone: the writer goes on
                if "Timeout" not in type(exc).__name__:  # the port went away: the reader notices
                    log.debug("write to board failed (%s); the reader will notice", exc)
                    continue
                with self._out_cv:
                    self._dropped_bytes += len(data)
                    self._torn = True  # some of it may have gone: the next data starts with a newline
                self.session.relight = True  # a lamp's command may be among them: sent again as it answers
                log.warning("board took no command for %.1f s (its USB is not draining): %d bytes dropped; "
                            "decisions go on, by its stated delay while it does not answer", WRITE_TIMEOUT_S,
                            len(data))
            else:
                with self._out_cv:
                    if self._dropped_bytes:
                        log.warning("board takes commands again (%d bytes of them were dropped)", self._dropped_bytes)
                    self._dropped_bytes = 0
            finally:
                with self._out_cv:
                    self._writing = False
                    self._out_cv.notify_all()

    def _flush(self) -> None:
        with self._lock:
            self._take_outbox()

    def _take_outbox(self) -> None:
        """Caller holds the lock: the session's commands go out now."""
        box, self.session.outbox = self.session.outbox, []
        self._write(box)

    def _run(self) -> None:
        """The reader thread: its loop survives any error; if it ends anyway, the
        game is paused like for an unplugged board."""
        try:
            self._read_loop()
        except BaseException as exc:  # noqa: BLE001 - whatever killed it, the game must hear
            log.error("board reader stopped by an internal error (%s: %s): game paused; "
                      "restart the box to read the board again", type(exc).__name__, exc)
        finally:
            if not self._stop.is_set():
                self.reader_alive = False
                self._close()
                with contextlib.suppress(Exception):
                    self._deliver(self.session.closed(self.clock()))

    def _read_loop(self) -> None:
        buf = bytearray()
        discarding = False  # inside a line longer than the protocol allows: skip to its newline
        while not self._stop.is_set():
            if self._ser is None:
                if not self._open():
                    self._rx_idle = True  # no port: nothing to read
                    if not self._missing_told and not self._ever_opened:
                        self._missing_told = True  # say it once at start; the game waits (paused) until it is there
                        log.warning("no input board found (USB %04X:%s%s): plug it in; the game waits for it",
                                    BOARD_VID, "/".join(f"{p:04X}" for p in BOARD_PIDS),
                                    "" if self._port is None or callable(self._port) else f" on {self._port}")
                        if self._sink is not None:
                            self._sink.notice(InputNotice(BOARD_STATION, BOARD_INPUT, NoticeKind.DISCONNECTED, self.clock()))
                    self._guarded(lambda: self._tick(self.clock()), b"")
                    self._stop.wait(self.reconnect_delay_s)
                    continue
                buf.clear()
                discarding = False
            ser: Any = self._ser
            try:
                if not ser.in_waiting:
                    self._rx_idle = True  # everything read is handled and nothing waits in the port
                    self._await_input(ser)  # takes none of it: what comes waits in the port, seen there
                # cleared before a read may take anything, so never idle with a line read and not handled
                self._rx_idle = False
                read_from = self.clock()  # what the board sent before this is in the read below
                data = ser.read(max(1, ser.in_waiting))  # what waits, at once (the port does not block)
            except (OSError, TypeError, AttributeError, ValueError) as exc:
                log.warning("board on %s went away (%s): game paused until it is back",
                            self.port_name, exc)
                self._close()
                self._guarded(lambda: self._deliver(self.session.closed(self.clock())), b"")
                continue
            now = self.clock()
            if data:
                buf += data
                while True:
                    nl = buf.find(b"\n")
                    if nl < 0:
                        break
                    line = bytes(buf[: nl + 1])
                    del buf[: nl + 1]
                    if discarding:
                        discarding = False  # the end of an over-long line: not a line of its own
                        continue
                    self._guarded(partial(self._receive, line, now), line)
                if len(buf) > MAX_LINE:
                    log.warning("board line dropped: more than %d bytes without a newline (garbage or "
                                "wrong baud rate?): %r", MAX_LINE, bytes(buf[:60]))
                    buf.clear()
                    discarding = True
            self._guarded(partial(self._tick, now, read_from), b"")
            self._flush()

    def _await_input(self, ser: Any) -> None:
        """Until the board's next byte waits in the port, or ``READ_WAIT_S`` passed (the session's
        timers are looked at between): taking none of it, so a read never begins while the reader
        says it is idle (``quiet``). A port with no descriptor to wait on is looked at again then."""
        try:
            fd = ser.fileno()
        except (AttributeError, OSError, ValueError):  # a port object with no descriptor
            self._stop.wait(READ_WAIT_S)
            return
        select.select([fd], [], [], READ_WAIT_S)

    def _receive(self, line: bytes, now: int) -> None:
        self._deliver(self.session.receive(line, now))
        if self.session.relight:
            self.session.relight = False
            self._resend_lights()

    def _tick(self, now: int, heard_to: int | None = None) -> None:
        self._deliver(self.session.tick(now, heard_to))

    def _guarded(self, action: Callable[[], None], line: bytes) -> None:
        """Run one step of the reader; an unexpected error is logged, the line
        dropped, the session resynchronised (the board replays from the event
        that failed), and the reader goes on."""
        expected = self.session.expected
        try:
            action()
        except Exception as exc:  # noqa: BLE001 - the reader must outlive any bug or line
            self.internal_errors += 1
            # the event being handed over may not have arrived: take it again (the board
            # keeps it until acked); a press given twice has one stamp, a lost one is gone
            self.session.expected = min(self.session.expected, expected)
            log.error("board driver error on %r (%s: %s): line dropped, asking the board's hello again",
                      line[:80], type(exc).__name__, exc)
            self.session.resync(self.clock())


class BoardLights:
    """The ``controller.box.lights.Lights`` back-end for lights on the board."""

    def __init__(self, source: BoardSource) -> None:
        self.source = source

    def set(self, station: int, input: str, mode: str) -> None:
        if (station, input) in self.source.light_map:
            self.source.set_light(station, input, mode)

    def lights(self) -> list[tuple[int, str]]:
        return sorted(self.source.light_map)

    def close(self) -> None:
        wanted = self.source.session.wanted
        if wanted is not None:
            self.source.end_lockout(wanted.contest)
        for station, input_name in self.lights():
            self.source.set_light(station, input_name, "off")
