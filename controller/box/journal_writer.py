"""Writing a journal: one writer per file, off the loop thread, never fatal.

Why a thread: an fsync costs 1-15 ms on an SD card, and a decision step must
not wait for a disk. ``write`` only encodes the line (a few µs) and queues it;
the writer thread appends everything queued, then fsyncs once for the batch.

The promise (docs/journal.md): a record handed to ``write`` is in the file
(the OS has it, so it survives the process being killed) and fsynced (it
survives a power cut) within ``PROMISE_MS`` of the call, unless the storage
itself stalls longer, which is logged; ``close`` returns only after the end
record is fsynced. A full or failing disk does not stop the game: records wait
in memory, the writer retries, ``healthy``/``problem`` say so for the screen
and the log, and they are written in order when space returns. Records still
unwritten when the process closes the writer are printed to the log (journald),
the second place they are kept.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import fcntl
import logging
import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Protocol

from controller.box.journal_format import (
    CHAIN_START,
    FORMAT_VERSION,
    Journal,
    JournalError,
    Record,
    SessionHeader,
    encode_line,
    encode_v1_line,
    header_to_json,
    parse_bytes,
    parse_header,
    record_to_json,
    unsaved_path,
)
from games.files import fsync_dir
from games.i18n import _, ngettext

log = logging.getLogger("buzzerbox.journal")

PROMISE_MS = 50
RETRY_FIRST_S = 0.2
RETRY_MAX_S = 2.0
CLOSE_GRACE_S = 3.0
#: room kept on the journal's disk for its close (``<journal>.reserve``): a card that fills up while the
#: game runs has this much to free at the close, so the records it refused can still go beside the journal
#: (``.unsaved``, which ``journal check`` names) rather than only to the log (about 7,000 records)
RESERVE_BYTES = 1 << 20
#: a reserved line still being made at ``close`` gets this long, then is cancelled (its ``finish``'s
#: ``cancel``): the records behind it follow at once (a stuck checkpoint's child held a stop 120 s,
#: past systemd's stop timeout, whose kill then lost them)
CLOSE_LATER_S = CLOSE_GRACE_S
LATE_LOG_EVERY_S = 10.0
#: a journal's lock found taken is tried this many times, this far apart, before it is taken for another
#: writer's: a sweep of stale reserves (``drop_stale_reserve``) holds it for one unlink
LOCK_TRIES, LOCK_RETRY_S = 3, 0.02


class JournalLocked(JournalError):
    """Another process (or writer) holds the journal's lock."""

    def __init__(self, path: Path, pid: int | None) -> None:
        line = (_("{path} is being written by another buzzerbox (pid {pid}): stop that game first, "
                  "or resume a copy of the file") if pid else
                _("{path} is being written by another process: stop that game first, or resume a copy of the file"))
        super().__init__(line.format(path=path, pid=pid))
        self.pid = pid


class Sink(Protocol):
    """Where the bytes go: a file descriptor, or a fault-injecting fake in tests."""

    def write(self, data: bytes) -> int: ...
    def sync(self) -> None: ...
    def close(self) -> None: ...


class FileSink:
    """An O_APPEND file descriptor holding an exclusive flock for its lifetime."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
        for attempt in range(LOCK_TRIES):
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if attempt + 1 < LOCK_TRIES:
                    lock_retry_wait()
        pid = lock_holder(self.fd)
        os.close(self.fd)
        raise JournalLocked(path, pid)

    def write(self, data: bytes) -> int:
        return os.write(self.fd, data)

    def sync(self) -> None:
        os.fsync(self.fd)

    def truncate(self, size: int) -> None:
        os.ftruncate(self.fd, size)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # releases the lock
            self.fd = -1


def lock_retry_wait() -> None:
    """The wait between two tries of a journal's lock (``LOCK_TRIES``)."""
    time.sleep(LOCK_RETRY_S)


def steady_lock_holder(fd: int) -> int | None:
    """The pid holding a flock on the file behind ``fd`` on each of ``LOCK_TRIES`` looks (None: free at
    one of them): a sweep of stale reserves holds a journal's lock for one unlink, not a game."""
    for attempt in range(LOCK_TRIES):
        holder = lock_holder(fd)
        if holder is None:
            return None
        if attempt + 1 < LOCK_TRIES:
            lock_retry_wait()
    return holder


