"""Lockout box mode (firmware/buzzer/standalone.py): with no host the board runs
its own lockout contests (first bell lit with the buzzer, the others locked out, a
tie lit together, the moderator's reset re-arms) and a host that comes back reads
every lamp with its stamp, marked as the board's own contest. The same run under
real MicroPython and CPython, line for line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]
MPY = ROOT / "tests" / "firmware" / "mpy"
SCENARIO = MPY / "standalone_scenario.py"


def run_cpython() -> list[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "firmware"), str(MPY)]))
    proc = subprocess.run([sys.executable, str(SCENARIO)], env=env, capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


def test_without_a_host_the_board_is_a_lockout_box() -> None:
    out = run_cpython()
    assert "host_away_at_1s False armed 0" in out  # a host may still come: nothing of its own yet
    assert "host_away_at_3.5s True armed 1 own True lamps 00000000" in out
    assert "after_bell1 lamps 10000010 buzzer 1" in out  # bell 1's lamp and the buzzer (channel 7)
    assert "after_bell0_late lamps 10000010" in out  # a later bell is locked out
    assert "buzzer_after_300ms 0 lamps 00000010" in out
    assert "after_reset lamps 00000000 armed 2 own True" in out
    assert "after_tie lamps 10000101" in out  # bells 0 and 2 in the same instant: both lit


def test_a_host_that_comes_back_reads_the_contests_it_missed_with_their_stamps() -> None:
    out = run_cpython()
    assert "line F 1 b=box00001 c=1 k=first id=1 w=0 t=3501000 lit=1000 lat=0 own=1" in out
    assert "line F 5 b=box00001 c=0 k=first id=2 w=0 t=3906000 lit=1000 lat=0 own=1" in out
    assert "line F 6 b=box00001 c=2 k=tie id=2 w=0 t=3906000 lit=1000 lat=0 own=1" in out
    assert "host_away False" in out


@pytest.mark.runtime("micropython")
def test_micropython_runs_lockout_box_mode_as_cpython_does() -> None:
    proc = subprocess.run(["node", "run_firmware.mjs", str(ROOT / "firmware" / "buzzer"), str(SCENARIO)],
                          cwd=MPY, capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 0, f"MicroPython run failed:\n{proc.stdout}\n{proc.stderr}"
    assert proc.stdout.splitlines() == run_cpython()
