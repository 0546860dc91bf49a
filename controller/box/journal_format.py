"""The journal's file format: typed records, the checksum chain, and a reader
that never trusts a byte.

Format 2 (written since this module exists): one JSON object per line, keys
sorted, ASCII only. Every line carries ``seq`` (0 for the session header, then
1, 2, ...) and ends with ``"sum":"<16 hex>"``: the first 64 bits of
SHA-256(previous line's sum + this line without its sum). So an altered,
removed, inserted or duplicated line breaks the chain at that line, and the
reader names it. Format 1 (no seq, no sum) is still read, but can only be
checked field by field.

The reader's one rule: nothing in a file may raise anything but a
``JournalError`` whose message names the line and the field. Damage stops the
reading there; what came before is kept and usable ("the game up to line N"),
and the caller decides whether to show it.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import math
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, BinaryIO

from controller.box.debounce import DebounceConfig
from controller.box.press import InputNotice, NoticeKind, Press
from games.base import Action, BuzzerBoxError, GameSettings
from games.files import FileRefused, open_limited, read_limited
from games.i18n import N_, _, format_number, ngettext

FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)
CHAIN_START = "buzzerbox-journal-2"
SUM_HEX = 16
_SUM_PREFIX = b',"sum":"'
_SUM_TAIL = len(_SUM_PREFIX) + SUM_HEX + 2  # ,"sum":"<hex>"}
#: a whole night at the busiest table is a few MB; a file far past this is not a journal
MAX_JOURNAL_BYTES = 512 * 1024 * 1024
MAX_LINE_BYTES = 1 << 20  # a header with a custom question deck fits; a runaway line does not
#: a checkpoint line (a long game's state) may be longer; it is parsed only once its checksum holds
MAX_CHECKPOINT_LINE_BYTES = 32 << 20
MAX_DEPTH = 24
MAX_INT = 2**63 - 1
MAX_NAME = 200
MAX_PLAYERS = 64


class JournalError(BuzzerBoxError, ValueError):
    """A journal that cannot be replayed (or written); the message names the line."""


#: arguments of a record problem that are themselves texts of the box (marked ``N_``), worded too
_WORDS = frozenset({"what", "problem"})


def _worded(translate: Any, reason: str, arguments: Mapping[str, Any]) -> str:
    """``reason`` through ``translate`` (``_`` for a reader, ``str`` for English) with its
    arguments put in; the record's name and the nested problem are translated as well."""
    inner = {k: translate(v).format(**arguments) if k in _WORDS and isinstance(v, str) else v
             for k, v in arguments.items()}
    try:
        return str(translate(reason).format(**inner))
    except (KeyError, IndexError, ValueError):  # a damaged translation: the English line, never a crash
        return reason if translate is str else _worded(str, reason, arguments)


class RecordError(JournalError):
    """One record with a field that is missing, of the wrong type or impossible."""

    def __init__(self, line: int, reason: str, /, **arguments: Any) -> None:
        self.line = line
        #: a message id (marked ``N_``) and its arguments: each reader words it in its language
        self.reason = reason
        self.arguments = arguments
        self.problem = _worded(str, reason, arguments)  # English, for logs and JSON
        super().__init__(f"line {line}: {self.problem}")

    def said(self) -> str:
        """The problem in the current language (the file's own names and values stay as written)."""
        return _worded(_, self.reason, self.arguments)

    def __str__(self) -> str:
        return _("line {line}: {problem}").format(line=self.line, problem=self.said())


# -- typed records ---------------------------------------------------------------------
@dataclass(frozen=True)
class SessionHeader:
    """Line 1: everything the engine and the box were started with."""

    game: str
    settings: GameSettings
    version: int = FORMAT_VERSION
    stations: tuple[str, ...] | None = None  # station kinds
    station_names: tuple[str, ...] | None = None
    debounce: DebounceConfig | None = None
    mode: str | None = None  # "play", "simulate", "menu" ...
    profile: str | None = None
    #: the game's rules version it was played under (journals before it: 1)
    rules: int = 1
    #: how the box told late evidence from a late press it could still play
    #: (``runtime.LATE_RULE_KEY``; journals before it: None)
    late_rule: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)  # keys a newer box added


@dataclass(frozen=True)
class PressRecord:
    """A debounced press as the engine got it; ``at_us`` is box time when it was handed over."""

    press: Press
    at_us: int | None = None
    type = "press"

    @property
    def t_us(self) -> int:
        return self.press.t_us


@dataclass(frozen=True)
class ActionRecord:
    """A host action (player None) or a player's action that was not a station press."""

    action: Action

    @property
    def type(self) -> str:
        return "host" if self.action.player is None else "action"

    @property
    def t_us(self) -> int:
        return self.action.t_us


@dataclass(frozen=True)
class TickRecord:
    """Time passed up to ``t_us`` and the engine did something (a timeout)."""

    t_us: int
    type = "tick"


@dataclass(frozen=True)
class NoticeRecord:
    """Stuck, released, a board that went away: the strip's state."""

    notice: InputNotice
    type = "notice"

    @property
    def t_us(self) -> int:
        return self.notice.t_us


@dataclass(frozen=True)
class EndRecord:
    """The game was closed on purpose; a journal without one was interrupted."""

    t_us: int
    type = "end"


#: how a wall-clock record writes its UTC time: ISO 8601, microseconds, ``Z``
UTC_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


@dataclass(frozen=True)
class WallClockRecord:
    """The UTC wall time the box's timeline stood at ``t_us``, written when the
    box (re)starts its timeline (a new game after its roll call, a resumed one),
    so a press's wall time is ``utc + (press t_us - t_us)`` (``Journal.wall_time``).

    Informational only, for people and exports (a QBJ buzz's ``time``): the wall
    clock may be wrong, unset or stepped by NTP, so the box never orders or decides
    by it (it decides by the µs stamps of its monotonic timeline), and replay skips it."""

    t_us: int
    utc: datetime  # aware, in UTC
    type = "wall_clock"

    def utc_text(self) -> str:
        return self.utc.astimezone(timezone.utc).strftime(UTC_FORMAT)


