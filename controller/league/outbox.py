"""A box's side of a tournament: its next match, its journals, its results.

The journals are the outbox. Each match the room plays gets a journal in the
room's folder with a small ``<journal>.league.json`` beside it (tournament,
room, match, seq). A result is always computed from an ended journal, never
kept anywhere else, so a box that lost the broker, crashed or was switched
off publishes the same result, byte for byte in its scores and checksum, the
next time it connects; the hub counts a (match, seq) once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from controller.box import journal as journal_mod
from controller.box.results.quiz import night_from_box
from controller.box.runtime import Box, box_from_journal
from controller.league.bracket import match_of
from controller.league.messages import Bracket, Move, QuestionLine, Result
from controller.league.tournament import TIEBREAK_OPTIONS, Match, Tournament

log = logging.getLogger("buzzerbox.league")

SIDECAR = ".league.json"
SCHEDULE_FILE = "schedule-changes.json"
#: (match, seq, journal checksum) of every result the broker acknowledged: what the box still owes the hub
DELIVERED_FILE = "delivered.json"
#: the highest seq each match was ever given here: a journal moved aside never gives its seq out again
SEQS_FILE = "seqs.json"
#: the playoff's pairings and decided matches as the hub last published them
BRACKET_FILE = "bracket.json"


@dataclass(frozen=True)
class Played:
    path: Path
    match: str
    seq: int


def team_scores(box: Box, teams: int, per_team: int) -> tuple[int, ...]:
    """Each team's final score: the game's own team scores (the quiz), else its stations' summed."""
    summary = box.summary()
    by_team = summary.get("team_scores")
    if isinstance(by_team, list) and len(by_team) == teams and all(isinstance(s, int) for s in by_team):
        return tuple(by_team)
    scores = summary.get("scores")
    out = [0] * teams
    if isinstance(scores, list):
        for station, score in enumerate(scores):
            if isinstance(score, int | float) and station // per_team < teams:
                out[station // per_team] += int(score)
    return tuple(out)


def questions_of(box: Box, path: Path, per_team: int, teams: int) -> tuple[QuestionLine, ...]:
    """The quiz's per-question record (``buzzerbox results``'s), by team; other games have none."""
    if box.spec.name != "quiz":
        return ()
    night = night_from_box(box, path)
    out = []
    for q in night.questions:
        judged = tuple((j.station // per_team, j.station, _verdict(j.verdict, j.points, q.points), j.points)
                       for j in q.judgements if not j.undone and j.station // per_team < teams)
        buzzes = tuple((b.station, b.t_us - b.armed_us, b.t_us - b.first_us) for b in q.buzzes
                       if b.armed_us is not None and b.station // per_team < teams and b.t_us >= b.armed_us)
        team_after = [0] * teams
        for station, score in enumerate(q.scores):
            if station // per_team < teams:
                team_after[station // per_team] = score
        out.append(QuestionLine(q.number, q.result or "", judged, tuple(team_after), buzzes))
    return tuple(out)


def _verdict(verdict: str, points: int, question_points: int | None) -> str:
    """The judgement's word, with quiz bowl's: a *power* (right, worth more than the question) and a *neg*
    (wrong, costing points)."""
    if verdict == "correct" and question_points and points > question_points:
        return "power"
    if verdict in ("wrong", "time up") and points < 0:
        return "neg"
    return verdict


class RoomFolder:
    """The room's journals: which matches are played, which is next, their results."""

    def __init__(self, tournament: Tournament, room: str, folder: Path) -> None:
        self.t = tournament
        self.room = room
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.moves: dict[str, Move] = {}
        self.revision = 0
        self._read_moves()
        self.bracket = Bracket({}, frozenset())
        data = self._json(BRACKET_FILE, {})
        if isinstance(data, dict) and isinstance(data.get("matches"), dict):
            self.bracket = Bracket({k: (v[0], v[1]) for k, v in data["matches"].items()},
                                   frozenset(data.get("decided", [])))

    # -- the schedule, with the organiser's signed changes -------------------------------
    def _read_moves(self) -> None:
        path = self.folder / SCHEDULE_FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            self.revision = int(data["revision"])
            self.moves = {m["match"]: Move(m["match"], m["room"], int(m["slot"])) for m in data["moves"]}
        except FileNotFoundError:
            return
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("%s: %s; the schedule as the tournament file has it", path, exc)

    def apply(self, revision: int, moves: tuple[Move, ...]) -> None:
        """A verified schedule change (``signing.verify`` already said yes), kept for the next start."""
        self.revision = revision
        self.moves = {m.match: m for m in moves}
        path = self.folder / SCHEDULE_FILE
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"revision": revision, "moves": [m.__dict__ for m in moves]}), encoding="utf-8")
        tmp.replace(path)

    def take_bracket(self, bracket: Bracket) -> None:
        """The hub's playoff draw (checked against the tournament file), kept for the next start."""
        self.bracket = bracket
        self._write_json(BRACKET_FILE, {"matches": {k: list(v) for k, v in bracket.matches.items()},
                                        "decided": sorted(bracket.decided)})

    def match(self, match_id: str) -> Match | None:
        """A match of the file, or a playoff match the hub has drawn."""
        m = self.t.match(match_id)
        if m is None and match_id in self.bracket.matches:
            return match_of(self.t, match_id, self.bracket.matches[match_id])
        return m

    def schedule(self) -> list[Match]:
        """This room's matches in order, the signed changes applied, then its playoff matches drawn so far."""
        out = [m for k in self.bracket.matches if (m := self.match(k)) is not None and m.room == self.room]
        for m in self.t.matches:
            move = self.moves.get(m.id)
            if move is not None:
                m = replace(m, room=move.room, slot=move.slot)
            if m.room == self.room:
                out.append(m)
        return sorted(out, key=lambda m: (m.slot, m.id))

    # -- the journals ---------------------------------------------------------------------
    def played(self) -> list[Played]:
        """Every journal of this tournament and room, oldest first."""
        out = []
        for side in sorted(self.folder.glob("*.jsonl" + SIDECAR)):
            journal = side.with_name(side.name[: -len(SIDECAR)])
            try:
                data = json.loads(side.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            if (isinstance(data, dict) and data.get("tournament") == self.t.id and data.get("room") == self.room
                    and journal.is_file() and isinstance(data.get("seq"), int)):
                out.append(Played(journal, str(data.get("match")), data["seq"]))
        return sorted(out, key=lambda p: (p.match, p.seq))

    def unfinished(self) -> list[Played]:
        """Journals of this room's schedule that did not end: a match cut off by a crash, to resume. A
        playoff decider is the match's journal after an ended one (the draw): the later seq is resumed."""
        scheduled = {m.id for m in self.schedule()}
        last_ended: dict[str, int] = {}
        for p in self.ended():
            last_ended[p.match] = max(p.seq, last_ended.get(p.match, 0))
        out = []
        for p in self.played():
            if p.match not in scheduled or p.seq <= last_ended.get(p.match, 0) or p.match in self.bracket.decided:
                continue
            try:
                if not journal_mod.load(p.path).ended:
                    out.append(p)
            except journal_mod.JournalError as exc:
                log.warning("%s", str(exc))
        return out

    def ended(self) -> list[Played]:
        out = []
        for p in self.played():
            try:
                if journal_mod.load(p.path).ended:
                    out.append(p)
            except journal_mod.JournalError as exc:
                # its text, not the exception: a kept log record would keep its traceback's frames
                # (the MQTT thread's, and the client with its socket pair) alive
                log.warning("%s", str(exc))
        return out

    def next_match(self) -> Match | None:
        """The first match of the room's schedule with no ended journal; a playoff match whose last
        journal ended in a draw is played again (its decider) unless the hub has its winner; with the
        playoff's ``decider = "question"`` the decider is one tiebreak question."""
        ended = self.ended()
        done = {p.match for p in ended}
        deciders = set()
        for match_id in self.bracket.matches:
            if match_id in done and match_id not in self.bracket.decided:
                last = max((p for p in ended if p.match == match_id), key=lambda p: p.seq)
                r = self.result(last)
                if r is not None and r.finished and len(set(r.scores)) < len(r.scores):
                    done.discard(match_id)  # a draw cannot stand
                    deciders.add(match_id)
        match = next((m for m in self.schedule() if m.id not in done), None)
        if match is not None and match.id in deciders and self.t.playoff and self.t.playoff.decider == "question":
            match = replace(match, options={**match.options, **TIEBREAK_OPTIONS})  # one tiebreak question
        return match

    def new_journal(self, match: Match) -> Path:
        """Where this match's journal goes (the file is made by the game); its sidecar written now."""
        seqs = self._json(SEQS_FILE, {})
        given = seqs.get(match.id, 0) if isinstance(seqs, dict) and isinstance(seqs.get(match.id, 0), int) else 0
        seq = 1 + max([given, *(p.seq for p in self.played() if p.match == match.id)])
        self._write_json(SEQS_FILE, {**(seqs if isinstance(seqs, dict) else {}), match.id: seq})
        path = self.folder / f"{match.id}-{seq}.jsonl"
        side = path.with_name(path.name + SIDECAR)
        side.write_text(json.dumps({"tournament": self.t.id, "room": self.room, "match": match.id, "seq": seq}),
                        encoding="utf-8")
        return path

    def result(self, played: Played, sent_ms: int = 0) -> Result | None:
        """The result an ended journal holds; None for a journal that did not end (yet)."""
        match = self.match(played.match)
        if match is None:
            return None
        try:
            journal = journal_mod.read(played.path)
            if not journal.ended:
                return None
            box = box_from_journal(journal)
        except journal_mod.JournalError as exc:
            log.warning("league: %s cannot be published: %s", played.path, exc)
            return None
        per_team = self.t.players_per_team
        teams = len(match.teams)
        return Result(
            room=self.room, match=match.id, seq=played.seq, game=box.spec.name, teams=match.teams,
            scores=team_scores(box, teams, per_team), finished=bool(box.engine.finished),
            journal_sum=journal.last_sum, journal_lines=journal.next_seq,
            questions=questions_of(box, played.path, per_team, teams), stations=tuple(box.station_names),
            sent_ms=sent_ms)

    def results(self, sent_ms: int = 0) -> list[Result]:
        return [r for p in self.ended() if (r := self.result(p, sent_ms)) is not None]

    # -- what the hub has ---------------------------------------------------------------------
    def _json(self, name: str, default: Any) -> Any:
        try:
            return json.loads((self.folder / name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return default
        except (OSError, ValueError) as exc:
            log.warning("%s: %s", self.folder / name, exc)
            return default

    def _write_json(self, name: str, data: Any) -> None:
        tmp = self.folder / (name + ".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(self.folder / name)

    def delivered(self, r: Result) -> None:
        """The broker acknowledged ``r`` (QoS 1, retained): the hub has it, or will on its next connect."""
        done = self._json(DELIVERED_FILE, [])
        mark = [r.match, r.seq, r.journal_sum]
        if isinstance(done, list) and mark not in done:
            self._write_json(DELIVERED_FILE, [*done, mark])

    def undelivered(self) -> list[Result]:
        """Results no broker has acknowledged yet: played offline, or cut off before the box's last connect."""
        done = self._json(DELIVERED_FILE, [])
        marks = {tuple(m) for m in done if isinstance(m, list)} if isinstance(done, list) else set()
        return [r for r in self.results() if (r.match, r.seq, r.journal_sum) not in marks]

    def replay(self, match_id: str) -> list[Path]:
        """The organiser has a match played again: its ended journals go to ``replaced/`` (kept, not
        published again); the next play takes the match with the next seq."""
        aside = self.folder / "replaced"
        moved = []
        for p in self.ended():
            if p.match == match_id:
                aside.mkdir(exist_ok=True)
                for f in (p.path, p.path.with_name(p.path.name + SIDECAR)):
                    f.replace(aside / f.name)
                    moved.append(aside / f.name)
        return moved


def sidecar_of(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.with_name(path.name + SIDECAR).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None
