"""A stopping signal at any moment of ``play`` (the split design, the default)
ends it the same way: the documented exit status, no traceback, one line,
the journal ended with every press accepted so far (or no journal at all if
the game had not been handed over yet), the deciding process reaped.

The moments are what the processes say (the start line, the deciding
process's ready line, the first view) and how many presses the box has
journaled: never a timer. Every signal is tried at every moment, once; it goes
to ``play`` alone (systemd's main pid) or to its whole process group (a
terminal's Ctrl+C, an ssh link that dropped), alternating so that each moment
is tried both ways over the four signals."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller import channel
from controller import protocol as p
from controller.system import signals
from tests.core.test_split import DEADLINE_S, ENV, ROOT, press, ready_pid, until
from tests.processes import Lines, connect_when_listening, running

#: where in a game the signal comes: a line said, or a number of presses the view shows accepted
MOMENTS = ("announced", "deciding", "first view", 1, 2, 3)
PLAYERS = 4


def presses_journaled(journal: Path) -> int:
    lines = journal.read_text().splitlines() if journal.exists() else []
    return sum(json.loads(x).get("type") == "press" for x in lines if x.endswith("}"))


def wait_for_presses(journal: Path, n: int) -> None:
    """Until the journal holds ``n`` presses: each one the box took (played, or late evidence)."""
    deadline = time.monotonic() + DEADLINE_S
    while presses_journaled(journal) < n:
        assert time.monotonic() < deadline, journal.read_text()
        time.sleep(0.02)  # the journal's writer puts it in the file within its 50 ms promise (docs/journal.md)


def reach(moment: str | int, err: Lines, sock_path: Path, journal: Path) -> socket.socket | None:
    """Wait until ``moment``; the viewer socket the test took the game's views on (from its first view on)."""
    if moment == "announced":
        err.wait_for(lambda x: "Ctrl+C or Esc to stop" in x)
        return None
    err.wait_for(lambda x: x.startswith("deciding process "))
    if moment == "deciding":
        return None
    sock = connect_when_listening(str(sock_path), DEADLINE_S)
    first = until(sock, lambda m: isinstance(m, p.View))  # the game is shown: its first view
    if moment == "first view":
        return sock
    assert isinstance(moment, int)
    channel.send(sock, p.HostKey("arm", first.t_us))
    until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
    for station in range(moment):
        press(sock, station)
        wait_for_presses(journal, station + 1)
    return sock


def play_and_signal(tmp_path: Path, sig: int, moment: str | int, group: bool) -> None:
    journal, sock_path = tmp_path / "q.jsonl", tmp_path / "v.sock"
    with running([sys.executable, "-m", "controller", "play", "--json", "quiz", "--players", str(PLAYERS),
                  "--headless", "--journal", str(journal), "--viewer-socket", str(sock_path)], ENV, ROOT,
                 stdout=subprocess.PIPE) as (proc, err):
        sock = None
        try:
            sock = reach(moment, err, sock_path, journal)
            if group:
                os.killpg(proc.pid, sig)
            else:
                proc.send_signal(sig)
            assert proc.stdout is not None
            out = proc.stdout.read()  # until it exits (its stderr is read by ``err``)
            proc.wait(DEADLINE_S)
            err.join()
            # before the harness kills what is left: the deciding process must have been reaped by play
            left = [pid for pid in (ready_pid(x) for x in err.lines if x.startswith("deciding process "))
                    if Path(f"/proc/{pid}").exists()]
        finally:
            if sock is not None:
                sock.close()
    said = "\n".join(err.lines)
    where = f"{signal.Signals(sig).name} at {moment!r} to the {'group' if group else 'process'}:\n{said}"
    assert proc.returncode == signals.EXIT_STATUS[sig], where
    assert "Traceback" not in said, where
    stopped_lines = [x for x in said.splitlines() if x.startswith("buzzerbox play: stopped")]
    assert len(stopped_lines) == (0 if sig == signal.SIGTERM else 1), where
    assert not left, f"deciding process {left} left running; {where}"
    if not journal.exists():  # stopped before the game was handed over: nothing began, nothing left
        assert moment == "announced", where
        return
    records = [json.loads(x) for x in journal.read_text().splitlines()]
    assert records[-1]["type"] == "end" and [r["type"] for r in records].count("end") == 1, where
    if isinstance(moment, int):  # every press taken before the signal is in the journal, before its end
        assert sum(r["type"] == "press" for r in records) >= moment, where
        assert json.loads(out)["phase"] in ("answering", "armed"), where


#: the order the test files try the signals in: the group/process choice alternates over it
SIGNALS = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)


def signalled_at_every_moment(tmp_path: Path, sig: int) -> None:
    """One run of ``play`` per moment, each stopped by ``sig`` (the test files
    share the signals out, two per file, so that the suite's two workers take
    one file each). A signal goes to the process group at every other moment,
    and the next signal starts the other way: over the four signals every
    moment is tried twice each way."""
    first_to_group = SIGNALS.index(sig) % 2 == 0
    for run, moment in enumerate(MOMENTS):
        run_dir = tmp_path / str(run)
        run_dir.mkdir()
        play_and_signal(run_dir, sig, moment, group=(run % 2 == 0) == first_to_group)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: signal.Signals(s).name)
def test_a_signal_at_any_moment_ends_play_cleanly(tmp_path: Path, sig: int) -> None:
    signalled_at_every_moment(tmp_path, sig)


def test_a_signal_handled_in_process_is_forgotten_once_its_handlers_are_restored() -> None:
    """A command run in-process (a test, a caller) that a signal stopped leaves
    nothing behind: the next in-process caller that watches ``received`` (the
    evening's watch between games) does not take that old signal for its own."""
    with signals.handled(raising=False):
        signal.raise_signal(signal.SIGTERM)  # in this thread: handled before the call returns
        assert signals.received() == signal.SIGTERM
    assert signals.received() is None