@dataclass(frozen=True)
class CheckpointRecord:
    """The game's replayable state after every record before it (``controller.box.checkpoint``'s
    codec, checksummed and chained like every line), so a restarted box replays only
    what follows the newest one. Replay, results and disputes read past it: they need
    every press. ``t_us``: the box's time when it was taken."""

    t_us: int
    state: Mapping[str, Any]
    type = "checkpoint"


@dataclass(frozen=True)
class OtherRecord:
    """A record type this reader does not replay (written by a newer box);
    kept so nothing is lost, and listed so nothing is silently ignored."""

    type: str
    data: Mapping[str, Any]

    @property
    def t_us(self) -> int:
        value = self.data.get("t_us")
        return value if type(value) is int else 0


Record = (PressRecord | ActionRecord | TickRecord | NoticeRecord | EndRecord | WallClockRecord | CheckpointRecord
          | OtherRecord)


def record_to_json(record: Record | Mapping[str, Any]) -> dict[str, Any]:
    """The dict a record is written as (without seq and sum)."""
    if isinstance(record, Mapping):
        return dict(record)
    if isinstance(record, PressRecord):
        out = {"type": "press", **record.press.to_json()}
        if record.at_us is not None:
            out["at_us"] = record.at_us
        return out
    if isinstance(record, ActionRecord):
        return {"type": record.type, **record.action.to_json()}
    if isinstance(record, NoticeRecord):
        n = record.notice
        return {"type": "notice", "station": n.station, "input": n.input, "kind": n.kind, "t_us": n.t_us}
    if isinstance(record, TickRecord | EndRecord):
        return {"type": record.type, "t_us": record.t_us}
    if isinstance(record, WallClockRecord):
        return {"type": record.type, "t_us": record.t_us, "utc": record.utc_text()}
    if isinstance(record, CheckpointRecord):
        return {"type": record.type, "t_us": record.t_us, "state": record.state}
    return {**record.data, "type": record.type}


def header_to_json(header: SessionHeader) -> dict[str, Any]:
    out: dict[str, Any] = {**header.extra, "type": "session", "version": header.version, "game": header.game,
                           "settings": header.settings.to_json()}
    if header.rules != 1:
        out["rules"] = header.rules
    if header.stations is not None:
        out["stations"] = list(header.stations)
    if header.station_names is not None:
        out["station_names"] = list(header.station_names)
    if header.debounce is not None:
        out["debounce"] = {f.name: getattr(header.debounce, f.name) for f in fields(header.debounce)}
    if header.mode is not None:
        out["mode"] = header.mode
    if header.profile is not None:
        out["profile"] = header.profile
    if header.late_rule is not None:
        out["late_rule"] = header.late_rule
    return out


# -- the line codec --------------------------------------------------------------------
def chain_sum(previous: str, body: bytes) -> str:
    return hashlib.sha256(previous.encode("ascii") + body).hexdigest()[:SUM_HEX]


def encode_line(record: Mapping[str, Any], seq: int, previous: str) -> tuple[bytes, str]:
    """One format-2 line (with its newline) and its sum, the next line's ``previous``."""
    body = json.dumps({**record, "seq": seq}, separators=(",", ":"), sort_keys=True, allow_nan=False).encode("ascii")
    digest = chain_sum(previous, body)
    return body[:-1] + _SUM_PREFIX + digest.encode("ascii") + b'"}\n', digest


def encode_v1_line(record: Mapping[str, Any]) -> bytes:
    """A format-1 line: appending to a version-1 journal keeps its format."""
    return (json.dumps(dict(record), separators=(",", ":"), sort_keys=True, allow_nan=False) + "\n").encode("ascii")


