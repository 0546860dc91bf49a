# Stand-ins for MicroPython's machine module and the USB link, shared by the
# scripts that run the board firmware under MicroPython and CPython
# (fw_scenario.py, benchmarks/board_lockout_fw.py). Each script watches the
# pins it cares about through Pin.watch(pin, mode_or_None, pull, value) and
# the light chain through SPI.watch(data).


def _ignore(*args):
    pass


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    IRQ_FALLING = 4
    IRQ_RISING = 8
    pins = {}
    watch = _ignore  # called on every new pin (mode given) and every level change (mode None)

    def __init__(self, pid, mode=-1, pull=-1, value=None):
        self.pid = pid
        self.level = 1 if value is None else value
        self.handler = None
        self.trig = 0
        Pin.pins[pid] = self
        Pin.watch(self, mode, pull, value)

    def value(self, v=None):
        if v is None:
            return self.level
        if v != self.level:
            Pin.watch(self, None, None, v)
        self.level = v

    def irq(self, handler=None, trigger=0, hard=False):
        self.handler = handler
        return self

    def flags(self):
        return self.trig


class SPI:
    chips = 1  # SN74HCS165 bytes read per latch
    watch = _ignore  # called with every write (the 74HC595 chain)

    def __init__(self, *a, **kw):
        self.sr = bytearray(b"\xff" * SPI.chips)
        self.written = b""

    def readinto(self, buf):
        buf[:] = self.sr

    def write(self, data):
        self.written = bytes(data)
        SPI.watch(self.written)


class HW:
    Pin = Pin
    spi = None

    @staticmethod
    def SPI(*a, **kw):
        HW.spi = SPI()
        return HW.spi


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


def edge(gp, level):
    """A direct pin changes level: its hard IRQ runs, as the rp2 port calls it."""
    pin = Pin.pins[gp]
    pin.level = level
    pin.trig = Pin.IRQ_RISING if level else Pin.IRQ_FALLING
    pin.handler(pin)


def run_board(board, now, us, step=100):
    """``us`` of virtual time (``now[0]``, the board's ticks) in loop passes ``step`` apart."""
    end = now[0] + us
    while now[0] < end:
        now[0] += step
        board.step()
