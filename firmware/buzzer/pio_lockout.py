"""First press to lamp in PIO: the lockout box's logic in state machines, not the CPU.

THE LOCKOUT IS ``bell_program`` (end of this module): one state machine per
bell and a LOCK pin per PIO block, so the first confirmed press lights alone
and only presses confirmed in the same cycles tie -- the rule of a quiz-bowl
lockout and of the CPU path (``lockout.py``). ``program`` (below) is DEMOTED:
it filters the pressed *set*, so a bell that joins within the glitch time of
another (1 ms on the stock profile, 50 times the box's 20 µs tie window)
shares the lamp. It is kept only as the emulator's comparison (the chain
shifter, and the test that shows its unfair tie); nothing arms it and it is
not to be wired in. firmware/README.md ("Lockout in PIO") gives the choice
and the figures; ``PioBells`` is its CPU side. NOT YET RUN ON HARDWARE. ``app.Board``
runs it when the pin map has ``PIO_LOCKOUT`` (the lockout box's map,
wiring/board-pinmap-lockout.toml); other boards keep the CPU lamp path of
``lockout.py``. Both programs are
checked cycle by cycle in a PIO emulator (tests/firmware/test_fw_pio_lockout.py;
``benchmarks/board_lockout.py`` prints their latency).

``program`` (demoted), for the record:

One state machine at the system clock (125 MHz) watches ``n`` bell inputs on
consecutive GPIOs from ``in_base`` (pulled up, pressed = low) and:

* waits for any input pressed (a 4-cycle sampling loop);
* takes the pressed set as the candidate and counts the glitch filter down in
  cycles: every sample (7 cycles, + ``pad``) must equal the candidate; any
  change (a bounce, a second bell joining, a release) restarts the count with
  the new set, and a release of every input goes back to waiting;
* when the count runs out the candidate is the winner: every input in it was
  pressed in the same sample and stayed pressed for the glitch time, so it is
  a tie and all of them light;
* drives the winner's lamps itself: ``mode="direct"`` writes the set to ``n``
  lamp GPIOs from ``out_base`` (lamp i for bell i, active high);
  ``mode="chain"`` shifts 8 bits (lamp i of the first 74HC595 is bell i, Q7
  first) with MOSI as the OUT pin and SCK as side-set, 64 ns per clock
  phase (7.8 MHz, inside the 74HC595's limits at 3.3 V), and pulses RCLK (a
  SET pin): the lamps latch. The other chips' bits are to be shifted in by the
  CPU at the arm (without a latch; not written yet), so that these 8 bits
  push them into place;
* pushes the winning set to the RX FIFO (the CPU reads it, stamps and reports
  as the CPU path does) and stalls on ``pull`` until the CPU re-arms it
  (``sm.put(0)``; it starts stalled), lamps left as they are until the CPU
  writes them.

Four registers are all the state machine has: Y holds the candidate, OSR the
count, X and ISR the sample. The count's start (``glitch`` in iterations) is
built into the program from three 5-bit ``set`` values, so a new glitch time
is a new program (``program(...)`` is cheap; the arm keeps it while the
profile's glitch does not change).
"""

# ruff: noqa: F821 - mov, in_, pins, isr... are the PIO assembler's names, given by rp2.asm_pio
import rp2

FREQ = 125_000_000
SAMPLE = 7  # cycles per sample while counting (one filter iteration without pad)
LEAD = 13  # cycles from the sample that saw the candidate to the first counting sample, + the last
CHAIN_BITS = 8
HALF = 8  # cycles per SCK phase (1 + delay 7)
MAX_COUNT = (1 << 15) - 1
MAX_PAD = 7


