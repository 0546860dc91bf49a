"""The writer: off the loop thread, one at a time, and a full disk does not end the game."""

from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from controller.box import journal
from controller.box.journal_format import parse_bytes
from controller.box.runtime import Box, box_from_journal
from controller.box.simulate import Session
from games import registry
from tests.processes import HANG_S

from .conftest import run

ROOT = Path(__file__).resolve().parents[2]


class FlakyDisk:
    """A file that can be full, slow, or take only part of each write."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.full = False
        self.short_writes = False
        self.sync_delay_s = 0.0
        self.syncs = 0
        self.lock = threading.Lock()
        #: a disk that hangs: every fsync after the first this many waits for ``release``
        self.hold_after: int | None = None
        self.release = threading.Event()
        self.held = 0  # fsyncs waiting for the release now
        self.sync_threads: set[int] = set()

    def write(self, data: bytes) -> int:
        with self.lock:
            if self.full:
                raise OSError(errno.ENOSPC, "No space left on device")
            n = max(1, len(data) // 3) if self.short_writes else len(data)
            self.data += data[:n]
            return n

    def sync(self) -> None:
        self.sync_threads.add(threading.get_ident())
        if self.hold_after is not None and self.syncs >= self.hold_after:
            with self.lock:
                self.held += 1
            self.release.wait(HANG_S)  # a hang guard: the test releases it
            with self.lock:
                self.held -= 1
        if self.sync_delay_s:
            time.sleep(self.sync_delay_s)
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        self.syncs += 1

    def close(self) -> None:
        pass


def wait_until(condition, seconds: float = HANG_S) -> None:
    """The writer runs on its own thread: on a loaded machine it may not have looked yet
    (polled until it has; ``seconds`` only bounds a hang)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the journal's writer thread never got there"
        time.sleep(0.01)


def quiz_session(writer_for, seed: int = 3) -> tuple[Session, journal.JournalWriter]:
    spec = registry.get("quiz")
    settings = spec.settings(3, seed, **spec.demo_options)
    box = Box(spec, settings)
    box.journal = writer_for(box)
    return Session(box, spec.new_bots(settings), spec.new_host(settings), seed), box.journal


def test_a_full_disk_does_not_stop_the_game_and_nothing_is_lost(tmp_path, caplog):
    disk = FlakyDisk()
    session, writer = quiz_session(lambda box: journal.JournalWriter.create(tmp_path / "j.jsonl", box.header(),
                                                                            sink=disk))
    session.run_virtual(20_000_000)
    assert writer.flush(timeout=HANG_S) is True  # what came before is on the card (a fast run may outpace the fsync)
    disk.full = True  # the card fills up mid-game
    session.run_virtual(50_000_000)
    assert writer.flush(timeout=0.5) is False
    # the writer thread meets the full disk (the fsync thread may say so first: both are logged)
    wait_until(lambda: not writer.healthy and "journal cannot write" in caplog.text)
    assert not writer.healthy and "No space left on device" in (writer.problem or "")
    assert writer.waiting > 0  # kept in memory
    assert "journal cannot write" in caplog.text
    disk.full = False  # space again
    session.run_virtual()
    assert session.box.engine.finished
    session.box._write({"type": "end", "t_us": session.now_us})
    assert writer.flush(timeout=HANG_S) is True
    assert writer.healthy and writer.waiting == 0
    writer.close()
    written = parse_bytes(bytes(disk.data))
    assert written.damage is None and written.ended
    assert box_from_journal(written).summary() == session.box.summary()


def test_short_writes_are_finished_not_glued(tmp_path):
    disk = FlakyDisk()
    disk.short_writes = True
    session, writer = quiz_session(lambda box: journal.JournalWriter.create(tmp_path / "j.jsonl", box.header(),
                                                                            sink=disk))
    session.run_virtual()
    writer.close()
    written = parse_bytes(bytes(disk.data))
    assert written.damage is None
    assert box_from_journal(written).summary() == session.box.summary()


def test_records_the_disk_never_took_go_beside_the_journal_on_close(tmp_path, caplog, monkeypatch):
    import controller.box.journal_writer as jw

    monkeypatch.setattr(jw, "CLOSE_GRACE_S", 0.3)
    disk = FlakyDisk()
    writer = journal.JournalWriter.create(tmp_path / "j.jsonl", {"game": "quiz", "settings": {"players": 2}}, sink=disk)
    disk.full = True
    writer.write({"type": "tick", "t_us": 5})
    writer.close()
    aside = tmp_path / "j.jsonl.unsaved"
    assert writer.unsaved == 1 and writer.unsaved_path == aside
    assert b'"t_us":5' in aside.read_bytes() and "j.jsonl.unsaved" in caplog.text