class _BadNumber(ValueError):
    """A number JSON can write but a journal cannot hold: a message id and its
    arguments, worded by each reader in its language (as RecordError is)."""

    def __init__(self, reason: str, /, **arguments: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.arguments = arguments


def _reject_constant(name: str) -> Any:
    raise _BadNumber(N_("{name} is not a number a journal can hold; the file is damaged there"), name=name)


def _checked_int(text: str) -> int:
    if len(text.lstrip("-")) > 19:
        raise _BadNumber(N_("a {digits}-digit number is not a time, station or count; the file is damaged there"),
                         digits=len(text))
    return int(text)


def _checked_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(N_("{number} does not fit in a number; the file is damaged there"), number=text[:20])
    return value


def _depth_ok(value: Any) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return True


def parse_json(text: str, line: int, state: bool = False) -> dict[str, Any]:
    """JSON with every hazard turned into a RecordError: NaN, 1e400, 5,000
    digits, 100,000 nested brackets, not an object. ``state``: a checkpoint's
    line (hundreds of thousands of numbers): its numbers are not checked one
    by one nor its depth walked (the codec takes any int, its nesting is
    shallow, and a decoder error falls back to a full replay)."""
    try:
        if state:
            value = json.loads(text, parse_constant=_reject_constant)
        else:
            value = json.loads(text, parse_constant=_reject_constant, parse_int=_checked_int,
                               parse_float=_checked_float)
    except _BadNumber as exc:
        raise RecordError(line, exc.reason, **exc.arguments) from None
    except RecursionError:
        raise RecordError(line, N_("brackets nested too deep to be a journal record; the file is damaged there")) from None
    except ValueError as exc:  # JSONDecodeError and int-size limits
        raise RecordError(line, N_("not a journal record ({error}); the file is damaged there"), error=str(exc)[:80]) from None
    if not isinstance(value, dict):
        raise RecordError(line, N_("a journal record is a JSON object, not {kind}"), kind=type(value).__name__)
    if not state and not _depth_ok(value):
        raise RecordError(line, N_("values nested deeper than {depth} levels; the file is damaged there"), depth=MAX_DEPTH)
    return value


# -- field checks ------------------------------------------------------------------------
def _short(value: Any) -> str:
    text = json.dumps(value) if isinstance(value, str | int | float | bool | type(None)) else type(value).__name__
    return text if len(text) <= 30 else text[:27] + "..."


class _Fields:
    """Reads one record's fields, each check naming the line, the record and the field."""

    def __init__(self, data: Mapping[str, Any], line: int, what: str, prefix: str = "", kind: str = "") -> None:
        # what: the record's name as a message id ("the {kind} record"), worded by each reader
        self.data, self.line, self.what, self.prefix, self.kind = data, line, what, prefix, kind

    def fail(self, name: str, problem: str, **arguments: Any) -> RecordError:
        return RecordError(self.line, N_("{what}'s '{field}' {problem}"), what=self.what, kind=self.kind,
                           field=self.prefix + name, problem=problem, **arguments)

    def missing(self, name: str) -> RecordError:
        near = difflib.get_close_matches(name, [k for k in self.data if isinstance(k, str)], n=1)
        if near:
            return RecordError(self.line, N_("{what} has no '{field}' (it has '{near}': misspelt?)"), what=self.what,
                               kind=self.kind, field=self.prefix + name, near=self.prefix + near[0])
        return RecordError(self.line, N_("{what} has no '{field}'"), what=self.what, kind=self.kind,
                           field=self.prefix + name)

    def integer(self, name: str, lo: int = -MAX_INT, hi: int = MAX_INT, default: int | None = None) -> int:
        if name not in self.data:
            if default is None:
                raise self.missing(name)
            return default
        value = self.data[name]
        if type(value) is not int:
            raise self.fail(name, N_("is {value}, not a whole number"), value=_short(value))
        if not lo <= value <= hi:
            raise self.fail(name, N_("is {value}, outside {lo}..{hi}"), value=value, lo=lo, hi=hi)
        return value

    def opt_int(self, name: str, lo: int = -MAX_INT, hi: int = MAX_INT) -> int | None:
        if self.data.get(name) is None:
            return None
        return self.integer(name, lo, hi)

    def text(self, name: str, default: str | None = None, limit: int = MAX_NAME) -> str:
        if name not in self.data:
            if default is None:
                raise self.missing(name)
            return default
        value = self.data[name]
        if not isinstance(value, str):
            raise self.fail(name, N_("is {value}, not text"), value=_short(value))
        if len(value) > limit or "\x00" in value:
            raise self.fail(name, N_("is not a name (longer than {limit} characters, or holds a NUL)"), limit=limit)
        return value

    def opt_str(self, name: str) -> str | None:
        return None if self.data.get(name) is None else self.text(name)

    def obj(self, name: str, default: dict[str, Any] | None = None) -> dict[str, Any]:
        if name not in self.data:
            if default is None:
                raise self.missing(name)
            return dict(default)
        value = self.data[name]
        if not isinstance(value, dict):
            raise self.fail(name, N_("is {value}, not a JSON object {{...}}"), value=_short(value))
        return value

    def names(self, name: str, count: int) -> tuple[str, ...] | None:
        if self.data.get(name) is None:
            return None
        value = self.data[name]
        if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= MAX_NAME for v in value):
            raise self.fail(name, N_("is not a list of names"))
        if len(value) != count:
            raise self.fail(name, N_("lists {stations} stations for {players} players"), stations=len(value), players=count)
        return tuple(value)


HEADER_KEYS = {"type", "version", "game", "rules", "settings", "stations", "station_names", "debounce", "mode",
               "profile", "late_rule", "seq", "sum"}


def parse_header(data: Mapping[str, Any], line: int = 1) -> SessionHeader:
    f = _Fields(data, line, N_("the session header"))
    if data.get("type") != "session":
        raise RecordError(line, N_("the first line must be the session header; this is not a buzzerbox journal"))
    version = data.get("version")
    if type(version) is not int:
        raise f.fail("version", N_("is {value}; a journal's version is a whole number, 1 or 2"), value=_short(version))
    if version not in READABLE_VERSIONS:
        raise f.fail("version", N_("is {value}: this buzzerbox reads journal formats 1 and 2; a newer buzzerbox wrote it: "
                                 "update this one"), value=version)
    game = f.text("game", limit=64)
    raw = f.obj("settings")
    s = _Fields(raw, line, N_("the session header"), "settings.")
    players = s.integer("players", 1, MAX_PLAYERS)
    settings = GameSettings(players=players, seed=s.integer("seed", default=0), options=s.obj("options", {}))
    unknown = set(raw) - {"players", "seed", "options"}
    if unknown:
        raise s.fail(sorted(unknown)[0], N_("is not a setting (players, seed, options)"))
    debounce = None
    if data.get("debounce") is not None:
        d = _Fields(f.obj("debounce"), line, N_("the session header"), "debounce.")
        known = {x.name for x in fields(DebounceConfig)}
        for key in d.data:
            if key not in known:
                raise d.fail(key, N_("is not a debounce setting ({known})"), known=", ".join(sorted(known)))
        try:
            debounce = DebounceConfig(**{k: d.integer(k, 0, 10**12) for k in d.data})
        except ValueError as exc:
            raise RecordError(line, N_("the session header's debounce: {error}"), error=str(exc)) from None
    extra = {k: v for k, v in data.items() if k not in HEADER_KEYS}
    if version == 1 and extra:  # a v1 box wrote exactly these keys: anything else is a typo or damage
        key = sorted(extra)[0]
        near = difflib.get_close_matches(key, sorted(HEADER_KEYS), n=1)
        if near:
            raise RecordError(line, N_("the session header has '{key}', which is not a header field (meant '{near}'?)"),
                              key=key, near=near[0])
        raise RecordError(line, N_("the session header has '{key}', which is not a header field"), key=key)
    return SessionHeader(
        game=game, settings=settings, version=version,
        stations=f.names("stations", players), station_names=f.names("station_names", players),
        debounce=debounce, mode=f.opt_str("mode"), profile=f.opt_str("profile"), late_rule=f.opt_str("late_rule"),
        extra=extra,
        rules=f.integer("rules", 1, 10**6, default=1),
    )


RECORD_TYPES = ("press", "host", "action", "tick", "notice", "end")
#: record types a box writes for the record only, never replayed: the input board's
#: lockout lamps that the box's decision overrode, and those of the contests the board
#: ran by itself while no host was there (controller/box/sources/board/lockout.py)
RECORDED_ONLY = frozenset({"lamp", "lockout_box"})


