"""``buzzerbox pack check``: a host repairs a whole pack in one pass (every
problem on its own line, naming the line and the fix) and sees what a good
pack holds before the night."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main

SHIPPED = Path(__file__).resolve().parents[2] / "games" / "quiz" / "packs"


def check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[str], str]:
    status = main(["pack", "check", str(path)])
    out = capsys.readouterr()
    return status, out.out.splitlines(), out.err


@pytest.mark.parametrize("name", ["en-general.csv", "cs-general.csv"])
def test_a_shipped_pack_is_ok_with_a_one_line_summary(capsys, name: str) -> None:
    status, out, err = check(capsys, SHIPPED / name)
    assert status == 0 and err == ""
    assert len(out) == 1 and out[0].startswith(f"OK {name}: ")
    assert "20 questions" in out[0] and "categories" in out[0] and "points in all" in out[0]


def test_every_problem_of_a_bad_csv_is_its_own_line_with_its_line_number(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "friday.csv"
    pack.write_text(
        "# title: Friday\n"
        "question,answer,points,choices\n"
        "What is 2+2?,4,1,\n"           # line 3: good
        "Capital of France?,,1,\n"       # line 4: no answer
        "Largest ocean?,Pacific,lots,\n"  # line 5: points not a number
        "Red planet?,Mars,1,Venus|Earth\n",  # line 6: answer not among the choices
        encoding="utf-8")
    status, out, err = check(capsys, pack)
    assert status == 1
    assert [line.split(":")[0] for line in out] == ["friday.csv line 4", "friday.csv line 5", "friday.csv line 6"]
    assert all(";" in line for line in out), out  # each says what to do about it
    assert err.startswith("FAIL ") and "3 problems" in err and err.count("\n") == 2
    assert err.splitlines()[1].endswith("friday.csv: 1 good question can be played without the rows above")


def test_a_pack_with_no_good_row_says_nothing_can_be_played(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "bad.csv"
    pack.write_text("question;answer\nCapital of France?;\n", encoding="utf-8")
    status, out, err = check(capsys, pack)
    assert status == 1 and len(out) == 1 and "'answer' is empty" in out[0]
    assert err.count("\n") == 1 and "can be played" not in err


def test_an_open_trivia_db_file_is_read_with_its_entities_decoded(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "opentdb.json"
    pack.write_text(json.dumps({"response_code": 0, "results": [
        {"type": "multiple", "difficulty": "hard", "category": "Science &amp; Nature",
         "question": "Which gas do plants take in?", "correct_answer": "CO&#8322;",
         "incorrect_answers": ["O&#8322;", "N&#8322;", "He"]},
        {"type": "boolean", "difficulty": "easy", "category": "Science &amp; Nature",
         "question": "The Sun is a star.", "correct_answer": "True", "incorrect_answers": ["False"]},
    ]}), encoding="utf-8")
    status, out, _err = check(capsys, pack)
    assert status == 0
    assert "2 questions" in out[0] and "Science & Nature" in out[0] and "4 points in all" in out[0]


def test_a_bad_json_pack_names_its_line(tmp_path: Path, capsys) -> None:
    pack = tmp_path / "broken.json"
    pack.write_text('{"questions": [\n  {"question": "A?", "answer": "B"},\n  {"question": "C?" "answer": "D"}\n]}\n',
                    encoding="utf-8")
    status, out, err = check(capsys, pack)
    assert status == 1 and len(out) == 1
    assert out[0].startswith("broken.json line 3: a comma is missing at column 21; put a comma between")
    assert err.startswith("FAIL ")


def test_a_missing_pack_is_one_line(tmp_path: Path, capsys) -> None:
    status, out, err = check(capsys, tmp_path / "nope.csv")
    assert status == 1 and len(out) == 1 and "no such file" in out[0] and "check the path" in out[0]
