"""The all-play question: everyone answers a multiple-choice question at once.

A station's numbered buttons (``a``, ``b``, ``c`` ... in the wiring profile)
or a phone's ``answer`` move pick a choice; a player's first pick is locked
in. The question ends when every player has locked in or its timer runs out;
then each right answer scores by speed, Kahoot's way: ``P · (1 − t/T / 2)``,
``t`` the press's stamp less the question's opening, ``T`` the answer time. A
right answer in the first half second earns all of ``P`` (as Kahoot gives),
one at the last moment half.

With teams, a team scores the **mean** of its members' points (option
``team_points``: ``sum`` adds them), so a team of three giving the same answers
as a team of two does not outscore it; each member is credited its share of
that mean (``team_credits``), so the members' credits add up to the team's.

Kept apart from the all-play mode (``modes/allplay.py``): only the state and
the arithmetic of one question live here; the mode calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: the station inputs that pick a choice (A, B, C ...): a 2-button station has a and b
CHOICE_INPUTS: tuple[str, ...] = ("a", "b", "c", "d", "e", "f")
#: the all-play round's defaults: a Kahoot-sized score and a 20 s timer
ALL_PLAY_PRESET: Mapping[str, Any] = {"points_correct": 1000, "answer_time_us": 20_000_000}
ALL_PLAY = "all-play"
#: a right answer this soon after the opening earns all its points (Kahoot: "under 0.5 seconds")
FULL_POINTS_US = 500_000
#: how a team's all-play points are made of its members' (the ``team_points`` option)
TEAM_MEAN, TEAM_SUM = "mean", "sum"


def speed_points(points: int, reaction_us: int, answer_time_us: int, full_us: int = FULL_POINTS_US) -> int:
    """``points · (1 − t/T / 2)`` rounded half up, ``t`` held to 0..T (integers only,
    so a replay scores the same on every machine); all of ``points`` within ``full_us``."""
    if reaction_us <= full_us:
        return points
    t = min(max(0, reaction_us), answer_time_us)
    double_t = 2 * answer_time_us
    return (points * (double_t - t) * 2 + double_t) // (2 * double_t)


def right_choice(question: Mapping[str, Any]) -> int | None:
    """The index of the choice that is the answer (None: an open question)."""
    answer = str(question.get("answer", "")).casefold().strip()
    for k, choice in enumerate(question.get("choices") or ()):
        if str(choice).casefold().strip() == answer:
            return k
    return None


def team_credits(scored: Mapping[int, int], teams: list[int], mean: bool) -> dict[int, int]:
    """Each station's credit for its team: its own points (``mean`` False: the
    team adds them), or its share of the team's mean, ``points / members``, the
    shares rounded so that each team's add up to its mean rounded half up
    (largest remainders first, then station order). A member who did not
    answer counts in the mean with 0."""
    if not mean:
        return {s: scored.get(s, 0) for s in range(len(teams))}
    credits: dict[int, int] = {}
    for team in sorted(set(teams)):
        members = [s for s, t in enumerate(teams) if t == team]
        n = len(members)
        total = sum(scored.get(s, 0) for s in members)
        shares = {s: scored.get(s, 0) // n for s in members}
        left = (2 * total + n) // (2 * n) - sum(shares.values())
        for s in sorted(members, key=lambda s: (-(scored.get(s, 0) % n), s))[:max(0, left)]:
            shares[s] += 1
        credits.update(shares)
    return credits


@dataclass
class LockedAnswer:
    choice: int
    t_us: int
    precision_us: int


@dataclass
class AllPlayQuestion:
    """One all-play question: when it opened, its timer, who locked in what."""

    opened_at_us: int
    answer_time_us: int
    choices: int
    right: int
    points: int
    locked: dict[int, LockedAnswer] = field(default_factory=dict)
    #: the clock stopped for pauses moves the deadline, never the opening
    paused_us: int = 0
    warned: int = 0
    closed_at_us: int | None = None
    #: per station after the close: points scored (None: no answer)
    scored: dict[int, int] = field(default_factory=dict)
    #: right answers this soon after the opening earn all their points (0: none; rules 2)
    full_us: int = FULL_POINTS_US
    #: per station after the close: what it adds to its team (``team_credits``)
    credit: dict[int, int] = field(default_factory=dict)

    @property
    def deadline_us(self) -> int:
        return self.opened_at_us + self.answer_time_us + self.paused_us

    def reaction_us(self, station: int) -> int:
        """From the opening to the press's stamp."""
        return max(0, self.locked[station].t_us - self.opened_at_us)

    def lock(self, station: int, choice: int, t_us: int, precision_us: int) -> bool:
        """The first pick counts; later ones (and a choice the question has not) do not."""
        if station in self.locked or not 0 <= choice < self.choices or self.closed_at_us is not None:
            return False
        self.locked[station] = LockedAnswer(choice, t_us, precision_us)
        return True

    def close(self, t_us: int, teams: list[int], mean: bool) -> None:
        """Score every locked answer, and each station's credit to its team (``team_credits``)."""
        self.closed_at_us = t_us
        for station, answer in self.locked.items():
            right = answer.choice == self.right
            reaction = min(self.reaction_us(station), self.answer_time_us)
            self.scored[station] = speed_points(self.points, reaction, self.answer_time_us, self.full_us) if right else 0
        self.credit = team_credits(self.scored, teams, mean)

    def distribution(self) -> list[int]:
        counts = [0] * self.choices
        for answer in self.locked.values():
            counts[answer.choice] += 1
        return counts

    def answers(self) -> list[dict[str, Any]]:
        """Each locked answer, fastest first: what results and the reveal show."""
        rows = [{"player": s, "choice": a.choice, "right": a.choice == self.right,
                 "reaction_us": self.reaction_us(s), "precision_us": a.precision_us,
                 "points": self.scored.get(s, 0), "credit": self.credit.get(s, 0)} for s, a in self.locked.items()]
        return sorted(rows, key=lambda row: (row["reaction_us"], row["player"]))

    def view(self, players: int, now_us: int) -> dict[str, Any]:
        """For the shared screen: while open, only WHO has locked in (the room
        sees the screen); after the close, the distribution, the right choice
        and every player's points."""
        out: dict[str, Any] = {"open": self.closed_at_us is None, "choices": self.choices,
                               "locked": [s in self.locked for s in range(players)],
                               "locked_count": len(self.locked),
                               "answer_time_us": self.answer_time_us,
                               "answer_left_us": max(0, self.deadline_us - now_us) if self.closed_at_us is None else 0}
        if self.closed_at_us is not None:
            out.update({"right": self.right, "distribution": self.distribution(), "answers": self.answers(),
                        "points": [self.scored.get(s) for s in range(players)]})
        return out
