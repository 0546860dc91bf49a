"""An edge reader that can say how far it has delivered: the thread that
takes edges off the pipe they are queued in (lgpio's notification pipe for
real GPIO pins, the benchmarks' feed FIFO for mock ones) and hands each to
the source's callback.

It reads the pipe's bytes itself (a buffered file would hide reports read and
not yet delivered) and is *busy* from before a read until every whole report
read is delivered. So when the box asks (``delivered_until_us``) and finds it
not busy with nothing waiting in the pipe, every edge queued before the
question has been delivered: a reader starved of the interpreter holds the
box's decisions instead of being decided past.
"""

from __future__ import annotations

import os
import select
import threading
from abc import abstractmethod
from collections.abc import Callable
from pathlib import Path


class PipeReader(threading.Thread):
    """Reads reports from a pipe until its writer closes it (``EdgeReader``)."""

    #: an edge is in the pipe at most this long after its stamp was taken
    capture_us = 100

    def __init__(self, path: str | Path, name: str) -> None:
        super().__init__(name=name, daemon=True)
        self.path = Path(path)
        #: opened at once, without waiting for a writer: the box may ask before anything is
        #: queued, and a pipe no writer has opened has nothing waiting
        self._fd: int | None = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self._busy = False
        self._ended = False
        self._stopping = False
        #: called each time it has delivered all it read: the box asks again (``live.connect``)
        self.wake: Callable[[], None] | None = None

    @abstractmethod
    def split(self, data: bytes) -> tuple[list[bytes], bytes]:
        """Whole reports in ``data``, and the part of the next one read so far."""

    @abstractmethod
    def deliver(self, report: bytes) -> None:
        """One report to the source (it stamps nothing: the report carries the stamp)."""

    def finish(self, rest: bytes) -> None:
        """What was left unread when the writer closed (a last line without its newline)."""

    def delivered_until_us(self, now_us: int) -> int | None:
        """Every edge stamped by ``now_us`` less ``capture_us`` is delivered,
        if the reader holds none and the pipe has none waiting (asked by the
        deciding thread: the order of the checks is what makes it true)."""
        if self._ended:
            return now_us  # the writer closed it: nothing more can come
        fd = self._fd
        if fd is None or self._busy:
            return None
        try:
            waiting = select.select([fd], [], [], 0)[0]
        except (OSError, ValueError):
            return None
        if waiting or self._busy:  # busy again: the reader took bytes between the two looks
            return None
        return now_us - self.capture_us

    def run(self) -> None:
        fd = self._fd
        assert fd is not None, "a pipe is read once"
        partial = b""
        try:
            while not self._stopping:
                if not select.select([fd], [], [], 0.5)[0]:  # a pipe whose writer never came is not readable
                    continue
                self._busy = True  # before the read: the box never sees bytes neither queued nor held
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:  # readable, then taken by nobody else: nothing after all
                    self._busy = bool(partial)
                    continue
                if not chunk:
                    break
                reports, partial = self.split(partial + chunk)
                for report in reports:
                    self.deliver(report)
                self._busy = bool(partial)  # part of a report read: an edge is still on its way
                if not self._busy and self.wake is not None:
                    self.wake()  # a step that found it busy waits for this, not for the next edge
        finally:
            if partial:
                self.finish(partial)
            self._ended = True
            self._busy = False
            self._fd = None
            os.close(fd)

    def stop(self) -> None:
        """Stop reading (the source is closed): the thread ends within its wait."""
        self._stopping = True
