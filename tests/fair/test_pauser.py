"""The benchmark's paused setting (``benchkit.Pauser``, ``realtime.py --paused``): the box's
processes are stopped as a machine that stalls them would, and always let go on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from controller.apps import benchkit as bk

#: a process with a child of its own, that says the child's pid and waits for its stdin to close
WITH_A_CHILD = ("import subprocess, sys\n"
                "child = subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read()'], stdin=subprocess.PIPE)\n"
                "print(child.pid, flush=True)\n"
                "sys.stdin.read()\n"
                "child.stdin.close()\n"
                "child.wait()\n")


def test_the_process_tree_holds_a_process_and_its_children() -> None:
    parent = subprocess.Popen([sys.executable, "-c", WITH_A_CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert parent.stdout is not None
        child = int(parent.stdout.readline())
        tree = bk.process_tree(parent.pid)
        assert tree[0] == parent.pid and child in tree and os.getpid() not in tree
    finally:
        assert parent.stdin is not None
        parent.stdin.close()
        parent.wait()


def test_the_pauser_stops_the_box_and_lets_it_go_on_when_the_game_is_over() -> None:
    """Stopped (SIGSTOP) at its first pause, and continued (SIGCONT) when the ``with`` ends
    even in the middle of a pause: a benchmark never leaves a stopped box behind."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        with bk.Pauser(proc.pid, pause_ms=3_600_000, every_s=0.001) as pauser:
            _pid, status = os.waitpid(proc.pid, os.WUNTRACED)  # returns once it is stopped
            assert os.WIFSTOPPED(status) and os.WSTOPSIG(status) == signal.SIGSTOP
        _pid, status = os.waitpid(proc.pid, os.WCONTINUED)
        assert os.WIFCONTINUED(status) and pauser.pauses == 1
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()


def test_no_pause_asked_starts_no_pauser() -> None:
    with bk.Pauser(os.getpid(), pause_ms=0) as pauser:
        pass
    assert pauser.pauses == 0
