"""Seeded, time-bounded fuzz: a damaged pack gives one PackError line or a
valid pack, never another exception and never a hang."""

from __future__ import annotations

import csv
import io
import json
import random
import time
from pathlib import Path

import pytest

import games.quiz
from games.quiz.packs import Pack, PackError, load_pack
from tests.quiz_packs.fuzzing import mutate

SHIPPED = Path(games.quiz.__file__).parent / "packs" / "en-general.csv"
CASES = 150  # seeded mutations per format, the same every run
#: a mutated file loads within this many times the unmutated one plus a margin: a hang or a blow-up
#: (a file that makes the reader loop), never a speed, so a loaded machine's stall fits in the margin
SLOWEST_FACTOR = 200
SLOWEST_LOAD_S = 30.0

OPENTDB = json.dumps({"response_code": 0, "results": [
    {"type": "multiple", "difficulty": "hard", "category": "Art &amp; Music",
     "question": "Which &quot;key&quot;?", "correct_answer": "C",
     "incorrect_answers": ["D", "E", "F"]},
    {"type": "boolean", "difficulty": "easy", "category": "Science",
     "question": "Ice floats.", "correct_answer": "True", "incorrect_answers": ["False"]},
]}, indent=1).encode()

def as_czech_excel(path: Path) -> bytes:
    """A shipped pack as Czech Excel saves it: semicolons, a BOM, CRLF, "2,0" points."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    points = None
    for row in csv.reader(io.StringIO(path.read_text(encoding="utf-8"))):
        if points is None and "points" in row:
            points = row.index("points")
        elif points is not None and points < len(row) and row[points].isdigit():
            row[points] += ",0"
        writer.writerow(row)
    return b"\xef\xbb\xbf" + out.getvalue().encode()


SEMICOLONS = as_czech_excel(SHIPPED.with_name("cs-general.csv"))

OWN_JSON = json.dumps({"title": "Fuzz", "language": "en", "questions": [
    {"question": "Q1?", "answer": "A", "alternatives": ["a1"], "category": "C", "points": 2},
    {"question": "Q2?", "answer": "B", "choices": ["A", "B", "C"]},
]}, indent=2).encode()

@pytest.mark.parametrize(
    ("name", "seed_data"),
    [("pack.csv", SHIPPED.read_bytes()), ("excel-cs.csv", SEMICOLONS), ("pack.json", OWN_JSON),
     ("opentdb.json", OPENTDB)],
)
def test_mutated_pack_is_a_pack_or_one_line_error(
    tmp_path: Path, name: str, seed_data: bytes
) -> None:
    rng = random.Random(20)
    path = tmp_path / name
    outcomes = {"pack": 0, "error": 0}
    path.write_bytes(seed_data)
    start = time.monotonic()
    assert load_pack(path).left_out == ()  # the unmutated file is whole
    slowest_s = SLOWEST_LOAD_S + SLOWEST_FACTOR * (time.monotonic() - start)  # this machine, now
    for _ in range(CASES):
        data = mutate(seed_data, rng)
        path.write_bytes(data)
        start = time.monotonic()
        try:
            result = load_pack(path)
        except PackError as e:
            message = str(e)
            assert message and "\n" not in message and "; " in message, (data, message)
            assert message.startswith(name), message
            outcomes["error"] += 1
        else:
            assert isinstance(result, Pack) and len(result) >= 1
            assert all(str(line).startswith(name) and "\n" not in str(line) for line in result.left_out), result.left_out
            outcomes["pack"] += 1
        assert time.monotonic() - start < slowest_s, data
    assert outcomes["error"] > 20, outcomes  # the mutations really do break files
