"""The RP2040 input board over USB serial (firmware/PROTOCOL.md).

The board stamps and debounces; this driver checks every line (CRC, sequence),
extends the board's 30-bit ``ticks_us`` to 64 bits, maps board time onto the
box timeline from clock requests, and hands ``Press``/``InputNotice`` objects
to the sink. It reconnects by itself: after an unplug, a board reboot or a
silence it tells the sink ``disconnected`` (the game pauses), and once the
board is back and the clock re-synced, ``connected`` (the game resumes),
followed by the presses the board held meanwhile, with their original stamps.

Two layers, h11-style: ``BoardSession`` is sans-I/O (lines and box time in,
outputs and commands out: the benchmark and tests drive it directly);
``BoardSource`` owns the serial port and the reader thread.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from controller.press import InputNotice, Press
from controller.sources.base import InputSink, Source
from controller.timeline import box_now_us
from firmware.buzzer.proto import MAX_LINE, PROTOCOL_VERSION, fields, frame, unframe

log = logging.getLogger(__name__)

#: Raspberry Pi's USB vendor id, and the product ids of MicroPython's CDC on the RP2040/RP2350
BOARD_VID = 0x2E8A
BOARD_PIDS = (0x0005, 0x0009, 0x0010)
BOARD_STATION = -1  # the station number of whole-board notices (the runtime's HOST_STATION)
BOARD_INPUT = "board"
TICKS_PERIOD = 1 << 30
TICKS_HALF = 1 << 29
LIGHT_MODES = ("on", "off", "blink")

Output = Press | InputNotice
ChannelMap = Mapping[int, tuple[int, str]]


class TickExtender:
    """Extends the board's 30-bit ticks to 64-bit µs since boot.

    Heartbeats and clock replies carry the board's own wrap count (``w=``),
    so the reference is exact even after the host was away for hours; an
    event's bare 30-bit stamp is placed within half a wrap (537 s) of it."""

    def __init__(self) -> None:
        self.ref: int | None = None

    def reference(self, wraps: int, ticks: int) -> int:
        self.ref = wraps * TICKS_PERIOD + ticks
        return self.ref

    def extend(self, ticks: int) -> int:
        if self.ref is None:
            raise ValueError("no reference yet: a heartbeat or hello must come first")
        delta = ((ticks - self.ref + TICKS_HALF) % TICKS_PERIOD) - TICKS_HALF
        return self.ref + delta


@dataclass
class ClockSample:
    board_us: int
    box_mid_us: int
    rtt_us: int


