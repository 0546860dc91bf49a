"""The one scenario checker: every scenario file under tests/ passes
``buzzerbox scenario``; the matching rule; bad files are one line, never a
traceback or a hang (a seeded, time-bounded mutation fuzz)."""

from __future__ import annotations

import copy
import json
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from controller.apps import game_check
from controller.box.scenario import ScenarioError, check, run
from controller.cli import main
from games import registry
from tests.processes import HANG_S

TESTS = Path(__file__).resolve().parents[1]
#: every scenario file of a registered game (the toy games' with ``--toy-games``, which registers them)
SCENARIOS = [(game, path) for game, path in game_check.scenario_files() or [] if game in registry.available()]


@pytest.mark.parametrize("game", registry.available())
def test_every_registered_game_has_scenario_files(game: str) -> None:
    """A game lands with its folder of scenarios (tests/<name>/scenarios/), each run below: the
    requirement's one line names what is missing (``game_check``, CONTRIBUTING.md)."""
    assert any(name == game for name, _path in SCENARIOS), game_check.problems(game)


@pytest.mark.parametrize(("game", "path"), SCENARIOS, ids=[f"{game}/{p.stem}" for game, p in SCENARIOS])
def test_every_scenario_file_meets_its_expectations(game: str, path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["scenario", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "expectations met" in out or "expectation met" in out
    assert json.loads(path.read_text()).get("expect"), "a scenario file states what it shows"


def quiz(steps: list[dict[str, Any]], **expect: Any) -> dict[str, Any]:
    return {"game": "quiz", "players": 4, "seed": 1, "steps": steps, "expect": expect}


ARMED_RACE = [
    {"host": "arm", "t_us": 0},
    {"press": {"station": 2, "input": "bell", "t_us": 1_000}},
    {"press": {"station": 0, "input": "bell", "t_us": 1_412}},
    {"press": {"station": 3, "input": "bell", "t_us": 2_000}},
    {"tick": 20_000},
]


@pytest.mark.parametrize(
    ("expect", "difference"),
    [
        ({"winner": 2, "queue": [0, 3], "margins_us": [412, 1000]}, None),
        ({"queue": [3, 0]}, "queue: expected [3, 0], got [0, 3]"),  # numbers: in order
        ({"scores": [0, 0, 0]}, "scores: expected [0, 0, 0]"),
        ({"nonsense": 1}, "nonsense: missing from the outcome"),
        ({"log_contains": ["winner player 2"]}, None),
        ({"log_contains": ["winner player 0"]}, "log_contains: no log line contains"),
        ({"rejected": 0}, None),
        ({"rejected": 1}, "rejected: expected 1 refused step(s), got 0"),
    ],
)
def test_one_matching_rule(expect: dict[str, Any], difference: str | None) -> None:
    data = quiz(ARMED_RACE, **expect)
    problems = check(data, run(data))
    if difference is None:
        assert problems == []
    else:
        assert problems and difference in problems[0]


def test_dicts_match_by_the_keys_named_and_other_lists_as_multisets() -> None:
    outcome = {"places": {"space-3": ["red-1", "blue-2"], "start": ["red-2"]}, "ties": [[0, 3], [1, 2]]}
    data = {"expect": {"places": {"space-3": ["blue-2", "red-1"]}, "ties": [[1, 2], [0, 3]]}}
    assert check(data, outcome) == []
    data = {"expect": {"places": {"space-3": ["red-1", "red-1"]}}}
    assert check(data, outcome) == ['places.space-3: expected ["red-1", "red-1"], got ["red-1", "blue-2"]']


def test_a_step_the_engine_refuses_fails_the_scenario_unless_expected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Viva Topo!: blue presses out of turn; the engine refuses it
    data = {"game": "viva-topo", "players": 2, "steps": [{"roll": 3, "player": 1}], "expect": {"finished": False}}
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(data))
    assert main(["scenario", str(path)]) == 1
    err = capsys.readouterr().err
    assert "refused 1 step(s)" in err and "red's turn" in err and err.count("\n") == 1
    data["expect"]["rejected"] = 1
    path.write_text(json.dumps(data))
    assert main(["scenario", str(path)]) == 0
    assert "2 expectations met" in capsys.readouterr().out


def test_cli_prints_the_first_difference_and_how_many_more(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(quiz(ARMED_RACE, winner=1, queue=[2])))
    assert main(["scenario", str(path), "--json"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["winner"] == 2
    assert "expectation not met: winner: expected 1, got 2 (and 1 more)" in captured.err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"game": "quiz", "players": Infinity, "steps": []}', '"players" must be a whole number'),
        ('{"game": "quiz", "players": 3, "steps": [{"press": {"station": 1e400, "input": "bell", "t_us": 5}}]}', "station must be a whole number"),
        ('{"game": "quiz", "players": 3, "steps": [{"tick": 1000000000000000000}]}', "tick is 1000000000000000000; use a whole number of microseconds"),
        ('{"game": "viva-topo", "players": 2, "start": {"cat": ""}, "steps": []}', "cat"),
        ('{"game": "viva-topo", "players": 2, "start": {"cat": {"lap": 1}}, "steps": []}', "space"),
        ('{"game": "schicki-micki", "players": 2, "won": [9223372036854775808, 0], "steps": []}', "won"),
        ('{"game": "quiz", "players": 3, "steps": [{"press": {"station": 0, "input": "bell"}}]}', "missing field 't_us'"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_bad_files_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str | bytes, message: str) -> None:
    path = tmp_path / "bad.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    started = time.monotonic()
    assert main(["scenario", str(path)]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert time.monotonic() - started < HANG_S  # a hang, not a speed


# ----------------------------------------------------------------------- fuzz

HOSTILE: list[Any] = [
    None, True, -1, 0, 1, 7, 2**63, -(2**63), 10**30, 1.5, float("inf"), float("nan"), "", "abc", "cat",
    "space-99", [], [1, 2], {}, {"lap": 1}, {"space": "x"},
]
CASE_LIMIT_S = HANG_S  # a hang, not a speed: far beyond any case on the busiest machine


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:30]):
            out += _paths(item, (*path, index))
    return out


def _mutate(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data.pop("expect", None)
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(_paths(data)[1:])
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        roll = rng.random()
        if roll < 0.7:
            parent[path[-1]] = copy.deepcopy(rng.choice(HOSTILE))
        elif roll < 0.85:
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.insert(path[-1], copy.deepcopy(parent[path[-1]]))
    return data


class _Hang(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


def test_mutated_scenarios_never_traceback_or_hang() -> None:
    """Seeded mutations of every scenario file: each run ends in an outcome or
    a ScenarioError within CASE_LIMIT_S; a fixed number of seeded cases."""
    rng = random.Random(2026)
    bases = [json.loads(p.read_text()) for _game, p in SCENARIOS]
    previous = signal.signal(signal.SIGALRM, _alarm)
    tried = 0
    try:
        while tried < 1_000:  # a fixed number of seeded cases
            data = _mutate(rng.choice(bases), rng)
            tried += 1
            signal.setitimer(signal.ITIMER_REAL, CASE_LIMIT_S)
            try:
                run(data)
            except ScenarioError as exc:
                assert "\n" not in str(exc), str(exc)
            except _Hang:
                pytest.fail(f"scenario ran past {CASE_LIMIT_S} s: {json.dumps(data)[:300]}")
            except Exception as exc:  # noqa: BLE001 - the point is that nothing else escapes
                pytest.fail(f"{exc.__class__.__name__}: {exc} from {json.dumps(data)[:300]}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert tried >= 100


def test_byte_flipped_scenario_files_are_one_line_or_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seeded byte flips and truncations of scenario files through the command:
    exit 0 or 1, at most one line on stderr, never an exception."""
    rng = random.Random(12)
    path = tmp_path / "flipped.json"
    for _ in range(300):
        raw = bytearray(rng.choice(SCENARIOS)[1].read_bytes())
        if rng.random() < 0.3:
            raw = raw[: rng.randrange(len(raw))]
        for _ in range(rng.randint(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256) if raw else 0
        path.write_bytes(bytes(raw))
        assert main(["scenario", str(path)]) in (0, 1)
        err = capsys.readouterr().err
        assert err.count("\n") <= 1 and "Traceback" not in err, err