def parse_record(data: Mapping[str, Any], line: int, version: int) -> Record:
    """A typed record from one line's JSON, or a RecordError naming the field."""
    kind = data.get("type")
    if not isinstance(kind, str):
        raise RecordError(line, N_("the record has no 'type' (got {value}); is this a buzzerbox journal?"), value=_short(kind))
    f = _Fields(data, line, N_("the {kind} record"), kind=kind)
    if kind == "press":
        press = Press(station=f.integer("station", -1, MAX_PLAYERS), input=f.text("input", limit=64),
                      t_us=f.integer("t_us"), precision_us=f.integer("precision_us", 0, 10**9, default=1),
                      edges=f.integer("edges", 0, 10**9, default=1),
                      clock=f.opt_str("clock") or "",
                      clock_precision_us=f.integer("clock_precision_us", 0, 10**9, default=0),
                      source_event=f.opt_str("source_event") or "")
        return PressRecord(press, f.opt_int("at_us"))
    if kind in ("host", "action"):
        player = f.opt_int("player", 0, MAX_PLAYERS - 1)
        if kind == "action" and player is None:
            raise f.missing("player")
        if kind == "host" and player is not None:
            raise f.fail("player", N_("is set on a host action"))
        return ActionRecord(Action(kind=f.text("kind", limit=64), t_us=f.integer("t_us"), player=player,
                                   args=f.obj("args", {}), precision_us=f.integer("precision_us", 0, 10**9, default=1)))
    if kind == "tick":
        return TickRecord(f.integer("t_us"))
    if kind == "end":
        return EndRecord(f.integer("t_us"))
    if kind == "notice":
        return NoticeRecord(InputNotice(f.integer("station", -1, MAX_PLAYERS), f.text("input", limit=64),
                                        f.text("kind", limit=64), f.integer("t_us")))
    if kind == "session":
        raise RecordError(line, N_("a second session header: two journals were joined into one file"))
    if kind == WallClockRecord.type and version >= 2:  # format 1 never had it
        t_us, utc = f.integer("t_us"), f.text("utc", limit=40)
        try:
            at = datetime.strptime(utc, UTC_FORMAT).replace(tzinfo=timezone.utc)
        except ValueError:
            raise f.fail("utc", N_("is {value}, not a UTC time like 2026-12-03T09:17:04.123456Z"),
                         value=_short(utc)) from None
        return WallClockRecord(t_us, at)
    if kind == CheckpointRecord.type and version >= 2:
        return CheckpointRecord(f.integer("t_us"), f.obj("state"))
    if version == 1:
        raise RecordError(line, N_("record type {value} is not one of {known}"), value=_short(kind), known=", ".join(RECORD_TYPES))
    return OtherRecord(kind, {k: v for k, v in data.items() if k not in ("seq", "sum")})


# -- reading a whole file -------------------------------------------------------------------
@dataclass(frozen=True)
class Damage:
    """Where a journal stops being trustworthy, and why."""

    line: int
    problem: str  # in English, for logs and JSON
    lines_after: int = 0  # lines kept in the file after the damaged one, not replayed
    #: the problem as a message id and its arguments, worded in the reader's language
    reason: str = ""
    arguments: tuple[tuple[str, Any], ...] = ()

    def said(self) -> str:
        """The problem in the current language."""
        return _worded(_, self.reason, dict(self.arguments)) if self.reason else self.problem

    def __str__(self) -> str:
        rest = ngettext("; {n} more line after it not replayed", "; {n} more lines after it not replayed",
                        self.lines_after).format(n=self.lines_after) if self.lines_after else ""
        return _("DAMAGED from line {line}: {problem}").format(line=self.line, problem=self.said()) + rest


