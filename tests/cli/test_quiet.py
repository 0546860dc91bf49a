"""A host at a terminal reads what matters: ``play`` says its few lines and the
problems; the running story (answers included) is for -v or for journald when
the box runs as a service."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def play(tmp_path: Path, *extra: str, service: bool = False) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "JOURNAL_STREAM"}
    env.update(GPIOZERO_PIN_FACTORY="mock", SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    if service:
        env["JOURNAL_STREAM"] = "8:12345"  # what systemd sets for a unit whose output journald keeps
    return subprocess.run(
        [sys.executable, "-m", "controller", "play", "reaction", "--profile", "header-4", "--headless",
         "--seconds", "0.2", "--journal", str(tmp_path / "j.jsonl"), *extra],
        capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False)


def test_play_at_a_terminal_says_a_few_lines_and_no_log_story(tmp_path: Path) -> None:
    done = play(tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""  # the summary's JSON only with --json
    assert " INFO " not in done.stderr and "Traceback" not in done.stderr
    # its few lines (a problem, such as storage too slow on a loaded machine, is said besides)
    said = [line for line in done.stderr.splitlines() if line.strip() and " WARNING " not in line]
    assert len(said) <= 4, said
    assert said[-1].startswith("Reaction duel: ") and "scores: Red 0" in said[-1]


def test_play_as_a_service_tells_journald_what_happened(tmp_path: Path) -> None:
    done = play(tmp_path, service=True)
    assert done.returncode == 0, done.stderr
    assert " INFO " in done.stderr


def test_play_prints_the_summary_as_json_when_asked(tmp_path: Path) -> None:
    import json

    done = play(tmp_path, "--json")
    assert json.loads(done.stdout)["game"] == "reaction"


def test_simulate_names_whose_score_is_whose(capsys) -> None:
    from controller.cli import main

    assert main(["simulate", "quiz", "--players", "3"]) == 0
    said = capsys.readouterr().out.splitlines()
    assert said[-1].startswith("scores: Player ") and "[" not in said[-1], said
