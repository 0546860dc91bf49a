"""Ctrl+C closes the game cleanly, then one line and exit 130: in a windowed
demo (real time) and in ``demo --board-sim`` (issue 14 saw tracebacks in both)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import finish, wait_for_line

ROOT = Path(__file__).resolve().parents[2]


def interrupted(argv: list[str], ready: str, env: dict[str, str]) -> tuple[int, str]:
    # Ctrl+C as a terminal gives it: a test run started in the background of a
    # script inherits SIGINT ignored, and Python then never turns it into KeyboardInterrupt
    proc = subprocess.Popen([sys.executable, "-m", "controller", *argv], cwd=ROOT, env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    said = wait_for_line(proc, ready)  # started: the line it says just before the game runs
    proc.send_signal(signal.SIGINT)
    _out, rest = finish(proc)
    return proc.returncode, said + rest


@pytest.mark.parametrize("argv", [["demo", "quiz", "--window"], ["demo", "reaction", "--board-sim", "--headless"]],
                         ids=["windowed demo", "board-sim demo"])
def test_ctrl_c_is_one_line_and_130(argv: list[str], tmp_path: Path) -> None:
    # a window on SDL's dummy driver: DISPLAY says there is a desktop, the driver was chosen on purpose
    env = {"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "DISPLAY": ":0", "XDG_DATA_HOME": str(tmp_path)}
    status, err = interrupted(argv, "Ctrl+C or Esc to stop", env)
    assert "Traceback" not in err, err
    assert status == 130, err
    assert err.strip().splitlines()[-1] == f"buzzerbox {argv[0]}: stopped (Ctrl+C)"
