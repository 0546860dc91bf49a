"""The guided wiring test on the input board (issue 21 point 8): an input wired
on its normally-closed contact reads pressed at rest, through the firmware
(simulated), the pty and the driver, and the report says so."""

from __future__ import annotations

from controller.box import profile as profile_mod
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim
from controller.wiring_pack.guided_test import GuidedTest, run
from tests.firmware.conftest import wait_until


def test_a_board_input_closed_at_rest_is_named_by_the_guided_test() -> None:
    prof = profile_mod.load("board-7-schicki")
    where = {v: k for k, v in prof.input_pins().items()}
    bell = where[(2, "bell")]
    sim = BoardSim()
    try:
        sim.edges(bell, [(0, 0)])  # station 2's bell on its NC contact: active with nobody there
        sim.advance(50_000)
        source = BoardSource.from_profile(prof, port=lambda: sim.port, clock=sim.host_clock,
                                          reconnect_delay_s=0.02)
        test = GuidedTest(prof, timeout_us=20_000, lights=False)  # nobody presses: every other input times out
        said: list[str] = []

        def sleep(us: int) -> None:
            """Virtual time passes; while the board is not yet connected, wait (real
            time) for the driver to read its hello, as half a second of rest would."""
            sim.advance(us)
            if source._sink is not None:  # started: its hello is read however busy the machine (a hang fails)
                wait_until(lambda: source.connected, "the driver reading the board's hello")

        report = run(test, source, now=sim.host_clock, sleep=sleep, ask=lambda q: "y", say=said.append)
        source.stop()
    finally:
        sim.close()
    closed = [p for p in report.problems if "reads pressed with nobody touching it" in p]
    assert len(closed) == 1 and "normally-closed" in closed[0], report.problems[:3]
    assert not any("Press" in s and test.labels[(2, "bell")] in s for s in said)  # not asked: it cannot be pressed
