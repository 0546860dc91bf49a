"""A simulated input board: the firmware's own code under CPython, on a pty.

``BoardSim`` runs ``firmware/buzzer`` (the very modules the Pico runs) with
small stand-ins for ``machine`` (``Pin`` with ``irq``, ``SPI`` for the
SN74HCS165/74HC595 chains) and a virtual ``ticks_us``, and speaks the protocol
through a pseudo-terminal (``os.openpty``). The driver opens the pty's device
path like a real ``/dev/ttyACM0``, so the whole path firmware logic → serial
bytes → driver → sink runs in tests and in ``buzzerbox demo --board-sim``.

Time: the simulator owns a virtual clock in µs (``now_us``). The board's
``ticks_us`` is that clock since boot, plus ``start_ticks``, on 30 bits.
``host_clock()`` gives the box timeline (``now_us + host_offset_us``) for a
driver in tests, so an edge injected at ``now_us == X`` must come out as a
press at box time ``X + host_offset_us``. ``realtime=True`` lets the virtual
clock follow ``time.monotonic`` (the demo); otherwise it moves only in
``advance`` (deterministic tests).

Faults on demand: ``reboot``, ``unplug``/``replug`` (closes and reopens the
pty: the device path changes, as a real re-enumeration can), ``stop_reading``/
``resume_reading`` (the host stops draining USB: the board can write nothing),
``inject`` (raw bytes on the wire), ``drop_lines``/``corrupt_lines`` (board ->
host), ``corrupt_commands``/``lose_commands`` (host -> board).

USB and crystals: ``up_delay_us``/``down_delay_us`` hold board -> host and
host -> board bytes for that much virtual time (asymmetric on purpose: the
clock mapping must stay within the error it declares); ``drift_ppm`` makes
the board's crystal run fast or slow against the box; ``irq_service_us`` is
how long one hard IRQ handler takes, so pins changing together are stamped
in GPIO order, one service apart, as MicroPython on the rp2 does.
``capture="pio"`` replaces the pin IRQs by ``PioModel`` (the PIO sampler's
output, firmware/buzzer/pio.py). A pin map with ``PIO_LOCKOUT`` (the lockout
box's) gives the board its ``PioBells`` over ``firmware/rp2_model.py`` (the
state machines of ``bell_program``, modelled): their lamp GPIOs light the
light channels they share (``lights()``). While a lockout contest is armed, the loop
also runs at the instant a competing press is confirmed (on the Pico the loop
spins for it), so a lamp lights at its confirmation in virtual time.
"""

from __future__ import annotations

import fcntl
import heapq
import itertools
import os
import select
import struct
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable, Iterable, Mapping
from types import ModuleType, SimpleNamespace
from typing import Any

from controller.box.sources.board import BoardSource, ChannelMap
from controller.box.timeline import box_now_us
from firmware import rp2_model
from firmware.buzzer import app
from firmware.buzzer import pinmap as default_pinmap
from firmware.buzzer.debounce import TICKS_MASK

sys.modules.setdefault("rp2", rp2_model)  # what firmware/buzzer/pio_lockout.py imports, off the Pico
from firmware.buzzer import pio_lockout  # noqa: E402 - needs its rp2 first

SR_BASE = app.SR_BASE


class PioModel:
    """What the PIO sampler (firmware/buzzer/pio.py) hands the firmware, modelled
    in CPython: it samples all GPIO levels every ``period_us`` and, when the
    sample differs from the last, pushes (timer µs of that sample, the 32-bit
    sample). So changes are stamped at the next sampling instant, and pins that
    change together share one stamp whatever their GPIO numbers."""

    def __init__(self, pinmap: Any, ticks_us: Callable[[], int], period_us: int = 1) -> None:
        self.period_us = max(1, period_us)
        self.ticks_us = ticks_us
        self.levels = 0
        for gp in pinmap.DIRECT.values():
            self.levels |= 1 << gp
        self.fifo: list[tuple[int, int]] = []

    def change(self, gp: int, level: int) -> None:
        t = self.ticks_us()
        t = (t + (-t) % self.period_us) & TICKS_MASK  # the next sampling instant
        self.levels = self.levels | (1 << gp) if level else self.levels & ~(1 << gp)
        if self.fifo and self.fifo[-1][0] == t:
            self.fifo[-1] = (t, self.levels)  # the same sample saw both changes
        else:
            self.fifo.append((t, self.levels))

    def drain(self, board: app.Board) -> None:
        words, self.fifo = self.fifo, []
        for t, sample in words:
            app.pio_words_to_edges(board, t, sample)


