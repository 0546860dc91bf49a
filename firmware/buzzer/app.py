"""The board: stamps edges, debounces, keeps events until the host has them,
drives the lights and speaks firmware/PROTOCOL.md over a byte link.

Hardware comes in as arguments (``hw`` is the ``machine`` module on the Pico,
a stand-in in controller/sources/board_sim.py), so the very same code runs on
the board, in the CPython simulator and under the MicroPython test runner.

Where time is taken:
* direct pins: ``ticks_us()`` is the first thing the hard IRQ handler does;
  the handler only writes three preallocated arrays (``EdgeRing.put``), it
  never allocates (tests/firmware run it under ``micropython.heap_lock()``).
* 74HC165 chain: one /PL pulse latches every shift-register input at once;
  ``ticks_us()`` is read at that pulse and the bits are clocked out by SPI.
  An edge happened between the previous latch and this one, so its stamp is
  the latch time and its precision the latch interval (sent as ``p=``).
"""

from array import array

from . import proto
from .debounce import GLITCH, PRESS, STUCK, UNSTUCK, Debouncer, ticks_diff

VERSION = "1.0.0"
SR_BASE = 32  # shift-register input channels start here (0..25 are direct pins)
CHANNELS = 96
HEARTBEAT_US = 250000  # heartbeats carry ticks 4x/s: far inside half a wrap (537 s)
ACK_TIMEOUT_US = 1000000  # no ack for this long: the host is away, hold events
_CTL_MAX = 16  # queued control lines (replies, heartbeats) beyond this are dropped

LIGHT_MODES = ("off", "on", "blink")


class EdgeRing:
    """Raw edges from the IRQ to the main loop: single producer (the IRQ),
    single consumer, fixed arrays, index arithmetic only."""

    def __init__(self, cap):
        self.cap = cap
        self.t = array("I", [0] * cap)
        self.c = bytearray(cap)
        self.lv = bytearray(cap)
        self.head = 0
        self.tail = 0
        self.dropped = 0

    def put(self, t, c, lv):
        """IRQ context: no allocation, no exceptions. Full: the edge is dropped
        and counted (the next edge's level read puts the channel right)."""
        h = self.head
        nh = h + 1
        if nh == self.cap:
            nh = 0
        if nh == self.tail:
            self.dropped += 1
            return
        self.t[h] = t
        self.c[h] = c
        self.lv[h] = lv
        self.head = nh


class EventRing:
    """Sequenced events (presses, stuck/unstuck) kept until the host acks them,
    so a host that went away gets them replayed with their original stamps.

    Full: the *newest* event is dropped and counted. In a buzzer game the
    first presses decide; later ones are the ones a game can best lose. A
    host that never acked (a person in a terminal) does not hold events: sent
    means done."""

    def __init__(self, cap):
        self.cap = cap
        self.kind = bytearray(cap)
        self.ch = bytearray(cap)
        self.t = array("I", [0] * cap)
        self.n = array("H", [0] * cap)
        self.p = array("I", [0] * cap)
        self.first = 1  # oldest seq still held
        self.next = 1  # seq the next event gets
        self.send = 1  # next seq to transmit
        self.dropped = 0

    def add(self, kind, ch, t, n, p):
        if self.next - self.first >= self.cap:
            self.dropped += 1
            return False
        i = self.next % self.cap
        self.kind[i] = kind
        self.ch[i] = ch
        self.t[i] = t
        self.n[i] = n
        self.p[i] = p
        self.next += 1
        return True

    def ack(self, seq):
        """The host has everything up to ``seq``: free it."""
        seq = min(seq + 1, self.send)
        if seq > self.first:
            self.first = seq

    def rewind(self, seq):
        """Send again from ``seq + 1``. Returns how many of those are gone."""
        want = seq + 1
        if want > self.next:
            want = self.next
        lost = 0
        if want < self.first:
            lost = self.first - want
            want = self.first
        self.send = want
        return lost

    def line(self, seq):
        i = seq % self.cap
        k = self.kind[i]
        if k == PRESS:
            return "P %d c=%d t=%d n=%d p=%d" % (seq, self.ch[i], self.t[i], self.n[i], self.p[i])
        return "N %d c=%d k=%s t=%d" % (seq, self.ch[i], _NOTICE[k], self.t[i])