def test_a_journal_keeps_room_on_its_disk_for_its_close_and_frees_it_there(tmp_path: Path) -> None:
    import controller.box.journal_writer as jw

    path = tmp_path / "j.jsonl"
    writer = journal.JournalWriter.create(path, {"game": "quiz", "settings": {"players": 2}})
    room = tmp_path / "j.jsonl.reserve"
    assert writer.reserve == room and room.stat().st_blocks * 512 >= jw.RESERVE_BYTES  # allocated, not sparse
    writer.close()
    assert not room.exists()
    _, resumed = journal.resume(path)  # a resumed journal keeps room again
    assert room.exists()
    resumed.close()
    assert not room.exists()


def test_on_a_card_that_filled_up_the_room_freed_at_close_takes_the_refused_records(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The card fills while the game runs: every journal write fails, and so would the file beside it,
    but for the room the journal kept on that disk: freed at the close, it takes the refused records,
    so ``journal check`` names the gap (INCOMPLETE, exit 1) instead of an interrupted journal that
    reads OK (the records only in the log)."""
    import controller.box.journal_writer as jw
    from tests.journal.test_untrusted_files import full_disk

    monkeypatch.setattr(jw, "CLOSE_GRACE_S", 0.3)
    path = tmp_path / "q.jsonl"
    header = tmp_path / "header.jsonl"
    writer = journal.JournalWriter.create(header, {"game": "quiz", "settings": {"players": 2}})
    writer.close()
    room = tmp_path / "q.jsonl.reserve"
    kept: list[bool] = []  # the journal kept room for its close

    real_open = os.open

    def card_open(file: str, flags: int, *args: int, **kwargs: int) -> int:
        if str(file).endswith(".unsaved") and (room.exists() or not any(kept)):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))  # no room but what the journal kept
        return real_open(file, flags, *args, **kwargs)

    full_disk(path)  # every journal write: "No space left on device"
    monkeypatch.setattr(jw.os, "open", card_open)
    writer = journal.JournalWriter(path, state=journal.load(header))
    kept.append(room.exists())
    writer.write({"type": "tick", "t_us": 5})
    writer.write({"type": "tick", "t_us": 6})
    writer.close()
    assert writer.unsaved == 2 and writer.unsaved_path == tmp_path / "q.jsonl.unsaved"
    assert not room.exists()
    path.unlink()
    path.write_bytes(header.read_bytes())  # the card as it is: the header, and nothing the game wrote
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 1 and out.startswith("INCOMPLETE") and "2 records" in out, (out, err)


def test_a_disk_that_takes_part_of_a_line_leaves_the_aside_file_on_a_whole_record(tmp_path: Path) -> None:
    """The aside file's disk fills in the middle of a record: the part it took is cut off again, so the
    file ends on a whole record (a resume writes them back; a torn tail made it refuse the journal)."""
    script = textwrap.dedent("""
        import resource, signal, sys
        from pathlib import Path
        from controller.box import journal_writer as jw
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (250, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
        lines = [b'{"seq":%d,"x":"%s"}\\n' % (n, b"a" * 60) for n in range(6)]
        aside, kept = jw._keep_aside(Path(sys.argv[1]), lines)
        print(kept)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "j.jsonl")], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2], timeout=HANG_S, check=False)
    assert done.returncode == 0, done.stderr
    kept = int(done.stdout.split()[-1])
    data = (tmp_path / "j.jsonl.unsaved").read_bytes()
    assert 0 < kept < 6 and data.endswith(b"\n") and data.count(b"\n") == kept, (kept, data[-40:])


def test_records_no_file_would_take_go_to_the_log_on_close(tmp_path, caplog, monkeypatch):
    import controller.box.journal_writer as jw

    monkeypatch.setattr(jw, "CLOSE_GRACE_S", 0.3)
    (tmp_path / "j.jsonl.unsaved").mkdir()  # the second place refuses too
    disk = FlakyDisk()
    writer = journal.JournalWriter.create(tmp_path / "j.jsonl", {"game": "quiz", "settings": {"players": 2}}, sink=disk)
    disk.full = True
    writer.write({"type": "tick", "t_us": 5})
    writer.close()
    assert writer.unsaved == 1 and writer.unsaved_path is None
    assert "unsaved" in caplog.text and '"t_us":5' in caplog.text


