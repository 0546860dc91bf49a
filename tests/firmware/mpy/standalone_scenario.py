# Lockout box mode (buzzer/standalone.py) in virtual time, run under MicroPython and
# CPython (tests/firmware/test_fw_standalone.py compares the two line for line): no
# host speaks, the board arms its own contest, the first bell lights with the buzzer,
# the reset re-arms, a tie lights both, and a host that comes back reads it all.
from buzzer import app, proto
from fakehw import HW, Link, edge, run_board

now = [1000]


def ticks_us():
    return now[0]


class PinMap:
    DIRECT = {0: 2, 1: 3, 2: 4, 3: 5}  # bells on channels 0..2, the moderator's reset on 3
    SPI = {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000}
    SR_LOAD = 17
    SR_CHIPS = 0
    LIGHT_LATCH = 20
    LIGHT_OE = 22
    LIGHT_CHIPS = 1
    STATUS_LED = 25
    ACTIVE_LEVEL = 0
    DEBOUNCE = {"bounce_us": 10000, "glitch_us": 1000, "stuck_us": 10000000}
    STANDALONE = {"bells": {0: 0, 1: 1, 2: 2}, "reset": 3, "buzzer": 7, "buzz_ms": 300, "hold_s": 60}


link = Link()
board = app.Board(HW, link, PinMap, ticks_us, "box00001")


def run(us, step=100):
    run_board(board, now, us, step)


def lamps():
    """The lamps the 74HC595 shows (bit i: light channel i)."""
    return f"{board.light_bytes[0]:08b}"


def press(gp, hold=20000):
    edge(gp, 0)
    run(hold)
    edge(gp, 1)
    run(15000)


run(1000000)
print("host_away_at_1s", board._host_away, "armed", board.lockout.id)
run(2500000)
print("host_away_at_3.5s", board._host_away, "armed", board.lockout.id, "own", board.lockout.own, "lamps", lamps())
press(3)  # bell 1 (GP3)
print("after_bell1", "lamps", lamps(), "buzzer", board.light_mode[7])
press(2)  # bell 0, locked out
print("after_bell0_late", "lamps", lamps())
run(300000)
print("buzzer_after_300ms", board.light_mode[7], "lamps", lamps())
press(5)  # the reset
print("after_reset", "lamps", lamps(), "armed", board.lockout.id, "own", board.lockout.own)
edge(2, 0)  # bells 0 and 2 in the same instant: a tie
edge(4, 0)
run(20000)
edge(2, 1)
edge(4, 1)
run(15000)
print("after_tie", "lamps", lamps())
# the host comes back: a hello, and it reads what the board held for it
link.sent = []
link.inbox = proto.frame("?") + proto.frame("R 0")
run(10000)
for raw in link.sent:
    body = proto.unframe(raw)
    if body[0] in "FP":
        print("line", body)
print("host_away", board._host_away)
print("done")
