"""A quiz's record to take home, folded from its events: per question, who
pressed in what order, the judgements with their points, the running
scores, the standings; written beside its journal as
``<journal>.results.csv``, ``.standings.csv`` and ``.results.json``.

The deciding process folds it as it decides the game (``Recorder``: its live
box keeps only the newest events) and writes it at the game's close, a stop
included; ``buzzerbox results`` folds a replayed box's events the same way.
"""

from __future__ import annotations

import csv
import io
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.box import journal as journal_mod
from controller.box.results import standings
from controller.box.results.quiz_record import (
    BONUS,
    Buzz,
    Judgement,
    QuestionRecord,
    Results,
    freeze,
    thaw,
)
from controller.box.runtime import Box, box_from_journal
from games.base import EventKind, GameEvent
from games.i18n import N_, _, decimal_separator
from games.quiz.engine import QuizEngine, QuizEvent
from games.quiz.teams import team_colour_name

log = logging.getLogger("buzzerbox.results")

#: the games whose journals this reads: the quiz's events (buzz, winner, correct, ...)
RESULT_GAMES = ("quiz",)
CSV_SUFFIX, JSON_SUFFIX, STANDINGS_SUFFIX = ".results.csv", ".results.json", ".standings.csv"


#: how many questions a fold keeps as objects (the current one and those just before it); the
#: rest are frozen (``freeze``)
LIVE_QUESTIONS = 4


#: the events of the questions' course (the rest are a player's: ``QuizNight._player``)
_COURSE = (QuizEvent.QUESTION, QuizEvent.NEXT, QuizEvent.ALL_PLAY_REVEAL, QuizEvent.ARMED, QuizEvent.ALL_PLAY_OPEN,
           QuizEvent.UNDO, EventKind.ROUND_OVER)


