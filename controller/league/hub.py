"""The hub: what the organiser's laptop keeps. It reads every room's topics,
keeps the standings, and journals what it counted and every correction in
its own ledger (append-only JSONL with the box journal's checksum chain), so
a restarted hub knows everything it knew, and the broker's retained results
only confirm it.

``Hub.take`` is the one door for what comes off the wire: a message it
cannot read is counted and logged in one line, never raised.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from controller.journal_format import CHAIN_START, JournalError, chain_sum, encode_line, parse_json
from controller.league import messages, signing
from controller.league.messages import Live, MessageError, Move, Result, Status
from controller.league.standings import Correction, Row, effective, table
from controller.league.tournament import Match, Tournament
from games.i18n import _

log = logging.getLogger("buzzerbox.league")
#: live views whose delay the hub keeps (the newest): a bounded memory over a whole day
LATENCIES_KEPT = 20_000


class Ledger:
    """The hub's own journal: ``result`` and ``correction`` records, chained."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: list[dict[str, Any]] = []
        self._seq, self._last = 0, CHAIN_START
        if path.exists():
            self._read()
        self._file = open(path, "ab")  # noqa: SIM115 (held open for the hub's life, closed in close())

    def _read(self) -> None:
        for number, raw in enumerate(self.path.read_bytes().split(b"\n"), start=1):
            if not raw:
                continue
            data = parse_json(raw.decode("utf-8", "replace"), number)
            body = raw[: raw.rfind(b',"sum":"')] + b"}"
            if data.get("seq") != self._seq or data.get("sum") != chain_sum(self._last, body):
                raise JournalError(_("{path}: line {n} is damaged or out of order: the hub will not guess its "
                                     "standings (move the file aside to start afresh from the broker)").format(
                                         path=self.path, n=number))
            self._seq, self._last = self._seq + 1, str(data["sum"])
            self.records.append({k: v for k, v in data.items() if k not in ("seq", "sum")})

    def append(self, record: dict[str, Any]) -> None:
        line, self._last = encode_line(record, self._seq, self._last)
        self._seq += 1
        self._file.write(line)
        self._file.flush()
        self.records.append(record)

    def close(self) -> None:
        self._file.close()


@dataclass
class RoomState:
    status: Status | None = None
    live: Live | None = None
    live_received_ms: int = 0


