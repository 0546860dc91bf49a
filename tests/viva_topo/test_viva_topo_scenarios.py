"""Every rule of the game, shown by a scenario file with an ``expect`` block."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def check(expected: Any, actual: Any, where: str = "") -> None:
    """Dicts match by the keys the scenario names; everything else exactly."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected a dict, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing from {sorted(actual)}"
            check(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list) and isinstance(actual, list):
        assert sorted(map(json.dumps, expected)) == sorted(map(json.dumps, actual)), (
            f"{where}: expected {expected}, got {actual}"
        )
    else:
        assert expected == actual, f"{where}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    result = run_scenario(data)
    expect = dict(data["expect"])
    log_contains = expect.pop("log_contains", [])
    rejected = expect.pop("rejected", 0)  # out-of-turn presses the engine refused
    check(expect, result)
    assert len([e for e in result["events"] if e["kind"] == "rejected"]) == rejected
    for text in log_contains:
        assert any(text in line for line in result["log"]), (
            f"no log line with {text!r}: {result['log']}"
        )


def test_there_are_scenarios_for_every_rule() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {"cat_passes_several_mice", "full_space_shortens", "start_trapped"} <= names
