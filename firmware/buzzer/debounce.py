"""Leading-edge debounce on 30-bit ``ticks_us``: one pure module that runs
unchanged under MicroPython (on the board) and CPython (simulator, tests).

The rules are the box's (README.md "Debounce", same as controller/box/debounce.py):

* The first active edge opens a *pending* press at its own time ``t0``.
* The press is accepted once the line has been stable active for ``glitch``
  µs; it keeps ``t0`` however many bounces came between.
* If the line falls back to rest and stays there (through the bounce window,
  or for half of it), the first edge was an isolated pulse: noise (a
  ``GLITCH`` notice), no press.
* If the bounce window runs out while the line still chatters, the pending
  press restarts at its latest burst; a line chattering past ``stuck`` µs is
  flagged ``STUCK``.
* After an accepted press every edge is dropped until the line has been idle
  for ``bounce`` µs again (release bounce never makes a second press).
* A line held active past ``stuck`` µs is flagged ``STUCK`` and ignored until
  released (``UNSTUCK``); a line active at start must be released first.

Why its own copy and not the host's: the board has no dataclasses, enums or
64-bit time. State lives in preallocated arrays, times are 30-bit ticks
compared with wrap-safe differences, and only channels with something pending
are visited on ``poll`` (a 96-channel sweep every loop would cost the scan).
"""

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


from array import array

TICKS_PERIOD = const(1 << 30)
TICKS_MASK = const((1 << 30) - 1)
TICKS_HALF = const(1 << 29)

# what a debouncer reports through its ``emit(kind, channel, t, edges)``
PRESS = const(0)
GLITCH = const(1)
STUCK = const(2)
UNSTUCK = const(3)
KIND_NAMES = ("press", "glitch", "stuck", "unstuck")

# phases of one channel
_IDLE = const(0)
_PENDING = const(1)
_PRESSED = const(2)
_STUCK = const(3)


def ticks_diff(a, b):
    """a - b on the 30-bit ring (same as MicroPython's time.ticks_diff):
    right as long as the two are less than half a wrap (~537 s) apart."""
    return ((a - b + TICKS_HALF) & TICKS_MASK) - TICKS_HALF


def ticks_add(a, d):
    return (a + d) & TICKS_MASK


class Debouncer:
    """Debounces ``channels`` inputs. ``edge`` and ``poll`` call
    ``emit(kind, channel, t0_ticks, edges)`` for what became due."""

    def __init__(self, channels, emit, bounce_us=10000, glitch_us=1000,
                 stuck_us=10000000, active_level=0):
        if not 0 < glitch_us <= bounce_us:
            raise ValueError("glitch_us must be > 0 and <= bounce_us")
        if not bounce_us < stuck_us < TICKS_HALF:
            raise ValueError("stuck_us must be longer than bounce_us and under 2^29 us")
        self.n = channels
        self.emit = emit
        self.bounce = bounce_us
        self.glitch = glitch_us
        self.stuck = stuck_us
        self.active = active_level
        idle = 1 - active_level
        self.phase = bytearray(channels)
        self.level = bytearray([idle] * channels)
        self.last = array("i", [0] * channels)  # ticks of the last level change
        self.t0 = array("i", [0] * channels)
        self.last_active = array("i", [0] * channels)  # newest active edge of a pending press
        self.chatter_since = array("i", [0] * channels)  # first edge of a press not settled yet
        self.quiet = max(glitch_us, bounce_us // 2)
        self.edges = array("H", [0] * channels)
        # channels whose phase is not IDLE (the only ones poll must visit)
        self.busy = bytearray(channels)
        self.nbusy = 0
        self.inbusy = bytearray(channels)

    def _mark_busy(self, ch):
        if not self.inbusy[ch]:
            self.inbusy[ch] = 1
            self.busy[self.nbusy] = ch
            self.nbusy += 1

    def start(self, ch, level, t):
        """The level at rest when watching begins: active means "release first"."""
        self.level[ch] = level
        self.last[ch] = t
        if level == self.active:
            self.phase[ch] = _PRESSED
            self.edges[ch] = 0
            self._mark_busy(ch)

    def edge(self, ch, level, t):
        """A level change on ``ch`` stamped ``t`` (ticks); repeats are ignored."""
        self.advance(ch, t)
        if level == self.level[ch]:
            return
        ph = self.phase[ch]
        if ph == _IDLE:
            if level == self.active:
                self.phase[ch] = _PENDING
                self.t0[ch] = t
                self.chatter_since[ch] = t
                self.last_active[ch] = t
                self.edges[ch] = 1
                self._mark_busy(ch)
        else:
            if ph == _PENDING and level == self.active:
                self.last_active[ch] = t
            if self.edges[ch] < 65535:
                self.edges[ch] += 1
        self.level[ch] = level
        self.last[ch] = t

    def poll(self, now):
        """Let time pass: accept settled presses, drop noise, end lockouts,
        flag stuck lines. Visits only channels with something pending."""
        i = 0
        while i < self.nbusy:
            ch = self.busy[i]
            self.advance(ch, now)
            if self.phase[ch] == _IDLE:
                self.nbusy -= 1
                self.busy[i] = self.busy[self.nbusy]
                self.inbusy[ch] = 0
            else:
                i += 1

    def advance(self, ch, now):
        ph = self.phase[ch]
        if ph == _IDLE:
            return
        active = self.level[ch] == self.active
        stable = ticks_diff(now, self.last[ch])
        if ph == _PENDING:
            window_over = ticks_diff(now, self.t0[ch]) >= self.bounce
            if active and stable >= self.glitch:
                ph = self.phase[ch] = _PRESSED
                self.emit(PRESS, ch, self.t0[ch], self.edges[ch])
            elif not active and stable >= self.glitch and (window_over or stable >= self.quiet):
                self.phase[ch] = _IDLE
                self.emit(GLITCH, ch, self.t0[ch], self.edges[ch])
                return
            elif window_over:  # never settled: it chatters
                if ticks_diff(now, self.chatter_since[ch]) >= self.stuck:
                    self.phase[ch] = _STUCK
                    self.emit(STUCK, ch, now, self.edges[ch])
                    return
                self.t0[ch] = self.last_active[ch]  # a press, if one comes, begins with the latest burst
        if ph == _PRESSED:
            if active and stable >= self.stuck:
                self.phase[ch] = _STUCK
                self.emit(STUCK, ch, ticks_add(self.last[ch], self.stuck), self.edges[ch])
            elif not active and stable >= self.bounce:
                self.phase[ch] = _IDLE
                self.edges[ch] = 0
        elif ph == _STUCK and not active and stable >= self.bounce:
            self.phase[ch] = _IDLE
            self.edges[ch] = 0
            self.emit(UNSTUCK, ch, self.last[ch], 0)

    def pending_before(self, t):
        """``t``, or the first edge of a press still pending (not yet accepted or
        dropped) if earlier: no press stamped before the result can come later."""
        for i in range(self.nbusy):
            ch = self.busy[i]
            if self.phase[ch] == _PENDING and ticks_diff(self.t0[ch], t) < 0:
                t = self.t0[ch]
        return t

    def is_down(self, ch):
        """Accepted and not yet released (a station light can follow it)."""
        return self.phase[ch] == _PRESSED
