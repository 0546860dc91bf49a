"""The whole path: firmware logic -> serial (pty) -> driver -> box -> quiz engine."""

from __future__ import annotations

import time

import pytest

from controller.box.runtime import Box
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim
from games import registry
from tests.firmware.conftest import wait_until
from tests.processes import HANG_S


@pytest.fixture
def wired():
    sim = BoardSim()
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3))
    source = BoardSource({0: (0, "bell"), 1: (1, "bell"), 2: (2, "bell")}, port=lambda: sim.port,
                         clock=sim.host_clock, clock_slack_us=0, reconnect_delay_s=0.02,
                         sync_interval_us=200_000)
    box.latency_guard_us = source.report_delay_us(box.debouncer.config)
    source.start(box)
    yield sim, box, source
    source.stop()
    sim.close()


def pump(sim, source, box, us, until, what, timeout=HANG_S):
    """Let board time pass a millisecond at a time, as on a real box, stepping
    the box until ``until(events)``; before each step the driver has read every
    line the board sent (waited for, however late its thread runs: the box's
    horizon is never outrun, no heartbeat is left unread). ``timeout`` only
    catches a hang (30 s of the wall was one a busy machine could take)."""
    events = []
    deadline = time.monotonic() + timeout
    start = sim.now_us
    while time.monotonic() < deadline:
        sim.advance(1_000)
        wait_until(lambda: not source.connected
                   or (source.session.expected == sim.board.events.next and sim.unread_by_host() == 0),
                   "the driver reading every line")
        events += box.step(sim.host_clock())
        if sim.now_us - start >= us and until(events):
            return events
    raise AssertionError(f"never saw {what}; events {events}, summary {box.summary()}")


def test_board_presses_decide_the_quiz_to_the_microsecond(wired):
    sim, box, source = wired
    # connected, and one sync interval later the drift between syncs is measured, not assumed
    pump(sim, source, box, 500_000, lambda ev: source.connected and source.session.clock.error_us() < 37,
         "the board with its clock mapping measured")
    box.host("arm", sim.host_clock())
    t = sim.now_us + 100_000
    sim.press(1, at_us=t, bounce=(120, 300, 900))
    sim.press(0, at_us=t + 37, bounce=())
    sim.press(2, at_us=t + 2_000)
    pump(sim, source, box, 200_000, lambda ev: any(e.kind == "winner" for e in ev), "a winner")
    pump(sim, source, box, 10_000, lambda ev: len(box.summary()["queue"]) == 2, "the third press in the queue")
    out = box.summary()
    assert out["winner"] == 1
    assert out["queue"] == [0, 2]
    assert out["margins_us"] == [37, 2_000]


def test_unplug_pauses_the_game_and_presses_made_meanwhile_count(wired):
    sim, box, source = wired
    pump(sim, source, box, 300_000, lambda ev: source.connected, "the board")
    box.host("arm", sim.host_clock())
    pump(sim, source, box, 50_000, lambda ev: True, "a step")
    sim.unplug()
    pump(sim, source, box, 100_000, lambda ev: any(e.kind == "paused" for e in ev), "the pause")
    assert box.strip()[0]["status"] == "disconnected"
    t = sim.now_us + 10_000
    sim.press(2, at_us=t)
    sim.press(0, at_us=t + 500)
    sim.advance(200_000)
    sim.replug()
    pump(sim, source, box, 10_000, lambda ev: any(e.kind == "winner" for e in ev), "the held presses deciding")
    # the winner is announced once no later press could tie with it; the press
    # 500 µs behind may join the queue a step later (as in the test above)
    pump(sim, source, box, 0, lambda ev: len(box.summary()["queue"]) == 1, "the second press in the queue")
    out = box.summary()
    assert out["winner"] == 2 and out["queue"] == [0] and out["margins_us"] == [500]
    assert box.strip()[0]["status"] != "disconnected"


def test_no_board_at_start_is_said_once_and_the_game_waits(caplog):
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2))
    looked = []

    def no_port() -> None:
        looked.append(1)

    source = BoardSource({0: (0, "bell"), 1: (1, "bell")}, port=no_port, reconnect_delay_s=0.01)
    source.start(box)
    wait_until(lambda: len(looked) >= 10, "the driver looking for its board again and again")
    source.stop()
    events = box.step(1_000_000)
    assert [e.kind for e in events] == ["paused"]
    assert box.strip()[0]["status"] == "disconnected"
    assert caplog.text.count("no input board found") == 1
    assert "plug it in" in caplog.text


def test_a_resumed_game_does_not_take_a_replayed_press_twice(tmp_path):
    """The host process dies after its box journaled a press but before the board
    heard its ack; the board replays it to the restarted host, whose box (resumed
    from the journal) knows it: not counted again, not shown as late evidence."""
    from controller.box import journal
    from controller.box.journal import JournalWriter
    from controller.box.runtime import box_from_journal

    sim = BoardSim()
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3))
    path = tmp_path / "q.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"))
    channels = {0: (0, "bell"), 1: (1, "bell"), 2: (2, "bell")}
    kw = dict(port=lambda: sim.port, clock=sim.host_clock, clock_slack_us=0, reconnect_delay_s=0.02)
    source = BoardSource(channels, **kw)
    box.latency_guard_us = 300_000  # a loaded machine's driver thread is late: not what this is about
    source.start(box)
    try:
        pump(sim, source, box, 300_000, lambda ev: source.connected, "the board")
        box.host("arm", sim.host_clock())
        # from now on the board hears no ack: whole "A" lines lost (a flipped bit
        # per read would miss an ack the driver wrote in one read with another line)
        sim.lose_commands(b"A ", 1_000_000)
        sim.press(1)
        pump(sim, source, box, 10_000, lambda ev: any(e.kind == "winner" for e in ev), "the winner")
        source.stop()  # the host dies
        box.journal.close()
        assert sim.board.events.first == 1  # the board still holds the press: never acked
        sim.deliver_commands()  # the restarted host's acks arrive
        resumed = box_from_journal(journal.read(path))
        assert resumed.summary()["winner"] == 1 and resumed.presses_total == 1
        source = BoardSource(channels, **kw)
        resumed.latency_guard_us = box.latency_guard_us
        source.start(resumed)
        events = pump(sim, source, resumed, 300_000, lambda ev: sim.board.events.first > 1,
                      "the replayed press, acked")
        events += pump(sim, source, resumed, 400_000, lambda ev: True, "a while")
        assert resumed.presses_total == 1
        assert not [e for e in resumed.event_log if e.kind == "late_evidence"], list(resumed.event_log)
        # the board coming back says "resumed" (in whichever step the driver thread
        # connected); nothing else happens: no second winner, no press counted again
        assert resumed.summary()["winner"] == 1
        assert [e.kind for e in events if e.kind != "resumed"] == [], events
    finally:
        source.stop()
        sim.close()
