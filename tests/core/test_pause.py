"""An unplugged input board pauses the game: its clocks stand still, nothing is lost."""

from __future__ import annotations

from controller.box.journal import JournalWriter, read
from controller.box.press import InputNotice, Press
from controller.box.runtime import HOST_STATION, Box, box_from_journal
from games import registry


def board(kind: str, t_us: int) -> InputNotice:
    return InputNotice(HOST_STATION, "board", kind, t_us)


def quiz_box(**options) -> Box:
    spec = registry.get("quiz")
    return Box(spec, spec.settings(3, **options))


def test_answer_timer_does_not_run_out_while_the_board_is_away(tmp_path):
    box = quiz_box(answer_time_us=5_000_000)
    box.journal = JournalWriter.create(tmp_path / "j.jsonl", box.header())
    box.host("arm", 0)
    box.press(Press(1, "bell", 100_000))
    box.step(200_000)
    assert box.engine.public_view()["answering"] == 1
    box.notice(board("disconnected", 1_000_000))
    events = box.step(1_000_000)
    assert [e.kind for e in events] == ["paused"]
    assert box.strip()[0]["status"] == "disconnected"
    box.step(20_000_000)  # away for 19 s: far past the 5 s answer time
    assert box.engine.public_view()["phase"] == "answering"
    box.notice(board("connected", 20_000_000))
    box.press(Press(2, "bell", 15_000_000))  # pressed while away, delivered late: still queued
    events = box.step(20_100_000)
    assert "resumed" in [e.kind for e in events]
    view = box.engine.public_view()
    assert view["phase"] == "answering" and view["answering"] == 1
    assert 4_000_000 < view["answer_left_us"] <= 4_100_000  # 4.1 s were left when it went away
    assert box.summary()["queue"] == [2]
    box.step(25_000_000)
    assert box.engine.public_view()["status"][1] == "out"  # now the time is really up
    box.journal.close()
    assert box_from_journal(read(tmp_path / "j.jsonl")).summary() == box.summary()


def test_reaction_round_interrupted_by_the_board_is_played_again():
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, seed=3))
    box.host("start", 0)
    assert box.engine.public_view()["phase"] == "wait"
    box.notice(board("disconnected", 500_000))
    box.step(500_000)
    box.notice(board("connected", 9_000_000))
    box.step(9_000_000)
    view = box.engine.public_view()
    assert view["phase"] == "result" and view["last"].get("void") is True
    box.step(12_000_000)  # after the result hold: round 1 again
    assert box.engine.public_view()["round"] == 1
    assert box.engine.public_view()["phase"] == "wait"
