"""Files that are not what they claim: a pipe, a device or a folder given as a
journal, pack, scenario or profile; a journal whose version was lowered to
switch its checksums off; a resumed game that had ended; a changed final newline."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from controller.box.journal import load
from games.files import FileRefused, read_limited
from tests.journal.conftest import lines_of, run

ROOT = Path(__file__).resolve().parents[2]
#: a guard against a reader that blocks, not a bound on speed: a refusal takes milliseconds
HANG_GUARD_S = 120


def buzzerbox(*argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.run([sys.executable, "-m", "controller", *argv], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL)


COMMANDS = {
    "replay": ("replay", "{f}"),
    "journal check": ("journal", "check", "{f}"),
    "journal salvage": ("journal", "salvage", "{f}"),
    "results": ("results", "{f}"),
    "resume": ("resume", "{f}"),
    "pack check": ("pack", "check", "{f}"),
    "scenario": ("scenario", "{f}"),
    "wiring check": ("wiring", "check", "{f}"),
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_named_pipe_is_refused_in_one_line_never_waited_on(tmp_path: Path, command: str) -> None:
    fifo = tmp_path / "given.jsonl"
    os.mkfifo(fifo)
    done = buzzerbox(*(a.format(f=fifo) for a in COMMANDS[command]))
    assert done.returncode in (1, 2), done
    lines = [line for line in done.stderr.splitlines() + done.stdout.splitlines() if line.strip()]
    assert "Traceback" not in done.stderr
    assert any("named pipe" in line for line in lines), lines
    assert len(done.stderr.strip().splitlines()) <= 2, done.stderr


@pytest.mark.parametrize(("path", "kind"), [("/dev/zero", "a device"), ("/tmp", "a folder")])
def test_a_device_that_never_ends_and_a_folder_are_refused(path: str, kind: str) -> None:
    with pytest.raises(FileRefused) as refused:
        read_limited(path, 1000, "journal")
    assert kind in refused.value.problem and "; " in refused.value.problem


def test_each_reader_has_a_size_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.csv"
    big.write_bytes(b"x" * 2001)
    with pytest.raises(FileRefused, match="larger than 2 kB, too large for a question pack; split it"):
        read_limited(big, 2000, "question pack", too_large="split it")
    assert read_limited(big, 10, "journal", head=True) == b"x" * 10
    assert read_limited(big, 2001, "question pack") == b"x" * 2001


def _rewrite_line_one(data: bytes, old: bytes, new: bytes) -> bytes:
    first, rest = data.split(b"\n", 1)
    assert old in first
    return first.replace(old, new, 1) + b"\n" + rest


def test_lowering_the_version_does_not_switch_the_checksums_off(
        tmp_path: Path, quiz_journal: tuple[bytes, dict], capsys: pytest.CaptureFixture[str]) -> None:
    data, _summary = quiz_journal
    path = tmp_path / "downgraded.jsonl"
    lines = lines_of(_rewrite_line_one(data, b'"version":2', b'"version":1'))
    # and one station digit changed further down, which format 1 could not see
    index = next(i for i, line in enumerate(lines) if b'"station":1' in line)
    lines[index] = lines[index].replace(b'"station":1', b'"station":2', 1)
    path.write_bytes(b"".join(lines))
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code != 0 and "header says format 1" in err, (out, err)
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 1 and "header says format 1" in err


def test_a_rewritten_v1_header_over_checksummed_lines_is_damage(
        tmp_path: Path, quiz_journal: tuple[bytes, dict], capsys: pytest.CaptureFixture[str]) -> None:
    data, _summary = quiz_journal
    first, rest = data.split(b"\n", 1)
    header = first.split(b',"sum":')[0].replace(b'"seq":0,', b"").replace(b'"version":2', b'"version":1') + b"}"
    path = tmp_path / "v1-header.jsonl"
    path.write_bytes(header + b"\n" + rest)
    journal = load(path)
    assert journal.damage is not None and journal.damage.line == 2, journal.damage
    assert "header says format 1" in journal.damage.problem
    code, _out, err = run(capsys, "journal", "check", str(path))
    assert code == 1 and "DAMAGED from line 2" in err


def test_an_ended_game_is_not_resumed(tmp_path: Path, quiz_journal: tuple[bytes, dict],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    data, _summary = quiz_journal
    path = tmp_path / "ended.jsonl"
    path.write_bytes(data)
    code, _out, err = run(capsys, "resume", str(path))
    assert code == 1 and "has ended" in err and "nothing to resume" in err
    assert path.read_bytes() == data  # no second end record


def test_a_changed_final_newline_is_one_damaged_byte_not_a_power_cut(
        tmp_path: Path, quiz_journal: tuple[bytes, dict], capsys: pytest.CaptureFixture[str]) -> None:
    data, _summary = quiz_journal
    assert data.endswith(b"\n")
    path = tmp_path / "flipped.jsonl"
    path.write_bytes(data[:-1] + b"\x0b")
    journal = load(path)
    whole = load_bytes(tmp_path, data)
    assert not journal.torn_tail
    assert journal.ended and len(journal.records) == len(whole.records)
    assert journal.damage is not None and "0x0b where its newline was due" in journal.damage.problem
    code, _out, err = run(capsys, "journal", "check", str(path))
    assert code == 1 and "power loss" not in err and "newline" in err
    code, _out, _err = run(capsys, "journal", "salvage", str(path))
    assert code == 0
    assert (tmp_path / "flipped.salvaged.jsonl").read_bytes() == data


def load_bytes(tmp_path: Path, data: bytes):  # type: ignore[no-untyped-def]
    path = tmp_path / "whole.jsonl"
    path.write_bytes(data)
    return load(path)


def full_disk(path: Path) -> None:
    """``path`` a file every write to fails with "No space left on device": a device node
    of /dev/full's own, so its own lock (the journal is flocked: two test runs at once that
    both wrote /dev/full itself refused each other's journal as being written by another
    buzzerbox); a link to /dev/full where this user may not make one."""
    try:
        os.mknod(path, 0o600 | stat.S_IFCHR, os.stat("/dev/full").st_rdev)
        os.close(os.open(path, os.O_WRONLY))  # not on a filesystem mounted nodev
    except PermissionError:
        path.unlink(missing_ok=True)
        path.symlink_to("/dev/full")


def test_a_full_disk_is_a_failure_and_keeps_every_record_beside_the_journal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    full = tmp_path / "q.jsonl"
    full_disk(full)  # every write: "No space left on device"
    code, _out, err = run(capsys, "simulate", "quiz", "--players", "3", "--seed", "2", "--journal", str(full))
    assert code == 1, err
    assert "the disk refused the last" in err and "free some space" in err
    aside = tmp_path / "q.jsonl.unsaved"
    kept = tmp_path / "kept.jsonl"
    kept.write_bytes(aside.read_bytes())  # the aside file is the whole journal, checksums and all
    journal = load(kept)
    assert journal.damage is None and journal.ended
    reference = tmp_path / "reference.jsonl"
    assert run(capsys, "simulate", "quiz", "--players", "3", "--seed", "2", "--journal", str(reference))[0] == 0
    assert len(journal.records) == len(load(reference).records)


def test_unsaved_records_are_named_by_check_and_written_back_by_resume(
        tmp_path: Path, quiz_journal: tuple[bytes, dict], capsys: pytest.CaptureFixture[str]) -> None:
    data, _summary = quiz_journal
    lines = lines_of(data)
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"".join(lines[:5]))
    (tmp_path / "q.jsonl.unsaved").write_bytes(b"".join(lines[5:]))
    code, out, err = run(capsys, "journal", "check", str(path))
    assert code == 1 and out.startswith("INCOMPLETE") and ".unsaved" in err, (out, err)
    code, _out, err = run(capsys, "resume", str(path))
    assert path.read_bytes() == data  # every record back, in order, chain unbroken
    assert code == 1 and "has ended" in err  # the write-back brought its end record too
    assert (tmp_path / "q.jsonl.unsaved.written-back").read_bytes() == b"".join(lines[5:])
    code, out, _err = run(capsys, "journal", "check", str(path))
    assert code == 0 and out.startswith("OK")


def test_unsaved_records_that_do_not_continue_the_journal_are_refused(
        tmp_path: Path, quiz_journal: tuple[bytes, dict], capsys: pytest.CaptureFixture[str]) -> None:
    data, _summary = quiz_journal
    lines = lines_of(data)
    path = tmp_path / "q.jsonl"
    path.write_bytes(b"".join(lines[:5]))
    (tmp_path / "q.jsonl.unsaved").write_bytes(b"".join(lines[6:]))  # one record missing between them
    code, _out, err = run(capsys, "resume", str(path))
    assert code == 1 and "does not continue" in err
    assert path.read_bytes() == b"".join(lines[:5])


@pytest.mark.parametrize(("lang", "said"), [("cs", "deník"), ("pl", "dziennika")])
def test_a_journal_that_cannot_be_created_is_said_in_the_box_s_language(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], lang: str, said: str) -> None:
    """On a Czech or Polish box the one line about a journal folder that cannot be made is
    in that language (it was English whatever the language)."""
    blocked = tmp_path / "file"
    blocked.write_text("")
    code, _out, err = run(capsys, "--lang", lang, "simulate", "quiz", "--players", "3",
                          "--journal", str(blocked / "q.jsonl"))
    assert code != 0 and said in err and "cannot create" not in err, err