def lock_holder(fd: int) -> int | None:
    """The pid holding a flock on the file behind ``fd``, from /proc/locks (Linux)."""
    st = os.fstat(fd)
    try:
        with open("/proc/locks", encoding="ascii", errors="replace") as f:
            for line in f:
                parts = line.split()
                if len(parts) > 5 and parts[1] == "FLOCK" and parts[5].rsplit(":", 1)[-1] == str(st.st_ino):
                    pid = int(parts[4])
                    return pid if pid > 0 else None
    except (OSError, ValueError):
        pass
    return None


_open_writers: weakref.WeakSet[JournalWriter] = weakref.WeakSet()


@atexit.register
def _close_open_writers() -> None:
    """An exception on the way out still gets the queued records to disk."""
    for writer in list(_open_writers):
        writer.close()


class JournalWriter:
    """Appends records to one journal. ``JournalWriter(path)`` continues an
    existing journal (kept for callers that repaired it first);
    ``create`` starts one and ``journal.resume`` is the safe way to continue."""

    def __init__(
        self,
        path: str | Path,
        fsync: bool = True,
        *,
        threaded: bool | None = None,
        sink: Sink | None = None,
        state: Journal | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self.threaded = fsync if threaded is None else threaded
        self._sink: Sink = sink if sink is not None else FileSink(self.path)
        #: the room kept for the close on a real file's disk (None: a sink of a test's, or none could be kept)
        self.reserve: Path | None = None
        self._clock = clock
        self.version = FORMAT_VERSION
        self._seq = 1
        self._previous = CHAIN_START
        if state is None and sink is None and self.path.stat().st_size > 0:
            state = parse_bytes(self.path.read_bytes(), self.path)
            if state.damage or state.torn_tail or state.missing_newline:
                self._sink.close()
                raise JournalError(_("{path}: will not append to it as it is: {problem}; resume repairs a torn end")
                                   .format(path=self.path,
                                           problem=state.damage or _("its last line is incomplete")))
        if state is not None:
            self.version, self._seq, self._previous = state.version, state.next_seq, state.last_sum
        self._lock = threading.Lock()
        self._chain_lock = threading.Lock()  # seq and previous sum: taken only by write()
        self._to_write = threading.Condition(self._lock)  # the writer thread waits here
        self._to_sync = threading.Condition(self._lock)  # the fsync thread waits here
        self._progress = threading.Condition(self._lock)  # flush() waits here
        self._pending: deque[tuple[bytes, float]] = deque()  # encoded lines not yet written, and when queued
        self._partial = 0  # bytes of the first pending line already written (a short write)
        self._unsynced: deque[float] = deque()  # when each line written but not yet fsynced was queued
        self.records_queued = 0
        self.records_written = 0  # in the file: the OS has them, they survive the process being killed
        self.records_synced = 0  # fsynced: they survive a power cut
        self.max_lag_ms = 0.0  # longest wait from write() to its fsync
        self.late_syncs = 0  # fsyncs that came later than the promise
        self.unsaved = 0  # records the disk still refused at close: not in the journal
        self.unsaved_path: Path | None = None  # the second file that holds them, if one could
        self._write_error: str | None = None
        self._sync_error: str | None = None
        #: the errno of the newest failure (what kind of trouble: ``trouble``)
        self._errno: int | None = None
        self._failing_since: float | None = None
        self._late_logged_at = -LATE_LOG_EVERY_S
        self._closing = False
        self._writer_done = False
        self._closed = False
        #: a record whose line is still being made (``write_later``): the records after it wait here
        self._later: _Later | None = None
        self._then: Callable[[], None] | None = None  # after the next write (``write_later``'s ``then``)
        #: the longest a record waited in memory for a checkpoint's line before it (ms)
        self.max_held_ms = 0.0
        self._threads: list[threading.Thread] = []
        if self.threaded:
            # two threads, so a slow fsync never holds back handing the next records to the OS
            self._threads.append(threading.Thread(target=self._run, name=f"journal {self.path.name}", daemon=True))
            if self.fsync:
                self._threads.append(threading.Thread(target=self._sync_loop, name=f"fsync {self.path.name}",
                                                      daemon=True))
            for thread in self._threads:
                thread.start()
        if isinstance(self._sink, FileSink):  # a real file on a disk (a test's sink keeps nothing)
            self.reserve = _keep_room(self.path)
        _open_writers.add(self)

    # -- starting a journal ------------------------------------------------------------
    @classmethod
    def check_new(cls, path: str | Path) -> None:
        """A new journal could be started at ``path`` (a JournalError says why
        not): said before a game is handed to the process that will write it."""
        p = Path(path)
        refuse_taken(p)
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise JournalError(_("cannot create the journal {path}: {problem}").format(
                path=p, problem=exc.strerror or exc)) from None
        if not os.access(p.parent, os.W_OK):
            raise JournalError(_("cannot create the journal {path}: {problem}").format(
                path=p, problem=os.strerror(errno.EACCES)))

    @classmethod
    def create(cls, path: str | Path, header: SessionHeader | Mapping[str, Any], fsync: bool = True,
               *, threaded: bool | None = None, sink: Sink | None = None) -> JournalWriter:
        """Start a journal: the header is written (and fsynced, with the
        directory entry, when fsync is on) before this returns."""
        p = Path(path)
        if sink is None:
            refuse_taken(p)
        data = header_to_json(header) if isinstance(header, SessionHeader) else \
            {**header, "type": "session", "version": FORMAT_VERSION}
        try:
            parse_header(data)  # a header this box could not read back: fail now, not at replay
        except JournalError as exc:
            raise JournalError(_("cannot start the journal {path}: its header would not read back ({problem})").format(
                path=p, problem=exc)) from None
        try:
            if sink is None:
                p.parent.mkdir(parents=True, exist_ok=True)
                sweep_reserves(p.parent)  # before its own reserve: on a full card the stale ones' room is its
            writer = cls(p, fsync, threaded=threaded, state=_fresh(), sink=sink)
        except OSError as exc:
            raise JournalError(_("cannot create the journal {path}: {problem}").format(
                path=p, problem=exc.strerror or exc)) from None
        writer._seq = 0
        writer.write(data)
        if not writer.flush(timeout=2.0):  # the header is on disk before the first press
            log.error("journal %s: the header is not on disk yet (%s); the game goes on", p, writer.problem)
        if fsync and sink is None:
            fsync_dir(p)
        return writer

    # -- the caller's side (the loop thread): no disk wait ---------------------------------
    def write(self, record: Record | Mapping[str, Any]) -> None:
        """Queue one record; returns in microseconds whatever the disk does."""
        data = record_to_json(record)
        with self._chain_lock:  # callers on two threads still make one unbroken chain
            later = self._later
            if later is not None:  # it cannot be encoded before the line it chains on
                with self._lock:
                    if self._closed:
                        raise JournalError(f"{self.path}: the journal is closed; nothing more can be written to it")
                    later.held.append((data, self._clock()))
                    self.records_queued += 1
                self._seq += 1
                return
            if self.version >= 2:
                line, self._previous = encode_line(data, self._seq, self._previous)
            else:
                line = encode_v1_line(data)
            self._seq += 1
            self._queue(line)
        if not self.threaded:
            self._drain(sync=self.fsync and data.get("type") in SYNCED_TYPES)

    def write_later(self, start: Callable[[int, str], Callable[[], tuple[bytes, str] | None]],
                    then: Callable[[], None] | None = None) -> int | None:
        """Reserve the next place for a record whose line takes long to make (a
        checkpoint): ``start(seq, previous)`` runs now on the caller's thread,
        with no record between (the snapshot), and returns ``finish``, which
        makes the line and its sum (None: the record is dropped, the records
        after it close the gap). ``finish`` runs on a thread of the writer's
        (inline without threads), and ``then`` once the line is written; a ``finish`` with a
        ``cancel`` is cancelled by a ``close`` it holds up past ``CLOSE_LATER_S``. Records written meanwhile wait
        in memory and follow the line in their order, so the file's order is
        the order of the calls. The reserved sequence number, or None when one
        is still being made (or the journal is format 1)."""
        with self._chain_lock:
            if self._later is not None or self.version < 2:
                return None
            seq, previous = self._seq, self._previous
            finish = start(seq, previous)  # raises: nothing reserved
            later = self._later = _Later(seq, previous, finish, then, self._clock())
            self._seq += 1
            with self._lock:
                self.records_queued += 1
        if self.threaded:  # the writer thread makes it, once the lines before it are written
            with self._lock:
                self._to_write.notify()
        else:
            self._finish_later(later)
        return seq

    def _finish_later(self, later: _Later) -> None:
        """Make the reserved line, put it and the records held behind it in their places."""
        made: tuple[bytes, str] | None = None
        try:
            made = later.finish()
        except Exception:  # the records behind it are written all the same
            log.exception("journal %s: the line reserved at seq %d could not be made; left out", self.path, later.seq)
        now = self._clock()
        with self._chain_lock:
            seq, previous = later.seq, later.previous
            if made is not None:
                line, previous = made
                self._queue(line, later.at, count=False, closed_too=True)
                seq += 1
            else:
                self._seq -= 1
                with self._lock:
                    self.records_queued -= 1
            for data, queued in later.held:  # waited from ``queued``: the promise counts from now
                self.max_held_ms = max(self.max_held_ms, (now - queued) * 1000)
                line, previous = encode_line(data, seq, previous)
                seq += 1
                self._queue(line, now, count=False, closed_too=True)
            self._previous = previous
            self._later = None
        later.done.set()
        if self.threaded:
            self._then = later.then  # the writer thread calls it once the line is written (and freed)
        else:
            self._drain(sync=self.fsync)
            if then := later.then:
                then()

    @property
    def next_seq(self) -> int:
        """The sequence number the next record gets (``Box.checkpoint_if_due`` counts by it)."""
        return self._seq

    def _queue(self, line: bytes, queued: float | None = None, count: bool = True, closed_too: bool = False) -> None:
        with self._lock:
            if self._closed and not closed_too:
                raise JournalError(f"{self.path}: the journal is closed; nothing more can be written to it")
            self._pending.append((line, self._clock() if queued is None else queued))
            self.records_queued += count
            if self.threaded:
                self._to_write.notify()

    @property
    def healthy(self) -> bool:
        """False while the disk refuses records (they wait in memory) or fsyncs."""
        return self.problem is None

    @property
    def problem(self) -> str | None:
        """What the screen and the log should say while the journal is failing."""
        if self._write_error is not None:
            return (f"journal cannot write to {self.path}: {self._write_error}; "
                    f"{self.waiting} records kept in memory, retrying")
        if self._sync_error is not None:
            return (f"journal cannot fsync {self.path}: {self._sync_error}; the records are in the file "
                    "but may not survive a power cut, retrying")
        return None

    @property
    def trouble(self) -> str | None:
        """The kind of problem, for a notice a person can act on (None: healthy):
        ``full``, ``read-only``, ``failing`` (an I/O error), ``unsynced`` (fsync fails)."""
        if self._write_error is None:
            return None if self._sync_error is None else "unsynced"
        return TROUBLES.get(self._errno or 0, "failing")

    @property
    def waiting(self) -> int:
        with self._lock:
            later = self._later
            return len(self._pending) + (0 if later is None else len(later.held) + 1)

    def flush(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued so far is written (and fsynced when
        fsync is on); False if the disk still refuses after ``timeout``."""
        target = self.records_queued
        if not self.threaded:
            self._drain(sync=self.fsync)
            return self.records_written >= target
        deadline = time.monotonic() + timeout
        with self._lock:
            self._to_write.notify()
            while (self.records_synced if self.fsync else self.records_written) < target:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._progress.wait(min(left, 0.05))
        return True

    def close(self) -> None:
        """Write (and fsync) everything queued, then release the file. Records
        the disk still refuses after a grace period go to the log. A line still
        being made (``write_later``) is waited for first: the records behind it follow it
        (a line not made by ``CLOSE_LATER_S`` is cancelled; one the writer thread does not
        come to within the grace, a disk that hangs, is made here)."""
        later = self._later
        if later is not None and self._threads and threading.current_thread() not in self._threads:
            with self._lock:
                self._to_write.notify()
            if not later.done.wait(CLOSE_LATER_S) and (cancel := getattr(later.finish, "cancel", None)) is not None:
                log.warning("journal %s: the line reserved at seq %d is not made yet: closing without it",
                            self.path, later.seq)
                cancel()
            if not later.done.wait(CLOSE_GRACE_S + 2 * RETRY_MAX_S) and self._take(later):
                # the writer thread has not come to it (a disk that hangs, a thread gone): its line's
                # records are queued here, and what the disk does not take is kept aside below
                self._finish_later(later)
            later.done.wait()  # the writer thread makes it: bounded (cancelled above, or its own time limit)
        with self._lock:
            if self._closed:
                return
            self._closing = True
            self._to_write.notify()
        if self._threads:
            for thread in self._threads:
                thread.join(CLOSE_GRACE_S + 2 * RETRY_MAX_S)
        else:
            deadline = time.monotonic() + CLOSE_GRACE_S
            while not self._drain(sync=self.fsync) and time.monotonic() < deadline:
                time.sleep(RETRY_FIRST_S)
        with self._lock:
            self._closed = True
            lost = [line for line, _ in self._pending]
        self.unsaved = len(lost)
        self._free_room()  # before the aside file is written: on a full card, its room is what that file gets
        if lost:
            log.error("journal %s: the disk refused the last %d records (%s)", self.path, len(lost), self.problem)
            self.unsaved_path, kept = _keep_aside(self.path, lost)
            if kept < len(lost):
                log.error("journal %s: no file could take the last %d of them; they follow here so nothing "
                          "is lost:", self.path, len(lost) - kept)
                for line in lost[kept:]:
                    log.error("journal %s unsaved: %s", self.path, line.decode("ascii").rstrip("\n"))
        self._sink.close()
        _open_writers.discard(self)

    def _free_room(self) -> None:
        if self.reserve is not None:
            self.reserve.unlink(missing_ok=True)
            self.reserve = None

    @property
    def closed(self) -> bool:
        return self._closed

    # -- the writer's side -------------------------------------------------------------------
    def _run(self) -> None:
        """The writer thread: hands every queued line to the OS at once."""
        backoff = RETRY_FIRST_S
        close_deadline: float | None = None
        try:
            while True:
                with self._lock:
                    while not self._pending and not self._closing and not self._later_to_make():
                        self._to_write.wait()
                    closing = self._closing
                ok = self._write_pending()  # the lines before a reserved one first
                if ok and (then := self._then) is not None:
                    self._then = None
                    then()
                with self._lock:
                    self._to_sync.notify()
                    self._progress.notify_all()
                later = self._later
                if later is not None and self._take(later):
                    self._finish_later(later)  # its line and the records held behind it: pending now
                    continue
                with self._lock:
                    if ok:
                        backoff = RETRY_FIRST_S
                        if closing and not self._pending and self._later is None:
                            return
                        continue
                    if closing:
                        close_deadline = close_deadline or time.monotonic() + CLOSE_GRACE_S
                        if time.monotonic() >= close_deadline:
                            return
                    self._to_write.wait(backoff)
                    backoff = min(backoff * 2, RETRY_MAX_S)
        finally:
            with self._lock:
                self._writer_done = True
                self._to_sync.notify()

    def _take(self, later: _Later) -> bool:
        """True for the one thread that makes ``later``'s line (the writer's, or a close it left waiting)."""
        with self._lock:
            if later.taken:
                return False
            later.taken = True
            return True

    def _later_to_make(self) -> bool:
        later = self._later
        return later is not None and not later.taken

    def _sync_loop(self) -> None:
        """The fsync thread: one fsync for everything written since the last."""
        backoff = RETRY_FIRST_S
        close_deadline: float | None = None
        while True:
            with self._lock:
                while self.records_synced == self.records_written and not self._writer_done:
                    self._to_sync.wait()
                if self.records_synced == self.records_written:
                    return  # the writer is done and everything it wrote is synced
                target, closing = self.records_written, self._writer_done
            if self._sync(target):
                backoff = RETRY_FIRST_S
                continue
            if closing:
                close_deadline = close_deadline or time.monotonic() + CLOSE_GRACE_S
                if time.monotonic() >= close_deadline:
                    return
            time.sleep(backoff)
            backoff = min(backoff * 2, RETRY_MAX_S)

    def _drain(self, sync: bool) -> bool:
        """Inline writing (no thread): write every pending line, then fsync once."""
        ok = self._write_pending()
        if ok and sync and self.records_synced < self.records_written:
            ok = self._sync(self.records_written)
        return ok

    def _write_pending(self) -> bool:
        """Write every pending line (finishing short writes). True when all went."""
        with self._lock:
            batch = list(self._pending)
        written = 0
        try:
            for line, _queued in batch:
                while self._partial < len(line):
                    n = self._sink.write(line[self._partial:])
                    if n <= 0:
                        raise OSError(errno.EIO, "the disk accepted no bytes")
                    self._partial += n
                self._partial = 0
                written += 1
        except OSError as exc:
            self._written(batch[:written])
            self._write_error, self._errno = exc.strerror or str(exc), exc.errno
            self._failing()
            return False
        self._written(batch)
        if self._write_error is not None:
            self._write_error = None
            self._recovered()
        return True

    def _written(self, lines: list[tuple[bytes, float]]) -> None:
        with self._lock:
            for _line, queued in lines:
                self._pending.popleft()
                self._unsynced.append(queued)
            self.records_written += len(lines)
            if not self.fsync:
                self._unsynced.clear()

    def _sync(self, target: int) -> bool:
        """fsync, and count the lines written up to ``target`` as safe."""
        try:
            self._sink.sync()
        except OSError as exc:
            self._sync_error, self._errno = exc.strerror or str(exc), exc.errno
            self._failing()
            return False
        now = self._clock()
        with self._lock:
            first = None
            for _ in range(target - self.records_synced):
                queued = self._unsynced.popleft()
                first = queued if first is None else first
            self.records_synced = target
            self._progress.notify_all()
        if self._sync_error is not None:
            self._sync_error = None
            self._recovered()
        if first is not None:
            lag = (now - first) * 1000
            self.max_lag_ms = max(self.max_lag_ms, lag)
            if lag > PROMISE_MS:
                self.late_syncs += 1
                if now - self._late_logged_at >= LATE_LOG_EVERY_S:  # said, not spammed, on a slow card
                    self._late_logged_at = now
                    log.warning("journal %s: a record took %.0f ms to be fsynced (promise: %d ms; %d late so far): "
                                "the storage is slow", self.path, lag, PROMISE_MS, self.late_syncs)
        return True

    def _failing(self) -> None:
        if self._failing_since is None:
            self._failing_since = self._clock()
            log.error("%s", self.problem)

    def _recovered(self) -> None:
        if self.problem is None and self._failing_since is not None:
            down = self._clock() - self._failing_since
            self._failing_since = None
            log.warning("journal %s writing again after %.1f s: every waiting record is now written", self.path, down)


#: what an OS error says about the journal's disk (``JournalWriter.trouble``)
TROUBLES = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EFBIG: "full",
            errno.EROFS: "read-only", errno.EACCES: "read-only", errno.EPERM: "read-only"}

SYNCED_TYPES = {"session", "press", "host", "action", "end"}


def refuse_taken(p: Path) -> None:
    """A folder, or a file that holds a session already, is no new journal."""
    if p.is_dir():  # (--journal given a folder: --journal-dir is the one for folders)
        raise JournalError(_("{path} is a folder: give a journal file's name, e.g. {path}/night.jsonl").format(path=p))
    if p.exists() and p.stat().st_size > 0:
        raise JournalError(_("{path} already holds a session: continue it ('resume' or 'play --resume') or choose "
                             "a new file").format(path=p))


def unsaved_line(unsaved: int, kept: str | Path | None) -> str:
    """The one line a person reads when a game closed with records its disk
    refused (``JournalWriter.unsaved``): how many, and where they are."""
    if kept is not None:
        return ngettext("the disk refused the game's last {n} record: it waits in {file} "
                        "(free some space; a resume writes it back)",
                        "the disk refused the game's last {n} records: they wait in {file} "
                        "(free some space; a resume writes them back)", unsaved).format(n=unsaved, file=kept)
    return ngettext("the disk refused the game's last {n} record and no file could take it: "
                    "it is only in the log (free some space)",
                    "the disk refused the game's last {n} records and no file could take them: "
                    "they are only in the log (free some space)", unsaved).format(n=unsaved)


def _keep_aside(path: Path, lines: list[bytes]) -> tuple[Path | None, int]:
    """The records the journal's disk refused at close, in the second file
    (another disk may hold it: a symlink), whole lines as many as it takes,
    in order: the file (None when it took none) and how many it holds. Written
    unbuffered, so a line the disk took only in part is cut off again: the
    file ends on a whole record, and a resume writes it back."""
    aside = unsaved_path(path)
    kept = 0
    try:
        fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError as exc:
        log.error("journal %s: cannot keep the unsaved records in %s: %s", path, aside, exc.strerror or exc)
        return None, 0
    try:
        end = os.lseek(fd, 0, os.SEEK_END)
        try:
            for line in lines:
                rest = memoryview(line)
                while rest:
                    rest = rest[os.write(fd, rest):]
                kept += 1
                end += len(line)
        except OSError as exc:
            log.error("journal %s: cannot keep the last %d unsaved records in %s: %s", path, len(lines) - kept,
                      aside, exc.strerror or exc)
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)  # the part of a line it took: the file ends on a whole record
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
    if not kept:
        return None, 0
    log.error("journal %s: %d unsaved records are in %s, in order; 'buzzerbox journal check %s' says more",
              path, kept, aside, path)
    return aside, kept


def _keep_room(path: Path) -> Path | None:
    """Room on the journal's disk kept for its close (``RESERVE_BYTES``), freed
    as the journal closes: None where the disk has not that much or cannot
    promise it (the journal works without)."""
    room = reserve_path(path)
    try:
        fd = os.open(room, os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            os.posix_fallocate(fd, 0, RESERVE_BYTES)
        finally:
            os.close(fd)
    except OSError as exc:
        log.warning("journal %s: cannot keep %d KiB free for its close (%s): a full card at the close would "
                    "leave its last records only in the log", path, RESERVE_BYTES >> 10, exc.strerror or exc)
        room.unlink(missing_ok=True)
        return None
    return room


def reserve_path(path: Path) -> Path:
    """The file that keeps room for the journal's close while it is written."""
    return path.with_name(path.name + ".reserve")


def drop_stale_reserve(journal: Path) -> Path | None:
    """Remove ``journal``'s ``.reserve`` when no writer holds the journal: its writer was killed
    before its close (-9, a power cut) and the journal was never resumed, so nothing frees that
    room. A live writer, in this process or another, holds the journal's lock from before it
    made its reserve until after it freed it: the lock is taken here for the unlink (a writer
    opening the journal meanwhile tries again: ``LOCK_TRIES``). The file removed, or None."""
    room = reserve_path(journal)
    if not room.exists():
        return None
    try:
        fd: int | None = os.open(journal, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        fd = None  # the journal is gone: nothing writes it
    except OSError:
        return None
    try:
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return None  # a writer holds it: its room
        try:
            room.unlink()
        except FileNotFoundError:
            return None
        except OSError as exc:
            log.warning("journal %s: cannot remove its stale %s: %s", journal, room.name, exc.strerror or exc)
            return None
    finally:
        if fd is not None:
            os.close(fd)  # releases the lock
    log.info("journal %s: removed %s, the room for a close that never came (its writer was stopped before it)",
             journal, room.name)
    return room


def sweep_reserves(folder: Path) -> list[Path]:
    """Every stale ``.reserve`` in ``folder`` removed (``drop_stale_reserve``), said when a new
    journal starts there: a box killed mid-game and never resumed left 1 MiB each."""
    try:
        rooms = sorted(folder.glob("*.reserve"))
    except OSError:
        return []
    removed = [drop_stale_reserve(room.with_name(room.name[:-len(".reserve")])) for room in rooms]
    return [room for room in removed if room is not None]


class _Later:
    """A reserved place (``write_later``): its sequence number and the sum it
    chains on, what makes its line, and the records written since, unencoded."""

    def __init__(self, seq: int, previous: str, finish: Callable[[], tuple[bytes, str] | None],
                 then: Callable[[], None] | None, at: float) -> None:
        self.seq, self.previous, self.finish, self.then, self.at = seq, previous, finish, then, at
        self.held: list[tuple[dict[str, Any], float]] = []
        self.taken = False  # the writer thread is making it
        self.done = threading.Event()  # its line (or none) and the records held are queued


def _fresh() -> Journal:
    return Journal(header={}, records=[])
