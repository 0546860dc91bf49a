"""What an edge reader says about how far it has delivered while it is busy
handing a chunk over (``PipeReader.delivered_until_us``): before the least
stamp it still holds, and before what may still be unread; nothing while it
holds bytes it has not split, or part of a report. Driven by events: the
reader's clock and its deliveries are stand-ins the test holds."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.box.sources.pipe_reader import PipeReader
from tests.processes import HANG_S

CAPTURE_US = 100
OFFSET_US = 50
#: the reader's clock when it reads (box µs)
READ_AT_US = 10_000
#: the box asks at this moment: long after everything here
ASKED_AT_US = 20_000


class Stamps(PipeReader):
    """Reports ``T_US\\n``; each delivery waits for the test to let it go."""

    capture_us = CAPTURE_US

    def __init__(self, path: Path, read_at_us: int = READ_AT_US) -> None:
        super().__init__(path, "test-stamps", clock=lambda: read_at_us)
        self.offset_us = OFFSET_US
        self.handing = threading.Event()  # set while a delivery waits
        self.go = threading.Semaphore(0)  # one release: one delivery goes on
        self.splitting = threading.Event()
        self.split_go = threading.Event()
        self.split_go.set()
        self.delivered: list[int | None] = []

    def split(self, data: bytes) -> tuple[list[bytes], bytes]:
        self.splitting.set()
        self.split_go.wait(HANG_S)
        *lines, rest = data.split(b"\n")
        return lines, rest

    def stamp_us(self, report: bytes) -> int | None:
        return int(report)

    def deliver(self, report: bytes, t_us: int | None) -> None:
        self.handing.set()
        self.go.acquire(timeout=HANG_S)
        self.handing.clear()
        self.delivered.append(t_us)

    def next_handed(self) -> None:
        """Let the delivery waiting go, and wait for the next to wait."""
        self.handing.clear()
        self.go.release()
        assert self.handing.wait(HANG_S)


@pytest.fixture
def pipe(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "edges"
    os.mkfifo(path)
    yield path


class Writer:
    """The pipe's writing end, closed once: by the test (its writer gone) or after it."""

    def __init__(self, path: Path) -> None:
        self.fd = os.open(path, os.O_WRONLY)

    def write(self, data: bytes) -> None:
        os.write(self.fd, data)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


@contextlib.contextmanager
def reading(reader: Stamps, path: Path) -> Iterator[Writer]:
    """``reader`` started on ``path``, and the pipe's writing end; afterwards, whatever the
    test did, every delivery and a held split let go, the writer closed, the reader joined."""
    reader.start()
    writer = Writer(path)
    try:
        yield writer
    finally:
        for _ in range(8):
            reader.go.release()
        reader.split_go.set()
        reader.park(False)
        writer.close()
        reader.join(HANG_S)


def test_a_busy_reader_says_it_delivered_everything_before_what_it_holds(pipe: Path) -> None:
    reader = Stamps(pipe)
    reader.split_go.clear()
    with reading(reader, pipe) as writer:
        writer.write(b"1000\n3000\n2000\n")  # three reports, not in the order of their stamps
        assert reader.splitting.wait(HANG_S)
        assert reader.delivered_until_us(ASKED_AT_US) is None  # bytes taken, not yet split: nothing to say
        reader.split_go.set()
        assert reader.handing.wait(HANG_S)
        # the first handed over: all three held; less the largest offset the source takes off a stamp
        assert reader.delivered_until_us(ASKED_AT_US) == 1000 - 1 - OFFSET_US
        reader.next_handed()
        assert reader.delivered_until_us(ASKED_AT_US) == 2000 - 1 - OFFSET_US  # 3000 and 2000 still held
        reader.next_handed()
        assert reader.delivered_until_us(ASKED_AT_US) == 2000 - 1 - OFFSET_US
        writer.write(b"4000\n50")  # a report and part of the next, read while it hands 2000 over
        reader.next_handed()
        assert reader.delivered_until_us(ASKED_AT_US) is None  # part of a report held: its stamp unknown
        writer.write(b"00\n")
        reader.next_handed()
        assert reader.delivered_until_us(ASKED_AT_US) == 5000 - 1 - OFFSET_US
        reader.go.release()
        writer.close()
        reader.join(HANG_S)
        assert reader.delivered_until_us(ASKED_AT_US) == ASKED_AT_US  # its writer closed: nothing more can come
        assert reader.delivered == [1000, 3000, 2000, 4000, 5000]


