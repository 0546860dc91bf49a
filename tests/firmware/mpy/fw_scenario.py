# Runs under MicroPython (run_firmware.mjs) and under CPython (the pytest runs
# both and compares): the board firmware with stand-ins for machine, a fake
# clock and a fake USB link. Prints one result per line.
import sys

try:
    import micropython
except ImportError:
    micropython = None

from buzzer import app, proto
from buzzer.debounce import Debouncer, ticks_diff
from fakehw import HW, SPI, Link, Pin

MASK = (1 << 30) - 1
now = [MASK - 20000]  # start 20 ms before the 2^30 wrap


def ticks_us():
    return now[0]


def watch_pin(pin, mode, pull, value):
    """The light chain's latch and /OE, as the board drives them."""
    if mode is not None:
        if pin.pid == PinMap.LIGHT_OE:
            hwlog.append("oe out %s" % value if mode == Pin.OUT else "oe input pull=%s" % pull)
    elif pin.pid in (PinMap.LIGHT_LATCH, PinMap.LIGHT_OE):
        hwlog.append("pin %d=%d" % (pin.pid, value))


Pin.watch = watch_pin
SPI.watch = lambda data: hwlog.append("spi %s" % data.hex())


class PinMap:
    DIRECT = {0: 2, 1: 3}
    SPI = {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000}
    SR_LOAD = 17
    SR_CHIPS = 1
    LIGHT_LATCH = 20
    LIGHT_OE = 22
    LIGHT_CHIPS = 1
    STATUS_LED = 25
    ACTIVE_LEVEL = 0
    DEBOUNCE = {"bounce_us": 10000, "glitch_us": 1000, "stuck_us": 10000000}


print("crc", "%04X" % proto.crc16(b"123456789"))
print("frame", proto.frame("P 1 c=3 t=5"))

hwlog = []  # the light chain's pins and SPI writes, in order
link = Link()
board = app.Board(HW, link, PinMap, ticks_us, "cafe0001", edge_cap=8, event_cap=4)
print("lights_boot", hwlog)  # /OE stays at its pull-up until all-off is written and latched
pin = Pin.pins[2]

# 1. the IRQ handler does not allocate: run it with the heap locked
def irq_edge(level):
    pin.level = level
    pin.trig = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
    pin.handler(pin)

if micropython is not None and hasattr(micropython, "heap_lock"):
    micropython.heap_lock()
    try:
        irq_edge(0)
        ok = True
    except MemoryError:
        ok = False
    micropython.heap_unlock()
    print("irq_no_alloc", ok)
    irq_edge(1)  # keep the edge sequence the same as under CPython
    irq_edge(0)
else:
    print("irq_no_alloc", True)
    irq_edge(0)
    irq_edge(1)
    irq_edge(0)


def run(us, step=250):
    end = now[0] + us
    while ticks_diff(end & MASK, now[0]) > 0:
        now[0] = (now[0] + step) & MASK
        board.step()


run(30000)  # across the wrap: the press is accepted with its first edge's stamp
HW.spi.sr[0] = 0xFF ^ 0x04  # shift-register channel 34 pressed
run(30000)
HW.spi.sr[0] = 0xFF
irq_edge(1)
run(30000)
# 2. the IRQ ring is bounded: 20 edges into 8 slots, the rest counted
for i in range(20):
    irq_edge(i & 1)
print("edges_dropped", board.edges.dropped)
# the direction comes from the IRQ's trigger, not a later read: the pin is back at
# rest when the handler runs, the falling edge is still a falling edge
board.edges.head = board.edges.tail
pin.level = 1
pin.trig = Pin.IRQ_FALLING
pin.handler(pin)
print("edge_level_from_trigger", board.edges.lv[board.edges.tail])
board.edges.head = board.edges.tail
pin.trig = Pin.IRQ_FALLING | Pin.IRQ_RISING  # a pulse shorter than the IRQ latency
pin.handler(pin)
i = board.edges.tail
print("both_triggers", board.edges.lv[i], board.edges.lv[(i + 1) % board.edges.cap])
board.edges.head = board.edges.tail
link.inbox = proto.frame("T 7") + b"L 3 blink\nL 99 on\nbogus\n"
run(300000)
for raw in link.sent:
    body = proto.unframe(raw)
    kind = body.split()[0]
    if kind in "PNKX":
        print("line", body)
    elif kind == "C":
        print("clock_reply", body.split()[1])
print("wraps", board.wraps)
print("light_modes", list(board.light_mode))

# 3. debounce alone: bounce train, glitch, stuck
out = []
d = Debouncer(2, lambda k, c, t, n: out.append((k, c, t, n)), 10000, 1000, 50000, 0)
for t, lv in ((MASK - 100, 0), (MASK - 50, 1), (5, 0)):
    d.edge(0, lv, t & MASK)
