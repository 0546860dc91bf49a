"""The journal's part of the command line: what ``replay``, ``resume`` and
``play --resume`` say about a journal, and ``buzzerbox journal check|salvage``.

Kept here so the commands in cli.py only call it: one place decides how a
damaged journal is reported (a ``DAMAGED from line N`` line, exit 1, no
outcome unless asked for the game up to the damage).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from controller.apps.common import UsageError
from controller.box import journal as journal_mod
from controller.box.journal_format import MAX_LINE_BYTES
from controller.box.journal_writer import drop_stale_reserve
from controller.box.media import check_kept
from controller.box.runtime import Box, box_from_journal, replay_finish, replay_record, replay_start
from controller.box.scenario import MAX_SCENARIO_BYTES
from games.files import read_limited
from games.i18n import N_, _, ngettext
from games.rules_version import applied_rules

#: what ``simulate --journal`` promises about its file (translated where shown: the help and the journal line)
DURABILITY_SIMULATE = N_("written as the game runs but never fsynced: a power cut may lose its end; "
                       "play journals are fsynced within 50 ms")


def replay_box(path: str, command: str, until_damage: bool = False) -> tuple[journal_mod.Journal, Box]:
    """Replay a journal for ``command``; says on stderr what the reader
    noticed, and exits 1 on damage unless ``until_damage`` asks for the game
    up to it (and then still says it, on stderr)."""
    try:
        journal = journal_mod.load(path)
        notes = journal.notes()
        if journal.damage and not until_damage:
            raise SystemExit(f"buzzerbox {command}: {path}: {journal.damage}; " + _(
                "no outcome shown: --until-damage replays the {n} records before it, 'buzzerbox journal salvage' "
                "copies them to a new file").format(n=len(journal.records)))
    except (journal_mod.JournalError, LookupError) as exc:
        raise SystemExit(f"buzzerbox {command}: {exc}") from None
    box = _replayed(journal, None, command)
    session = journal.session
    if session is not None:
        notes += rules_notes(path, box, session.rules)
    if journal.damage:
        print(_("outcome up to the damage only: {path}: {damage}").format(path=path, damage=journal.damage), file=sys.stderr)
    for note in notes:
        print(_("note: {note}").format(note=note), file=sys.stderr)
    return journal, box


def rules_notes(path: str, box: Box, played: int) -> list[str]:
    """What a replay says about the rules it applied, when they are not today's
    or not the ones the journal was played with."""
    spec, applied = box.spec, applied_rules(box.spec, box.settings)
    if applied == played == spec.rules_version:
        return []
    said = {"path": path, "title": _(spec.title), "played": played, "applied": applied, "today": spec.rules_version}
    if applied == played:
        return [_("{path}: played under {title} rules {played}; replayed under those rules "
                  "(new games play rules {today})").format(**said)]
    if applied == spec.rules_version:
        return [_("{path}: played under {title} rules {played}; this box plays rules {applied}: the outcome "
                  "shown is what today's rules make of the same presses").format(**said)]
    return [_("{path}: played under {title} rules {played}; this box replays rules {applied}, the oldest it "
              "keeps: the outcome shown is what rules {applied} make of the same presses").format(**said)]


def _replayed(journal: journal_mod.Journal, writer: journal_mod.JournalWriter | None, command: str) -> Box:
    """The box a journal rebuilds; a record the game cannot take is one line."""
    try:
        return box_from_journal(journal, writer)
    except (journal_mod.JournalError, LookupError) as exc:
        if writer is not None:
            writer.close()
        raise SystemExit(f"buzzerbox {command}: {journal.path}: {exc}") from None


def resume_for_simulate(path: str) -> tuple[journal_mod.Journal, Box]:
    """``resume``: a simulated game, continued by bots."""
    try:
        if journal_mod.read(path).header.get("mode") == "play":  # look before touching the file
            raise SystemExit("buzzerbox resume: live games resume with 'buzzerbox play GAME --profile P --resume FILE'")
        journal, writer = journal_mod.resume(path, fsync=False)
    except (journal_mod.JournalError, LookupError) as exc:
        raise SystemExit(f"buzzerbox resume: {exc}") from None
    return journal, _replayed(journal, writer, "resume")


def looks_like_scenario(path: str) -> bool:
    """A whole-file JSON object with a game and steps: a scenario given where
    a journal was wanted (journals are one record per line)."""
    try:
        data = json.loads(read_limited(path, MAX_SCENARIO_BYTES, N_("scenario")))
    except (ValueError, RecursionError):  # unreadable or not a file, not JSON, nested past reading
        return False
    return isinstance(data, dict) and "game" in data and "steps" in data and "type" not in data


def looks_like_journal(path: str) -> bool:
    """The first line is a journal's session header."""
    try:
        first = json.loads(read_limited(path, MAX_LINE_BYTES, N_("journal"), head=True).split(b"\n", 1)[0])
    except (ValueError, RecursionError):  # unreadable or not a file, not JSON, nested past reading
        return False
    return isinstance(first, dict) and "game" in first and "mode" in first and "steps" not in first