class Hub:
    """Results, corrections, the rooms' live views, the schedule: thread-safe."""

    def __init__(self, tournament: Tournament, ledger: Path, clock: Callable[[], int]) -> None:
        self.t = tournament
        self.clock = clock
        self.lock = threading.RLock()
        #: notified after every message and correction: tests and the pages wait on it, never on time
        self.changed = threading.Condition(self.lock)
        self.results: dict[str, Result] = {}
        self.seen: set[tuple[str, int]] = set()
        self.corrections: dict[str, Correction] = {}
        self.rooms = {room.id: RoomState() for room in tournament.rooms}
        self.moves: dict[str, Move] = {}
        self.revision = 0
        self.counts = {"taken": 0, "duplicate": 0, "refused": 0, "live": 0}
        #: how long the latest live views took from their box to here (ms, wall clocks): the hub's health
        self.latencies: deque[int] = deque(maxlen=LATENCIES_KEPT)
        self.version = 0
        self.ledger = Ledger(ledger)
        for record in self.ledger.records:
            self._replay(record)

    def _replay(self, record: dict[str, Any]) -> None:
        try:
            if record.get("type") == "result":
                self._count(messages.parse_result(messages.encode(record["result"])))
            elif record.get("type") == "correction":
                c = record["correction"]
                self.corrections[c["match"]] = Correction(c["match"], tuple(c["scores"]), c["reason"], c["by"], c["at_ms"])
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
                raise MessageError(f"no room {message.room!r} in this tournament")
            self.version += 1
            if isinstance(message, Status):
                room.status = message
                return "status"
            room.live, room.live_received_ms = message, self.clock()
            self.counts["live"] += 1
            if message.sent_ms:
                self.latencies.append(room.live_received_ms - message.sent_ms)
            return "live"
        except MessageError as exc:
            self.counts["refused"] += 1
            log.warning("league hub: refused a message on %s: %s", topic[:80], exc)
            return "refused"

    def _result(self, r: Result) -> str:
        if r.key in self.seen:
            self.counts["duplicate"] += 1
            return "duplicate"
        match = self.t.match(r.match)
        if match is None:
            raise MessageError(f"no match {r.match!r} in this tournament")
        if tuple(r.teams) != tuple(match.teams):
            raise MessageError(f"match {r.match!r} is {list(match.teams)}, not {list(r.teams)}")
        self.ledger.append({"type": "result", "result": r.to_json()})
        self._count(r)
        return "taken"

    def _count(self, r: Result) -> None:
        self.seen.add(r.key)
        current = self.results.get(r.match)
        if current is None or r.seq > current.seq:
            self.results[r.match] = r
        self.counts["taken"] += 1
        self.version += 1

    def _schedule(self, payload: bytes) -> str:
        if not payload:
            return "empty"
        change = messages.parse_schedule(payload, self.t.id)
        if not signing.verify(self.t.organiser_key, change.body, change.signature):
            raise MessageError("a schedule change not signed by the organiser's key")
        if change.revision > self.revision:
            self.revision, self.moves = change.revision, {m.match: m for m in change.moves}
            self.version += 1
        return "schedule"

    # -- the organiser's word ----------------------------------------------------------------
    def correct(self, match_id: str, scores: tuple[int, ...], reason: str, by: str) -> Correction:
        """A result set right by hand, with the reason; journaled, shown beside the match."""
        with self.lock:
            match = self.t.match(match_id)
            if match is None:
                raise MessageError(_("no match {match!r} in this tournament").format(match=match_id))
            if len(scores) != len(match.teams):
                raise MessageError(_("match {match} has {n} teams: give {n} scores").format(match=match_id, n=len(match.teams)))
            if not reason.strip():
                raise MessageError(_("a correction needs a reason"))
            c = Correction(match_id, scores, reason.strip()[:200], by, self.clock())
            self.ledger.append({"type": "correction", "correction": c.to_json()})
            self.corrections[match_id] = c
            self.version += 1
            self.changed.notify_all()
            return c

    # -- what the pages show -------------------------------------------------------------------
    def standings(self) -> list[Row]:
        with self.lock:
            return table(self.t, effective(self.results, self.corrections, self.t))

    def schedule(self) -> list[Match]:
        with self.lock:
            out = []
            for m in self.t.matches:
                move = self.moves.get(m.id)
                out.append(replace(m, room=move.room, slot=move.slot) if move else m)
            return sorted(out, key=lambda m: (m.slot, m.room, m.id))

    def match_state(self, m: Match) -> str:
        if m.id in self.corrections:
            return "corrected"
        r = self.results.get(m.id)
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
        """The public scoreboard: every room live, the standings (nothing secret)."""
        with self.lock:
            rooms = []
            for room in self.t.rooms:
                state = self.rooms[room.id]
                live = state.live.board if state.live is not None else None
                online = bool(state.status and state.status.online)
                match = self.t.match(state.live.match) if state.live and state.live.match else None
                rooms.append({"id": room.id, "name": room.name, "online": online,
                              "match": match.id if match else None,
                              "teams": [self.t.team(x).name for x in match.teams] if match else [],
                              "phase": live.get("phase_label") if live else None,
                              "question": live.get("question") if live else None,
                              "players": [{"name": p.get("name"), "score": p.get("score")}
                                          for p in (live.get("players", []) if live else [])][:16]})
            return {"v": messages.VERSION, "title": self.t.title, "version": self.version, "rooms": rooms,
                    "standings": [row.to_json() for row in self.standings()]}

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


def dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
