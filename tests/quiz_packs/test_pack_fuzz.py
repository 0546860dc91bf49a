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
from tests.processes import HANG_S
from tests.quiz_packs.fuzzing import mutate

SHIPPED = Path(games.quiz.__file__).parent / "packs" / "en-general.csv"
CASES = 150  # seeded mutations per format, the same every run
#: a mutated file loads within this many times the unmutated one plus a margin: a hang or a blow-up
#: (a file that makes the reader loop), never a speed, so a loaded machine's stall fits in the margin
SLOWEST_FACTOR = 200
SLOWEST_LOAD_S = HANG_S

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


def _pack_or_one_line(path: Path, name: str, data: bytes, outcomes: dict[str, int]) -> None:
    """``data`` at ``path`` loads as a pack or is refused in one line naming the file and a fix."""
    path.write_bytes(data)
    try:
        result = load_pack(path)
    except PackError as e:
        message = str(e)
        assert message and "\n" not in message and "; " in message, (data[:200], message)
        assert message.startswith(name), message
        outcomes["error"] += 1
    else:
        assert isinstance(result, Pack) and len(result) >= 1
        assert all(str(line).startswith(name) and "\n" not in str(line) for line in result.left_out), result.left_out
        outcomes["pack"] += 1


def mutate_inside(data: bytes, rng: random.Random) -> bytes:
    """A spreadsheet with one of its parts damaged (its sheet's XML, its shared strings, its
    manifest ...) and zipped again: the readers' own parsing, not only the zip's, is shaken."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        parts = {info.filename: archive.read(info) for info in archive.infolist()}
    xml = sorted(n for n in parts if n.endswith(".xml"))
    victim = rng.choice(xml)
    parts[victim] = mutate(parts[victim], rng)
    if rng.random() < 0.1:
        del parts[rng.choice(sorted(parts))]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for part, content in parts.items():
            archive.writestr(part, content)
    return out.getvalue()


def _sheet_seed(suffix: str) -> bytes:
    from tests.quiz_packs.sheets import ods, xlsx

    rows: list[list[object]] = [["# title: Fuzz"], ["question", "answer", "category", "points", "choices"]]
    for row in csv.reader(io.StringIO(SHIPPED.with_name("cs-general.csv").read_text(encoding="utf-8"))):
        if len(row) >= 2 and row[0] != "question" and not row[0].startswith("#"):
            rows.append([row[0], row[1], "Kvíz", 2, f"{row[1]}|B|C" if len(rows) % 3 == 0 else None])
        if len(rows) > 30:
            break
    sheets = {"Otázky": rows, "Druhý": [["question", "answer"], ["Q?", "A"]]}
    return xlsx(sheets) if suffix == ".xlsx" else ods(sheets, trailing_rows=100_000)


@pytest.mark.parametrize("suffix", [".xlsx", ".ods"])
def test_a_mutated_spreadsheet_is_a_pack_or_one_line_error(tmp_path: Path, suffix: str) -> None:
    """Seeded: the same damaged spreadsheets every run; each read within the time bound (no hang)."""
    rng = random.Random(50)
    seed_data = _sheet_seed(suffix)
    name = f"pack{suffix}"
    path = tmp_path / name
    path.write_bytes(seed_data)
    start = time.monotonic()
    assert load_pack(path).left_out == ()
    slowest_s = SLOWEST_LOAD_S + SLOWEST_FACTOR * (time.monotonic() - start)
    outcomes = {"pack": 0, "error": 0}
    for k in range(CASES // 2):
        data = mutate_inside(seed_data, rng) if k % 3 else mutate(seed_data, rng)
        start = time.monotonic()
        _pack_or_one_line(path, name, data, outcomes)
        assert time.monotonic() - start < slowest_s, k
    assert outcomes["error"] > 10 and outcomes["pack"] > 5, outcomes  # both damage that refuses and damage that plays


@pytest.mark.parametrize("codec", ["cp1250", "utf-16"])
def test_a_mutated_legacy_or_utf16_csv_is_a_pack_or_one_line_error(tmp_path: Path, codec: str) -> None:
    rng = random.Random(51)
    text = SHIPPED.with_name("cs-general.csv").read_text(encoding="utf-8")
    seed_data = text.encode(codec)
    path = tmp_path / "pack.csv"
    path.write_bytes(seed_data)
    start = time.monotonic()
    assert load_pack(path).encoding == {"cp1250": "cp1250", "utf-16": "UTF-16"}[codec]
    slowest_s = SLOWEST_LOAD_S + SLOWEST_FACTOR * (time.monotonic() - start)
    outcomes = {"pack": 0, "error": 0}
    for k in range(CASES):
        start = time.monotonic()
        _pack_or_one_line(path, "pack.csv", mutate(seed_data, rng), outcomes)
        assert time.monotonic() - start < slowest_s, k
    assert outcomes["error"] > 10 and outcomes["pack"] > 10, outcomes
