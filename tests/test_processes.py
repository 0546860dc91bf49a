"""The tests' own child-process helper (tests/processes.py): nothing a
child started outlives ``running``, a process in a session of its own too
(``play --web``'s phones' server is one: left alone, it held the child's
stderr until it gave up on its deciding process, 30 s after each test)."""

from __future__ import annotations

import os
import select
import sys
from pathlib import Path

from tests.processes import running

ROOT = Path(__file__).resolve().parent.parent

#: a child that starts a process in a session of its own (not holding its stderr), says its id, and waits
STARTS_ONE_APART = (
    "import signal, subprocess, sys\n"
    "apart = subprocess.Popen([sys.executable, '-c', 'import signal; signal.pause()'], start_new_session=True,\n"
    "                         stderr=subprocess.DEVNULL)\n"
    "print(apart.pid, file=sys.stderr, flush=True)\n"
    "signal.pause()\n")


def test_a_process_the_child_started_in_a_session_of_its_own_is_gone_after_running() -> None:
    with running([sys.executable, "-c", STARTS_ONE_APART], os.environ, ROOT) as (_proc, err):
        _at, line = err.wait_for(lambda x: x.strip().isdigit())
        apart = os.pidfd_open(int(line))  # its parent waits for nothing: it is not reaped before this
    try:
        ended, _, _ = select.select([apart], [], [], 0)  # readable once it has ended: already, or never
        assert ended, "the process in a session of its own outlived running()"
    finally:
        os.close(apart)
