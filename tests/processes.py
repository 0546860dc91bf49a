"""Child processes in tests: wait for the line that says a child is ready
(never for a timer), then act on it; and afterwards kill everything a child
started, whatever it said (``running``)."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

#: how long any wait in the tests may last before it is called a hang: far beyond
#: any step on the busiest machine (CI: 2 cores, a CPU hog on each, Chromium and
#: the box's processes beside), never a measure of speed. Every wait ends as soon
#: as what it waits for comes, so a generous bound costs a passing test nothing.
HANG_S = 180.0


def wait_for_line(proc: subprocess.Popen[str], text: str, stream: str = "stderr", give_up_s: float = HANG_S) -> str:
    """Read ``proc``'s ``stream`` until a line containing ``text`` came; return
    everything read so far. Fails (naming what it read) if the child ends
    first, or if it has not said it within ``give_up_s`` (a hung child, not a
    slow one: far beyond any start-up)."""
    fd = getattr(proc, stream).fileno()
    seen = b""
    give_up = time.monotonic() + give_up_s
    try:
        while text.encode() not in seen or b"\n" not in seen[seen.index(text.encode()):]:  # the whole line
            left = give_up - time.monotonic()
            assert left > 0, f"the child never said {text!r}; it said: {seen.decode(errors='replace')}"
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            assert chunk, f"the child ended (status {proc.poll()}) before saying {text!r}: {seen.decode(errors='replace')}"
            seen += chunk
    except BaseException:
        finish(proc, timeout=0)
        raise
    return seen.decode(errors="replace")


def finish(proc: subprocess.Popen[str], timeout: float = HANG_S) -> tuple[str, str]:
    """The rest of the child's output once it ends; killed (and waited for) if it does not, with
    every process it started if it leads a session of its own (``kill_group``)."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        return "", ""
    finally:
        kill_group(proc)


def connect_when_listening(path: str, give_up_s: float = HANG_S) -> socket.socket:
    """A Unix stream socket connected to ``path`` as soon as a server listens
    there: a child's ready line may come before it binds, and a killed one
    leaves its socket file behind (refused until the new one listens). Fails
    only if nothing listens within ``give_up_s`` (a hung child)."""
    give_up = time.monotonic() + give_up_s
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            sock.close()
            assert time.monotonic() < give_up, f"nothing listens on {path}: {exc}"
        time.sleep(0.005)  # polling for the listener, not pacing the test


class Lines:
    """A process's stderr, read on a thread: ``wait_for`` a line as it arrives."""

    def __init__(self, stream: IO[str] | None) -> None:
        assert stream is not None, "started without stderr=PIPE"
        self.lines: list[str] = []
        self._new = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            with self._new:
                self.lines.append(line.rstrip("\n"))
                self._new.notify_all()

    def join(self) -> None:
        """Every line, once every process holding the pipe has closed it (all of them gone: ``kill_group``)."""
        self._thread.join(HANG_S)
        assert not self._thread.is_alive(), "a process still holds the stderr pipe:\n" + "\n".join(self.lines)

    def wait_for(self, test: Callable[[str], bool], after: int = 0) -> tuple[int, str]:
        with self._new:
            ok = self._new.wait_for(lambda: any(test(x) for x in self.lines[after:]), HANG_S)
            assert ok, "\n".join(self.lines)
            i = next(i for i in range(after, len(self.lines)) if test(self.lines[i]))
            return i, self.lines[i]


def kill_group(proc: subprocess.Popen[Any]) -> None:
    """``proc``, started with ``start_new_session``, and every process it started at any depth
    (deciding processes, new screens, their servers) killed and ``proc`` waited for: its session's
    process group holds them all. Never found by their lines: a line may be translated (a Czech
    box's deciding process says its start line in Czech; a CI run left it running and its stderr
    reader with it)."""
    with contextlib.suppress(ProcessLookupError):  # the group outlives its leader while a member lives
        os.killpg(proc.pid, signal.SIGKILL)  # none by that id if it leads none: no other's pid is a group's
    if proc.poll() is None:  # started without a session of its own: only it
        proc.kill()
    proc.wait()


#: set in the environment of each child ``running`` starts, a new value each: every process it starts
#: inherits it at any depth, in a session of its own too
RUNNING_MARK = "BUZZERBOX_TEST_CHILD"


def _carries(pid: int, wanted: bytes) -> bool:
    try:
        return wanted in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")  # a zombie's is empty
    except OSError:  # gone, or not ours to read
        return False


