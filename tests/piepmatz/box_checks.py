"""Checks every hidden-hand game passes on the box (Piepmatz, Fiki Miki,
Pictomania share them): simulated players on phones play a whole game that the
journal replays exactly and ``resume`` finishes, and the headless demo draws it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main


def simulate_replay_resume(game: str, players: int, seed: int, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str], options: list[str] = ()) -> dict[str, Any]:
    """Play a game with bots, replay its journal, cut it and resume it; returns the live summary."""
    path = tmp_path / f"{game}.jsonl"
    assert main(["simulate", game, "--players", str(players), "--seed", str(seed), "--json",
                 "--journal", str(path), *options]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["finished"]
    records = [json.loads(line) for line in path.read_text().splitlines()]
    phone = [r for r in records if r.get("type") == "action" and r.get("player") is not None]
    assert phone, "the simulated players' phone actions are in the journal"

    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == played  # the journal rebuilds the same game

    lines = path.read_text().splitlines()
    actions = [i for i, r in enumerate(records) if r.get("type") == "action"]
    path.write_text("\n".join(lines[: actions[len(actions) // 3] + 1]) + "\n")
    assert main(["resume", str(path), "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["finished"]
    assert json.loads(path.read_text().splitlines()[-1])["type"] == "end"
    return dict(played)


def headless_demo(game: str, players: int, seconds: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    shot = tmp_path / f"{game}.png"
    assert main(["demo", game, "--headless", "--players", str(players), "--seconds", str(seconds),
                 "--screenshot", str(shot)]) == 0
    out = capsys.readouterr().out
    assert shot.stat().st_size > 10_000
    return out
