"""The journal's wall-clock records: when the box's timeline stood where, in UTC,
for exports that say when a press happened in the room (a QBJ buzz's time).
Informational only: replay, checksums and the outcome are as without them, an
old journal without them reads as before, and a format-1 journal never gets one.
Every wall clock here is injected; none is the machine's."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from controller.box import journal, session
from controller.box.journal_format import parse_bytes, record_to_json
from games import registry

from .conftest import FIXTURES, lines_of, run

STARTED = datetime(2026, 12, 3, 19, 0, 0, 250_000, tzinfo=timezone.utc)


def test_a_new_box_journals_the_wall_clock_of_its_timeline_s_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    spec = registry.get("quiz")
    path = tmp_path / "q.jsonl"
    box = session.new_box(spec, spec.settings(2, 3), None, path, wall_clock=STARTED.timestamp)
    assert box.journal is not None
    box.journal.write(journal.EndRecord(5_000_000))
    box.journal.close()
    found = journal.read(path)
    assert found.records[0] == journal.WallClockRecord(0, STARTED)
    assert '"utc":"2026-12-03T19:00:00.250000Z"' in path.read_text().splitlines()[1]
    assert found.wall_time(1_500_000) == datetime(2026, 12, 3, 19, 0, 1, 750_000, tzinfo=timezone.utc)
    assert found.last_t_us == 5_000_000 and found.unknown_types() == []
    code, _out, err = run(capsys, "replay", str(path))
    assert code == 0 and err == ""  # a whole journal: nothing to say, nothing "kept but not replayed"
    assert run(capsys, "journal", "check", str(path))[0] == 0  # its checksum chain holds


def test_the_wall_clock_is_never_used_for_deciding(quiz_journal, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The same game with wall-clock records in it, even a clock stepped back by an hour,
    replays to the same outcome: the box decided by its own stamps."""
    data, summary = quiz_journal
    original = parse_bytes(data)
    path = tmp_path / "with-clock.jsonl"
    writer = journal.JournalWriter.create(path, original.header, fsync=False)
    middle = len(original.records) // 2
    stepped_back = datetime(2026, 12, 3, 18, 0, tzinfo=timezone.utc)
    for k, record in enumerate(original.records):
        if k in (0, middle):
            writer.write(journal.WallClockRecord(record.t_us, STARTED if k == 0 else stepped_back))
        writer.write(record)
    writer.close()
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0 and err == ""
    import json

    assert json.loads(out) == summary
    assert run(capsys, "journal", "check", str(path))[0] == 0
    found = journal.read(path)
    halfway = original.records[middle].t_us
    assert found.wall_time(halfway + 1_000) == datetime(2026, 12, 3, 18, 0, 0, 1_000, tzinfo=timezone.utc)
    assert found.wall_time(-1) is None  # before the first record of the wall clock: not known
    assert [record_to_json(r) for r in found.records if isinstance(r, journal.WallClockRecord)] == [
        {"type": "wall_clock", "t_us": original.records[0].t_us, "utc": "2026-12-03T19:00:00.250000Z"},
        {"type": "wall_clock", "t_us": halfway, "utc": "2026-12-03T18:00:00.000000Z"}]


@pytest.mark.parametrize("utc", ["yesterday", "2026-12-03T19:00:00+01:00", "2026-13-03T19:00:00.000000Z", 7])
def test_a_wall_clock_record_that_is_no_utc_time_is_one_line_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], utc: object):
    path = tmp_path / "bad.jsonl"
    writer = journal.JournalWriter.create(path, {"game": "quiz", "settings": {"players": 2}}, fsync=False)
    writer.write({"type": "wall_clock", "t_us": 0, "utc": utc})
    writer.close()
    for argv in (["replay", str(path)], ["journal", "check", str(path)]):
        code, _out, err = run(capsys, *argv)
        assert code == 1 and "Traceback" not in err
        assert "line 2" in err and "wall_clock record's 'utc'" in err, err


def test_a_resumed_format_1_journal_stays_format_1_without_a_wall_clock(tmp_path: Path):
    path = tmp_path / "cut.jsonl"
    path.write_bytes((FIXTURES / "v1-play-schicki-micki-cut.jsonl").read_bytes())
    before = path.read_bytes()
    box, _journal = session.resumed_box(path, wall_clock=STARTED.timestamp)
    assert box.journal is not None
    box.journal.close()
    assert path.read_bytes() == before  # format 1 has no such record: nothing was added
    assert journal.read(path).version == 1


def test_a_resumed_journal_is_anchored_again_at_the_resume(quiz_journal, tmp_path: Path):
    """A power cut of an hour: the timeline goes on a second after its last record,
    so the moments after the resume take their wall time from the resume's record."""
    data, _summary = quiz_journal
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"".join(lines_of(data)[:12]))  # no end record: interrupted
    last = journal.read(path).last_t_us
    later = datetime(2026, 12, 3, 20, 0, tzinfo=timezone.utc)
    box, _journal = session.resumed_box(path, wall_clock=later.timestamp)
    assert box.journal is not None
    box.journal.close()
    found = journal.read(path)
    assert found.records[-1] == journal.WallClockRecord(last + session.RESUME_GAP_US, later)
    assert found.last_t_us == last  # the game's last moment is its last record's, not the note's
    assert found.wall_time(last) is None  # simulated before it: no wall time
    assert found.wall_time(last + session.RESUME_GAP_US + 2_000) == datetime(2026, 12, 3, 20, 0, 0, 2_000,
                                                                          tzinfo=timezone.utc)
