"""The room a journal keeps for its close (``<journal>.reserve``, 1 MiB) is freed as
it closes; a writer killed before that (-9, a power cut) left it for good when the
journal was never resumed. A stale one goes when the next journal starts in its
folder, and with ``journal check`` of its journal; never one a live writer holds
(its journal's lock says so: in another process or this one)."""

from __future__ import annotations

import errno
import fcntl
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from controller.box import journal_writer, session
from controller.box.journal import JournalWriter
from controller.cli import main
from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]
HEADER = {"game": "quiz", "settings": {"players": 2}}
WRITER = textwrap.dedent("""
    import sys, time
    from controller.box.journal_writer import JournalWriter
    writer = JournalWriter.create(sys.argv[1], {"game": "quiz", "settings": {"players": 2}})
    print("writing", flush=True)
    time.sleep(600)
""")


def writing(path: Path) -> subprocess.Popen[str]:
    """Another process writing a journal at ``path`` (its reserve made once it says so)."""
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "writing"
    return proc


def killed(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait(HANG_S)
    if proc.stdout is not None:
        proc.stdout.close()


def test_a_new_journal_removes_the_room_a_killed_writer_left_and_keeps_the_live_ones(tmp_path: Path) -> None:
    dead, other, ours = tmp_path / "dead.jsonl", tmp_path / "other.jsonl", tmp_path / "ours.jsonl"
    live = writing(other)  # a game another process is playing in the folder
    try:
        killed(writing(dead))  # killed mid-game, never resumed
        assert Path(f"{dead}.reserve").exists() and Path(f"{other}.reserve").exists()
        mine = JournalWriter.create(ours, HEADER)  # the next game starts in the folder, in this process
        try:
            assert not Path(f"{dead}.reserve").exists()
            assert Path(f"{other}.reserve").exists() and Path(f"{ours}.reserve").exists()
            killed(writing(tmp_path / "later.jsonl"))  # a game another process starts (and is killed in)
            assert Path(f"{ours}.reserve").exists() and Path(f"{other}.reserve").exists()
        finally:
            mine.close()
    finally:
        killed(live)
    assert dead.stat().st_size > 0  # the journal itself is untouched


def test_on_a_full_card_a_new_journal_gets_the_room_a_killed_writer_left(tmp_path: Path, monkeypatch) -> None:
    """The card is full but for the 1 MiB a killed writer's reserve holds: the next journal
    sweeps it before making its own, so it gets that room for its close."""
    dead, ours = tmp_path / "dead.jsonl", tmp_path / "ours.jsonl"
    killed(writing(dead))
    real = os.posix_fallocate

    def full_card(fd: int, offset: int, length: int) -> None:  # room for one reserve: the stale one's
        if len(list(tmp_path.glob("*.reserve"))) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd, offset, length)
    monkeypatch.setattr(os, "posix_fallocate", full_card)
    mine = JournalWriter.create(ours, HEADER)
    try:
        assert mine.reserve is not None and Path(f"{ours}.reserve").exists()
        assert not Path(f"{dead}.reserve").exists()
    finally:
        mine.close()


def test_journal_check_removes_the_stale_room_of_the_journal_it_checks_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "night.jsonl"
    killed(writing(path))
    room = Path(f"{path}.reserve")
    assert room.exists()
    capsys.readouterr()
    assert main(["journal", "check", str(path)]) == 0
    assert not room.exists()
    assert "removed night.jsonl.reserve" in capsys.readouterr().err
    live = writing(path.with_name("live.jsonl"))
    try:
        assert main(["journal", "check", str(path.with_name("live.jsonl"))]) == 0
        assert path.with_name("live.jsonl.reserve").exists()  # its writer holds it
    finally:
        killed(live)


def test_a_resume_waits_out_a_sweep_holding_the_journals_lock(tmp_path: Path, monkeypatch) -> None:
    """A new journal's sweep of stale reserves holds each journal's lock for one unlink: a resume
    looking at that moment tries again on the writer's schedule (``LOCK_TRIES``) rather than
    refusing the game as "being written by another box" naming the sweeper."""
    from tests.journal.test_resume_from_end import journaled_session

    path, _box = journaled_session(tmp_path, "quiz")
    taken, release, released = threading.Event(), threading.Event(), threading.Event()

    def sweeper() -> None:  # holds the lock until the resume's first look found it held
        with open(path, "rb") as f:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX)
            taken.set()
            release.wait(HANG_S)
        released.set()  # closed: the lock is gone
    monkeypatch.setattr(journal_writer, "lock_retry_wait", lambda: (release.set(), released.wait(HANG_S)))
    thread = threading.Thread(target=sweeper)
    thread.start()
    try:
        assert taken.wait(HANG_S)
        journaled = session.resumable(path, carry_on=True)
    finally:
        release.set()
        thread.join(HANG_S)
    assert journaled.settings is not None
