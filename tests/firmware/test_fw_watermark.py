"""The board says how far it has delivered (issue 46): a ``Watermark`` from each
heartbeat or clock reply once every event the board had sent or queued by then
arrived, never past a missing event being replayed, none while disconnected;
no press is ever delivered after a watermark at or past its stamp."""

from __future__ import annotations

import random

from controller.box.press import InputNotice, Press, Watermark
from controller.box.sources.board_sim import BoardSim
from firmware.buzzer.app import HEARTBEAT_US
from firmware.buzzer.debounce import ticks_diff
from firmware.buzzer.proto import frame
from tests.firmware.conftest import Sink, caught_up, start_driver
from tests.firmware.test_fw_no_future import OFFSET, OLD, Board, ticks
from tests.firmware.test_fw_protocol_gaps import pump_until


def marks(b: Board, start: int = 0) -> list[Watermark]:
    return [o for o in b.out[start:] if isinstance(o, Watermark)]


def test_a_heartbeat_after_every_event_it_counts_is_a_watermark_behind_its_time() -> None:
    b = Board()
    b.out.clear()
    board_now = b.now - OFFSET
    b.line(frame(f"P 1 b={OLD} c=0 {ticks(board_now - 30_000)} n=1 p=20"))
    b.now += 100_000
    b.beat(OLD, board_now + 100_000, sent=1)
    [press, mark] = b.out
    assert isinstance(press, Press) and isinstance(mark, Watermark) and mark.source == "board"
    # everything stamped up to the heartbeat less what may still be pending on the board
    # (bounce window, twice the glitch filter, its loop's pass) less the mapping error
    pending = 10_000 + 2 * 1_000 + 1_000 + 5_000
    clock = b.s.clock
    assert mark.t_us == clock.to_box(board_now + 100_000 - pending) - clock.error_us(board_now + 100_000 - pending)
    assert press.t_us < mark.t_us < b.now - pending
    b.now += 2_000_000
    b.s.tick(b.now)  # silent: disconnected
    start = len(b.out)
    b.beat(OLD, board_now + 2_100_000, sent=1)  # talking again, not yet re-synced: no watermark
    assert not b.s.connected and marks(b, start) == []
    b.line(frame("K from=2 lost=0"))
    b.answer(OLD, board_now + 2_100_000)
    assert b.s.connected and len(marks(b, start)) == 1


def test_after_a_press_a_clock_request_moves_the_watermark_past_it_before_the_next_heartbeat() -> None:
    b = Board()
    board_now = b.now - OFFSET
    b.line(frame(f"P 1 b={OLD} c=0 {ticks(board_now - 2_000)} n=1 p=20"))
    [press] = b.presses()
    pending = 10_000 + 2 * 1_000 + 0 + 5_000  # no heartbeat yet: its loop's pass unknown
    b.s.tick(b.now + pending - 1)
    assert not [c for c in b.s.outbox if c.startswith("T ")]
    b.now += pending
    b.s.tick(b.now)
    start = len(b.out)
    b.answer(OLD, board_now + pending, sent=1)
    [mark] = marks(b, start)
    assert press.t_us < mark.t_us and b.now - press.t_us < 25_000  # not a heartbeat (250 ms) later


def test_a_missing_event_holds_the_watermark_until_it_came_again() -> None:
    b = Board()
    board_now = b.now - OFFSET
    b.line(frame(f"P 1 b={OLD} c=0 {ticks(board_now - 30_000)} n=1 p=20"))
    # event 2 is lost on the wire; 3 comes, then a heartbeat that counts both
    b.line(frame(f"P 3 b={OLD} c=2 {ticks(board_now - 10_000)} n=1 p=20"))
    b.now += 100_000
    start = len(b.out)
    b.beat(OLD, board_now + 100_000, sent=3)
    assert marks(b, start) == [] and "R 1" in b.s.outbox
    b.line(frame("K from=2 lost=0"))
    b.line(frame(f"P 2 b={OLD} c=1 {ticks(board_now - 20_000)} n=1 p=20"))
    assert marks(b, start) == []  # 3 still missing
    b.line(frame(f"P 3 b={OLD} c=2 {ticks(board_now - 10_000)} n=1 p=20"))
    got = [o for o in b.out[start:] if isinstance(o, Press | Watermark)]
    assert [type(o) for o in got] == [Press, Press, Watermark]  # the heartbeat's mark, now that all came
    assert got[-1].t_us > max(p.t_us for p in b.presses())