class ClockMap:
    """Board µs -> box µs from clock requests: box = board + offset (+ drift).

    Each request brackets the board's reading between the host's send and
    receive times, so the board read its clock within ±rtt/2 of the midpoint.
    Only samples whose round trip is within ``slack_us`` of the best one are
    trusted (USB scheduling only ever adds delay); with two or more spanning
    ``min_span_us`` a least-squares line also corrects the crystal's drift."""

    def __init__(self, window: int = 64, slack_us: int = 100, min_span_us: int = 2_000_000,
                 max_drift_ppm: float = 1000.0) -> None:
        self.samples: deque[ClockSample] = deque(maxlen=window)
        self.slack_us = slack_us
        self.min_span_us = min_span_us
        self.max_drift = max_drift_ppm * 1e-6
        self._ref_board = 0
        self._ref_box = 0.0
        self._slope = 0.0
        self.drift_warned = False

    @property
    def ready(self) -> bool:
        return bool(self.samples)

    def add(self, board_us: int, sent_box_us: int, recv_box_us: int) -> None:
        rtt = max(0, recv_box_us - sent_box_us)
        self.samples.append(ClockSample(board_us, (sent_box_us + recv_box_us) // 2, rtt))
        self._fit()

    def best_rtt_us(self) -> int | None:
        return min((s.rtt_us for s in self.samples), default=None)

    def _fit(self) -> None:
        best = min(s.rtt_us for s in self.samples)
        good = [s for s in self.samples if s.rtt_us <= best + self.slack_us]
        ref = good[-1]
        self._ref_board, self._ref_box, self._slope = ref.board_us, float(ref.box_mid_us - ref.board_us), 0.0
        if len(good) < 2 or good[-1].board_us - good[0].board_us < self.min_span_us:
            mins = [s for s in good if s.rtt_us == best]
            ref = mins[-1]
            self._ref_board, self._ref_box = ref.board_us, float(ref.box_mid_us - ref.board_us)
            return
        xs = [s.board_us - ref.board_us for s in good]
        ys = [s.box_mid_us - s.board_us for s in good]  # offset as a function of board time
        n = len(good)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
        if abs(slope) > self.max_drift:
            if not self.drift_warned:  # once per connection: the log must stay readable
                self.drift_warned = True
                log.warning("board clock drifts %.0f ppm against the box: ignoring the drift", slope * 1e6)
            slope = 0.0
        self._ref_board, self._ref_box, self._slope = ref.board_us, my - slope * mx, slope

    def to_box(self, board_us: int) -> int:
        if not self.samples:
            raise ValueError("board clock not synced yet")
        dx = board_us - self._ref_board
        return board_us + round(self._ref_box + self._slope * dx)


@dataclass
class BoardInfo:
    """What the board said about itself (hello and heartbeats)."""

    version: int = 0
    firmware: str = ""
    boot_id: str = ""
    inputs: set[int] = field(default_factory=set)
    lights: set[int] = field(default_factory=set)
    capacity: int = 0
    dropped_events: int = 0
    dropped_edges: int = 0
    glitches: int = 0
    scan_us: int = 0


def parse_ranges(text: str) -> set[int]:
    """'0-2,5' -> {0, 1, 2, 5} ('-' is the empty list)."""
    out: set[int] = set()
    if text in ("", "-"):
        return out
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


class BoardSession:
    """The protocol state of one board connection, without I/O.

    ``receive(line, now)`` returns what the sink must get; commands for the
    board pile up in ``outbox`` (bodies, framed by the caller)."""

    def __init__(self, channel_map: ChannelMap, *, sync_burst: int = 4,
                 sync_interval_us: int = 1_000_000, silence_us: int = 1_000_000,
                 clock_slack_us: int = 100) -> None:
        self.channel_map = dict(channel_map)
        self.sync_burst = sync_burst
        self.sync_interval_us = sync_interval_us
        self.silence_us = silence_us
        self.clock_slack_us = clock_slack_us
        self.info = BoardInfo()
        self.outbox: list[str] = []
        self.expected = 1  # the next event sequence number
        self.replay_pending = False
        self._replay_seq = 0
        self._replay_asked_us: int | None = None
        self.connected = False  # what the sink was last told
        self.known_boot: str | None = None
        self._reset_clock()
        self._silent = False
        self._last_rx_us: int | None = None
        self._unknown_channels: set[int] = set()
        self.delivered = 0

    def _reset_clock(self) -> None:
        self.ticks = TickExtender()
        self.clock = ClockMap(slack_us=self.clock_slack_us)
        self._requests: dict[int, int] = {}
        self._next_req = 1
        self._burst_left = 0
        self._next_sync_us: int | None = None
        self._held: list[tuple[str, dict[str, str], int]] = []  # events waiting for the clock
        self.hello_seen = False
        self._hello_asked_us: int | None = None

    # ---- connection events ---------------------------------------------------
    def opened(self, now_us: int) -> None:
        """A fresh port: ask who is there; nothing counts until the hello."""
        self.hello_seen = False
        self._last_rx_us = now_us
        self._silent = False
        self._hello_asked_us = now_us
        self.outbox.append("?")

    def closed(self, now_us: int) -> list[Output]:
        self.hello_seen = False
        return self._set_connected(False, now_us)

    def _set_connected(self, up: bool, now_us: int) -> list[Output]:
        if up == self.connected:
            return []
        self.connected = up
        return [InputNotice(BOARD_STATION, BOARD_INPUT, "connected" if up else "disconnected", now_us)]

    def tick(self, now_us: int) -> list[Output]:
        """Time passes: periodic clock requests, silence detection, and a
        hello asked for again if the first question or answer was lost."""
        out: list[Output] = []
        asked_hello = self._hello_asked_us
        if not self.hello_seen and asked_hello is not None and now_us - asked_hello >= self.silence_us:
            log.warning("no hello from the board after %.1f s: asking again", (now_us - asked_hello) / 1e6)
            self._hello_asked_us = now_us
            self.outbox.append("?")
        if (self.hello_seen and self._last_rx_us is not None and not self._silent
                and now_us - self._last_rx_us >= self.silence_us):
            self._silent = True
            log.warning("board silent for %.1f s (no heartbeat): game paused until it talks again",
                        (now_us - self._last_rx_us) / 1e6)
            out += self._set_connected(False, now_us)
        asked = self._replay_asked_us
        if (self.replay_pending and self.hello_seen and not self._silent and asked is not None
                and now_us - asked >= self.silence_us):
            log.warning("no answer to the replay request: asking again")
            self._ask_replay(self._replay_seq, now_us)
        if self.hello_seen and self._next_sync_us is not None and now_us >= self._next_sync_us:
            self._request_clock(now_us)
            self._next_sync_us = now_us + self.sync_interval_us
        return out

    def _request_clock(self, now_us: int) -> None:
        rid = self._next_req
        self._next_req += 1
        self._requests[rid] = now_us
        if len(self._requests) > 32:  # replies that never came
            del self._requests[min(self._requests)]
        self.outbox.append(f"T {rid}")

    # ---- lines in ------------------------------------------------------------
    def receive(self, line: bytes, now_us: int) -> list[Output]:
        try:
            body = unframe(line)
        except ValueError as exc:
            if self.hello_seen:
                log.warning("board line dropped: %s: %r", exc, line[:80])
            else:
                log.debug("board line before hello dropped: %s: %r", exc, line[:80])
            return []
        parts = body.split()
        if not parts:
            log.warning("board line dropped: empty body: %r", line[:80])
            return []
        out: list[Output] = []
        if self._silent:
            self._silent = False
            log.warning("board talking again after %.1f s of silence",
                        (now_us - (self._last_rx_us or now_us)) / 1e6)
            if self.hello_seen:
                self._ask_replay(self.expected - 1, now_us)
                self._start_sync(now_us)
        self._last_rx_us = now_us
        kind, args = parts[0], parts[1:]
        try:
            if kind == "H":
                out += self._hello(fields(args), now_us)
            elif not self.hello_seen:
                log.debug("board line before hello ignored: %s", body)
            elif kind in ("P", "N"):
                out += self._event(kind, args, now_us)
            elif kind == "B":
                out += self._heartbeat(fields(args), now_us)
            elif kind == "C":
                out += self._clock_reply(fields(args), now_us)
            elif kind == "K":
                self._replay_started(fields(args))
            elif kind == "G":
                out += self._glitch(fields(args))
            elif kind == "X":
                log.warning("board reports an error: %s", body[2:])
            else:
                log.warning("board line of unknown type %r dropped (newer firmware?): %s", kind, body)
        except (KeyError, ValueError, IndexError) as exc:
            log.warning("board line dropped: malformed %s line (%s): %s", kind, exc, body)
        return out

    def _hello(self, f: dict[str, str], now_us: int) -> list[Output]:
        version = int(f["v"])
        if version != PROTOCOL_VERSION:
            log.error("board speaks protocol v%d, this driver v%d: update the firmware "
                      "(`buzzerbox firmware install`) or the box software", version, PROTOCOL_VERSION)
            return []
        out: list[Output] = []
        boot = f["boot"]
        info = self.info
        if self.known_boot is not None and boot != self.known_boot:
            log.warning("board rebooted (boot id %s -> %s): its clock restarted, re-syncing; "
                        "presses it had not sent yet are lost", self.known_boot, boot)
            if self._held and self.clock.ready:  # accepted before the reboot: the old clock maps them
                held, self._held = self._held, []
                for k, hf, seq in held:
                    out += self._deliver(k, hf, seq)
            out += self._set_connected(False, now_us)
            self.expected = 1
            self._ask_replay(0, now_us)
            info.dropped_events = info.dropped_edges = info.glitches = 0
            self._reset_clock()
        elif self.known_boot is None:
            self.expected = int(f["s"]) + 1  # a fresh driver: older events are an earlier session's
            self._ask_replay(self.expected - 1, now_us)
        else:
            self._ask_replay(self.expected - 1)  # same board back: resend what we lack
        self.known_boot = boot
        self.hello_seen = True
        info.version, info.firmware, info.boot_id = version, f.get("fw", "?"), boot
        info.inputs = parse_ranges(f.get("in", "-")) | parse_ranges(f.get("sr", "-"))
        info.lights = parse_ranges(f.get("lights", "-"))
        info.capacity = int(f.get("cap", 0))
        missing = sorted(ch for ch in self.channel_map if ch not in info.inputs)
        if missing:
            log.warning("channel map uses board channels %s that this board does not read "
                        "(it reads %s): check wiring/board-pinmap.toml", missing, f.get("in"))
        self.ticks.reference(int(f["w"]), int(f["t"]))
        self._start_sync(now_us)
        log.info("board %s firmware %s (protocol v%d) says hello", boot, info.firmware, version)
        return out

    def _ask_replay(self, seq: int, now_us: int | None = None) -> None:
        self.replay_pending = True
        self._replay_seq = seq
        self._replay_asked_us = now_us if now_us is not None else self._last_rx_us
        self.outbox.append(f"R {seq}")

    def _start_sync(self, now_us: int) -> None:
        self._burst_left = self.sync_burst
        for _ in range(self.sync_burst):
            self._request_clock(now_us)
        self._next_sync_us = now_us + self.sync_interval_us

    def _clock_reply(self, f: dict[str, str], now_us: int) -> list[Output]:
        sent = self._requests.pop(int(f["r"]), None)
        board_us = self.ticks.reference(int(f["w"]), int(f["t"]))
        if sent is None:
            log.debug("clock reply %s to no pending request (from before a reconnect)", f["r"])
            return []
        self.clock.add(board_us, sent, now_us)
        if self._burst_left:
            self._burst_left -= 1
        return self._maybe_ready(now_us)

    def _maybe_ready(self, now_us: int) -> list[Output]:
        if self.connected or self._burst_left or not self.clock.ready or self._silent:
            return []
        out = self._set_connected(True, now_us)
        log.info("board connected and clock synced (round trip %d µs): game can go on",
                 self.clock.best_rtt_us() or 0)
        held, self._held = self._held, []
        for kind, f, seq in held:
            out += self._deliver(kind, f, seq)
        return out

    def _replay_started(self, f: dict[str, str]) -> None:
        start, lost = int(f["from"]), int(f["lost"])
        if lost or start > self.expected:
            missing = start - self.expected
            log.error("board no longer holds %d event(s) (seq %d..%d): they were dropped on the "
                      "board while its buffer was full", missing, self.expected, start - 1)
            self.expected = start
        self.replay_pending = False

    def _heartbeat(self, f: dict[str, str], now_us: int) -> list[Output]:
        if f.get("b", self.known_boot) != self.known_boot:
            log.warning("heartbeat from boot %s, expected %s: the board rebooted; asking hello",
                        f.get("b"), self.known_boot)
            self.hello_seen = False
            self.outbox.append("?")
            return self._set_connected(False, now_us)
        self.ticks.reference(int(f["w"]), int(f["t"]))
        info = self.info
        dropped, edges, glitches = int(f["d"]), int(f["e"]), int(f["g"])
        if dropped > info.dropped_events:
            log.warning("board dropped %d press event(s) (its buffer of %d was full: the host "
                        "was not reading); the earliest were kept", dropped - info.dropped_events,
                        info.capacity)
        if edges > info.dropped_edges:
            log.warning("board dropped %d raw edge(s): its IRQ ring overflowed (bounce storm or a "
                        "floating input?)", edges - info.dropped_edges)
        info.dropped_events, info.dropped_edges, info.glitches = dropped, edges, glitches
        info.scan_us = int(f.get("x", 0))
        last_sent = int(f["s"])
        if not self.replay_pending and last_sent >= self.expected:
            log.warning("sequence gap: %d event(s) sent by the board never arrived (seq %d..%d); "
                        "asking the board to resend", last_sent - self.expected + 1, self.expected,
                        last_sent)
            self._ask_replay(self.expected - 1, now_us)
        if self.connected:
            self.outbox.append(f"A {self.expected - 1}")
        return self._maybe_ready(now_us)

    def _event(self, kind: str, args: list[str], now_us: int) -> list[Output]:
        seq = int(args[0])
        f = fields(args[1:])
        if self.replay_pending:
            log.debug("event %d dropped while waiting for the replay to start", seq)
            return []
        if seq < self.expected:
            log.debug("event %d again (already delivered): ignored", seq)
            return []
        if seq > self.expected:
            log.warning("sequence gap: %d event(s) missing (expected seq %d, got %d); asking the "
                        "board to resend", seq - self.expected, self.expected, seq)
            self._ask_replay(self.expected - 1, now_us)
            return []
        self.expected = seq + 1
        if not self.connected:
            self._held.append((kind, f, seq))
            return []
        return self._deliver(kind, f, seq)

    def _where(self, ch: int) -> tuple[int, str] | None:
        where = self.channel_map.get(ch)
        if where is None and ch not in self._unknown_channels:
            self._unknown_channels.add(ch)
            log.warning("board channel %d is not in the channel map (wiring profile): ignored", ch)
        return where

    def _deliver(self, kind: str, f: dict[str, str], seq: int) -> list[Output]:
        ch = int(f["c"])
        t_box = self.clock.to_box(self.ticks.extend(int(f["t"])))
        where = self._where(ch)
        if where is None:
            return []
        station, name = where
        self.delivered += 1
        if kind == "P":
            return [Press(station, name, t_box, max(1, int(f.get("p", 1))), int(f.get("n", 1)))]
        return [InputNotice(station, name, f["k"], t_box)]

    def _glitch(self, f: dict[str, str]) -> list[Output]:
        if not self.clock.ready:
            return []
        where = self._where(int(f["c"]))
        if where is None:
            return []
        return [InputNotice(where[0], where[1], "glitch", self.clock.to_box(self.ticks.extend(int(f["t"]))))]


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
    precision_us = 1

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
                                    silence_us=silence_us, clock_slack_us=clock_slack_us)
        self._serial_factory = serial_factory
        self._lights: dict[int, str] = {}
        self._lock = threading.Lock()
        self._ser: object | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._sink: InputSink | None = None
        self.port_name: str | None = None
        self._missing_told = False
        self._ever_opened = False  # later absences are the session's "went away"

    @classmethod
    def from_profile(cls, profile: Any, **kwargs: Any) -> BoardSource:
        """The board a wiring profile (source = "board") describes."""
        return cls(profile.input_pins(), profile.light_pins(), **kwargs)

    def report_delay_us(self, debounce: Any) -> int:
        """The board debounces before it sends, so the box cannot see a press
        still bouncing there: wait out the bounce window, the glitch time and
        the USB hand-over before deciding."""
        return debounce.bounce_us + debounce.glitch_us + 3_000

    def lights(self) -> BoardLights:
        """The board's light outputs as a light back-end for the display loop."""
        return BoardLights(self)

    # ---- public --------------------------------------------------------------
    def start(self, sink: InputSink) -> None:
        self._sink = sink
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="board-reader", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._close()

    @property
    def connected(self) -> bool:
        return self.session.connected

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
                ser = self._serial_factory(port, self.baudrate, timeout=0.02)
            else:
                import serial

                ser = serial.Serial(port, self.baudrate, timeout=0.02)
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
        if ser is not None:
            with contextlib.suppress(OSError):
                ser.close()  # type: ignore[attr-defined]

    def _deliver(self, outputs: Iterable[Output]) -> None:
        sink = self._sink
        if sink is None:
            return
        for o in outputs:
            if isinstance(o, Press):
                sink.press(o)
            else:
                sink.notice(o)
                if o.station == BOARD_STATION and o.kind == "connected":
                    self._resend_lights()

    def _resend_lights(self) -> None:
        with self._lock:
            self._write(["L * off"] + [f"L {ch} {m}" for ch, m in sorted(self._lights.items()) if m != "off"])

    def _write(self, bodies: list[str]) -> None:
        """Caller holds the lock."""
        if self._ser is None or not bodies:
            return
        try:
            self._ser.write(b"".join(frame(b) for b in bodies))  # type: ignore[attr-defined]
        except OSError as exc:
            log.debug("write to board failed (%s); the reader will notice", exc)

    def _flush(self) -> None:
        with self._lock:
            box, self.session.outbox = self.session.outbox, []
            self._write(box)

    def _run(self) -> None:
        buf = bytearray()
        while not self._stop.is_set():
            if self._ser is None:
                if not self._open():
                    if not self._missing_told and not self._ever_opened:
                        self._missing_told = True  # say it once at start; the game waits (paused) until it is there
                        log.warning("no input board found (USB %04X:%s%s): plug it in; the game waits for it",
                                    BOARD_VID, "/".join(f"{p:04X}" for p in BOARD_PIDS),
                                    "" if self._port is None or callable(self._port) else f" on {self._port}")
                        if self._sink is not None:
                            self._sink.notice(InputNotice(BOARD_STATION, BOARD_INPUT, "disconnected", self.clock()))
                    self._deliver(self.session.tick(self.clock()))
                    self._stop.wait(self.reconnect_delay_s)
                    continue
                buf.clear()
            ser = self._ser
            try:
                data = ser.read(max(1, ser.in_waiting))  # type: ignore[attr-defined]
            except (OSError, TypeError, AttributeError) as exc:
                log.warning("board on %s went away (%s): game paused until it is back",
                            self.port_name, exc)
                self._close()
                self._deliver(self.session.closed(self.clock()))
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
                    self._deliver(self.session.receive(line, now))
                if len(buf) > MAX_LINE:
                    log.warning("board line dropped: %d bytes without a newline (garbage or wrong "
                                "baud rate?): %r", len(buf), bytes(buf[:60]))
                    buf.clear()
            self._deliver(self.session.tick(now))
            self._flush()


class BoardLights:
    """The ``controller.lights.Lights`` back-end for lights on the board."""

    def __init__(self, source: BoardSource) -> None:
        self.source = source

    def set(self, station: int, input: str, mode: str) -> None:
        if (station, input) in self.source.light_map:
            self.source.set_light(station, input, mode)

    def lights(self) -> list[tuple[int, str]]:
        return sorted(self.source.light_map)

    def close(self) -> None:
        for station, input_name in self.lights():
            self.source.set_light(station, input_name, "off")
