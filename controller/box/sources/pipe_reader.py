"""An edge reader that can say how far it has delivered: the thread that
takes edges off the queue they wait in (on a Pi the kernel's GPIO line
request, ``linefd.py``; lgpio's notification pipe where that cannot be had;
the benchmarks' feed FIFO for mock pins) and hands each to the source's
callback. "The pipe" below is any of them.

It reads the pipe's bytes itself (a buffered file would hide reports read and
not yet delivered) and is *busy* from before a read until every whole report
read is delivered. So when the box asks (``delivered_until_us``) and finds it
not busy with nothing waiting in the pipe, every edge queued before the
question has been delivered: a reader starved of the interpreter holds the
box's decisions instead of being decided past.

While busy it still knows a bound, once the chunk it read is split into
whole reports (before that, and while part of a report is held, it says
nothing): it has read each report's stamp (``stamp_us``), and what it has
not read yet was not in the pipe when it read (the read drained it: a chunk
shorter than it asked for), so by ``capture_us`` it is stamped after that
moment less ``capture_us`` (the clock read before the read); a writer that
writes in the order of its stamps (``ordered``) queues nothing stamped
before what it queued already. So every edge stamped before the least of
the reports it has not handed over yet, and before that bound, is delivered,
and the box may decide a moment before them while the reader still hands
them over. The same bound of what is still unread holds when it is idle
with bytes waiting in the pipe (queued after its last read): so a reader
that has not had the interpreter for them yet holds only the decisions due
from that bound on. The source subtracts up to ``offset_us`` from a report's
stamp (a station's drop-jig offset): every answer is that much earlier.

While the deciding thread waits for a lamp it armed (``park``), the thread
does not wait on the pipe at all: an edge written meanwhile waits there for
the deciding thread's own read (its spin's looks, the moment's step), not
for this thread's turn at the interpreter, which it took in the middle of the
spin (at the switch interval) and made the lamp wait for.

The box does not wait for that thread when it need not (``take_waiting``):
the deciding thread reads what waits in the pipe itself and hands it over in
its own step, then answers from that same read. One lock is held for every
read and its deliveries (the thread's and the box's), so the reports reach the
source in the order they were read and the answer covers exactly what was
handed over; the box only tries it, and while the thread holds it (busy
handing a chunk over) the box is told the busy bound above.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path

from controller.box.timeline import box_now_us

log = logging.getLogger("buzzerbox")

#: the most bytes one read takes (a shorter read emptied the pipe)
READ_BYTES = 65536
#: stopped, it reads at most this many times more what is still in the pipe (a writer that keeps writing is cut off)
DRAIN_READS = 16
#: the box reads what waits at most this many times in a row (``take_waiting``): an edge written while it
#: read is taken too, and its answer is not the bound of a read already behind; a writer that keeps
#: writing is left to the reader thread
TAKE_READS = 4
#: ``stop`` waits at most this long for the thread to hand over what was in the pipe
STOP_WAIT_S = 2.0


class PipeReader(threading.Thread):
    """Reads reports from a pipe until its writer closes it (``EdgeReader``)."""

    #: an edge is in the pipe at most this long after its stamp was taken
    capture_us = 100
    #: its writer queues reports in the order of their stamps (one writer stamping as it writes)
    ordered = False
    #: the most bytes one read asks for: a read that returns fewer found the queue empty (a queue
    #: that hands over whole records only needs a multiple of their size: ``LineEventReader``)
    read_bytes = READ_BYTES

    def __init__(self, path: str | Path | None, name: str, clock: Callable[[], int] = box_now_us,
                 fd: int | None = None) -> None:
        """Reads the pipe at ``path``, or the queue already open as ``fd`` (the reader owns it
        from now on: made non-blocking, closed when the thread ends)."""
        super().__init__(name=name, daemon=True)
        #: the stamps' clock (box µs, as the box asks): read before each read of the pipe
        self.clock = clock
        #: the most the source subtracts from a report's stamp (``GpioSource.adopt``)
        self.offset_us = 0
        #: opened at once, without waiting for a writer: the box may ask before anything is
        #: queued, and a pipe no writer has opened has nothing waiting
        if fd is None:
            assert path is not None, "a pipe's path or an open fd"
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
        else:
            os.set_blocking(fd, False)
        self._fd: int | None = fd
        #: held for every read and the deliveries of what it read, by the thread or the box
        #: (``take_waiting``): one reader at a time, the reports handed over in the order read
        self._lock = threading.Lock()
        #: the part of a report read so far (its rest still in the pipe)
        self._partial = b""
        self._busy = False
        #: while busy: every edge stamped up to this (less ``offset_us``) is delivered (None: it cannot say)
        self._held_until_us: int | None = None
        #: what it has not read is stamped from this on (``_unread_from``; None: it cannot say)
        self._unread_from_us: int | None = None
        self._ended = False
        self._stopping = False
        #: ``stop`` writes a byte here: the thread's wait for the pipe ends at once
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)  # drained after each wake (``park``)
        os.set_blocking(self._wake_w, False)  # a wake never blocks its waker (a full pipe wakes it already)
        #: parked (``park``): the thread waits for ``_resume``, not for the pipe
        self._parked = False
        self._resume = threading.Event()
        self._resume.set()
        #: held to wake the thread and to close its wake-up pipe: a park never writes to a closed one
        self._waking = threading.Lock()
        #: set while the thread rests parked (a test waits for it)
        self.resting = threading.Event()
        #: called each time it has delivered all it read: the box asks again (``live.connect``)
        self.wake: Callable[[], None] | None = None

    @property
    def lag_us(self) -> int:
        """At best it answers this far behind now (``SourceMark.probe_lag_us``)."""
        return self.capture_us + self.offset_us

    @abstractmethod
    def split(self, data: bytes) -> tuple[list[bytes], bytes]:
        """Whole reports in ``data``, and the part of the next one read so far."""

    @abstractmethod
    def stamp_us(self, report: bytes) -> int | None:
        """The report's stamp (box µs, before the source's offset), read without
        delivering it; None for a report that carries no edge."""

    @abstractmethod
    def deliver(self, report: bytes, t_us: int | None) -> None:
        """One report to the source, with its stamp (``stamp_us``): it stamps nothing itself."""

    def finish(self, rest: bytes) -> None:
        """What was left unread when the writer closed (a last line without its newline)."""

    def delivered_until_us(self, now_us: int) -> int | None:
        """Every edge stamped up to the answer is delivered: ``now_us`` less
        ``lag_us`` if the reader holds none and the pipe has none waiting;
        while it hands a chunk over, before the least stamp it still holds;
        with bytes waiting, before what its last read left unread (the
        module's docstring). None while it cannot say (asked by the deciding
        thread: the order of the checks is what makes it true)."""
        if self._ended:
            return now_us  # the writer closed it: nothing more can come
        idle = now_us - self.lag_us
        fd = self._fd
        if fd is None:
            return None
        if self._busy:
            held = self._held_until_us  # a later chunk's bound, if it moved on meanwhile: as true
            return None if held is None else min(held, idle)
        unread = self._unread_from_us  # set before it was last idle: true while it is idle again below
        try:
            waiting = select.select([fd], [], [], 0)[0]
        except (OSError, ValueError):
            return None
        if self._busy:  # busy again: the reader took bytes between the two looks
            return None
        if waiting:  # not read yet: stamped from what the last read left on
            return None if unread is None else min(unread - 1 - self.offset_us, idle)
        return idle

    def _unread_from(self, stamps: list[int | None], read_at_us: int, drained: bool) -> int | None:
        """After a read whose reports carry these ``stamps``: what is still unread is stamped
        from this on (after ``read_at_us`` less ``capture_us`` if the read drained the pipe; not
        before the stamps read if the writer keeps their order); None: it cannot say."""
        bounds = [] if self._unread_from_us is None else [self._unread_from_us]  # true of less unread too
        if drained:
            bounds.append(read_at_us - self.capture_us)
        if self.ordered:
            bounds += [s for s in stamps if s is not None]
        return max(bounds, default=None)

    def _bounds(self, stamps: list[int | None], unread: int | None) -> list[int | None]:
        """What ``delivered_until_us`` says while each report (of these ``stamps``) is
        handed over: before the least stamp of it and those after it, and before what
        is still unread (``_unread_from``)."""
        if unread is None:
            return [None] * len(stamps)
        bounds: list[int | None] = [None] * len(stamps)
        least = unread
        for i in range(len(stamps) - 1, -1, -1):
            stamp = stamps[i]
            if stamp is not None:
                least = min(least, stamp)
            bounds[i] = least - 1 - self.offset_us
        return bounds

    def run(self) -> None:
        fd = self._fd
        assert fd is not None, "a pipe is read once"
        try:
            while not self._stopping:
                if self._parked:
                    self.resting.set()
                    self._resume.wait()
                    self.resting.clear()
                    continue
                # a pipe whose writer never came is not readable
                ready = select.select([fd, self._wake_r], [], [], 0.5)[0]
                if self._wake_r in ready:
                    with contextlib.suppress(BlockingIOError):
                        os.read(self._wake_r, 64)  # a park's or a stop's byte: it looks at them above
                if fd not in ready:
                    continue
                with self._lock:
                    more = self._read(fd)
                if more is None:
                    break
            else:  # stopped: what is in the pipe still reaches the source (a press as the game closes)
                for _read in range(DRAIN_READS):
                    with self._lock:
                        more = self._read(fd)
                    if not more:
                        break
        finally:
            with self._lock:  # the box reads no more: the pipe is closed
                if self._partial:
                    self.finish(self._partial)
                self._ended = True
                self._busy = False
                self._fd = None
                os.close(fd)
            os.close(self._wake_r)

    @staticmethod
    def _waiting(fd: int) -> bool:
        """Bytes wait in the pipe (or its writer closed it)."""
        try:
            return bool(select.select([fd], [], [], 0)[0])
        except (OSError, ValueError):
            return False

    def take_waiting(self, now_us: int) -> int | None:
        """``delivered_until_us``, after handing over on the caller's thread what waits in the
        pipe (the deciding thread's step: an edge written before it is taken in it, not left for
        this thread's turn at the interpreter). The read, its deliveries and the answer are made
        under the reader's lock, so the answer covers what was handed over; while the thread
        holds it (handing a chunk over), nothing is read here and the busy bound is the answer.
        The caller must hold no lock the source's deliveries take (they only enqueue)."""
        if not self._lock.acquire(blocking=False):
            return self.delivered_until_us(now_us)
        try:
            fd = self._fd
            for _read in range(TAKE_READS):  # busy here: only part of a report held
                if fd is None or self._ended or not self._waiting(fd) or not self._read(fd):
                    break
            return self.delivered_until_us(now_us)
        except OSError as exc:  # the queue failed (a line request gone): the reader's thread ends on it
            log.warning("%s: cannot read its queue (%s): nothing is said delivered until its reader ends",
                        self.name, exc.strerror or exc)
            return None
        finally:
            self._lock.release()

    def _read(self, fd: int) -> bool | None:
        """One read of the pipe, every whole report in it delivered (the lock held): whether it
        read anything (None: its writer closed it); the part of a report left is kept."""
        partial = self._partial
        self._busy = True  # before the read: the box never sees bytes neither queued nor held
        read_at = self.clock()  # before the read: whatever it leaves was queued after this
        try:
            chunk = os.read(fd, self.read_bytes)
        except BlockingIOError:  # readable, then taken by nobody else: nothing after all
            self._busy = bool(partial)
            return False
        except OSError:
            self._busy = bool(partial)  # nothing read: not busy with it (the caller says why)
            raise
        if not chunk:
            self._busy = bool(partial)
            return None
        reports, self._partial = self.split(partial + chunk)
        stamps = [self.stamp_us(r) for r in reports]  # once: the bound and the edge agree
        # part of a report held: its stamp unknown, so nothing can be said until it is whole
        unread = None if self._partial else self._unread_from(stamps, read_at, len(chunk) < self.read_bytes)
        for report, stamp, bound in zip(reports, stamps, self._bounds(stamps, unread), strict=True):
            self._held_until_us = bound  # it and those after it not handed over yet
            self.deliver(report, stamp)
        self._unread_from_us = unread  # before it is idle: all it read is delivered
        self._held_until_us = None  # before it is idle: a next chunk says nothing until split
        self._busy = bool(self._partial)  # part of a report read: an edge is still on its way
        if not self._busy and self.wake is not None:
            self.wake()  # a step that found it busy waits for this, not for the next edge
        return True

    def park(self, parked: bool) -> None:
        """Parked, the thread stops waiting on the pipe (woken once to see it) until
        unparked: what is written meanwhile is read by ``take_waiting`` alone. The
        deciding thread parks it while it waits for an armed lamp's moment."""
        if parked == self._parked:
            return
        if parked:
            with self._waking:
                if self._stopping:  # its wake-up pipe is closed, or about to be
                    return
                self._resume.clear()
                self._parked = True
                with contextlib.suppress(OSError):
                    os.write(self._wake_w, b"p")
        else:
            self._parked = False
            self._resume.set()

    def stop(self) -> None:
        """Stop reading (the source is closed): the thread hands over what is
        in the pipe (at most ``DRAIN_READS`` reads) and ends; waited for (at
        most ``STOP_WAIT_S``), so what it hands over reaches the box before
        the journal's end."""
        if self._stopping:
            return  # stopped already: its wake-up pipe is closed
        with self._waking:
            self._stopping = True
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"x")
        self.park(False)  # a parked thread drains the pipe and ends too
        if self.ident is None:  # never started: its end of the wake-up pipe, and the queue, are closed here
            os.close(self._wake_r)
            with self._lock:  # not while the deciding thread reads it (``take_waiting``)
                if self._fd is not None:
                    os.close(self._fd)
                    self._fd = None
        elif self is not threading.current_thread():
            self.join(STOP_WAIT_S)
        with self._waking:
            os.close(self._wake_w)
