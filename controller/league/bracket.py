"""The playoff after the round robin: the table's top N (2, 4 or 8), single
elimination to a final, seeded 1 v N so the two best meet only in the final.
Pure (no network, no clock): the hub draws it from what counts, and a box
takes the pairings the hub publishes.

A playoff match needs a winner: a draw cannot stand. A drawn playoff match is
``decider``: its room plays it again as the decider (the box takes it as its
next match; the new journal's result, the next seq, replaces the draw), or the
organiser enters the outcome of a tiebreak the host played by hand as a
correction with its reason. A forfeit makes the other team the winner.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.league.messages import Result
from controller.league.standings import Correction, Row
from controller.league.tournament import Match, Tournament

#: the first round's pairings by seed (1-based): 1 and 2 can meet only in the final
SEEDS: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((1, 2),),
    4: ((1, 4), (2, 3)),
    8: ((1, 8), (4, 5), (2, 7), (3, 6)),
}


@dataclass(frozen=True)
class Tie:
    """One playoff match as the bracket stands."""

    id: str
    round: int  # 1: the first round; the last round is the final
    teams: tuple[str, str] | None  # None until the round robin (or the matches feeding it) is decided
    #: "waiting" (teams not known), "ready", "decider" (a draw: play it again or correct it), "done"
    state: str
    scores: tuple[int, ...] | None = None
    winner: str | None = None
    #: the first round's seeds; later rounds: the two matches whose winners meet here
    fed_by: tuple[str, str] = ("", "")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "teams": list(self.teams) if self.teams else None,
                "state": self.state, "scores": list(self.scores) if self.scores else None, "winner": self.winner,
                "fed_by": list(self.fed_by)}


def group_done(t: Tournament, counted: Mapping[str, Result]) -> bool:
    """Every match of the round robin counts (played to its end, or corrected)."""
    return all(m.id in counted for m in t.matches)


def draw(t: Tournament, table: Sequence[Row], counted: Mapping[str, Result],
         corrections: Mapping[str, Correction]) -> list[Tie]:
    """The bracket from the table and what counts: ``counted`` the finished results by match (the
    highest seq), ``corrections`` the organiser's. Empty when the tournament has no playoff."""
    if t.playoff is None:
        return []
    seeded = [row.team for row in table][: t.playoff.size] if group_done(t, counted) else []
    out: list[Tie] = []
    winners: dict[str, str | None] = {}
    for k, ids in enumerate(t.playoff.rounds(), start=1):
        for n, match_id in enumerate(ids):
            if k == 1:
                a, b = SEEDS[t.playoff.size][n]
                fed_by = (f"#{a}", f"#{b}")
                teams = (seeded[a - 1], seeded[b - 1]) if seeded else None
            else:
                before = t.playoff.rounds()[k - 2]
                fed_by = (before[2 * n], before[2 * n + 1])
                first, second = winners.get(fed_by[0]), winners.get(fed_by[1])
                teams = (first, second) if first and second else None
            tie = _decide(match_id, k, teams, fed_by, counted.get(match_id), corrections.get(match_id))
            winners[match_id] = tie.winner
            out.append(tie)
    return out


def _decide(match_id: str, round_: int, teams: tuple[str, str] | None, fed_by: tuple[str, str],
            result: Result | None, correction: Correction | None) -> Tie:
    if teams is None:
        return Tie(match_id, round_, None, "waiting", fed_by=fed_by)
    if correction is not None:
        if correction.forfeit in teams:
            winner = teams[1] if correction.forfeit == teams[0] else teams[0]
            return Tie(match_id, round_, teams, "done", correction.scores, winner, fed_by)
        scores: tuple[int, ...] | None = correction.scores
    elif result is not None and result.finished and tuple(result.teams) == teams:
        scores = result.scores
    else:
        return Tie(match_id, round_, teams, "ready", fed_by=fed_by)
    assert scores is not None
    if len(scores) != 2 or scores[0] == scores[1]:
        return Tie(match_id, round_, teams, "decider", scores, None, fed_by)
    return Tie(match_id, round_, teams, "done", scores, teams[0] if scores[0] > scores[1] else teams[1], fed_by)


def match_of(t: Tournament, match_id: str, teams: Sequence[str]) -> Match:
    """A playoff match as a box plays it: the playoff's room, game and options; its round's slot."""
    assert t.playoff is not None
    round_ = next(k for k, ids in enumerate(t.playoff.rounds()) if match_id in ids)
    return Match(match_id, t.playoff.room, (teams[0], teams[1]), t.playoff.game, dict(t.playoff.options),
                 t.playoff.first_slot + round_)


def pairings(bracket: Sequence[Tie]) -> dict[str, list[str]]:
    """What a box needs of the bracket: the teams of each playoff match drawn so far."""
    return {tie.id: list(tie.teams) for tie in bracket if tie.teams is not None}


def champion(bracket: Sequence[Tie]) -> str | None:
    return bracket[-1].winner if bracket else None