@dataclass
class Journal:
    """What a journal file holds, up to the first damage."""

    header: dict[str, Any]  # line 1 as written (the raw dict, for code that reads keys)
    records: list[Record]
    torn_tail: bool = False  # the last line had no newline and was not a whole record
    path: Path | None = None
    session: SessionHeader | None = None
    damage: Damage | None = None
    record_lines: list[int] = field(default_factory=list)  # line number of each record
    missing_newline: bool = False  # the last line is a whole record whose newline never made it
    torn_bytes: bytes = b""
    good_bytes: int = 0  # length of the file up to the last good record
    next_seq: int = 1
    last_sum: str = CHAIN_START
    unsaved_lines: int = 0  # records a refusing disk left in the .unsaved file beside it
    count: int = 0  # good records, kept in ``records`` or not (before a checkpoint found from the end: by its seq)
    dropped: int = 0  # good records read but not kept (before the newest checkpoint, or handed to ``each``)
    last_record: Record | None = None
    #: the game's last moment (``last_t_us``), kept while reading: the records may not be
    _last_timed_us: int = 0
    _unknown: set[str] = field(default_factory=set)
    _checkpoint_at: int | None = None  # where in ``records`` the newest checkpoint is
    #: times the kernel dropped GPIO edge events while the game was played (its ``lost`` notices)
    lost_edges: int = 0

    def add(self, line: int, record: Record, since_checkpoint: bool = False, each: EachRecord | None = None) -> None:
        """One good record read: kept, or handed to ``each``; ``since_checkpoint``: a
        checkpoint makes the records before it go (it holds what they built)."""
        self.count += 1
        self.last_record = record
        if not isinstance(record, OtherRecord | WallClockRecord):
            self._last_timed_us = record.t_us
        elif isinstance(record, OtherRecord) and record.type not in RECORDED_ONLY:
            self._unknown.add(record.type)
        if isinstance(record, NoticeRecord) and record.notice.kind == NoticeKind.LOST:
            self.lost_edges += 1
        if each is not None:
            self.dropped += 1
            each(self, line, record)
            return
        if isinstance(record, CheckpointRecord):
            if since_checkpoint:
                self.dropped += len(self.records)
                self.records.clear()
                self.record_lines.clear()
            elif self._checkpoint_at is not None:  # only the newest state is ever restored: one in memory
                older = self.records[self._checkpoint_at]
                self.records[self._checkpoint_at] = CheckpointRecord(older.t_us, {})
            self._checkpoint_at = len(self.records)
        self.records.append(record)
        self.record_lines.append(line)

    @property
    def version(self) -> int:
        return self.session.version if self.session else FORMAT_VERSION

    @property
    def last_t_us(self) -> int:
        """The game's last moment: its last input, tick, checkpoint or end (not a wall-clock note)."""
        if self.count:
            return self._last_timed_us
        for record in reversed(self.records):
            if not isinstance(record, OtherRecord | WallClockRecord):
                return record.t_us
        return 0

    def wall_time(self, t_us: int) -> datetime | None:
        """The UTC wall time of box time ``t_us``, by the last wall-clock record
        at or before it (None in a journal written before them, or for a moment
        before the first): for people and exports only, never for deciding."""
        anchor = None
        for record in self.records:
            if isinstance(record, WallClockRecord) and record.t_us <= t_us:
                anchor = record  # the newest: a resumed game's timeline is anchored again
        if anchor is None:
            return None
        try:
            return anchor.utc + timedelta(microseconds=t_us - anchor.t_us)
        except OverflowError:  # a time past the year 9999: no wall time rather than a crash
            return None

    @property
    def ended(self) -> bool:
        if self.count:
            return isinstance(self.last_record, EndRecord)
        return bool(self.records) and isinstance(self.records[-1], EndRecord)

    def numbered(self) -> Iterator[tuple[int, Record]]:
        return zip(self.record_lines, self.records, strict=True)

    def unknown_types(self) -> list[str]:
        kept = {r.type for r in self.records if isinstance(r, OtherRecord) and r.type not in RECORDED_ONLY}
        return sorted(kept | self._unknown)

    def notes(self) -> list[str]:
        """What a person should know before trusting an outcome, one line
        each (damage is said apart, louder)."""
        where = self.path or "journal"
        out = []
        if self.torn_tail:
            out.append(_("{where}: the last line was cut by a power loss (no newline, not a whole record); "
                         "{n} complete records before it").format(where=where, n=self.count))
        if self.unsaved_lines:
            out.append(_("{where}: the disk refused the last {n} records when the game closed; "
                         "they wait in {file} (resume writes them back in)").format(
                where=where, n=self.unsaved_lines, file=unsaved_path(self.path) if self.path else ".unsaved"))
        elif not self.ended and not self.damage:
            out.append(_("{where}: no end record: the game was interrupted at {seconds} s "
                         "(resume continues it)").format(where=where, seconds=format_number(self.last_t_us / 1e6, 3)))
        if self.version == 1:
            out.append(_("{where}: format 1 (no checksums): a changed line cannot be told from a true one")
                       .format(where=where))
        if self.unknown_types():
            out.append(_("{where}: records of type {types} are kept but not replayed "
                         "(written by a newer buzzerbox)").format(where=where, types=", ".join(self.unknown_types())))
        if self.lost_edges:
            out.append(ngettext("{where}: the kernel dropped button edges {n} time while it was played (the inputs' "
                                "reader fell behind): a press may be missing from its outcome",
                                "{where}: the kernel dropped button edges {n} times while it was played (the inputs' "
                                "reader fell behind): a press may be missing from its outcome",
                                self.lost_edges).format(where=where, n=self.lost_edges))
        return out


def unsaved_path(path: Path) -> Path:
    """Where the records a refusing disk kept from a journal wait: beside it,
    one more ``.unsaved`` file; its lines continue the journal's checksum chain."""
    return path.with_name(path.name + ".unsaved")


def _lines(data: bytes) -> Iterator[tuple[int, int, bytes, bool]]:
    """(line number, offset, bytes without newline, had a newline)."""
    start, number = 0, 0
    while start < len(data):
        number += 1
        end = data.find(b"\n", start)
        if end < 0:
            yield number, start, data[start:], False
            return
        yield number, start, data[start:end], True
        start = end + 1


def _check_chain(raw: bytes, data: Mapping[str, Any], line: int, seq: int, previous: str) -> str:
    """The line's sum, if its seq and its place in the chain are right."""
    got = data.get("seq")
    if type(got) is not int:
        raise RecordError(line, N_("the record has no sequence number (seq {value}); format 2 needs one"), value=_short(got))
    if got != seq:
        if got < seq:
            raise RecordError(line, N_("record {got} again where {seq} was due: a line was duplicated or moved"),
                              got=got, seq=seq)
        raise RecordError(line, N_("record {got} where {seq} was due: {removed} line(s) before it were removed"),
                          got=got, seq=seq, removed=got - seq)
    if len(raw) < _SUM_TAIL or raw[-_SUM_TAIL:-SUM_HEX - 2] != _SUM_PREFIX or not raw.endswith(b'"}'):
        raise RecordError(line, N_("the line does not end with its checksum; the file is damaged there"))
    body = raw[:-_SUM_TAIL] + b"}"
    digest = chain_sum(previous, body)
    if raw[-SUM_HEX - 2:-2].decode("ascii", "replace") != digest:
        raise RecordError(line, N_("checksum does not match record {seq}: the line was altered, or a line "
                                   "before it was replaced"), seq=seq)
    return digest


def _refuse_downgrade(data: Mapping[str, Any], line: int) -> None:
    """Format 1 never had sequence numbers or checksums: a "version 1" line that
    carries one is a format-2 journal whose version was changed, which would
    switch its checks off. That is damage, never the old format."""
    if "sum" in data or "seq" in data:
        raise RecordError(line, N_("the line carries a checksum, but the header says format 1 (no checksums): "
                                   "the header's version was changed; the file is not trusted"))


def _whole_but_last_byte(raw: bytes, line: int, seq: int, previous: str,
                         version: int) -> tuple[Record, str] | None:
    """The last line's record and sum if it is whole but for its final byte: a
    changed newline is one damaged byte, not a power cut that lost the record."""
    if len(raw) < 2 or raw.endswith(b"}"):
        return None
    body = raw[:-1]
    try:
        data = parse_json(body.decode("utf-8", "replace"), line)
        return parse_record(data, line, version), _chained(body, data, line, seq, previous, version)
    except RecordError:
        return None


