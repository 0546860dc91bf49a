"""``buzzerbox diag``'s end of its deciding process (docs/processes.md).

On a wiring profile, ``diag`` starts ``python -m controller.box.process
--diag --profile P`` with one end of a socketpair: that process opens the
profile's inputs (the GPIO lines, the input board's port), debounces them
as it does between an evening's games and sends every input's row and the
stations' strip (``DiagView``). This process (the screen's, pygame) draws
what it is sent and sends its keyboard's station keys; it opens no input,
so it never holds a line or a port beside the process that decides the
games. Inputs that will not open there (a port or lines another process
holds, no GPIO) are the one line that process says (``Refused``)."""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import subprocess
from collections.abc import Sequence
from typing import Any

from controller import channel
from controller import protocol as p
from controller.box.press import Press
from controller.screen.deciding_start import (
    DECIDING_PROGRAM,
    StationsSink,
    first_message,
    refusal,
    spawn_deciding,
    wait_stopped,
)
from controller.system import signals
from games.base import BuzzerBoxError
from games.i18n import N_, _, current_language

log = logging.getLogger("buzzerbox.diag")

#: how long diag waits for its deciding process to open the inputs, and to exit when told to stop: a
#: process stuck on a USB port that hangs (its open, its close) is killed after it, with one line
DIAG_WAIT_S = 20.0

#: diag's deciding process died while diag showed its inputs (it says why on stderr first, if it could)
DIAG_GONE = N_("the deciding process reading the inputs stopped (it exited {code}): start diag again")


class DiagLink(StationsSink):
    """The deciding process that reads ``diag``'s inputs, as ``loop.run_diag``
    reads a monitor: ``step`` takes what it sent, ``view`` and ``strip`` are
    its newest; an input sink (the keyboard's station keys go to it)."""

    def __init__(self, profile: str, *, feed: str | None = None, wait_s: float = DIAG_WAIT_S,
                 program: Sequence[str] = DECIDING_PROGRAM) -> None:
        """``profile``: as the command line gave it (a name or a path); ``feed``: a FIFO of synthetic
        edges on mock GPIO pins (``controller/box/feed.py``), read by that process; ``wait_s``: how long
        its start (the inputs open) and its stop may take before it is killed; ``program``: the test's seam."""
        self.profile = profile
        self.wait_s = wait_s
        self.program = program
        self.feed = feed
        self.process: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        #: every input's row and the stations' strip, as it last sent them
        self.rows: list[dict[str, Any]] = []
        self._strip: list[dict[str, Any]] = []
        self.now_us = 0

    def start(self) -> str:
        """Started, with the profile's inputs open there: what they are (its
        ``Opened``); a ``BuzzerBoxError`` with its one line if they would not open."""
        args = ["--diag", "--profile", self.profile, "--lang", current_language(),
                "--log-level", str(logging.getLogger().getEffectiveLevel())]
        args += ["--feed", self.feed] if self.feed else []
        # its edge readers at the priority a game's have (``spawn_deciding`` lifts it): the bounce diag shows is theirs
        self.process, self.sock = spawn_deciding(args, program=self.program)
        try:
            first = first_message(self.process, self.sock, self.wait_s)
        except BuzzerBoxError:  # killed: nothing to stop
            self.sock.close()
            self.process = self.sock = None
            raise
        if isinstance(first, p.Opened):
            return first.inputs
        self.stop()
        raise BuzzerBoxError(refusal(first))

    def step(self, now_us: int) -> list[Press]:
        """Its newest rows taken (never waits); the presses are its to count, none
        here. A ``BuzzerBoxError`` saying so if it died meanwhile."""
        self.now_us = max(self.now_us, now_us)
        while self.sock is not None:
            readable, _w, _x = select.select([self.sock], [], [], 0)
            if not readable:
                break
            try:
                message = channel.receive(self.sock)
            except channel.ChannelError as exc:
                log.warning("the deciding process sent something that is not a message (%s)", exc)
                continue
            if message is None:
                self.sock.close()
                self.sock = None
                code = self.process.wait() if self.process is not None else None
                signals.check()  # Ctrl+C ended it first: diag stops as on Ctrl+C, not as on a failure
                raise BuzzerBoxError(_(DIAG_GONE).format(code=code))
            if isinstance(message, p.DiagView):
                self.rows = [dict(row) for row in message.inputs]
                self._strip = [dict(cell) for cell in message.strip]
        return []

    def view(self) -> dict[str, Any]:
        """What the diagnostics screen shows (``InputMonitor.view``'s shape)."""
        return {"phase": "diag", "inputs": self.rows, "now_us": self.now_us, "simulated": False, "keys": None}

    def strip(self) -> list[dict[str, Any]]:
        return self._strip

    def stop(self) -> None:
        """It closes the inputs (lamps off) and exits; waited for."""
        if self.sock is not None:
            with contextlib.suppress(OSError):
                channel.send(self.sock, p.Stop(p.EndReason.QUIT))
            self.sock.close()
            self.sock = None
        if self.process is not None:
            wait_stopped(self.process, self.wait_s)
            self.process = None

