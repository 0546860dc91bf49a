"""Hot Potato, the worked example of docs/architecture.md: a game with a
hidden timer and a host who starts each round plugs in with its package and
one registry line; without its host bot, simulate and demo say why nothing
happens instead of standing still in silence."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import main
from games import registry


@pytest.fixture(autouse=True)
def hot_potato() -> Iterator[None]:
    with registry.register("hot-potato", "tests.toy.hot_potato"):
        yield


def test_simulate_plays_every_round_and_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "potato.jsonl"
    assert main(["simulate", "hot-potato", "--players", "4", "--seed", "2", "--json", "--journal", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["finished"] and played["rounds"] == 3 and sum(played["burnt"]) == 3
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == played
    engine = registry.get("hot-potato").new_engine(registry.get("hot-potato").settings(4, 2))
    assert engine.outcome() is None


def test_a_scenario_burns_the_holder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "potato.json"
    scenario.write_text(json.dumps({
        "game": "hot-potato", "players": 3, "seed": 1,
        "options": {"rounds": 1, "fuse_min_us": 5_000_000, "fuse_max_us": 5_000_000},
        "steps": [{"host": "start", "t_us": 0},  # station 0 holds it
                  {"press": {"station": 0, "input": "bell", "t_us": 1_000_000}},
                  {"press": {"station": 1, "input": "bell", "t_us": 2_000_000}},
                  {"tick": 6_000_000}],  # the fuse burns at 5 s: station 2 holds it
        "expect": {"burnt": [0, 0, 1], "scores": [1, 1, 0], "finished": True},
    }))
    assert main(["scenario", str(scenario)]) == 0, capsys.readouterr().err


def test_without_its_host_bot_simulate_says_the_game_stands_still(capsys: pytest.CaptureFixture[str]) -> None:
    spec = registry.get("hot-potato")
    no_host = dataclasses.replace(spec, new_host=lambda settings: None)
    module = __import__("tests.toy.hot_potato", fromlist=["SPEC"])
    real, module.SPEC = module.SPEC, no_host
    try:
        assert main(["simulate", "hot-potato", "--players", "3", "--json"]) == 0
    finally:
        module.SPEC = real
    out, err = capsys.readouterr()
    assert json.loads(out)["finished"] is False
    assert err.strip() == ("buzzerbox simulate: Hot Potato has no host bot, so nothing sends start and the game "
                           "stands still: give its GameSpec a new_host (docs/architecture.md)")


def test_a_game_with_its_host_bot_says_nothing_of_the_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "hot-potato", "--players", "3"]) == 0
    assert "host bot" not in capsys.readouterr().err
