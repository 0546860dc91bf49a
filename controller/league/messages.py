"""The league's wire format: the topics and the messages on them (version 1).

Every message is one JSON object with ``"v": 1`` and a ``"type"``. The hub
trusts no byte: ``parse`` turns any payload into a typed message or a
``MessageError`` with one line naming the field (docs/league.md lists every
field). Topics, under ``buzzerbox/v1/<tournament>/``:

- ``room/<room>/status``  retained: online/offline (the broker sends the box's
  "offline" will when its connection dies), the match it is on
- ``room/<room>/live``    retained: the public scoreboard view, the latest only
- ``room/<room>/result/<match>``  retained: a finished match, QoS 1
- ``schedule``            retained: a change to the schedule, signed by the organiser
- ``bracket``             retained: the playoff's pairings drawn so far and its decided matches (the hub's;
  only the hub's account may write it)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import BuzzerBoxError
from games.i18n import _

VERSION = 1
ROOT = "buzzerbox/v1"
MAX_PAYLOAD = 256 * 1024
MAX_QUESTIONS = 1000
_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
_HEX = re.compile(r"^[0-9a-f]{16,64}$")


class MessageError(BuzzerBoxError, ValueError):
    """A payload the hub (or a box) will not act on; the message names the field."""


# -- topics ---------------------------------------------------------------------------------
def room_topic(tournament: str, room: str, kind: str) -> str:
    return f"{ROOT}/{tournament}/room/{room}/{kind}"


def result_topic(tournament: str, room: str, match: str) -> str:
    return f"{ROOT}/{tournament}/room/{room}/result/{match}"


def schedule_topic(tournament: str) -> str:
    return f"{ROOT}/{tournament}/schedule"


def hub_topic(tournament: str) -> str:
    """The serving hub's claim (retained; its will clears it): a second hub on the same broker sees it."""
    return f"{ROOT}/{tournament}/hub"


def bracket_topic(tournament: str) -> str:
    """The playoff as the hub drew it (retained): the boxes learn who plays their playoff matches."""
    return f"{ROOT}/{tournament}/bracket"


def bracket_payload(pairs: Mapping[str, Sequence[str]], decided: Sequence[str]) -> bytes:
    return encode({"v": VERSION, "type": "bracket", "matches": {k: list(v) for k, v in pairs.items()},
                   "decided": sorted(decided)})


@dataclass(frozen=True)
class Bracket:
    """The playoff's pairings (match -> its two teams) and the matches that have their winner."""

    matches: Mapping[str, tuple[str, str]]
    decided: frozenset[str]


def parse_bracket(payload: bytes, match_ids: Sequence[str], team_ids: Sequence[str]) -> Bracket:
    """A bracket naming only this tournament's playoff matches and teams, two different teams each."""
    f = _F(_decode(payload), _("the bracket"))
    f.version("bracket")
    raw = f.get("matches")
    if not isinstance(raw, dict) or len(raw) > len(match_ids):
        raise f.fail("matches", _("is not a table of playoff matches"))
    matches = {}
    for match, teams in raw.items():
        if match not in match_ids:
            raise f.fail("matches", _("names {match!r}, not a playoff match of this tournament").format(match=str(match)[:40]))
        if (not isinstance(teams, list) or len(teams) != 2 or teams[0] == teams[1]
                or not all(isinstance(x, str) and x in team_ids for x in teams)):
            raise f.fail("matches", _("gives match {match!r} something that is not two of the tournament's teams").format(
                match=match))
        matches[match] = (teams[0], teams[1])
    decided = f.items("decided", len(match_ids))
    if not all(isinstance(d, str) and d in matches for d in decided):
        raise f.fail("decided", _("names a match the bracket does not pair"))
    return Bracket(matches, frozenset(decided))


def hub_subscriptions(tournament: str) -> list[str]:
    return [f"{ROOT}/{tournament}/room/+/status", f"{ROOT}/{tournament}/room/+/live",
            f"{ROOT}/{tournament}/room/+/result/+", schedule_topic(tournament)]