_NOTICE = {STUCK: "stuck", UNSTUCK: "unstuck"}


def ranges(chs):
    """[0, 1, 2, 5] -> '0-2,5' (the hello's channel lists)."""
    out = []
    chs = sorted(chs)
    i = 0
    while i < len(chs):
        j = i
        while j + 1 < len(chs) and chs[j + 1] == chs[j] + 1:
            j += 1
        out.append(str(chs[i]) if i == j else "%d-%d" % (chs[i], chs[j]))
        i = j + 1
    return ",".join(out) or "-"


class Board:
    """One running board. Call ``step()`` as often as possible (``run`` does,
    forever); everything but the IRQ happens there."""

    def __init__(self, hw, link, pinmap, ticks_us, boot_id="00000000",
                 edge_cap=512, event_cap=256):
        self.hw = hw
        self.link = link
        self.ticks = ticks_us
        self.boot_id = boot_id
        self.pinmap = pinmap
        self.edges = EdgeRing(edge_cap)
        self.events = EventRing(event_cap)
        db = pinmap.DEBOUNCE
        self.active_level = pinmap.ACTIVE_LEVEL
        self.deb = Debouncer(CHANNELS, self._emit, db["bounce_us"], db["glitch_us"],
                             db["stuck_us"], self.active_level)
        self.prec = array("I", [1] * CHANNELS)  # precision of each channel's pending first edge
        self.glitches = 0
        self._ctl = []  # control lines waiting to go out (str)
        self._out = b""
        self._off = 0
        self._inbuf = bytearray(proto.MAX_LINE)
        self._inlen = 0
        self._retain = False  # a host has acked: hold events until acked
        self._acked_at = 0
        self._bad_cmds = 0
        self.wraps = 0  # times ticks_us has wrapped since boot (heartbeats carry it)
        self._last_t = ticks_us()
        now = self._last_t
        self._beat_at = now
        # direct pins: a hard IRQ on both edges, one dict lookup to the channel
        Pin = hw.Pin
        self._pin_ch = {}
        self.direct = sorted(pinmap.DIRECT)
        for ch in self.direct:
            pin = Pin(pinmap.DIRECT[ch], Pin.IN, Pin.PULL_UP)
            self._pin_ch[pin] = ch
            self.deb.start(ch, pin.value(), now)
        self._irq_handler = self._irq  # bind once: the IRQ gets this very object
        for pin in self._pin_ch:
            pin.irq(handler=self._irq_handler, trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
        # shift registers and lights on one SPI bus
        self.sr_chips = pinmap.SR_CHIPS
        self.light_chips = pinmap.LIGHT_CHIPS
        self.spi = None
        if self.sr_chips or self.light_chips:
            s = pinmap.SPI
            self.spi = hw.SPI(s["id"], baudrate=s["baudrate"], sck=Pin(s["sck"]),
                              mosi=Pin(s["mosi"]), miso=Pin(s["miso"]))
        self.sr_now = bytearray(self.sr_chips)
        self.sr_prev = bytearray(self.sr_chips)
        self.sr_interval = 0
        self.sr_worst = 0  # longest latch interval since the last heartbeat
        if self.sr_chips:
            self._load = Pin(pinmap.SR_LOAD, Pin.OUT, value=1)
            self._sr_t = self._latch()
            for chip in range(self.sr_chips):
                for bit in range(8):
                    self.deb.start(SR_BASE + 8 * chip + bit, (self.sr_now[chip] >> bit) & 1, self._sr_t)
            self.sr_prev[:] = self.sr_now
        self.light_mode = bytearray(8 * self.light_chips)
        self.light_bytes = bytearray(self.light_chips)
        self._blink_phase = -1
        self._lights_dirty = True
        if self.light_chips:
            self._rclk = Pin(pinmap.LIGHT_LATCH, Pin.OUT, value=0)
        self._led = Pin(pinmap.STATUS_LED, Pin.OUT, value=0) if pinmap.STATUS_LED is not None else None
        self.hello()

    # ---- time capture -------------------------------------------------------
    def now(self):
        """ticks_us, counting wraps (the loop runs far more often than every 537 s)."""
        t = self.ticks()
        if t < self._last_t:
            self.wraps += 1
        self._last_t = t
        return t

    def _irq(self, pin):
        """Hard IRQ, both edges: stamp first, then one lookup and three stores."""
        t = self.ticks()
        self.edges.put(t, self._pin_ch[pin], pin.value())

    def _latch(self):
        """Latch every 74HC165 input at once, stamp that instant, clock them in."""
        self._load.value(0)
        t = self.ticks()
        self._load.value(1)
        self.spi.readinto(self.sr_now)
        return t

    # ---- main loop -----------------------------------------------------------
    def step(self):
        ring = self.edges
        deb = self.deb
        while ring.tail != ring.head:
            i = ring.tail
            deb.edge(ring.c[i], ring.lv[i], ring.t[i])
            ring.tail = i + 1 if i + 1 < ring.cap else 0
        if self.sr_chips:
            self._scan()
        now = self.now()
        deb.poll(now)
        self._read_commands(now)
        if ticks_diff(now, self._beat_at) >= HEARTBEAT_US:
            self._beat_at = now
            self.heartbeat(now)
        if self.light_chips:
            self._update_lights(now)
        self._transmit(now)

    def _scan(self):
        t = self._latch()
        interval = ticks_diff(t, self._sr_t)
        self._sr_t = t
        self.sr_interval = interval
        if interval > self.sr_worst:
            self.sr_worst = interval
        now, prev, deb = self.sr_now, self.sr_prev, self.deb
        for chip in range(self.sr_chips):
            x = now[chip] ^ prev[chip]
            if x:
                base = SR_BASE + 8 * chip
                for bit in range(8):
                    if x & (1 << bit):
                        ch = base + bit
                        deb.advance(ch, t)  # a finished press may go idle first
                        if deb.phase[ch] == 0:
                            self.prec[ch] = interval
                        deb.edge(ch, (now[chip] >> bit) & 1, t)
                prev[chip] = now[chip]

    def _emit(self, kind, ch, t, n):
        if kind == GLITCH:
            self.glitches += 1
            self._control("G c=%d t=%d n=%d" % (ch, t, n))
        else:
            self.events.add(kind, ch, t, n, self.prec[ch] if kind == PRESS else 0)

    # ---- talking -------------------------------------------------------------
    def hello(self):
        db = self.pinmap.DEBOUNCE
        sr = [SR_BASE + i for i in range(8 * self.sr_chips)]
        now = self.now()  # first: reading the clock may count a wrap, and w= must match t=
        self._control(
            "H v=%d fw=%s boot=%s w=%d t=%d s=%d in=%s sr=%s lights=%s hb=%d cap=%d db=%d/%d/%d"
            % (proto.PROTOCOL_VERSION, VERSION, self.boot_id, self.wraps, now,
               self.events.next - 1, ranges(self.direct), ranges(sr),
               ranges(range(8 * self.light_chips)), HEARTBEAT_US, self.events.cap,
               db["bounce_us"], db["glitch_us"], db["stuck_us"]))

    def heartbeat(self, now):
        ev = self.events
        for i in range(len(self._ctl) - 1, -1, -1):
            if self._ctl[i][0] == "B":  # only the latest heartbeat is worth sending
                self._ctl.pop(i)
        self._control("B b=%s w=%d t=%d s=%d q=%d d=%d e=%d g=%d x=%d"
                      % (self.boot_id, self.wraps, now, ev.send - 1, ev.next - ev.send,
                         ev.dropped, self.edges.dropped, self.glitches, self.sr_worst))
        self.sr_worst = self.sr_interval
        if self._led is not None:
            self._led.value(1 - self._led.value())

    def _control(self, body):
        if len(self._ctl) < _CTL_MAX:
            self._ctl.append(body)

    def _transmit(self, now):
        link = self.link
        while True:
            if self._off < len(self._out):
                n = link.write(self._out[self._off:] if self._off else self._out)
                if not n:
                    return
                self._off += n
                if self._off < len(self._out):
                    return
            if self._ctl:
                body = self._ctl.pop(0)
            else:
                ev = self.events
                if ev.send >= ev.next:
                    return
                if self._retain and ticks_diff(now, self._acked_at) >= ACK_TIMEOUT_US:
                    return  # the host stopped acking: hold events for its return
                body = ev.line(ev.send)
                ev.send += 1
                if not self._retain:
                    ev.ack(ev.send - 1)
            self._out = proto.frame(body)
            self._off = 0

    def _read_commands(self, now):
        data = self.link.read()
        if not data:
            return
        buf = self._inbuf
        for b in data:
            if b == 10 or b == 13:
                if self._inlen:
                    self._command(bytes(buf[:self._inlen]), now)
                self._inlen = 0
            elif self._inlen < len(buf):
                buf[self._inlen] = b
                self._inlen += 1
            else:
                self._inlen = 0
                self._error("command longer than %d bytes dropped" % len(buf))

    def _error(self, msg):
        self._bad_cmds += 1
        self._control("X " + msg)

    def _command(self, raw, now):
        try:
            text = proto.unframe(raw) if b"*" in raw else raw.decode()
        except ValueError as e:
            self._error("command %r: %s" % (raw[:40], e))
            return
        parts = text.split()
        if not parts:
            return
        op = parts[0]
        try:
            if op == "T":  # clock request: answer with the ticks of now
                t = self.now()
                self._control("C r=%s w=%d t=%d" % (parts[1], self.wraps, t))
            elif op == "A":
                self._host_seen(now)
                self.events.ack(int(parts[1]))
            elif op == "R":
                self._host_seen(now)
                lost = self.events.rewind(int(parts[1]))
                self._control("K from=%d lost=%d" % (self.events.send, lost))
            elif op == "L":
                self.set_light(parts[1], parts[2])
            elif op == "?":
                self.hello()
            else:
                self._error("unknown command %r (expected T, A, R, L or ?)" % op)
        except (IndexError, ValueError) as e:
            self._error("command %r: %s" % (text[:40], e))

    def _host_seen(self, now):
        self._retain = True
        self._acked_at = now

    # ---- lights --------------------------------------------------------------
    def set_light(self, ch, mode):
        if mode not in LIGHT_MODES:
            raise ValueError("light mode must be on, off or blink")
        m = LIGHT_MODES.index(mode)
        if ch == "*":
            for i in range(len(self.light_mode)):
                self.light_mode[i] = m
        else:
            c = int(ch)
            if not 0 <= c < len(self.light_mode):
                raise ValueError("light channel %d does not exist (0..%d)" % (c, len(self.light_mode) - 1))
            self.light_mode[c] = m
        self._lights_dirty = True

    def _update_lights(self, now):
        phase = (now >> 18) & 1  # blink: ~262 ms on, ~262 ms off
        if phase != self._blink_phase:
            self._blink_phase = phase
            self._lights_dirty = True
        if not self._lights_dirty:
            return
        self._lights_dirty = False
        out = self.light_bytes
        nchips = self.light_chips
        for chip in range(nchips):
            v = 0
            for bit in range(8):
                m = self.light_mode[8 * chip + bit]
                if m == 1 or (m == 2 and phase):
                    v |= 1 << bit
            out[nchips - 1 - chip] = v  # the first byte out ends in the last chip
        self.spi.write(out)
        self._rclk.value(1)
        self._rclk.value(0)


class UsbLink:
    """USB CDC through MicroPython's stdin/stdout, never blocking the loop."""

    def __init__(self):
        import select
        import sys

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)

    def read(self):
        data = b""
        while len(data) < 64 and self._poll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data):
        return self._out.write(data) or 0


def run():
    """Entry point on the Pico (main.py): build the board and loop forever."""
    import binascii
    import os
    import time

    import machine
    import micropython

    from . import pinmap

    micropython.alloc_emergency_exception_buf(100)
    boot_id = binascii.hexlify(os.urandom(4)).decode()
    board = Board(machine, UsbLink(), pinmap, time.ticks_us, boot_id)
    while True:
        board.step()
