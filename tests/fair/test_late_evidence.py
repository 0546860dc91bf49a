"""A press that would have won but reached the box after the decision: the
room is told, and the screen, the scores, the summary, the journal and
``replay --disputes`` all tell the same story."""

from __future__ import annotations

import json

from controller import journal
from controller.cli import main
from controller.journal import JournalWriter
from controller.press import Edge
from controller.runtime import Box, box_from_journal
from games import registry

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