def _other_file_hint(path: Path | None) -> str:
    """What a file given where a journal was wanted may be, by its name."""
    suffix = path.suffix.lower() if path else ""
    if suffix in (".csv", ".json"):
        return "; " + _("a question pack? 'buzzerbox pack check {path}' checks one").format(path=path)
    if suffix == ".toml":
        return "; " + _("a wiring profile? 'buzzerbox wiring check {path}' checks one").format(path=path)
    return "; " + _("give a .jsonl file that 'play', the menu or 'simulate --journal' wrote")


#: what a reader calls with each good record instead of keeping it (``load(..., each=...)``)
EachRecord = Callable[["Journal", int, "Record"], None]


def _file_lines(f: BinaryIO, number: int = 0, offset: int = 0) -> Iterator[tuple[int, int, bytes, bool]]:
    """``_lines`` of an open file from ``offset`` (the line before it: ``number``), read
    as it goes: memory stays flat in the file's size (a line past
    ``MAX_CHECKPOINT_LINE_BYTES`` is cut there: it is damage anyway)."""
    while raw := f.readline(MAX_CHECKPOINT_LINE_BYTES + 1):
        number += 1
        size = len(raw)
        had_newline = raw.endswith(b"\n")
        if not had_newline and size > MAX_CHECKPOINT_LINE_BYTES:  # the rest of a runaway line
            while more := f.readline(1 << 20):
                size += len(more)
                if more.endswith(b"\n"):
                    had_newline = True
                    break
        yield number, offset, raw[:-1] if raw.endswith(b"\n") else raw, had_newline
        offset += size


def _is_checkpoint(raw: bytes) -> bool:
    """A format-2 line whose record is a checkpoint (keys are sorted: ``type`` is its last)."""
    return raw[:-_SUM_TAIL].endswith(b'"type":"checkpoint"')


def _long_line_ok(raw: bytes, previous: str, version: int) -> bool:
    """A line past ``MAX_LINE_BYTES`` is read only as a checkpoint whose checksum holds
    (checked on its bytes before any JSON is parsed)."""
    return (version >= 2 and len(raw) <= MAX_CHECKPOINT_LINE_BYTES and _is_checkpoint(raw)
            and raw[-_SUM_TAIL:-SUM_HEX - 2] == _SUM_PREFIX
            and raw[-SUM_HEX - 2:-2] == chain_sum(previous, raw[:-_SUM_TAIL] + b"}").encode("ascii"))


def _checked_header(f: BinaryIO) -> tuple[bytes, str] | None:
    """The fast paths' first line (``_newest_checkpoint``, ``_checkpoint_from_end``): a whole
    format-2 header whose own checksum holds, with the sum that ends it (the chain's start for
    the lines after it). None when it is not so (torn, format 1, damaged): the full reader then
    reads the file and names what is off."""
    header = f.readline(MAX_LINE_BYTES + 1)
    if not header.endswith(b"\n"):
        return None
    try:
        first = parse_json(header[:-1].decode("utf-8", "replace"), 1)
        if parse_header(first, 1).version < 2:
            return None
        return header, _check_chain(header[:-1], first, 1, 0, CHAIN_START)
    except RecordError:
        return None


def _newest_checkpoint(f: BinaryIO) -> tuple[bytes, int, int, str, int] | None:
    """A resume's first pass: every line's checksum chain, on its bytes (a changed,
    removed, inserted or moved line breaks it), and where the newest checkpoint
    starts: (header line, its line number, offset, the sum before it, records
    before it). None when anything is off (no checkpoint, format 1, a torn or
    damaged line): the full reader then reads every field and names the damage.
    Read in large blocks and hashed in place: this pass is most of a resume's time."""
    checked = _checked_header(f)
    if checked is None:
        return None
    header, previous = checked[0], checked[1].encode("ascii")
    number, offset, newest = 1, len(header), None
    sha256, prefix, tail, sum_at, close = hashlib.sha256, _SUM_PREFIX, _SUM_TAIL, -SUM_HEX - 2, b"}"
    checkpoint_end = b'"type":"checkpoint"'
    rest = b""
    while block := f.read(1 << 20):
        lines = (rest + block).split(b"\n")
        rest = lines.pop()  # the start of a line the next block ends (or a torn last line)
        if len(rest) > MAX_CHECKPOINT_LINE_BYTES:
            return None
        for raw in lines:
            number += 1
            body = len(raw) - tail
            if body < 1 or raw[body:body + 8] != prefix or raw[-2:] != b'"}':
                return None
            digest = sha256(previous)
            digest.update(memoryview(raw)[:body])
            digest.update(close)
            mark = digest.hexdigest()[:SUM_HEX].encode("ascii")
            if raw[sum_at:-2] != mark:
                return None
            if raw.endswith(checkpoint_end, 0, body):
                newest = (header, number, offset, previous.decode("ascii"), number - 2)
            previous = mark
            offset += len(raw) + 1
    if rest:
        return None  # a last line without its newline: the full reader says what it is
    return newest


#: how a checkpoint's line ends, before its sum's 16 hex digits (keys are sorted: ``type`` is its last)
_CHECKPOINT_TAIL = b'"type":"checkpoint"' + _SUM_PREFIX
_HEX = frozenset(b"0123456789abcdef")
_BACK_BLOCK = 1 << 20


