"""The board: stamps edges, debounces, keeps events until the host has them,
drives the lights and speaks firmware/PROTOCOL.md over a byte link.

Hardware comes in as arguments (``hw`` is the ``machine`` module on the Pico,
a stand-in in controller/box/sources/board_sim.py), so the very same code runs on
the board, in the CPython simulator and under the MicroPython test runner.

Where time is taken:
* direct pins, IRQ capture (``CAPTURE = "irq"``): ``ticks_us()`` is the first
  thing the hard IRQ handler does; the edge's direction comes from the IRQ's
  own trigger flags, not a later ``pin.value()``. The handler only writes
  preallocated arrays (``EdgeRing.put``), it never allocates (tests/firmware
  run it under ``micropython.heap_lock()``). MicroPython serves pins pending
  together one after another in GPIO order, so its precision is the spread
  of one IRQ service (``IRQ_SPREAD_US`` plus the longest handler measured),
  not 1 µs.
* direct pins, PIO capture (``CAPTURE = "pio"``, buzzer/pio.py): a state
  machine samples every pin at a fixed rate and pushes changes with a timer
  stamp; precision is its sampling period, whatever pins change together.
* SN74HCS165 chain: one /PL pulse latches every shift-register input at once;
  ``ticks_us()`` is read at that pulse and the bits are clocked out by SPI.
  An edge happened between the previous latch and this one, so its stamp is
  the latch time and its precision the latch interval (sent as ``p=``).
"""

from array import array

from . import proto
from .debounce import GLITCH, PRESS, STUCK, UNSTUCK, Debouncer, ticks_add, ticks_diff
from .lockout import DROP_HOST, DROP_LINK, DROP_REARM, DROP_TIMEOUT, FIRST, Lockout
from .standalone import Standalone

