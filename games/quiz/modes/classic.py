"""Classic's steps, the buzzer race (games/quiz/modes/): the first press
answers, the host judges it; a wrong answer passes the turn on (the presets
race, sit-out, penalty, second-chance and teams set its numbers). Every mode
is a ``ClassicMode`` with its own steps in place of some: quiz bowl
(``bowl.py``) keeps the race and adds tossups and bonuses, all-play
(``allplay.py``) replaces the race by everyone answering at once.

A mode is chosen once per round (``QuizCore.modes``: a night of rounds may
change it); the core calls its hooks where the round flow differs, the mode
reads and changes the quiz's state through ``self.quiz``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, EventKind, FirstPress, GameEvent, RuleError
from games.i18n import N_
from games.quiz.core import WARNING_SECONDS, Phase, QuizCore, QuizEvent, QuizOptions

#: what the host may do in each phase of the race (a mode with phases of its own adds them)
HOST_MOVES: Mapping[Phase, tuple[str, ...]] = {
    Phase.IDLE: ("arm", "next"),
    Phase.ARMED: ("reset", "next"),
    Phase.ANSWERING: ("correct", "wrong", "reset", "next"),
    Phase.TIE: ("pick", "arm", "reset", "next"),
    Phase.ROUND_OVER: ("next", "arm"),
}


class ClassicMode:
    """The buzzer race: the hooks the core calls, as classic plays them."""

    def __init__(self, quiz: QuizCore, options: QuizOptions) -> None:
        self.quiz = quiz
        #: the round's options (its preset's values in place of the quiz's)
        self.options = options

    # -- the round's card and record ------------------------------------------
    def round_card(self) -> dict[str, Any]:
        """What the round's card says beyond every round's numbers."""
        return {}

    def result_record(self) -> dict[str, Any]:
        """What a question's result records beyond who won it and why."""
        return {}

    def tossup_view(self) -> dict[str, Any] | None:
        """Quiz bowl's tossup for the screen (``public_view()["bowl"]``): none here."""
        return None

    def all_play_view(self) -> dict[str, Any] | None:
        """All-play's question for the screen (``public_view()["all_play"]``): none here."""
        return None

    def status(self, station: int) -> str | None:
        """A station's status of the mode's own (None: the race's, ``QuizCore._status``)."""
        return None

    def seat_view(self, station: int) -> dict[str, Any]:
        """What only ``station``'s own phones may see (``private_view(seat)``): nothing in the race."""
        return {}

    def resume(self, paused_us: int) -> None:
        """After a pause: the race's clocks are the core's (``QuizCore._resume``)."""

    def choices_shown(self, question: Mapping[str, Any], choices: list[Any]) -> list[Any]:
        """A question's choices as the screen and host page show them: all of them."""
        return choices

    # -- players ----------------------------------------------------------------
    def press(self, action: Action) -> list[GameEvent]:
        """A station's button: a press in the race (a team answers once)."""
        quiz = self.quiz
        assert action.player is not None
        station, t = action.player, action.t_us
        if quiz.finished:
            return []
        outcome = quiz.arbiter.press(station, t, action.precision_us, action.clock, action.clock_precision_us)
        if outcome in ("early", "locked"):
            until = quiz.arbiter.locked_until_us[station]
            return [GameEvent(EventKind.EARLY, t, station, {"locked_until_us": until, "restarted": outcome == "locked"})]
        if outcome == "out":
            return self.press_out(station, t)
        if outcome == "counted":
            if quiz.arbiter.armed_at_us is not None:
                quiz.reactions[station].add(t - quiz.arbiter.armed_at_us)
            # a team answers once: drop team-mates' later presses from the queue
            team = quiz.teams[station]
            mates = [b for b in quiz.arbiter.buzzes if quiz.teams[b.station] == team]
            if len(mates) > 1:
                keep = min(mates, key=lambda b: b.t_us)
                quiz.arbiter.buzzes = [b for b in quiz.arbiter.buzzes if quiz.teams[b.station] != team or b is keep]
                if keep.station != station:
                    return []
            return [GameEvent(EventKind.BUZZ, t, station)]
        return []

    def _decide_at(self) -> int | None:
        """When the first press of this arming is announced: once no later
        press could still tie with it (the tie window, or the coarsest stamp
        precision among the presses so far), and not before ``settle_us``.
        Late *deliveries* are the box's business (its decision horizon)."""
        quiz = self.quiz
        first = quiz.arbiter.first_time_us()
        if first is None:
            return None
        wait = max(quiz.options.settle_us, quiz.options.tie_window_us,
                   max(b.precision_us for b in quiz.arbiter.buzzes), 1)
        return first + wait

    def first_press(self) -> FirstPress | None:
        """The race an armed buzzer question is (``FirstPress``): nobody has
        pressed yet, and the first counted press alone in its tie window
        answers and shows ``first``. Each station that shows ``idle`` competes,
        one still ``locked`` too, each from its lockout's end (a press stamped
        inside a lockout that has since ended, delivered late, restarts it);
        one out, sitting or of an eliminated team does not."""
        quiz = self.quiz
        r = quiz.round
        armed_at = quiz.arbiter.armed_at_us
        if (r.phase != Phase.ARMED or r.decided_at_us is not None or armed_at is None or quiz.arbiter.buzzes
                or quiz.finished or quiz.allplay is not None):
            return None
        stations: dict[int, int] = {}
        locked_until = quiz.arbiter.locked_until_us
        for s in range(quiz.settings.players):
            status = quiz._status(s)
            if status == "idle" or (status == "locked" and s not in quiz.arbiter.excluded
                                    and quiz.teams[s] not in r.eliminated):
                stations[s] = max(armed_at, locked_until.get(s, armed_at))
        return FirstPress(stations, max(quiz.options.settle_us, quiz.options.tie_window_us))

    def _decide(self, at_us: int) -> list[GameEvent]:
        quiz = self.quiz
        r = quiz.round
        result = quiz.arbiter.result()
        r.decided_at_us = at_us
        if result.winner is None:
            r.phase = Phase.TIE
            return [GameEvent(EventKind.TIE, at_us, None, {"stations": result.ties[0]})]
        return self._give_turn(result.winner, at_us)

    def _give_turn(self, station: int, at_us: int, kind: str = EventKind.WINNER) -> list[GameEvent]:
        """``winner``: the first press answers; ``next_in_line``: the turn
        passes on after a wrong answer."""
        quiz = self.quiz
        r = quiz.round
        r.phase = Phase.ANSWERING
        r.answering = station
        r.tie_pick = None  # by the race (a tie's pick says so after)
        r.warned = 0
        r.answer_deadline_us = None if quiz.options.answer_time_us is None else at_us + quiz.options.answer_time_us
        result = quiz.arbiter.result()
        return [
            GameEvent(
                kind,
                at_us,
                station,
                {"queue": result.queue, "margins_us": result.margins_us, "ties": result.ties},
            )
        ]

    def answer(self, action: Action) -> list[GameEvent]:
        """A phone's ``answer`` move: only an all-play question takes one."""
        raise RuleError(N_("no all-play question is open: wait for the host to open one"))

    def press_out(self, station: int, t: int) -> list[GameEvent]:
        """A press of a station out of this question: nothing happens."""
        return []

    # -- timers -----------------------------------------------------------------
    def fire(self, now_us: int) -> list[GameEvent]:
        """The deadline due at ``now_us``: the first press announced, the buzz
        window closed, an answer timer's warning or its end."""
        quiz, r = self.quiz, self.quiz.round
        events: list[GameEvent] = []
        if r.phase == Phase.ARMED and r.decided_at_us is None:
            decide_at = self._decide_at()
            if decide_at is not None and now_us >= decide_at:
                events += self._decide(decide_at)
            elif (
                decide_at is None
                and quiz.options.buzz_window_us is not None
                and quiz.arbiter.armed_at_us is not None
                and now_us >= quiz.arbiter.armed_at_us + quiz.options.buzz_window_us + r.buzz_window_shift_us
            ):
                end = quiz.arbiter.armed_at_us + quiz.options.buzz_window_us + r.buzz_window_shift_us
                events += quiz._end_round(end, None, "nobody buzzed")
        if r.phase == Phase.ANSWERING and r.answer_deadline_us is not None:
            left = r.answer_deadline_us - now_us
            if left <= 0:
                events.append(GameEvent(EventKind.TIME_UP, r.answer_deadline_us, r.answering))
                events += self._judge(False, r.answer_deadline_us)
            else:
                due = WARNING_SECONDS - (left - 1) // 1_000_000
                if due > r.warned:
                    r.warned = due
                    events.append(GameEvent(EventKind.TIMER_WARNING, now_us, r.answering,
                                            {"seconds_left": -(-left // 1_000_000)}))
        return events

    def deadline_us(self) -> int | None:
        """The next moment ``fire`` has something to do (None: nothing is timed)."""
        quiz, r = self.quiz, self.quiz.round
        if r.phase == Phase.ARMED and r.decided_at_us is None:
            decide_at = self._decide_at()
            if decide_at is not None:
                return decide_at
            if quiz.options.buzz_window_us is not None and quiz.arbiter.armed_at_us is not None:
                return quiz.arbiter.armed_at_us + quiz.options.buzz_window_us + r.buzz_window_shift_us
        if r.phase == Phase.ANSWERING and r.answer_deadline_us is not None:
            warn_at = r.answer_deadline_us - (WARNING_SECONDS - r.warned) * 1_000_000
            return max(warn_at, quiz.now_us + 1) if r.warned < WARNING_SECONDS else r.answer_deadline_us
        return None

    # -- the host -----------------------------------------------------------------
    def host_moves(self, phase: Phase) -> list[str]:
        """What the host may do now (before reveal, the leaderboard, undo ...)."""
        return list(HOST_MOVES[phase])

    def mark(self, kind: str, t: int) -> list[GameEvent]:
        """A moderator's mark while reading (quiz bowl's ``power`` and ``read``): none here."""
        return []

    def reveal(self, t: int) -> list[GameEvent]:
        """The host shows the question's answer (legal once nobody may answer it any more)."""
        quiz, r = self.quiz, self.quiz.round
        r.revealed = True
        return [GameEvent(QuizEvent.REVEAL, t, None, {"number": r.question, "answer": str(quiz._question().get("answer", ""))})]

    def arm(self, t: int) -> list[GameEvent]:
        """The host arms the buzzers (again after a tie, or for the next question)."""
        quiz, r = self.quiz, self.quiz.round
        events: list[GameEvent] = []
        if r.phase in (Phase.ROUND_OVER,):
            events += quiz._new_question(t)
        elif r.phase == Phase.TIE:
            quiz.arbiter.disarm()
        quiz.arbiter.arm(t)
        quiz._bench()
        r.phase = Phase.ARMED
        r.decided_at_us = None
        r.answering = None
        r.buzz_window_shift_us = 0
        return events + [GameEvent(QuizEvent.ARMED, t)]

    def judge(self, correct: bool, t: int) -> list[GameEvent]:
        """The host's ``correct`` or ``wrong``."""
        return self._judge(correct, t)

    def _judge(self, correct: bool, t: int) -> list[GameEvent]:
        """The host judges the answering station's answer (what it scores: the round's mode)."""
        quiz = self.quiz
        r = quiz.round
        quiz._keep_for_undo(t)
        station = r.answering
        assert station is not None
        team = quiz.teams[station]
        opts = quiz.options
        points, data = self.judged(station, correct)
        r.scores[team] += points
        if correct:
            r.correct[team] += 1
            events = [GameEvent(EventKind.CORRECT, t, station, {"points": points, **data})]
            if opts.win_correct is not None and r.correct[team] >= opts.win_correct:
                r.over = "won"
            return events + self.after_right(t, station)
        r.wrong[team] += 1
        r.had_wrong = True
        data = {"points": points, **data}
        if opts.out_wrong is not None and r.wrong[team] >= opts.out_wrong and team not in r.eliminated:
            r.eliminated.append(team)
            data["out_of_game"] = True
        if opts.sit_out:
            data["sits_out"] = opts.sit_out
        events = [GameEvent(EventKind.WRONG, t, station, data)]
        for s, s_team in enumerate(quiz.teams):
            if s_team == team:
                quiz.arbiter.exclude(s)
                if opts.sit_out:
                    r.sitting_until[s] = r.question + opts.sit_out
        still_in = {tm for tm in set(quiz.teams) if tm not in r.eliminated}
        if opts.out_wrong is not None and len(set(quiz.teams)) > 1 and len(still_in) <= 1:
            r.over = "last standing"
            return events + quiz._end_round(t, None, "everyone answered wrong")
        if all(quiz.teams[s] in {quiz.teams[x] for x in quiz.arbiter.excluded} for s in range(quiz.settings.players)):
            return events + quiz._end_round(t, None, "everyone answered wrong")
        return events + self.after_wrong(t)

    def pick(self, action: Action, t: int) -> list[GameEvent]:
        """The host picks who answers of a tie (or draws one)."""
        quiz = self.quiz
        tie = quiz.arbiter.result(contenders_only=True).ties
        if "player" in action.args:
            station = int(action.args["player"])
        else:  # no choice named: a fair draw from the game's seeded generator (replays the same)
            station = quiz.rng.choice(tie[0]) if tie else -1
        if not tie or station not in tie[0]:
            raise RuleError(N_("pick one of the tied stations: {stations}"),
                           stations=", ".join(str(s + 1) for s in tie[0]) if tie else N_("nothing"))
        events = self._give_turn(station, t)
        quiz.round.tie_pick = "chosen" if "player" in action.args else "drawn"  # the screen says so, not a margin
        return events

    def judged(self, station: int, correct: bool) -> tuple[int, dict[str, Any]]:
        """What the answer of ``station`` scores (less than 0: it costs) and
        what its event says beyond the points: a second press earns its share."""
        quiz, opts = self.quiz, self.quiz.options
        if not correct:
            return -opts.points_wrong, {}
        points = quiz._points()
        if quiz.round.had_wrong:  # a second press: credit as the rules say
            points = (points * opts.second_points + 50) // 100
        return points, {}

    def after_right(self, t: int, station: int) -> list[GameEvent]:
        """After a right answer: the question is over."""
        return self.quiz._end_round(t, station, "correct")

    def after_wrong(self, t: int) -> list[GameEvent]:
        """After a wrong answer with someone still in: the next in line
        answers, a tie is decided, or everyone else may buzz again."""
        quiz, r, opts = self.quiz, self.quiz.round, self.quiz.options
        result = quiz.arbiter.result(contenders_only=True)
        if opts.after_wrong == "next" and (result.winner is not None):
            return self._give_turn(result.winner, t, QuizEvent.NEXT_IN_LINE)
        if opts.after_wrong == "next" and result.ties:
            r.phase = Phase.TIE
            return [GameEvent(EventKind.TIE, t, None, {"stations": result.ties[0]})]
        # nobody left in line (or re-arm by setting): everyone else may buzz again
        quiz.arbiter.arm(t)
        r.phase = Phase.ARMED
        r.answering = None
        r.decided_at_us = None
        r.answer_deadline_us = None
        return [GameEvent(QuizEvent.ARMED, t, None, {"rearmed": True})]
