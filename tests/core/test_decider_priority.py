"""A deciding process its screen starts runs at its priority from its first
import (``deciding.lift``), not only once it asks for itself after its imports:
a restart's imports and resume are what the players wait for on a loaded box."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from controller.box.deciding import DECIDER_NICE, DECIDER_RT_PRIORITY, lift
from controller.screen import viewer
from games.registry import get

#: the real one: the test stands a waiting child in for the deciding process ``viewer`` starts
POPEN = subprocess.Popen


def waiting() -> subprocess.Popen[bytes]:
    """A child that only waits for its stdin to close (it asks for no priority itself)."""
    return POPEN([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE,
                            start_new_session=True)


def ended(proc: subprocess.Popen[bytes]) -> None:
    proc.kill()
    proc.wait()
    assert proc.stdin is not None
    proc.stdin.close()


def lifted(pid: int) -> bool:
    fifo = os.sched_getscheduler(pid) == os.SCHED_FIFO and os.sched_getparam(pid).sched_priority == DECIDER_RT_PRIORITY
    return fifo or os.getpriority(os.PRIO_PROCESS, pid) <= DECIDER_NICE


def test_the_screen_starts_its_deciding_process_at_its_priority(tmp_path: Path, monkeypatch) -> None:
    probe = waiting()
    try:
        assert not lifted(probe.pid)
        lift(probe.pid)
        if not lifted(probe.pid):
            pytest.skip("neither SCHED_FIFO nor a lower nice level is allowed here")
    finally:
        ended(probe)
    started: list[subprocess.Popen[bytes]] = []

    def popen(command: list[str], **kwargs: Any) -> subprocess.Popen[bytes]:
        assert command[1:3] == ["-m", "controller.box.process"]
        started.append(waiting())  # stands in for it: it asks for nothing itself
        return started[-1]

    spec = get("quiz")
    game = viewer.SplitGame(tmp_path / "q.jsonl", None, spec, spec.settings(2, 1), new=False, seconds=None,
                            screen_args=[])
    monkeypatch.setattr(viewer.subprocess, "Popen", popen)
    try:
        process, sock = viewer.start_decider(game, resume=True)
        sock.close()
        assert process is started[0]
        assert lifted(process.pid)
    finally:
        for proc in started:
            ended(proc)
