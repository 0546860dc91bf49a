"""A press that would have won but reached the box after the decision: the
room is told, and the screen, the scores, the summary, the journal and
``replay --disputes`` all tell the same story. With the fixed delay a press
later than the guard is late evidence; in the shipped design (the sources'
watermarks) only one from a source that stalled, delivered after its stall
time (the last tests)."""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path

import pytest

from controller.box import journal
from controller.box.journal import JournalWriter
from controller.box.press import Edge, Watermark
from controller.box.runtime import INPUTS_STALLED, LATE_RULE_KEY, STALL_US, Box, box_from_journal
from controller.cli import main
from games import registry
from games.base import GameEvent
from games.i18n import _

GUARD_US = 2_000


def contact(box: Box, station: int, t_us: int) -> None:
    """A clean press on the bell: down at ``t_us`` and held."""
    box.edge(Edge(station, "bell", 0, t_us), 1)


def test_a_press_stamped_first_but_delivered_12_ms_late_is_late_evidence(tmp_path, capsys):
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2), station_names=["Ann", "Ben"], latency_guard_us=GUARD_US)
    path = tmp_path / "q.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"))
    box.measure_report_delay()
    box.host("arm", 0)
    box.step(90_000)
    contact(box, 1, 100_000)  # Ben, delivered at once
    events = []
    for now in range(100_000, 112_000, 500):  # the box steps every 0.5 ms
        events += box.step(now)
    assert [e.player for e in events if e.kind == "winner"] == [1]  # announced: Ben
    contact(box, 0, 99_500)  # Ann pressed 500 µs earlier, but it reaches the box 12 ms late
    late = []
    for now in range(112_000, 200_000, 500):  # the guard has risen: the press settles later
        late += box.step(now)
    [evidence] = [e for e in late if e.kind == "late_evidence"]
    assert evidence.player == 0 and evidence.data["pressed_us"] == 99_500
    assert box.late_deliveries >= 1 and box.latency_guard_us > GUARD_US  # measured, and the guard rose
    box.host("correct", 200_000)
    box.step(300_000)  # host actions wait for the horizon too (now raised)
    summary = box.summary()
    assert summary["scores"] == [0, 1] and summary["results"][-1]["winner"] == 1
    assert summary["winner"] == 1  # the ranking of record is the announced one
    box.journal.close()

    replayed = box_from_journal(journal.read(path))
    assert replayed.summary() == summary
    assert [e.kind for e in replayed.event_log if e.kind == "late_evidence"] == ["late_evidence"]
    assert main(["replay", str(path), "--disputes"]) == 0
    out = capsys.readouterr().out
    assert "FIRST  Ben" in out and "LATE   Ann's press" in out
    assert out.index("FIRST  Ben") < out.index("LATE   Ann")
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [0, 1]


def test_a_press_within_the_guard_still_wins_by_its_stamp():
    """Delivered later than the other but inside the report delay: no late evidence, the stamp decides."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2), latency_guard_us=GUARD_US)
    box.measure_report_delay()
    box.host("arm", 0)
    contact(box, 1, 100_000)
    events = box.step(100_500)
    contact(box, 0, 99_500)  # 1.5 ms after its stamp: inside the 2 ms guard
    for now in range(101_000, 110_000, 500):
        events += box.step(now)
    assert [e.player for e in events if e.kind == "winner"] == [0]
    assert not [e for e in events if e.kind == "late_evidence"] and box.late_deliveries == 0


def test_a_live_box_keeps_bounded_logs_but_counts_every_press():
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2))
    box.bound_logs(10)
    for i in range(50):
        contact(box, i % 2, 1_000_000 + i * 100_000)
        box.step(1_000_000 + i * 100_000 + 20_000)
        box.edge(Edge(i % 2, "bell", 1, 1_000_000 + i * 100_000 + 30_000), 1)
        box.step(1_000_000 + i * 100_000 + 60_000)
    assert box.presses_total == 50 and len(box.press_log) == 10 and len(box.event_log) <= 10


def stepping(box: Box, start_us: int, end_us: int, every_us: int = 500) -> list[GameEvent]:
    """The deciding thread's steps from ``start_us`` to ``end_us``: what they decided."""
    events: list[GameEvent] = []
    for now in range(start_us, end_us, every_us):
        events += box.step(now)
    return events


