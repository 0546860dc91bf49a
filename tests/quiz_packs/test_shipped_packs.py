"""The packs that ship with the box load, and read as their language."""

from __future__ import annotations

from pathlib import Path

import pytest

import games.quiz
from games.quiz.packs import check_pack, load_pack

PACKS = Path(games.quiz.__file__).parent / "packs"


@pytest.mark.parametrize(("name", "language", "least"),
                         [("en-general.csv", "en", 20), ("cs-general.csv", "cs", 20), ("pl-general.csv", "pl", 60)])
def test_shipped_pack_is_valid_and_has_varied_questions(name: str, language: str, least: int) -> None:
    path = PACKS / name
    assert check_pack(path) == []
    pack = load_pack(path)
    assert pack.language == language
    assert len(pack) >= least
    assert len(pack.categories()) >= 6, "a general-knowledge pack spans many subjects"
    with_choices = [q for q in pack.questions if q.choices]
    assert 3 <= len(with_choices) < len(pack) // 2, "some questions offer choices, most are open"
    assert {q.points for q in pack.questions} >= {1, 2}


def test_czech_pack_is_written_with_czech_letters() -> None:
    text = (PACKS / "cs-general.csv").read_text(encoding="utf-8")
    assert set("ěščřžýáíéů") <= set(text.lower())
    assert "Ã" not in text and "Ä" not in text, "no UTF-8 read as Latin-1 (mojibake)"


def test_polish_pack_is_written_with_polish_letters() -> None:
    text = (PACKS / "pl-general.csv").read_text(encoding="utf-8")
    assert set("ąćęłńóśźż") <= set(text.lower())
    assert "Ã" not in text and "Ä" not in text, "no UTF-8 read as Latin-1 (mojibake)"
