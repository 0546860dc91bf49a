"""Starting a deciding process from the screen's side (docs/processes.md):
the menu's evening (``evening.EveningLink``) and ``diag``'s (``diag_link.DiagLink``)
start ``python -m controller.box.process`` the same way, here: one end of a
socketpair passed to it, started with signals blocked (a Ctrl+C while it starts
waits for its handlers), lifted to a game's priority, its first message read
(``Opened``, or ``Refused`` with its one line). The deciding side never imports
this (import-linter's contracts): only the screen's side starts one."""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import subprocess
import sys
from collections.abc import Sequence

from controller import channel
from controller import protocol as p
from controller.box.deciding import lift
from controller.box.press import Edge, InputNotice, Press, Watermark
from controller.system import signals
from games.base import BuzzerBoxError
from games.i18n import N_, _

log = logging.getLogger("buzzerbox.screen")

#: the deciding process, as the screen's side starts it (a test gives another program: one that never answers)
DECIDING_PROGRAM: tuple[str, ...] = (sys.executable, "-m", "controller.box.process")
#: what a process that exits before its first message is said as (its own line is on stderr just above)
STOPPED_BEFORE = N_("the deciding process stopped before it opened the inputs: see the line above")
#: said when no first message came within the bound (a port that hangs its open): it is killed
NO_ANSWER = N_("the deciding process did not open the inputs within {seconds:g} s (a stuck port?): it was "
               "stopped; unplug the input board, plug it in again and start again")
#: said when a process told to stop had not exited within the bound: it is killed
NOT_STOPPED = N_("the deciding process did not stop within {seconds:g} s of being told to: it was killed")


def spawn_deciding(args: Sequence[str], *, extra_fds: Sequence[int] = (),
                   program: Sequence[str] = DECIDING_PROGRAM) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """Started with ``--fd`` (its channel) and ``args``: the process and this side's end of its
    channel. The caller keeps both before it reads anything, so a stop meanwhile (Ctrl+C) stops it."""
    mine, theirs = socket.socketpair()
    command = [*program, "--fd", str(theirs.fileno()), *args]
    with signals.blocked_for_child():  # a signal sent while it starts up waits for its handlers
        process = subprocess.Popen(command, pass_fds=[theirs.fileno(), *extra_fds])
    lift(process.pid)  # its imports at its priority too (``deciding.lift``)
    theirs.close()
    return process, mine


def first_message(process: subprocess.Popen[bytes], sock: socket.socket, wait_s: float | None = None) -> p.Message:
    """Its first message (``Opened``, or ``Refused`` with its line), read within ``wait_s`` if given:
    none by then, it is killed and ``NO_ANSWER`` raised. One that is no message, or its channel
    closing first, is a ``Refused`` saying so."""
    if wait_s is not None and not select.select([sock], [], [], wait_s)[0]:
        process.kill()
        process.wait()
        raise BuzzerBoxError(_(NO_ANSWER).format(seconds=wait_s))
    try:
        first = channel.receive(sock)
    except channel.ChannelError as exc:
        first = p.Refused(str(exc))
    return first if first is not None else p.Refused(_(STOPPED_BEFORE))


def refusal(first: p.Message) -> str:
    """The one line a first message that is not ``Opened`` says."""
    return first.line if isinstance(first, p.Refused) else _(STOPPED_BEFORE)


def wait_stopped(process: subprocess.Popen[bytes], wait_s: float | None) -> int:
    """Its exit code, waited for at most ``wait_s`` (None: as long as it takes); one that has not
    exited by then (a read stuck in the kernel) is killed, with one line (``NOT_STOPPED``)."""
    try:
        return process.wait(wait_s)
    except subprocess.TimeoutExpired:
        log.warning(_(NOT_STOPPED).format(seconds=wait_s))
        process.kill()
        return process.wait()


class StationsSink:
    """A link to a deciding process as an input sink, as the keyboard source expects: its station
    keys are the stations' too, forwarded as stamped inputs on ``sock`` (None: the link is closed)."""

    sock: socket.socket | None

    def _send(self, message: p.Message) -> None:
        if self.sock is not None:
            with contextlib.suppress(OSError):
                channel.send(self.sock, message)

    def edge(self, edge: Edge, precision_us: int) -> None:
        self._send(p.EdgeInput(edge, precision_us))

    def press(self, press: Press) -> None:
        self._send(p.PressInput(press))

    def notice(self, notice: InputNotice) -> None:
        pass

    def watermark(self, mark: Watermark) -> None:
        pass
