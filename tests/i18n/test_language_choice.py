"""Where the language comes from: ``--lang``, the wiring profile, English."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller import cli
from controller.box.profile import ProfileError, load, start_language
from games.i18n import current_language

SHIPPED = Path(__file__).resolve().parents[2] / "wiring" / "header-4.toml"


def profile_with(tmp_path: Path, line: str) -> Path:
    text = SHIPPED.read_text(encoding="utf-8").replace('source = "gpio"\n', f'source = "gpio"\n{line}\n', 1)
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_profile_says_the_language_and_lang_overrides_it(tmp_path: Path) -> None:
    path = profile_with(tmp_path, 'language = "pl"')
    assert load(str(path)).language == "pl"
    assert start_language(None, str(path)) == "pl"
    assert start_language("cs", str(path)) == "cs"
    assert start_language(None, None) == "en"
    assert load(str(SHIPPED)).language is None


def test_a_language_the_box_does_not_speak_is_one_line(tmp_path: Path) -> None:
    path = profile_with(tmp_path, 'language = "de"')
    with pytest.raises(ProfileError, match=r"language 'de' is not one of en, cs, pl") as caught:
        load(str(path))
    assert "\n" not in str(caught.value)


def test_lang_switches_the_command_s_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--lang", "pl", "simulate", "quiz", "--players", "2"]) == 0
    assert current_language() == "pl"
    out = capsys.readouterr().out
    assert "Kwizowy brzęczyk: 2 symulowanych graczy" in out
    assert "2 symulowanych graczy" in out and "punkty: " in out


def test_lang_speaks_in_the_help_too(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--lang", "cs", "--help"])
    assert caught.value.code == 0
    assert "spravedlivé rozhodování o prvním stisku" in capsys.readouterr().out


def test_lang_refuses_a_language_it_does_not_speak(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.main(["--lang", "de", "simulate", "quiz", "--players", "2"])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "'de' is not a language the box speaks; use one of: en (English), cs (Čeština), pl (Polski)" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv", [
    ["simulate", "quiz", "--players", "2", "--lang", "pl"],
    ["simulate", "--lang", "pl", "quiz", "--players", "2"],
    ["--lang", "cs", "simulate", "quiz", "--players", "2", "--lang", "pl"],  # the nearer one wins
])
def test_lang_works_before_or_after_the_command(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert cli.main(argv) == 0
    assert current_language() == "pl"
    assert "Kwizowy brzęczyk: 2 symulowanych graczy" in capsys.readouterr().out


def test_lang_after_a_nested_command_is_taken(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli.main(["journal", "check", str(tmp_path / "none.jsonl"), "--lang", "cs"]) == 1
    assert current_language() == "cs"
