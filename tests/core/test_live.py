"""Every live game closes the same way: the journal's end written, lights off,
one summary line, however it ended (here: SIGTERM, as systemd stops a kiosk)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path


def test_sigterm_ends_play_with_the_journals_end_and_one_line(tmp_path: Path) -> None:
    journal = tmp_path / "live.jsonl"
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "controller", "play", "quiz", "--profile", "header-4", "--headless",
         "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        deadline = time.monotonic() + 30
        while not (journal.exists() and journal.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)  # the game is running
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    # SDL turns SIGTERM into a window close where it listens for it: either way one line
    summary = [line for line in err.splitlines() if line.startswith("Quiz buzzer ") and "scores" in line]
    assert summary == ["Quiz buzzer ended: quit; scores [0, 0, 0, 0]"] or \
        summary == ["Quiz buzzer stopped (Ctrl+C or SIGTERM); scores [0, 0, 0, 0]"], err
    assert json.loads(out)["phase"] == "idle"
    assert json.loads(journal.read_text().splitlines()[-1])["type"] == "end"
