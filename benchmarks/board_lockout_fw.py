# The board firmware's lockout against a real clock: runs under MicroPython
# (benchmarks/board_lockout.py starts it through tests/firmware/mpy/run_firmware.mjs)
# and under CPython (PYTHONPATH=firmware), with the stock pin map, stand-ins for the
# pins and SPI, and a press that interrupts the loop whenever its moment has come
# (the first clock read after it runs the pin's IRQ handler, as a hard IRQ would).
# The stand-ins are tests/firmware/mpy/fakehw.py. Prints one result per line: "lat" (the glitch filter's confirmation -> the lamp
# latch, as the board measured it, µs), "latch" (the same from the latch pin's own
# record), "loop_idle"/"loop_armed" (main-loop pass, µs), "tick_cost", "path_cost"
# and "idle_pass" (the lamp path and an idle pass on a clock that stands still).
import sys

from buzzer import app, proto
from buzzer import pinmap as PINMAP
from buzzer.debounce import ticks_diff
from fakehw import HW, SPI, Link, Pin

MASK = (1 << 30) - 1
CONTESTS = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 150
SEED = 12345

if sys.implementation.name == "micropython":
    import js  # the WebAssembly port under Node: time.ticks_us there counts whole ms

    _perf = js.performance

    def real_us():
        return int(_perf.now() * 1000)
else:
    import time

    def real_us():
        return time.perf_counter_ns() // 1000

_rng = [SEED]


def rand(n):
    """A small LCG: the same press plan under both interpreters."""
    _rng[0] = (_rng[0] * 1103515245 + 12345) & 0x7FFFFFFF
    return _rng[0] % n


pending = []  # (due ticks, gp, level): the press plan
in_irq = [False]
latches = []  # ticks of every RCLK rising edge of the light chain


def ticks_us():
    t = real_us() & MASK
    if pending and not in_irq[0] and ticks_diff(t, pending[0][0]) >= 0:
        in_irq[0] = True
        _due, gp, lv = pending.pop(0)
        pin = Pin.pins[gp]
        pin.level = lv
        pin.trig = Pin.IRQ_RISING if lv else Pin.IRQ_FALLING
        pin.handler(pin)
        in_irq[0] = False
    return t


def watch_pin(pin, mode, pull, value):
    if mode is None and pin.pid == PINMAP.LIGHT_LATCH and value == 1:
        latches.append((real_us() & MASK, shifted[0]))


def watch_spi(data):
    shifted[0] = data


shifted = [b""]  # what the light chain holds until the next latch
Pin.watch = watch_pin
SPI.chips = PINMAP.SR_CHIPS
SPI.watch = watch_spi


def pct(values, p):
    if not values:
        return -1
    s = sorted(values)
    return s[min(len(s) - 1, int(p * len(s)))]


