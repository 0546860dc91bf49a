"""Every rule of the game, shown by a scenario file with an ``expect`` block,
checked by the one scenario checker (``buzzerbox scenario``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.box.scenario import check, run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    assert check(data, run_scenario(data)) == []


def test_there_are_scenarios_for_every_rule() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"cat_passes_several_mice", "full_space_shortens", "start_trapped"} <= names
