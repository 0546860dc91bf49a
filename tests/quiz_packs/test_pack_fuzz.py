"""Seeded, time-bounded fuzz: a damaged pack gives one PackError line or a
valid pack, never another exception and never a hang."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

import games.quiz
from games.quiz.packs import Pack, PackError, load_pack

SHIPPED = Path(games.quiz.__file__).parent / "packs" / "en-general.csv"
BUDGET_S = 2.0  # per format; the suite must stay fast
SLOWEST_LOAD_S = 1.0

OPENTDB = json.dumps({"response_code": 0, "results": [
    {"type": "multiple", "difficulty": "hard", "category": "Art &amp; Music",
     "question": "Which &quot;key&quot;?", "correct_answer": "C",
     "incorrect_answers": ["D", "E", "F"]},
    {"type": "boolean", "difficulty": "easy", "category": "Science",
     "question": "Ice floats.", "correct_answer": "True", "incorrect_answers": ["False"]},
]}, indent=1).encode()

OWN_JSON = json.dumps({"title": "Fuzz", "language": "en", "questions": [
    {"question": "Q1?", "answer": "A", "alternatives": ["a1"], "category": "C", "points": 2},
    {"question": "Q2?", "answer": "B", "choices": ["A", "B", "C"]},
]}, indent=2).encode()

SPICE = [b",", b'"', b"|", b"\n", b"\r", b"\x00", b"#", b"{", b"}", b"[", b"]", b":",
         b"\xff", b"\xc5", b"\\u0000", b"\\ud800", b"99999999999", b"-1", b"&amp;", "\ufeff".encode()]


def mutate(data: bytes, rng: random.Random) -> bytes:
    """A few random byte edits, or a field-level change (a cell or value swapped)."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        if not out:
            out.extend(rng.choice(SPICE))
            continue
        i = rng.randrange(len(out))
        op = rng.randrange(6)
        if op == 0:
            out[i] = rng.randrange(256)
        elif op == 1:
            del out[i: i + rng.randint(1, 20)]
        elif op == 2:
            out[i:i] = rng.choice(SPICE)
        elif op == 3:
            j = rng.randrange(len(out))
            out[i:i] = out[j: j + rng.randint(1, 40)]  # duplicate a chunk (cells, rows)
        elif op == 4:
            out[i:] = out[i: i + rng.randint(0, 30)]  # truncate
        else:
            field = rng.choice([b"", b"0", b"abc", b"x" * 400, b"a|b|c|d|e|f|g", b"img.png",
                                b"../x.png", b"true", b"null", b"[]"])
            k = out.find(b",", i)
            if k != -1:
                out[i:k] = field
    return bytes(out)


@pytest.mark.parametrize(
    ("name", "seed_data"),
    [("pack.csv", SHIPPED.read_bytes()), ("pack.json", OWN_JSON), ("opentdb.json", OPENTDB)],
)
def test_mutated_pack_is_a_pack_or_one_line_error(
    tmp_path: Path, name: str, seed_data: bytes
) -> None:
    rng = random.Random(20)
    path = tmp_path / name
    outcomes = {"pack": 0, "error": 0}
    deadline = time.monotonic() + BUDGET_S
    while time.monotonic() < deadline:
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
            outcomes["pack"] += 1
        assert time.monotonic() - start < SLOWEST_LOAD_S, data
    assert outcomes["error"] > 20, outcomes  # the mutations really do break files
