"""The lockout's protocol and its referee, sans-I/O: what the driver sends for
a v3 and a v2 board, how it puts right a lost command, that no line or
command (fuzzed, seeded, time-bounded) raises on either end, and the
referee's confirm / override / late-lamp decisions."""

from __future__ import annotations

import random

import pytest

from controller.box.sources.board import Arm, BoardSession, LampLit
from controller.box.sources.board.lockout import Disagreement, End, LockoutReferee
from controller.box.sources.board_sim import BoardSim
from firmware.buzzer.proto import frame
from games.base import LampContest
from tests.firmware.test_fw_driver_hardening import connected_session

HELLO3 = ("H v=3 fw=3.0.0 boot=0badcafe w=0 t=1000 s=0 a=0 in=0-19 sr=32-95 lights=0-63 hb=250000 "
          "cap=256 db=10000/1000/10000000 cap_kind=irq pd=20 held=- lk=0 la=0")
BEAT = "B b=0badcafe w=0 t=7000 s=0 q=0 d=0 e=0 g=0 x=0 o=0 f=0 pd=20 lk={lk} lx=30 la={la} lp=90 ld=0/0/0/0"
ARM = Arm(7, ((0, 0), (1, 1)), 1000, 20, 10_000_000)


def session(hello: str = HELLO3) -> BoardSession:
    s = connected_session(hello)
    s.outbox.clear()
    return s


def test_a_v3_board_is_armed_and_ended_a_v2_board_never() -> None:
    s = session()
    assert s.info.lockout and s.info.glitch_us == 1000
    s.arm(ARM)
    s.end(7, (1,))
    assert s.outbox == ["L arm 7 c=0:0,1:1 g=1000 w=20 to=10000000", "L end 7 on=1"]
    v2 = session(HELLO3.replace("v=3", "v=2").replace(" lk=0 la=0", ""))
    v2.arm(ARM)
    v2.end(7)
    assert not v2.info.lockout and v2.outbox == []


def test_a_lost_arm_or_end_is_put_right_from_the_heartbeat() -> None:
    s = session()
    s.arm(ARM)
    s.outbox.clear()
    s.receive(frame(BEAT.format(lk=0, la=0)), 20)  # the board holds nothing: the arm was lost
    assert ARM.body() in s.outbox
    s.outbox.clear()
    s.receive(frame("F 1 b=0badcafe c=1 k=first id=7 w=0 t=5000 lit=1000 lat=3"), 30)
    s.receive(frame(BEAT.format(lk=0, la=0)), 40)  # a lamp of it was heard: never armed again
    assert not any(b.startswith("L arm") for b in s.outbox)
    s.end(7, (1,))
    s.outbox.clear()
    s.receive(frame(BEAT.format(lk=7, la=0)), 50)  # still held: the end was lost, sent again as it was
    assert "L end 7 on=1" in s.outbox
    s.outbox.clear()
    s.receive(frame(BEAT.format(lk=9, la=1)), 60)  # a contest nobody here armed; the lamps went dark
    assert "L end 9 on=-" in s.outbox and s.relight


def test_a_lamp_report_maps_to_the_station_and_the_box_clock() -> None:
    s = session()
    out = s.receive(frame("F 1 b=0badcafe c=2 k=tie id=7 w=0 t=5000 lit=1200 lat=4"), 30)
    (lamp,) = out
    assert isinstance(lamp, LampLit)
    assert (lamp.contest, lamp.station, lamp.input, lamp.tie, lamp.latency_us) == (7, 2, "bell", True, 4)
    assert lamp.lamp_us - lamp.t_us == 1200 and lamp.source_event == "0badcafe#1"


def test_fuzzed_v3_lines_never_raise() -> None:
    rng = random.Random(37)
    templates = [HELLO3, BEAT.format(lk=7, la=0), "F 1 b=0badcafe c=1 k=first id=7 w=0 t=5000 lit=1000 lat=3",
                 "P 2 b=0badcafe c=1 w=0 t=5000 n=1 p=20",
                 "F 3 b=0badcafe c=2 k=tie id=4 w=0 t=5000 lit=1000 lat=0 own=1"]  # lockout box mode
    nasty = ["", "-1", "9" * 400, "٣", "0", "65536", "tie", "*", "=", "1:2"]
    s = session()
    s.arm(ARM)
    for n in range(2000):  # a fixed number of cases, however fast the machine
        parts = rng.choice(templates).split()
        i = rng.randrange(len(parts))
        key, eq, _ = parts[i].partition("=")
        parts[i] = f"{key}={rng.choice(nasty)}" if eq else rng.choice(nasty + [parts[i]])
        s.receive(frame(" ".join(parts)), 100 + n)  # must not raise