@pytest.mark.parametrize("ordered,bound", [(False, READ_AT_US - CAPTURE_US), (True, 20_000)])
def test_what_is_still_unread_bounds_a_busy_reader_unless_its_writer_keeps_order(pipe: Path, ordered: bool,
                                                                                   bound: int) -> None:
    """Read at 10,000 µs, a pipe's edges may come stamped from 10,000 less the capture
    allowance: a reader holding later stamps says no more than that, unless its
    writer queues in the order of the stamps (the feed), where nothing can come
    stamped before what it read."""
    reader = Stamps(pipe)
    reader.ordered = ordered
    with reading(reader, pipe) as writer:
        writer.write(b"15000\n20000\n")
        assert reader.handing.wait(HANG_S)
        assert reader.delivered_until_us(ASKED_AT_US * 2) == min(15_000, bound) - 1 - OFFSET_US
        reader.next_handed()
        assert reader.delivered_until_us(ASKED_AT_US * 2) == min(20_000, bound) - 1 - OFFSET_US


def test_a_busy_reader_never_says_more_than_an_idle_one_would(pipe: Path) -> None:
    """Asked at a moment before its stamps (the box's step began before the reader
    read): no further than that moment less its lag, as when idle."""
    reader = Stamps(pipe)
    reader.ordered = True
    with reading(reader, pipe) as writer:
        writer.write(b"15000\n")
        assert reader.handing.wait(HANG_S)
        assert reader.delivered_until_us(12_000) == 12_000 - CAPTURE_US - OFFSET_US


@pytest.mark.parametrize("ordered,bound", [(False, 1_500 - CAPTURE_US), (True, 3_000)])
def test_bytes_waiting_in_the_pipe_are_bounded_by_what_the_last_read_left(pipe: Path, ordered: bool,
                                                                          bound: int) -> None:
    """Idle, with a report queued it has not read yet: read at 1,500 µs, what it
    left unread is stamped from 1,500 less the capture allowance on, or, from a
    writer that keeps stamp order, not before the 3,000 it read."""
    reader = Stamps(pipe, read_at_us=1_500)
    reader.ordered = ordered
    idle, gate = threading.Event(), threading.Event()
    reader.wake = lambda: (idle.set(), gate.wait(HANG_S))  # the reader held right after it went idle
    with reading(reader, pipe) as writer:
        try:
            writer.write(b"3000\n")
            assert reader.handing.wait(HANG_S)
            reader.go.release()
            assert idle.wait(HANG_S)
            assert reader.delivered_until_us(ASKED_AT_US) == ASKED_AT_US - CAPTURE_US - OFFSET_US  # nothing waiting
            writer.write(b"4000\n")  # waits in the pipe: the reader has not come back for it
            assert reader.delivered_until_us(ASKED_AT_US) == bound - 1 - OFFSET_US
        finally:
            gate.set()  # the reader goes on from idle


def test_a_stopped_reader_hands_over_what_is_still_in_the_pipe(pipe: Path) -> None:
    """An edge in the pipe as the game closes reaches the box before the
    journal's end (the source is stopped first): the stop drains the pipe."""
    reader = Stamps(pipe)
    stopper = threading.Thread(target=reader.stop)
    with reading(reader, pipe) as writer:
        writer.write(b"100\n")
        assert reader.handing.wait(HANG_S)  # the reader hands 100 over
        writer.write(b"200\n")  # a press as the game closes: in the pipe, not read yet
        stopper.start()
        stopping = threading.Event()
        while not reader._stopping and not stopping.wait(0.001):
            pass  # until the stop is asked for
        reader.go.release()
        reader.go.release()
        stopper.join(HANG_S)
        reader.join(HANG_S)
        assert reader.delivered == [100, 200]


