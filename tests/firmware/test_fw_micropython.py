"""The firmware under a real MicroPython interpreter (v1.27, WebAssembly port
under Node), compared line for line with the same run under CPython.

The runtime is fetched by ``make test`` (``npm ci --prefix tests/firmware/mpy``);
without it these tests skip loudly, and fail under ``.ci/run``
(tests/runtimes.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MPY = ROOT / "tests" / "firmware" / "mpy"
SCENARIO = MPY / "fw_scenario.py"
PACKAGE = ROOT / "firmware" / "buzzer"

pytestmark = pytest.mark.runtime("micropython")


def run_micropython() -> str:
    proc = subprocess.run(["node", "run_firmware.mjs", str(PACKAGE), str(SCENARIO)], cwd=MPY,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"MicroPython run failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def run_cpython() -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "firmware"))
    proc = subprocess.run([sys.executable, str(SCENARIO)], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_irq_handler_does_not_allocate_under_micropython() -> None:
    out = run_micropython()
    assert "irq_no_alloc True" in out.splitlines()
    assert out.splitlines()[-1] == "done"


def test_micropython_and_cpython_run_the_firmware_identically() -> None:
    mpy = run_micropython().splitlines()
    cpy = run_cpython().splitlines()
    assert mpy == cpy
    # and what they agree on is right: the press across the 2^30 wrap keeps its first edge
    assert "line P 1 c=0 t=1073721823 n=3 p=1" in mpy  # first edge 20 ms before the wrap
    assert "wraps 1" in mpy
    assert "edges_dropped 13" in mpy  # 20 edges into a ring of 8 (7 usable) slots
    assert "clock_reply r=7" in mpy
    assert any(line.startswith("line X command 'L 99 on'") for line in mpy)
