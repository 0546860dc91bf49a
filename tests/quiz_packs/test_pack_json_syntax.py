"""A JSON pack the json module cannot read is named in one sentence of ours,
as the CSV quote problems are (tests/cli/test_pack_quotes.py): the line and
the column, what is wrong there and the fix, in the host's language; never
with the json module's English in brackets ("not valid JSON (Expecting ','
delimiter at column 21)"). A comma after a list's or an object's last item
is named where the comma stands, not where the bracket after it does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from games.i18n import _, set_language
from games.quiz.packs import Where, check_pack
from tests.cli.test_bad_input import one_line_ending

LANGUAGES = ("en", "cs", "pl")
COMMA = ("a comma is missing at column {column}; put a comma between two items of a list or an object, or close "
         "the list or object if it ends there")
TRAILING = "the comma at column {column} follows the last item of a list or an object; remove it"

#: (the file, the line and column of the fault, the sentence that names it)
CASES = {
    "comma-missing": ('{"questions": [\n  {"question": "A?", "answer": "B"},\n  {"question": "C?" "answer": "D"}\n]}\n',
                      3, 21, COMMA),
    "comma-after-last-key": ('{"questions": [\n  {"question": "Q?", "answer": "A",}\n]}', 2, 35, TRAILING),
    "comma-after-last-question": ('{"questions": [\n  {"question": "Q?", "answer": "A"},\n]}', 2, 36, TRAILING),
    "colon-missing": ('{"questions" [\n  {"question": "Q?", "answer": "A"}\n]}', 1, 14,
                      "a colon is missing at column {column}; write a key, a colon and its value, as in "
                      "\"answer\": \"Paris\""),
    "key-unquoted": ('{questions: []}', 1, 2,
                     "a key is expected at column {column}; write every key in double quotes, as in \"answer\""),
    "quote-missing": ('{"questions": [\n  {"question": "Q?, "answer": "A"}\n]}', 2, 22, COMMA),
    "text-never-closed": ('{"questions": [\n  {"question": "Q?", "answer": "A}]}', 2, 32,
                          "the double quote at column {column} opens a text that is never closed; end the text with a "
                          "double quote on the same line (a double quote inside it is written \\\")"),
    "line-break-in-text": ('{"questions": [\n  {"question": "Q?\n", "answer": "A"}\n]}', 2, 19,
                           "a text has a line break or a tab at column {column}; keep each text on one line (a line "
                           "break inside it is written \\n)"),
    "bad-escape": ('{"questions": [\n  {"question": "C:\\Users?", "answer": "A"}\n]}', 2, 19,
                   "the backslash at column {column} starts no escape JSON knows; write a backslash itself as \\\\ "
                   "and a double quote as \\\""),
    "csv-saved-as-json": ("question,answer\nQ?,A\n", 1, 1,
                          "a value is expected at column {column}; write a text in double quotes (\"Paris\"), a number, "
                          "true, false, null, a list or an object there"),
    "two-objects": ('{"questions": []}\n{"questions": []}\n', 2, 1,
                    "more text follows the end of the pack at column {column}; a pack is one JSON object: remove what "
                    "follows it, or move it inside"),
    "open-at-the-end": ('{"questions": [\n  {"question": "Q?", "answer": "A"}\n', 3, 1, COMMA),
}


def json_said(text: str) -> str:
    """What Python's json module says about ``text``: English the box must not pass on."""
    with pytest.raises(json.JSONDecodeError) as failed:
        json.loads(text)
    return failed.value.msg


def said(language: str, line: int, column: int, sentence: str) -> str:
    """The pack's problem as the box says it in ``language``."""
    set_language(language)
    try:
        return f"pack.json {Where(line)}: {_(sentence).format(column=column)}"
    finally:
        set_language("en")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("case", sorted(CASES))
def test_pack_check_names_the_json_fault_in_one_sentence_of_ours(
        language: str, case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, line, column, sentence = CASES[case]
    path = tmp_path / "pack.json"
    path.write_text(text, encoding="utf-8")
    status = main(["--lang", language, "pack", "check", str(path)])
    set_language("en")
    out = capsys.readouterr().out.splitlines()
    assert status == 1 and out == [said(language, line, column, sentence)], out
    assert json_said(text) not in out[0] and "JSON (" not in out[0], out
    assert str(check_pack(path)[0]) == said("en", line, column, sentence)  # the same line outside the CLI


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_every_json_sentence_is_translated(language: str) -> None:
    english = {sentence for _text, _line, _column, sentence in CASES.values()}
    set_language(language)
    try:
        same = [sentence for sentence in english if _(sentence) == sentence]
    finally:
        set_language("en")
    assert not same, same


@pytest.mark.parametrize("language", LANGUAGES)
def test_play_refuses_a_json_pack_naming_its_fault_as_pack_check_does(
        language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a start that got past the pack journals here
    text, line, column, sentence = CASES["comma-missing"]
    path = tmp_path / "pack.json"
    path.write_text(text, encoding="utf-8")
    status, err = one_line_ending(lambda: main(["--lang", language, "play", "quiz", "--headless", "--seconds", "1",
                                                "--option", f"pack={path}"]), capsys)
    set_language("en")
    assert status in (1, 2) and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert said(language, line, column, sentence) in err, err
    assert json_said(text) not in err, err
