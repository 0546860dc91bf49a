"""A stand-in for MicroPython's ``rp2`` as far as the PIO lockout uses it
(``buzzer/pio_lockout.py``: ``bell_program`` and ``PioBells``), for the board
simulator (controller/box/sources/board_sim.py) and the firmware's tests under
CPython and under MicroPython (tests/firmware/mpy). Never copied to a Pico.

``asm_pio`` does not assemble: every program it is given is taken for
``bell_program``, whose behaviour ``Bells`` models in virtual time, one bell a
state machine:

* ``put(count)`` arms a machine; its bell low (pressed) from an instant ``s``
  (the last falling edge, or the put if it was low already) and held confirms
  at ``s + (BELL_LEAD + (count + 1) * BELL_STEP)`` cycles of 8 ns (125 MHz);
* the first confirmation sets its block's LOCK and lights its lamp; every
  machine confirming in the same nanosecond lights too (a tie); any later one
  finds a LOCK high and stays dark; a release before the confirmation is a
  glitch (the count starts again at the next press);
* the winner pushes a word to its RX FIFO and holds its lamp until ``init``.

Cycle-exact, the very program is run in a PIO emulator by
tests/firmware/test_fw_pio_lockout.py, which also checks this model against it.
Times are board ticks (µs, 30 bits) and ns after them.
"""

NS_PER_CYCLE = 8
_HALF = 1 << 29


def ticks_diff(a, b):
    """buzzer/debounce.py's (this module imports nothing of the firmware's: it is ``rp2``)."""
    return ((a - b + _HALF) & ((1 << 30) - 1)) - _HALF


def _gp(pin):
    return pin.id if hasattr(pin, "id") else pin.pid  # the simulator's Pin / tests/firmware/mpy's


class PIO:
    OUT_LOW = 2
    OUT_HIGH = 3
    SHIFT_LEFT = 0
    SHIFT_RIGHT = 1


class Program:
    def __init__(self, kw):
        self.kw = kw


def asm_pio(**kw):
    def deco(fn):
        return Program(kw)

    return deco


class Machine:
    """One state machine as the CPU sees it (``init``, ``active``, ``put``, the RX FIFO)."""

    def __init__(self, bells, i):
        self.bells = bells
        self.i = i
        self.kw = None
        self.rx = []
        self.armed_ns = -1  # glitch filter in ns; -1: stalled (not armed, or done)
        self.low_since = -1  # board ticks the bell went low (and stayed), -1: released
        self.inits = 0

    def init(self, prog, **kw):
        self.kw = kw
        self.rx = []
        self.armed_ns = -1
        self.inits += 1
        self.bells.lock[self.i // 4] = 0  # its first instruction: LOCK low, lamp dark
        kw["set_base"].value(0)
        kw["sideset_base"].value(0)
        self.bells.lamps[self.i] = 0

    def active(self, on):
        pass

    def put(self, count):
        if self.armed_ns >= 0 or self.kw is None:
            return
        self.bells.settle()
        self.armed_ns = (self.bells.lead + (count + 1) * self.bells.step) * NS_PER_CYCLE
        gp = self.gpio()
        self.low_since = self.bells.clock() if self.bells.levels.get(gp, 1) == 0 else -1

    def gpio(self):
        return _gp(self.kw["in_base"])

    def rx_fifo(self):
        self.bells.settle()
        return len(self.rx)

    def get(self):
        return self.rx.pop(0)


class Bells:
    """Every ``bell_program`` state machine of both PIO blocks. ``clock``: the board's
    ``ticks_us``; ``level(gp, lv)``: a bell's pin changed now (the simulator calls it).
    ``lead``, ``step``: ``pio_lockout.BELL_LEAD`` and ``BELL_STEP`` (the count's cycles)."""

    def __init__(self, clock, lead, step):
        self.clock = clock
        self.lead = lead
        self.step = step
        self.machines = {}
        self.levels = {}  # GPIO -> level, as the bells' pins show it
        self.lock = [0, 0]
        self.lamps = {}  # machine -> its lamp lit

    def StateMachine(self, i):
        m = self.machines.get(i)
        if m is None:
            m = self.machines[i] = Machine(self, i)
        return m

    def level(self, gp, lv):
        self.settle()  # what confirmed before this change, in its order
        self.levels[gp] = lv
        now = self.clock()
        for m in self.machines.values():
            if m.armed_ns >= 0 and m.gpio() == gp:
                m.low_since = now if lv == 0 else -1

    def settle(self):
        """Light what confirmed by now: the earliest confirmations, to the nanosecond."""
        if self.lock[0] or self.lock[1]:
            return
        now = self.clock()
        best = None
        first = []
        for m in self.machines.values():
            if m.armed_ns < 0 or m.low_since < 0:
                continue
            due = m.armed_ns - 1000 * ticks_diff(now, m.low_since)  # ns from now to its confirmation
            if due > 0:
                continue
            if best is None or due < best:
                best, first = due, [m]
            elif due == best:
                first.append(m)
        for m in first:
            self.lock[m.i // 4] = 1
            m.kw["set_base"].value(1)
            m.kw["sideset_base"].value(1)
            self.lamps[m.i] = 1
            m.rx.append(0)
            m.armed_ns = -1

    def lit(self):
        """The lamp GPIOs lit now."""
        self.settle()
        return sorted(_gp(self.machines[i].kw["sideset_base"]) for i, on in self.lamps.items() if on)