def _waiting(fd: int | None) -> int:
    """Bytes waiting to be read on this end of the pty (none on a closed one). ``select``
    first: it waits for the kernel to move bytes written on the other end into this
    end's queue, which FIONREAD alone does not (they may still be in flight)."""
    if fd is None or not select.select([fd], [], [], 0)[0]:
        return 0
    return int(struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))[0])


class _Link:
    """The board's end of the pty: non-blocking, refuses writes while the host
    is not reading or the cable is out; holds bytes for the USB delays."""

    def __init__(self, sim: BoardSim) -> None:
        self.sim = sim
        self.inbound: list[tuple[int, bytes]] = []  # (due virtual µs, host -> board bytes)
        self._partial = b""  # a host -> board line not yet whole (only while lines are being lost)
        self.outbound: list[tuple[int, bytes]] = []  # (due virtual µs, board -> host bytes)

    def read(self) -> bytes:
        sim = self.sim
        fd = sim._master if sim.draining else None
        if fd is not None:
            try:
                data = os.read(fd, 4096)
            except (BlockingIOError, OSError):
                data = b""
            if data and sim._corrupt_cmds > 0:
                sim._corrupt_cmds -= 1
                data = data[:1] + bytes([data[1] ^ 0x04]) + data[2:] if len(data) > 1 else b"\x04"
            if data and sim._lose:
                data = self._lose_lines(data)
            if data:
                self.inbound.append((sim.now_us + sim.down_delay_us, data))
        out = b""
        while self.inbound and self.inbound[0][0] <= sim.now_us:
            out += self.inbound.pop(0)[1]
        return out

    def _lose_lines(self, data: bytes) -> bytes:
        """Whole host -> board lines starting with a lost prefix vanish (``lose_commands``)."""
        sim = self.sim
        self._partial += data
        keep = b""
        while b"\n" in self._partial:
            line, self._partial = self._partial.split(b"\n", 1)
            prefix = next((p for p, n in sim._lose.items() if n > 0 and line.startswith(p)), None)
            if prefix is None:
                keep += line + b"\n"
            else:
                sim._lose[prefix] -= 1
                if not sim._lose[prefix]:
                    del sim._lose[prefix]
        return keep

    def flush(self) -> None:
        """Bytes whose USB delay is over reach the host."""
        sim = self.sim
        while self.outbound and self.outbound[0][0] <= sim.now_us and sim._master is not None:
            data = self.outbound[0][1]
            try:
                n = os.write(sim._master, data)
            except (BlockingIOError, OSError):
                return
            if n < len(data):
                self.outbound[0] = (self.outbound[0][0], data[n:])
                return
            self.outbound.pop(0)

    def write(self, data: bytes) -> int:
        sim = self.sim
        fd = sim._master
        if fd is None or not sim.reading:
            return 0
        if len(self.outbound) > 64:
            return 0  # the delayed USB pipe is full: the board must wait
        whole = data.endswith(b"\n") and sim._line_start and data[:1] in sim._fault_kinds
        if whole and sim._drop > 0:
            sim._drop -= 1
            return len(data)
        if whole and sim._corrupt > 0:
            sim._corrupt -= 1
            data = data[:3] + bytes([data[3] ^ 0x01]) + data[4:]  # one flipped bit
        if sim.up_delay_us:
            self.outbound.append((sim.now_us + sim.up_delay_us, bytes(data)))
            sim._line_start = True
            return len(data)
        try:
            n = os.write(fd, data)
        except (BlockingIOError, OSError):
            return 0
        sim._line_start = n == len(data)
        return n


