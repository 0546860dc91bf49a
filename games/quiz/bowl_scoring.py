"""Quiz bowl (the ``bowl`` preset, docs/quiz.md): tossups read aloud with a
power mark, negs for wrong interrupts, and a bonus to the team that got the
tossup. The quiz keeps one ``Tossup`` per question in the round's state that undo
restores (the bowl mode, ``modes/bowl.py``, plays it), so it is immutable:
every change is a new one.

Whether an answer is a power or an interrupt is decided by stamps: the
buzz's stamp against the moment the moderator pressed *power mark* (read past
the ``*``) and *read* (the question read to the end)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from games.i18n import N_

BOWL = "bowl"
#: the preset's defaults: a tossup is worth 10 (15 before the power mark, -5
#: for a wrong interrupt); after a neg the buzzers open again for the other
#: team once the question is read to the end; bonuses of 3 parts x 10
BOWL_PRESET: dict[str, Any] = {"points_correct": 10, "after_wrong": "rearm", "power_points": 15,
                               "neg_points": 5, "bonus_parts": 3, "bonus_points": 10}
#: where a pack's question text marks its power: the words before it are worth a power
POWER_MARK = "*"
#: each buzz's result as QBJ's answer types name them (the points, here for the record)
POWER, TEN, NEG, NO_PENALTY = "power", "ten", "neg", "no_penalty"


@dataclass(frozen=True)
class Buzz:
    """One judged tossup answer."""

    station: int
    team: int
    kind: str  # POWER, TEN, NEG or NO_PENALTY
    points: int
    t_us: int


@dataclass(frozen=True)
class Tossup:
    """What happened in this question's tossup-bonus cycle so far."""

    power_at_us: int | None = None  # the moderator read past the power mark
    read_at_us: int | None = None  # the moderator read the question to the end
    buzzes: tuple[Buzz, ...] = ()
    bonus_team: int | None = None  # the team answering the bonus (it got the tossup)
    bonus: tuple[int, ...] = ()  # the points of each bonus part judged so far

    def read_to(self, t_us: int) -> Tossup:
        """The moderator finished reading (past the power mark too)."""
        return replace(self, read_at_us=t_us, power_at_us=t_us if self.power_at_us is None else self.power_at_us)

    def judged(self, buzz: Buzz) -> Tossup:
        return replace(self, buzzes=(*self.buzzes, buzz))

    def record(self) -> dict[str, Any]:
        """The cycle for the question's result (``results``, the QBJ export)."""
        return {"buzzes": [{"station": b.station, "team": b.team, "result": b.kind, "points": b.points,
                            "t_us": b.t_us} for b in self.buzzes],
                "bonus_team": self.bonus_team, "bonus": list(self.bonus)}


def has_power(question: dict[str, Any]) -> bool:
    """A question with a power mark in its text can be answered for a power."""
    return POWER_MARK in str(question.get("text", ""))


def tossup_result(tossup: Tossup, buzz_us: int, correct: bool, power: bool) -> str:
    """A buzz at ``buzz_us`` judged right or wrong: a power before the mark
    (if the question has one), ten after it; a neg while the question was
    still being read, no penalty once it was read to the end."""
    interrupt = tossup.read_at_us is None or buzz_us < tossup.read_at_us
    if correct:
        before_mark = tossup.power_at_us is None or buzz_us < tossup.power_at_us
        return POWER if power and interrupt and before_mark else TEN
    return NEG if interrupt else NO_PENALTY


def two_teams(players: int) -> list[int]:
    """The stations as two teams, the first half and the second (a school match)."""
    return [0 if s < (players + 1) // 2 else 1 for s in range(players)]


#: what the menu says beside its rows when its bowl night is played with a pack
TOSSUPS_ONLY = N_("Tossups only: this pack has no bonuses. With the host's own questions the moderator reads "
                  "bonuses from their packet.")


def bonuses_to_read(pack: object) -> bool:
    """Whether a bowl round's bonuses have anything to be read from: the
    host's own questions do (the moderator's packet holds tossups and
    bonuses); a pack does not, it holds tossups only (docs/question-packs.md:
    no field of a pack is a bonus)."""
    return pack is None
