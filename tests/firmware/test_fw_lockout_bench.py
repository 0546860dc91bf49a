"""The lockout benchmark's firmware run (benchmarks/board_lockout_fw.py) lights every
contest's lamp even when the machine stops the process for ms at a time: the unlit
contests of its earlier runs (138-149 of 150) were presses that came after the benchmark
had closed a fixed window of real time, not lamps the firmware failed to light. Here
the clock is virtual (each read 1 µs on, whatever this machine is doing) and jumps 8 ms
forward every 700 reads, as a preempted process sees it: what the run shows is the
same on an idle machine and a loaded one (its timing figures are the benchmark's)."""

from __future__ import annotations

import runpy
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONTESTS = 30


def test_every_contest_lights_its_lamp_through_preemption(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    now_ns = [0]
    reads = [0]

    def preempted() -> int:
        reads[0] += 1
        now_ns[0] += 8_000_000 if reads[0] % 700 == 0 else 1_000
        return now_ns[0]

    monkeypatch.setattr(time, "perf_counter_ns", preempted)
    monkeypatch.syspath_prepend(str(ROOT / "tests" / "firmware" / "mpy"))
    monkeypatch.syspath_prepend(str(ROOT / "firmware"))
    monkeypatch.setattr(sys, "argv", ["board_lockout_fw.py", str(CONTESTS)])
    for name in [m for m in sys.modules if m == "buzzer" or m.startswith("buzzer.") or m == "fakehw"]:
        monkeypatch.delitem(sys.modules, name)
    runpy.run_path(str(ROOT / "benchmarks" / "board_lockout_fw.py"), run_name="__main__")
    figures = dict(line.split(" ", 1) for line in capsys.readouterr().out.splitlines())
    assert figures["contests"] == f"{CONTESTS} {CONTESTS}", "contests, lamps lit"