class _FakeSPI:
    """SPI0 with an SN74HCS165 chain on MISO and a 74HC595 chain on MOSI."""

    def __init__(self, sim: BoardSim) -> None:
        self.sim = sim

    def readinto(self, buf: bytearray) -> None:
        buf[:] = self.sim._sr_latched

    def write(self, data: bytes) -> None:
        self.sim._light_shift = bytes(data)


def fake_machine(sim: BoardSim) -> SimpleNamespace:
    """A stand-in for MicroPython's ``machine`` module, as much as the firmware uses."""
    pins: dict[int, Any] = {}

    class Pin:
        IN, OUT, PULL_UP = 0, 1, 1
        IRQ_FALLING, IRQ_RISING = 4, 8
        id: int
        level: int
        handler: Callable[[Any], None] | None
        flags: int  # the trigger of the IRQ being served (what irq().flags() returns)

        def __new__(cls, pin_id: int, mode: int = -1, pull: int = -1, value: int | None = None) -> Pin:
            pin = pins.get(pin_id)
            if pin is None:
                pin = super().__new__(cls)
                pin.id, pin.level, pin.handler, pin.flags = pin_id, 1, None, 0
                pins[pin_id] = pin
            if value is not None:
                pin.value(value)
            return pin

        def value(self, v: int | None = None) -> int:
            if v is None:
                return self.level
            if self.id == sim.pinmap.SR_LOAD and v == 0:
                sim._sr_latched = bytes(sim._sr_levels)  # /PL low: the SN74HCS165s load
            if self.id == sim.pinmap.LIGHT_LATCH and v == 1 and self.level == 0:
                sim._light_out = sim._light_shift  # RCLK rising: the 74HC595s show
            self.level = v
            return v

        def irq(self, handler: Callable[[Any], None] | None = None, trigger: int = 0,
                hard: bool = False) -> Any:
            self.handler = handler
            return SimpleNamespace(flags=lambda: self.flags)

    return SimpleNamespace(Pin=Pin, SPI=lambda *a, **kw: _FakeSPI(sim), pins=pins)


