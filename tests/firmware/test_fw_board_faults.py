"""The whole path firmware → pty → driver → sink, with the faults a box meets.

Times are exact: the simulator's virtual clock drives both the board's
``ticks_us`` and the driver's box clock, so a finger at virtual time X must be
a press at box time ``sim.box_time(X)``."""

from __future__ import annotations

import logging
import threading
import time

import pytest
import serial

from controller.box.press import InputNotice, Press
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim
from tests.firmware.conftest import CHANNELS, LIGHTS, Sink, caught_up, start_driver, wait_until

LOG = "controller.box.sources.board"


def stamps(presses: list[Press]) -> list[tuple[int, str, int]]:
    return [(p.station, p.input, p.t_us) for p in presses]


def test_presses_keep_board_stamps_across_the_2_30_wrap(make_rig) -> None:
    rig = make_rig(start_ticks=(1 << 30) - 2_000_000)  # the board's ticks wrap in 2 s
    sim = rig.sim
    a = sim.press(0)
    b = sim.press(1, at_us=a + 7)  # 7 µs behind: must stay behind
    rig.settle(3_000_000)  # past the wrap
    c = sim.press(2)
    d = sim.press(34, at_us=c + 1)  # a shift-register input
    rig.settle()
    got = rig.sink.wait_presses(4)
    assert sim.board.wraps == 1
    assert stamps(got) == [(0, "bell", sim.box_time(a)), (1, "bell", sim.box_time(b)),
                           (2, "bell", sim.box_time(c)), (1, "a", sim.box_time(d))]
    assert got[0].edges == 5  # the bounce train, counted on the board
    # exact stamps, each declaring what it is worth against another clock: at most a
    # 100 ppm crystal allowance over the 3 s since the last measured sync
    assert all(1 <= p.precision_us <= 400 for p in got)


