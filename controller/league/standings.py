"""The standings: results in, a ranked table out. Pure (no network, no clock),
so the hub, the tests and a journal-by-journal recount all use this one.

Points per match: 2 for a win (the highest score alone), 1 each for a draw
(the highest score shared), 0 otherwise. Ties in the table are broken, in
order, by (docs/league.md):

1. league points;
2. head-to-head: league points in the matches among the tied teams only;
3. score difference (own score minus the best opponent's, summed);
4. score (summed);
5. the team id, alphabetically (a fixed order; the organiser may correct a result
   when the rules of the day say a coin decides).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from controller.box.results.quiz import safe_cell
from controller.league.messages import Result
from controller.league.tournament import Tournament

WIN, DRAW = 2, 1


@dataclass(frozen=True)
class Correction:
    """The organiser's word on one match: these scores count, for this reason."""

    match: str
    scores: tuple[int, ...]
    reason: str
    by: str
    at_ms: int
    #: the team that forfeited the match (its scores then are all 0 and count for nobody)
    forfeit: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"match": self.match, "scores": list(self.scores), "reason": self.reason, "by": self.by,
                "at_ms": self.at_ms, **({"forfeit": self.forfeit} if self.forfeit else {})}


@dataclass
class Row:
    team: str
    name: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    scored: int = 0
    difference: int = 0
    rank: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "team": self.team, "name": self.name, "played": self.played, "won": self.won,
                "drawn": self.drawn, "lost": self.lost, "points": self.points, "scored": self.scored,
                "difference": self.difference}


def effective(results: Mapping[str, Result], corrections: Mapping[str, Correction],
              t: Tournament) -> dict[str, Result]:
    """What counts per match: the box's result (its highest seq), unless the
    organiser corrected it; a finished result only, or a correction."""
    out = {m: r for m, r in results.items() if r.finished}
    for match_id, c in corrections.items():
        base = results.get(match_id)
        if base is None:
            m = t.match(match_id)
            if m is None:
                continue
            base = Result(m.room, m.id, 0, m.game, m.teams, c.scores, True, "0" * 16, 1)
        if len(c.scores) == len(base.teams):
            out[match_id] = replace(base, scores=c.scores, finished=True, forfeit=c.forfeit)
    return out


def _award(teams: Sequence[str], scores: Sequence[int], forfeit: str | None = None) -> dict[str, int]:
    if forfeit in teams:  # the others win (share a draw when there are several)
        others = [t for t in teams if t != forfeit]
        return {t: 0 if t == forfeit else WIN if len(others) == 1 else DRAW for t in teams}
    top = max(scores)
    leaders = [t for t, s in zip(teams, scores, strict=True) if s == top]
    return {t: (WIN if len(leaders) == 1 else DRAW) if t in leaders else 0 for t in teams}


def table(t: Tournament, counted: Mapping[str, Result]) -> list[Row]:
    """The ranked table from the results that count (``effective``)."""
    rows = {team.id: Row(team.id, team.name) for team in t.teams}
    # the round robin's matches only: a playoff match decides the bracket, not the table
    playoff = set(t.playoff.ids()) if t.playoff is not None else set()
    results = [r for r in counted.values() if r.match not in playoff and all(team in rows for team in r.teams)]
    for r in results:
        awarded = _award(r.teams, r.scores, r.forfeit)
        for team, score in zip(r.teams, r.scores, strict=True):
            row = rows[team]
            row.played += 1
            if r.forfeit is None:  # a forfeit's scores count for nobody
                row.scored += score
                row.difference += score - max(s for other, s in zip(r.teams, r.scores, strict=True) if other != team)
            row.points += awarded[team]
            if awarded[team] == WIN:
                row.won += 1
            elif awarded[team] == DRAW:
                row.drawn += 1
            else:
                row.lost += 1
    ordered: list[Row] = []
    by_points: dict[int, list[Row]] = {}
    for row in rows.values():
        by_points.setdefault(row.points, []).append(row)
    for points in sorted(by_points, reverse=True):
        group = by_points[points]
        h2h = _head_to_head({row.team for row in group}, results)
        ordered += sorted(group, key=lambda row: (-h2h.get(row.team, 0), -row.difference, -row.scored, row.team))
    for k, row in enumerate(ordered, start=1):
        row.rank = k
    return ordered


def _head_to_head(group: set[str], results: Sequence[Result]) -> dict[str, int]:
    """League points in the matches between members of ``group`` only (their scores alone)."""
    out: dict[str, int] = {}
    if len(group) < 2:
        return out
    for r in results:
        inside = [(team, s) for team, s in zip(r.teams, r.scores, strict=True) if team in group]
        if len(inside) >= 2:
            for team, pts in _award([x for x, _s in inside], [s for _x, s in inside], r.forfeit).items():
                out[team] = out.get(team, 0) + pts
    return out


#: a press that beat the next one by less than this is a close win (a hall's "by a hair")
CLOSE_US = 10_000