class QuizNight:
    """Folds a quiz's events, in order, into one record per question.

    A live quiz keeps its record until the close writes it (``Recorder``):
    an evening of a question a second (benchmarks/live_memory.py) is 3,600
    questions an hour. The current question and the few before it are
    objects; every older one is frozen (``freeze``: a few hundred bytes of
    compressed tuples, under a quarter of the objects). Kept in memory, not spilled
    to a file beside the journal (one more file to write, to find again
    after a restart and to clean up) nor folded again from the journal at
    the close (the close would replay the whole evening: results_at_close.py);
    thawing all at the close costs milliseconds. An undo that reaches a
    frozen question (the engine's own undo stays on the question on screen,
    an old journal's need not) thaws it, so the record is the same
    whatever was frozen."""

    def __init__(self, players: int, teams: Sequence[int] | None, round_questions: int | None = None) -> None:
        self.players = players
        self.round_questions = round_questions if isinstance(round_questions, int) and round_questions > 0 else None
        self.teams: list[int] = []
        self.team_up(teams)
        self.questions: dict[int, QuestionRecord] = {}  # the last few questions, as objects
        self.frozen: dict[int, bytes] = {}  # every question before them (``freeze``)
        self.number = 1
        self.closed = False  # the current question's round is over: the next arming asks a new one
        self.armed_us: int | None = None
        self.first_us: int | None = None
        #: the question of every judgement, in order, for undo (the judgement itself is its
        #: question's: the k-th of a question here is its question's k-th)
        self.judged: list[int] = []
        self.live_questions = LIVE_QUESTIONS
        self.unfrozen: set[int] = set()  # questions ``freeze`` refused (a value marshal does not take): objects
        self.timeouts: set[tuple[int, int]] = set()  # (station, t_us) of the answer timers that ran out last

    def team_up(self, teams: Sequence[int] | None) -> None:
        """Each station's team (its own, unless ``teams`` names one for every station)."""
        self.teams = list(teams) if teams is not None and len(teams) == self.players else list(range(self.players))

    def current(self) -> QuestionRecord:
        q = self._record(self.number)
        if q is None:
            every = self.round_questions
            q = self.questions[self.number] = QuestionRecord(self.number, round=1 if every is None else (self.number - 1) // every + 1)
        return q

    def _record(self, number: int) -> QuestionRecord | None:
        """Question ``number``'s record as an object (thawed if it was frozen), None if never asked."""
        q = self.questions.get(number)
        if q is None and number in self.frozen:
            q = self.questions[number] = thaw(self.frozen.pop(number))
        return q

    def _freeze_old(self) -> None:
        """Freeze the oldest questions but the current one until ``live_questions`` are left."""
        extra = len(self.questions) - len(self.unfrozen) - self.live_questions
        if extra > 0:
            for number in sorted(n for n in self.questions if n != self.number and n not in self.unfrozen)[:extra]:
                try:
                    self.frozen[number] = freeze(self.questions[number])
                except ValueError:  # not a journal's value: the question stays an object
                    if not self.unfrozen:
                        log.warning("the quiz's record keeps question %s whole: it cannot be frozen", number)
                    self.unfrozen.add(number)
                else:
                    del self.questions[number]

    def take(self, events: Iterable[GameEvent]) -> None:
        for event in events:
            self._take(event)

    def _take(self, e: GameEvent) -> None:
        """One event of the game: the questions' course (``_course``), or what a player did and how it
        was judged (``_player``)."""
        if e.kind in _COURSE:
            self._course(e)
        else:
            self._player(e)

    def _course(self, e: GameEvent) -> None:
        """A question asked, armed, revealed to all, undone or over."""
        data = e.data
        if e.kind == QuizEvent.QUESTION:
            self._move_to(_whole(data.get("number"), self.number))
            q = self.current()
            q.text, q.category, q.answer = (str(data.get(k) or "") for k in ("text", "category", "answer"))
            q.points = _whole(data.get("points"), 0) or None
            q.round = _whole(data.get("round"), q.round)
        elif e.kind == QuizEvent.NEXT:
            self._move_to(_whole(data.get("question"), self.number + 1))
        elif e.kind == QuizEvent.ALL_PLAY_REVEAL:
            self._all_play(data, e.t_us)
        elif e.kind in (QuizEvent.ARMED, QuizEvent.ALL_PLAY_OPEN):
            if self.closed and not data.get("rearmed"):
                self._move_to(self.number + 1)  # armed after a round was over: the engine asks the next question
            self.current().armings += 1
            self.armed_us, self.first_us = e.t_us, None
        elif e.kind == QuizEvent.UNDO:
            self._undo()
        elif e.kind == EventKind.ROUND_OVER:
            q = self.current()
            q.result = str(data.get("result") or "")
            q.winner = e.player
            self.closed = True

    def _player(self, e: GameEvent) -> None:
        """A player's press (first, early, tied), judgement, bonus, time up or score correction."""
        data = e.data
        if e.kind == EventKind.BUZZ and e.player is not None:
            if self.first_us is None:
                self.first_us = e.t_us
            q = self.current()
            q.buzzes += (Buzz(e.player, e.t_us, self.armed_us, self.first_us, max(1, q.armings)),)
        elif e.kind == EventKind.EARLY and e.player is not None:
            self.current().early += ((e.player, e.t_us),)
        elif e.kind == EventKind.TIE:
            self.current().ties += ([s for s in data.get("stations", []) if isinstance(s, int)],)
        elif e.kind in (EventKind.CORRECT, EventKind.WRONG) and e.player is not None:
            timed_out = e.kind == EventKind.WRONG and (e.player, e.t_us) in self.timeouts
            judgement = Judgement(e.player, "time up" if timed_out else e.kind, _whole(data.get("points"), 0),
                                  e.t_us, self.number)
            self.current().judgements += (judgement,)
            self.judged.append(judgement.question)
        elif e.kind == QuizEvent.BONUS_PART and e.player is not None:
            # quiz bowl: the team's bonus, credited to whoever got the tossup (undone like a judgement)
            judgement = Judgement(e.player, BONUS, _whole(data.get("points"), 0), e.t_us, self.number)
            self.current().judgements += (judgement,)
            self.judged.append(judgement.question)
        elif e.kind == EventKind.TIME_UP and e.player is not None:
            # the "wrong" that follows at the same moment is this: it reads "time up" (an earlier moment's is over)
            self.timeouts = {(s, t) for s, t in self.timeouts if t == e.t_us}
            self.timeouts.add((e.player, e.t_us))
        elif e.kind == EventKind.ADJUSTED and e.player is not None:
            self.current().adjustments += ((e.player, _whole(data.get("points"), 0)),)

    def _all_play(self, data: Mapping[str, Any], t_us: int) -> None:
        """An all-play reveal: each answer as a press (its reaction from the
        question's opening) and a judgement with its speed points."""
        q, opened = self.current(), self.armed_us
        rows = [row for row in data.get("answers") or () if isinstance(row, dict) and isinstance(row.get("player"), int)]
        q.all_play = rows
        q.distribution = [_whole(n, 0) for n in data.get("distribution") or ()]
        first = None
        for row in rows:
            pressed = (opened or 0) + _whole(row.get("reaction_us"), 0)
            first = pressed if first is None else first
            q.buzzes += (Buzz(row["player"], pressed, opened, first, max(1, q.armings)),)
            # what the answer added to its team: its share of the team's mean (or, journals before
            # rules 3 and a team_points=sum quiz, its own points)
            credit = _whole(row.get("credit"), _whole(row.get("points"), 0))
            judgement = Judgement(row["player"], "correct" if row.get("right") else "wrong", credit, t_us, self.number)
            q.judgements += (judgement,)
            self.judged.append(judgement.question)

    def _move_to(self, number: int) -> None:
        if number != self.number:
            previous = self._record(self.number)
            if previous is not None and previous.result is None and not self.closed:
                previous.result = "skipped"
            self.number = number
        self.closed = False
        self.current()
        self._freeze_old()

    def _undo(self) -> None:
        """The host took back the last judgement: kept on record, marked undone;
        a question it reopens is current again."""
        seen: dict[int, int] = {}  # how many of each question's judgements the walk passed
        for number in reversed(self.judged):
            k = seen[number] = seen.get(number, 0) + 1
            record = self._record(number)
            if record is None or k > len(record.judgements):  # not this fold's (cannot happen)
                continue
            judgement = record.judgements[-k]
            if not judgement.undone:
                judgement.undone = True
                if judgement.question != self.number or self.closed:
                    self.number = judgement.question
                    q = self.current()
                    q.result, q.winner = None, None
                    self.closed = False
                return

    def finish(self) -> list[QuestionRecord]:
        """The questions in order, each with the running scores after it."""
        team_scores: dict[int, int] = {}
        out = []
        for number in sorted([*self.questions, *self.frozen]):
            q = self.questions[number] if number in self.questions else thaw(self.frozen[number])
            changes = [*((j.station, j.points) for j in q.judgements if not j.undone), *q.adjustments]
            for station, points in changes:
                if 0 <= station < self.players:
                    team = self.teams[station]
                    team_scores[team] = team_scores.get(team, 0) + points
            q.scores = [team_scores.get(self.teams[s], 0) for s in range(self.players)]
            out.append(q)
        return out


def _whole(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


# -- from a journal to a record ------------------------------------------------------------
def night_from_box(box: Box, path: str | Path, damaged: dict[str, Any] | None = None,
                   night: QuizNight | None = None) -> Results:
    """The record of a quiz: of a replayed box (every event: a replayed box
    keeps them all), or of a live one with ``night``, its events folded as
    they came (``Recorder``)."""
    players = box.settings.players
    teams = box.engine.public_view().get("teams")  # the engine's: options or a preset may set them
    if not (isinstance(teams, list) and all(isinstance(t, int) for t in teams)):
        teams = box.settings.options.get("teams")
    if night is None:
        night = QuizNight(players, None, _option(box, "round_questions"))
        night.take(box.event_log)
    night.team_up(teams if isinstance(teams, list) else None)  # the teams as the game ended
    questions = night.finish()
    summary = box.summary()
    scores = summary.get("scores")
    notes = []
    if isinstance(scores, list) and questions and scores != questions[-1].scores:
        notes.append(_("the scores added up from the judgements ({added}) differ from the game's ({scores}): the "
                       "game's are shown as the final scores").format(added=questions[-1].scores, scores=scores))
    names = list(box.station_names)
    outcome = box.engine.outcome()
    return Results(
        journal=str(path), names=names, teams=night.teams, seed=box.settings.seed, questions=questions,
        scores=list(scores) if isinstance(scores, list) else (questions[-1].scores if questions else [0] * players),
        finished=bool(summary.get("finished")), damaged=damaged or {}, notes=notes,
        reason=None if outcome is None else str(outcome.reason.value), win_correct=_option(box, "win_correct"),
        team_names=[str(n) for n in box.engine.public_view().get("team_names") or ()],
        team_quiz=isinstance(box.engine, QuizEngine) and box.engine.team_quiz(),
    )


def _option(box: Box, name: str) -> int | None:
    """A quiz option as the engine settled it (a preset's included), else as given."""
    options = getattr(box.engine, "options", None)
    value = getattr(options, name, box.settings.options.get(name))
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# The JSON is the machine-readable record: its keys, verdicts and results are
# the same English words in every language, its numbers JSON numbers. The text
# and the CSV are for people: in the box's language, numbers with its decimal
# mark (and, where that is a comma, cells separated by ";", as Czech and Polish
# spreadsheets expect).

#: the record's words (as the JSON keeps them) and what a person reads for each
WORDS = {
    "correct": N_("correct"), "wrong": N_("wrong"), "time up": N_("time up"), "early": N_("early"),
    "nobody buzzed": N_("nobody buzzed"), "everyone answered wrong": N_("everyone answered wrong"),
    "skipped": N_("skipped"), "all-play": N_("all play"), BONUS: N_("bonus part"),
}


def said(word: str) -> str:
    """A verdict or result in the box's language (a word it does not know, as it is)."""
    return _(WORDS[word]) if word in WORDS else word


def _ms(us: int | None, point: str = ".") -> str:
    return "" if us is None else f"{us / 1000:.3f}".replace(".", point)


def to_json(r: Results) -> dict[str, Any]:
    def judgement(j: Judgement) -> dict[str, Any]:
        out: dict[str, Any] = {"station": j.station, "name": r.name(j.station), "verdict": j.verdict,
                               "points": j.points, "t_us": j.t_us}
        if j.undone:
            out["undone"] = True
        return out

    questions = []
    for q in r.questions:
        questions.append({
            "number": q.number, "text": q.text, "category": q.category, "points": q.points, "answer": q.answer,
            "buzzes": [{"order": k + 1, "arming": b.arming, "station": b.station, "name": r.name(b.station), "t_us": b.t_us,
                        "behind_first_us": b.t_us - b.first_us,
                        "after_arming_us": None if b.armed_us is None else b.t_us - b.armed_us}
                       for k, b in enumerate(q.buzzes)],
            "early": [{"station": s, "name": r.name(s), "t_us": t} for s, t in q.early],
            "ties": [[r.name(s) for s in tie] for tie in q.ties],
            "judgements": [judgement(j) for j in q.judgements],
            "result": q.result, "winner": None if q.winner is None else r.name(q.winner),
            "scores": q.scores,
        })
        if q.all_play:  # each player's pick, reaction from the opening and its stamp's precision
            questions[-1]["all_play"] = {"distribution": q.distribution, "answers": [
                {**row, "name": r.name(row["player"]), "choice": choice_letter(_whole(row.get("choice"), 0))}
                for row in q.all_play]}
    out: dict[str, Any] = {
        "game": "quiz", "journal": r.journal, "seed": r.seed,
        "players": [{"station": i, "name": n, "team": r.teams[i] if i < len(r.teams) else i}
                    for i, n in enumerate(r.names)],
        "questions": questions, "scores": r.scores, "finished": r.finished, "reason": r.reason,
        "standings": standings.to_json(standings.standings_of(r)),
    }
    if r.damaged:
        out["damaged"] = r.damaged
    return out


#: the CSV's columns, each header in the box's language
CSV_COLUMNS = (N_("question"), N_("category"), N_("text"), N_("answer"), N_("points"), N_("order"), N_("arming"),
               N_("player"), N_("after arming (ms)"), N_("behind the first (ms)"), N_("judgement"),
               N_("points awarded"), N_("result"))


#: a text cell starting with one of these is a formula to a spreadsheet (a pack's
#: question "=HYPERLINK(…)" would run when the host opens the results)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A text cell a spreadsheet shows as text: a leading quote before a formula sign."""
    return "'" + value if isinstance(value, str) and value.startswith(FORMULA_STARTS) else value


class _SafeWriter:
    """``csv.writer`` whose text cells can never be read as formulas."""

    def __init__(self, buf: io.StringIO, delimiter: str = ",") -> None:
        self._writer = csv.writer(buf, delimiter=delimiter, lineterminator="\n")

    def writerow(self, row: list[Any]) -> None:
        self._writer.writerow([safe_cell(v) for v in row])


def _sheet() -> tuple[io.StringIO, _SafeWriter, str]:
    """A sheet as the box's language writes numbers: where the decimal mark is
    a comma, cells are separated by ";" (as Czech and Polish spreadsheets expect)."""
    point = decimal_separator()
    buf = io.StringIO()
    return buf, _SafeWriter(buf, delimiter=";" if point == "," else ","), point


def to_csv(r: Results) -> str:
    """One row per press or judgement of each question (one row for a question
    nobody pressed in), then each player's running score after the question."""
    buf, writer, point = _sheet()
    writer.writerow([*(_(c) for c in CSV_COLUMNS), *(_("score {name}").format(name=n) for n in r.names)])
    for q in r.questions:
        head = [q.number, q.category, q.text, q.answer, "" if q.points is None else q.points]
        tail = [said(q.result or ""), *q.scores]
        rows: list[list[Any]] = []
        pending = list(q.judgements)
        for k, b in enumerate(q.buzzes):
            mine = next((j for j in pending if j.station == b.station), None)
            if mine is not None:
                pending.remove(mine)
            rows.append([k + 1, b.arming, r.name(b.station),
                         _ms(None if b.armed_us is None else b.t_us - b.armed_us, point),
                         _ms(b.t_us - b.first_us, point), *_judged(mine)])
        for j in pending:  # judged without a counted press on record (a pick after a tie, say)
            rows.append(["", "", r.name(j.station), "", "", *_judged(j)])
        for station, _t in q.early:
            rows.append(["", "", r.name(station), "", "", said("early"), ""])
        for row in rows or [["", "", "", "", "", "", ""]]:
            writer.writerow([*head, *row, *tail])
    return buf.getvalue()


#: the standings sheet's columns (the rounds' columns come between points and right answers)
STANDINGS_COLUMNS = (N_("standing"), N_("place"), N_("name"), N_("team"), N_("colour"), N_("members"), N_("points"))
STANDINGS_TAIL = (N_("right"), N_("wrong"), N_("early"), N_("presses"), N_("fastest (ms)"), N_("median (ms)"))


def to_standings_csv(r: Results) -> str:
    """The standings sheet: one row per team (when teams play), one per
    player, places shared on equal points, each round's points, the
    reactions; the winner line last."""
    s = standings.standings_of(r)
    buf, writer, point = _sheet()
    rounds = [standings.round_label(k) for k in range(len(s.rounds))] if len(s.rounds) > 1 else []
    writer.writerow([*(_(c) for c in STANDINGS_COLUMNS), *rounds, *(_(c) for c in STANDINGS_TAIL)])
    for t in s.teams:
        writer.writerow([_("team"), t.place, t.name, t.name, team_colour_name(t.team),
                         ", ".join(r.name(m) for m in t.members), t.points,
                         *(t.rounds if rounds else []), t.correct, t.wrong, "", "", "", ""])
    for p in s.players:
        team = standings.team_name(p.team, r.team_names) if s.teams else ""
        colour = team_colour_name(p.team) if s.teams else ""
        writer.writerow([_("player"), p.place, p.name, team, colour, "", p.points, *(p.rounds if rounds else []),
                         p.correct, p.wrong, p.early, len(p.reactions_us), _ms(p.fastest_us, point),
                         _ms(p.median_us, point)])
    writer.writerow([_("winner"), "", standings.winner_line(s, r)])
    return buf.getvalue()


def _judged(j: Judgement | None) -> list[Any]:
    if j is None:
        return ["", ""]
    return [_undone(j), 0 if j.undone else j.points]


def _undone(j: Judgement) -> str:
    return _("{verdict} (undone)").format(verdict=said(j.verdict)) if j.undone else said(j.verdict)


def choice_letter(k: int) -> str:
    return chr(ord("A") + k) if 0 <= k < 26 else "?"


def has_results(journal_path: str | Path) -> bool:
    """A game whose record is written beside it (its header's first line says; the rest is not read)."""
    try:
        with open(journal_path, "rb") as f:
            header = json.loads(f.readline(1 << 20))
    except (OSError, ValueError):
        return False
    return isinstance(header, dict) and header.get("game") in RESULT_GAMES


def not_written_line(journal_path: str | Path) -> str:
    return _("results: not written at a stop (the journal keeps the game): "
             "'buzzerbox results {journal} --csv' writes them").format(journal=journal_path)


class Recorder:
    """A quiz's record folded as its deciding process decides it: every
    event the box says goes to the fold (``QuizNight``), so the close writes
    the record at once, from the live box, however long the game ran (its
    box keeps only the newest events in memory; the fold keeps the older
    questions frozen, so a long evening grows it by a few hundred bytes a
    question)."""

    def __init__(self, box: Box, *, whole: bool) -> None:
        """``whole``: the box has every event of the game so far (a new game, or
        one resumed by replaying its whole journal), not only those since a checkpoint."""
        self.night = QuizNight(box.settings.players, None, _option(box, "round_questions"))
        self.whole = whole
        self.night.take(box.event_log)
        box.on_events.append(self.night.take)

    @classmethod
    def of(cls, box: Box, *, whole: bool) -> Recorder | None:
        """A recorder for a game whose record is written beside its journal, else None."""
        return cls(box, whole=whole) if box.spec.name in RESULT_GAMES else None

    def write(self, box: Box, path: str | Path) -> list[Path]:
        """The record beside ``path`` (the game's journal), from the fold; never raises."""
        try:
            results = night_from_box(box, path, night=self.night)
        except (LookupError, ValueError, TypeError) as exc:
            log.warning("could not write the results beside %s: %s", path, exc)
            return []
        return write_sheets(results, path)


def write_sheets(results: Results, journal_path: str | Path) -> list[Path]:
    """``<journal>.results.csv``, ``.standings.csv`` and ``.results.json``
    beside the journal. Never raises: a game that ended must not end in an
    error over its record; a failure is one line in the log."""
    path = Path(journal_path)
    written = []
    try:
        for suffix, text in ((CSV_SUFFIX, to_csv(results)), (STANDINGS_SUFFIX, to_standings_csv(results)),
                             (JSON_SUFFIX, json.dumps(to_json(results), indent=2, ensure_ascii=False) + "\n")):
            target = path.with_name(path.name + suffix)
            # the CSV with a byte-order mark: spreadsheets then read Czech and Polish names right
            target.write_text(text, encoding="utf-8" if suffix == JSON_SUFFIX else "utf-8-sig")
            written.append(target)
    except (OSError, LookupError, ValueError) as exc:
        log.warning("could not write the results beside %s: %s", path, exc)
        return written
    log.info("results: %s", ", ".join(str(w) for w in written))
    return written


def write_replayed(journal_path: str | Path) -> list[Path]:
    """The record beside a closed journal, from the journal replayed: for a
    game whose deciding process took it over from a checkpoint (its fold
    missed the events before it), and ``buzzerbox records`` of a journal
    copied or closed without one. Nothing for another game's journal (not
    read through for nothing). Never raises (a failure is one log line)."""
    path = Path(journal_path)
    try:
        if not has_results(path):
            return []
        journal = journal_mod.load(path)
        if journal.session is None or journal.session.game not in RESULT_GAMES:
            return []
        results = night_from_box(box_from_journal(journal), path, journal_mod.damage_json(journal).get("damaged"))
    except (OSError, journal_mod.JournalError, LookupError, ValueError, RecursionError) as exc:
        log.warning("could not write the results beside %s: %s", path, exc)
        return []
    return write_sheets(results, path)