def kill_marked(mark: str) -> None:
    """SIGKILL to every process of ours still running whose environment carries ``RUNNING_MARK=mark``,
    each through a pidfd taken before its environment is read again (never another's that took a
    reaped one's id); waited for until each has ended or is a zombie (its parent's to reap)."""
    wanted = f"{RUNNING_MARK}={mark}".encode()
    fds: list[int] = []
    try:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid() or not _carries(int(entry.name), wanted):
                continue
            with contextlib.suppress(OSError):  # gone meanwhile
                fd = os.pidfd_open(int(entry.name))
                if _carries(int(entry.name), wanted):  # still that process: the pidfd holds it
                    fds.append(fd)
                    signal.pidfd_send_signal(fd, signal.SIGKILL)
                else:
                    os.close(fd)
        for fd in fds:  # readable once the process ended
            select.select([fd], [], [], HANG_S)
    finally:
        for fd in fds:
            os.close(fd)


@contextlib.contextmanager
def running(argv: Sequence[str], env: Mapping[str, str], cwd: Path, stdout: int | None = subprocess.DEVNULL,
            pass_fds: Sequence[int] = ()) -> Iterator[tuple[subprocess.Popen[str], Lines]]:
    """``argv`` in a session of its own and its stderr's ``Lines``; afterwards it and every process
    it started are killed (``kill_group``; those in a session of their own, or orphaned by a killed
    parent, found by a mark in their environment: ``kill_marked``) and the reader joined: nothing
    outlives the test. (A phones' server left alone would hold the stderr pipe until it gave up on
    its deciding process, ``peer.PEER_WAIT_S`` later.)"""
    mark = f"{os.getpid()}-{time.monotonic_ns()}"
    proc = subprocess.Popen(list(argv), stdout=stdout, stderr=subprocess.PIPE, text=True,
                            env={**env, RUNNING_MARK: mark}, cwd=cwd, pass_fds=pass_fds, start_new_session=True)
    err = Lines(proc.stderr)
    try:
        yield proc, err
    finally:
        kill_group(proc)
        kill_marked(mark)
        err.join()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


#: the files and folders this process may not write while ``written_elsewhere`` holds, and each try
_FORBIDDEN: list[Path] = []
_TRIED: list[str] = []
#: the audit events that write a path (open's only with a writing mode), and which arguments are paths
_WRITES = {"os.mkdir": (0,), "os.link": (0, 1), "os.rename": (0, 1), "os.remove": (0,), "os.rmdir": (0,),
           "os.symlink": (0, 1), "os.truncate": (0,), "os.chmod": (0,), "os.utime": (0,)}


def _writing(event: str, args: tuple[Any, ...]) -> list[Any]:
    if event == "open":
        path, mode, flags = args
        writes = any(c in mode for c in "wax+") if isinstance(mode, str) else \
            isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
        return [path] if writes else []
    return [args[i] for i in _WRITES.get(event, ())]


def _refuse_writes(event: str, args: tuple[Any, ...]) -> None:
    if not _FORBIDDEN or (event != "open" and event not in _WRITES):
        return
    for path in _writing(event, args):
        if isinstance(path, str | bytes | os.PathLike):
            where = Path(os.path.abspath(os.fsdecode(path)))
            if any(where == f or f in where.parents for f in _FORBIDDEN):
                _TRIED.append(f"{event} {where}")
                raise PermissionError(13, "the deciding process owns this; this process may not write it", str(where))


@contextlib.contextmanager
def written_elsewhere(*paths: Path) -> Iterator[list[str]]:
    """This process (the screen's: ``play``'s, the menu's) may not write
    ``paths`` (a file, or a folder and all in it) meanwhile: each try fails
    as on a read-only card and is listed in what this yields, so a test
    shows that another process (the deciding one) wrote what landed there.
    (An audit hook stays once added: it does nothing outside this.)"""
    if not getattr(_refuse_writes, "added", False):
        sys.addaudithook(_refuse_writes)
        _refuse_writes.added = True  # type: ignore[attr-defined]
    _TRIED.clear()
    _FORBIDDEN[:] = [Path(os.path.abspath(p)) for p in paths]
    try:
        yield _TRIED
    finally:
        _FORBIDDEN.clear()


@contextlib.contextmanager
def beside(work: Callable[[], None], cleanup: Callable[[], None] = lambda: None) -> Iterator[None]:
    """``work`` on a thread of its own while the body runs (``buzzerbox play`` in this
    process, say, with ``work`` playing through its viewer socket); joined after the
    body, and what it raised fails the test. ``cleanup`` runs as it fails (the
    processes the body waits for killed, so that the body ends too)."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 (the main thread fails the test with it)
            failed.append(exc)
            cleanup()

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield
    finally:
        thread.join(HANG_S)
    if failed:
        raise failed[0]