def _checkpoint_from_end(f: BinaryIO) -> tuple[bytes, int, int, str, int] | None:
    """A restart's read, when the chain before the newest checkpoint was checked
    already (``load(..., checked=True)``): that checkpoint found by reading the file
    backwards from its end, in blocks, and its own checksum checked on its bytes
    against the sum that ends the line before it. The same tuple as
    ``_newest_checkpoint`` (header line, the checkpoint's line number, offset, the
    sum before it, records before it: its place comes from its ``seq``, the line
    count is not read); None when there is none (or it is odd: format 1, a
    checkpoint line past ``MAX_CHECKPOINT_LINE_BYTES``, a sum that does not hold):
    the full reader then reads every line. The work is the tail after the
    checkpoint, whatever the file's length."""
    checked = _checked_header(f)
    if checked is None:
        return None
    header = checked[0]
    end = f.seek(0, os.SEEK_END)
    found = _find_back(f, len(header), end, _CHECKPOINT_TAIL, whole_line=True)
    if found is None:
        return None
    start = _line_start(f, len(header), found)
    close = found + len(_CHECKPOINT_TAIL) + SUM_HEX + 2  # the checkpoint's line ends here, before its newline
    if start is None or start < len(header) or close - start > MAX_CHECKPOINT_LINE_BYTES:
        return None
    f.seek(start - _SUM_TAIL - 1)
    before = f.read(_SUM_TAIL + 1)  # the end of the line before it: ``,"sum":"<hex>"}`` and its newline
    previous = before[-SUM_HEX - 3:-3]
    if not before.endswith(b'"}\n') or not before.startswith(_SUM_PREFIX) or not set(previous) <= _HEX:
        return None
    raw = f.read(close - start)
    seq = re.match(rb'\{"seq":([1-9][0-9]{0,18}),', raw)
    if seq is None or not _long_line_ok(raw, previous.decode("ascii"), FORMAT_VERSION):
        return None
    number = int(seq[1]) + 1
    return header, number, start, previous.decode("ascii"), number - 2


def _find_back(f: BinaryIO, floor: int, end: int, needle: bytes, *, whole_line: bool = False) -> int | None:
    """The offset of the last ``needle`` in the file between ``floor`` and ``end``,
    read backwards in blocks (memory: a block); ``whole_line``: one followed by
    a sum's 16 hex digits, ``"}`` and a newline (a whole line's end)."""
    keep = len(needle) + SUM_HEX + 3  # a match across two blocks is found in the earlier one, whole
    at, carry = end, b""
    while at > floor:
        start = max(floor, at - _BACK_BLOCK)
        f.seek(start)
        block = f.read(at - start) + carry
        stop = at - start + len(needle) - 1  # a match starts in this block's own bytes (the carry's were searched)
        while (hit := block.rfind(needle, 0, stop)) >= 0:
            tail = block[hit + len(needle):hit + keep]
            if not whole_line or (tail[SUM_HEX:] == b'"}\n' and set(tail[:SUM_HEX]) <= _HEX):
                return start + hit
            stop = hit + len(needle) - 1
        at, carry = start, block[:keep]
    return None


def _line_start(f: BinaryIO, floor: int, at: int) -> int | None:
    """Where the line holding offset ``at`` starts (after the newline before it, not before ``floor``);
    None past ``MAX_CHECKPOINT_LINE_BYTES`` back."""
    pos = at
    while pos > floor:
        start = max(floor, pos - _BACK_BLOCK)
        f.seek(start)
        newline = f.read(pos - start).rfind(b"\n")
        if newline >= 0:
            return start + newline + 1
        if at - start > MAX_CHECKPOINT_LINE_BYTES:
            return None
        pos = start
    return floor


def _with_last(items: Iterator[tuple[int, int, bytes, bool]]) -> Iterator[tuple[tuple[int, int, bytes, bool], bool]]:
    """Each item, and whether it is the last one."""
    previous = next(items, None)
    while previous is not None:
        following = next(items, None)
        yield previous, following is None
        previous = following


def parse_bytes(data: bytes, path: Path | None = None) -> Journal:
    """A journal from a file's bytes. Raises JournalError only when line 1 is
    unusable (nothing can be replayed); later damage is kept in ``damage``."""
    return _parse(_lines(data), path)


def _parse(source: Iterator[tuple[int, int, bytes, bool]], path: Path | None,
           since_checkpoint: bool = False, each: EachRecord | None = None,
           resumed: tuple[int, str, int] | None = None) -> Journal:
    """The reader behind ``parse_bytes`` and ``load``: every line's chain and fields
    are checked. ``since_checkpoint``: keep only the newest checkpoint and the records
    after it; ``each``: hand every record to it and keep none. ``resumed``: the
    source goes on after the header at this seq, with this sum before it and
    this many records (checked by ``_newest_checkpoint``) skipped."""
    lines = _with_last(source)
    first_line = next(lines, None)
    if first_line is None:
        raise JournalError((f"{path}: " if path else "") + _("the file is empty: no session was written to it"))
    (_number, _offset, raw, had_newline), _only = first_line
    session, first, previous = _parsed_header(first_line, path)
    header = {k: v for k, v in first.items() if k not in ("seq", "sum")}
    journal = Journal(header=header, records=[], path=path, session=session, good_bytes=len(raw) + had_newline)
    if not had_newline:
        journal.missing_newline = True
    seq = 1
    if resumed is not None:
        seq, previous, journal.count = resumed
        journal.dropped = journal.count
    for (number, offset, raw, had_newline), last in lines:
        try:
            read = _line_record(raw, number, seq, previous, session.version)
        except RecordError as exc:
            if last and not had_newline:
                seq, previous = _torn_last_line(journal, raw, (number, offset, seq, session.version), previous,
                                                since_checkpoint, each)
                break
            after = sum(1 for _ in lines)
            journal.damage = Damage(number, exc.problem, after, exc.reason, tuple(exc.arguments.items()))
            break
        if read is None:  # a blank line of format 1: skipped
            journal.good_bytes = offset + len(raw) + had_newline
            continue
        record, previous = read
        seq += 1
        journal.add(number, record, since_checkpoint, each)
        journal.good_bytes = offset + len(raw) + had_newline
        journal.missing_newline = not had_newline
    journal.next_seq, journal.last_sum = seq, previous
    return journal