class BoardSim:
    """The firmware running on a virtual clock behind a pty. See the module doc."""

    STEP_US = 1000  # the main loop runs at least this often in virtual time

    def __init__(self, pinmap: ModuleType | Any = default_pinmap, *, start_ticks: int = 0,
                 host_offset_us: int = 1_000_000_000, realtime: bool = False,
                 event_cap: int = 256, edge_cap: int = 512, up_delay_us: int = 0,
                 down_delay_us: int = 0, drift_ppm: float = 0.0, irq_service_us: int = 0,
                 capture: str = "irq", pio_period_us: int = 1) -> None:
        self.pinmap = pinmap
        self.up_delay_us, self.down_delay_us = up_delay_us, down_delay_us
        self.drift_ppm = drift_ppm
        self.irq_service_us = irq_service_us
        self.capture = capture
        self.pio_period_us = pio_period_us
        self._irq_skew = 0  # µs added to the board's clock while an IRQ service runs
        self._corrupt_cmds = 0
        self._lose: dict[bytes, int] = {}  # host -> board lines with this prefix: how many more to lose
        self.start_ticks = start_ticks
        self.host_offset_us = host_offset_us
        self.realtime = realtime
        self.event_cap, self.edge_cap = event_cap, edge_cap
        self._t0_real = time.monotonic_ns() // 1000
        self.now_us = 0
        self._boot_at = 0
        self._boots = itertools.count(1)
        self._lock = threading.RLock()
        self._queue: list[tuple[int, int, int, int]] = []  # (at_us, order, channel, level)
        self._order = itertools.count()
        self._sr_levels = bytearray([0xFF] * pinmap.SR_CHIPS)
        self._sr_latched = bytes(self._sr_levels)
        self._light_shift = b""
        self._light_out = b""
        self.reading = True
        self.draining = True  # the board's USB takes the host's bytes (``stop_draining``)
        self._drop = 0
        self._corrupt = 0
        self._fault_kinds = b"PN"
        self._line_start = True
        self._master: int | None = None
        self._slave: int | None = None
        self.port: str | None = None
        self._open_pty()
        self.link = _Link(self)
        self.board: app.Board
        self._boot()
        self._running = True
        self._thread = threading.Thread(target=self._serve, name="board-sim", daemon=True)
        self._thread.start()

    # ---- clock -----------------------------------------------------------------
    def ticks_us(self) -> int:
        """The board's ``time.ticks_us()``."""
        since = self.now_us - self._boot_at
        if self.drift_ppm:
            since += int(since * self.drift_ppm * 1e-6)
        return (self.start_ticks + since + self._irq_skew) & TICKS_MASK

    def host_clock(self) -> int:
        """The box timeline for a driver talking to this simulator."""
        return self.now_us + self.host_offset_us

    def box_time(self, at_us: int) -> int:
        """Where an edge injected at virtual ``at_us`` lands on the box timeline."""
        return at_us + self.host_offset_us

    # ---- the pty ---------------------------------------------------------------
    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._line_start = True
        self.port = os.ttyname(slave)

    def _close_pty(self) -> None:
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self.port = None

    # ---- the board -------------------------------------------------------------
    def _boot(self) -> None:
        self._boot_at = self.now_us
        self.machine = fake_machine(self)
        self.boot_id = f"{0x51D00000 + next(self._boots):08x}"
        self.link.inbound.clear()
        self.link.outbound.clear()
        self.pio = PioModel(self.pinmap, self.ticks_us, self.pio_period_us) if self.capture == "pio" else None
        self.rp2: rp2_model.Bells | None = None
        bells = None
        if getattr(self.pinmap, "PIO_LOCKOUT", None):
            self.rp2 = rp2_model.Bells(self.ticks_us, pio_lockout.BELL_LEAD, pio_lockout.BELL_STEP)
            bells = pio_lockout.PioBells.from_pinmap(self.pinmap, self.machine.Pin, self.rp2.StateMachine)
        self.board = app.Board(self.machine, self.link, self.pinmap, self.ticks_us, self.boot_id,
                               edge_cap=self.edge_cap, event_cap=self.event_cap, capture=self.capture,
                               sampler=self.pio, pio=bells)

    def reboot(self, start_ticks: int = 0) -> None:
        """Power-cycle the board: its clock restarts, unsent events are gone."""
        with self._lock:
            self.start_ticks = start_ticks
            self._queue.clear()
            self._sr_levels[:] = b"\xff" * len(self._sr_levels)
            self._boot()

    def unplug(self) -> None:
        """Pull the cable (the board keeps running on its own power)."""
        with self._lock:
            self._close_pty()

    def replug(self) -> None:
        with self._lock:
            if self._master is None:
                self._open_pty()

    def stop_reading(self) -> None:
        """The host stops draining USB: the board's writes go nowhere."""
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def stop_draining(self) -> None:
        """The board's USB stops taking the host's bytes (a board wedged in its loop): once
        the pty's buffer is full, the host's writes wait (or time out)."""
        self.draining = False

    def resume_draining(self) -> None:
        self.draining = True

    def inject(self, raw: bytes) -> None:
        """Raw bytes on the wire, as if the board had sent them."""
        with self._lock:
            if self._master is not None:
                os.write(self._master, raw)

    def drop_lines(self, n: int = 1, kinds: bytes = b"PN") -> None:
        """The next ``n`` whole lines of these types (default: events) are lost on the wire."""
        with self._lock:
            self._drop += n
            self._fault_kinds = kinds

    def corrupt_commands(self, n: int = 1) -> None:
        """The next ``n`` reads of host -> board bytes get one bit flipped."""
        with self._lock:
            self._corrupt_cmds += n

    def lose_commands(self, prefix: bytes, n: int = 1) -> None:
        """The next ``n`` host -> board lines starting with ``prefix`` never arrive."""
        with self._lock:
            self._lose[prefix] = self._lose.get(prefix, 0) + n

    def deliver_commands(self) -> None:
        """Host -> board lines arrive again: the losses still pending are cancelled."""
        with self._lock:
            self._lose.clear()

    def unread_by_host(self) -> int:
        """Bytes the board wrote that the host has not read yet (0 once the driver
        has caught up, or while the cable is out): what tests wait on, not a duration."""
        with self._lock:
            return _waiting(self._slave)

    def unread_by_board(self) -> int:
        """Bytes the host wrote that the board's loop has not taken yet."""
        with self._lock:
            return _waiting(self._master)

    def corrupt_lines(self, n: int = 1, kinds: bytes = b"PN") -> None:
        """The next ``n`` whole lines of these types get one bit flipped on the wire."""
        with self._lock:
            self._corrupt += n
            self._fault_kinds = kinds

    # ---- inputs ----------------------------------------------------------------
    def edges(self, channel: int, changes: Iterable[tuple[int, int]], at_us: int | None = None) -> None:
        """Schedule raw level changes on ``channel``: ``(delay_us, level)``
        pairs counted from ``at_us`` (default: now)."""
        if channel < SR_BASE and channel not in self.pinmap.DIRECT:
            raise ValueError(f"board channel {channel} is not wired (direct channels: {sorted(self.pinmap.DIRECT)})")
        if channel >= SR_BASE + 8 * self.pinmap.SR_CHIPS:
            raise ValueError(f"board channel {channel} is beyond the {self.pinmap.SR_CHIPS} shift registers")
        with self._lock:
            base = self.now_us if at_us is None else at_us
            for delay, level in changes:
                heapq.heappush(self._queue, (base + delay, next(self._order), channel, level))

    def press(self, channel: int, at_us: int | None = None, hold_us: int = 80_000,
              bounce: Iterable[int] = (200, 350, 600)) -> int:
        """A finger: the line goes active at ``at_us`` (default now + 1 ms),
        bounces (toggles at the given delays), settles, is released after
        ``hold_us``. Returns the virtual time of the first edge."""
        at = self.now_us + 1000 if at_us is None else at_us
        active = self.pinmap.ACTIVE_LEVEL
        changes = [(0, active)]
        level = active
        for d in bounce:
            level = 1 - level
            changes.append((d, level))
        if level != active:
            changes.append((max(bounce, default=0) + 50, active))
        changes += [(hold_us, 1 - active), (hold_us + 150, active), (hold_us + 300, 1 - active)]
        self.edges(channel, changes, at)
        return at

    def _apply_all(self, changes: list[tuple[int, int]]) -> None:
        """Level changes at one instant. Direct pins: the IRQ serves the pending
        pins one after another in GPIO order, ``irq_service_us`` apart (or the PIO
        model samples them all at once)."""
        direct = sorted((self.pinmap.DIRECT[ch], ch, lv) for ch, lv in changes if ch < SR_BASE)
        served = 0
        for _gp, ch, level in direct:
            pin = self.machine.Pin(self.pinmap.DIRECT[ch])
            if pin.level == level:
                continue
            pin.level = level
            if self.rp2 is not None:
                self.rp2.level(pin.id, level)
            if self.pio is not None:
                self.pio.change(pin.id, level)
            elif pin.handler is not None:
                pin.flags = 8 if level else 4  # IRQ_RISING / IRQ_FALLING
                self._irq_skew = served * self.irq_service_us
                pin.handler(pin)  # the hard IRQ, at the current virtual time
                self._irq_skew = 0
                served += 1
        for ch, level in changes:
            if ch >= SR_BASE:
                self._apply(ch, level)

    def _apply(self, channel: int, level: int) -> None:
        if channel < SR_BASE:
            self._apply_all([(channel, level)])
        else:
            chip, bit = divmod(channel - SR_BASE, 8)
            if level:
                self._sr_levels[chip] |= 1 << bit
            else:
                self._sr_levels[chip] &= ~(1 << bit) & 0xFF

    def _advance_to(self, target: int) -> None:
        while self.now_us < target:
            nxt = min(target, self.now_us + self.STEP_US)
            if self._queue and self._queue[0][0] < nxt:
                nxt = max(self._queue[0][0], self.now_us)
            due = self.board.lockout_due(self.ticks_us())
            if due >= 0:  # the Pico's loop waits for a lockout confirmation (Board._spin): so does this one
                nxt = max(self.now_us + 1, min(nxt, self.now_us + due))
            self.now_us = nxt
            due = []
            while self._queue and self._queue[0][0] <= self.now_us:
                _, _, ch, level = heapq.heappop(self._queue)
                due.append((ch, level))
            if due:
                self._apply_all(due)
            self.board.step()
            self.link.flush()

    def advance(self, us: int, step_us: int | None = None) -> None:
        """Let ``us`` of virtual time pass: edges fire, the firmware loop runs
        (every ``step_us``, default ``STEP_US``: long idle stretches may step coarser)."""
        with self._lock:
            saved = self.STEP_US
            self.STEP_US = step_us or saved
            try:
                self._advance_to(self.now_us + us)
            finally:
                self.STEP_US = saved

    def step(self) -> None:
        """Run the firmware loop once without moving time."""
        with self._lock:
            self.board.step()

    # ---- outputs ---------------------------------------------------------------
    def lights(self) -> dict[int, bool]:
        """What the lamps show now: light channel -> lit. The 74HC595 chain's outputs, and
        with the PIO lockout each bell's lamp GPIO, wired-OR with the light channel it shares."""
        out = self._light_out
        n = len(out)
        shown = {8 * chip + bit: bool(out[n - 1 - chip] >> bit & 1) for chip in range(n) for bit in range(8)}
        if self.rp2 is not None:
            cfg = self.pinmap.PIO_LOCKOUT
            lit = self.rp2.lit()
            for ch, gp in cfg["lamps"].items():
                if gp in lit:
                    shown[cfg["lights"][ch]] = True
        return shown

    def pio_lamps(self) -> set[int]:
        """The bells (input channels) whose PIO lamp GPIO is lit now (none without the PIO lockout)."""
        if self.rp2 is None:
            return set()
        lit = self.rp2.lit()
        return {ch for ch, gp in self.pinmap.PIO_LOCKOUT["lamps"].items() if gp in lit}

    def _serve(self) -> None:
        while self._running:
            with self._lock:
                if self.realtime:
                    self._advance_to(time.monotonic_ns() // 1000 - self._t0_real)
                else:
                    self.board.step()
                    self.link.flush()
                fd = self._master
            try:
                if fd is not None:
                    select.select([fd], [], [], 0.002)
                else:
                    time.sleep(0.002)
            except (OSError, ValueError):
                time.sleep(0.002)

    def close(self) -> None:
        self._running = False
        self._thread.join(timeout=2)
        with self._lock:
            self._close_pty()


def start_simulated_board(channel_map: ChannelMap,
                          light_map: Mapping[tuple[int, str], int] | None = None,
                          **sim_args: Any) -> tuple[BoardSim, BoardSource]:
    """For ``buzzerbox demo --board-sim``: a simulator on real time and a
    driver on the box clock, wired together through the pty. Call
    ``source.start(sink)`` to begin; ``sim.press(channel)`` is a player."""
    sim_args.setdefault("realtime", True)
    sim = BoardSim(**sim_args)
    if sim.realtime:
        sim.host_offset_us = sim._t0_real  # virtual time + offset == time.monotonic in µs
    source = BoardSource(channel_map, light_map, port=lambda: sim.port,
                         clock=box_now_us if sim.realtime else sim.host_clock)
    return sim, source