def armed_quiz(tmp_path: Path, seed: int = 1) -> tuple[Box, Path]:
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2, seed), station_names=["Ann", "Ben"], latency_guard_us=GUARD_US)
    path = tmp_path / f"q{seed}.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"))
    box.measure_report_delay()
    box.host("arm", 0)
    box.step(90_000)
    return box, path


def test_a_lone_press_delivered_late_still_wins_and_replay_agrees(tmp_path):
    """A keyboard press the screen process forwarded late (a loaded box: tens to hundreds of
    ms), after the box had judged past its stamp, with nobody else pressing and nothing
    decided since: it wins as if it had come in time, live and in the journal's replay."""
    rng = random.Random(27)
    for seed in range(1, 6):
        box, path = armed_quiz(tmp_path, seed)
        pressed = 100_000 + rng.randrange(0, 50_000)
        late_by = rng.randrange(5_000, 400_000)
        assert not stepping(box, 90_000, pressed + late_by)  # nothing happens meanwhile
        assert box.engine_until_us > pressed  # judged past its stamp already
        contact(box, 1, pressed)
        events = stepping(box, pressed + late_by, pressed + late_by + 600_000)
        assert [e.player for e in events if e.kind == "winner"] == [1], (seed, late_by)
        assert not [e for e in events if e.kind == "late_evidence"]
        summary = box.summary()
        box.journal.close()
        replayed = box_from_journal(journal.read(path))
        assert replayed.summary() == summary
        assert [e.kind for e in replayed.event_log] == [e.kind for e in box.event_log]


def test_a_late_press_after_a_rival_who_pressed_later_won_is_evidence_not_a_winner(tmp_path):
    box, path = armed_quiz(tmp_path)
    contact(box, 1, 120_000)  # Ben, in time
    assert [e.player for e in stepping(box, 120_000, 200_000) if e.kind == "winner"] == [1]
    contact(box, 0, 110_000)  # Ann pressed 10 ms before Ben; her press comes 90 ms late
    events = stepping(box, 200_000, 400_000)
    assert [e.kind for e in events if e.player == 0] == ["late_evidence"]
    assert not [e for e in events if e.kind == "winner"] and box.summary()["winner"] == 1
    box.journal.close()
    replayed = box_from_journal(journal.read(path))
    assert [e.kind for e in replayed.event_log if e.player == 0] == ["late_evidence"]


def test_a_late_press_stamped_before_a_deadline_that_fired_is_evidence(tmp_path):
    """The reaction game shows GO at its deadline: a press stamped before it (a false start,
    had it come in time) reaching the box after GO fired is neither early nor a hit."""
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, 3), latency_guard_us=GUARD_US)
    path = tmp_path / "r.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"))
    box.measure_report_delay()
    box.host("start", 0)
    box.step(GUARD_US)
    go_at = box.engine.go_at_us
    assert go_at is not None
    shows = stepping(box, GUARD_US, go_at + 50_000)
    assert [e.data["what"] for e in shows if e.kind == "show"][-1] == "go"
    contact(box, 0, go_at - 3_000)  # pressed before GO, delivered 53 ms later
    contact(box, 1, go_at + 40_000)  # after GO, in time: played
    events = stepping(box, go_at + 50_000, go_at + 100_000, 500)
    assert [e.kind for e in events if e.player == 0] == ["late_evidence"]
    assert not [e for e in events if e.kind == "early"]
    box.journal.close()
    replayed = box_from_journal(journal.read(path))
    assert [e.kind for e in replayed.event_log] == [e.kind for e in box.event_log]


