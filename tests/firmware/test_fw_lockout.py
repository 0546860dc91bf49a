"""The board's lockout (protocol v3), firmware → pty → driver, in virtual time:
the first press past the glitch filter lights its lamp at the very instant of
its confirmation, ties light both, the other lamps stay dark, and the board
lets go of the lamps on the host's word, on its timeout and when no host
speaks any more."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import pytest

from controller.box.sources.board import Arm, BoardSource, LampLit
from controller.box.sources.board_sim import BoardSim
from tests.firmware.conftest import CHANNELS, Sink, wait_until

LAMPS = {(0, "bell"): 0, (1, "bell"): 1, (2, "bell"): 2}
GLITCH = 1000  # the stock pin map's glitch filter (db=10000/1000/...)
#: sim.press bounces at 200, 350, 600 and settles at 650 µs: the filter confirms 1 ms later
CONFIRM_AFTER = 650 + GLITCH


class LampRig:
    def __init__(self) -> None:
        self.sim = BoardSim()
        self.sink = Sink()
        self.lamps: list[LampLit] = []
        self.cv = threading.Condition()
        self.source = BoardSource(CHANNELS, LAMPS, port=lambda: self.sim.port, clock=self.sim.host_clock,
                                  clock_slack_us=0, reconnect_delay_s=0.02)
        self.source.on_lamp = self._lamp
        self.source.start(self.sink)
        self.sink.wait_kinds(["connected"])

    def _lamp(self, lamp: LampLit) -> None:
        with self.cv:
            self.lamps.append(lamp)
            self.cv.notify_all()

    def wait(self, cond: Callable[[], bool], what: str) -> None:
        """Until the board (or the driver) got there: readiness, never a duration
        (the simulator's own thread runs the board's loop meanwhile)."""
        wait_until(cond, what)

    def arm(self, contest: int, stations: tuple[int, ...] = (0, 1, 2), tie_us: int = 20,
            timeout_us: int = 10_000_000) -> None:
        self.source.arm_lockout(Arm(contest, tuple((s, s) for s in stations), GLITCH, tie_us, timeout_us))
        self.wait(lambda: self.sim.board.lockout.id == contest, f"board holds contest {contest}")

    def lit(self) -> set[int]:
        return {ch for ch, on in self.sim.lights().items() if on}

    def close(self) -> None:
        self.source.stop()
        self.sim.close()


@pytest.fixture
def rig() -> Iterator[LampRig]:
    r = LampRig()
    yield r
    r.close()


def test_the_first_press_lights_its_lamp_at_its_confirmation_and_locks_the_others(rig: LampRig) -> None:
    sim = rig.sim
    rig.arm(1)
    a = sim.press(1)
    sim.press(0, at_us=a + 300)  # 300 µs behind: outside the 20 µs tie window
    sim.advance(a + CONFIRM_AFTER - 1 - sim.now_us)
    assert rig.lit() == set()  # one µs before the filter confirms: dark
    sim.advance(1)
    assert rig.lit() == {1}  # at the confirmation itself (the loop waits for it)
    sim.advance(300_000)
    assert rig.lit() == {1}  # station 0 confirmed later: its lamp stays dark
    presses = rig.sink.wait_presses(2)
    assert [p.station for p in presses] == [1, 0]  # the presses reach the Pi as always
    rig.wait(lambda: len(rig.lamps) == 1, "the lamp report")
    lamp = rig.lamps[0]
    assert (lamp.contest, lamp.station, lamp.tie) == (1, 1, False)
    assert lamp.t_us == presses[0].t_us  # the press's own board stamp, mapped as the press is
    assert lamp.lamp_us - lamp.t_us == CONFIRM_AFTER and lamp.latency_us == 0


def test_a_press_within_the_tie_window_lights_both(rig: LampRig) -> None:
    sim = rig.sim
    rig.arm(2, tie_us=20)
    a = sim.press(0)
    sim.press(2, at_us=a + 15)
    sim.advance(300_000)
    assert rig.lit() == {0, 2}
    rig.wait(lambda: len(rig.lamps) == 2, "two lamp reports")
    assert [(x.station, x.tie) for x in rig.lamps] == [(0, False), (2, True)]


def test_the_host_ends_the_contest_with_its_own_decision(rig: LampRig) -> None:
    """The Pi overrides: station 1's lamp goes dark, station 0's (the Pi's winner) on,
    in one command; the lamps are the Pi's again afterwards."""
    sim = rig.sim
    rig.arm(3)
    sim.press(1)
    sim.advance(300_000)
    assert rig.lit() == {1}
    rig.source.end_lockout(3, on=(0,))
    rig.wait(lambda: sim.board.lockout.id == 0, "the contest ended")
    sim.advance(1000)
    assert rig.lit() == {0}
    rig.source.set_light(0, "bell", "off")
    rig.wait(lambda: sim.board.light_mode[0] == 0, "the Pi's lamp off")
    sim.advance(1000)
    assert rig.lit() == set()


def test_a_press_held_from_before_the_contest_never_lights(rig: LampRig) -> None:
    sim = rig.sim
    sim.edges(0, [(0, 0)])  # station 0 holds its button down
    sim.advance(50_000)
    rig.arm(4)
    sim.advance(300_000)
    assert rig.lit() == set()
    sim.press(1)
    sim.advance(300_000)
    assert rig.lit() == {1}


def test_the_board_lets_go_after_its_timeout(rig: LampRig) -> None:
    sim = rig.sim
    rig.arm(5, timeout_us=100_000)
    a = sim.press(2)
    sim.advance(a - sim.now_us + CONFIRM_AFTER + 99_999)
    assert rig.lit() == {2}
    sim.advance(2)
    assert rig.lit() == set()  # the Pi never lit it: its own mode (off) shows
    assert sim.board.lockout.id == 0 and sim.board.lockout.dropped[1] == 1  # dropped for the timeout


def test_no_host_any_more_means_no_lamp_on(rig: LampRig) -> None:
    """The host process dies with a contest won and another lamp on: within the
    board's link timeout every lamp is dark, and a host that comes back is told
    (la=) and sends its lights again."""
    sim = rig.sim
    rig.source.set_light(2, "bell", "on")
    rig.arm(6, stations=(0, 1))
    sim.press(0)
    sim.advance(300_000)
    assert rig.lit() == {0, 2}
    rig.source.stop()  # nobody sends a command any more
    sim.advance(3_100_000)
    assert rig.lit() == set()
    assert sim.board.lockout.id == 0 and sim.board.link_aways == 1