def topic_room(topic: str, tournament: str) -> tuple[str, str, str]:
    """(room, kind, match-or-"") of a room topic; MessageError for any other topic."""
    parts = topic.split("/")
    head = ROOT.split("/") + [tournament, "room"]
    if parts[: len(head)] != head or len(parts) not in (len(head) + 2, len(head) + 3):
        raise MessageError(_("topic {topic!r} is not one of this tournament's room topics").format(topic=topic[:80]))
    room, kind = parts[len(head)], parts[len(head) + 1]
    match = parts[len(head) + 2] if len(parts) == len(head) + 3 else ""
    if not _ID.match(room) or (kind == "result") != bool(match) or kind not in ("status", "live", "result"):
        raise MessageError(_("topic {topic!r} is not one of this tournament's room topics").format(topic=topic[:80]))
    if match and not _ID.match(match):
        raise MessageError(_("topic {topic!r}: {match!r} is not a match id").format(topic=topic[:80], match=match[:40]))
    return room, kind, match


# -- the messages -------------------------------------------------------------------------
@dataclass(frozen=True)
class Status:
    room: str
    online: bool
    match: str | None
    sent_ms: int
    type = "status"


@dataclass(frozen=True)
class Live:
    room: str
    match: str | None
    sent_ms: int
    #: the box's public scoreboard view (the companion's board stream: nothing secret)
    board: Mapping[str, Any]
    type = "live"


@dataclass(frozen=True)
class QuestionLine:
    """One question of a quiz match: what the scoreboard and QBJ need."""

    number: int
    result: str
    #: (team index, station, verdict, points) of each judgement that stands
    judgements: tuple[tuple[int, int, str, int], ...]
    scores: tuple[int, ...]  # each team's score after it
    #: (station, reaction from arming, behind the arming's first press) of each press, µs, in order
    buzzes: tuple[tuple[int, int, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "result": self.result, "scores": list(self.scores),
                "judgements": [{"team": t, "station": s, "verdict": v, "points": p} for t, s, v, p in self.judgements],
                "buzzes": [{"station": s, "reaction_us": r, "behind_us": b} for s, r, b in self.buzzes]}


@dataclass(frozen=True)
class Result:
    """A finished match, as its box's journal says."""

    room: str
    match: str
    #: 1 for the first journal of this match, 2 when it was played again (a replay the organiser asked for)
    seq: int
    game: str
    teams: tuple[str, ...]
    scores: tuple[int, ...]  # per team, in ``teams`` order
    finished: bool
    journal_sum: str  # the journal's last chain checksum: it vouches for every line before it
    journal_lines: int
    questions: tuple[QuestionLine, ...] = ()
    stations: tuple[str, ...] = ()  # the stations' names, for QBJ's players
    sent_ms: int = 0
    #: the team that forfeited (the organiser's word, never on the wire): the others win, no score counts
    forfeit: str | None = None
    type = "result"

    @property
    def key(self) -> tuple[str, int]:
        return self.match, self.seq

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "type": "result", "room": self.room, "match": self.match, "seq": self.seq,
                "game": self.game, "teams": list(self.teams), "scores": list(self.scores), "finished": self.finished,
                "journal": {"sum": self.journal_sum, "lines": self.journal_lines},
                "questions": [q.to_json() for q in self.questions], "stations": list(self.stations),
                "sent_ms": self.sent_ms}


@dataclass(frozen=True)
class Move:
    match: str
    room: str
    slot: int


@dataclass(frozen=True)
class ScheduleChange:
    """Matches moved to another room or slot; valid only with the organiser's signature."""

    revision: int
    moves: tuple[Move, ...]
    signature: str
    body: bytes = field(repr=False, default=b"")  # the signed bytes
    type = "schedule"


Message = Status | Live | Result | ScheduleChange


def encode(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False, allow_nan=False).encode("utf-8")


def status_payload(room: str, online: bool, match: str | None, sent_ms: int) -> bytes:
    return encode({"v": VERSION, "type": "status", "room": room, "state": "online" if online else "offline",
                   "match": match, "sent_ms": sent_ms})


def live_payload(room: str, match: str | None, sent_ms: int, board_json: str) -> bytes:
    """The board's JSON text goes in as it is (the companion already encoded it once)."""
    head = encode({"v": VERSION, "type": "live", "room": room, "match": match, "sent_ms": sent_ms})
    return head[:-1] + b',"board":' + board_json.encode("utf-8") + b"}"


def signed_body(revision: int, moves: Sequence[Move], tournament: str) -> bytes:
    """The exact bytes the organiser signs: the tournament is in them, so a
    change signed for one tournament is no good in another."""
    return encode({"v": VERSION, "type": "schedule", "tournament": tournament, "revision": revision,
                   "moves": [{"match": m.match, "room": m.room, "slot": m.slot} for m in moves]})


