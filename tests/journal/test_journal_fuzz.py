"""Seeded, time-bounded fuzzing of the journal reader: byte flips, truncations,
inserted and duplicated lines. Asserted every time: no traceback, no silent
change of the outcome, no complete record lost."""

from __future__ import annotations

import os
import random
from collections.abc import Callable

import pytest

from controller.box import journal
from controller.box.journal_format import Journal, JournalError, parse_bytes
from controller.box.runtime import box_from_journal

from .conftest import FIXTURES

#: trials scale with this (a fixed count, never a timer); longer runs by hand: JOURNAL_FUZZ_SECONDS=60
BUDGET_S = float(os.environ.get("JOURNAL_FUZZ_SECONDS", "2"))


def fuzz(seed: int, budget_s: float, trial: Callable[[random.Random], None], at_least: int) -> int:
    rng = random.Random(seed)
    count = max(at_least, int(at_least * budget_s / 2))  # a fixed number of seeded trials
    for _ in range(count):
        trial(rng)
    print(f"{trial.__qualname__.split('.')[0]}: {count} trials")  # shown with pytest -s
    return count


def replayed(found: Journal) -> dict | None:
    """The outcome a reader would be shown, or None when it is refused."""
    try:
        return box_from_journal(found).summary()
    except JournalError:
        return None


def load_or_none(data: bytes) -> Journal | None:
    try:
        return parse_bytes(data)
    except JournalError:  # line 1 unusable: a one-line error, nothing replayed
        return None


def test_byte_flips_are_always_seen(quiz_journal):
    data, summary = quiz_journal
    original = parse_bytes(data)
    silent = []

    def trial(rng: random.Random) -> None:
        at = rng.randrange(len(data))
        flipped = bytearray(data)
        flipped[at] = rng.choice([b for b in range(256) if b != data[at]])
        found = load_or_none(bytes(flipped))
        if found is None:
            return
        kept = found.records
        assert kept == original.records[: len(kept)]  # what is kept is exactly what was written
        if found.damage is None and not found.torn_tail:
            if replayed(found) != summary:
                silent.append(at)
        elif found.damage is not None:
            # every complete record before the damaged line is still there
            assert len(kept) == found.damage.line - 2
        else:
            assert len(kept) == len(original.records) - 1  # only the last line can be torn

    n = fuzz(11, BUDGET_S, trial, at_least=200)
    assert silent == [], f"{len(silent)} of {n} flips changed the outcome silently"


def test_truncations_keep_every_complete_record(quiz_journal, tmp_path):
    data, _ = quiz_journal
    original = parse_bytes(data)
    first_line = data.index(b"\n") + 1

    def trial(rng: random.Random) -> None:
        cut = rng.randrange(first_line, len(data))
        found = parse_bytes(data[:cut])
        complete = data[:cut].count(b"\n") - 1
        assert found.damage is None
        assert found.records[:complete] == original.records[:complete]
        assert len(found.records) in (complete, complete + 1)  # +1: a whole record that lost only its newline
        assert found.torn_tail == (not data[:cut].endswith(b"\n") and len(found.records) == complete)

    fuzz(12, BUDGET_S / 2, trial, at_least=200)

    # and resuming a truncated file never deletes a complete record
    rng = random.Random(13)
    for i in range(15):
        cut = rng.randrange(first_line, len(data))
        path = tmp_path / f"t{i}.jsonl"
        path.write_bytes(data[:cut])
        _found, writer = journal.resume(path, threaded=False)
        writer.close()
        complete = data[: data.rindex(b"\n", 0, cut) + 1] if b"\n" in data[:cut] else b""
        assert path.read_bytes().startswith(complete)


@pytest.mark.parametrize("how", ["insert", "duplicate", "garbage"])
def test_inserted_and_duplicated_lines_are_always_seen(quiz_journal, how):
    data, _ = quiz_journal
    lines = data.splitlines(keepends=True)
    original = parse_bytes(data)

    def trial(rng: random.Random) -> None:
        at = rng.randrange(1, len(lines) + 1)
        if how == "duplicate":
            extra = lines[at - 1]
        elif how == "insert":
            extra = lines[rng.randrange(1, len(lines))]
        else:
            extra = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"") + b"\n"
        found = load_or_none(b"".join(lines[:at] + [extra] + lines[at:]))
        assert found is not None and found.damage is not None
        # seen at the inserted line, or one later when it is a copy of the line it was put before
        assert found.damage.line in (at + 1, at + 2)
        assert found.records == original.records[: found.damage.line - 2]  # everything before it kept

    fuzz(14, BUDGET_S / 3, trial, at_least=100)


def test_version_1_journals_never_crash_the_reader(tmp_path):
    """Format 1 has no checksums: a flip can go unseen there, but never as a traceback."""
    paths = sorted(FIXTURES.glob("v1-*.jsonl"))
    samples = [p.read_bytes() for p in paths]

    def trial(rng: random.Random) -> None:
        data = bytearray(rng.choice(samples))
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(data))
            data[at] = rng.randrange(256)
        found = load_or_none(bytes(data))
        if found is not None:
            replayed(found)

    fuzz(15, BUDGET_S / 2, trial, at_least=100)