def test_a_journal_of_the_older_rule_replays_as_it_was_played(tmp_path):
    """Before the rule above, any press stamped before time the game had seen was late
    evidence; a journal written then (its header without the rule's key) still replays so."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2), latency_guard_us=GUARD_US)
    box.judges_late_by_decisions = False  # a box of then
    header = box.header(mode="play")
    del header[LATE_RULE_KEY]
    path = tmp_path / "old.jsonl"
    box.journal = JournalWriter.create(path, header)
    box.measure_report_delay()
    box.host("arm", 0)
    stepping(box, 90_000, 150_000)
    contact(box, 1, 100_000)  # lone, 50 ms late
    events = stepping(box, 150_000, 300_000)
    assert [e.kind for e in events if e.player == 1] == ["late_evidence"]
    box.journal.close()
    replayed = box_from_journal(journal.read(path))
    assert not replayed.judges_late_by_decisions
    assert [e.kind for e in replayed.event_log if e.player == 1] == ["late_evidence"]


# -- the shipped horizon: the sources say how far they delivered (tests/fair/horizons.py) ------------


def followed_quiz(tmp_path: Path) -> tuple[Box, Path]:
    """Ann's bell on the GPIO source, Ben's on the input board, both followed by their watermarks."""
    box, path = armed_quiz(tmp_path)
    box.follow_source("gpio", watermarks=True)
    box.follow_source("board", watermarks=True)
    return box, path


def stepping_while_gpio_is_silent(box: Box, start_us: int, end_us: int) -> tuple[list[GameEvent], int | None]:
    """The deciding thread's steps (every 0.5 ms) while the board says it delivered up to each one and
    the GPIO source says nothing: what they decided, and when the first winner was."""
    events: list[GameEvent] = []
    first_winner_at = None
    for now in range(start_us, end_us, 500):
        box.watermark(Watermark("board", now))
        events += box.step(now)
        if first_winner_at is None and [e for e in events if e.kind == "winner"]:
            first_winner_at = now
    return events, first_winner_at


@pytest.mark.parametrize("silent_us", [300_000, STALL_US + 100_000])
def test_a_stalled_source_is_waited_for_its_stall_time_then_its_press_is_late_evidence(
        tmp_path: Path, silent_us: int, caplog: pytest.LogCaptureFixture) -> None:
    """The GPIO source said it delivered up to 99 ms, then went silent; Ben pressed
    at 100 ms on the board, Ann at 99.5 ms on the GPIO bells. While the source
    may still deliver, Ben's press is not decided past it: Ann's press, come
    0.3 s late, wins by its stamp. Past its stall time every decision waits
    that long for it, Ben is decided ``STALL_US`` late, and Ann's press coming
    after that is late evidence: the room is told, the screen's inputs line
    and the log say the stall, and the journal's replay agrees."""
    box, path = followed_quiz(tmp_path)
    try:
        box.watermark(Watermark("gpio", 99_000))
        box.watermark(Watermark("board", 90_000))
        box.step(90_000)
        contact(box, 1, 100_000)  # Ben, on the board
        arrives = 99_500 + silent_us
        with caplog.at_level(logging.WARNING, logger="buzzerbox"):
            before, ben_decided_at = stepping_while_gpio_is_silent(box, 100_000, arrives)
        stalled_line = box.inputs_notice()
        contact(box, 0, 99_500)  # Ann, on the GPIO bells: delivered now
        box.watermark(Watermark("gpio", arrives))
        after, _decided = stepping_while_gpio_is_silent(box, arrives, arrives + 100_000)
        if silent_us < STALL_US:  # waited for: never decided past while the source may still deliver
            assert ben_decided_at is None and box.stalls == 0 and stalled_line is None
            assert [e.player for e in after if e.kind == "winner"] == [0]
            assert not [e for e in after if e.kind == "late_evidence"]
        else:
            assert box.stalls == 1 and [e.player for e in before if e.kind == "winner"] == [1]
            assert ben_decided_at is not None and ben_decided_at >= 99_000 + STALL_US  # waited its stall time
            assert stalled_line == _(INPUTS_STALLED).format(source="gpio", delay=f"{STALL_US / 1e3:g}")
            assert box.inputs_notice() is None  # it spoke again with Ann's press
            said = [r.getMessage() for r in caplog.records]
            assert any("the gpio source has not said how far it delivered for 0.5 s" in m for m in said), said
            [evidence] = [e for e in after if e.kind == "late_evidence"]
            assert evidence.player == 0 and evidence.data["pressed_us"] == 99_500
            assert box.summary()["winner"] == 1
        summary = box.summary()
    finally:
        assert box.journal is not None
        box.journal.close()
    replayed = box_from_journal(journal.read(path))
    assert replayed.summary() == summary
    assert [e.kind for e in replayed.event_log] == [e.kind for e in box.event_log]
