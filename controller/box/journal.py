"""The journal: an append-only JSONL record of a session, that settles disputes.

The first line holds what the engine was started with; every later line is an
input the engine saw (press, host or player action, a tick that changed
something) in the order it saw them. Replaying the lines rebuilds the exact
state: that is how the box resumes after a power cut and how a dispute is
settled. Every line carries a sequence number and a checksum chained to the
line before it, so a changed, removed, inserted or duplicated line is found and
named (``journal_format``). Lines are written off the loop thread and fsynced
within a promised time (``journal_writer``; the promise is in docs/journal.md).

This module is what callers use: ``load``/``read`` a file, ``resume`` one
(locked, a torn end cut off and kept aside), ``salvage`` the good part of a
damaged one into a new file, ``check_resume`` a journal against the game about
to continue it, and ``find_interrupted`` games in a folder (the kiosk's resume).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from controller.box.journal_format import (
    FORMAT_VERSION,
    ActionRecord,
    CheckpointRecord,
    Damage,
    EndRecord,
    Journal,
    JournalError,
    NoticeRecord,
    OtherRecord,
    PressRecord,
    Record,
    RecordError,
    SessionHeader,
    TickRecord,
    WallClockRecord,
    load,
    parse_bytes,
    read_unsaved,
    unsaved_path,
)
from controller.box.journal_writer import PROMISE_MS, FileSink, JournalLocked, JournalWriter
from games.files import fsync_dir
from games.i18n import _

__all__ = [
    "FORMAT_VERSION", "PROMISE_MS", "ActionRecord", "CheckpointRecord", "Damage", "EndRecord", "Interrupted", "Journal",
    "JournalError", "JournalLocked", "JournalWriter", "NoticeRecord", "OtherRecord", "PressRecord", "Record",
    "RecordError", "SessionHeader", "TickRecord", "WallClockRecord", "check_resume", "find_interrupted", "load", "read", "repair",
    "resume", "salvage",
]

log = logging.getLogger("buzzerbox.journal")


def read(path: str | Path, *, since_checkpoint: bool = False) -> Journal:
    """Read a journal that must be whole: a torn last line (power cut
    mid-write) is tolerated, damage anywhere is an error naming the line."""
    journal = load(path, since_checkpoint=since_checkpoint)
    _refuse_damage(journal)
    if journal.torn_tail:
        log.warning("%s: the last line is torn (cut by a power loss?); ignoring it", journal.path)
    return journal


def refuse_ended(journal: Journal) -> None:
    """A game that was closed has nothing to continue: appending would write a second end."""
    if journal.ended:
        raise JournalError(f"{journal.path}: " + _("this game has ended (it has its end record): nothing to resume; "
                                                   "'buzzerbox replay' shows it, a new game starts a new journal"))


def _refuse_damage(journal: Journal) -> None:
    if journal.damage:
        raise JournalError(
            f"{journal.path}: {journal.damage}. " + _("It is left as it is; 'buzzerbox journal salvage {path}' copies "
                                                      "the {n} good records to a new file you can resume")
            .format(path=journal.path, n=journal.count))


def _cut_torn_tail(journal: Journal, sink: FileSink) -> None:
    """Only a last line without its newline is torn; its bytes go to a file
    beside the journal (nothing is ever deleted), then the cut is fsynced."""
    assert journal.path is not None
    if journal.torn_tail:
        aside = journal.path.with_name(journal.path.name + ".torn")
        with open(aside, "ab") as f:
            f.write(journal.torn_bytes + b"\n")
            f.flush()
            os.fsync(f.fileno())  # kept aside for sure before it is cut
        sink.truncate(journal.good_bytes)
        sink.sync()
        log.warning("%s: cut off the torn last line (%d bytes, kept in %s) before resuming",
                    journal.path, len(journal.torn_bytes), aside)
    elif journal.missing_newline:
        # the power went between a whole record and its newline: end the line,
        # or the next record would be glued onto it
        sink.write(b"\n")
        sink.sync()
        log.warning("%s: the last record had no newline; added it before resuming", journal.path)


def _write_back_unsaved(journal: Journal, sink: FileSink) -> Journal:
    """The records a refusing disk kept aside at close go back at the journal's
    end, once they are shown to continue its checksum chain; the aside file is
    kept, renamed, so nothing is ever deleted."""
    assert journal.path is not None
    path, aside = journal.path, unsaved_path(journal.path)
    lines = read_unsaved(path)
    whole = parse_bytes(path.read_bytes() + lines, path)
    if whole.damage or whole.torn_tail:
        raise JournalError(_("{aside} does not continue {path} ({problem}); both are left as they are: "
                             "'buzzerbox journal check' both").format(
            aside=aside, path=path, problem=whole.damage or _("its last line is cut")))
    written = 0
    while written < len(lines):
        written += sink.write(lines[written:])
    sink.sync()
    aside.rename(aside.with_name(aside.name + ".written-back"))
    log.warning("%s: wrote back the %d records the disk had refused (from %s)", path, journal.unsaved_lines, aside)
    return whole


def resume(path: str | Path, fsync: bool = True, *, threaded: bool | None = None,
           carry_on: bool = False, since_checkpoint: bool = False,
           checked: bool = False) -> tuple[Journal, JournalWriter]:
    """Lock a journal, check it, cut a torn end, and open it for appending.
    Raises JournalLocked (naming the pid) if another writer has it, and
    JournalError for a damaged journal, which is never changed. ``carry_on``:
    a game the host ended (Esc) goes on after its end record (the next end
    closes it again; a replay reads through both). ``since_checkpoint``: the
    journal keeps only its newest checkpoint and what follows (``load``);
    every line's chain is checked all the same, unless ``checked`` says the lines
    before the newest checkpoint were checked already (``load``: found from the end)."""
    p = Path(path)
    if not p.is_file():
        load(p)  # the one-line error for a missing file or a folder
    try:
        sink = FileSink(p)
    except OSError as exc:
        raise JournalError(_("cannot open {path} to continue it: {problem}").format(
            path=p, problem=exc.strerror or exc)) from None
    try:
        journal = load(p, since_checkpoint=since_checkpoint, checked=checked)  # under the lock: nobody appends meanwhile
        _refuse_damage(journal)
        if not journal.unsaved_lines and not carry_on:
            refuse_ended(journal)
        _cut_torn_tail(journal, sink)
        if journal.unsaved_lines:
            journal = _write_back_unsaved(journal, sink)
            if not carry_on:
                refuse_ended(journal)
        writer = JournalWriter(p, fsync, threaded=threaded, sink=sink, state=journal)
    except BaseException:
        sink.close()
        raise
    return journal, writer


def repair(path: str | Path) -> Journal:
    """Kept for callers that repair, then open ``JournalWriter(path)``:
    cut a torn last line (under the lock), refuse a damaged journal."""
    journal, writer = resume(path, threaded=False)
    writer.close()
    return journal


def salvage(path: str | Path, out: str | Path | None = None) -> tuple[Journal, Path]:
    """Copy the good records of a damaged journal, byte for byte (so their
    checksums still hold), into a new file. The damaged file is not touched."""
    journal = load(path)
    assert journal.path is not None
    target = Path(out) if out else journal.path.with_name(journal.path.stem + ".salvaged.jsonl")
    if target.exists():
        raise JournalError(_("{target} exists already: give another --out").format(target=target))
    good = journal.path.read_bytes()[: journal.good_bytes]
    if not good.endswith(b"\n"):
        good += b"\n"
    with open(target, "xb") as f:
        f.write(good)
        f.flush()
        os.fsync(f.fileno())
    fsync_dir(target)
    return journal, target


def check_resume(
    journal: Journal,
    game: str,
    players: int | None = None,
    station_kinds: Sequence[str] | None = None,
    profile: str | None = None,
) -> list[str]:
    """What differs between a journal and the game about to continue it,
    one line each; empty when they match."""
    session = journal.session
    assert session is not None
    out = []
    if session.game != game:
        out.append(_("the journal is a {journaled} game, not {game}").format(journaled=session.game, game=game))
    if players is not None and session.settings.players != players:
        out.append(_("the journal has {players} players, the profile {stations} stations").format(
            players=session.settings.players, stations=players))
    if station_kinds is not None and session.stations is not None and list(session.stations) != list(station_kinds):
        out.append(_("station kinds differ: journal {journaled}, profile {profile}").format(
            journaled=list(session.stations), profile=list(station_kinds)))
    if profile is not None and session.profile is not None and session.profile != profile:
        out.append(_("the journal was played on profile {journaled!r}, not {profile!r}").format(
            journaled=session.profile, profile=profile))
    return out


@dataclass(frozen=True)
class Interrupted:
    """A game in a journal folder that never wrote its end record."""

    path: Path
    game: str
    mode: str | None
    profile: str | None
    players: int
    records: int
    last_t_us: int
    modified: float
    damage: Damage | None
    torn_tail: bool


def find_interrupted(folder: str | Path) -> list[Interrupted]:
    """Journals in ``folder`` without an end record, newest first: what a
    kiosk offers to continue after a power cut. Unreadable files are skipped."""
    out = []
    for path in Path(folder).glob("*.jsonl"):
        try:
            journal = load(path)
            modified = path.stat().st_mtime
        except (JournalError, OSError):
            continue
        if journal.ended or journal.session is None:
            continue
        s = journal.session
        out.append(Interrupted(path, s.game, s.mode, s.profile, s.settings.players, journal.count,
                               journal.last_t_us, modified, journal.damage, journal.torn_tail))
    return sorted(out, key=lambda i: i.modified, reverse=True)


def damage_json(journal: Journal) -> dict[str, Any]:
    """Added to a replay's JSON when it shows a damaged journal's outcome."""
    if journal.damage is None:
        return {}
    return {"damaged": {"line": journal.damage.line, "problem": journal.damage.problem,
                        "records_replayed": len(journal.records)}}