def _parsed_header(first_line: tuple[tuple[int, int, bytes, bool], bool],
                   path: Path | None) -> tuple[SessionHeader, dict[str, Any], str]:
    """Line 1, the session header, read and checked: the session, its fields and the sum the
    chain goes on from; a JournalError saying why nothing can be replayed when it is unusable."""
    where = f"{path}: " if path else ""
    (_number, _offset, raw, had_newline), only = first_line
    try:
        if len(raw) > MAX_LINE_BYTES:
            raise RecordError(1, N_("the line is longer than {limit} bytes; this is not a journal"), limit=MAX_LINE_BYTES)
        first = parse_json(raw.decode("utf-8", "replace"), 1)
        session = parse_header(first, 1)
        previous = _check_chain(raw, first, 1, 0, CHAIN_START) if session.version >= 2 else CHAIN_START
        if session.version == 1:
            _refuse_downgrade(first, 1)
    except RecordError as exc:
        if not had_newline and only:
            raise JournalError(where + _("line 1, the session header, was cut before it was complete: "
                                         "the game never started; nothing to replay")) from None
        if b'"type":"session"' not in raw:  # not a damaged header: never a journal at all
            raise JournalError(where + _("this is not a buzzerbox journal (its first line is no session header)")
                               + _other_file_hint(path)) from None
        raise JournalError(f"{where}{exc}") from None
    return session, first, previous


def _line_record(raw: bytes, number: int, seq: int, previous: str, version: int) -> tuple[Record, str] | None:
    """A line after the header, checked (its length, its place in the chain, its fields): its
    record and the sum the chain goes on from (format 1 has none: ``previous`` again); None for a
    blank line of format 1. A RecordError names what is wrong with it."""
    if len(raw) > MAX_LINE_BYTES and not _long_line_ok(raw, previous, version):
        raise RecordError(number, N_("the line is longer than {limit} bytes"), limit=MAX_LINE_BYTES)
    if not raw.strip():
        if version == 1:
            return None
        raise RecordError(number, N_("an empty line where a record was due"))
    text = raw.decode("utf-8", "replace")
    record_data = parse_json(text, number, version >= 2 and _is_checkpoint(raw))
    return parse_record(record_data, number, version), _chained(raw, record_data, number, seq, previous, version)


def _chained(raw: bytes, data: dict[str, Any], number: int, seq: int, previous: str, version: int) -> str:
    """The chain's digest after this record: checked from version 2 on; a version-1 journal has no
    chain, and a record in it that claims one is a downgrade, refused."""
    if version >= 2:
        return _check_chain(raw, data, number, seq, previous)
    _refuse_downgrade(data, number)
    return previous


def _torn_last_line(journal: Journal, raw: bytes, at: tuple[int, int, int, int], previous: str,
                    since_checkpoint: bool, each: EachRecord | None) -> tuple[int, str]:
    """The last line, without its newline, did not read: torn mid-write (kept aside in
    ``torn_bytes``), or whole but for its last byte, where the newline was due (the record
    stands, the damage said). ``at``: its line number, offset, seq and the format's version.
    The seq and the sum the journal goes on from."""
    number, offset, seq, version = at
    whole = _whole_but_last_byte(raw, number, seq, previous, version)
    if whole is None:
        journal.torn_tail = True
        journal.torn_bytes = raw
        return seq, previous
    record, digest = whole  # the newline itself was changed: the record stands
    reason = N_("the line ends in byte {byte} where its newline was due, but the record before it is "
                "whole (its checksum holds); 'journal salvage' copies it with its newline")
    byte = f"0x{raw[-1]:02x}"
    journal.damage = Damage(number, reason.format(byte=byte), 0, reason, (("byte", byte),))
    previous = digest if version >= 2 else previous
    journal.add(number, record, since_checkpoint, each)
    journal.good_bytes = offset + len(raw) - 1
    return seq + 1, previous


def load(path: str | Path, *, since_checkpoint: bool = False, each: EachRecord | None = None,
         head: bool = False, checked: bool = False) -> Journal:
    """Read a journal file as it streams (memory flat in its size): damage is
    reported in the result, not raised. ``since_checkpoint`` keeps only the newest
    checkpoint and what follows it (a resume); ``each`` gets every record and none
    is kept (``journal check``); every line's chain is checked either way.
    ``head``: the session header only (what game a journal is, before resuming it).
    ``checked`` (with ``since_checkpoint``: a deciding process resuming a game handed
    over): the lines before the newest checkpoint were checked already, by the screen
    that handed the game over (``session.resumable``) or as this game's deciding
    processes wrote them: that checkpoint is found from the file's end and only it and
    what follows are read and checked (``_checkpoint_from_end``): the work does not grow
    with the file."""
    p = Path(path)
    if not p.exists() and not p.is_symlink():
        raise JournalError(_("no journal at {path}: give the path 'simulate --journal' or 'play' wrote").format(path=p))
    try:
        fd, _size = open_limited(p, MAX_JOURNAL_BYTES, N_("journal (*.jsonl)"))
    except FileRefused as exc:
        raise JournalError(str(exc)) from None
    try:
        with os.fdopen(fd, "rb", buffering=1 << 20) as f:
            find = _checkpoint_from_end if checked else _newest_checkpoint
            newest = find(f) if since_checkpoint and each is None and not head else None
            if newest is None:
                f.seek(0)
                lines = itertools.islice(_file_lines(f), 1) if head else _file_lines(f)
                journal = _parse(lines, p, since_checkpoint, each)
            else:
                header, number, offset, previous, skipped = newest
                f.seek(offset)
                source = itertools.chain([(1, 0, header[:-1], True)], _file_lines(f, number - 1, offset))
                journal = _parse(source, p, True, None, (number - 1, previous, skipped))
    except OSError as exc:
        raise JournalError(f"{p}: " + _("cannot be read ({error}); check the disk and the file")
                           .format(error=exc.strerror or exc)) from None
    journal.unsaved_lines = len(read_unsaved(p).splitlines())
    return journal


def read_unsaved(path: Path) -> bytes:
    """The lines waiting in the journal's ``.unsaved`` file (b"" without one)."""
    aside = unsaved_path(path)
    if not aside.exists():
        return b""
    try:
        return read_limited(aside, MAX_JOURNAL_BYTES, N_("journal's unsaved records"))
    except FileRefused as exc:
        raise JournalError(str(exc)) from None
