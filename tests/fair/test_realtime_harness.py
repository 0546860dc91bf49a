"""The real-time harness (benchmarks/realtime.py, run by hand) still runs end
to end: one run, four contests, every set-up judged in every sweep and the
box's latency read from the real play loop. A smoke test, not a figure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SETUPS = ("box", "Button(bounce_time=None)", "Button(bounce_time=0.01)", "Button(bounce_time=0.2)",
          "lgpio-style callback", "1 kHz polling", "last writer per frame")


def test_the_harness_runs_every_set_up_side_by_side() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    done = subprocess.run(
        [sys.executable, "benchmarks/realtime.py", "--baselines", "--runs", "1", "--per-point", "1", "--idle-only",
         "--gaps", "0,2000", "--envelopes", "20000", "--spikes", "3000"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)  # a hang guard
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    sweeps = out.split("runner-up gap, µs")[1]
    for name in SETUPS:  # a row per set-up in each of the three sweeps
        assert sweeps.count(f"  {name} ") >= 3, name
    assert "box, the real play loop with the journal on" in out
    assert "settled->decision with the stated guard" in out
    assert "load average" in out