d.poll(2000)
d.edge(1, 0, 3000)
d.edge(1, 1, 3200)
d.poll(20000)
d.poll(60000)
d.poll(120000)
d.edge(0, 1, 130000)
d.poll(150000)
print("debounce", out)

# 4. faults: a second board, its own link
def sent_bodies(lnk):
    out = [proto.unframe(raw) for raw in lnk.sent]
    lnk.sent = []
    return out


Pin.pins = {}
link2 = Link()
now[0] = 5000
board2 = app.Board(HW, link2, PinMap, ticks_us, "cafe0002", edge_cap=16, event_cap=4,
                   maintenance=lambda: print("maintenance_called"))
pin2 = Pin.pins[2]
run_board = board


def run2(us, step=250):
    end = now[0] + us
    while ticks_diff(end & MASK, now[0]) > 0:
        now[0] = (now[0] + step) & MASK
        board2.step_guarded()


def press2(p, hold=20000):
    p.level = 0
    p.trig = Pin.IRQ_FALLING
    p.handler(p)
    run2(hold)
    p.level = 1
    p.trig = Pin.IRQ_RISING
    p.handler(p)
    run2(20000)


# a stray Ctrl-C byte (and other control bytes) around a command: noise, not a REPL
link2.inbox = b"\x03T 8\x03\n"
run2(1000)
print("ctrl_c", [b for b in sent_bodies(link2) if b[0] in "CX"])
# an exception in the main loop: an E line, and the loop goes on
real_poll = board2.deb.poll
calls = [0]


def broken_poll(t):
    calls[0] += 1
    if calls[0] == 1:
        raise RuntimeError("injected")
    real_poll(t)


board2.deb.poll = broken_poll
run2(1000)
press2(pin2)
print("fault", [b for b in sent_bodies(link2) if b[0] in "EP"], board2.faults)
# the host stops reading: the loop never blocks, the oldest presses are kept
link2.write = lambda data: 0
for _ in range(6):
    press2(pin2)
print("not_reading", board2.events.next - board2.events.first, board2.events.dropped)
link2.write = lambda data: link2.sent.append(bytes(data)) or len(data)
link2.inbox = proto.frame("R 1") + b"\n"
run2(300000)
print("replayed", [b.split()[1] for b in sent_bodies(link2) if b[0] == "P"])
# rest levels: an input held at its active level (a normally-closed contact at rest)
Pin.pins[3].level = 0
Pin.pins[3].trig = Pin.IRQ_FALLING
Pin.pins[3].handler(Pin.pins[3])
run2(30000)
link2.inbox = b"Q\n?\n"
run2(1000)
print("held", [[w for w in b.split() if w.startswith("held=")][0] for b in sent_bodies(link2) if b[0] in "QH"])
# the way back to the REPL
link2.inbox = b"M repl\n"
run2(1000)


# no REPL by accident: Ctrl-C off, a watchdog fed every loop
class FakeMicropython:
    calls = []

    @staticmethod
    def kbd_intr(c):
        FakeMicropython.calls.append(c)


class FakeWDT:
    def __init__(self, timeout):
        self.timeout = timeout
        self.fed = 0

    def feed(self):
        self.fed += 1


class FakeMachine:
    WDT = FakeWDT


wdt = app.protect(FakeMicropython, FakeMachine)
app.serve(board2, wdt, steps=5)
print("protect", FakeMicropython.calls, wdt.timeout, wdt.fed)


# PIO capture: samples decoded into edges, direction from the sample
class Sampler:
    period_us = 2
    words = []

    def drain(self, b):
        for t, sample in Sampler.words:
            app.pio_words_to_edges(b, t, sample)
        Sampler.words = []


Pin.pins = {}
link3 = Link()
board3 = app.Board(HW, link3, PinMap, ticks_us, "cafe0003", capture="pio", sampler=Sampler())
rest = board3.pio_prev
Sampler.words = [(now[0] + 10, rest & ~(1 << 2) & ~(1 << 3))]  # GP2 and GP3 fall in one sample
board3.step()
print("pio_edges", [(board3.edges.c[i], board3.edges.lv[i], board3.edges.t[i] - now[0]) for i in range(2)])
# GP2 and GP27 pressed at the same instant (issue 21's fault list)
class PinMap27(PinMap):
    DIRECT = {0: 2, 1: 27}


def bodies_of(lnk, kinds):
    return [" ".join(w for w in b.split() if w[:2] in ("c=", "w=", "t=", "p="))
            for b in sent_bodies(lnk) if b[0] in kinds]


def steps(b, us, step=250):
    end = now[0] + us
    while ticks_diff(end & MASK, now[0]) > 0:
        now[0] = (now[0] + step) & MASK
        b.step_guarded()


Pin.pins = {}
now[0] = 1000000
link5 = Link()
board5 = app.Board(HW, link5, PinMap27, ticks_us, "cafe0005")
for gp in (2, 27):  # the IRQ serves GP2, then GP27 one handler later (15 µs)
    p = Pin.pins[gp]
    p.level = 0
    p.trig = Pin.IRQ_FALLING
    p.handler(p)
    now[0] += 15