def test_the_loop_thread_never_waits_for_the_disk(tmp_path):
    """A disk whose fsyncs hang (after the header's) until the test releases them:
    the whole game is played and journaled meanwhile, so no write() waited for
    one; the old way (threaded=False), the loop's own thread calls fsync."""

    def played(threaded: bool) -> FlakyDisk:
        disk = FlakyDisk()
        disk.hold_after = 1 if threaded else None
        session, writer = quiz_session(lambda box: journal.JournalWriter.create(
            tmp_path / f"{threaded}.jsonl", box.header(), sink=disk, threaded=threaded))
        try:
            session.run_virtual(6_000_000)
            if threaded:
                wait_until(lambda: disk.held == 1)  # the writer's thread is in the hung fsync
                assert disk.syncs == 1  # only the header's is done, and the game was played
        finally:
            disk.release.set()
            writer.close()
        return disk

    assert threading.get_ident() in played(threaded=False).sync_threads  # the step itself synced
    assert threading.get_ident() not in played(threaded=True).sync_threads


def test_the_header_is_on_disk_before_create_returns(tmp_path):
    writer = journal.JournalWriter.create(tmp_path / "h.jsonl", {"game": "quiz", "settings": {"players": 2}})
    assert json.loads((tmp_path / "h.jsonl").read_text())["type"] == "session"
    assert writer.records_synced == 1
    writer.close()


# -- one writer at a time -------------------------------------------------------------------
HOLD = textwrap.dedent("""
    import sys
    from controller.box import journal
    j, w = journal.resume(sys.argv[1])
    print("holding", flush=True)
    sys.stdin.read()  # held until the test is done with it (it kills this), however long that takes
""")


def test_a_second_resume_says_which_pid_holds_the_journal(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    assert run(capsys, "simulate", "quiz", "--players", "2", "--seed", "1", "--journal", str(path))[0] == 0
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:20]))
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        before = path.read_bytes()
        code, _out, err = run(capsys, "resume", str(path))
        assert code == 1 and f"pid {holder.pid}" in err
        assert path.read_bytes() == before  # the second one wrote nothing
    finally:
        holder.kill()
        holder.communicate()  # waited for, its pipes closed
    assert run(capsys, "resume", str(path), "--json")[0] == 0  # free again once the holder is gone


def test_two_writers_in_one_process_are_refused_too(tmp_path):
    writer = journal.JournalWriter.create(tmp_path / "x.jsonl", {"game": "quiz", "settings": {"players": 2}})
    with pytest.raises(journal.JournalLocked, match=f"pid {os.getpid()}"):
        journal.resume(tmp_path / "x.jsonl")
    writer.close()


def test_play_resume_refuses_a_journal_of_another_game_and_setup(tmp_path, capsys):
    path = tmp_path / "sm.jsonl"
    assert run(capsys, "simulate", "schicki-micki", "--players", "7", "--seed", "1", "--journal", str(path))[0] == 0
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:30]))
    before = path.read_bytes()
    code, _out, err = run(capsys, "play", "quiz", "--profile", "header-4", "--headless", "--resume", str(path))
    assert code == 1
    assert "schicki-micki game, not quiz" in err and "7 players" in err and "station kinds differ" in err
    assert path.read_bytes() == before


def test_play_resume_says_what_differs_in_the_box_language(tmp_path, capsys):
    """A Polish box refusing a journal of another setup says why in Polish, every part of it."""
    path = tmp_path / "sm.jsonl"
    assert run(capsys, "simulate", "schicki-micki", "--players", "7", "--seed", "1", "--journal", str(path))[0] == 0
    code, _out, err = run(capsys, "play", "quiz", "--profile", "header-4", "--headless", "--resume", str(path),
                          "--lang", "pl")
    assert code == 1
    assert "nie pasuje: dziennik to gra schicki-micki, nie quiz" in err
    assert "graczy w dzienniku: 7" in err and "rodzaje stanowisk się różnią" in err
    assert "does not match" not in err and "station kinds differ" not in err


def test_check_resume_is_quiet_when_everything_matches(quiz_journal, tmp_path):
    data, _ = quiz_journal
    path = tmp_path / "q.jsonl"
    path.write_bytes(data)
    assert journal.check_resume(journal.load(path), "quiz", 3, ["full"] * 3) == []
    assert journal.check_resume(journal.load(path), "quiz", 3, ["compact"] * 3) != []


