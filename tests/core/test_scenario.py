"""Scenario files: raw edges, presses, host actions and ticks, as the CLI prints them."""

from __future__ import annotations

import json

import pytest

from controller.box.scenario import ScenarioError, run
from controller.cli import main


def quiz_scenario(steps, **extra):
    return {"game": "quiz", "players": 4, "seed": 1, "steps": steps, **extra}


def test_raw_edges_with_bounce_go_through_debounce_and_arbiter():
    out = run(
        quiz_scenario(
            [
                {"edge": {"station": 1, "input": "bell", "level": 0, "t_us": 500}},  # early
                {"edge": {"station": 1, "input": "bell", "level": 1, "t_us": 40_000}},
                {"host": "arm", "t_us": 100_000},
                {"edge": {"station": 2, "input": "bell", "level": 0, "t_us": 200_000}},
                {"edge": {"station": 2, "input": "bell", "level": 1, "t_us": 200_300}},
                {"edge": {"station": 2, "input": "bell", "level": 0, "t_us": 200_700}},
                {"edge": {"station": 0, "input": "bell", "level": 0, "t_us": 200_412}},
                {"edge": {"station": 3, "input": "bell", "level": 0, "t_us": 210_000}},
                {"edge": {"station": 3, "input": "bell", "level": 1, "t_us": 210_050}},  # 50 µs glitch
                {"tick": 300_000},
            ]
        )
    )
    assert out["winner"] == 2
    assert out["queue"] == [0]
    assert out["margins_us"] == [412]
    assert out["early"] == [1]
    assert out["ties"] == []


def test_presses_and_scores_through_host_actions():
    out = run(
        quiz_scenario(
            [
                {"host": "arm", "t_us": 0},
                {"press": {"station": 3, "input": "bell", "t_us": 1000}},
                {"press": {"station": 0, "input": "bell", "t_us": 1000}},
                {"tick": 10_000},
                {"host": "pick", "player": 3, "t_us": 20_000},
                {"host": "correct", "t_us": 30_000},
            ]
        )
    )
    assert out["ties"] == [[0, 3]]
    assert out["scores"] == [0, 0, 0, 1]


def test_cli_prints_outcome_json_and_checks_expectations(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(quiz_scenario(
        [{"host": "arm", "t_us": 0}, {"press": {"station": 1, "input": "bell", "t_us": 5}}, {"tick": 10_000}],
        expect={"winner": 1},
    )))
    assert main(["scenario", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"winner", "queue", "margins_us", "ties", "early", "scores"} <= set(out)
    path.write_text(json.dumps(quiz_scenario(
        [{"host": "arm", "t_us": 0}, {"press": {"station": 1, "input": "bell", "t_us": 5}}, {"tick": 10_000}],
        expect={"winner": 2},
    )))
    assert main(["scenario", str(path), "--json"]) == 1
    assert "expected 2, got 1" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "chess", "players": 2, "steps": []}, "unknown game 'chess'"),
        (quiz_scenario([{"jump": 1}]), "step 0"),
        (quiz_scenario([{"press": {"station": 0, "t_us": 1}}]), "input"),
        ({"game": "quiz", "players": 40, "steps": []}, "2-16 players"),
    ],
)
def test_bad_scenarios_say_what_is_wrong(data, message):
    with pytest.raises(ScenarioError, match=message):
        run(data)


def test_engine_refusing_its_settings_is_a_scenario_error():
    with pytest.raises(ScenarioError, match="unknown option 'lockout' for quiz"):  # the quiz's spec checks it first
        run({"game": "quiz", "players": 2, "options": {"lockout": 5}, "steps": []})


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "quiz", "players": 3, "stations": ["full"], "steps": []}, "one kind per station"),
        ({"game": "quiz", "players": 2, "steps": [{"tick": "abc"}]}, "whole number of microseconds"),
        ({"game": "quiz", "players": 2, "options": [1, 2], "steps": []}, "\"options\" must be a JSON object"),
        ({"game": "quiz", "players": 2, "expect": [1], "steps": []}, "\"expect\" must be a JSON object"),
        ({"game": "reaction", "players": 2, "options": {"min_delay_us": "5"}, "steps": []}, "'min_delay_us' is '5': give a whole number"),
    ],
)
def test_malformed_scenarios_are_errors_not_tracebacks(data, message):
    with pytest.raises(ScenarioError, match=message):
        run(data)