VERSION = "3.4.0"
SR_BASE = 32  # shift-register input channels start here; below it: direct pins (0..19 stock)
CHANNELS = 96
HEARTBEAT_US = 250000  # heartbeats carry ticks 4x/s: far inside half a wrap (537 s)
ACK_TIMEOUT_US = 1000000  # no ack for this long: the host is away, hold events
_CTL_MAX = 16  # queued control lines (replies, heartbeats) beyond this are dropped and counted
#: pins pending together are served one after another: the dispatch cost between two
#: handlers, added to the longest handler measured (estimate; check on hardware, README)
IRQ_SPREAD_US = 20
WDT_TIMEOUT_MS = 2000  # the main loop feeds the watchdog every step; a hung loop resets the board
#: no command from a host for this long: the link is gone (a host sends an ack every
#: heartbeat and a clock request every second): the lockout is dropped, every lamp dark
LINK_AWAY_US = 3000000
#: while a contest is armed and a competing press is this close to its confirmation,
#: the loop waits for that instant instead of running another pass (on the Pico: the
#: lamp then lights within the spin's few µs, not within a whole loop period)
LOCKOUT_SPIN_US = 1500
LAMP_FIRST = 4  # event kinds beside the debouncer's PRESS/STUCK/UNSTUCK: a lamp the lockout lit
LAMP_TIE = 5
LAMP_OWN = 2  # added to LAMP_FIRST/LAMP_TIE: a lamp of the board's own contest (lockout box mode)
LAMP_PIO = 4  # added to the above: a lamp the PIO lockout lit (buzzer/pio_lockout.py), not the CPU

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
    first presses decide; later ones are the ones a game can best lose.
    Every event is kept until a host acks it (protocol v2): a host that
    restarts, or whose commands were damaged, asks for it again."""

    def __init__(self, cap):
        self.cap = cap
        self.kind = bytearray(cap)
        self.ch = bytearray(cap)
        self.t = array("I", [0] * cap)
        self.w = array("I", [0] * cap)  # the board's wrap count at t: the stamp is exact after any absence
        self.n = array("H", [0] * cap)
        self.p = array("I", [0] * cap)
        self.x = array("I", [0] * cap)  # lamp events: µs from the glitch filter's confirmation to the latch
        self.first = 1  # oldest seq still held
        self.next = 1  # seq the next event gets
        self.send = 1  # next seq to transmit
        self.dropped = 0

    def add(self, kind, ch, w, t, n, p, x=0):
        if self.next - self.first >= self.cap:
            self.dropped += 1
            return False
        i = self.next % self.cap
        self.kind[i] = kind
        self.ch[i] = ch
        self.w[i] = w
        self.t[i] = t
        self.n[i] = n
        self.p[i] = p
        self.x[i] = x
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

    def line(self, seq, boot):
        i = seq % self.cap
        k = self.kind[i]
        if k == PRESS:
            return "P %d b=%s c=%d w=%d t=%d n=%d p=%d" % (seq, boot, self.ch[i], self.w[i], self.t[i],
                                                          self.n[i], self.p[i])
        if LAMP_FIRST <= k <= LAMP_TIE + LAMP_OWN + LAMP_PIO:
            pio = k >= LAMP_FIRST + LAMP_PIO
            k -= pio * LAMP_PIO
            own = k >= LAMP_FIRST + LAMP_OWN
            return "F %d b=%s c=%d k=%s id=%d w=%d t=%d lit=%d lat=%d%s%s" % (
                seq, boot, self.ch[i], "first" if k - own * LAMP_OWN == LAMP_FIRST else "tie", self.n[i],
                self.w[i], self.t[i], self.p[i], self.x[i], " own=1" if own else "", " pio=1" if pio else "")
        return "N %d b=%s c=%d k=%s w=%d t=%d" % (seq, boot, self.ch[i], _NOTICE[k], self.w[i], self.t[i])


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
    forever); everything but the capture happens there.

    ``capture``: ``"irq"`` (hard pin IRQs) or ``"pio"`` (a sampler object with
    ``drain(board)`` and ``period_us``: buzzer/pio.py on the Pico, a model in
    the simulator). ``maintenance``: called on the ``M repl`` command (on the
    Pico: reboot into the REPL). ``spin_us``: how close to a lockout
    confirmation the loop waits for it (``LOCKOUT_SPIN_US`` on the Pico; 0 on
    a virtual clock, where the simulator steps at ``lockout_due`` instead).
    ``collect``: ``gc.collect`` on the Pico, run when a contest is armed. ``pio``: the
    PIO lockout (``pio_lockout.PioBells``, built from the pin map's ``PIO_LOCKOUT``; a
    model of it in the simulator): a contest whose every competitor is one of its bells,
    none held at the arm, is lit by its state machines, the CPU reads the winners,
    mirrors them on the chain and reports them (``F ... pio=1``)."""

    def __init__(self, hw, link, pinmap, ticks_us, boot_id="00000000",
                 edge_cap=512, event_cap=256, capture="irq", sampler=None, maintenance=None, spin_us=0,
                 collect=None, pio=None):
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
        self.ctl_dropped = 0  # control lines the bounded outbox could not take
        self.faults = 0  # exceptions caught in the main loop (each sent as an E line)
        self.irq_worst = 0  # longest hard IRQ handler measured, µs
        self._maintenance = maintenance
        self._ctl = []  # control lines waiting to go out (str)
        self._out = b""
        self._off = 0
        self._inbuf = bytearray(proto.MAX_LINE)
        self._inlen = 0
        self._acked_at = 0  # last A or R from a host
        self._unacked_since = 0  # when the oldest unacked sent event went out
        self._bad_cmds = 0
        self.wraps = 0  # times ticks_us has wrapped since boot (every time on the wire carries it)
        self._last_t = ticks_us()
        now = self._last_t
        self._beat_at = now
        self._host_at = now  # the last command a host sent (the link is gone after LINK_AWAY_US)
        self._host_away = False
        self.link_aways = 0  # times the lamps went dark because no host spoke
        self.spin_us = spin_us
        self._collect = collect
        self._step_at = now
        self._taken_at = now  # when the loop last took the edges (``delivered_until``)
        self.loop_worst = 0  # longest main-loop pass since the last heartbeat (µs)
        Pin = hw.Pin
        self._pin_ch = {}
        self._pin_irq = {}
        self.direct = sorted(pinmap.DIRECT)
        self.capture = capture
        self.sampler = sampler
        self.gp_ch = [(pinmap.DIRECT[ch], ch) for ch in self.direct]
        self.pio_prev = 0  # the last PIO sample (PIO capture)
        for ch in self.direct:
            pin = Pin(pinmap.DIRECT[ch], Pin.IN, Pin.PULL_UP)
            self._pin_ch[pin] = ch
            lv = pin.value()
            self.pio_prev |= lv << pinmap.DIRECT[ch]
            self.deb.start(ch, lv, now)
        if capture == "irq":
            self._irq_handler = self._irq  # bind once: the IRQ gets this very object
            for pin in self._pin_ch:
                self._pin_irq[pin] = pin.irq(handler=self._irq_handler,
                                             trigger=Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
        elif capture != "pio" or sampler is None:
            raise ValueError("capture must be 'irq', or 'pio' with a sampler")
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
        self.lockout = Lockout(CHANNELS, 8 * self.light_chips)
        sa = getattr(pinmap, "STANDALONE", None)  # lockout box mode (standalone.py)
        self.standalone = Standalone(sa, db["glitch_us"]) if sa else None
        self._lit = []  # channels (and FIRST/TIE) the lockout lit in this pass
        self.pio = pio
        self.pio_contest = False  # the armed contest is the PIO's (its state machines light)
        self._pio_bit = {}  # PIO bell channel -> its machine's bit
        if pio is not None:
            for i, ch in enumerate(pio.channels):
                self._pio_bit[ch] = 1 << i
            pio.disarm()  # every machine at its start, stalled: lamps dark, LOCKs low
        self._arming = False
        self._own_clear = bytearray(self.light_chips)  # per chip byte: AND mask darkening the contest's lamps
        self._own_bytes = []  # the chip bytes holding a contest lamp
        self._lamp_byte = bytearray(CHANNELS)  # per competing input: its lamp's byte and bit in the chain
        self._lamp_bit = bytearray(CHANNELS)
        self._blink_phase = -1
        self._lights_dirty = True
        if self.light_chips:
            self._rclk = Pin(pinmap.LIGHT_LATCH, Pin.OUT, value=0)
            self._lights_dark_until_written(Pin, getattr(pinmap, "LIGHT_OE", None))
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

    def wraps_at(self, t):
        """The wrap count at ``t``, a stamp at most half a wrap before the last ``now()``."""
        self.now()
        return self.wraps - 1 if t > self._last_t else self.wraps

    def direct_precision(self):
        """What a direct-pin stamp is worth: the sampling period (PIO) or the spread
        of one IRQ service (pins pending together are served in GPIO order)."""
        if self.capture == "pio":
            return self.sampler.period_us
        return IRQ_SPREAD_US + self.irq_worst

    def _irq(self, pin):
        """Hard IRQ, both edges: stamp first; the direction is the IRQ's own trigger
        (the pin may have moved again since). Both triggers pending: a pulse shorter
        than the IRQ latency, recorded as its two edges, the present level last."""
        t = self.ticks()
        ch = self._pin_ch[pin]
        flags = self._pin_irq[pin].flags()
        rising = flags & 8  # Pin.IRQ_RISING on the rp2 port
        if flags & 4 and rising:
            lv = pin.value()
            self.edges.put(t, ch, 1 - lv)
            self.edges.put(t, ch, lv)
        else:
            self.edges.put(t, ch, 1 if rising else 0)
        d = self.ticks() - t
        if d > self.irq_worst:  # (a wrap inside the handler gives a negative d: ignored)
            self.irq_worst = d

    def _latch(self):
        """Latch every SN74HCS165 input at once, stamp that instant, clock them in."""
        self._load.value(0)
        t = self.ticks()
        self._load.value(1)
        self.spi.readinto(self.sr_now)
        return t

    # ---- main loop -----------------------------------------------------------
    def step_guarded(self):
        """``step`` that survives its own bugs: the exception goes to the host as an
        ``E`` line and the loop goes on (``run`` calls this; the watchdog covers hangs)."""
        try:
            self.step()
        except Exception as e:  # noqa: BLE001 - the board must keep running whatever broke
            self.faults += 1
            self._control("E %s: %s" % (type(e).__name__, str(e)[:200]))
            try:  # noqa: SIM105 - MicroPython has no contextlib
                self._transmit(self.now())
            except Exception:  # noqa: BLE001, S110 - the link itself is broken: next step retries
                pass

    def _take_edges(self):
        if self.sampler is not None:
            self.sampler.drain(self)
        ring = self.edges
        deb = self.deb
        while ring.tail != ring.head:
            i = ring.tail
            deb.edge(ring.c[i], ring.lv[i], ring.t[i])
            ring.tail = i + 1 if i + 1 < ring.cap else 0

    def step(self):
        self._taken_at = self.now()  # an edge stamped before this is in the debouncer once taken
        self._take_edges()
        if self.sr_chips:
            self._scan()
        now = self.now()
        d = ticks_diff(now, self._step_at)
        self._step_at = now
        if d > self.loop_worst:
            self.loop_worst = d
        lk = self.lockout
        if lk.id:
            self._lockout_check(now)  # before anything else: the lamp is what must be fast
        self.deb.poll(now)
        self._read_commands(now)
        if ticks_diff(now, self._host_at) >= LINK_AWAY_US and not self._host_away:
            self._link_gone()
        if self.standalone is not None:
            self.standalone.step(self, now)
        if lk.id and lk.timed_out(now):
            self._drop(DROP_TIMEOUT)
            self._lights_dirty = True
        if ticks_diff(now, self._beat_at) >= HEARTBEAT_US:
            self._beat_at = now
            self.heartbeat(now)
        if self.light_chips:
            self._update_lights(now)
        self._transmit(now)
        if self.spin_us and lk.id:
            self._spin()

    # ---- lockout --------------------------------------------------------------
    def lockout_due(self, now):
        """µs until the armed contest's next competing press is confirmed (-1: none);
        the simulator steps the loop at that instant."""
        if not self.lockout.id:
            return -1
        return self.lockout.next_due(self.deb, self.active_level, now)

    def _lockout_check(self, now):
        if self.pio_contest:
            self._pio_check(now)
            return
        self.lockout.check(self.deb, self.active_level, now, self._lit)
        if self._lit:
            self._light_lit()

    def _drop(self, reason):
        """The contest ends on the board (its lamps back to the host's modes); the PIO's
        lamps dark with it."""
        self.lockout.drop(reason)
        if self.pio_contest:
            self.pio_contest = False
            self.pio.disarm()

    def _pio_mask(self, chs):
        """The PIO machines of those of these channels that are PIO bells (bit i: machine i)."""
        mask = 0
        for ch in chs:
            mask |= self._pio_bit.get(ch, 0)
        return mask

    def _pio_arm(self, now):
        """A new contest goes to the PIO when its state machines can run all of it: every
        competitor a PIO bell and none held now (a press begun before the contest never
        counts, and one begun since its start, before the arm, is ranked by its stamp: the
        CPU path judges both). Otherwise the CPU path runs it, as on any board."""
        lk = self.lockout
        if self.pio is None:
            return
        deb = self.deb
        for ch in lk.chs:
            if ch not in self._pio_bit or deb.level[ch] == self.active_level or deb.phase[ch]:
                return
        mask = self._pio_mask(lk.chs)
        if mask:
            self.pio.arm(mask, lk.glitch)
            self.pio_contest = True

    def _pio_check(self, now):
        """The PIO lit its lamps (and holds them): read which, mirror them on the chain, report.
        A competitor confirmed by the CPU's filter after the PIO's winner is locked out."""
        lk, deb, lit = self.lockout, self.deb, self._lit
        won = self.pio.winners()
        if won:
            for ch in lk.chs:
                if won & self._pio_bit.get(ch, 0):
                    lk.decide(ch, deb.t0[ch], now, lit, True)
            if lit:
                self._report_lit(self._latch_lit(), True)
        if lk.has_winner:
            lk.lock_confirmed(deb, self.active_level, now)

    def _light_lit(self):
        """The lamps the lockout just lit, latched at once; then their reports."""
        self._report_lit(self._latch_lit())

    def _latch_lit(self):
        """The critical path: the lit lamps into the chain's bytes (the contest's
        other lamps dark with the first), shifted out, latched. Returns the
        ticks at the latch."""
        lit = self._lit
        out = self.light_bytes
        if lit[1] == FIRST:
            clear = self._own_clear
            for b in self._own_bytes:
                out[b] &= clear[b]
        byte, bit = self._lamp_byte, self._lamp_bit
        i = 0
        while i < len(lit):
            ch = lit[i]
            out[byte[ch]] |= bit[ch]
            i += 2
        self.spi.write(out)
        rclk = self._rclk
        rclk.value(1)
        t = self.ticks()  # the lamps show from here
        rclk.value(0)
        return t

    def _report_lit(self, t, pio=False):
        """Each lamp's ``F`` event: the press's stamp, the latch, the latency. ``pio``: the
        PIO lit the lamp at its filter's confirmation (the press's last edge + the glitch
        time, and its few cycles: ``lat=0``), ``t`` is only the chain's mirror of it."""
        lit = self._lit
        lk = self.lockout
        i = 0
        while i < len(lit):
            ch = lit[i]
            t0 = self.deb.t0[ch]
            if pio:
                t = lk.confirmed_at(self.deb, ch)
            lat = ticks_diff(t, lk.confirmed_at(self.deb, ch))
            if lat > lk.worst_us and not self._arming:  # lit by a late arm: the arm's delay, not the board's
                lk.worst_us = lat
            kind = (LAMP_FIRST if lit[i + 1] == FIRST else LAMP_TIE) + (LAMP_OWN if lk.own else 0)
            if pio:
                kind += LAMP_PIO
            self.events.add(kind, ch, self.wraps_at(t0), t0,
                            lk.id, ticks_diff(t, t0), lat if lat > 0 else 0)
            i += 2
        del lit[:]

    def _spin(self):
        """A competing press confirms within ``spin_us``: wait for that very
        instant (new edges from the IRQ are taken meanwhile), light, return."""
        lk, deb, ring, act, ticks = self.lockout, self.deb, self.edges, self.active_level, self.ticks
        if self.pio_contest:
            return  # the state machines light the lamp: nothing to wait for
        limit = ticks_add(ticks(), self.spin_us)
        lit = self._lit
        while lk.id:
            self._take_edges()
            now = self.now()
            due = lk.next_due(deb, act, now)
            if due < 0 or ticks_diff(ticks_add(now, due), limit) > 0:
                return
            if due:
                at = ticks_add(now, due)
                t = ticks()
                while ring.tail == ring.head and ticks_diff(t, at) < 0:
                    t = ticks()
                if ring.tail != ring.head:
                    continue  # a new edge (a bounce): the press is due later
                ch = lk.due_ch  # next_due checked it, and no edge came since: decide at once
                lk.decide(ch, deb.t0[ch], t, lit)  # with the very clock read that ended the wait
                if lit:
                    self._light_lit()
                continue
            self._lockout_check(now)

    def _arm(self, parts, now):
        """``L arm <id> c=<in>:<lamp>,... g=<µs> w=<µs> to=<µs> [s=<ticks> [b=<boot>]]``."""
        if not self.light_chips:
            raise ValueError("this board has no lamps to lock out")
        cid = int(parts[2])
        if not 0 < cid < 65536:
            raise ValueError("contest id must be 1..65535")
        f = proto.fields(parts[3:])
        pairs = []
        if "c" not in f or not all(k in f for k in ("g", "w", "to")):
            raise ValueError("L arm needs c=<in>:<lamp>,... g= w= to=")
        for item in f["c"].split(","):
            ch, lamp = item.split(":")
            pairs.append((int(ch), int(lamp)))
        lk = self.lockout
        if cid == lk.id:
            had = len(lk.chs)
            lk.update(pairs)
            if self.pio_contest:  # (a channel no PIO machine watches never lights in it)
                self.pio.add(self._pio_mask(lk.chs[had:]), lk.glitch)
        else:
            g, w, to = int(f["g"]), int(f["w"]), int(f["to"])
            if not 0 < g <= 1000000 or not 0 <= w <= 1000000 or not 0 < to <= 100000000:
                raise ValueError("g= 1..10^6, w= 0..10^6, to= 1..10^8 µs")
            # 3.4: a start stamped on another boot's clock (the host armed the boot before a
            # reboot it had not heard of) means nothing on this one: from the arm's receipt
            stamped = "s" in f and f.get("b", self.boot_id) == self.boot_id
            start = int(f["s"]) & 0x3FFFFFFF if stamped else now
            if ticks_diff(start, now) > 0:
                start = now  # a start in the future: the host's clock fit is off; from now
            if lk.id:
                self._drop(DROP_REARM)
            lk.arm(cid, pairs, g, w, to, start)
            self._pio_arm(now)
            if self._collect is not None:
                self._collect()  # a garbage collection now, not in the middle of the contest
        n = self.light_chips
        clear = self._own_clear
        for b in range(n):
            clear[b] = 0xFF
        for lamp in range(len(lk.owned)):
            if lk.owned[lamp]:
                clear[n - 1 - (lamp >> 3)] &= ~(1 << (lamp & 7)) & 0xFF
        self._own_bytes = [b for b in range(n) if clear[b] != 0xFF]
        for ch in lk.chs:
            lamp = lk.lamp_of[ch]
            self._lamp_byte[ch] = n - 1 - (lamp >> 3)
            self._lamp_bit[ch] = 1 << (lamp & 7)
        self._lights_dirty = True
        self._arming = True
        self._lockout_check(now)  # a press made since the contest's start, before the arm came, lights now
        self._arming = False

    def _end(self, parts):
        """``L end <id>|* [on=<lamps>]``: the host's decision; its lamps on, the contest
        gone. For a contest the board no longer holds nothing happens (a repeated end
        must not switch on a lamp the host has turned off since)."""
        lk = self.lockout
        if parts[2] != "*" and int(parts[2]) != lk.id:
            return
        self._drop(DROP_HOST)
        f = proto.fields(parts[3:])
        if "on" in f and f["on"] not in ("", "-"):
            for lamp in f["on"].split(","):
                c = int(lamp)
                if not 0 <= c < len(self.light_mode):
                    raise ValueError("light channel %d does not exist" % c)
                self.light_mode[c] = 1
        self._lights_dirty = True

    def _link_gone(self):
        """No host for LINK_AWAY_US: nobody can end a contest or turn a lamp off,
        so the board does both (a host back resends its lights: ``la=`` grew)."""
        self._host_away = True
        self.link_aways += 1
        self._drop(DROP_LINK)
        for i in range(len(self.light_mode)):
            self.light_mode[i] = 0
        self._lights_dirty = True

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
            self._control("G c=%d w=%d t=%d n=%d" % (ch, self.wraps_at(t), t, n))
        else:
            p = 0
            if kind == PRESS:
                p = self.prec[ch] if ch >= SR_BASE else self.direct_precision()
            self.events.add(kind, ch, self.wraps_at(t), t, n, p)

    def held(self):
        """Channels whose line is at the active level now (a normally-closed contact
        at rest, a button held, a short to ground)."""
        deb = self.deb
        return [ch for ch in range(CHANNELS) if deb.level[ch] == self.active_level
                and (ch in self._pin_ch.values() or SR_BASE <= ch < SR_BASE + 8 * self.sr_chips)]

    # ---- talking -------------------------------------------------------------
    def hello(self):
        db = self.pinmap.DEBOUNCE
        sr = [SR_BASE + i for i in range(8 * self.sr_chips)]
        now = self.now()  # first: reading the clock may count a wrap, and w= must match t=
        ev = self.events
        self._control(
            "H v=%d fw=%s boot=%s w=%d t=%d s=%d a=%d in=%s sr=%s lights=%s hb=%d cap=%d db=%d/%d/%d"
            " cap_kind=%s pd=%d held=%s lk=%d la=%d"
            % (proto.PROTOCOL_VERSION, VERSION, self.boot_id, self.wraps, now,
               ev.next - 1, ev.first - 1, ranges(self.direct), ranges(sr),
               ranges(range(8 * self.light_chips)), HEARTBEAT_US, ev.cap,
               db["bounce_us"], db["glitch_us"], db["stuck_us"], self.capture,
               self.direct_precision(), ranges(self.held()), self.lockout.id, self.link_aways)
            + (" pl=%s" % ranges(self.pio.channels) if self.pio is not None else ""))

    def heartbeat(self, now):
        ev = self.events
        for i in range(len(self._ctl) - 1, -1, -1):
            if self._ctl[i][0] == "B":  # only the latest heartbeat is worth sending
                self._ctl.pop(i)
        lk = self.lockout
        self._control("B b=%s w=%d t=%d s=%d q=%d d=%d e=%d g=%d x=%d o=%d f=%d pd=%d lk=%d lx=%d la=%d lp=%d"
                      " ld=%d/%d/%d/%d"
                      % (self.boot_id, self.wraps, now, ev.send - 1, ev.next - ev.send,
                         ev.dropped, self.edges.dropped, self.glitches, self.sr_worst,
                         self.ctl_dropped, self.faults, self.direct_precision(), lk.id, lk.worst_us,
                         self.link_aways, self.loop_worst, lk.dropped[0], lk.dropped[1], lk.dropped[2],
                         lk.dropped[3]))
        self.sr_worst = self.sr_interval
        self.loop_worst = 0
        if self._led is not None:
            self._led.value(1 - self._led.value())

    def _control(self, body):
        if len(self._ctl) < _CTL_MAX:
            self._ctl.append(body)
        else:
            self.ctl_dropped += 1

    def _transmit(self, now):
        """Writes what the link takes now and returns: a host that does not read
        never blocks the loop. Events wait in their ring (oldest kept)."""
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
                if ev.send > ev.first and ticks_diff(now, self._unacked_since) >= ACK_TIMEOUT_US:
                    return  # nothing acked for a while: the host is away, hold events for its return
                if ev.send == ev.first:
                    self._unacked_since = now
                body = ev.line(ev.send, self.boot_id)
                ev.send += 1
            self._out = proto.frame(body)
            self._off = 0

    def _read_commands(self, now):
        data = self.link.read()
        if not data:
            return
        buf = self._inbuf
        for b in data:
            if b < 32 and b != 10 and b != 13 or b > 126:
                continue  # control bytes (a stray 0x03 = Ctrl-C) are line noise, never commands
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
        except (ValueError, UnicodeError) as e:
            self._error("command %r: %s" % (raw[:40], e))
            return
        parts = text.split()
        if not parts:
            return
        op = parts[0]
        try:
            self._host_at = now
            self._host_away = False
            if op == "T":  # clock request: answer with the ticks of now, this boot's (a
                # reply must never map another boot's stamps) and what was sent by then
                t = self.now()
                ev = self.events
                self._control("C r=%d b=%s w=%d t=%d s=%d q=%d" % (int(parts[1]), self.boot_id, self.wraps, t,
                                                                   ev.send - 1, ev.next - ev.send))
            elif op == "W":  # watermark request (3.2): how far every press was sent or queued, at once
                t = self.now()
                ev = self.events
                self._control("W r=%d b=%s w=%d t=%d d=%d s=%d q=%d" % (
                    int(parts[1]), self.boot_id, self.wraps, t, ticks_diff(t, self.delivered_until()),
                    ev.send - 1, ev.next - ev.send))
            elif op == "A":
                self._host_seen(now)
                seq = int(parts[1])
                # 3.3: an ack names the boot it is for; one meant for the boot before a reboot
                # (sent before the host heard of it) frees nothing of this boot's
                if len(parts) < 3 or parts[2] == "b=" + self.boot_id:
                    self.events.ack(seq)
                self._unacked_since = now
            elif op == "R":
                self._host_seen(now)
                lost = self.events.rewind(int(parts[1]))
                self._unacked_since = now
                self._control("K from=%d lost=%d" % (self.events.send, lost))
            elif op == "L" and parts[1] == "arm":
                self._arm(parts, now)
            elif op == "L" and parts[1] == "end":
                self._end(parts)
            elif op == "L":
                self.set_light(parts[1], parts[2])
            elif op == "Q":
                t = self.now()
                self._control("Q w=%d t=%d held=%s" % (self.wraps, t, ranges(self.held())))
            elif op == "?":
                self.hello()
            elif op == "M" and parts[1:] == ["repl"]:
                if self._maintenance is None:
                    raise ValueError("no maintenance mode on this board")
                self._maintenance()
            else:
                self._error("unknown command %r (expected T, W, A, R, L, Q, M repl or ?)" % op[:8])
                return
        except (IndexError, ValueError) as e:
            self._error("command %r: %s" % (text[:40], e))

    def delivered_until(self):
        """Board ticks before which every press is an event (sent, or queued to be):
        the loop's last look at the edges, less the capture's spread (an edge
        stamped just before it may not be in the ring yet), or the first edge of a
        press still pending in the debouncer, if earlier. Shift-register inputs are
        stamped at their latch, never before it."""
        return self.deb.pending_before(ticks_add(self._taken_at, -self.direct_precision()))

    def _host_seen(self, now):
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

    def _lights_dark_until_written(self, Pin, oe):
        """A 595 powers up with random outputs; its /OE has a 10 kΩ pull-up, so the
        lamps stay dark until here. Write all-off through the whole chain, latch
        it, and only then pull /OE low. Until then the pin is an input without
        the RP2040's reset pull-down (only the pull-up acts), never driven high:
        a builder's leftover jumper from /OE to ground shorts nothing.
        ``oe`` None: a board whose /OE is wired to ground (no pin to release)."""
        if oe is not None:
            Pin(oe, Pin.IN, None)
        self.spi.write(self.light_bytes)  # all zero: every lamp off
        self._rclk.value(1)
        self._rclk.value(0)
        if oe is not None:
            self._oe = Pin(oe, Pin.OUT, value=0)

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
        lk = self.lockout
        for chip in range(nchips):
            v = 0
            for bit in range(8):
                m = self.light_mode[8 * chip + bit]
                if lk.has_winner:
                    shown = lk.shows(8 * chip + bit)
                    if shown >= 0:
                        m = shown
                if m == 1 or (m == 2 and phase):
                    v |= 1 << bit
            out[nchips - 1 - chip] = v  # the first byte out ends in the last chip
        self.spi.write(out)
        self._rclk.value(1)
        self._rclk.value(0)


def pio_words_to_edges(board, t, sample):
    """One sample pushed by the PIO sampler at ``t``: every direct pin whose level
    differs from the previous sample changed at ``t``, to the level the sample
    shows (the direction comes from the hardware, never a later read)."""
    x = sample ^ board.pio_prev
    board.pio_prev = sample
    if not x:
        return
    put = board.edges.put
    for gp, ch in board.gp_ch:
        if (x >> gp) & 1:
            put(t, ch, (sample >> gp) & 1)


class UsbLink:
    """USB CDC through MicroPython's stdin/stdout, never blocking the loop: it
    writes only when the CDC reports room (POLLOUT), at most ``chunk`` bytes at
    a time, so a host that stops reading leaves the loop running and the events
    in their ring."""

    def __init__(self, chunk=64):
        import select
        import sys

        self._in = sys.stdin.buffer
        self._out = sys.stdout.buffer
        self.chunk = chunk
        self._rpoll = select.poll()
        self._rpoll.register(sys.stdin, select.POLLIN)
        self._wpoll = select.poll()
        self._wpoll.register(sys.stdout, select.POLLOUT)

    def read(self):
        data = b""
        while len(data) < 64 and self._rpoll.poll(0):
            data += self._in.read(1)
        return data

    def write(self, data):
        if not self._wpoll.poll(0):
            return 0
        return self._out.write(data[:self.chunk]) or 0


MAINTENANCE_FLAG = "maintenance"  # main.py finds it at boot: one boot into the REPL


def enter_maintenance(machine, os_mod):
    """``M repl``: flag the next boot as maintenance (main.py then leaves the REPL
    free, watchdog off) and reset (a started RP2040 watchdog cannot be stopped)."""
    with open(MAINTENANCE_FLAG, "w") as f:
        f.write("1")
    if hasattr(os_mod, "sync"):
        os_mod.sync()
    machine.reset()


def protect(micropython, machine, timeout_ms=WDT_TIMEOUT_MS):
    """No REPL by accident: a stray 0x03 on the wire is data, not Ctrl-C; a hung
    loop is reset by the watchdog. Returns the watchdog to feed."""
    micropython.kbd_intr(-1)
    return machine.WDT(timeout=timeout_ms)


def serve(board, wdt, steps=-1):
    """The main loop: step (exceptions become E lines), feed the watchdog."""
    while steps:
        board.step_guarded()
        wdt.feed()
        steps -= 1


def run():
    """Entry point on the Pico (main.py): build the board and loop forever."""
    import binascii
    import gc
    import os
    import time

    import machine
    import micropython

    from . import pinmap

    micropython.alloc_emergency_exception_buf(100)
    boot_id = binascii.hexlify(os.urandom(4)).decode()
    capture = getattr(pinmap, "CAPTURE", "irq")
    sampler = None
    if capture == "pio":
        from .pio import PioSampler

        sampler = PioSampler(pinmap)
    pio = None
    if getattr(pinmap, "PIO_LOCKOUT", None):  # the lockout box's map: the lamp in PIO
        from .pio_lockout import PioBells

        pio = PioBells.from_pinmap(pinmap)
    board = Board(machine, UsbLink(), pinmap, time.ticks_us, boot_id, capture=capture,
                  sampler=sampler, maintenance=lambda: enter_maintenance(machine, os),
                  spin_us=LOCKOUT_SPIN_US, collect=gc.collect, pio=pio)
    serve(board, protect(micropython, machine))
