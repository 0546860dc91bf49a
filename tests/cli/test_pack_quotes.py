"""A CSV pack with a quote left open (issue: the tester's ``broken.csv``):
``pack check`` and ``play --option pack=`` both name the quote first, with
the line where it opens, in the host's language, never with the csv
module's English ("unexpected end of data"); an earlier row's problem (a
question twice) comes after it, since the quote is what refuses the file."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from controller.cli import main
from games.i18n import _, set_language
from games.quiz.packs import Where, check_pack
from tests.cli.test_bad_input import one_line_ending

#: an otherwise good pack whose line 7 opens a quote that is never closed
BROKEN = ("question,answer\n"
          "What is the capital of France?,Paris\n"
          "What colour is the sky?,Blue\n"
          "How many legs has a spider?,8\n"
          "Which planet is red?,Mars\n"
          "Who wrote Hamlet?,Shakespeare\n"
          '"What is 2+2?,4\n'
          "What is 3+3?,6\n")
#: the same with line 3 asking line 2's question again: a row's problem before the quote
TWICE = BROKEN.replace("What colour is the sky?,Blue", "What is the capital of France?,Paris")
OPENS = 7
LANGUAGES = ("en", "cs", "pl")
NEVER_CLOSED = "a quote opened here is never closed, so it swallows the rest of the file; close the quote where the cell ends ({fix})"


def csv_said(text: str) -> str:
    """What Python's csv module says about ``text``: English the box must not pass on."""
    with pytest.raises(csv.Error) as failed:
        list(csv.reader(io.StringIO(text, newline=""), strict=True))
    return str(failed.value)


def quote_line(language: str) -> str:
    """The line that names the open quote, as the box says it in ``language``."""
    set_language(language)
    fix = _("a quote inside a cell is written twice: \"\"")
    return f"{Where(OPENS)}: {_(NEVER_CLOSED).format(fix=fix)}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("text", [BROKEN, TWICE], ids=["good-otherwise", "a-question-twice-before"])
def test_pack_check_names_the_open_quote_first_with_its_line_in_the_host_s_language(
        language: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.csv"
    path.write_text(text, encoding="utf-8")
    status = main(["--lang", language, "pack", "check", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1 and out, out
    assert out[0] == f"broken.csv {quote_line(language)}", out
    assert csv_said(text) not in "\n".join(out), out
    assert len(out) == (2 if text is TWICE else 1), out


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("text", [BROKEN, TWICE], ids=["good-otherwise", "a-question-twice-before"])
def test_play_refuses_naming_the_open_quote_as_pack_check_does(
        language: str, text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # a start that got past the pack journals here
    path = tmp_path / "broken.csv"
    path.write_text(text, encoding="utf-8")
    status, err = one_line_ending(lambda: main(["--lang", language, "play", "quiz", "--headless", "--seconds", "1",
                                                "--option", f"pack={path}"]), capsys)
    assert status in (1, 2) and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    said = quote_line(language)
    assert f"broken.csv {said}" in err, err
    assert str(check_pack(path)[0]) == f"broken.csv {said}"  # pack check's first line
    assert csv_said(text) not in err, err


@pytest.mark.parametrize("language", ["cs", "pl"])
@pytest.mark.parametrize(
    "text",
    [BROKEN,
     "question,answer\nQ?,A \"quoted\" badly,\"x\"y\n",  # text after a closing quote
     "question,answer\nQ1?,A\n\"Q2?,B\nQ3?,C\n\"Q4?\",D\n",  # an open quote ended by the next cell's
     "question,answer\nQ1?,A\n" + "x" * (csv.field_size_limit() + 10) + ",B\n"],  # a cell past the csv limit
    ids=["never-closed", "text-after", "runs-on", "huge-cell"])
def test_no_csv_module_english_reaches_a_czech_or_polish_host(language: str, text: str, tmp_path: Path) -> None:
    path = tmp_path / "pack.csv"
    path.write_text(text, encoding="utf-8")
    english = [str(p) for p in check_pack(path)]
    set_language(language)  # tests/conftest.py puts English back
    said = [str(p) for p in check_pack(path)]
    assert len(said) == 1 and csv_said(text) not in said[0], said
    assert said[0].split(": ", 1)[1] != english[0].split(": ", 1)[1], said  # translated, not the English
