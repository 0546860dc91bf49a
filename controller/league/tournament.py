"""The tournament file (TOML): the broker, the rooms, the teams, the schedule,
the game and its options per match. The organiser writes one; every box and
the hub read the same file (each box holds only its own room's password file).

``load`` reads it or raises ``TournamentError`` listing every problem, one
line each, in the file's words ("rooms[2].id: ..."); ``problems`` is the
same list for ``buzzerbox league check``. Nothing here opens a socket.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import registry
from games.base import BuzzerBoxError
from games.files import FileRefused, read_limited
from games.i18n import N_, _

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover (Python 3.10)
    import tomli as tomllib

#: room, team and match ids go into MQTT topics: no wildcards, no slashes
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,31}$")
MAX_FILE_BYTES = 1 << 20
MAX_SECRET_BYTES = 4096
MAX_TEAMS = 256
MAX_ROOMS = 64
MAX_MATCHES = 2048
DEFAULT_PORT, DEFAULT_TLS_PORT = 1883, 8883


class TournamentError(BuzzerBoxError, ValueError):
    """A tournament file the box cannot use; ``problems`` holds one line each."""

    def __init__(self, path: str | Path, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        super().__init__(f"{path}: " + "; ".join(self.problems))


@dataclass(frozen=True)
class Broker:
    host: str
    port: int
    #: the broker's own CA certificate (PEM): TLS on, the broker's certificate checked against it
    tls_ca: Path | None = None
    keepalive_s: int = 15


@dataclass(frozen=True)
class Room:
    id: str
    name: str
    #: the box's own broker account; its password is in ``password_file`` (only on that box)
    user: str
    password_file: Path | None = None


@dataclass(frozen=True)
class Team:
    id: str
    name: str
    players: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    id: str
    room: str
    teams: tuple[str, ...]
    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the order of the day (1, 2, ...): a room plays its matches slot by slot
    slot: int = 1
    #: when it should start, minutes after the day's start (None: no time set)
    start_min: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "room": self.room, "teams": list(self.teams), "game": self.game,
                "options": dict(self.options), "slot": self.slot, "start_min": self.start_min}


#: how many of the round robin's top teams a playoff takes, and its matches' ids round by round
PLAYOFF_ROUNDS: dict[int, tuple[tuple[str, ...], ...]] = {
    2: (("final",),),
    4: (("sf1", "sf2"), ("final",)),
    8: (("qf1", "qf2", "qf3", "qf4"), ("sf1", "sf2"), ("final",)),
}


@dataclass(frozen=True)
class Playoff:
    """After the round robin: its top ``size`` teams, single elimination to a final, in one room."""

    size: int
    room: str
    game: str
    options: Mapping[str, Any] = field(default_factory=dict)
    #: the playoff's first slot in its room: after the room's last round-robin match
    first_slot: int = 1
    #: a drawn playoff match's decider: "match" (played again) or "question" (one tiebreak question of the quiz)
    decider: str = "match"

    def rounds(self) -> tuple[tuple[str, ...], ...]:
        return PLAYOFF_ROUNDS[self.size]

    def ids(self) -> list[str]:
        return [m for r in self.rounds() for m in r]


@dataclass(frozen=True)
class Tournament:
    id: str
    title: str
    broker: Broker
    rooms: tuple[Room, ...]
    teams: tuple[Team, ...]
    matches: tuple[Match, ...]
    players_per_team: int = 1
    #: the organiser's Ed25519 public key (base64): a schedule change must be signed by it
    organiser_key: str | None = None
    hub_user: str = "hub"
    hub_password_file: Path | None = None
    organiser_user: str = "organiser"
    organiser_password_file: Path | None = None
    #: the day's start, minutes after midnight (local time), and when a room counts as late
    day_start_min: int | None = None
    late_after_min: int = 10
    path: Path | None = None
    #: top-N single elimination after the round robin (``[playoffs]``); None: the table is the end
    playoff: Playoff | None = None

    def room(self, room_id: str) -> Room:
        for room in self.rooms:
            if room.id == room_id:
                return room
        raise TournamentError(self.path or "tournament", [
            _("there is no room {room!r}: the rooms are {rooms}").format(
                room=room_id, rooms=", ".join(r.id for r in self.rooms))])

    def team(self, team_id: str) -> Team:
        return next(t for t in self.teams if t.id == team_id)

    def match(self, match_id: str) -> Match | None:
        return next((m for m in self.matches if m.id == match_id), None)

    def matches_in(self, room_id: str) -> list[Match]:
        return sorted((m for m in self.matches if m.room == room_id), key=lambda m: (m.slot, m.id))

    def stations(self, match: Match) -> int:
        return len(match.teams) * self.players_per_team


# -- reading ---------------------------------------------------------------------------------
TOP_KEYS = ("tournament", "broker", "hub", "organiser", "rooms", "teams", "schedule", "playoffs")
TOURNAMENT_KEYS = ("id", "title", "game", "options", "players_per_team", "day_start", "late_after_minutes")
BROKER_KEYS = ("host", "port", "tls_ca", "keepalive")
HUB_KEYS = ("user", "password_file")
ORGANISER_KEYS = ("public_key", "user", "password_file")
ROOM_KEYS = ("id", "name", "user", "password_file")
TEAM_KEYS = ("id", "name", "players")
SCHEDULE_KEYS = ("kind", "rounds", "slot_minutes", "matches")
MATCH_KEYS = ("id", "room", "teams", "game", "options", "slot", "start")
#: what a drawn playoff match is decided by; "question": the quiz's options for a one-question decider
DECIDERS = ("match", "question")
TIEBREAK_OPTIONS: dict[str, Any] = {"questions": 1}
PLAYOFF_KEYS = ("teams", "room", "game", "options", "decider")
KINDS = ("round-robin", "list")


class _Reader:
    """Collects problems instead of stopping at the first: ``check`` lists them all."""

    def __init__(self, base: Path) -> None:
        self.problems: list[str] = []
        self.base = base

    def say(self, where: str, problem: str) -> None:
        self.problems.append(f"{where}: {problem}")

    def keys(self, table: Mapping[str, Any], known: Sequence[str], where: str) -> None:
        for key in table:
            if key not in known:
                near = difflib.get_close_matches(key, list(known), n=1)
                hint = (_(" (did you mean {key}?)").format(key=near[0]) if near
                        else _(" (known: {keys})").format(keys=", ".join(known)))
                self.say(f"{where}{'.' if where else ''}{key}", _("not a setting here") + hint)

    def table(self, data: Mapping[str, Any], key: str, where: str = "") -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.say(where + key, _("must be a table [{key}]").format(key=key))
            return {}
        return value

    def text(self, data: Mapping[str, Any], key: str, where: str, default: str | None = None,
             limit: int = 200) -> str:
        value = data.get(key, default)
        if value is None:
            self.say(f"{where}.{key}", _("missing: add {key} = \"...\"").format(key=key))
            return ""
        if not isinstance(value, str) or not value.strip() or len(value) > limit or "\x00" in value:
            self.say(f"{where}.{key}", _("must be a text of 1 to {limit} characters").format(limit=limit))
            return ""
        return value

    def ident(self, data: Mapping[str, Any], key: str, where: str) -> str:
        value = self.text(data, key, where, limit=32)
        if value and not ID_PATTERN.match(value):
            self.say(f"{where}.{key}", _("{value!r} is not an id: use lower-case letters, digits, - and _ "
                                         "(it goes into the broker's topics)").format(value=value))
            return ""
        return value

    def whole(self, data: Mapping[str, Any], key: str, where: str, default: int, low: int, high: int) -> int:
        value = data.get(key, default)
        if type(value) is not int or not low <= value <= high:
            self.say(f"{where}.{key}", _("must be a whole number from {low} to {high}").format(low=low, high=high))
            return default
        return value

    def path(self, data: Mapping[str, Any], key: str, where: str) -> Path | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value or "\x00" in value:
            self.say(f"{where}.{key}", _("must be a file name"))
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.base / p

    def clock(self, data: Mapping[str, Any], key: str, where: str) -> int | None:
        value = data.get(key)
        if value is None:
            return None
        match = re.fullmatch(r"(\d{1,2}):(\d{2})", value) if isinstance(value, str) else None
        if match is None or int(match.group(1)) > 23 or int(match.group(2)) > 59:
            self.say(f"{where}.{key}", _("must be a time of day like \"09:30\""))
            return None
        return int(match.group(1)) * 60 + int(match.group(2))

    def ids(self, data: Mapping[str, Any], key: str, where: str) -> list[str]:
        value = data.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.say(f"{where}.{key}", _("must be a list of team ids, like [\"owls\", \"foxes\"]"))
            return []
        return list(value)


def problems(path: str | Path) -> tuple[Tournament | None, list[str]]:
    """The tournament in ``path`` (None when it cannot be used) and every
    problem found, one line each."""
    p = Path(path)
    try:  # a pipe is refused, never waited on; /dev/zero is refused, never read
        raw = read_limited(p, MAX_FILE_BYTES, N_("tournament file (.toml)"))
    except FileRefused as exc:
        return None, [exc.problem]
    try:
        data = tomllib.loads(raw.decode("utf-8").removeprefix("\ufeff"))  # (Notepad's byte-order mark)
    except UnicodeDecodeError:
        return None, [_("the file is not UTF-8 text")]
    except tomllib.TOMLDecodeError as exc:
        return None, [_("not TOML: {why}").format(why=exc)]
    except RecursionError:
        return None, [_("not TOML: nested too deep")]
    return parse(data, p.resolve().parent, p)


def parse(data: Mapping[str, Any], base: Path, path: Path | None = None) -> tuple[Tournament | None, list[str]]:
    r = _Reader(base)
    r.keys(data, TOP_KEYS, "")
    head = r.table(data, "tournament")
    r.keys(head, TOURNAMENT_KEYS, "tournament")
    tid = r.ident(head, "id", "tournament")
    title = r.text(head, "title", "tournament", default=tid or "?")
    per_team = r.whole(head, "players_per_team", "tournament", 1, 1, 8)
    default_game = head.get("game", "quiz")
    default_options = r.table(head, "options", "tournament.")

    b = r.table(data, "broker")
    r.keys(b, BROKER_KEYS, "broker")
    tls_ca = r.path(b, "tls_ca", "broker")
    broker = Broker(host=r.text(b, "host", "broker", limit=253),
                    port=r.whole(b, "port", "broker", DEFAULT_TLS_PORT if tls_ca else DEFAULT_PORT, 1, 65535),
                    tls_ca=tls_ca, keepalive_s=r.whole(b, "keepalive", "broker", 15, 2, 600))
    hub = r.table(data, "hub")
    r.keys(hub, HUB_KEYS, "hub")
    org = r.table(data, "organiser")
    r.keys(org, ORGANISER_KEYS, "organiser")
    key = org.get("public_key")
    if key is not None and not (isinstance(key, str) and re.fullmatch(r"[A-Za-z0-9+/]{43}=", key)):
        r.say("organiser.public_key", _("not an Ed25519 public key: paste the line `buzzerbox league keygen` printed"))
        key = None

    rooms = _rooms(r, data.get("rooms"))
    teams = _teams(r, data.get("teams"))
    matches = _schedule(r, r.table(data, "schedule"), rooms, teams, default_game, default_options, per_team)
    playoff = _playoff(r, data, rooms, teams, matches, default_game, default_options, per_team)
    if r.problems:
        return None, r.problems
    return Tournament(
        id=tid, title=title, broker=broker, rooms=tuple(rooms), teams=tuple(teams), matches=tuple(matches),
        players_per_team=per_team, organiser_key=key,
        hub_user=r.text(hub, "user", "hub", default="hub", limit=64), hub_password_file=r.path(hub, "password_file", "hub"),
        organiser_user=r.text(org, "user", "organiser", default="organiser", limit=64),
        organiser_password_file=r.path(org, "password_file", "organiser"),
        day_start_min=r.clock(head, "day_start", "tournament"),
        late_after_min=r.whole(head, "late_after_minutes", "tournament", 10, 1, 240), path=path, playoff=playoff,
    ), []


def _list_of_tables(r: _Reader, value: Any, key: str) -> list[dict[str, Any]]:
    if value is None:
        r.say(key, _("missing: add at least one [[{key}]] table").format(key=key))
        return []
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        r.say(key, _("must be a list of tables: [[{key}]]").format(key=key))
        return []
    return value


def _entries(r: _Reader, value: Any, key: str, known: Sequence[str], limit: int) -> Iterator[tuple[int, str, dict[str, Any], str]]:
    """Each ``[[key]]`` table: (index, where, table, its id), every id checked once and for twins."""
    tables = _list_of_tables(r, value, key)
    if len(tables) > limit:
        r.say(key, _("more than {n} [[{key}]] tables").format(n=limit, key=key))
        return
    seen: set[str] = set()
    for i, t in enumerate(tables):
        where = f"{key}[{i + 1}]"
        r.keys(t, known, where)
        ident = r.ident(t, "id", where)
        if ident and ident in seen:
            r.say(f"{where}.id", _("{id!r} is given twice").format(id=ident))
        seen.add(ident)
        yield i, where, t, ident


def _rooms(r: _Reader, value: Any) -> list[Room]:
    out: list[Room] = []
    for i, where, t, rid in _entries(r, value, "rooms", ROOM_KEYS, MAX_ROOMS):
        user = r.text(t, "user", where, default=f"box-{rid or i + 1}", limit=64)
        if user and any(room.user == user for room in out):
            r.say(f"{where}.user", _("{user!r} is another room's account: each box has its own").format(user=user))
        out.append(Room(rid, r.text(t, "name", where, default=rid or "?"), user, r.path(t, "password_file", where)))
    return out


def _teams(r: _Reader, value: Any) -> list[Team]:
    out: list[Team] = []
    for _i, where, t, tid in _entries(r, value, "teams", TEAM_KEYS, MAX_TEAMS):
        players = t.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) and 0 < len(p) <= 64 for p in players):
            r.say(f"{where}.players", _("must be a list of names"))
            players = []
        out.append(Team(tid, r.text(t, "name", where, default=tid or "?", limit=64), tuple(players)))
    if len(out) < 2 and not r.problems:
        r.say("teams", _("a tournament needs at least two teams"))
    return out


def round_robin(team_ids: Sequence[str], rooms: Sequence[str], legs: int = 1) -> list[tuple[str, tuple[str, str], int]]:
    """Every pair once per leg (the circle method): (room, (home, away), slot).
    The matches of a round are spread over the rooms; a round with more
    matches than rooms takes more slots, so no team plays twice at once."""
    ids = list(team_ids) + ([""] if len(team_ids) % 2 else [])  # "": a bye
    n = len(ids)
    out = []
    slot = 0
    for leg in range(legs):
        order = list(ids)
        for _round in range(n - 1):
            pairs = [(order[k], order[n - 1 - k]) for k in range(n // 2)]
            pairs = [(b, a) if leg % 2 else (a, b) for a, b in pairs if a and b]
            for k, pair in enumerate(pairs):
                if k % len(rooms) == 0:
                    slot += 1
                out.append((rooms[k % len(rooms)], pair, slot))
            order = [order[0], order[-1], *order[1:-1]]
    return out


def _schedule(r: _Reader, s: Mapping[str, Any], rooms: Sequence[Room], teams: Sequence[Team],
              default_game: Any, default_options: Mapping[str, Any], per_team: int) -> list[Match]:
    r.keys(s, SCHEDULE_KEYS, "schedule")
    kind = s.get("kind", "list" if "matches" in s else "round-robin")
    if kind not in KINDS:
        r.say("schedule.kind", _("must be one of: {kinds}").format(kinds=", ".join(KINDS)))
        return []
    slot_min = r.whole(s, "slot_minutes", "schedule", 0, 0, 24 * 60)
    room_ids = [room.id for room in rooms if room.id]
    team_ids = {team.id for team in teams if team.id}
    out: list[Match] = []
    if kind == "round-robin":
        legs = r.whole(s, "rounds", "schedule", 1, 1, 4)
        if "matches" in s:
            r.say("schedule.matches", _("a round robin makes its own matches: remove them, or set kind = \"list\""))
        if room_ids and len(team_ids) >= 2:
            for n, (room, pair, slot) in enumerate(round_robin([t.id for t in teams], room_ids, legs), start=1):
                out.append(Match(f"m{n}", room, pair, "", {}, slot, (slot - 1) * slot_min if slot_min else None))
    else:
        for i, t in enumerate(_list_of_tables(r, s.get("matches"), "schedule.matches")):
            where = f"schedule.matches[{i + 1}]"
            r.keys(t, MATCH_KEYS, where)
            mid = r.ident(t, "id", where) if "id" in t else f"m{i + 1}"
            room = r.ident(t, "room", where)
            if room and room not in room_ids:
                r.say(f"{where}.room", _("no room {room!r} (the rooms: {rooms})").format(room=room, rooms=", ".join(room_ids)))
            ids = r.ids(t, "teams", where)
            for team in ids:
                if team not in team_ids:
                    r.say(f"{where}.teams", _("no team {team!r}").format(team=team))
            if len(ids) < 2 or len(set(ids)) != len(ids):
                r.say(f"{where}.teams", _("a match needs two or more different teams"))
            start = r.clock(t, "start", where)
            slot = r.whole(t, "slot", where, i + 1, 1, MAX_MATCHES)
            options = r.table(t, "options", where + ".")
            out.append(Match(mid, room, tuple(ids), t.get("game", ""), options, slot, start))
    if len(out) > MAX_MATCHES:
        r.say("schedule", _("more than {n} matches").format(n=MAX_MATCHES))
        return []
    seen: set[str] = set()
    checked: list[Match] = []
    for i, m in enumerate(out):
        where = f"schedule.matches[{i + 1}]" if kind == "list" else f"schedule (match {m.id})"
        if m.id in seen:
            r.say(f"{where}.id", _("{id!r} is given twice").format(id=m.id))
        seen.add(m.id)
        game = m.game or default_game
        options = {**default_options, **m.options}
        _check_game(r, where, game, options, per_team, len(m.teams) * per_team)
        checked.append(Match(m.id, m.room, m.teams, game if isinstance(game, str) else "", options, m.slot, m.start_min))
    return checked


def _playoff(r: _Reader, data: Mapping[str, Any], rooms: Sequence[Room], teams: Sequence[Team],
             matches: Sequence[Match], default_game: Any, default_options: Mapping[str, Any],
             per_team: int) -> Playoff | None:
    """``[playoffs]``: the top 2, 4 or 8 of the table, seeded 1 v N, one room, the tournament's game by default."""
    if "playoffs" not in data:
        return None
    p = r.table(data, "playoffs")
    r.keys(p, PLAYOFF_KEYS, "playoffs")
    size = p.get("teams", 4)
    if size not in PLAYOFF_ROUNDS or type(size) is not int:
        r.say("playoffs.teams", _("must be 2, 4 or 8 (the top teams of the round robin that play on)"))
        return None
    if size > len(teams):
        r.say("playoffs.teams", _("{n} teams play on, but the tournament has {k}").format(n=size, k=len(teams)))
        return None
    room_ids = [room.id for room in rooms if room.id]
    room = r.ident(p, "room", "playoffs") if "room" in p else (room_ids[0] if room_ids else "")
    if room and room not in room_ids:
        r.say("playoffs.room", _("no room {room!r} (the rooms: {rooms})").format(room=room, rooms=", ".join(room_ids)))
    game = p.get("game", default_game)
    options = {**default_options, **r.table(p, "options", "playoffs.")}
    _check_game(r, "playoffs", game, options, per_team, 2 * per_team)
    ids = {m for rnd in PLAYOFF_ROUNDS[size] for m in rnd}
    for m in matches:
        if m.id in ids:
            r.say("schedule", _("match id {id!r} is a playoff match's: rename it").format(id=m.id))
    decider = p.get("decider", "match")
    if decider not in DECIDERS:
        r.say("playoffs.decider", _('must be "match" (a drawn match played again) or "question" (one tiebreak '
                                    'question)'))
    elif decider == "question" and game != "quiz":
        r.say("playoffs.decider", _('"question" needs the quiz (the playoff plays {game}): use "match"').format(
            game=game))
    last = max((m.slot for m in matches if m.room == room), default=0)
    return Playoff(size, room, game if isinstance(game, str) else "", options, last + 1,
                   decider if decider in DECIDERS else "match")