def iterations(glitch_cycles):
    """(count, pad): the filter confirms ``LEAD + (count + 1) * (SAMPLE + pad)`` cycles
    after the sample that saw the pressed set, the first such figure >= the glitch time."""
    for pad in range(MAX_PAD + 1):
        step = SAMPLE + pad
        count = max(0, -(-(glitch_cycles - LEAD) // step) - 1)
        if count <= MAX_COUNT:
            return count, pad
    raise ValueError("glitch of %d cycles is too long for the PIO lockout (at most %d)"
                     % (glitch_cycles, LEAD + (MAX_COUNT + 1) * (SAMPLE + MAX_PAD)))


def program(n, glitch_cycles, mode="direct"):
    """The lockout program for ``n`` bells and a glitch filter of ``glitch_cycles``."""
    if not 1 <= n <= CHAIN_BITS * (1 if mode == "chain" else 4):
        raise ValueError("%d bells: the PIO lockout takes 1..%d" % (n, 8 if mode == "chain" else 32))
    count, pad = iterations(glitch_cycles)
    k1, k2, k3 = count >> 10, (count >> 5) & 31, count & 31
    chain = mode == "chain"
    if chain:
        deco = rp2.asm_pio(out_init=rp2.PIO.OUT_LOW, set_init=rp2.PIO.OUT_LOW,
                           sideset_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT,
                           out_shiftdir=rp2.PIO.SHIFT_LEFT)
    elif mode == "direct":
        deco = rp2.asm_pio(out_init=(rp2.PIO.OUT_LOW,) * n, in_shiftdir=rp2.PIO.SHIFT_LEFT,
                           out_shiftdir=rp2.PIO.SHIFT_RIGHT)
    else:
        raise ValueError("mode %r: direct or chain" % (mode,))

    @deco
    def lockout():
        label("start")
        pull(block)  # stalled until the CPU arms (sm.put)
        label("idle")
        mov(isr, invert(null))
        in_(pins, n)  # pin i -> bit i, the bits above are ones
        mov(x, invert(isr))  # pressed set: bit i = bell i low
        label("changed")
        jmp(not_x, "idle")
        mov(y, x)  # the candidate
        mov(isr, null)
        set(x, k1)
        in_(x, 5)
        set(x, k2)
        in_(x, 5)
        set(x, k3)
        in_(x, 5)
        mov(osr, isr)  # the count
        wrap_target()
        mov(isr, invert(null))
        in_(pins, n)
        mov(x, invert(isr))
        jmp(x_not_y, "changed")  # a bounce, another bell, a release: count again
        mov(x, osr)
        jmp(x_dec, "more")[pad]
        jmp("won")
        label("more")
        mov(osr, x)
        wrap()
        label("won")
        mov(osr, y)
        if chain:
            out(null, 32 - CHAIN_BITS)  # shift left: bell 7's lamp first, bell 0's last (Q0)
            set(x, CHAIN_BITS - 1)
            label("bit")
            out(pins, 1).side(0)[HALF - 1]
            jmp(x_dec, "bit").side(1)[HALF - 1]
            set(pins, 1).side(0)[HALF - 1]  # RCLK rises: the lamps latch
            set(pins, 0)
        else:
            out(pins, n)  # the lamps light
        mov(isr, y)
        push(noblock)  # the winning set, for the CPU
        jmp("start")

    return lockout


class PioLockout:
    """The CPU's side of the demoted ``program`` (Pico only; nothing constructs it):
    arm, read the winner. ``bells``: first GPIO of ``n``."""

    def __init__(self, sm_id, bells, n, glitch_us, lamps=None, chain=None):
        from machine import Pin

        self.n = n
        cycles = glitch_us * (FREQ // 1_000_000)
        if chain:  # (sck, mosi, rclk)
            sck, mosi, rclk = chain
            prog = program(n, cycles, "chain")
            self.sm = rp2.StateMachine(sm_id, prog, freq=FREQ, in_base=Pin(bells),
                                       out_base=Pin(mosi), set_base=Pin(rclk), sideset_base=Pin(sck))
        else:
            prog = program(n, cycles, "direct")
            self.sm = rp2.StateMachine(sm_id, prog, freq=FREQ, in_base=Pin(bells), out_base=Pin(lamps))
        self.sm.active(1)

    def arm(self):
        """A new contest: the state machine leaves its stall and watches the bells."""
        while self.sm.rx_fifo():
            self.sm.get()
        self.sm.put(0)

    def winner(self):
        """The winning set (bit i: bell i lit), or 0 while nobody has won."""
        return self.sm.get() if self.sm.rx_fifo() else 0


BELL_STEP = 5  # cycles per glitch-filter step of ``bell_program``
BELL_LEAD = 4  # cycles from the bell's low level to its first step, + the win path's check


def bell_count(glitch_cycles):
    """The count word the CPU puts to arm a ``bell_program`` state machine."""
    return max(0, -(-(glitch_cycles - BELL_LEAD) // BELL_STEP) - 1)


def bell_program(other_lock):
    """One state machine per bell, first confirmed press wins: THE lockout program.

    ``program`` filters the pressed *set*: a bell that joins within the glitch
    time of another restarts the count and ties with it. Here every bell has
    its own state machine and its own count (in_base = the bell, pressed =
    low; jmp_pin and set_base = this PIO block's LOCK pin; side-set = the
    bell's lamp, a direct GPIO), so each press is confirmed at its own last
    edge + the glitch time. The first to confirm sets LOCK and lights its lamp
    in the same instruction; one that confirms later finds LOCK high (this
    block's, by ``jmp pin``; the other block's, ``other_lock``, by a ``wait``
    that never passes) and stays dark. Two confirming in the same cycle (or
    within the pins' synchroniser, 2 cycles) both light: a tie. The CPU arms
    with ``init`` (back to the top) and ``sm.put(bell_count(...))``: ``PioBells``.
    """

    @rp2.asm_pio(set_init=rp2.PIO.OUT_LOW, sideset_init=rp2.PIO.OUT_LOW, in_shiftdir=rp2.PIO.SHIFT_LEFT)
    def bell():
        set(pins, 0).side(0)  # LOCK low, lamp dark
        pull(block).side(0)  # armed: OSR = the count
        label("idle")
        wait(0, pin, 0).side(0)  # the bell pressed
        mov(y, osr).side(0)
        label("count")
        mov(isr, null).side(0)
        in_(pins, 1).side(0)
        mov(x, isr).side(0)
        jmp(not_x, "held").side(0)
        jmp("idle").side(0)  # released: a bounce, the count starts again at the next press
        label("held")
        jmp(y_dec, "count").side(0)
        jmp(pin, "lost").side(0)  # this block's LOCK: somebody won already
        wait(0, gpio, other_lock).side(0)  # the other block's: never passes once it won
        set(pins, 1).side(1)  # LOCK high and this bell's lamp on, the same cycle
        mov(isr, null).side(1)
        push(noblock).side(1)  # for the CPU
        pull(block).side(1)  # lit until the CPU re-arms
        label("lost")
        pull(block).side(0)

    return bell


class PioBells:
    """The CPU's side of ``bell_program``: one state machine per bell, bells 0..3 in PIO0
    (state machines 0..3), 4..7 in PIO1 (4..7), one program per block (the four machines
    of a block share its instructions: four copies would not fit). ``app.Board`` builds
    it from a pin map's ``PIO_LOCKOUT`` (``from_pinmap``) and arms it for a contest whose
    every competitor is one of its bells.

    ``pairs``: (bell GPIO, lamp GPIO) per bell; ``locks``: the LOCK GPIO of PIO0 and PIO1.
    ``Pin``: ``machine.Pin``; ``StateMachine``: ``rp2.StateMachine`` (the simulator and
    the tests give stand-ins)."""

    def __init__(self, pairs, locks, glitch_us, Pin=None, StateMachine=None):
        if Pin is None:
            from machine import Pin
        if not 1 <= len(pairs) <= 8:
            raise ValueError("%d bells: the PIO lockout takes 1..8 (a state machine each)" % len(pairs))
        self.count = bell_count(glitch_us * (FREQ // 1_000_000))
        progs = (bell_program(locks[1]), bell_program(locks[0]))  # a block waits on the other's LOCK
        self.setups = []
        for i, (bell, lamp) in enumerate(pairs):
            lock = Pin(locks[i // 4], Pin.OUT, value=0)
            self.setups.append((progs[i // 4], {"freq": FREQ, "in_base": Pin(bell, Pin.IN, Pin.PULL_UP),
                                                "set_base": lock, "jmp_pin": lock,
                                                "sideset_base": Pin(lamp, Pin.OUT, value=0)}))
        self.sms = [(StateMachine or rp2.StateMachine)(i) for i in range(len(pairs))]

    @classmethod
    def from_pinmap(cls, pinmap, Pin=None, StateMachine=None):
        """``PIO_LOCKOUT = {"lamps": {bell channel: lamp GPIO}, "locks": (PIO0's, PIO1's)}``:
        the bells in channel order (``self.channels``), state machine i for the i-th."""
        cfg = pinmap.PIO_LOCKOUT
        chs = sorted(cfg["lamps"])
        pio = cls([(pinmap.DIRECT[ch], cfg["lamps"][ch]) for ch in chs], cfg["locks"],
                  pinmap.DEBOUNCE["glitch_us"], Pin, StateMachine)
        pio.channels = chs
        return pio

    def _init(self):
        for i, sm in enumerate(self.sms):  # (no zip(strict=) in MicroPython)
            prog, kw = self.setups[i]
            sm.init(prog, **kw)
            sm.active(1)

    def arm(self, mask=-1, glitch_us=0):
        """A new contest: every machine from its program's start (``init`` clears its FIFOs
        and jumps there wherever the program sits), LOCK low and lamps dark, then the count
        to the machines of ``mask`` (bit i: bell i; the others stay stalled, dark).
        ``glitch_us``: the contest's glitch filter (0: the pin map's)."""
        self._init()
        self.add(mask, glitch_us)

    def add(self, mask, glitch_us=0):
        """More bells join the armed contest (a repeated arm): their machines get the count."""
        count = bell_count(glitch_us * (FREQ // 1_000_000)) if glitch_us else self.count
        for i, sm in enumerate(self.sms):
            if mask >> i & 1:
                sm.put(count)

    def disarm(self):
        """The contest is over: every machine back to its start, stalled, lamps dark."""
        self._init()

    def winners(self):
        """The bells whose machines lit their lamps since the arm (bit i: bell i)."""
        won = 0
        for i, sm in enumerate(self.sms):
            while sm.rx_fifo():
                sm.get()
                won |= 1 << i
        return won