def path_cost(board, ch, glitch, n=2000):
    """The lamp path alone (one confirmed press -> lamps latched, its report queued)
    and an idle main-loop pass, both on a clock that stands still: the interpreter's
    cost of each, without the clock reads or the machine's scheduling."""
    frozen = real_us() & MASK
    board.ticks = lambda: frozen
    board.link.inbox = proto.frame("L arm 9999 c=%d:%d g=%d w=0 to=1000000 s=%d" % (ch, ch, glitch, frozen - 2 * glitch))
    board.step()
    lk, deb, lit = board.lockout, board.deb, board._lit
    deb.phase[ch], deb.level[ch], deb.t0[ch], deb.last[ch] = 1, 0, frozen - glitch, frozen - glitch
    batches = []
    for _ in range(20):  # the median batch: a batch the machine interrupted does not count
        t0 = real_us()
        for _ in range(n // 20):
            lk.decide(ch, frozen - glitch, frozen, lit)
            board._latch_lit()
            del lit[:]
            lk.state[ch] = 0
            lk.has_winner = False
        batches.append((real_us() - t0) / (n // 20))
    path = pct(batches, 0.5)
    deb.phase[ch], deb.level[ch] = 0, 1
    board.link.inbox = proto.frame("L end 9999 on=-")
    board.step()
    batches = []
    for _ in range(20):
        t0 = real_us()
        for _ in range(n // 20):
            board.step()
        batches.append((real_us() - t0) / (n // 20))
    board.ticks = ticks_us
    return path, pct(batches, 0.5)


def main():
    t0 = real_us()
    for _ in range(2000):
        ticks_us()
    tick_cost = (real_us() - t0) / 2000
    link = Link()
    import gc

    board = app.Board(HW, link, PINMAP, ticks_us, "bench001", spin_us=app.LOCKOUT_SPIN_US, collect=gc.collect)
    direct = sorted(PINMAP.DIRECT)[:8]  # eight stations on direct pins
    glitch = PINMAP.DEBOUNCE["glitch_us"]
    loop_idle, loop_armed, lat, latch = [], [], [], []
    seq_acked = 0

    def run(us, bucket, done=None):
        end = (real_us() + us) & MASK
        while ticks_diff(real_us() & MASK, end) < 0 and not (done and done()):
            a = real_us()
            board.step()
            bucket.append(real_us() - a)

    for k in range(1, CONTESTS + 1):
        pairs = ",".join("%d:%d" % (ch, ch) for ch in direct)
        link.inbox = proto.frame("L arm %d c=%s g=%d w=20 to=1000000 s=%d" % (k, pairs, glitch, ticks_us())) + \
            proto.frame("A %d" % seq_acked)
        run(1000, loop_armed)
        ch = direct[rand(len(direct))]
        gp = PINMAP.DIRECT[ch]
        at = (real_us() + 500 + rand(3000)) & MASK
        plan = [(at, gp, 0)]
        if rand(2):  # a bounce train: the confirming edge is its last one
            plan += [((at + 80) & MASK, gp, 1), ((at + 150 + rand(200)) & MASK, gp, 0)]
        pending[:] = plan
        del latches[:]
        # until the press has come and the lockout has judged it: readiness, not a window of
        # real time (a process this machine preempts for ms would see its press after the
        # window had closed: the unlit contests of the runs before this); 1 s only catches a hang
        run(1000000, loop_armed, lambda c=ch: not pending and board.lockout.state[c] != 0)
        run(1000, loop_armed)  # the F line goes out
        confirmed = board.deb.last[ch]  # the press's last edge: the filter confirms glitch µs after it
        byte, bit = PINMAP.LIGHT_CHIPS - 1 - (ch >> 3), 1 << (ch & 7)
        on = [t for t, data in latches if data and data[byte] & bit]
        if on:  # the first latch that shows the lamp, by the latch pin's own record
            latch.append(ticks_diff(on[0], (confirmed + glitch) & MASK))
        link.inbox = proto.frame("L end %d on=-" % k)
        pending[:] = [((real_us() + 2000) & MASK, gp, 1)]
        run(3000, loop_armed)
        run(PINMAP.DEBOUNCE["bounce_us"] + 2000, loop_idle)
        for raw in link.sent:
            body = proto.unframe(raw)
            if body[0] == "F":
                f = proto.fields(body.split()[2:])
                lat.append(int(f["lat"]))
            if body[0] in "PNF":
                seq_acked = int(body.split()[1])
        link.sent = []
    path, idle = path_cost(board, direct[0], glitch)
    print("runtime", sys.implementation.name)
    print("path_cost", int(path * 100) / 100)
    print("idle_pass", int(idle * 100) / 100)
    print("contests", CONTESTS, len(lat))  # contests, lamps lit
    print("tick_cost", int(tick_cost * 100) / 100)
    for name, values in (("lat", lat), ("latch", latch), ("loop_idle", loop_idle), ("loop_armed", loop_armed)):
        print(name, len(values), pct(values, 0.5), pct(values, 0.99), max(values) if values else -1)
    print("board_worst", board.lockout.worst_us)


main()
