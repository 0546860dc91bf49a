"""A scenario file the json module cannot read is named as a question pack's
and a word list's are (games/files.py ``json_fault``): the line, the column,
what is wrong there and the fix, in one line of the reader's language; never
the json module's English ("not valid JSON (Expecting ',' delimiter: ...)")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from games.i18n import _, set_language

COMMA = ("a comma is missing at column {column}; put a comma between two items of a list or an object, or close "
         "the list or object if it ends there")
EXTRA = ("more text follows the end of the file at column {column}; the file is one JSON object: remove what "
         "follows it, or move it inside")
#: (the file, the line and column of the fault, the sentence that names it)
CASES = {
    "comma-missing": ('{\n  "game": "quiz",\n  "players": 2\n  "steps": []\n}\n', 4, 3, COMMA),
    "two-objects": ('{"game": "quiz", "players": 2, "steps": []}\n{}\n', 2, 1, EXTRA),
}


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_scenario_names_the_json_fault_in_one_line_of_ours(language: str, case: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    text, line, column, sentence = CASES[case]
    path = tmp_path / "s.json"
    path.write_text(text, encoding="utf-8")
    status = main(["--lang", language, "scenario", str(path)])
    err = capsys.readouterr().err
    try:
        expected = f"buzzerbox scenario: {path} {_('line {line}').format(line=line)}: {_(sentence).format(column=column)}"
    finally:
        set_language("en")
    assert status == 1 and err.strip() == expected, err
    with pytest.raises(json.JSONDecodeError) as failed:
        json.loads(text)
    assert failed.value.msg not in err


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_a_scenario_not_in_utf8_is_named_by_its_byte_without_python_s_words(
        language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    text = b'{"game": "quiz", "title": "Kv\xedz"}\n'  # saved as cp1250, not UTF-8
    path.write_bytes(text)
    status = main(["--lang", language, "scenario", str(path)])
    err = capsys.readouterr().err
    try:
        expected = _("{path}: not UTF-8 text (byte {byte}); save it as UTF-8 JSON").format(path=path, byte=text.index(b"\xed"))
    finally:
        set_language("en")
    assert status == 1 and err.strip() == f"buzzerbox scenario: {expected}", err
    assert "invalid" not in err and "continuation" not in err  # the codec's English reason


def test_a_scenario_saved_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    from controller.box.scenario import load

    plain, marked = tmp_path / "plain.json", tmp_path / "marked.json"
    plain.write_text('{"game": "quiz", "players": 2, "steps": []}\n', encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())  # as Windows' Notepad saves UTF-8
    assert load(marked) == load(plain)