# -- the promise, tested by killing the writer ----------------------------------------------------
PLAYER = textwrap.dedent("""
    import json, sys, time
    from controller.box.journal import JournalWriter
    from controller.box.runtime import Box
    from controller.box.simulate import Session
    from games import registry
    spec = registry.get("reaction")
    settings = spec.settings(3, 4, **spec.demo_options)
    box = Box(spec, settings)
    box.journal = JournalWriter.create(sys.argv[1], box.header(mode="play"))
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 4)
    while True:  # the game, then its end kept on saying how far the writer is, until killed
        if not box.engine.finished:
            session.step(session.next_time_us())
        print(json.dumps({"records": box.journal.records_queued, "written": box.journal.records_written,
                          "summary": box.summary()}), flush=True)
        time.sleep(0.003)
""")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_kill_9_keeps_every_record_the_writer_wrote_and_replay_equals_play(tmp_path, seed):
    """The durability half of the promise, on readiness: every record the writer
    says it handed to the OS is in the file after a kill -9 (how soon it does
    is benchmarks/journal_writer.py's figure and the writer's own warning,
    never a bound a busy machine could break here)."""
    path = tmp_path / "k.jsonl"
    child = subprocess.Popen([sys.executable, "-c", PLAYER, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    # killed after a seeded number of steps, once the writer says it wrote all of them
    reports = [json.loads(child.stdout.readline()) for _ in range(random.Random(seed).randint(40, 120))]
    target = reports[-1]["records"]
    while reports[-1]["written"] < target:
        line = child.stdout.readline()
        assert line, "the player ended before its writer wrote"
        reports.append(json.loads(line))
    child.send_signal(signal.SIGKILL)
    reports += [json.loads(line) for line in child.stdout.read().splitlines() if line.endswith("}")]
    child.wait()
    found = journal.load(path)
    assert found.damage is None
    in_file = len(found.records) + 1  # and the header
    written = max(r["written"] for r in reports)
    assert target <= written <= in_file
    # the state the box had, at the last step whose records all reached the file, is what replay gives
    last = max((r for r in reports if r["records"] <= in_file), key=lambda r: r["records"])
    found.records = found.records[: last["records"] - 1]
    found.record_lines = found.record_lines[: last["records"] - 1]
    assert box_from_journal(found).summary() == last["summary"]


def small_filesystem(where: Path, size_kib: int) -> bool:
    where.mkdir()
    if os.geteuid() != 0:
        return False
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(where)],
                          capture_output=True, check=False)
    return done.returncode == 0


def test_a_really_full_filesystem(tmp_path):
    """The same as the fault-injecting disk, on a 64 KiB tmpfs (root only)."""
    small = tmp_path / "small"
    if not small_filesystem(small, 64):
        pytest.skip("cannot mount a small tmpfs here (needs root); the FlakyDisk tests cover the same path")
    writer = None
    try:
        session, writer = quiz_session(lambda box: journal.JournalWriter.create(small / "j.jsonl", box.header()))
        session.run_virtual(10_000_000)
        assert writer.flush()
        filler = small / "filler"
        with open(filler, "wb", buffering=0) as f:
            try:
                while f.write(b"x" * 1024):
                    pass
            except OSError as exc:
                assert exc.errno == errno.ENOSPC
        session.run_virtual(60_000_000)
        assert writer.flush(timeout=0.5) is False
        wait_until(lambda: not writer.healthy)
        assert not writer.healthy
        filler.unlink()
        session.run_virtual()
        session.box._write({"type": "end", "t_us": session.now_us})
        assert writer.flush(timeout=HANG_S)
        writer.close()
        written = journal.load(small / "j.jsonl")
        assert written.damage is None and written.ended
        assert box_from_journal(written).summary() == session.box.summary()
    finally:
        if writer is not None:
            writer.close()
        subprocess.run(["umount", "-l", str(small)], check=False)


