"""A game plugs in with one package and one registry line: Tally (a toy game
that lives under tests/) runs through every way the box starts a game,
without a line of controller/ knowing it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.cli import main
from games import registry

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def tally() -> Iterator[None]:
    with registry.register("tally", "tests.toy.tally"):
        yield


def test_controller_does_not_know_the_toy_game() -> None:
    for path in (ROOT / "controller").rglob("*.py"):
        text = path.read_text(encoding="utf-8").lower()
        assert "tally" not in text, f"{path} names the toy game"


def test_simulate_replay_and_resume_play_it_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tally.jsonl"
    assert main(["simulate", "tally", "--players", "3", "--seed", "4", "--json", "--journal", str(path)]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["finished"] and max(played["scores"]) == 3 and played["scores"][played["winner"]] == 3

    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == played  # the journal rebuilds the same game

    # the power went after the first two presses: resume plays it to an end
    lines = path.read_text().splitlines()
    presses = [i for i, line in enumerate(lines) if json.loads(line).get("type") == "press"]
    path.write_text("\n".join(lines[: presses[1] + 1]) + "\n")
    assert main(["resume", str(path), "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["finished"] and sum(resumed["scores"]) >= 3
    assert json.loads(path.read_text().splitlines()[-1])["type"] == "end"


def test_a_scenario_file_checks_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = tmp_path / "tally.json"
    scenario.write_text(json.dumps({
        "game": "tally", "players": 2, "options": {"target": 2},
        "steps": [{"press": {"station": 1, "input": "bell", "t_us": 1000}},
                  {"host": "clear", "t_us": 2000},  # the game's own host action
                  {"press": {"station": 0, "input": "bell", "t_us": 3000}},
                  {"press": {"station": 0, "input": "a", "t_us": 4000}}],
        "expect": {"winner": 0, "scores": [2, 0]},
    }))
    assert main(["scenario", str(scenario)]) == 0
    scenario.write_text(scenario.read_text().replace('"winner": 0', '"winner": 1'))
    assert main(["scenario", str(scenario)]) == 1
    assert "winner: expected 1, got 0" in capsys.readouterr().err


def test_headless_demo_draws_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shot = tmp_path / "tally.png"
    assert main(["demo", "tally", "--headless", "--players", "2", "--seconds", "30", "--screenshot", str(shot)]) == 0
    out = capsys.readouterr().out
    assert "the game is over" in out and shot.stat().st_size > 10_000
    assert " scored" in out and " point " not in out  # the game's own event is worth a line, in its words


def test_play_on_mock_stations_then_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str], mock_pins: None) -> None:
    path = tmp_path / "live.jsonl"
    assert main(["play", "--json", "tally", "--profile", "header-4", "--seconds", "0.2", "--headless", "--journal", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [0, 0, 0, 0]
    from controller.box.journal import JournalWriter

    writer = JournalWriter(path)  # a press journaled after the first run, as if it had happened then
    writer.write({"type": "press", "station": 2, "input": "bell", "t_us": 10**6, "at_us": 10**6})
    writer.close()
    assert main(["play", "--json", "tally", "--profile", "header-4", "--seconds", "0.2", "--headless", "--resume", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == [0, 0, 1, 0]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["type"] for r in records].count("end") == 2  # each run closed its part of the journal


def test_the_menu_offers_it_with_its_options() -> None:
    from controller.screen.menu import Menu

    menu = Menu([("quiz", "Quiz buzzer", 2, 16), ("tally", "Tally", 2, 8)])
    menu.key("right")  # game: Tally
    assert [i.label for i in menu.items][2] == "Presses to win"
    menu.selected = 2
    menu.key("right")  # 5 presses
    choice = menu.choice()
    assert (choice.game, choice.options) == ("tally", {"target": 5})
    settings = registry.get("tally").settings(choice.players, 1, **choice.options)
    assert registry.get("tally").new_engine(settings).public_view()["target"] == 5


def test_the_box_speaks_its_vocabulary() -> None:
    from controller.box.lights import LightDirector, RecordingLights
    from controller.box.runtime import Box
    from controller.screen.sound import Sound

    spec = registry.get("tally")
    box = Box(spec, spec.settings(2))
    events = box.host(box.host_kind("reset"), 0)
    assert [e.kind for e in events] == ["cleared"]
    lights = RecordingLights([(0, "bell"), (1, "bell")])
    box.apply_action(registry.get("tally").buttons.action(1, "bell", "full", 10) or pytest.fail("no action"))
    LightDirector(lights).update(box.statuses(), spec.status_light)
    assert lights.modes == {(0, "bell"): "off", (1, "bell"): "blink"}  # ahead: blinking
    assert Sound().on_events(box.event_log, spec.sound_for) == ["tick"]
    from games.toolkit.scene import status_label

    assert status_label(box.strip()[1], spec.status_labels) == "AHEAD"
