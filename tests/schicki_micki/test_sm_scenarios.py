"""Seed examples 3-9 and our own outcome-table and edge-case scenarios give
the outcomes written in their ``expect``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.box.scenario import check, run_scenario

SCENARIOS = Path(__file__).parent / "scenarios"


def load(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / name).read_text())

FILES = sorted(p.name for p in SCENARIOS.glob("*.json"))


def test_every_seed_example_has_a_scenario() -> None:
    assert {f"seed_example_{n}.json" for n in range(3, 10)} <= set(FILES)


@pytest.mark.parametrize("name", FILES)
def test_scenario_outcome(name: str) -> None:
    data = load(name)
    result = run_scenario(data)
    assert check(data, result) == []  # a refused step is a difference unless expected
    # Cards are conserved in every scenario.
    assert result["deck"] + len(result["table"]) + sum(result["won"]) == result["total_cards"]


def test_example_3_words_name_who_got_what_and_why() -> None:
    result = run_scenario(load("seed_example_3.json"))
    texts = [o["text"] for o in result["outcomes"]]
    assert texts == [
        "player 1 called hat: hat is the one pair, so takes all 2 table cards",
        "player 2 called hat: hat is the one pair, but player 1 was first, so gets nothing",
        "player 3 called scarf: scarf is no pair on the table, so returns 1 card under the deck",
    ]


def test_example_8_knock_beats_an_earlier_correct_call() -> None:
    result = run_scenario(load("seed_example_8.json"))
    by_player = {o["player"]: o for o in result["outcomes"]}
    assert by_player[0]["result"] == "nothing" and by_player[0]["reaction_us"] < by_player[3]["reaction_us"]
    assert by_player[3]["result"] == "all" and by_player[3]["change"] == 2
