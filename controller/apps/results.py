"""``buzzerbox results JOURNAL``: a quiz night's record to take home.

Read from the journal, never from the screen: the journal is replayed and its
events are gathered per question (who buzzed in what order, how far behind
the first, how fast after arming, each judgement with its points, the running
scores, the players' names from the journal's header), as the deciding
process folds them live to write the same record beside a quiz's journal
when the game closes (``controller.box.results.quiz``).

The reader takes what the journal holds: a journal without ``question``
events (written before packs) numbers the questions from ``next``/``armed``;
a damaged one gives the questions before the damage and says where it
stopped; another game's journal is refused in one line.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any

from controller.apps import qbj
from controller.apps.common import UsageError
from controller.apps.journal import not_a_scenario, replay_box
from controller.box import journal as journal_mod
from controller.box.journal import damage_json
from controller.box.results import standings
from controller.box.results.quiz import (
    RESULT_GAMES,
    _undone,
    _whole,
    choice_letter,
    night_from_box,
    said,
    to_csv,
    to_json,
    to_standings_csv,
)
from controller.box.results.quiz_record import QuestionRecord, Results
from controller.box.runtime import Box
from games import registry
from games.arbitration import format_margin, format_ms
from games.base import UnknownGameError
from games.i18n import _
from games.quiz.engine import QuizEngine
from games.quiz.teams import team_colour_name

log = logging.getLogger("buzzerbox.results")


def check_game(game: str, path: str | Path) -> None:
    if game not in RESULT_GAMES:
        raise UsageError(_("{file} is a {game} game; results are kept for quiz games: "
                           "`buzzerbox replay {file} --json` shows its outcome").format(file=path, game=game_title(game)))


def game_title(game: str) -> str:
    """A game's name as a person reads it ("Piepmatz", "Reakční souboj"), not its id;
    an id the box does not know (a newer box's journal) as it is."""
    try:
        return _(registry.get(game).title)
    except UnknownGameError:
        return game


def results_of(path: str) -> Results:
    """``results``: a journal replayed (up to any damage, said in one line on stderr)."""
    _journal, box, damaged = replayed(path)
    return night_from_box(box, path, damaged)


def replayed(path: str) -> tuple[journal_mod.Journal, Box, dict[str, Any] | None]:
    """A quiz journal and its box, replayed up to any damage, and the damage."""
    not_a_scenario(path)
    try:
        header_game = journal_mod.load(path).header.get("game")
    except journal_mod.JournalError as exc:
        raise SystemExit(f"buzzerbox results: {exc}") from None
    if isinstance(header_game, str):
        check_game(header_game, path)
    journal, box = replay_box(path, "results", until_damage=True)
    return journal, box, damage_json(journal).get("damaged")


def write_qbj(path: str, target: str) -> int:
    """``results J --qbj [FILE]``: the quiz bowl match as a QBJ file (``J.qbj``
    beside the journal unless FILE is given; ``-``: the standard output)."""
    journal, box, _damaged = replayed(path)
    if not qbj.is_bowl(box.engine):
        raise UsageError(_("{file} has no quiz bowl round: a QBJ match file records tossups and bonuses; play "
                           "with --option rules=bowl or a round with \"rules\": \"bowl\"").format(file=path))
    engine = box.engine
    assert isinstance(engine, QuizEngine)
    title = str(engine.options.pack_title or "")
    match = qbj.match_of(engine, box.station_names, title, journal.wall_time)
    text = json.dumps(match, indent=2, ensure_ascii=False) + "\n"
    if target == "-":
        sys.stdout.write(text)
        return 0
    out = Path(target) if target else Path(path).with_suffix(qbj.QBJ_SUFFIX)
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(_("cannot write the QBJ file {file}: {reason}; name another with --qbj FILE").format(
            file=out, reason=exc.strerror or exc)) from None
    print(_("QBJ match file written: {file}").format(file=out))
    return 0


# -- out: JSON, CSV, text --------------------------------------------------------------------
def standings_text(r: Results) -> list[str]:
    """The standings for a person: each place with points (each round's too,
    when there were several), right and wrong answers, reactions; the winner."""
    s = standings.standings_of(r)
    lines = [_("Standings")]
    several = len(s.rounds) > 1

    def by_round(rounds: list[int]) -> str:
        return ("; " + ", ".join(f"{standings.round_label(k)} {n}" for k, n in enumerate(rounds))) if several else ""

    for t in s.teams:
        members = ", ".join(r.name(m) for m in t.members)
        lines.append(f"  {t.place}. {t.name}, {team_colour_name(t.team)} ({members}): "
                     f"{standings.points_text(t.points)}{by_round(t.rounds)}")
    if s.teams:
        lines.append("  " + _("players:"))
    for p in s.players:
        about = _("{right} right, {wrong} wrong").format(right=p.correct, wrong=p.wrong)
        if p.fastest_us is not None:
            about += "; " + _("fastest {fastest}, median {median}").format(
                fastest=format_ms(p.fastest_us), median=format_ms(p.fastest_us if p.median_us is None else p.median_us))
        lines.append(f"  {p.place}. {p.name}: {standings.points_text(p.points)} ({about}){by_round(p.rounds)}")
    lines.append(standings.winner_line(s, r))
    return lines


def to_text(r: Results) -> str:
    lines = []
    for q in r.questions:
        about = " ".join(part for part in (q.category and f"[{q.category}]", q.text) if part)
        lines.append(_("Question {n}").format(n=q.number) + (f": {about}" if about else ""))
        for arming in sorted({b.arming for b in q.buzzes} if not q.all_play else ()):  # all-play: its own lines
            order = [r.name(b.station) + (f" {format_margin(b.t_us - b.first_us)}" if b.t_us > b.first_us else "")
                     for b in q.buzzes if b.arming == arming]
            pressed = _("pressed: {order}") if arming == 1 else _("armed again, pressed: {order}")
            lines.append("  " + pressed.format(order=", ".join(order)))
        lines += all_play_lines(r, q) if q.all_play else judgement_lines(r, q)
        lines.append("  " + _("result: {result}; scores {scores}").format(
            result=said(q.result) if q.result else "-", scores=", ".join(f"{n} {s}" for n, s in zip(r.names, q.scores, strict=False))))
    scores = _("final scores: {scores}") if r.finished else _("scores when the game was stopped: {scores}")
    lines.append(scores.format(scores=", ".join(f"{n} {s}" for n, s in zip(r.names, r.scores, strict=False))))
    return "\n".join([*lines, *standings_text(r)])


def judgement_lines(r: Results, q: QuestionRecord) -> list[str]:
    return [f"  {r.name(j.station)}: {_undone(j)}{'' if j.undone else f' {j.points:+d}'}" for j in q.judgements]


def all_play_lines(r: Results, q: QuestionRecord) -> list[str]:
    """An all-play question: how the room answered, then each player's pick,
    time from the opening (with its stamp's precision) and points."""
    spread = ", ".join(f"{choice_letter(k)} {n}" for k, n in enumerate(q.distribution))
    lines = ["  " + _("answers: {spread}").format(spread=spread)]
    for row in q.all_play:
        verdict = said("correct" if row.get("right") else "wrong")
        lines.append("  " + _("{name}: {choice}, {verdict}, {time} ± {precision}, {points:+d}").format(
            name=r.name(row["player"]), choice=choice_letter(_whole(row.get("choice"), 0)), verdict=verdict,
            time=format_ms(_whole(row.get("reaction_us"), 0), 3), precision=format_ms(_whole(row.get("precision_us"), 1), 3),
            points=_whole(row.get("points"), 0)))
    return lines


def cmd_results(args: argparse.Namespace) -> int:
    if args.qbj is not None:
        return write_qbj(args.file, args.qbj)
    results = results_of(args.file)
    if args.json:
        print(json.dumps(to_json(results), indent=2, ensure_ascii=False))
    elif args.csv:
        sys.stdout.write(to_standings_csv(results) if args.csv == "standings" else to_csv(results))
    else:
        print(to_text(results))
    for note in results.notes:
        print(_("note: {note}").format(note=note), file=sys.stderr)
    if not results.questions:
        print(_("{file}: no question was asked in this journal").format(file=args.file), file=sys.stderr)
    return 0


def add_results_command(sub: Any) -> None:
    p = sub.add_parser(
        "results", help=_("a quiz's record from its journal: every question, who pressed in what order, "
                          "judgements, points, running scores"),
        description=_("Every question of a journaled quiz: who pressed in what order with the margins, "
                      "the judgements and points, the running scores, the players' names. A damaged journal "
                      "gives the questions before the damage and says where it stopped."))
    p.add_argument("file", help=_("a quiz journal (.jsonl)"))
    out = p.add_mutually_exclusive_group()
    out.add_argument("--csv", nargs="?", const="presses", choices=("presses", "standings"),
                     help=_("for a spreadsheet: one row per press or judgement (presses, the default), or "
                            "the standings sheet (standings): places, points per round, reactions, the winner"))
    out.add_argument("--json", action="store_true", help=_("everything, as JSON"))
    out.add_argument("--qbj", nargs="?", const="", metavar="FILE",
                     help=_("quiz bowl: the match as a QBJ file for tournament software (J.qbj beside the "
                            "journal, or FILE; - prints it)"))
    p.set_defaults(func=cmd_results)
