"""Every pack docs/question-packs.md names plays: the shipped packs it lists
and the example packs it shows (CSV and JSON, saved as a host would save
them, their pictures beside them), each played to its end by the simulated
room in virtual time, every question asked, on a box in English, Czech and
Polish. The doc and the shipped packs must not drift apart."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pygame
import pytest

from controller.cli import main
from games.quiz.options import PACKS_DIR, SHIPPED_PACKS
from games.quiz.packs import load_pack

DOC = Path(__file__).resolve().parents[2] / "docs" / "question-packs.md"
TEXT = DOC.read_text(encoding="utf-8")
LANGUAGES = ("en", "cs", "pl")


def doc_shipped() -> list[str]:
    """The shipped packs the doc names by file (``games/quiz/packs/NAME.csv``)."""
    return sorted(set(re.findall(r"`games/quiz/packs/([a-z]+-[a-z]+)\.csv`", TEXT)))


def doc_examples() -> list[tuple[str, str]]:
    """The doc's example packs: (suffix, text) of each ``csv`` block and each ``json`` block holding questions."""
    blocks = re.findall(r"```(csv|json)\n(.*?)```", TEXT, flags=re.S)
    return [(kind, body) for kind, body in blocks if kind == "csv" or '"questions"' in body]


def test_the_doc_names_every_shipped_pack_and_shows_examples() -> None:
    assert doc_shipped() == sorted(SHIPPED_PACKS)
    assert [kind for kind, _body in doc_examples()] == ["csv", "csv", "json"]


def played(capsys: pytest.CaptureFixture[str], pack: Path, language: str) -> dict[str, object]:
    assert main(["simulate", "quiz", "--players", "4", "--seed", "5", "--pack", str(pack), "--lang", language,
                 "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", doc_shipped())
def test_each_shipped_pack_the_doc_names_plays_to_its_end(
        capsys: pytest.CaptureFixture[str], name: str, language: str) -> None:
    path = PACKS_DIR / f"{name}.csv"
    outcome = played(capsys, path, language)
    assert outcome["finished"] is True
    assert [r["question"] for r in outcome["results"]] == list(range(1, len(load_pack(path)) + 1))  # type: ignore[attr-defined,index]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("example", range(3))
def test_each_example_pack_in_the_doc_plays_to_its_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], example: int, language: str) -> None:
    kind, body = doc_examples()[example]
    pack = tmp_path / f"example.{kind}"
    pack.write_text(body, encoding="utf-8")
    for picture in re.findall(r"[\w/]+\.png", body):  # the pictures it names, beside it as the doc says
        (tmp_path / picture).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(pygame.Surface((8, 8)), str(tmp_path / picture))
    outcome = played(capsys, pack, language)
    assert outcome["finished"] is True
    assert len(outcome["results"]) == len(load_pack(pack)) >= 2  # type: ignore[arg-type]
