"""The signals that stop a live game, at any moment, the same way.

SIGTERM (systemd stopping the kiosk), SIGINT (Ctrl+C), SIGHUP (the ssh link
of the host's terminal dropped) and SIGQUIT (Ctrl+\\) all end a game through
its one close: every accepted press journaled, the ``end`` written, lamps
off, children waited for, one line. Without this, SIGHUP and SIGQUIT kill
the process on the spot and SIGTERM does during start-up.

Two ways to act on one (``install``):

* **raise** (the command's process, ``buzzerbox play``/``demo``/``menu``): the
  first signal raises ``KeyboardInterrupt`` in the main thread, which every
  wait for people (roll call, frame loop) already ends on. Where raising
  would leave a half-made thing (a journal being created, a game being
  handed to its deciding process, a close), the code is ``held``: the
  signal is remembered and raised where the hold ends (or at ``check``).
  Later signals are remembered only: a close is never cut short.
* **record** (the deciding process): nothing is raised; its loop asks
  ``received`` and closes the game. A child is started with the signals
  blocked (``blocked_for_child``) and unblocks them once its handlers are
  in, so a signal sent while it imports waits for it instead of killing it.

Exit status (``exit_status``, documented in docs/processes.md): SIGTERM 0
(a stop asked for), SIGINT 130, SIGHUP 129, SIGQUIT 131 (128 + the number,
as a shell reports a process the signal killed).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

#: every signal that ends a game
STOPPING = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT)
#: the exit status of a command a signal stopped (after closing its game)
EXIT_STATUS: dict[int, int] = {signal.SIGTERM: 0, signal.SIGINT: 130, signal.SIGHUP: 129, signal.SIGQUIT: 131}


class _State:
    """What the handlers share (main thread only, as Python runs handlers there)."""

    def __init__(self) -> None:
        self.installed = 0
        self.raising = True
        self.received: int | None = None
        self.raised = False
        self.held = 0
        #: written a byte after each signal is recorded (``wake_on_signal``), None: nobody waits on it
        self.wake_fd: int | None = None


_state = _State()


def _handler(signum: int, frame: FrameType | None) -> None:
    if _state.received is None:
        _state.received = signum
    if _state.wake_fd is not None:
        with contextlib.suppress(OSError):  # full: a wake is already on its way
            os.write(_state.wake_fd, b"!")
    if _state.raising and not _state.raised and _state.held == 0:
        _state.raised = True
        raise KeyboardInterrupt


def install(*, raising: bool = True) -> dict[int, Any] | None:
    """Handle every stopping signal in this process (main thread only; None
    elsewhere, or when already installed: the outer install owns them), then
    unblock them (a parent may have started this process with them blocked).
    Returns the handlers to ``restore``."""
    if threading.current_thread() is not threading.main_thread():
        return None
    _state.installed += 1
    if _state.installed > 1:
        return None
    _state.raising, _state.received, _state.raised, _state.held = raising, None, False, 0
    previous: dict[int, Any] = {sig: signal.signal(sig, _handler) for sig in STOPPING}
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)
    return previous


def restore(previous: dict[int, Any] | None) -> None:
    """Undo the ``install`` that returned ``previous`` (an in-process caller, a test)."""
    if threading.current_thread() is not threading.main_thread():
        return
    _state.installed = max(0, _state.installed - 1)
    if previous is not None:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if _state.installed == 0:  # what came was this installation's: a later caller in this process starts afresh
        _state.received, _state.raised = None, False


@contextmanager
def handled(*, raising: bool = True) -> Iterator[None]:
    """``install`` for the length of a block (nested: the outermost owns them)."""
    previous = install(raising=raising)
    try:
        yield
    finally:
        restore(previous)


def ignored_to_the_end(*others: signal.Signals) -> None:
    """This process's outcome is decided and it only closes and exits now: the stopping signals (and
    ``others`` it handles, whose default also ends a process) are ignored from here on (main thread
    only). Python puts the handlers it installed back to the default as it finalizes, so a stop that
    came then (its starter, done with it, says stop as it exits) would end it by the signal, and the
    exit status that says its outcome would be lost; a handler that raises (the phones' server's)
    would cut its close short. Ignored, the status and the close stay."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (*STOPPING, *others):
        signal.signal(sig, signal.SIG_IGN)


def ended_at_once() -> None:
    """A process with nothing to save or say when stopped (a screen its deciding process started
    again: the game is the deciding process's): the stopping signals end it on the spot. Its starter
    started it with them blocked (``blocked_for_child``), and a process that installs no handlers
    would keep them blocked for good: a ``kill``, or systemd stopping the kiosk, did nothing to it."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in STOPPING:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPPING)


def wake_on_signal(wake: Callable[[], None]) -> None:
    """``wake`` is called on a thread of its own after each stopping signal
    is recorded: a thread that waits for messages with no timeout (the
    deciding process between keyboard games) is woken to ask ``received``.
    The handler only writes a byte to a pipe; ``wake`` runs outside it, so it
    may take locks the interrupted thread holds."""
    read_fd, write_fd = os.pipe()
    os.set_blocking(write_fd, False)

    def woken() -> None:
        while os.read(read_fd, 64):
            wake()

    threading.Thread(target=woken, name="buzzerbox-signal-wake", daemon=True).start()
    _state.wake_fd = write_fd


def received() -> int | None:
    """The first stopping signal since ``install`` (None: none came)."""
    return _state.received


def raised_when_held_ends() -> bool:
    """Inside the one ``held`` block (none around it): a signal came meanwhile and is
    raised where the block ends, so what the block took must be kept for after it."""
    return _state.raising and _state.received is not None and not _state.raised and _state.held == 1


def exit_status() -> int | None:
    """The documented exit status for the signal that stopped the command (None: no signal)."""
    return None if _state.received is None else EXIT_STATUS.get(_state.received, 130)


def check() -> None:
    """Raise now for a signal that came while held (nothing if none, or if it was raised already)."""
    if _state.raising and _state.received is not None and not _state.raised and _state.held == 0:
        _state.raised = True
        raise KeyboardInterrupt


@contextmanager
def held(*, raise_after: bool = True) -> Iterator[None]:
    """No signal interrupts this block; one that came is raised where it ends
    (``raise_after``; else at the caller's next ``check``) unless the block
    ends with an exception of its own."""
    _state.held += 1
    try:
        yield
    finally:
        _state.held -= 1
    if raise_after:
        check()


def hold_to_exit() -> None:
    """From now on no signal is raised (the command has ended; its status stands).

    The status must also survive CPython: under ``python -m``, a
    KeyboardInterrupt raised inside code run from a string (dataclasses and
    namedtuple make their methods that way, as a module is imported) marks
    the interrupt "unhandled" even though it was caught, and the interpreter
    then kills itself with SIGINT at exit (status -2, not 130). Running a
    string clears that mark, so the status the command chose is the one the
    shell sees (tests/cli/test_interrupt.py)."""
    _state.held += 1
    exec("pass", {})  # a constant string: clears CPython's stale "unhandled interrupt" mark


@contextmanager
def blocked_for_child() -> Iterator[None]:
    """Start a child process inside this: it inherits the stopping signals
    blocked (the mask survives exec) and gets any sent to it once its own
    ``install`` unblocks them. This process gets its own after the block."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
