"""Every live game closes the same way: the journal's end written, lights off,
one summary line, however it ended (here: SIGTERM, as systemd stops a kiosk)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.keys import escape_every
from tests.processes import finish, wait_for_line


def test_sigterm_ends_play_with_the_journals_end_and_one_line(tmp_path: Path) -> None:
    journal = tmp_path / "live.jsonl"
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen(
        # the split design (the default): a SIGTERM right after the start line comes while the game is
        # being handed to its deciding process, which then closes it (tests/core/test_signals.py: any moment)
        [sys.executable, "-m", "controller", "play", "quiz", "--profile", "header-4", "--headless",
         "--json", "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        cwd=Path(__file__).resolve().parents[2], start_new_session=True,  # finish() kills its deciding process too
    )
    said = wait_for_line(proc, "Ctrl+C or Esc to stop")  # the game is starting: what play says last before it runs
    proc.send_signal(signal.SIGTERM)
    out, rest = finish(proc)
    err = said + rest
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    # SDL turns SIGTERM into a window close where it listens for it: either way one line
    summary = [line for line in err.splitlines() if line.startswith("Quiz buzzer: ") and "scores" in line]
    scores = "scores: Red 0, Blue 0, Green 0, Yellow 0"  # the profile names its stations
    assert summary in ([f"Quiz buzzer: the window was closed; {scores}"],
                       [f"Quiz buzzer: stopped (Ctrl+C or SIGTERM); {scores}"]), err
    assert json.loads(out)["phase"] == "idle"
    assert json.loads(journal.read_text().splitlines()[-1])["type"] == "end"


def test_the_menu_resumes_a_game_cut_off_mid_game(tmp_path: Path, capsys, mock_pins) -> None:
    """Kiosk after a power cut: the newest journal has no end, so the menu
    carries that game on (on the same journal) before it shows itself."""
    from controller.box.session import unfinished_journal
    from controller.cli import main

    journal = tmp_path / "quiz-1.jsonl"
    assert main(["play", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless", "--journal", str(journal)]) == 0
    assert unfinished_journal(tmp_path) is None  # it ended properly
    lines = journal.read_text().splitlines()
    journal.write_text("\n".join(lines[:-1]) + "\n")  # the end record never made it: cut off armed
    from controller.box.journal import JournalWriter

    writer = JournalWriter(journal)
    writer.write({"type": "host", "kind": "arm", "t_us": 5000})
    writer.close()
    assert unfinished_journal(tmp_path) == journal
    capsys.readouterr()

    with escape_every():  # leave the resumed game, then the menu
        assert main(["menu", "--profile", "header-4", "--journal-dir", str(tmp_path), "--window"]) == 0
    assert "resuming Quiz buzzer" in capsys.readouterr().err
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert records[-1]["type"] == "end"
    assert any(r["type"] == "host" and r["kind"] == "arm" and r["t_us"] == 5000 for r in records)
    assert unfinished_journal(tmp_path) is None


def test_inputs_that_will_not_open_stop_play_in_one_line(tmp_path: Path, monkeypatch, mock_pins) -> None:
    """Same rule in play and the menu: no silent fallback, no traceback, and
    the journal of the game that never started says it ended (nothing to resume)."""
    import pytest

    import controller.box.sources
    from controller.box.session import unfinished_journal
    from controller.cli import main

    def unplugged(profile):
        raise OSError("no such device")

    monkeypatch.setattr(controller.box.sources, "open_source", unplugged)
    journal = tmp_path / "quiz-1.jsonl"
    # play's deciding process opens them (its own process: no pins to be had), and the screen says its line
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-pins")
    with pytest.raises(SystemExit, match="^buzzerbox play: cannot open the gpio inputs of header-4: ") as said:
        main(["play", "quiz", "--profile", "header-4", "--headless", "--journal", str(journal)])
    assert "\n" not in str(said.value) and "Traceback" not in str(said.value)
    assert unfinished_journal(tmp_path) is None
    with pytest.raises(SystemExit, match="buzzerbox menu: cannot open the gpio inputs of header-4"):
        main(["menu", "--profile", "header-4", "--journal-dir", str(tmp_path), "--window"])


def test_a_demo_journal_written_since_does_not_hide_a_game_to_carry_on(tmp_path: Path) -> None:
    """Demo and the menu's bot games journal in the same folder now: a demo run after a power cut
    must not hide the people's game the menu carries on (only the newest journal was looked at)."""
    import os

    from controller.box import journal as journal_mod
    from controller.box.runtime import Box
    from controller.box.session import DEMO_MODE, unfinished_journal
    from games import registry

    spec = registry.get("quiz")
    people, demo = tmp_path / "quiz-1.jsonl", tmp_path / "quiz-2.jsonl"
    journal_mod.JournalWriter.create(people, Box(spec, spec.settings(2, seed=1)).header(mode="play")).close()
    journal_mod.JournalWriter.create(demo, Box(spec, spec.settings(2, seed=2)).header(mode=DEMO_MODE)).close()
    os.utime(people, (1, 1))  # the people's game is the older one: cut off, then a demo ran
    assert unfinished_journal(tmp_path) == people