def schedule_payload(body: bytes, signature: str) -> bytes:
    return encode({"body": body.decode("utf-8"), "sig": signature})


# -- the reader ----------------------------------------------------------------------------
def _bad_constant(name: str) -> Any:
    raise MessageError(_("{name} is not a number").format(name=name))


def _decode(payload: bytes) -> dict[str, Any]:
    if len(payload) > MAX_PAYLOAD:
        raise MessageError(_("a {size}-byte message is larger than {limit}").format(size=len(payload), limit=MAX_PAYLOAD))
    try:
        value = json.loads(payload.decode("utf-8"), parse_constant=_bad_constant,
                           parse_int=_checked_int, parse_float=_checked_float)
    except MessageError:
        raise
    except RecursionError:
        raise MessageError(_("nested too deep to be a league message")) from None
    except ValueError as exc:  # bad UTF-8, bad JSON, int-size limits
        raise MessageError(_("not a league message ({why})").format(why=str(exc)[:60])) from None
    if not isinstance(value, dict):
        raise MessageError(_("a league message is a JSON object, not {kind}").format(kind=type(value).__name__))
    return value


def _checked_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise MessageError(_("a {digits}-digit number").format(digits=len(text)))
    return int(text)


def _checked_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise MessageError(_("{text} does not fit in a number").format(text=text[:20]))
    return value


class _F:
    def __init__(self, data: Mapping[str, Any], what: str) -> None:
        self.data, self.what = data, what

    def fail(self, key: str, problem: str) -> MessageError:
        return MessageError(_("{what}'s {key!r} {problem}").format(what=self.what, key=key, problem=problem))

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise MessageError(_("{what} has no {key!r}").format(what=self.what, key=key))
        return self.data[key]

    def ident(self, key: str, optional: bool = False) -> str:
        value = self.data.get(key) if optional else self.get(key)
        if optional and value is None:
            return ""
        if not isinstance(value, str) or not _ID.match(value):
            raise self.fail(key, _("is not an id"))
        return value

    def whole(self, key: str, low: int = 0, high: int = 2**53) -> int:
        value = self.get(key)
        if type(value) is not int or not low <= value <= high:
            raise self.fail(key, _("is not a whole number from {low} to {high}").format(low=low, high=high))
        return value

    def flag(self, key: str) -> bool:
        value = self.get(key)
        if type(value) is not bool:
            raise self.fail(key, _("is not true or false"))
        return value

    def text(self, key: str, limit: int = 200) -> str:
        value = self.get(key)
        if not isinstance(value, str) or len(value) > limit:
            raise self.fail(key, _("is not a text of at most {limit} characters").format(limit=limit))
        return value

    def items(self, key: str, limit: int) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list) or len(value) > limit:
            raise self.fail(key, _("is not a list of at most {limit}").format(limit=limit))
        return value

    def version(self, kind: str) -> None:
        if self.data.get("v") != VERSION:
            raise MessageError(_("a {kind} message of version {version}; this hub reads version {known}").format(
                kind=kind, version=str(self.data.get("v"))[:10], known=VERSION))
        if self.data.get("type") != kind:
            raise MessageError(_("a {sent!r} message on a {kind} topic").format(sent=str(self.data.get("type"))[:20], kind=kind))


def _scores(f: _F, key: str, count: int) -> tuple[int, ...]:
    values = f.items(key, 64)
    if len(values) != count or not all(type(v) is int and abs(v) < 10**9 for v in values):
        raise f.fail(key, _("is not {count} whole-number scores").format(count=count))
    return tuple(values)


def parse_status(payload: bytes) -> Status:
    f = _F(_decode(payload), _("the status"))
    f.version("status")
    state = f.get("state")
    if state not in ("online", "offline"):
        raise f.fail("state", _("is neither online nor offline"))
    return Status(f.ident("room"), state == "online", f.ident("match", optional=True) or None, f.whole("sent_ms"))


def parse_live(payload: bytes) -> Live:
    f = _F(_decode(payload), _("the live view"))
    f.version("live")
    board = f.get("board")
    if not isinstance(board, dict):
        raise f.fail("board", _("is not an object"))
    players = board.get("players", [])
    if not isinstance(players, list) or len(players) > 64 or not all(isinstance(p, dict) for p in players):
        raise f.fail("board", _("has no list of players"))
    return Live(f.ident("room"), f.ident("match", optional=True) or None, f.whole("sent_ms"), board)


