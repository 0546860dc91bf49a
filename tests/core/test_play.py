"""`buzzerbox play` opens the profile's pins, journals, and stops cleanly."""

from __future__ import annotations

import json

import pytest

from controller.cli import main
from controller.journal import JournalWriter


def test_play_runs_headless_on_mock_pins_and_journals(tmp_path, capsys, mock_pins):
    path = tmp_path / "live.jsonl"
    assert main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.3", "--headless", "--journal", str(path)]) == 0
    out = capsys.readouterr()
    assert "journal" in out.err and json.loads(out.out)["phase"] == "idle"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["mode"] == "play" and lines[0]["station_names"][0] == "Red"
    assert lines[-1]["type"] == "end"


def test_play_resume_continues_the_same_journal(tmp_path, capsys, mock_pins):
    path = tmp_path / "live.jsonl"
    main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless", "--journal", str(path)])
    writer = JournalWriter(path)  # the host armed, then the power went mid-line
    writer.write({"type": "host", "kind": "arm", "t_us": 10**12})
    writer.close()
    with path.open("a") as f:
        f.write('{"type":"press","stati')
    capsys.readouterr()
    assert main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless", "--resume", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "armed"  # state came back from the journal
    text = path.read_text()
    assert '{"type":"press","stati' not in text  # the torn line was cut before appending
    assert json.loads(text.splitlines()[-1])["type"] == "end"  # and the resumed game appended after it


def test_play_with_a_broken_profile_says_why(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[stations]]\ninputs = { bell = 99 }\n")
    with pytest.raises(SystemExit, match="does not exist"):
        main(["play", "--json", "quiz", "--profile", str(bad)])


def test_diag_reads_the_profiles_own_pins(capsys, mock_pins):
    assert main(["diag", "--profile", "header-4", "--headless", "--seconds", "0.3"]) == 0
    assert "header-4 via gpio" in capsys.readouterr().err


def test_a_live_game_starts_its_own_clock_at_zero(tmp_path, capsys, mock_pins):
    """Schicki Micki turns its first card a few seconds after the start, not
    all 64 at once because the box clock has run since boot."""
    path = tmp_path / "sm.jsonl"
    assert main(["play", "--json", "schicki-micki", "--profile", "header-4-full", "--seconds", "0.5", "--headless",
                 "--journal", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] is False and out["cards_turned"] == 0


def test_demo_through_the_simulated_board_reaches_every_player(capsys):
    assert main(["demo", "reaction", "--board-sim", "--headless", "--seconds", "7", "--json"]) == 0
    history = json.loads(capsys.readouterr().out)["history"]
    buzzes = sum(len(r["order"]) + len(r["false_starts"]) for r in history)
    assert buzzes >= 3  # presses of several players crossed the board