def test_garbage_truncated_and_bad_checksum_lines_are_logged_and_dropped(make_rig, caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    rig = make_rig()
    sim = rig.sim
    sim.inject(b"\x00\x17#garbage on the line\n")
    sim.inject(b"P 1 c=0 t=12*12\n")  # truncated checksum
    sim.inject(b"P 1 c=0 t=12*0000\n")  # a whole line with a wrong checksum
    sim.corrupt_lines(1)  # and the next real press gets a bit flipped on the wire
    a = sim.press(0)
    b = sim.press(1, at_us=a + 200_000)
    rig.settle(600_000)
    assert stamps(rig.sink.wait_presses(2)) == [(0, "bell", sim.box_time(a)), (1, "bell", sim.box_time(b))]
    text = caplog.text
    assert "no checksum (missing '*XXXX'; truncated or garbage line)" in text
    assert "checksum field must be 4 hex digits" in text
    assert "bad checksum: line says 0000" in text
    # the flipped press came again (its exact stamp above): how the driver learnt it was
    # missing (the next press, a heartbeat or a replay it had asked for) depends on when
    # its thread read; the gap's own log line is test_sequence_gap_is_logged_with_its_count...
    assert len(rig.sink.presses()) == 2  # nothing delivered twice


def test_sequence_gap_is_logged_with_its_count_and_filled_by_a_resend(make_rig, caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    rig = make_rig()
    sim = rig.sim
    sim.drop_lines(2)
    ats = [sim.press(ch, at_us=sim.now_us + 1000 + 100 * ch) for ch in (0, 1, 2)]
    rig.settle()
    got = rig.sink.wait_presses(3)
    assert stamps(got) == [(ch, "bell", sim.box_time(t)) for ch, t in zip((0, 1, 2), ats, strict=True)]
    assert "sequence gap: 2 event(s) missing (expected seq 1, got 3)" in caplog.text


def test_lost_last_event_is_found_by_the_heartbeat(make_rig, caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    rig = make_rig()
    sim = rig.sim
    sim.drop_lines(1)
    a = sim.press(2)
    rig.settle(600_000)
    assert stamps(rig.sink.wait_presses(1)) == [(2, "bell", sim.box_time(a))]
    assert "sent by the board never arrived" in caplog.text


def test_unplug_mid_game_pauses_and_replug_delivers_what_was_pressed_meanwhile(make_rig, caplog) -> None:
    caplog.set_level(logging.INFO, LOG)
    rig = make_rig()
    sim = rig.sim
    a = sim.press(0)
    rig.settle()
    rig.sink.wait_presses(1)
    sim.unplug()
    rig.sink.wait_kinds(["connected", "disconnected"])
    b = sim.press(1)  # pressed while the cable is out: the board holds it
    c = sim.press(2, at_us=b + 3)
    rig.settle(2_000_000)
    sim.replug()
    rig.sink.wait_kinds(["connected", "disconnected", "connected"])
    rig.settle()
    got = rig.sink.wait_presses(3)
    assert stamps(got) == [(0, "bell", sim.box_time(a)), (1, "bell", sim.box_time(b)),
                           (2, "bell", sim.box_time(c))]
    assert "went away" in caplog.text
    # the game is told "connected" before the held presses arrive
    kinds = [i.kind if isinstance(i, InputNotice) else "press" for i in rig.sink.items]
    assert kinds == ["connected", "press", "disconnected", "connected", "press", "press"]


def test_board_reboot_is_detected_and_the_new_clock_synced(make_rig, caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    rig = make_rig(start_ticks=500_000_000)
    sim = rig.sim
    a = sim.press(0)
    rig.settle()
    rig.sink.wait_presses(1)
    sim.reboot(start_ticks=0)  # clock back to zero, sequence back to 1
    rig.sink.wait_kinds(["connected", "disconnected", "connected"])
    b = sim.press(1)
    rig.settle()
    got = rig.sink.wait_presses(2)
    assert stamps(got) == [(0, "bell", sim.box_time(a)), (1, "bell", sim.box_time(b))]
    assert "board rebooted" in caplog.text


def test_host_not_reading_fills_the_board_buffer_keeps_the_first_presses(make_rig, caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    rig = make_rig(event_cap=8)
    sim = rig.sim
    sim.stop_reading()
    ats = [sim.press(i % 3, at_us=sim.now_us + 1000 + 100_000 * i) for i in range(12)]
    rig.settle(1_400_000)
    rig.sink.wait_kinds(["connected", "disconnected"])
    sim.resume_reading()
    rig.settle()
    rig.sink.wait_kinds(["connected", "disconnected", "connected"])
    rig.settle()
    got = rig.sink.wait_presses(8)
    assert stamps(got) == [(i % 3, "bell", sim.box_time(t)) for i, t in enumerate(ats[:8])]
    text = caplog.text
    assert "board silent" in text
    assert "board dropped 4 press event(s) (its buffer of 8 was full" in text
    rig.settle()
    assert len(rig.sink.presses()) == 8


@pytest.mark.parametrize("found", ["nothing", "a line's first byte"])
def test_a_driver_thread_that_runs_late_does_not_take_the_board_for_silent(caplog, found: str) -> None:
    """The driver's read found nothing, or only a line's first byte, then its thread
    did not run for 3 s (a loaded Pi): the board's heartbeats of those seconds wait
    unread in the port, so the board is not silent and the game is not paused."""
    caplog.set_level(logging.WARNING, LOG)
    sim = BoardSim()
    sink = Sink()
    late = threading.Event()

    class LatePort(serial.Serial):
        def read(self, size: int = 1) -> bytes:
            if not late.is_set():
                return super().read(size)
            data = super().read(1)
            if bool(data) == (found != "nothing"):
                sim.advance(3_000_000)  # read that much; next scheduled 3 s later
                late.clear()
            return data

    source = start_driver(sim, sink, serial_factory=LatePort)
    try:
        sink.wait_kinds(["connected"])
        late.set()
        if found != "nothing":
            sim.advance(300_000)  # the board sends its heartbeat
        wait_until(lambda: not late.is_set(), "the read after which the driver ran late")
        wait_until(lambda: sim.unread_by_host() == 0, "the driver reading what the board sent meanwhile")
        sim.advance(300_000)
        wait_until(lambda: sim.unread_by_host() == 0, "the driver reading on")
        assert sink.kinds() == ["connected"]
        assert "board silent" not in caplog.text
    finally:
        source.stop()
        sim.close()


def test_stuck_button_is_flagged_then_released(make_rig) -> None:
    rig = make_rig()
    sim = rig.sim
    at = sim.now_us + 1000
    sim.edges(0, [(0, 0), (10_500_000, 1)], at_us=at)
    rig.settle(11_000_000)
    rig.sink.wait_for(lambda items: [i.kind for i in items if isinstance(i, InputNotice) and i.station == 0]
                      == ["stuck", "unstuck"], "stuck then unstuck")
    notices = [i for i in rig.sink.items if isinstance(i, InputNotice) and i.station == 0]
    assert notices[0].t_us == sim.box_time(at + 10_000_000)
    assert stamps(rig.sink.presses()) == [(0, "bell", sim.box_time(at))]


def test_lights_follow_commands_and_come_back_after_a_reboot(make_rig) -> None:
    rig = make_rig()
    sim = rig.sim
    rig.source.set_light(0, "bell", "on")
    rig.source.set_light(1, "bell", "blink")
    rig.sink.wait_for(lambda _: (sim.step() or True) and sim.lights()[0], "light 0 on")
    seen = set()
    for _ in range(6):
        rig.settle(150_000)
        seen.add(sim.lights()[1])
    assert seen == {True, False}  # blinking
    sim.reboot()
    rig.sink.wait_kinds(["connected", "disconnected", "connected"])
    rig.sink.wait_for(lambda _: (sim.step() or True) and sim.lights()[0], "light 0 on again")
    with pytest.raises(ValueError, match="no board light for station 2"):
        rig.source.set_light(2, "bell", "on")


def test_a_lost_hello_is_asked_for_again(caplog) -> None:
    caplog.set_level(logging.WARNING, LOG)
    sim = BoardSim()
    sim.corrupt_lines(1, kinds=b"H")  # the hello answering the driver's first question is damaged
    sink = Sink()
    source = BoardSource(CHANNELS, LIGHTS, port=lambda: sim.port, clock=sim.host_clock, clock_slack_us=0,
                         reconnect_delay_s=0.02)
    source.start(sink)
    try:
        give_up = time.monotonic() + 120  # ends a hang only: the board's time is what the driver waits on
        while not source.connected:
            assert time.monotonic() < give_up, "the driver never asked for the hello again"
            sim.advance(100_000)
            caught_up(sim, source)  # the driver's thread has read and handled the board's lines
        sink.wait_kinds(["connected"])
        assert "no hello from the board" in caplog.text
    finally:
        source.stop()
        sim.close()
