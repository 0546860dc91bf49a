"""Journals and scenarios written before presses, actions and the engines'
records shared one ``Stamp`` type (issue 28) still replay as they did.

The files under old_shape/ were written by that earlier version and are kept
as they came: a quiz journal whose board presses carry their board's clock,
precision, source event and bounce edges, and a scenario with such presses and
an action step of its own precision. Beside each, what that version made of it
(``replay --json`` and ``scenario --json --events``)."""

from __future__ import annotations

import json
from pathlib import Path

from controller.box import journal, scenario
from controller.box.journal_format import ActionRecord, PressRecord, record_to_json
from controller.box.runtime import box_from_journal

OLD = Path(__file__).parent / "old_shape"


def _file_lines(path: Path) -> list[dict[str, object]]:
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return [{k: v for k, v in line.items() if k not in ("seq", "sum")} for line in lines]


def test_an_old_journal_replays_to_what_the_earlier_version_made_of_it():
    old = journal.read(OLD / "quiz_board_clock.jsonl")
    replayed = box_from_journal(old)
    want = json.loads((OLD / "quiz_board_clock.replayed.json").read_text())
    assert json.loads(json.dumps(replayed.summary())) == want
    # station 1 won by 5 µs, ordered at its board clock's 2 µs, not the 592 µs mapping error
    assert [(e.kind, e.player) for e in replayed.event_log if e.kind == "winner"][0] == ("winner", 1)


def test_an_old_journal_s_presses_and_actions_are_written_back_as_they_were_read():
    path = OLD / "quiz_board_clock.jsonl"
    records = journal.read(path).records
    stamped = [r for r in records if isinstance(r, PressRecord | ActionRecord)]
    assert any(isinstance(r, PressRecord) and r.press.clock for r in stamped)
    by_line = [line for line in _file_lines(path) if line["type"] in ("press", "host", "action")]
    assert [record_to_json(r) for r in stamped] == by_line


def test_an_old_scenario_runs_to_what_the_earlier_version_made_of_it():
    data = scenario.load(OLD / "quiz_board_clock_scenario.json")
    got = json.loads(json.dumps(scenario.run(data)))
    want = json.loads((OLD / "quiz_board_clock_scenario.outcome.json").read_text())
    assert got == want
    for key, value in data["expect"].items():
        assert got[key] == value, key