def not_a_scenario(path: str) -> None:
    if looks_like_scenario(path):
        raise UsageError(_("{file} is a scenario file, not a journal: `buzzerbox scenario {file}` runs it")
                         .format(file=path))


def cmd_check(args: argparse.Namespace) -> int:
    try:
        journal = checked(args.file)
    except (journal_mod.JournalError, LookupError) as exc:
        said = str(exc)  # most problems name the file already: say it once
        print(f"FAIL {said}" if args.file in said else f"FAIL {args.file}: {said}", file=sys.stderr)
        return 1
    s = journal.session
    assert s is not None
    for note in ([str(journal.damage)] if journal.damage else []) + journal.notes():
        print(note, file=sys.stderr)
    state = _("ended") if journal.ended else _("interrupted (no end record)")
    if journal.damage:  # the end record, if any, lies past the damage: how it ended cannot be told
        state = _("ended after the damage") if end_after_damage(journal) else _("no end record after the damage")
    if journal.unsaved_lines and not journal.damage:
        state = _("{n} records waiting in the .unsaved file beside it").format(n=journal.unsaved_lines)
    # the verdict word stays as it is (scripts read it); what follows is for a person
    verdict = "DAMAGED" if journal.damage else "INCOMPLETE" if journal.unsaved_lines else "OK"
    print(f"{verdict} {args.file}: " + _("{game}, {players} players, format {version}, {records} good records, {state}")
          .format(game=s.game, players=s.settings.players, version=s.version, records=journal.count, state=state))
    room = drop_stale_reserve(Path(args.file))  # no writer holds it: nothing else would ever free it
    if room is not None:
        print(_("{path}: removed {reserve}, the room its writer kept for its close (it was stopped before it)")
              .format(path=args.file, reserve=room.name), file=sys.stderr)
    whole, media_problems = check_kept(s.settings, Path(args.file))
    for line in media_problems:  # the journal reads, but a copy its questions show is gone or changed
        print(line)
    if whole:
        print(ngettext("{n} picture or clip kept beside it is whole", "{n} pictures and clips kept beside it are whole",
                       whole).format(n=whole))
    return 1 if journal.damage or journal.unsaved_lines or media_problems else 0


def checked(path: str) -> journal_mod.Journal:
    """Read a journal as it streams and hand each record to the game as it is read,
    so the game takes every record (not just the format) while memory stays flat in
    the file's size: nothing is kept but the box's newest presses and events."""
    boxes: list[Box] = []

    def each(journal: journal_mod.Journal, line: int, record: journal_mod.Record) -> None:
        if not boxes:
            boxes.append(replay_start(journal))
            boxes[0].bound_logs()
        replay_record(boxes[0], line, record)

    journal = journal_mod.load(path, each=each)
    replay_finish(boxes[0] if boxes else replay_start(journal), journal)
    return journal


def end_after_damage(journal: journal_mod.Journal) -> bool:
    """The file's last line is an end record (read as plain JSON, not trusted): the
    game was closed, but the damage lies before that."""
    if journal.path is None:
        return False
    try:
        with open(journal.path, "rb") as f:
            f.seek(max(0, journal.path.stat().st_size - 4096))
            last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
        return b'"type":"end"' in last
    except OSError:
        return False


def cmd_salvage(args: argparse.Namespace) -> int:
    try:
        journal, target = journal_mod.salvage(args.file, args.out)
    except journal_mod.JournalError as exc:
        raise SystemExit(f"buzzerbox journal salvage: {exc}") from None
    count = len(journal.records)
    print(ngettext("{count} good record of {file} copied to {target}", "{count} good records of {file} copied to {target}",
                   count).format(count=count, file=args.file, target=target)
          + (_(" (stopped at {damage})").format(damage=journal.damage) if journal.damage else "")
          + _("; {file} is unchanged").format(file=args.file))
    return 0


def add_journal_commands(sub: Any) -> None:
    journal = sub.add_parser("journal", help=_("check a journal, or salvage the good part of a damaged one"))
    actions = journal.add_subparsers(dest="journal_command", required=True, metavar="ACTION")
    p = actions.add_parser("check", help=_("verify every line's checksum and field; exit 1 if damaged"))
    p.add_argument("file")
    p.set_defaults(func=cmd_check)
    p = actions.add_parser("salvage", help=_("copy the records before the first damage to a new file"))
    p.add_argument("file")
    p.add_argument("--out", help=_("where to write (default: NAME.salvaged.jsonl beside it)"))
    p.set_defaults(func=cmd_salvage)
