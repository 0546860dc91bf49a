"""The box's processes share one stderr: each line they print must reach it
in one write, or another process's line lands inside it (a CI run read
"... Ctrl+C or Esc to stopdeciding process 18312: ..." and never saw the
deciding process's start line)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from controller.system import terminal
from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]


class Writes(io.RawIOBase):
    """A raw stream that keeps each write it was handed, as a pipe sees them."""

    def __init__(self) -> None:
        self.calls: list[bytes] = []

    def writable(self) -> bool:
        return True

    def write(self, b: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        self.calls.append(bytes(b))
        return len(b)


def stderr_as_python_makes_it(raw: Writes) -> io.TextIOWrapper:
    """A non-interactive stderr as the interpreter opens it: text written through to an unbuffered file."""
    return io.TextIOWrapper(raw, encoding="utf-8", write_through=True)  # type: ignore[arg-type]


def test_print_to_a_piped_stderr_is_two_writes_by_default() -> None:
    """Why the box sets it up: without it a line is its text, then its newline."""
    raw = Writes()
    print("deciding process 7: nice -10", file=stderr_as_python_makes_it(raw))
    assert raw.calls == [b"deciding process 7: nice -10", b"\n"]


def test_each_line_is_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    raw = Writes()
    monkeypatch.setattr(sys, "stderr", stderr_as_python_makes_it(raw))
    terminal.whole_lines()
    print("Quiz buzzer on keyboard stations; Ctrl+C or Esc to stop", file=sys.stderr)
    print("a", "b", file=sys.stderr)
    assert raw.calls == [b"Quiz buzzer on keyboard stations; Ctrl+C or Esc to stop\n", b"a b\n"]


@pytest.mark.parametrize("module", ["controller", "controller.box.process", "controller.screen.viewer"])
def test_every_process_of_the_box_writes_whole_lines(module: str) -> None:
    """``buzzerbox``'s own process, the deciding process and a screen it starts:
    each sets its stderr up before it says anything (its command line refused here)."""
    probe = (f"import runpy, sys\nfrom controller.system import terminal\ncalled = []\n"
             f"terminal.whole_lines = lambda: called.append(1)\n"
             f"sys.argv = ['{module}', '--no-such-option']\n"
             f"try:\n    runpy.run_module('{module}', run_name='__main__')\nexcept SystemExit:\n    pass\n"
             f"print('whole_lines' if called else 'not set up')\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=HANG_S, cwd=ROOT)
    assert out.stdout.strip().splitlines()[-1] == "whole_lines", out.stderr