@dataclass
class PlayerRow:
    """One player's day: what the judges gave them, and how fast they pressed."""

    team: str
    name: str
    matches: int = 0
    points: int = 0
    correct: int = 0
    powers: int = 0
    negs: int = 0
    presses: int = 0
    fastest_us: int | None = None
    median_us: int | None = None
    close_wins: int = 0
    reactions: list[int] = field(default_factory=list, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {"team": self.team, "name": self.name, "matches": self.matches, "points": self.points,
                "correct": self.correct, "powers": self.powers, "negs": self.negs, "presses": self.presses,
                "fastest_us": self.fastest_us, "median_us": self.median_us, "close_wins": self.close_wins}


def player_stats(t: Tournament, counted: Mapping[str, Result]) -> list[PlayerRow]:
    """Per player over the results that count (``effective``; a corrected match keeps its box's record):
    points, right answers, powers, negs, fastest and median reaction from arming, presses that won by
    under ``CLOSE_US``. A player is their team and station name."""
    per_team = t.players_per_team
    rows: dict[tuple[str, str], PlayerRow] = {}
    for r in counted.values():
        def row(station: int, r: Result = r) -> PlayerRow:
            team = r.teams[min(station // per_team, len(r.teams) - 1)]
            name = r.stations[station] if station < len(r.stations) else f"{t.team(team).name} {station % per_team + 1}"
            return rows.setdefault((team, name), PlayerRow(team, name))

        seen: set[tuple[str, str]] = set()
        for station in range(min(len(r.stations), len(r.teams) * per_team)):
            player = row(station)
            if (player.team, player.name) not in seen:
                seen.add((player.team, player.name))
                player.matches += 1
        for q in r.questions:
            for _team, station, verdict, points in q.judgements:
                player = row(station)
                player.points += points
                player.correct += verdict in ("correct", "power")
                player.powers += verdict == "power"
                player.negs += verdict == "neg"
            for k, (station, reaction, behind) in enumerate(q.buzzes):
                player = row(station)
                player.presses += 1
                player.reactions.append(reaction)
                after = q.buzzes[k + 1] if k + 1 < len(q.buzzes) else None
                if behind == 0 and after is not None and 0 < after[2] < CLOSE_US:
                    player.close_wins += 1
    for player in rows.values():
        if player.reactions:
            ordered = sorted(player.reactions)
            player.fastest_us, player.median_us = ordered[0], ordered[len(ordered) // 2]
    return sorted(rows.values(), key=lambda p: (-p.points, -p.correct, p.team, p.name))


CSV_COLUMNS = ("rank", "team", "name", "played", "won", "drawn", "lost", "points", "scored", "difference")


def to_csv(rows: Sequence[Row]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in rows:
        data = row.to_json()
        writer.writerow([safe_cell(data[c]) for c in CSV_COLUMNS])
    return buf.getvalue()


def to_qbj(t: Tournament, r: Result, correction: Correction | None = None) -> dict[str, Any]:
    """A quiz match as a QBJ Match object (the match-only shape MODAQ writes):
    teams with their players, ``match_questions`` with every judged buzz and its
    value. Not carried: bonuses (the box asks tossups only), buzz word positions
    (the box does not see the text being read: every buzz is at word 0)."""
    per_team = t.players_per_team

    def player(station: int) -> dict[str, str]:
        name = r.stations[station] if station < len(r.stations) else f"{t.team(r.teams[station // per_team]).name} {station % per_team + 1}"
        return {"name": name}

    questions = []
    counts: dict[int, dict[int, int]] = {}
    for q in r.questions:
        buzzes = []
        for team, station, _verdict, points in q.judgements:
            buzzes.append({"player": player(station), "team": {"name": t.team(r.teams[team]).name},
                           "buzz_position": {"word_index": 0}, "result": {"value": points}})
            counts.setdefault(station, {})
            counts[station][points] = counts[station].get(points, 0) + 1
        questions.append({"question_number": q.number, "tossup_question": {"question_number": q.number, "type": "tossup",
                                                                          "parts": 1},
                          "buzzes": buzzes})
    teams = []
    for k, team_id in enumerate(r.teams):
        stations = range(k * per_team, (k + 1) * per_team)
        players = [player(s) for s in stations]
        teams.append({
            "team": {"name": t.team(team_id).name, "players": players},
            "forfeit_loss": correction is not None and correction.forfeit == team_id, "bonus_points": 0, "correct_tossups_without_bonuses": 0,
            "lineups": [{"first_question": 1, "players": players}],
            "match_players": [{"player": player(s), "tossups_heard": len(r.questions),
                               "answer_counts": [{"number": n, "answer": {"value": v}}
                                                 for v, n in sorted(counts.get(s, {}).items())]}
                              for s in stations],
        })
    notes = f"buzzerbox {t.id} match {r.match} in room {r.room}; journal checksum {r.journal_sum}"
    if correction is not None:
        notes += f"; scores corrected by {correction.by}: {correction.reason} (final {list(correction.scores)})"
    return {"tossups_read": len(r.questions), "match_teams": teams, "match_questions": questions, "notes": notes}
