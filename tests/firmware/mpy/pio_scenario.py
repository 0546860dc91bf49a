# The board with the PIO lockout (buzzer/pio_lockout.py PioBells, its state machines the
# model of firmware/rp2_model.py) in virtual time, run under MicroPython and CPython
# (tests/firmware/test_fw_pio_board.py compares the two line for line): the host arms a
# contest of PIO bells, the machines light the first confirmed bell, the CPU reads it,
# mirrors it on the chain and reports it; a later bell stays dark; the host's end darkens
# the PIO lamps; a same-instant pair ties; a contest with a bell held at the arm, or with an
# input no machine watches, runs on the CPU path; lockout box mode runs on the PIO too.
import sys

import rp2_model

sys.modules["rp2"] = rp2_model  # what buzzer/pio_lockout.py imports on the Pico
import fakehw  # noqa: E402
from buzzer import app, proto  # noqa: E402
from buzzer.pio_lockout import BELL_LEAD, BELL_STEP, PioBells  # noqa: E402
from fakehw import HW, Link, Pin  # noqa: E402

now = [1000]


def ticks_us():
    return now[0]


class PinMap:
    DIRECT = {0: 2, 1: 3, 2: 4, 3: 5, 4: 6}  # bells on 0..2 (GP2..4) and 4 (GP6, PIO1); reset on 3
    SPI = {"id": 0, "sck": 18, "mosi": 19, "miso": 16, "baudrate": 4000000}
    SR_LOAD = 17
    SR_CHIPS = 0
    LIGHT_LATCH = 20
    LIGHT_OE = 22
    LIGHT_CHIPS = 1
    STATUS_LED = None
    ACTIVE_LEVEL = 0
    DEBOUNCE = {"bounce_us": 10000, "glitch_us": 1000, "stuck_us": 10000000}
    STANDALONE = {"bells": {0: 0, 1: 1, 2: 2}, "reset": 3, "buzzer": 7, "buzz_ms": 300, "hold_s": 60}
    # bells 0, 1, 2, 4: machines 0..3 (PIO0); lamps GP8..11, LOCKs GP12 and GP13
    PIO_LOCKOUT = {"lamps": {0: 8, 1: 9, 2: 10, 4: 11}, "lights": {0: 0, 1: 1, 2: 2, 4: 4}, "locks": (12, 13)}


bells = rp2_model.Bells(ticks_us, BELL_LEAD, BELL_STEP)
pio = PioBells.from_pinmap(PinMap, Pin, bells.StateMachine)
link = Link()
board = app.Board(HW, link, PinMap, ticks_us, "pio00001", pio=pio)


def edge(gp, level):
    bells.level(gp, level)  # the state machines see it as the IRQ does
    fakehw.edge(gp, level)


def run(us, step=100):
    fakehw.run_board(board, now, us, step)


def host(cmd):
    link.inbox += proto.frame(cmd)
    run(100)


def lamps():
    """The chain's byte (bit i: light channel i) and the PIO lamp GPIOs lit."""
    return "chain %s pio %s" % (f"{board.light_bytes[0]:08b}", ",".join(str(gp) for gp in bells.lit()))


def press(gp, hold=20000):
    edge(gp, 0)
    run(hold)
    edge(gp, 1)
    run(15000)


def lines():
    out = []
    for raw in link.sent:
        body = proto.unframe(raw)
        if body[0] in "FH":
            out.append(body)
    del link.sent[:]
    return out


run(1000)
print("hello", [x for x in lines() if x.startswith("H")][0].split(" pl=")[1])
host("L arm 7 c=0:0,1:1,2:2,4:4 g=1000 w=20 to=10000000")
print("armed", board.lockout.id, "pio", board.pio_contest, lamps())
edge(3, 0)  # bell 1 (GP3)
run(999, step=1)
print("before_confirmation", lamps())
run(2, step=1)
print("confirmed", lamps())
edge(2, 0)  # bell 0 (GP2), 1 ms later: locked out
run(2000)
print("bell0_late", lamps(), "state0", board.lockout.state[0])
edge(2, 1)
edge(3, 1)
run(15000)
for x in lines():
    print("line", x)
host("L end 7 on=1")
print("ended", lamps(), "mode1", board.light_mode[1])
host("L 1 off")
host("L arm 8 c=0:0,2:2,4:4 g=1000 w=20 to=10000000")
edge(4, 0)  # bells 2 and 4 (GP4, GP6) in the same instant: a tie
edge(6, 0)
run(1100, step=1)
print("tie", lamps())
edge(4, 1)
edge(6, 1)
run(15000)
for x in lines():
    print("line", x)
host("L end 8 on=2,4")
host("L * off")
edge(2, 0)  # bell 0 held before the arm: the CPU path judges this contest
run(20000)
host("L arm 9 c=0:0,1:1 g=1000 w=20 to=10000000")
print("held_at_arm pio", board.pio_contest)
edge(2, 1)
run(15000)
host("L end 9")
host("L arm 10 c=0:0,3:3 g=1000 w=20 to=10000000")  # input 3 has no machine: the CPU path
print("input_without_machine pio", board.pio_contest)
host("L end 10")
run(3100000, step=1000)  # no host: lockout box mode, its contest on the PIO
print("standalone", board._host_away, "own", board.lockout.own, "pio", board.pio_contest)
press(4)  # bell 2
print("standalone_bell2", lamps(), "buzzer", board.light_mode[7])
press(5)  # the reset
print("standalone_reset", lamps(), "armed", board.lockout.id, "pio", board.pio_contest)
print("done")