@pytest.mark.parametrize("lamp_by", ["cpu", "pio"])
def test_fuzzed_lockout_commands_never_break_the_board_or_leave_a_lamp_on(lamp_by: str) -> None:
    """Seeded, time-bounded: mutated L arm / L end commands are refused one X line
    each (or taken), the loop never faults, and once the host is gone every lamp is dark,
    the PIO lockout's lamp GPIOs too (``lamp_by="pio"``: its contests armed too)."""
    from firmware.buzzer import pinmap
    from tests.firmware.test_fw_lockout_box import with_pio

    rng = random.Random(37)
    sim = BoardSim(with_pio(pinmap) if lamp_by == "pio" else pinmap)
    pio_contests = 0
    try:
        commands = ["L arm 5 c=0:0,1:1 g=1000 w=20 to=100000", "L end 5 on=0,1", "L end * on=-", "L 3 on"]
        nasty = ["", "-1", "9" * 30, "0", "65536", "99:99", "0:200", "1:", ":", "*", "x"]
        board = sim.board
        for _case in range(600):  # a fixed number of cases, however fast the machine
            parts = rng.choice(commands).split()
            if rng.random() < 0.7:  # else sent as it is: contests armed, lit and ended between the bad ones
                i = rng.randrange(1, len(parts))
                key, eq, _ = parts[i].partition("=")
                parts[i] = f"{key}={rng.choice(nasty)}" if eq else rng.choice(nasty)
            with sim._lock:
                board._command(" ".join(parts).encode(), board.now())
                if rng.random() < 0.1:
                    sim.press(rng.randrange(3))
            pio_contests += board.pio_contest
            sim.advance(rng.choice((10, 1000)))
        assert board.faults == 0
        assert (pio_contests > 0) == (lamp_by == "pio")
        sim.advance(3_100_000)  # nobody speaks any more
        assert not any(sim.lights().values()) and board.lockout.id == 0 and not sim.pio_lamps()
    finally:
        sim.close()


# -- the referee --------------------------------------------------------------------------

WIRING = {0: (0, 0), 1: (1, 1), 2: (2, 2)}


def referee() -> LockoutReferee:
    return LockoutReferee(WIRING, glitch_us=1000, precision_us=20, first_id=40)


def lamp(contest: int, station: int, t: int, tie: bool = False) -> LampLit:
    return LampLit(contest, station, "bell", t, t + 1000, 2, tie)


def follow(ref: LockoutReferee, c: LampContest | None, now: int, on: tuple[int, ...] = ()) -> list:
    return ref.follow(c, now, on, lambda s: 500 + s, lambda us: us + 7)


def test_the_referee_arms_confirms_and_ends_with_the_box_lamps() -> None:
    ref = referee()
    (arm,) = follow(ref, LampContest("q1", (0, 1, 2), 100), 100)
    assert arm == Arm(40, ((0, 0), (1, 1), (2, 2)), 1000, 20, 10_000_000, start_us=107)
    assert follow(ref, LampContest("q1", (0, 1, 2), 100), 200) == []  # the same contest: nothing
    assert ref.lamp(lamp(40, 1, 300), 1400, lambda s: None) == []
    out = follow(ref, LampContest("q1", (), 100, (1,)), 2000, on=(1,))
    assert out == [End(40, (1,))] and ref.agreed == 1


def test_the_referee_overrides_and_journals_both_stamps() -> None:
    ref = referee()
    follow(ref, LampContest("q1", (0, 1), 100), 100)
    ref.lamp(lamp(40, 1, 300), 1400, lambda s: None)
    end, dis = follow(ref, LampContest("q1", (), 100, (0,)), 2000, on=(0,))
    assert end == End(40, (0,)) and isinstance(dis, Disagreement)
    rec = dis.record(offset_us=10)
    assert rec["board"][0]["station"] == 1 and rec["board"][0]["press_us"] == 310
    assert rec["pi"] == [{"station": 0, "press_us": 500}] and rec["late"] is False


def test_a_lamp_after_the_decision_is_a_late_disagreement_and_a_host_cancel_ends_it() -> None:
    ref = referee()
    follow(ref, LampContest("q1", (0, 1), 100), 100)
    follow(ref, LampContest("q1", (), 100, (0,)), 2000, on=(0,))  # the board lit nothing (yet)
    (late,) = ref.lamp(lamp(40, 1, 300), 2100, lambda s: 500)
    assert isinstance(late, Disagreement) and late.late
    follow(ref, LampContest("q2", (0, 1), 3000), 3000)
    assert follow(ref, None, 4000) == [End(41, ())]  # the host reset: nobody won
    assert ref.lamp(lamp(99, 0, 5000), 5100, lambda s: None) == [End(99)]  # not ours: ended


def test_a_lamp_of_the_boards_own_contest_is_journaled_as_such_never_ended_or_judged() -> None:
    """Lockout box mode: what the board lit with no host there reaches a host that comes
    back marked ``own=1``; the referee journals it as the board's own contest (with its
    stamps), does not take it for a contest of the game and sends no end for it."""
    s = session()
    (lit,) = s.receive(frame("F 1 b=0badcafe c=1 k=first id=3 w=0 t=5000 lit=1000 lat=0 own=1"), 30)
    assert isinstance(lit, LampLit) and lit.own and (lit.contest, lit.station) == (3, 1)
    ref = referee()
    follow(ref, LampContest("q1", (0, 1, 2), 100), 100)
    (out,) = ref.lamp(lit, 200, lambda s: None)
    record = out.record(10)
    assert record["type"] == "lockout_box" and record["contest"] == 3
    assert record["board"][0]["station"] == 1 and record["board"][0]["press_us"] == lit.t_us + 10
    assert ref.current is not None and ref.current.lamps == []  # the game's contest is untouched
