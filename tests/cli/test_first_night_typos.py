"""A new host's typical mistakes end in one line that names the fix, in the
host's language (issue 51): ``--players 0`` (it played with 4 without a word),
a near-miss option name or pack name (no "did you mean"; the list named the
box's own options), a near-miss ``source`` in a profile, and a profile saved
with a UTF-8 byte-order mark (Notepad's; it was "Invalid statement")."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box import profile as profile_mod
from controller.cli import main
from games.i18n import _, set_language
from tests.cli.test_bad_input import one_line_ending


@pytest.fixture(params=["en", "cs", "pl"])
def language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> object:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield request.param
    set_language("en")


def said(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status, err = one_line_ending(lambda: main(argv), capsys)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return status, err


def test_no_players_is_refused(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = said(["--lang", language, "play", "quiz", "--headless", "--seconds", "1", "--players", "0"], capsys)
    assert status == 2 and _("{text} players cannot play: give 1 or more (4 when left out)").format(text="0") in err, err


def test_a_near_miss_option_is_suggested_and_the_box_s_own_are_not_listed(language: str,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    status, err = said(["--lang", language, "play", "quiz", "--headless", "--seconds", "1", "--option", "pakc=en-general"], capsys)
    assert status in (1, 2) and "(" in err and "pack" in err.split("(", 1)[1], err
    assert "pack_left_out" not in err and "pack_questions" not in err and "station_choices" not in err, err


def test_a_near_miss_pack_is_suggested(language: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = said(["--lang", language, "play", "quiz", "--headless", "--seconds", "1", "--option", "pack=cs-genral"], capsys)
    assert status in (1, 2) and "cs-general?" in err, err


def test_a_near_miss_source_in_a_profile_is_suggested(language: str, tmp_path: Path) -> None:
    set_language(language)
    prof = tmp_path / "mine.toml"
    prof.write_text('source = "gpoi"\n[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n', encoding="utf-8")
    with pytest.raises(profile_mod.ProfileError) as refused:
        profile_mod.load(str(prof))
    assert _("(did you mean {name}?)").format(name="gpio") in str(refused.value), refused.value


def test_a_profile_with_a_byte_order_mark_reads(language: str, tmp_path: Path) -> None:
    prof = tmp_path / "mine.toml"
    prof.write_bytes('\ufeff[[stations]]\nname = "Red"\ninputs = { bell = 17 }\n'.encode())
    assert [st.name for st in profile_mod.load(str(prof)).stations] == ["Red"]
