"""The journal: an append-only JSONL record of a session.

The first line holds what the engine was started with; every later line is an
input the engine saw (press, host or player action, a tick that changed
something) in the order it saw them. Replaying the lines rebuilds the exact
state: that is how the box resumes after a power cut and how a dispute is
settled. Lines are flushed as written; presses and host actions are also
fsync'ed, so a power cut loses at most a torn last line, which reading
tolerates.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from games.base import BuzzerBoxError

log = logging.getLogger("buzzerbox.journal")

FORMAT_VERSION = 1
SYNCED_TYPES = {"session", "press", "host", "action", "end"}


class JournalError(BuzzerBoxError, ValueError):
    """A journal that cannot be replayed; the message names the line."""


class JournalWriter:
    def __init__(self, path: str | Path, fsync: bool = True) -> None:
        self.path = Path(path)
        self.fsync = fsync
        self._file: IO[str] = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the session

    @classmethod
    def create(cls, path: str | Path, header: dict[str, Any], fsync: bool = True) -> JournalWriter:
        p = Path(path)
        if p.exists() and p.stat().st_size > 0:
            raise JournalError(f"{p} already holds a session: use 'buzzerbox resume {p}' or choose a new file")
        p.parent.mkdir(parents=True, exist_ok=True)
        writer = cls(p, fsync)
        writer.write({"type": "session", "version": FORMAT_VERSION, **header})
        return writer

    def write(self, record: dict[str, Any]) -> None:
        self._file.write(json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n")
        self._file.flush()
        if self.fsync and record.get("type") in SYNCED_TYPES:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


@dataclass
class Journal:
    header: dict[str, Any]
    records: list[dict[str, Any]]
    torn_tail: bool = False
    path: Path | None = None

    @property
    def last_t_us(self) -> int:
        for record in reversed(self.records):
            if "t_us" in record:
                return int(record["t_us"])
        return int(self.header.get("t_us", 0))


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    with open(path, encoding="utf-8", errors="replace") as f:
        yield from enumerate(f, start=1)


def read(path: str | Path) -> Journal:
    """Read a journal; a torn last line (power cut mid-write) is dropped with a
    warning, a damaged line anywhere else is an error naming it."""
    p = Path(path)
    if not p.exists():
        raise JournalError(f"no journal at {p}: give the path 'simulate --journal' or 'play' wrote")
    entries = list(_lines(p))
    records: list[dict[str, Any]] = []
    torn = False
    for i, (number, line) in enumerate(entries):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            last = i == len(entries) - 1
            if last:
                torn = True
                log.warning("%s: line %d is torn (cut by a power loss?); ignoring it", p, number)
                break
            raise JournalError(f"{p}: line {number} is not a journal record ({exc}); the file is damaged there") from exc
        if not isinstance(record, dict) or "type" not in record:
            raise JournalError(f"{p}: line {number} has no 'type'; is this a buzzerbox journal?")
        records.append(record)
    if not records or records[0]["type"] != "session":
        raise JournalError(f"{p}: the first line must be the session header; this is not a buzzerbox journal")
    header = records.pop(0)
    if header.get("version") != FORMAT_VERSION:
        raise JournalError(f"{p}: journal format {header.get('version')} is not {FORMAT_VERSION}")
    return Journal(header=header, records=records, torn_tail=torn, path=p)


def repair(path: str | Path) -> Journal:
    """Read, and cut a torn last line off the file so appending can go on."""
    journal = read(path)
    p = Path(path)
    if journal.torn_tail:
        data = p.read_bytes()
        keep = data.rstrip(b"\n").rfind(b"\n") + 1
        with open(p, "r+b") as f:
            f.truncate(keep)
        log.warning("%s: cut the torn last line off before resuming", p)
    elif not p.read_bytes().endswith(b"\n"):
        # the power went between a whole record and its newline: end the line,
        # or the next record would be glued onto it
        with open(p, "ab") as f:
            f.write(b"\n")
        log.warning("%s: the last record had no newline; added it before resuming", p)
    return journal
