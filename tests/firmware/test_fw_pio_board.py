"""The board with the PIO lockout (firmware/buzzer/app.py with pio_lockout.PioBells, its
state machines modelled by firmware/rp2_model.py): the host's contest of PIO bells is lit
by the machines (the first confirmed bell alone, a same-instant pair together), the CPU
reads the winner, mirrors it on the chain and reports it as ``F ... pio=1``; the host's
end darkens the PIO lamps; a bell held at the arm or an input no machine watches leaves
the contest to the CPU path; lockout box mode runs on the PIO. The same run under real
MicroPython and CPython, line for line (tests/firmware/mpy/pio_scenario.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]
MPY = ROOT / "tests" / "firmware" / "mpy"
SCENARIO = MPY / "pio_scenario.py"


@lru_cache(maxsize=1)
def run_cpython() -> tuple[str, ...]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "firmware"), str(MPY)]))
    proc = subprocess.run([sys.executable, str(SCENARIO)], env=env, capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 0, proc.stderr
    return tuple(proc.stdout.splitlines())


def test_the_pio_lights_the_first_bell_and_the_cpu_reports_and_mirrors_it() -> None:
    out = run_cpython()
    assert "hello 0-2,4" in out  # the hello names the PIO's bells (pl=)
    assert "armed 7 pio True chain 00000000 pio " in out
    assert "before_confirmation chain 00000000 pio " in out  # 999 µs: the filter still counts
    assert "confirmed chain 00000010 pio 9" in out  # bell 1's lamp GPIO (GP9) and its light, mirrored
    assert "bell0_late chain 00000010 pio 9 state0 2" in out  # a later bell: dark, locked out
    assert "line F 2 b=pio00001 c=1 k=first id=7 w=0 t=2100 lit=1000 lat=0 pio=1" in out
    assert "ended chain 00000010 pio  mode1 1" in out  # the host's lamp on the chain, the PIO's dark


def test_a_same_instant_pair_ties_on_the_pio_and_is_reported_as_a_tie() -> None:
    out = run_cpython()
    assert "tie chain 00010100 pio 10,11" in out
    assert "line F 6 b=pio00001 c=2 k=first id=8 w=0 t=20401 lit=1000 lat=0 pio=1" in out
    assert "line F 7 b=pio00001 c=4 k=tie id=8 w=0 t=20401 lit=1000 lat=0 pio=1" in out


def test_the_cpu_path_judges_what_the_machines_cannot() -> None:
    out = run_cpython()
    assert "held_at_arm pio False" in out  # a press begun before the contest never counts
    assert "input_without_machine pio False" in out


def test_lockout_box_mode_runs_on_the_pio() -> None:
    out = run_cpython()
    assert "standalone True own True pio True" in out
    assert "standalone_bell2 chain 10000100 pio 10 buzzer 1" in out
    assert "standalone_reset chain 10000000 pio  armed 2 pio True" in out  # re-armed, lamps dark
    assert out[-1] == "done"


@pytest.mark.runtime("micropython")
def test_micropython_runs_the_pio_lockout_board_as_cpython_does() -> None:
    proc = subprocess.run(["node", "run_firmware.mjs", str(ROOT / "firmware" / "buzzer"), str(SCENARIO)],
                          cwd=MPY, capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 0, f"MicroPython run failed:\n{proc.stdout}\n{proc.stderr}"
    assert tuple(proc.stdout.splitlines()) == run_cpython()
