"""Issue 20's small leftovers: a damaged journal's replay is one line,
``journal check`` calls a journal with damage damaged (not interrupted), and
argparse's own texts speak the box's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from games.i18n import set_language


@pytest.fixture(scope="module")
def quiz_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    path = tmp_path_factory.mktemp("q") / "q.jsonl"
    assert main(["simulate", "quiz", "--players", "3", "--seed", "4", "--journal", str(path)]) == 0
    return path.read_bytes().splitlines(keepends=True)


def ended(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 1
    out = capsys.readouterr()
    return int(status or 0), out.out, out.err


def altered(lines: list[bytes], at: int, tmp: Path, keep_end: bool = True) -> Path:
    changed = lines[:at] + [lines[at].replace(b'"t_us":', b'"t_us":9')] + lines[at + 1:]
    path = tmp / "damaged.jsonl"
    path.write_bytes(b"".join(changed if keep_end else changed[:-1]))
    return path


def test_replay_of_a_damaged_journal_is_one_line(quiz_lines, tmp_path: Path, capsys) -> None:
    status, out, err = ended(["replay", str(altered(quiz_lines, 10, tmp_path))], capsys)
    assert status == 1 and out == ""
    assert err.count("\n") == 1, err
    assert "DAMAGED from line 11" in err and " more line" in err and "after it not replayed" in err and "--until-damage" in err


@pytest.mark.parametrize(("keep_end", "said"), [(True, "ended after the damage"),
                                                (False, "no end record after the damage")])
def test_journal_check_calls_a_journal_with_damage_damaged(quiz_lines, tmp_path: Path, capsys, keep_end, said) -> None:
    status, out, _err = ended(["journal", "check", str(altered(quiz_lines, 10, tmp_path, keep_end))], capsys)
    assert status == 1
    assert out.startswith("DAMAGED ") and out.rstrip().endswith(said) and "interrupted" not in out


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_argparse_s_own_texts_speak_the_box_s_language(lang: str, capsys) -> None:
    try:
        status, _out, err = ended(["--lang", lang, "simulate"], capsys)
        assert status == 2 and err.count("\n") == 1
        assert "the following arguments are required" not in err and "see buzzerbox simulate --help" not in err
        with pytest.raises(SystemExit):
            main(["--lang", lang, "pack", "--help"])
        help_text = capsys.readouterr().out
        assert not help_text.startswith("usage:") and "positional arguments" not in help_text
        assert "show this help message and exit" not in help_text
    finally:
        set_language("en")


def test_argparse_stays_english_in_english(capsys) -> None:
    status, _out, err = ended(["simulate"], capsys)
    assert status == 2 and "the following arguments are required: game, --players" in err