steps(board5, 30000)
print("gp2_gp27_irq", bodies_of(link5, "P"))
Pin.pins = {}
now[0] = 2000000
link6 = Link()
board6 = app.Board(HW, link6, PinMap27, ticks_us, "cafe0006", capture="pio", sampler=Sampler())
Sampler.words = [(now[0] + 10, board6.pio_prev & ~(1 << 2) & ~(1 << 27))]  # one sample sees both
steps(board6, 30000)
print("gp2_gp27_pio", bodies_of(link6, "P"))

# a press held on the board for 600 s (more than half a wrap) while the host is away
Pin.pins = {}
now[0] = MASK - 100000000  # 100 s before the wrap: the hold crosses it
link7 = Link()
board7 = app.Board(HW, link7, PinMap27, ticks_us, "cafe0007")
link7.write = lambda data: 0  # unplugged: nothing can go out
p = Pin.pins[2]
p.level = 0
p.trig = Pin.IRQ_FALLING
p.handler(p)
for _ in range(12):  # ten minutes, the button held all along (steps() spans < half a wrap)
    steps(board7, 50000000, step=50000)
p.level = 1
p.trig = Pin.IRQ_RISING
p.handler(p)
q = Pin.pins[27]
q.level = 0
q.trig = Pin.IRQ_FALLING
q.handler(q)
steps(board7, 100000)
link7.write = lambda data: link7.sent.append(bytes(data)) or len(data)
link7.inbox = proto.frame("R 0") + b"\n"
steps(board7, 300000)
print("hold_600s", bodies_of(link7, "PN"), board7.wraps)

# lockout (protocol v3): two stations 10 µs apart within a 20 µs tie window (an arm
# with a bad id refused); the lamps latched, the host's end, then the board's timeout
# and a host gone silent
Pin.pins = {}
now[0] = 3000000
link8 = Link()
board8 = app.Board(HW, link8, PinMap27, ticks_us, "cafe0008")
link8.inbox = proto.frame("L arm 7 c=0:0,1:1 g=1000 w=20 to=100000") + b"L arm 0 c=0:0 g=1 w=0 to=1\n"
steps(board8, 1000, step=10)
for gp, delay in ((2, 0), (27, 10)):
    p = Pin.pins[gp]
    now[0] += delay
    p.level = 0
    p.trig = Pin.IRQ_FALLING
    p.handler(p)
steps(board8, 30000, step=10)
sent8 = sent_bodies(link8)
print("lockout_lit", [b for b in sent8 if b[0] in "FX"], HW.spi.written.hex())
print("lockout_then_press", [b.split()[0] + b.split()[1] for b in sent8 if b[0] in "FP"])
link8.inbox = b"L end 7 on=1\n"
steps(board8, 1000, step=10)
print("lockout_end", board8.lockout.id, list(board8.light_mode[:2]), HW.spi.written.hex())
link8.inbox = b"L 1 off\nL arm 8 c=0:0,1:1 g=1000 w=0 to=5000\n"
steps(board8, 1000, step=10)
for gp in (2, 27):  # released, then station 1 presses alone
    Pin.pins[gp].level = 1
    Pin.pins[gp].trig = Pin.IRQ_RISING
    Pin.pins[gp].handler(Pin.pins[gp])
steps(board8, 20000, step=10)
q = Pin.pins[27]
q.level = 0
q.trig = Pin.IRQ_FALLING
q.handler(q)
steps(board8, 2000, step=10)
lit8 = HW.spi.written.hex()
steps(board8, 5000, step=10)
print("lockout_timeout", lit8, HW.spi.written.hex(), board8.lockout.id, list(board8.lockout.dropped))
link8.inbox = b"L 0 on\n"
steps(board8, 1000, step=10)
steps(board8, 3000000, step=1000)
print("lockout_link_away", HW.spi.written.hex(), board8.link_aways, list(board8.light_mode[:2]))

# an arm's start stamp names its boot (firmware 3.4): one of another boot's clock (the
# host armed the boot before a reboot it had not heard of) starts from the arm; this
# boot's stamp, or one naming no boot (an older host), counts
Pin.pins = {}
now[0] = 4000000
link9 = Link()
board9 = app.Board(HW, link9, PinMap27, ticks_us, "cafe0009")
starts = []
for cid, boot in ((1, " b=cafe0001"), (2, " b=cafe0009"), (3, "")):
    link9.inbox = proto.frame("L arm %d c=0:0,1:1 g=1000 w=20 to=100000 s=3900000%s" % (cid, boot)) + b"\n"
    steps(board9, 1000, step=10)
    starts.append((board9.lockout.id, ticks_diff(board9.lockout.start, 3900000)))
print("arm_boot", starts, now[0])
sys.stdout.write("done\n")