def test_the_box_reads_nothing_itself_while_the_thread_hands_a_chunk_over(pipe: Path) -> None:
    """``take_waiting`` (the box's step) reads the pipe only under the reader's lock: while the
    thread holds it, handing a chunk over, a report written meanwhile stays in the pipe for the
    thread, the answer is the thread's busy bound, and every report reaches the source once, in
    the order written."""
    reader = Stamps(pipe)
    reader.ordered = True
    with reading(reader, pipe) as writer:
        writer.write(b"1000\n2000\n")
        assert reader.handing.wait(HANG_S)  # the thread hands 1000 over
        writer.write(b"3000\n")  # waits in the pipe
        assert reader.take_waiting(ASKED_AT_US) == 1000 - 1 - OFFSET_US
        assert reader.delivered == []
        reader.next_handed()
        assert reader.take_waiting(ASKED_AT_US) == 2000 - 1 - OFFSET_US
        reader.next_handed()  # the thread read 3000 itself
        reader.go.release()
        writer.close()
        reader.join(HANG_S)
        assert reader.delivered == [1000, 2000, 3000]
        assert reader.take_waiting(ASKED_AT_US) == ASKED_AT_US  # its writer closed: nothing more can come


def test_a_queue_that_fails_to_read_in_the_box_s_step_says_nothing_delivered_and_does_not_raise(
        pipe: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read error on the deciding thread's own read (a line request gone: EIO) must not end the
    deciding thread's step with an exception (the game would stop): it says nothing is delivered
    (None: the box waits, as for a stalled reader) and is not left busy."""
    import errno

    from controller.box.sources import pipe_reader

    reader = Stamps(pipe)
    writer = Writer(pipe)
    try:
        writer.write(b"1000\n")

        def failing(fd: int, n: int) -> bytes:
            raise OSError(errno.EIO, os.strerror(errno.EIO))

        monkeypatch.setattr(pipe_reader.os, "read", failing)
        assert reader.take_waiting(ASKED_AT_US) is None
        assert not reader._busy
    finally:
        monkeypatch.undo()
        writer.close()
        reader.stop()


class Threads(Stamps):
    """``Stamps`` whose deliveries never wait, each said with the thread that made it."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.by: list[str] = []
        self.handed = threading.Event()

    def deliver(self, report: bytes, t_us: int | None) -> None:
        self.delivered.append(t_us)
        self.by.append(threading.current_thread().name)
        self.handed.set()


def test_a_parked_reader_leaves_what_is_written_to_the_box_s_own_read_and_reads_again_unparked(
        pipe: Path) -> None:
    """Parked (the deciding thread waits for an armed lamp), the thread does not read: an edge
    written then waits in the pipe, the bound says so, and the box's own read hands it over on
    the box's thread; let go on, the thread reads what comes next itself."""
    reader = Threads(pipe)
    with reading(reader, pipe) as writer:
        reader.park(True)
        assert reader.resting.wait(HANG_S)
        writer.write(b"1000\n")
        assert reader.delivered == [] and reader.delivered_until_us(ASKED_AT_US) is None  # waiting, never read: unsaid
        assert reader.take_waiting(ASKED_AT_US) == ASKED_AT_US - CAPTURE_US - OFFSET_US
        assert reader.delivered == [1000] and reader.by == [threading.current_thread().name]
        assert reader.resting.is_set()  # still parked
        reader.handed.clear()
        reader.park(False)
        writer.write(b"2000\n")
        assert reader.handed.wait(HANG_S)
        assert reader.delivered == [1000, 2000] and reader.by[1] == "test-stamps"


def test_a_parked_reader_stopped_hands_over_what_is_in_the_pipe(pipe: Path) -> None:
    """A game closed while the reader is parked: the stop lets it go on, and it drains the pipe."""
    reader = Threads(pipe)
    with reading(reader, pipe) as writer:
        reader.park(True)
        assert reader.resting.wait(HANG_S)
        writer.write(b"3000\n")
        reader.stop()
        assert not reader.is_alive()
        assert reader.delivered == [3000] and reader.by == ["test-stamps"]
