"""A deciding process resuming a game handed over (``session.resumed_box(...,
checked=True)``) finds the newest checkpoint from the journal's end and reads
only it and what follows: the chain before it was checked by the screen that
handed the game over (``session.resumable``) or written by this game's deciding
processes. What it still finds, and what only the screen's check finds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from controller.box import journal_format, session
from controller.box.journal import CheckpointRecord, JournalError, load
from controller.box.runtime import box_from_journal

from .conftest import run
from .test_checkpoints import checkpoint_line, journaled_session


def newest(path: Path) -> tuple[bytes, int, int, str, int] | None:
    """Where the newest checkpoint is, found from the end and by the whole chain (the same, or a failure)."""
    with path.open("rb") as f:
        back = journal_format._checkpoint_from_end(f)
        f.seek(0)
        assert back == journal_format._newest_checkpoint(f)  # the same line, place and sum before it
    return back


def same_read(a: journal_format.Journal, b: journal_format.Journal) -> None:
    assert (a.count, a.dropped, a.next_seq, a.last_sum, a.good_bytes, a.torn_tail, a.damage) == \
        (b.count, b.dropped, b.next_seq, b.last_sum, b.good_bytes, b.torn_tail, b.damage)
    assert a.records == b.records and a.record_lines == b.record_lines


@pytest.mark.parametrize("game", ["quiz", "reaction"])
def test_the_newest_checkpoint_found_from_the_end_is_the_one_the_whole_chain_finds(tmp_path: Path, game: str) -> None:
    path, _box = journaled_session(tmp_path, game, every=10)
    lines = path.read_bytes().splitlines(keepends=True)
    assert sum(b'"type":"checkpoint"' in line for line in lines) >= 3
    first = min(i for i, line in enumerate(lines) if b'"type":"checkpoint"' in line)
    for cut in range(len(lines), 1, -7):  # wherever the file ends: at, just after or far after a checkpoint
        part = tmp_path / "part.jsonl"
        part.write_bytes(b"".join(lines[:cut]))
        assert (newest(part) is None) == (cut <= first)
        same_read(load(part, since_checkpoint=True, checked=True), load(part, since_checkpoint=True))


@pytest.mark.parametrize("block", [1, 5, 37, 1000, 4096])
def test_a_checkpoint_found_across_the_blocks_read_backwards(tmp_path: Path, monkeypatch, block: int) -> None:
    """Read backwards in blocks this small, a checkpoint's end and its line's start fall across
    block boundaries everywhere: found the same (the box reads 1 MiB at a time)."""
    monkeypatch.setattr(journal_format, "_BACK_BLOCK", block)
    path, _box = journaled_session(tmp_path, "reaction", records=120, every=10)
    lines = path.read_bytes().splitlines(keepends=True)
    found = 0
    for cut in range(len(lines), 1, -3):
        part = tmp_path / "part.jsonl"
        part.write_bytes(b"".join(lines[:cut]))
        found += newest(part) is not None
    assert found > len(lines) // 6


def test_a_restart_resumes_from_the_checkpoint_past_a_line_damaged_before_it_which_the_screen_refuses(
        tmp_path: Path) -> None:
    """The changed behaviour: a line changed before the newest checkpoint after the screen
    checked the journal (a card's bit flip mid-game) no longer stops a restarted deciding
    process; the screen's check before a game is handed over refuses it as before, and
    ``journal check`` names it."""
    path, _box = journaled_session(tmp_path, "quiz")
    whole = box_from_journal(load(path))
    lines = path.read_bytes().splitlines(keepends=True)
    early = next(i for i, line in enumerate(lines) if i > 2 and b'"type":"press"' in line)
    assert early < checkpoint_line(path)
    lines[early] = lines[early].replace(b'"t_us":', b'"t_us":1', 1)
    path.write_bytes(b"".join(lines))

    with pytest.raises(JournalError, match=f"line {early + 1}"):  # the screen, before it hands the game over
        session.resumable(path, carry_on=True)
    box, journal = session.resumed_box(path, checked=True)  # a deciding process started again
    try:
        assert journal.dropped > 0 and isinstance(journal.records[0], CheckpointRecord)
        assert box.engine.public_view() == whole.engine.public_view()
        assert box.summary() == whole.summary()
    finally:
        assert box.journal is not None
        box.journal.close()
    with pytest.raises(JournalError, match=f"line {early + 1}"):  # a resume that checks says it, as before
        session.resumed_box(path)


def test_a_restart_still_refuses_a_line_damaged_after_the_newest_checkpoint(tmp_path: Path) -> None:
    path, _box = journaled_session(tmp_path, "quiz")
    lines = path.read_bytes().splitlines(keepends=True)
    at = checkpoint_line(path) + 2
    assert at < len(lines) - 1
    lines[at] = lines[at].replace(b'"seq":', b'"seq":9', 1)
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalError, match=f"line {at + 1}"):
        session.resumed_box(path, checked=True)


def test_a_restart_refuses_a_damaged_newest_checkpoint_naming_its_line(tmp_path: Path) -> None:
    """A checkpoint whose sum does not hold is not taken: the whole chain is read, which names it."""
    path, _box = journaled_session(tmp_path, "reaction")
    lines = path.read_bytes().splitlines(keepends=True)
    at = checkpoint_line(path)
    lines[at] = lines[at].replace(b'"presses_total"', b'"presses_totaL"', 1)
    path.write_bytes(b"".join(lines))
    with pytest.raises(JournalError, match=f"line {at + 1}"):
        session.resumed_box(path, checked=True)


def test_a_torn_checkpoint_at_the_end_is_cut_and_the_one_before_taken(tmp_path: Path, capsys) -> None:
    """A deciding process killed as it wrote a checkpoint's line: its successor cuts the torn
    line (kept aside) and restores the checkpoint before it, replaying what followed."""
    path, _box = journaled_session(tmp_path, "quiz")
    lines = path.read_bytes().splitlines(keepends=True)
    at = checkpoint_line(path)
    kept = lines[:at + 1]
    whole = tmp_path / "whole.jsonl"
    whole.write_bytes(b"".join(kept))
    expected = box_from_journal(load(whole))
    before = load(whole, since_checkpoint=True)
    torn = kept[at][: len(kept[at]) // 2]
    path.write_bytes(b"".join(lines[:at]) + torn)
    box, journal = session.resumed_box(path, checked=True)
    try:
        assert journal.torn_tail
        newest = box.checkpoint_seq
        assert journal.record_lines[0] == newest + 1 < at + 1  # the checkpoint before the torn one
        assert box.engine.public_view() == expected.engine.public_view()
        assert box.summary() == expected.summary()
    finally:
        assert box.journal is not None
        box.journal.close()
    assert path.with_name(path.name + ".torn").read_bytes() == torn + b"\n"
    assert before.count == journal.count + 1  # all but the torn checkpoint
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 0 and out.startswith("OK "), err


def test_the_read_from_the_end_finds_every_changed_byte_after_the_checkpoint(tmp_path: Path) -> None:
    """Seeded single-bit flips in the checkpoint's line and the records after it: the
    read from the end finds each as the whole chain does (a flip before it is the
    screen's check's, above)."""
    path, _box = journaled_session(tmp_path, "quiz")
    data = path.read_bytes()
    lines = data.splitlines(keepends=True)
    start = sum(len(line) for line in lines[:checkpoint_line(path)])
    rng = random.Random(4712)
    for _ in range(60):
        at = rng.randrange(start, len(data))
        path.write_bytes(data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:])
        full = load(path, since_checkpoint=True)
        tail = load(path, since_checkpoint=True, checked=True)
        assert (tail.damage, tail.torn_tail, tail.count, tail.last_sum, tail.next_seq) == \
            (full.damage, full.torn_tail, full.count, full.last_sum, full.next_seq), at


def test_a_deciding_process_takes_over_a_journal_damaged_before_its_newest_checkpoint(tmp_path: Path) -> None:
    """The deciding process as its screen starts it again (no ``--new``): the game is shown
    from the newest checkpoint, the damaged line before it left for ``journal check``
    (before: it refused, and the game stopped after it was tried again)."""
    import socket
    import sys

    from controller import channel
    from controller import protocol as p
    from tests.core.test_split import ENV, ROOT, until
    from tests.processes import HANG_S, running

    path, _box = journaled_session(tmp_path, "quiz")
    lines = path.read_bytes().splitlines(keepends=True)
    early = next(i for i, line in enumerate(lines) if i > 2 and b'"type":"press"' in line)
    lines[early] = lines[early].replace(b'"t_us":', b'"t_us":1', 1)
    path.write_bytes(b"".join(lines))
    mine, theirs = socket.socketpair()
    with running([sys.executable, "-m", "controller.box.process", "--fd", str(theirs.fileno()), "--journal",
                  str(path)], ENV, ROOT, stdout=None, pass_fds=[theirs.fileno()]) as (proc, _err), mine:
        theirs.close()
        first = until(mine, lambda m: isinstance(m, p.View | p.Refused))
        assert isinstance(first, p.View), first
        channel.send(mine, p.Stop("menu"))
        until(mine, lambda m: isinstance(m, p.Ended))
        assert proc.wait(HANG_S) == 0
    journal = load(path)
    assert journal.damage is not None and journal.damage.line == early + 1  # still said by every full read