def test_events_the_board_still_holds_hold_the_watermark() -> None:
    """``q=``: events the board has but has not sent (the host did not ack): the
    watermark waits for them."""
    b = Board()
    board_now = b.now - OFFSET
    start = len(b.out)
    b.now += 60_000
    b.beat(OLD, board_now + 50_000, sent=0, unsent=1)
    assert marks(b, start) == []
    b.line(frame(f"P 1 b={OLD} c=0 {ticks(board_now + 20_000)} n=1 p=20"))
    [mark] = marks(b, start)
    assert b.presses()[0].t_us < mark.t_us


def test_through_the_simulator_no_press_comes_after_a_watermark_past_its_stamp() -> None:
    """Seeded: presses bouncing up to 9 ms on direct and shift-register inputs, lines
    lost on the wire and an unplug; the driver's watermarks move on (within a
    heartbeat of the present once idle) and never pass a press still to come."""
    rng = random.Random(46)
    sim = BoardSim(up_delay_us=300)
    sink = Sink()
    source = start_driver(sim, sink)
    try:
        pump_until(sim, lambda: source.connected, "the connection", step_us=1_000)
        truth = []
        for i in range(40):
            ch = rng.choice((0, 1, 2, 33, 34))
            bounce = sorted(rng.sample(range(50, 9_000), rng.choice((0, 2, 4))))
            at = sim.now_us + rng.randint(300, 40_000)
            beat_in = ticks_diff(sim.board._beat_at + HEARTBEAT_US, sim.ticks_us())
            if i % 2 and beat_in > 10_000:  # still bouncing when the board's next heartbeat goes out
                at = sim.now_us + beat_in - rng.randint(200, 8_000)
                bounce = sorted(rng.sample(range(50, 9_000), 4))
            sim.press(ch, at_us=at, hold_us=30_000, bounce=bounce)
            truth.append(at)
            if i % 7 == 3:
                sim.drop_lines(1, kinds=b"PNB")
            if i == 20:
                sim.unplug()
                sim.advance(300_000, step_us=5_000)
                sim.replug()
            # released and idle: the next press counts. In steps the driver's thread follows (its
            # clock requests answered after each), however long a loaded machine takes: a driver left
            # behind by the board's time measured round trips of many virtual ms (4 of 40 presses
            # missing under two CPU hogs)
            while sim.now_us < at + 60_000:
                sim.advance(1_000)
                caught_up(sim)
        end = sim.now_us
        pump_until(sim, lambda: len(sink.presses()) >= len(truth) and bool(sink.marks)
                   and sink.marks[-1].t_us > sim.box_time(end),
                   "every press, then a watermark past the last", step_us=2_000)
    finally:
        source.stop()
        sim.close()
    with sink.cv:
        items = list(sink.log)
    assert len(sink.presses()) == len(truth)
    mark = None
    away = False
    for o in items:
        if isinstance(o, Watermark):
            assert not away, "a watermark while disconnected"
            assert mark is None or o.t_us > mark
            mark = o.t_us
        elif isinstance(o, Press):
            assert mark is None or o.t_us > mark, f"press at {o.t_us} after the watermark {mark}"
        elif isinstance(o, InputNotice) and o.station == -1:
            away = o.kind == "disconnected"
    assert mark is not None and mark > sim.box_time(end)
