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

MASK = (1 << 30) - 1
now = [MASK - 20000]  # start 20 ms before the 2^30 wrap


def ticks_us():
    return now[0]


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    pins = {}

    def __init__(self, pid, mode=-1, pull=-1, value=None):
        self.pid = pid
        self.level = 1 if value is None else value
        self.handler = None
        Pin.pins[pid] = self

    def value(self, v=None):
        if v is None:
            return self.level
        self.level = v

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler


class SPI:
    def __init__(self, *a, **kw):
        self.sr = bytearray(b"\xff")
        self.written = b""

    def readinto(self, buf):
        buf[:] = self.sr

    def write(self, data):
        self.written = bytes(data)


class HW:
    Pin = Pin
    spi = None

    @staticmethod
    def SPI(*a, **kw):
        HW.spi = SPI()
        return HW.spi


class PinMap:
    DIRECT = {0: 2, 1: 3}
    SPI = {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000}
    SR_LOAD = 17
    SR_CHIPS = 1
    LIGHT_LATCH = 20
    LIGHT_CHIPS = 1
    STATUS_LED = 25
    ACTIVE_LEVEL = 0
    DEBOUNCE = {"bounce_us": 10000, "glitch_us": 1000, "stuck_us": 10000000}


class Link:
    def __init__(self):
        self.sent = []
        self.inbox = b""

    def read(self):
        d = self.inbox
        self.inbox = b""
        return d

    def write(self, data):
        self.sent.append(bytes(data))
        return len(data)


print("crc", "%04X" % proto.crc16(b"123456789"))
print("frame", proto.frame("P 1 c=3 t=5"))

link = Link()
board = app.Board(HW, link, PinMap, ticks_us, "cafe0001", edge_cap=8, event_cap=4)
pin = Pin.pins[2]

# 1. the IRQ handler does not allocate: run it with the heap locked
def irq_edge(level):
    pin.level = level
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
pin.level = 1
pin.handler(pin)
run(30000)
# 2. the IRQ ring is bounded: 20 edges into 8 slots, the rest counted
for i in range(20):
    pin.level = i & 1
    pin.handler(pin)
print("edges_dropped", board.edges.dropped)
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
sys.stdout.write("done\n")
