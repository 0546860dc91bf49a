"""A quiz night's record as ``results`` reads it from a journal: per question,
the presses, judgements and running scores. Its own module so the standings
(``standings``) and the outputs (``results``) both read it without a cycle."""

from __future__ import annotations

import marshal
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: the verdict of a quiz bowl bonus part (the ``bonus_part`` event): points for the team, not an answer
BONUS = "bonus"


@dataclass(slots=True)
class Buzz:
    station: int
    t_us: int
    armed_us: int | None  # when the question was armed for this press (None: not seen)
    first_us: int  # the first counted press since that arming
    arming: int = 1  # 1: the question's first arming; 2, 3 ...: armed again after a wrong answer


@dataclass(slots=True)
class Judgement:
    station: int
    verdict: str  # "correct", "wrong", "time up", BONUS (a quiz bowl bonus part)
    points: int
    t_us: int
    question: int
    undone: bool = False


@dataclass(slots=True)
class QuestionRecord:
    """Everything the journal says about one question. A live quiz keeps
    the last few as these objects and every closed one before them frozen
    (``freeze``: ``QuizNight``) until its close writes them; slots, and
    tuples that grow by a new one (most stay the shared empty one)."""

    number: int
    text: str = ""
    category: str = ""
    points: int | None = None
    answer: str = ""
    buzzes: tuple[Buzz, ...] = ()
    early: tuple[tuple[int, int], ...] = ()  # (station, t_us)
    ties: tuple[list[int], ...] = ()
    judgements: tuple[Judgement, ...] = ()
    result: str | None = None  # the engine's word: "correct", "nobody buzzed", "skipped", ...
    winner: int | None = None
    armings: int = 0
    scores: list[int] = field(default_factory=list)  # every station's score after it
    round: int = 1  # the round it was asked in (``round_questions`` questions a round, or the event's own)
    #: an all-play question: the answers as the reveal gave them (player, choice, right,
    #: reaction_us from the opening, precision_us, points), fastest first; empty otherwise
    all_play: Sequence[dict[str, Any]] = ()
    distribution: Sequence[int] = ()  # an all-play question: how many picked each choice
    adjustments: tuple[tuple[int, int], ...] = ()  # the host's corrections: (station, points)


def freeze(q: QuestionRecord) -> bytes:
    """A closed question as a few hundred bytes: its fields in order, its
    presses and judgements as tuples, marshalled (the event data's own
    JSON-like values, lists and dicts in their order, as they are) and
    compressed. A live quiz keeps every question it asked until the close
    writes the results: as objects that is ~1.1 KiB a question with five
    presses, ~4 MiB an hour at the question a second of
    benchmarks/live_memory.py; frozen, under a quarter of it
    (benchmarks/quiz_record_size.py). ``thaw`` gives the
    same record back, field for field. Raises ValueError for a value
    ``marshal`` does not take (the question then stays an object)."""
    judgements = tuple((j.station, str.__str__(j.verdict), j.points, j.t_us, j.question, j.undone)  # an EventKind as its string
                       for j in q.judgements)
    fields: tuple[Any, ...] = (
        q.number, q.text, q.category, q.points, q.answer,
        tuple((b.station, b.t_us, b.armed_us, b.first_us, b.arming) for b in q.buzzes), q.early, q.ties, judgements,
        q.result, q.winner, q.armings, q.scores, q.round, q.all_play, q.distribution, q.adjustments)
    return zlib.compress(marshal.dumps(fields), 1)


def thaw(frozen: bytes) -> QuestionRecord:
    """The record ``freeze`` froze."""
    (number, text, category, points, answer, buzzes, early, ties, judgements, result, winner, armings, scores,
     round_, all_play, distribution, adjustments) = marshal.loads(zlib.decompress(frozen))
    return QuestionRecord(number, text, category, points, answer, tuple(Buzz(*b) for b in buzzes), early, ties,
                          tuple(Judgement(*j) for j in judgements), result, winner, armings, scores, round_,
                          all_play, distribution, adjustments)


@dataclass
class Results:
    """A quiz night as a record: players, questions, final scores."""

    journal: str
    names: list[str]
    teams: list[int]
    seed: int
    questions: list[QuestionRecord]
    scores: list[int]
    finished: bool
    damaged: dict[str, Any]
    notes: list[str]
    #: why the game ended (the engine's ``EndReason`` value), when it did
    reason: str | None = None
    #: the right answers that win (the race preset), for the winner line
    win_correct: int | None = None
    #: the teams' own names, in team order (empty: "Team N")
    team_names: list[str] = field(default_factory=list)
    #: teams play (a preset's or the options' teams): team standings even when each team is one player
    team_quiz: bool = False

    def name(self, station: int) -> str:
        return self.names[station] if 0 <= station < len(self.names) else f"station {station}"
