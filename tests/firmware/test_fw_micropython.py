"""The firmware under a real MicroPython interpreter (v1.27, WebAssembly port
under Node), compared line for line with the same run under CPython.

The runtime is fetched by ``make test`` (``npm ci --prefix tests/firmware/mpy``);
without it these tests skip loudly, and fail under ``.ci/run``
(tests/runtimes.py)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]
MPY = ROOT / "tests" / "firmware" / "mpy"
SCENARIO = MPY / "fw_scenario.py"
PACKAGE = ROOT / "firmware" / "buzzer"

pytestmark = pytest.mark.runtime("micropython")


@lru_cache(maxsize=1)  # one interpreter run serves every test below
def run_micropython() -> str:
    proc = subprocess.run(["node", "run_firmware.mjs", str(PACKAGE), str(SCENARIO)], cwd=MPY,
                          capture_output=True, text=True, timeout=HANG_S)
    assert proc.returncode == 0, f"MicroPython run failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def run_cpython() -> str:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "firmware"), str(MPY)]))
    proc = subprocess.run([sys.executable, str(SCENARIO)], env=env, capture_output=True,
                          text=True, timeout=HANG_S)
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
    # and what they agree on is right: the press across the 2^30 wrap keeps its first edge,
    # with the wrap count it happened in (w=0) and the IRQ path's declared spread (p=20)
    assert "line P 1 b=cafe0001 c=0 w=0 t=1073721823 n=3 p=20" in mpy  # 20 ms before the wrap
    assert "line P 2 b=cafe0001 c=34 w=1 t=10249 n=1 p=250" in mpy  # after it: w=1
    assert "wraps 1" in mpy
    assert "edges_dropped 13" in mpy  # 20 edges into a ring of 8 (7 usable) slots
    assert "clock_reply r=7" in mpy
    assert any(line.startswith("line X command 'L 99 on'") for line in mpy)


def test_direction_comes_from_the_irq_trigger_not_a_later_read() -> None:
    out = run_micropython().splitlines()
    assert "edge_level_from_trigger 0" in out  # falling edge, pin already back high
    assert "both_triggers 0 1" in out  # a pulse shorter than the IRQ latency: both edges


def test_no_repl_by_accident_and_a_loop_that_survives_its_errors() -> None:
    out = run_micropython().splitlines()
    assert "ctrl_c ['C r=8 b=cafe0002 w=0 t=5250 s=0 q=0']" in out  # 0x03 on the wire is dropped as noise
    assert "protect [-1] 2000 5" in out  # kbd_intr(-1), a 2 s watchdog fed every loop
    # an exception in the loop: reported, and the next press still goes out
    assert "fault ['E RuntimeError: injected', 'P 1 b=cafe0002 c=0 w=0 t=7000 n=1 p=20'] 1" in out
    assert "maintenance_called" in out  # `M repl`: the documented way back to the REPL


def test_a_host_that_stops_reading_never_blocks_the_board_and_the_oldest_are_kept() -> None:
    out = run_micropython().splitlines()
    assert "not_reading 4 3" in out  # ring of 4 full: 4 oldest kept, 3 newest counted as dropped
    assert "replayed ['2', '2', '3', '4']" in out  # back: everything unacked comes again


def test_rest_levels_and_pio_samples_under_micropython() -> None:
    out = run_micropython().splitlines()
    assert "held ['held=1', 'held=1']" in out  # channel 1 at its active level, in Q and hello
    assert "pio_edges [(0, 0, 10), (1, 0, 10)]" in out  # one sample, two pins, one stamp


def test_lamps_stay_dark_until_the_first_all_off_write_under_micropython() -> None:
    """/OE (pulled up) is left to its pull-up until all-off is shifted and latched, then driven low."""
    out = run_micropython().splitlines()
    assert "lights_boot ['oe input pull=None', 'spi 00', 'pin 20=1', 'pin 20=0', 'oe out 0']" in out


def test_gp2_and_gp27_at_once_under_micropython() -> None:
    """IRQ: served in pin order one handler apart, and declared coarser than that gap
    (so the host calls it a tie); PIO: one sample, one stamp for both."""
    out = run_micropython().splitlines()
    assert "gp2_gp27_irq ['c=0 w=0 t=1000000 p=20', 'c=1 w=0 t=1000015 p=20']" in out
    assert "gp2_gp27_pio ['c=0 w=0 t=2000010 p=2', 'c=1 w=0 t=2000010 p=2']" in out


def test_a_600_s_hold_while_unplugged_keeps_its_wrap_under_micropython() -> None:
    """Pressed, held ten minutes across the 2^30 wrap with nobody reading, then released
    and another press: when the host is back, every line carries its wrap count and
    the press after the hold is exactly 600 s after the first."""
    line = next(x for x in run_micropython().splitlines() if x.startswith("hold_600s"))
    events = [dict(f.split("=") for f in body.split()) for body in ast.literal_eval(line.split(" ", 1)[1].rsplit(" ", 1)[0])]
    at = [int(e["w"]) * (1 << 30) + int(e["t"]) for e in events]
    assert [e["c"] for e in events] == ["0", "0", "1", "0"]  # press, stuck, the other press, unstuck
    assert at[2] - at[0] == 600_000_000 and at[3] == at[2]
    assert line.endswith(" 1")  # the board counted the wrap


def test_lockout_lights_at_the_confirmation_under_micropython() -> None:
    """Two presses 10 µs apart within a 20 µs tie window: both lamps latched at the
    glitch filter's confirmation (lat=0 on the scenario's clock, which stands still
    inside a pass), each lamp's report sent before its press; the host's end lights
    its choice; the timeout and a silent host leave every lamp dark."""
    out = run_micropython().splitlines()
    assert ("lockout_lit [\"X command 'L arm 0 c=0:0 g=1 w=0 to=1': contest id must be 1..65535\", "
            "'F 1 b=cafe0008 c=0 k=first id=7 w=0 t=3001000 lit=1000 lat=0', "
            "'F 3 b=cafe0008 c=1 k=tie id=7 w=0 t=3001010 lit=1000 lat=0'] 03") in out
    assert "lockout_then_press ['F1', 'P2', 'F3', 'P4']" in out
    assert "lockout_end 0 [0, 1] 02" in out  # contest gone, lamp 1 on as the host's own mode
    assert "lockout_timeout 02 00 0 [1, 1, 0, 0]" in out  # lit, then dark: dropped by host 1, timeout 1
    assert "lockout_link_away 00 1 [0, 0]" in out  # the host's lamp 0 too: no host, no lamp


def test_an_arm_stamped_on_another_boots_clock_starts_from_the_arm_under_micropython() -> None:
    """``L arm ... s=<ticks> b=<boot>``: a start stamped on another boot's clock (the host
    armed the boot before a reboot it had not heard of) counts from the arm's receipt,
    not from the stamp, which on this boot's clock could count presses made before the
    contest; this boot's stamp and one that names no boot (an older host) count."""
    out = run_micropython().splitlines()
    assert "arm_boot [(1, 100010), (2, 0), (3, 0)] 4003000" in out  # read 10 µs after the stamp's 100 ms
