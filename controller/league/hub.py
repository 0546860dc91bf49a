"""The hub: what the organiser's laptop keeps. It reads every room's topics,
keeps the standings, and journals what it counted and every correction in
its own ledger (append-only JSONL with the box journal's checksum chain), so
a restarted hub knows everything it knew, and the broker's retained results
only confirm it.

``Hub.take`` is the one door for what comes off the wire: a message it
cannot read is counted and logged in one line, never raised.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from controller.box.journal_format import (
    CHAIN_START,
    JournalError,
    chain_sum,
    encode_line,
    parse_json,
)
from controller.league import bracket as bracket_mod
from controller.league import messages, signing
from controller.league.bracket import Tie
from controller.league.messages import Live, MessageError, Move, Result, Status
from controller.league.standings import Correction, PlayerRow, Row, effective, player_stats, table
from controller.league.tournament import Match, Tournament
from games.files import read_limited
from games.i18n import N_, _

log = logging.getLogger("buzzerbox.league")
#: live views whose delay the hub keeps (the newest): a bounded memory over a whole day
LATENCIES_KEPT = 20_000
#: a day of a big tournament is a few MB; past this it is not a ledger
MAX_LEDGER_BYTES = 256 * 1024 * 1024


class Ledger:
    """The hub's own journal: ``result``, ``conflict``, ``decision`` and ``correction`` records, chained.

    Each record is fsynced before the hub acts on it: a power cut loses no
    result it counted. A torn last line (the laptop died mid-write) is set
    aside in one log line; every record before it, corrections too, is kept."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: list[dict[str, Any]] = []
        self._seq, self._last = 0, CHAIN_START
        self.salvaged: Path | None = None
        if path.exists():
            self._read()
        self._lock_or_refuse()
        self._file = open(path, "ab")  # noqa: SIM115 (held open for the hub's life, closed in close())

    def _lock_or_refuse(self) -> None:
        """One hub per ledger: a second one is refused in one line (it would count into the same file)."""
        self._lockfile = open(self.path.with_name(self.path.name + ".lock"), "a+b")  # noqa: SIM115 (held for the hub's life)
        try:
            fcntl.flock(self._lockfile.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lockfile.close()
            raise JournalError(_("{path}: another hub is serving this tournament from this ledger; stop it first, "
                                 "or give this one its own --ledger").format(path=self.path)) from None

    def _read(self) -> None:
        data_bytes = read_limited(self.path, MAX_LEDGER_BYTES, N_("hub ledger"))
        lines = data_bytes.split(b"\n")
        good = 0  # bytes of the lines that hold
        for number, raw in enumerate(lines, start=1):
            if not raw:
                good += 1
                continue
            last = number == len(lines)  # no newline after it: written when the hub died
            try:
                data = parse_json(raw.decode("utf-8", "replace"), number)
                body = raw[: raw.rfind(b',"sum":"')] + b"}"
                holds = data.get("seq") == self._seq and data.get("sum") == chain_sum(self._last, body)
            except JournalError:
                holds = False
            if not holds and last:
                self._salvage(data_bytes, good, number)
                return
            if not holds:
                raise JournalError(_("{path}: line {n} is damaged or out of order: the hub will not guess its "
                                     "standings (move the file aside to start afresh from the broker)").format(
                                         path=self.path, n=number))
            self._seq, self._last = self._seq + 1, str(data["sum"])
            self.records.append({k: v for k, v in data.items() if k not in ("seq", "sum")})
            good += len(raw) + 1

    def _salvage(self, data: bytes, good: int, number: int) -> None:
        aside = self.path.with_name(self.path.name + ".torn")
        aside.write_bytes(data[good:])
        with open(self.path, "r+b") as f:
            f.truncate(good)
            os.fsync(f.fileno())
        self.salvaged = aside
        log.warning(_("%s: its last line (%d) was cut off mid-write; set aside in %s, the %d records before it kept"),
                    self.path, number, aside, len(self.records))

    def append(self, record: dict[str, Any]) -> None:
        line, self._last = encode_line(record, self._seq, self._last)
        self._seq += 1
        self._file.write(line)
        self._file.flush()
        os.fsync(self._file.fileno())
        self.records.append(record)

    def close(self) -> None:
        self._file.close()
        self._lockfile.close()


@dataclass(frozen=True)
class Decision:
    """Which version of a conflicting (match, seq) counts: the organiser's, with the reason."""

    match: str
    seq: int
    journal_sum: str
    reason: str
    by: str
    at_ms: int

    @property
    def key(self) -> tuple[str, int]:
        return self.match, self.seq

    def to_json(self) -> dict[str, Any]:
        return {"match": self.match, "seq": self.seq, "sum": self.journal_sum, "reason": self.reason,
                "by": self.by, "at_ms": self.at_ms}

    @staticmethod
    def from_json(d: dict[str, Any]) -> Decision:
        return Decision(str(d["match"]), int(d["seq"]), str(d["sum"]), str(d["reason"]), str(d["by"]), int(d["at_ms"]))


@dataclass
class RoomState:
    status: Status | None = None
    live: Live | None = None
    live_received_ms: int = 0
    #: when the hub last heard the room (any message), by the hub's own clock
    heard_ms: int = 0
    #: the least (receipt - sent) seen: the room's clock offset plus the quickest transit
    best_offset_ms: int | None = None


#: a box says it is online every STATUS_EVERY_S; a room not heard for STALE_AFTER_MS greys on the pages
STALE_AFTER_MS = 75_000
#: names on the pages are clipped to this (a 300-character team name must not stretch the hall screen)
NAME_CHARS = 40


def clip(name: Any, limit: int = NAME_CHARS) -> str:
    text = str(name) if name is not None else ""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Hub:
    """Results, corrections, the rooms' live views, the schedule: thread-safe."""

    def __init__(self, tournament: Tournament, ledger: Path, clock: Callable[[], int]) -> None:
        self.t = tournament
        self.clock = clock
        self.lock = threading.RLock()
        #: notified after every message and correction: tests and the pages wait on it, never on time
        self.changed = threading.Condition(self.lock)
        self.results: dict[str, Result] = {}
        #: every (match, seq) counted, as first taken: a second one with another journal checksum is a conflict
        self.seen: dict[tuple[str, int], Result] = {}
        #: (match, seq) -> the other versions that came for it; until the organiser decides, the match counts no version
        self.conflicts: dict[tuple[str, int], list[Result]] = {}
        self.decisions: dict[tuple[str, int], Decision] = {}
        self.corrections: dict[str, Correction] = {}
        self.rooms = {room.id: RoomState() for room in tournament.rooms}
        self.moves: dict[str, Move] = {}
        self.revision = 0
        self.counts = {"taken": 0, "duplicate": 0, "conflict": 0, "refused": 0, "live": 0}
        #: how long the latest live views took from their box to here (ms, wall clocks): the hub's health
        self.latencies: deque[int] = deque(maxlen=LATENCIES_KEPT)
        self.version = 0
        #: bumped when what the standings are made of changes: the table is computed once per such change
        self.results_version = 0
        self._standings: tuple[int, list[Row]] = (-1, [])
        self._board: tuple[int, dict[str, Any]] = (-1, {})
        self._bracket: tuple[int, list[Tie]] = (-1, [])
        #: whether the hub's broker connection is up, and since when (hub clock): the pages say when it is lost
        self.broker_up = False
        self.broker_since_ms = clock()
        #: called (from any thread) after every change: the pages' push wakes on it
        self.listeners: list[Callable[[], None]] = []
        self.ledger = Ledger(ledger)
        for record in self.ledger.records:
            self._replay(record)

    def _replay(self, record: dict[str, Any]) -> None:
        try:
            if record.get("type") == "result":
                self._count(messages.parse_result(messages.encode(record["result"])))
            elif record.get("type") == "conflict":
                self._conflict(messages.parse_result(messages.encode(record["result"])))
            elif record.get("type") == "decision":
                self._decide(Decision.from_json(record["decision"]))
            elif record.get("type") == "correction":
                c = record["correction"]
                self.corrections[c["match"]] = Correction(c["match"], tuple(c["scores"]), c["reason"], c["by"], c["at_ms"],
                                                          c.get("forfeit"))
        except (MessageError, KeyError, TypeError) as exc:
            raise JournalError(f"{self.ledger.path}: {exc}") from None

    # -- off the wire --------------------------------------------------------------------
    def take(self, topic: str, payload: bytes) -> str:
        """One message: "taken", "duplicate", "live", "status", "schedule", "empty" or "refused"."""
        with self.lock:
            try:
                return self._take(topic, payload)
            finally:
                self.changed.notify_all()
                self._tell()

    def _tell(self) -> None:
        for listener in list(self.listeners):
            listener()

    def broker(self, up: bool) -> None:
        """The hub's connection to the broker came up or was lost."""
        with self.lock:
            if up != self.broker_up:
                self.broker_up, self.broker_since_ms = up, self.clock()
                self.version += 1
            self.changed.notify_all()
        self._tell()

    def _take(self, topic: str, payload: bytes) -> str:
        try:
            if topic == messages.schedule_topic(self.t.id):
                return self._schedule(payload)
            if not payload:
                return "empty"  # a retained message cleared
            message = messages.parse_room_message(topic, payload, self.t.id)
            if isinstance(message, Result):
                return self._result(message)
            room = self.rooms.get(message.room)
            if room is None:
                raise MessageError(_("no room {room!r} in this tournament").format(room=message.room))
            self.version += 1
            room.heard_ms = self.clock()
            if isinstance(message, Status):
                room.status = message
                return "status"
            room.live, room.live_received_ms = message, room.heard_ms
            self.counts["live"] += 1
            if message.sent_ms:
                # the box's clock may be minutes off the hub's: the delay is measured against the room's
                # quickest view so far (skew and the bare transit cancel), so it is what queueing added
                offset = room.live_received_ms - message.sent_ms
                if room.best_offset_ms is None or offset < room.best_offset_ms:
                    room.best_offset_ms = offset
                self.latencies.append(offset - room.best_offset_ms)
            return "live"
        except MessageError as exc:
            self.counts["refused"] += 1
            log.warning(_("league hub: refused a message on %s: %s"), topic[:80], exc)
            return "refused"

    def match(self, match_id: str) -> Match | None:
        """A round-robin match, or a playoff match once the bracket has drawn its teams."""
        with self.lock:
            m = self.t.match(match_id)
            if m is not None:
                return m
            tie = next((x for x in self.bracket() if x.id == match_id and x.teams is not None), None)
            return bracket_mod.match_of(self.t, tie.id, tie.teams) if tie is not None and tie.teams else None

    def _result(self, r: Result) -> str:
        match = self.match(r.match)
        if match is None:
            if self.t.playoff is not None and r.match in self.t.playoff.ids():
                raise MessageError(_("playoff match {match!r} is not drawn yet (the matches before it are not "
                                     "decided)").format(match=r.match))
            raise MessageError(_("no match {match!r} in this tournament").format(match=r.match))
        rooms = {match.room} | ({self.moves[r.match].room} if r.match in self.moves else set())
        if r.room not in rooms:
            # a room's password speaks for its own matches only: room a's box cannot score hall b's match
            raise MessageError(_("room {room!r} sent a result for match {match!r}, which is played in {rooms}").format(
                room=r.room, match=r.match, rooms=_(" or ").join(sorted(rooms))))  # played in a or b
        if tuple(r.teams) != tuple(match.teams):
            raise MessageError(_("match {match!r} is {teams}, not {sent}").format(
                match=r.match, teams=list(match.teams), sent=list(r.teams)))
        known = self.seen.get(r.key)
        if known is not None:
            versions = [known, *self.conflicts.get(r.key, [])]
            if any(v.journal_sum == r.journal_sum and v.scores == r.scores for v in versions):
                self.counts["duplicate"] += 1
                return "duplicate"
            self.ledger.append({"type": "conflict", "result": r.to_json()})
            self._conflict(r)
            log.warning(_("league hub: CONFLICT: a second result for match %s seq %d from room %s (scores %s, "
                          "journal %s), the first was %s (journal %s); the organiser decides which counts"),
                        r.match, r.seq, r.room, list(r.scores), r.journal_sum, list(known.scores), known.journal_sum)
            return "conflict"
        self.ledger.append({"type": "result", "result": r.to_json()})
        self._count(r)
        return "taken"

    def _count(self, r: Result) -> None:
        self.results_version += 1
        self.seen[r.key] = r
        current = self.results.get(r.match)
        if current is None or r.seq > current.seq:
            self.results[r.match] = r
        self.counts["taken"] += 1
        self.version += 1

    def _conflict(self, r: Result) -> None:
        self.conflicts.setdefault(r.key, []).append(r)
        self.decisions.pop(r.key, None)  # a new version reopens a decided (match, seq)
        self.counts["conflict"] += 1
        self.version += 1
        self.results_version += 1

    def versions(self, key: tuple[str, int]) -> list[Result]:
        """Every version of a (match, seq): the first taken, then the conflicting ones."""
        with self.lock:
            first = self.seen.get(key)
            return ([first] if first else []) + list(self.conflicts.get(key, []))

    def open_conflicts(self) -> list[tuple[str, int]]:
        with self.lock:
            return sorted(k for k in self.conflicts if k not in self.decisions)

    def _decide(self, d: Decision) -> None:
        chosen = next((v for v in self.versions(d.key) if v.journal_sum == d.journal_sum), None)
        if chosen is None:
            raise MessageError(_("match {match} seq {seq} has no version with journal {sum}").format(
                match=d.match, seq=d.seq, sum=d.journal_sum))
        self.decisions[d.key] = d
        self.results_version += 1
        current = self.results.get(d.match)
        if current is None or current.seq <= d.seq:
            self.results[d.match] = chosen
        self.version += 1

    def counting(self) -> dict[str, Result]:
        """The results that count: a match whose result is in open conflict counts no version."""
        with self.lock:
            return {m: r for m, r in self.results.items() if r.key not in self.conflicts or r.key in self.decisions}

    def _schedule(self, payload: bytes) -> str:
        if not payload:
            return "empty"
        change = messages.parse_schedule(payload, self.t.id)
        if not signing.verify(self.t.organiser_key, change.body, change.signature):
            raise MessageError(_("a schedule change not signed by the organiser's key"))
        if change.revision > self.revision:
            self.revision, self.moves = change.revision, {m.match: m for m in change.moves}
            self.version += 1
            self.results_version += 1
        return "schedule"

    # -- the organiser's word ----------------------------------------------------------------
    def correct(self, match_id: str, scores: tuple[int, ...], reason: str, by: str,
                forfeit: str | None = None) -> Correction:
        """A result set right by hand, with the reason; journaled, shown beside the match. ``forfeit``:
        that team gave the match up (no scores needed: the others win, no score counts)."""
        with self.lock:
            match = self.match(match_id)
            if match is None:
                raise MessageError(_("no match {match!r} in this tournament").format(match=match_id))
            if forfeit is not None:
                if forfeit not in match.teams:
                    raise MessageError(_("{team!r} does not play match {match} ({teams})").format(
                        team=forfeit, match=match_id, teams=", ".join(match.teams)))
                scores = tuple(0 for _t in match.teams)
            if len(scores) != len(match.teams):
                raise MessageError(_("match {match} has {n} teams: give {n} scores").format(match=match_id, n=len(match.teams)))
            if not reason.strip():
                raise MessageError(_("a correction needs a reason"))
            c = Correction(match_id, scores, reason.strip()[:200], by, self.clock(), forfeit)
            self.ledger.append({"type": "correction", "correction": c.to_json()})
            self.corrections[match_id] = c
            self.version += 1
            self.results_version += 1
            self.changed.notify_all()
        self._tell()
        return c

    def decide(self, match_id: str, seq: int, journal_sum: str, reason: str, by: str) -> Decision:
        """The organiser's choice between a conflict's versions, journaled with the reason."""
        with self.lock:
            if (match_id, seq) not in self.conflicts:
                raise MessageError(_("match {match} has no conflict to decide").format(match=match_id))
            if not reason.strip():
                raise MessageError(_("a decision needs a reason"))
            d = Decision(match_id, seq, journal_sum, reason.strip()[:200], by, self.clock())
            self._decide(d)
            self.ledger.append({"type": "decision", "decision": d.to_json()})
            self.changed.notify_all()
        self._tell()
        return d

    # -- what the pages show -------------------------------------------------------------------
    def standings(self) -> list[Row]:
        """The table, computed once per change of what it is made of (a page asks it many times)."""
        with self.lock:
            if self._standings[0] != self.results_version:
                self._standings = (self.results_version,
                                   table(self.t, effective(self.counting(), self.corrections, self.t)))
            return self._standings[1]

    def bracket(self) -> list[Tie]:
        """The playoff as it stands (empty without one), drawn once per change of what counts."""
        with self.lock:
            if self._bracket[0] != self.results_version:
                counted = effective(self.counting(), {}, self.t)
                self._bracket = (self.results_version,
                                 bracket_mod.draw(self.t, self.standings(), counted, self.corrections))
            return self._bracket[1]

    def players(self) -> list[PlayerRow]:
        """Each player's statistics over the results that count."""
        with self.lock:
            return player_stats(self.t, effective(self.counting(), self.corrections, self.t))

    def schedule(self) -> list[Match]:
        with self.lock:
            out = []
            for m in self.t.matches:
                move = self.moves.get(m.id)
                out.append(replace(m, room=move.room, slot=move.slot) if move else m)
            out += [bracket_mod.match_of(self.t, x.id, x.teams) for x in self.bracket() if x.teams is not None]
            return sorted(out, key=lambda m: (m.slot, m.room, m.id))

    def match_state(self, m: Match) -> str:
        tie = next((x for x in self.bracket() if x.id == m.id), None)
        if tie is not None and tie.state == "decider":
            return "decider"
        if m.id in self.corrections:
            return "corrected"
        r = self.results.get(m.id)
        if r is not None and r.key in self.conflicts and r.key not in self.decisions:
            return "conflict"
        if r is not None:
            return "done" if r.finished else "unfinished"
        room = self.rooms.get(m.room)
        if room and room.status and room.status.online and room.status.match == m.id:
            return "live"
        return "planned"

    def late_rooms(self, now_min: int) -> list[str]:
        """Rooms whose next match should have started ``late_after_min`` ago and has not."""
        if self.t.day_start_min is None:
            return []
        late = []
        with self.lock:
            for room in self.t.rooms:
                pending = [m for m in self.schedule() if m.room == room.id and self.match_state(m) == "planned"]
                if pending and pending[0].start_min is not None:
                    due = self.t.day_start_min + pending[0].start_min + self.t.late_after_min
                    if now_min > due:
                        late.append(room.id)
        return late

    def board(self) -> dict[str, Any]:
        """The public scoreboard: every room live, the standings (nothing secret); built once per change.
        Times are the hub's own clock: ``now_ms`` lets a page tell each room's age whatever its clock says."""
        with self.lock:
            if self._board[0] != self.version:
                self._board = (self.version, self._build_board())
            return {**self._board[1], "now_ms": self.clock()}

    def _build_board(self) -> dict[str, Any]:
        rooms = []
        for room in self.t.rooms:
            state = self.rooms[room.id]
            live = state.live.board if state.live is not None else None
            online = bool(state.status and state.status.online)
            match = self.t.match(state.live.match) if state.live and state.live.match else None
            players = [p for p in (live.get("players", []) if live else []) if isinstance(p, dict)][:16]
            first = _first_buzz(live, players)
            per_team = self.t.players_per_team
            scores = None  # each team's total: what a hall reads (the stations' own scores are for the room)
            if match and len(players) == len(match.teams) * per_team:
                values = [v for p in players if type(v := p.get("score")) is int]
                if len(values) == len(players):
                    scores = [sum(values[k * per_team:(k + 1) * per_team]) for k in range(len(match.teams))]
            rooms.append({"id": room.id, "name": clip(room.name), "online": online,
                          "heard_ms": state.heard_ms or None,
                          "match": match.id if match else None,
                          "teams": [clip(self.t.team(x).name) for x in match.teams] if match else [],
                          "scores": scores,
                          "phase": clip(live.get("phase_label")) if live else None,
                          "question": live.get("question") if live else None,
                          "first": first,
                          "players": [{"name": clip(p.get("name")), "score": p.get("score")} for p in players]})
        standings = []
        for row in self.standings():
            data = row.to_json()
            data["name"] = clip(data["name"])
            standings.append(data)
        bracket = []
        for tie in self.bracket():
            data = tie.to_json()
            data["names"] = [clip(self.t.team(x).name) for x in tie.teams] if tie.teams else None
            bracket.append(data)
        return {"v": messages.VERSION, "title": clip(self.t.title, 80), "version": self.version, "rooms": rooms,
                "broker": {"up": self.broker_up, "since_ms": self.broker_since_ms},
                "stale_after_ms": STALE_AFTER_MS, "standings": standings, "bracket": bracket}

    def stats(self) -> dict[str, Any]:
        """Counts and the live views' delay (p50/p99 of the newest), for the organiser and the benchmark."""
        with self.lock:
            delays = sorted(self.latencies)
            counts = dict(self.counts)
        def at(q: float) -> int | None:
            return delays[min(len(delays) - 1, int(q * len(delays)))] if delays else None
        return {"counts": counts, "latency_ms": {"n": len(delays), "p50": at(0.5), "p99": at(0.99)},
                "results": len(self.results)}

    def close(self) -> None:
        self.ledger.close()


def _first_buzz(live: Any, players: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The question's first bell and its lead over the second (µs), from the room's public view."""
    if not isinstance(live, dict):
        return None
    seat = live.get("fastest")
    margins = live.get("margins_us")
    if type(seat) is not int or not 0 <= seat < len(players) or not isinstance(margins, dict):
        return None
    times = sorted(v for v in margins.values() if type(v) is int)
    lead = times[1] - times[0] if len(times) > 1 else None
    return {"name": clip(players[seat].get("name")), "lead_us": lead}


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
