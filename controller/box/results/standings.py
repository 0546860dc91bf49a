"""The standings of a quiz night: places, per round and total, per team and player.

Computed from the per-question record ``results`` reads from a journal (never
from the screen), so a replay elsewhere gives the same table. Places are
shared by equal points (1, 1, 3: the competition ranking quiz hosts use);
equal points are listed by more right answers, then station order, but keep
the shared place. A player's points are the judgements of their own answers
(and the host's corrections to them); a team's are its members' together, so
a teams night no longer shows the team's score against every player.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from controller.box.results.quiz_record import BONUS, QuestionRecord, Results
from games.i18n import _, ngettext
from games.quiz.teams import team_colour, team_name

Row = TypeVar("Row")


@dataclass
class PlayerRow:
    station: int
    name: str
    team: int
    points: int = 0
    rounds: list[int] = field(default_factory=list)  # points in each round
    correct: int = 0
    wrong: int = 0
    early: int = 0
    reactions_us: list[int] = field(default_factory=list)  # arming to counted press, every press
    place: int = 0

    @property
    def fastest_us(self) -> int | None:
        return min(self.reactions_us, default=None)

    @property
    def median_us(self) -> int | None:
        return int(statistics.median(self.reactions_us)) if self.reactions_us else None


@dataclass
class TeamRow:
    team: int
    name: str
    members: list[int]
    points: int = 0
    rounds: list[int] = field(default_factory=list)
    correct: int = 0
    wrong: int = 0
    place: int = 0


@dataclass
class Winner:
    """Who won (several: shared), with what, and why (the engine's
    ``EndReason`` value; None: the night was not finished, these lead)."""

    names: list[str]
    points: int
    reason: str | None
    teams: bool


@dataclass
class Standings:
    rounds: list[list[int]]  # the question numbers of each round, in order
    players: list[PlayerRow]  # best first
    teams: list[TeamRow]  # best first; empty when every station plays alone
    winner: Winner | None  # None: nobody scored a point


def with_places(rows: list[Row], points: Callable[[Row], int], tie_break: Callable[[Row], tuple[int, ...]]) -> list[Row]:
    """Best first; equal points share a place (the next place skips)."""
    ordered = sorted(rows, key=lambda row: (-points(row), *tie_break(row)))
    for k, row in enumerate(ordered):
        shared = k > 0 and points(ordered[k - 1]) == points(row)
        row.place = ordered[k - 1].place if shared else k + 1  # type: ignore[attr-defined]
    return ordered


def round_numbers(questions: Sequence[QuestionRecord]) -> list[int]:
    """The distinct rounds, in order of play."""
    seen: list[int] = []
    for q in questions:
        if q.round not in seen:
            seen.append(q.round)
    return seen


def standings_of(r: Results) -> Standings:
    rounds = round_numbers(r.questions)
    index = {n: k for k, n in enumerate(rounds)}
    players = [PlayerRow(s, r.name(s), r.teams[s] if s < len(r.teams) else s, rounds=[0] * len(rounds))
               for s in range(len(r.names))]
    for q in r.questions:
        k = index[q.round]
        for j in q.judgements:
            if j.undone or not 0 <= j.station < len(players):
                continue
            p = players[j.station]
            p.points += j.points
            p.rounds[k] += j.points
            if j.verdict == "correct":
                p.correct += 1
            elif j.verdict != BONUS:  # a quiz bowl bonus part is the team's points, not an answer to a tossup
                p.wrong += 1
        for station, points in q.adjustments:
            if 0 <= station < len(players):
                players[station].points += points
                players[station].rounds[k] += points
        for station, _t in q.early:
            if 0 <= station < len(players):
                players[station].early += 1
        for b in q.buzzes:
            if b.armed_us is not None and 0 <= b.station < len(players):
                players[b.station].reactions_us.append(b.t_us - b.armed_us)
    teams: list[TeamRow] = []
    if r.team_quiz or len(set(p.team for p in players)) < len(players):  # teams play, or some station shares one
        by_team: dict[int, TeamRow] = {}
        for p in players:
            row = by_team.setdefault(p.team, TeamRow(p.team, team_name(p.team, r.team_names), [], rounds=[0] * len(rounds)))
            row.members.append(p.station)
            row.points += p.points
            row.rounds = [a + b for a, b in zip(row.rounds, p.rounds, strict=True)]
            row.correct += p.correct
            row.wrong += p.wrong
        teams = with_places(list(by_team.values()), lambda t: t.points, lambda t: (-t.correct, t.team))
    ranked = with_places(players, lambda p: p.points, lambda p: (-p.correct, p.station))
    return Standings([_questions_of(r.questions, n) for n in rounds], ranked, teams, _winner(r, ranked, teams))


def _questions_of(questions: Sequence[QuestionRecord], round_number: int) -> list[int]:
    return [q.number for q in questions if q.round == round_number]


def _winner(r: Results, players: list[PlayerRow], teams: list[TeamRow]) -> Winner | None:
    top: Sequence[PlayerRow | TeamRow] = teams or players
    if not top or top[0].points <= 0 and not r.finished:
        return None
    best = [row for row in top if row.place == 1]
    if best[0].points <= 0 and len(best) == len(top):
        return None  # everyone on nothing: no winner to name
    return Winner([row.name for row in best], best[0].points, r.reason if r.finished else None, bool(teams))


# -- for people ---------------------------------------------------------------------------------
def points_text(n: int) -> str:
    return ngettext("{n} point", "{n} points", abs(n)).format(n=n)


def why_text(w: Winner, r: Results) -> str:
    """Why the winner won, as the rules ended the night."""
    if w.reason == "won" and r.win_correct is not None:
        return ngettext("first to {n} right answer", "first to {n} right answers", r.win_correct).format(n=r.win_correct)
    if w.reason == "last standing":
        return _("the last still in the game")
    asked = len(r.questions)
    return ngettext("most points after {n} question", "most points after {n} questions", asked).format(n=asked)


def winner_line(s: Standings, r: Results) -> str:
    w = s.winner
    if w is None:
        return _("No winner: nobody scored a point.")
    who = ", ".join(w.names)
    if w.reason is None:
        return _("Not finished; leading: {who} with {points}.").format(who=who, points=points_text(w.points))
    if len(w.names) > 1:
        return _("Shared win: {who} with {points} ({why}).").format(who=who, points=points_text(w.points),
                                                                   why=why_text(w, r))
    return _("Winner: {who} with {points} ({why}).").format(who=who, points=points_text(w.points), why=why_text(w, r))


def round_label(k: int) -> str:
    return _("round {n}").format(n=k + 1)


def to_json(s: Standings) -> dict[str, Any]:
    """The machine-readable standings (English keys; reasons as the engine's values)."""
    return {
        "rounds": [{"round": k + 1, "questions": qs} for k, qs in enumerate(s.rounds)],
        "players": [{"place": p.place, "station": p.station, "name": p.name, "team": p.team, "points": p.points,
                     "rounds": p.rounds, "correct": p.correct, "wrong": p.wrong, "early": p.early,
                     "presses": len(p.reactions_us), "fastest_us": p.fastest_us, "median_us": p.median_us}
                    for p in s.players],
        "teams": [{"place": t.place, "team": t.team, "name": t.name, "colour": team_colour(t.team).name,
                   "members": t.members, "points": t.points,
                   "rounds": t.rounds, "correct": t.correct, "wrong": t.wrong} for t in s.teams],
        "winner": None if s.winner is None else {"names": s.winner.names, "points": s.winner.points,
                                                 "reason": s.winner.reason, "teams": s.winner.teams},
    }
