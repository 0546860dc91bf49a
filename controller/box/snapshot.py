"""A checkpoint's line made from a copy-on-write copy of the deciding process.

Why: encoding a long game's state (``controller.box.checkpoint``) takes
0.1-1 s and grows with the game; on the deciding thread a press that came
meanwhile waited that long for its decision. Any copy of the state made in
the process (pickle, a structural copy) grows with the game too (~9 ms for a
100,000-record quiz here). A ``fork`` copies no object: the kernel shares the
pages and copies one only when the deciding process writes to it, so the
snapshot costs the deciding thread about a millisecond whatever the game's
length (``benchmarks/checkpoint_hold.py``). The child encodes the state it
was born with, writes the finished line (checksummed with the place the
journal reserved for it) to a pipe and exits; it runs no game code, no
handler and no ``atexit``, holds no file of its parent's and runs below the
deciding thread's priority. A thread of the journal's (``JournalWriter.write_later``)
reads the line and puts it in its place.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import select
import signal
import threading
import time
import warnings
from collections.abc import Callable, Iterable

from controller.box.checkpoint import CheckpointError

#: a fork is how a live box takes a checkpoint's snapshot (else it encodes on the deciding thread)
CAN_FORK = hasattr(os, "fork")
#: the child's nice level: below the deciding thread (real-time) and the screen
CHILD_NICE = 5
#: a child that has not answered by then is killed and the checkpoint dropped (the next one is tried):
#: the records journaled meanwhile wait in memory for its line, so a stuck child must not hold them long
CHILD_TIMEOUT_S = 15.0
#: the child's ``oom_score_adj``: the first the kernel ends when memory runs out (its pages are mostly
#: the parent's, so it looked as big as the deciding process, which might have been chosen instead)
OOM_SCORE_ADJ = 1000
#: the signals that stop the deciding process (and, by default, the child)
STOPS = frozenset({signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT})
BLOCK, UNBLOCK, SET_MASK = (getattr(signal, name, 0) for name in ("SIG_BLOCK", "SIG_UNBLOCK", "SIG_SETMASK"))
#: tests: runs in the child after the fork, before it encodes (presses may be journaled meanwhile)
before_encoding: Callable[[], None] | None = None

#: what a child's line, or its reason for none, is: the line and its chain sum; or a refusal (no
#: checkpoint for this game: the state holds what the codec does not write); or a failure (try later)
Made = tuple[bytes, str]


class Refused(CheckpointError):
    """The state holds what the codec does not write: this game gets no checkpoints."""


class Failed(RuntimeError):
    """The child did not make the line (killed, out of memory, timed out): the next checkpoint tries again."""


class Child:
    """A forked child making one checkpoint line; ``result`` waits for it."""

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self.fd = fd
        self._reaping = threading.Lock()  # a pid reaped may be another process's soon: no kill after
        self._reaped = False

    def kill(self) -> None:
        """End the child now (its line is not wanted any more): ``result`` then says ``Failed``."""
        with self._reaping:
            if not self._reaped:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)

    def result(self, timeout_s: float = CHILD_TIMEOUT_S) -> Made:
        """The line and its sum; ``Refused`` or ``Failed`` when there is none. Reaps the child."""
        chunks: list[bytes] = []
        deadline = time.monotonic() + timeout_s
        poll = select.poll()  # not select(): the unit allows 8192 files, and select() takes none past 1023
        poll.register(self.fd, select.POLLIN)
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0 or not poll.poll(left * 1000):
                    self.kill()
                    raise Failed(f"the checkpoint's child gave no line within {timeout_s:.0f} s")
                chunk = os.read(self.fd, 1 << 20)
                if not chunk:
                    break
                chunks.append(chunk)
        finally:
            os.close(self.fd)
            with self._reaping:
                _pid, status = os.waitpid(self.pid, 0)
                self._reaped = True
        data = b"".join(chunks)
        chunks.clear()
        code = os.waitstatus_to_exitcode(status)
        if code == 0 and data.startswith(b"OK"):
            digest, _, line = data[2:].partition(b"\n")
            if line.endswith(b"\n"):
                return line, digest.decode("ascii")
        if code == 0 and data.startswith(b"NO"):
            raise Refused(data[2:].decode("utf-8", "replace"))
        raise Failed(f"the checkpoint's child ended with {code}: {data[2:200].decode('utf-8', 'replace')}")


def fork(make: Callable[[], Made]) -> Child:
    """Fork; the child runs ``make`` (the line and its sum, or a CheckpointError
    or ValueError: refused) on the memory it was born with and exits."""
    read_end, write_end = os.pipe()
    # a stop sent to the group in the child's first moment waits, blocked, for its default handlers: it
    # ran the deciding process's handler there (which records a stop, never raises) and the child went on
    mask = _block(STOPS)
    # nor a collection before the child is quiet: one ran the finalizers of the parent's garbage there
    # (a ``__del__``, a generator's ``finally``: code that may take a lock another thread held at the fork)
    collecting = gc.isenabled()
    gc.disable()
    pid = -1
    try:
        with warnings.catch_warnings():  # 3.12 warns of a fork beside threads: the child touches no lock of theirs
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        raise
    finally:
        if pid != 0:  # the parent (or no child): as it was
            _block(mask, how=SET_MASK)
            if collecting:
                gc.enable()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            _become_quiet(write_end)
            try:
                line, digest = make()
                out = b"OK" + digest.encode("ascii") + b"\n" + line
            except (CheckpointError, ValueError) as exc:
                out = b"NO" + str(exc).encode("utf-8", "replace")
            view = memoryview(out)
            while view:
                view = view[os.write(write_end, view):]
            code = 0
        except BaseException as exc:  # noqa: BLE001 (said to the parent, which logs it)
            with contextlib.suppress(BaseException):
                os.write(write_end, b"ER" + repr(exc)[:200].encode("utf-8", "replace"))
        finally:
            os._exit(code)
    os.close(write_end)
    return Child(pid, read_end)


def _become_quiet(keep_fd: int) -> None:
    """The child: default signal handlers (a stop sent to the group just ends it),
    below the deciding thread's priority, the first the kernel ends when memory runs out,
    no collection (no finalizer runs; none ran since the fork either),
    then no file of the parent's but the pipe (the journal's lock goes with its fd)."""
    gc.disable()
    for sig in (*STOPS, signal.SIGUSR1, signal.SIGUSR2):
        with contextlib.suppress(OSError, ValueError):
            signal.signal(sig, signal.SIG_DFL)
    _block(STOPS, how=UNBLOCK)  # a stop that came since the fork ends the child here
    with contextlib.suppress(OSError, AttributeError):
        if os.sched_getscheduler(0) != os.SCHED_OTHER:
            os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    with contextlib.suppress(OSError):
        os.nice(max(0, CHILD_NICE - os.nice(0)))
    with contextlib.suppress(OSError):  # short of memory (a Pi has 1 GB), the kernel ends the child, not the game
        fd = os.open("/proc/self/oom_score_adj", os.O_WRONLY)
        try:
            os.write(fd, b"%d" % OOM_SCORE_ADJ)
        finally:
            os.close(fd)
    if before_encoding is not None:
        before_encoding()
    os.closerange(0, keep_fd)
    os.closerange(keep_fd + 1, max(keep_fd + 2, os.sysconf("SC_OPEN_MAX")))


def _block(signals: Iterable[int], how: int = BLOCK) -> set[int]:
    """The calling thread's signal mask changed (``pthread_sigmask``), the one before returned
    (empty, and nothing changed, where there is no ``pthread_sigmask``)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        return set(signal.pthread_sigmask(how, signals))
    return set()


def trim_heap() -> None:
    """Hand the C allocator's free pages back to the system (glibc's
    ``malloc_trim``; nothing where there is none). A checkpoint's encoding
    holds ~4 MiB of temporaries for a moment (its node table, the line); the
    allocator kept the pages they freed, and each checkpoint of a longer game
    reached a little higher: the deciding process's resident memory grew in
    steps at its checkpoints while its Python objects stayed flat. Called
    after each checkpoint, off the deciding thread when the line came from a
    child (then only the line itself passed through this process)."""
    try:
        libc = ctypes.CDLL(None)
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return
    trim(0)
