"""A quiz bowl night as a QBJ match file (the quizbowl Tournament Schema's
``Match`` object, https://schema.quizbowl.technology), the file tournament
software reads for a game's scoresheet: ``buzzerbox results J --qbj``.

Built from the engine's record of each tossup-bonus cycle (the question's
result's ``bowl``, games/quiz/bowl_scoring.py), so an undone judgement is not in it.
Teams and players are defined once, in ``match_teams``, and referred to by
id in the buzzes. A buzz's ``buzz_position.time`` is when it happened in the
room, from the journal's wall-clock records (``Journal.wall_time``): a journal
written before them gives buzzes without it. The schema it is checked
against: games/quiz/qbj/."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from games.quiz.bowl_scoring import BOWL, NEG, POWER, TEN
from games.quiz.engine import QuizEngine, QuizOptions

SCHEMA = Path(__file__).resolve().parents[2] / "games" / "quiz" / "qbj" / "match.schema.json"
QBJ_SUFFIX = ".qbj"
#: the answer types a tossup scores, as QBJ names them (``AnswerType``): our kinds' labels
LABELS = {POWER: "Power", TEN: "Get", NEG: "Neg"}


def is_bowl(engine: object) -> bool:
    """Played as quiz bowl: the whole quiz, or at least one of its rounds."""
    return isinstance(engine, QuizEngine) and any(opts.rules == BOWL for opts in engine.round_options)


def _bowl_options(engine: QuizEngine) -> QuizOptions:
    """The first bowl round's options: what a power, a ten and a neg are worth."""
    return next(opts for opts in engine.round_options if opts.rules == BOWL)


def _answer_type(engine: QuizEngine, kind: str) -> dict[str, Any]:
    opts = _bowl_options(engine)
    value = {POWER: opts.power_points, NEG: -opts.neg_points}.get(kind, opts.points_correct)
    return {"value": value, "label": LABELS[kind], "awards_bonus": kind != NEG}


def qbj_time(at: datetime) -> str:
    """A QBJ ``Date``: ISO 8601 with its time zone, here UTC to the millisecond
    (``2026-12-03T19:04:05.250Z``, the form JavaScript's ``Date`` reads and writes)."""
    utc = at.astimezone(timezone.utc)
    return utc.strftime("%Y-%m-%dT%H:%M:%S.") + f"{utc.microsecond // 1000:03d}Z"


def _buzz(buzz: dict[str, Any], wall_time: Callable[[int], datetime | None]) -> dict[str, Any]:
    """One ``MatchQuestionBuzz``; with its ``buzz_position.time`` when the wall time of its stamp is known."""
    out: dict[str, Any] = {"team": {"$ref": f"team_{buzz['team'] + 1}"},
                           "player": {"$ref": f"player_{buzz['station'] + 1}"},
                           "result": {"value": int(buzz["points"])}}
    at = wall_time(int(buzz["t_us"])) if "t_us" in buzz else None
    if at is not None:
        out["buzz_position"] = {"time": qbj_time(at)}
    return out


def _no_wall_time(t_us: int) -> None:
    return None


def match_of(engine: QuizEngine, names: Sequence[str], title: str = "",
             wall_time: Callable[[int], datetime | None] = _no_wall_time) -> dict[str, Any]:
    """The ``Match``: each team with its players and bonus points, each tossup
    read with its buzzes (a buzz's ``result`` its points, its time from
    ``wall_time`` of its stamp: the journal's ``Journal.wall_time``) and its
    bonus parts. Only the bowl rounds' questions are the match's, numbered 1,
    2 ... in the order they were read; the other rounds' questions are not in it."""
    results = [r for r in engine.round.results if "bowl" in r]
    view = engine.public_view()
    named = list(view["team_names"])  # a team renamed in the lobby may leave another unnamed
    team_names = {k: named[k] if k < len(named) and named[k] else f"Team {k + 1}" for k in view["teams_shown"]}
    cycles = [r.get("bowl") or {"buzzes": [], "bonus_team": None, "bonus": []} for r in results]
    questions: list[dict[str, Any]] = []
    for read, (result, cycle) in enumerate(zip(results, cycles, strict=True), 1):
        number = int(result["question"])
        asked = engine.pack[number - 1] if 0 < number <= len(engine.pack) else {}
        question: dict[str, Any] = {
            "question_number": read,
            "tossup_question": {"question_number": read, "type": "tossup", "parts": 1,
                                **({"text": str(asked["text"])} if asked.get("text") else {}),
                                **({"category": str(asked["category"])} if asked.get("category") else {})},
            "buzzes": [_buzz(b, wall_time) for b in cycle["buzzes"]],
        }
        if cycle["bonus_team"] is not None:
            question["bonus"] = {"parts": [{"controlled_points": int(p)} for p in cycle["bonus"]]}
        questions.append(question)

    def answer_counts(station: int) -> list[dict[str, Any]]:
        mine = [b["result"] for c in cycles for b in c["buzzes"] if b["station"] == station]
        return [{"number": mine.count(kind), "answer_type": _answer_type(engine, kind)} for kind in (POWER, TEN, NEG)]

    teams = []
    for team, name in team_names.items():  # a team nobody played in is no team of the match
        stations = [s for s, t in enumerate(engine.teams) if t == team]
        players = [{"id": f"player_{s + 1}", "name": str(names[s]) if s < len(names) else f"Player {s + 1}"}
                   for s in stations]
        teams.append({
            "team": {"id": f"team_{team + 1}", "name": str(name), "players": players},
            "bonus_points": sum(sum(c["bonus"]) for c in cycles if c["bonus_team"] == team),
            "match_players": [{"player": {"$ref": p["id"]}, "tossups_heard": len(results),
                               "answer_counts": answer_counts(s)} for s, p in zip(stations, players, strict=True)],
        })
    match: dict[str, Any] = {"tossups_read": len(results), "match_teams": teams, "match_questions": questions}
    if title:
        match["packets"] = title
    return match