def test_kill_9_during_resume_loses_no_complete_record_and_a_second_resume_finishes(tmp_path, capsys):
    path = tmp_path / "r.jsonl"
    assert run(capsys, "simulate", "reaction", "--players", "4", "--seed", "3", "--option", "rounds=50",
               "--journal", str(path))[0] == 0
    lines = path.read_bytes().splitlines(keepends=True)
    before = b"".join(lines[:40])
    path.write_bytes(before)
    child = subprocess.Popen([sys.executable, "-m", "controller.cli", "resume", str(path)], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    give_up = time.monotonic() + HANG_S  # a hung child, not a slow one
    while path.stat().st_size < len(before) + 1500 and child.poll() is None:  # until it is appending
        assert time.monotonic() < give_up, "the resumed game never appended to its journal"
        time.sleep(0.005)
    child.send_signal(signal.SIGKILL)
    child.wait()
    killed = path.read_bytes()
    assert killed.startswith(before) and len(killed) > len(before)
    complete = killed[: killed.rindex(b"\n") + 1]
    code, out, err = run(capsys, "resume", str(path), "--json")
    assert code == 0, err
    assert path.read_bytes().startswith(complete)  # every complete record survived both
    resumed = json.loads(out)
    assert resumed["finished"] is True
    code, replay_out, _ = run(capsys, "replay", str(path), "--json")
    assert code == 0 and json.loads(replay_out) == resumed


def test_play_onto_an_existing_journal_is_one_line_and_touches_nothing(quiz_journal, tmp_path, capsys):
    data, _ = quiz_journal
    path = tmp_path / "q.jsonl"
    path.write_bytes(data)
    code, _out, err = run(capsys, "play", "quiz", "--profile", "header-4", "--headless", "--journal", str(path))
    assert code == 1 and "already holds a session" in err and "Traceback" not in err
    assert path.read_bytes() == data


@pytest.mark.parametrize("made", [True, False])
def test_records_written_while_a_reserved_line_is_made_follow_it_in_their_order(tmp_path: Path, made: bool) -> None:
    """``write_later``: the line takes its time on the writer's thread; records
    written meanwhile wait (flush says they are not written) and follow it,
    chained on it; a line that is not made leaves no gap in seq or chain."""
    from controller.box.journal_format import encode_line

    path = tmp_path / "j.jsonl"
    writer = journal.JournalWriter.create(path, {"game": "reaction", "settings": {"players": 2, "seed": 1}},
                                          fsync=False, threaded=True)
    writer.write({"type": "tick", "t_us": 1})
    assert writer.flush()  # written: what waits below is only what the reserved line holds back
    go = threading.Event()
    after: list[int] = []

    def start(seq: int, previous: str):  # noqa: ANN202 (the finish it returns)
        line = encode_line({"type": "tick", "t_us": 2}, seq, previous)

        def finish() -> tuple[bytes, str] | None:
            assert go.wait(HANG_S)
            return line if made else None
        return finish

    try:
        assert writer.write_later(start, then=lambda: after.append(writer.next_seq)) == 2
        assert writer.write_later(start) is None  # one at a time
        for t in (3, 4):
            writer.write({"type": "tick", "t_us": t})
        assert not writer.flush(timeout=0.05) and writer.waiting == 3
    finally:
        go.set()
        writer.close()
    parsed = parse_bytes(path.read_bytes(), path)
    assert not parsed.damage and not parsed.torn_tail
    assert [r.t_us for r in parsed.records] == ([1, 2, 3, 4] if made else [1, 3, 4])
    assert after == [5 if made else 4]


def test_a_close_with_a_line_reserved_returns_though_the_disk_hangs(tmp_path: Path, monkeypatch) -> None:
    """A disk that hangs (an SD card stalling) while a checkpoint's line is reserved: the
    close waited for the writer thread to make the line, for ever; it returns after its
    grace like any close, the records it could not write kept aside in their order."""
    from controller.box import journal_writer
    from controller.box.journal_format import encode_line

    class HangingDisk(FlakyDisk):
        def write(self, data: bytes) -> int:
            with self.lock:
                self.held += 1
            self.release.wait(HANG_S)  # a hang guard: the test releases it
            return super().write(data)

    for name in ("CLOSE_LATER_S", "CLOSE_GRACE_S", "RETRY_MAX_S"):
        monkeypatch.setattr(journal_writer, name, 0.0)
    disk = HangingDisk()
    path = tmp_path / "j.jsonl"
    writer = journal.JournalWriter(path, fsync=False, threaded=True, sink=disk)
    closing = threading.Thread(target=writer.close)
    try:
        writer.write({"type": "tick", "t_us": 1})
        wait_until(lambda: disk.held == 1)  # the writer thread hangs in the disk
        made = threading.Event()

        def start(seq: int, previous: str):  # noqa: ANN202 (the finish it returns)
            def finish() -> tuple[bytes, str]:
                made.set()
                return encode_line({"type": "tick", "t_us": 2}, seq, previous)
            return finish

        assert writer.write_later(start) == 2
        writer.write({"type": "tick", "t_us": 3})
        closing.start()
        closing.join(HANG_S)
        assert not closing.is_alive() and made.is_set() and writer.closed
    finally:
        disk.release.set()
        if closing.ident is not None:
            closing.join(HANG_S)
        for thread in writer._threads:
            thread.join(HANG_S)
    assert writer.unsaved == 3 and writer.unsaved_path is not None
    kept = [json.loads(line) for line in writer.unsaved_path.read_bytes().splitlines()]
    assert [(r["seq"], r["t_us"]) for r in kept] == [(1, 1), (2, 2), (3, 3)]