def _check_game(r: _Reader, where: str, game: Any, options: Mapping[str, Any], per_team: int, players: int) -> None:
    """The game exists, takes this many stations and these options."""
    if not isinstance(game, str) or game not in registry.available():
        near = difflib.get_close_matches(str(game), registry.available(), n=1)
        r.say(f"{where}.game", _("{game!r} is not a game (the games: {games})").format(
            game=game, games=", ".join(registry.available())) + (_(" (did you mean {key}?)").format(key=near[0]) if near else ""))
        return
    spec = registry.get(game)
    if not spec.min_players <= players <= spec.max_players:
        r.say(where, _("{game} takes {low} to {high} stations, this match needs {n}").format(
            game=game, low=spec.min_players, high=spec.max_players, n=players))
        return
    if per_team > 1 and "teams" in spec.options and options.get("teams") is None:
        options = {**options, "teams": [s // per_team for s in range(players)]}
    try:
        spec.settings(players, 0, **dict(options))
    except (TypeError, ValueError, BuzzerBoxError) as exc:
        r.say(f"{where}.options", str(exc))


def load(path: str | Path) -> Tournament:
    tournament, found = problems(path)
    if tournament is None:
        raise TournamentError(path, found)
    return tournament


def summary(t: Tournament) -> str:
    """What ``league check`` says of a good file."""
    games = sorted({m.game for m in t.matches})
    if t.playoff is not None:
        return _("OK: {title} ({id}): {rooms} rooms, {teams} teams, {matches} matches of {games}, then the top {n} "
                 "in a playoff in room {room}; broker {host}:{port}{tls}").format(
            title=t.title, id=t.id, rooms=len(t.rooms), teams=len(t.teams), matches=len(t.matches),
            games=", ".join(games), n=t.playoff.size, room=t.playoff.room, host=t.broker.host, port=t.broker.port,
            tls=_(" (TLS)") if t.broker.tls_ca else "")
    return _("OK: {title} ({id}): {rooms} rooms, {teams} teams, {matches} matches of {games}; broker {host}:{port}{tls}").format(
        title=t.title, id=t.id, rooms=len(t.rooms), teams=len(t.teams), matches=len(t.matches),
        games=", ".join(games), host=t.broker.host, port=t.broker.port, tls=_(" (TLS)") if t.broker.tls_ca else "")


def read_secret(path: Path | None, what: str) -> str | None:
    """A password from its file (first line, stripped); None when no file is set."""
    if path is None:
        return None
    try:
        secret = read_limited(path, MAX_SECRET_BYTES, N_("password file")).decode("utf-8", "replace").strip().splitlines()
    except FileRefused as exc:
        raise TournamentError(path, [_("{what}'s password file {problem}").format(what=what, problem=exc.problem)]) from None
    if not secret or not secret[0]:
        raise TournamentError(path, [_("{what}'s password file is empty").format(what=what)])
    return secret[0]


def match_settings(t: Tournament, match: Match) -> tuple[int, dict[str, Any]]:
    """The stations and options a match is played with: its teams' stations
    in order (``players_per_team`` each), the quiz told which station is whose."""
    players = t.stations(match)
    options = dict(match.options)
    spec = registry.get(match.game)
    if t.players_per_team > 1 and "teams" in spec.options and options.get("teams") is None:
        options["teams"] = [s // t.players_per_team for s in range(players)]
    return players, options


def station_names(t: Tournament, match: Match) -> list[str]:
    """Each station named for its team (and its player, where the file names them)."""
    out = []
    for team_id in match.teams:
        team = t.team(team_id)
        for k in range(t.players_per_team):
            if k < len(team.players):
                out.append(team.players[k])
            else:
                out.append(team.name if t.players_per_team == 1 else f"{team.name} {k + 1}")
    return out
