"""Ctrl+C closes the game cleanly, then one line and exit 130: in a windowed
demo (real time) and in ``demo --board-sim`` (issue 14 saw tracebacks in both)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import HANG_S, finish, wait_for_line

ROOT = Path(__file__).resolve().parents[2]


def interrupted(argv: list[str], ready: str, env: dict[str, str]) -> tuple[int, str]:
    # Ctrl+C as a terminal gives it: a test run started in the background of a
    # script inherits SIGINT ignored, and Python then never turns it into KeyboardInterrupt
    proc = subprocess.Popen([sys.executable, "-m", "controller", *argv], cwd=ROOT, env={**os.environ, **env},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), start_new_session=True)
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


def test_ctrl_c_caught_inside_generated_code_still_exits_130(tmp_path: Path) -> None:
    """A Ctrl+C that lands while a dataclass is being made (its methods are
    compiled from a string) is caught and closed like any other; the command's
    130 is what the shell sees, not a death by SIGINT (-2) that CPython
    otherwise chooses at exit under ``python -m``."""
    probe = ("import os, signal, sys\n"
             "from controller.system import signals\n"
             "signals.install()\n"
             "try:\n"
             "    exec('import os, signal\\nos.kill(os.getpid(), signal.SIGINT)\\nx = 1\\n', {})\n"
             "except KeyboardInterrupt:\n"
             "    print('caught', file=sys.stderr)\n"
             "signals.hold_to_exit()\n"
             "sys.exit(130)\n")
    status, err = run_as_module(probe, tmp_path)
    assert "caught" in err, err
    assert status == 130, err


def run_as_module(source: str, folder: Path) -> tuple[int, str]:
    """``source`` run as ``python -m`` runs the command line (the mark is set only that way)."""
    (folder / "interrupt_probe.py").write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(ROOT)])}
    done = subprocess.run([sys.executable, "-m", "interrupt_probe"], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=HANG_S,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    return done.returncode, done.stderr