def parse_result(payload: bytes) -> Result:
    f = _F(_decode(payload), _("the result"))
    f.version("result")
    teams = f.items("teams", 64)
    if len(teams) < 2 or not all(isinstance(t, str) and _ID.match(t) for t in teams) or len(set(teams)) != len(teams):
        raise f.fail("teams", _("is not a list of two or more different team ids"))
    journal = f.get("journal")
    if not isinstance(journal, dict):
        raise f.fail("journal", _("is not an object"))
    j = _F(journal, _("the result's journal"))
    journal_sum = j.text("sum", 64)
    if not _HEX.match(journal_sum):
        raise j.fail("sum", _("is not a checksum"))
    questions = []
    for raw in f.items("questions", MAX_QUESTIONS):
        if not isinstance(raw, dict):
            raise f.fail("questions", _("holds something that is not a question"))
        q = _F(raw, _("a question"))
        judgements = []
        for item in q.items("judgements", 64):
            if not isinstance(item, dict):
                raise q.fail("judgements", _("holds something that is not a judgement"))
            jd = _F(item, _("a judgement"))
            judgements.append((jd.whole("team", 0, len(teams) - 1), jd.whole("station", 0, 63), jd.text("verdict", 20),
                               jd.whole("points", -10**6, 10**6)))
        buzzes = []
        for item in q.items("buzzes", 256) if "buzzes" in raw else []:  # added in version 1: optional
            if not isinstance(item, dict):
                raise q.fail("buzzes", _("holds something that is not a press"))
            b = _F(item, _("a press"))
            buzzes.append((b.whole("station", 0, 63), b.whole("reaction_us", 0, 10**10), b.whole("behind_us", 0, 10**10)))
        questions.append(QuestionLine(q.whole("number", 0, 10**6), q.text("result", 40), tuple(judgements),
                                      _scores(q, "scores", len(teams)), tuple(buzzes)))
    stations = f.items("stations", 64) if "stations" in f.data else []
    if not all(isinstance(s, str) and len(s) <= 64 for s in stations):
        raise f.fail("stations", _("is not a list of names"))
    game = f.text("game", 32)
    return Result(f.ident("room"), f.ident("match"), f.whole("seq", 1, 10**6), game, tuple(teams),
                  _scores(f, "scores", len(teams)), f.flag("finished"), journal_sum, j.whole("lines", 1, 10**9),
                  tuple(questions), tuple(stations), f.whole("sent_ms"))


def parse_schedule(payload: bytes, tournament: str) -> ScheduleChange:
    """A schedule change's fields; whether its signature holds is ``signing.verify``'s business."""
    outer = _F(_decode(payload), _("the schedule change"))
    body_text = outer.text("body", MAX_PAYLOAD)
    signature = outer.text("sig", 200)
    body = body_text.encode("utf-8")
    f = _F(_decode(body), _("the schedule change"))
    f.version("schedule")
    if f.get("tournament") != tournament:
        raise f.fail("tournament", _("is not {tournament!r}: a change for another tournament").format(tournament=tournament))
    moves = []
    for raw in f.items("moves", 2048):
        if not isinstance(raw, dict):
            raise f.fail("moves", _("holds something that is not a move"))
        m = _F(raw, _("a move"))
        moves.append(Move(m.ident("match"), m.ident("room"), m.whole("slot", 1, 10**6)))
    return ScheduleChange(f.whole("revision", 1, 10**9), tuple(moves), signature, body)


PARSERS: dict[str, Callable[[bytes], Status | Live | Result]] = {
    "status": parse_status, "live": parse_live, "result": parse_result}


def parse_room_message(topic: str, payload: bytes, tournament: str) -> Status | Live | Result:
    """What a room topic carries, checked against its topic: a box may speak
    only for its own room (the broker's ACL enforces it; the hub checks too)."""
    room, kind, match = topic_room(topic, tournament)
    message = PARSERS[kind](payload)
    if message.room != room:
        raise MessageError(_("a message for room {sent!r} on room {room!r}'s topic").format(sent=message.room, room=room))
    if isinstance(message, Result) and message.match != match:
        raise MessageError(_("the result of match {sent!r} on match {match!r}'s topic").format(sent=message.match, match=match))
    return message
