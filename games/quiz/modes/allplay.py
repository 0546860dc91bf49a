"""All-play's steps (games/quiz/modes/): every station (or phone) answers
every multiple-choice question, Kahoot-style, scored by speed, in place of
classic's buzzer race (the scoring itself is ``games/quiz/allplay_scoring.py``'s;
docs/quiz.md#all-play-rounds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, EventKind, FirstPress, GameEvent, RuleError
from games.i18n import N_
from games.quiz.allplay_scoring import (
    ALL_PLAY,
    ALL_PLAY_PRESET,
    FULL_POINTS_US,
    TEAM_MEAN,
    TEAM_SUM,
    AllPlayQuestion,
    right_choice,
)
from games.quiz.core import WARNING_SECONDS, Phase, QuizEvent
from games.quiz.modes.classic import ClassicMode
from games.quiz.options import REVEAL_CLOSES_ALL_PLAY


class AllPlayMode(ClassicMode):
    """All-play questions: open, lock in, time up, reveal. The question's
    state is the quiz's ``allplay`` (its views and lamps read it)."""

    def first_press(self) -> FirstPress | None:
        """No race declared ahead: everyone answers at once (the lamp follows the decision)."""
        return None

    def round_card(self) -> dict[str, Any]:
        """With teams, the card says how a team's points are made."""
        if not self.quiz.team_quiz():
            return {}
        return {"team_points": self.options.team_points if self.quiz._rules_3() else TEAM_SUM}

    def all_play_view(self) -> dict[str, Any] | None:
        """The question for the shared screen (buttons: None on keyboard
        stations, whose one button answers nothing: the screen says phones)."""
        quiz, question = self.quiz, self.quiz.allplay
        if question is None:
            return None
        return {**question.view(quiz.settings.players, quiz.now_us), "buttons": quiz.options.station_choices}

    def status(self, station: int) -> str | None:
        """A station that locked in: in (its lamp lit), then right or not."""
        question = self.quiz.allplay
        if question is None or station not in question.locked:
            return None
        if question.closed_at_us is None:
            return "answered"
        return "right" if question.locked[station].choice == question.right else "missed"

    def seat_view(self, station: int) -> dict[str, Any]:
        """The choice ``station`` locked in, while its question is open: its own phones show it (a
        reload, a second tab, another phone of the seat), never the shared screen nor the scoreboard,
        where the others could copy it. The reveal then says everyone's."""
        question = self.quiz.allplay
        if question is None or question.closed_at_us is not None or self.quiz.round.phase != Phase.ALL_PLAY \
                or station not in question.locked:
            return {}
        return {"locked": question.locked[station].choice}

    def resume(self, paused_us: int) -> None:
        """An open question's timer gets the paused time back."""
        question = self.quiz.allplay
        if question is not None and question.closed_at_us is None:
            question.paused_us += paused_us

    def choices_shown(self, question: Mapping[str, Any], choices: list[Any]) -> list[Any]:
        """Only the choices the stations' buttons (and the phones) offer."""
        return choices[: self.offered(question)]

    def host_moves(self, phase: Phase) -> list[str]:
        """While the question is open: reveal or skip it; a question over is
        followed by the next one (nobody buzzes it again)."""
        if phase == Phase.ALL_PLAY:
            return ["reveal", "next"]
        return ["next"] if phase == Phase.ROUND_OVER else super().host_moves(phase)

    def reveal(self, t: int) -> list[GameEvent]:
        """The host's reveal (the host remote's next, a clicker's step) while the question is open
        closes it first, as its timer's end would: nobody picks once the answer is out. (Rules 2
        and 3 showed the answer with the question still open: a pick made after it scored.)"""
        quiz = self.quiz
        if quiz.round.phase == Phase.ALL_PLAY and quiz.allplay is not None and \
                quiz.options.rules_version >= REVEAL_CLOSES_ALL_PLAY:
            return self._close(t)
        return super().reveal(t)

    def arm(self, t: int) -> list[GameEvent]:
        """The host opens the question: the timer starts, every station may pick."""
        quiz = self.quiz
        question = quiz._question()
        right, offered = right_choice(question), self.offered(question)
        if right is None or right >= offered:
            raise RuleError(N_("an all-play question needs choices with the answer among them; "
                               "skip this one with next"))
        time_us = quiz.options.answer_time_us or int(ALL_PLAY_PRESET["answer_time_us"])
        quiz.allplay = AllPlayQuestion(t, time_us, offered, right, quiz._points(),
                                       full_us=FULL_POINTS_US if quiz._rules_3() else 0)
        quiz.round.phase = Phase.ALL_PLAY
        return [GameEvent(QuizEvent.ALL_PLAY_OPEN, t, None, {"choices": quiz.allplay.choices, "answer_time_us": time_us})]

    def offered(self, question: Mapping[str, Any]) -> int:
        """How many of a question's choices (the first ones) an all-play round
        offers: everyone, on a station or a phone, picks among the same."""
        count, most = len(question.get("choices") or ()), self.quiz.options.most_choices
        return count if most is None else min(count, most)

    def press(self, action: Action) -> list[GameEvent]:
        return self._pick(action, from_phone=False)

    def answer(self, action: Action) -> list[GameEvent]:
        return self._pick(action, from_phone=True)

    def _pick(self, action: Action, from_phone: bool) -> list[GameEvent]:
        """A station's button (or a phone's answer) picks a choice: the first
        pick is locked in. A station's stray press (its bell, a button past the
        question's choices, a press while no question is open) does nothing; a
        phone's move outside the question is refused."""
        assert action.player is not None
        quiz = self.quiz
        question, station = quiz.allplay, action.player
        choice = action.args.get("choice")
        is_open = question is not None and quiz.round.phase == Phase.ALL_PLAY
        if from_phone:
            if not is_open:
                raise RuleError(N_("no all-play question is open: wait for the host to open one"))
            assert question is not None
            if not isinstance(choice, int) or isinstance(choice, bool) or not 0 <= choice < question.choices:
                raise RuleError(N_("choose one of the question's {count} choices"), count=question.choices)
            if station in question.locked:
                raise RuleError(N_("your answer is locked in already"))
        if not is_open or not isinstance(choice, int) or isinstance(choice, bool):
            return []
        assert question is not None
        if not question.lock(station, choice, action.t_us, action.precision_us):
            return []
        events = [GameEvent(QuizEvent.LOCKED_IN, action.t_us, station, {"answered": len(question.locked)})]
        if len(question.locked) == quiz.settings.players:
            events += self._close(action.t_us)
        return events

    def deadline_us(self) -> int | None:
        """While a question is open: the next timer warning (each of the last seconds), else its end."""
        quiz, question = self.quiz, self.quiz.allplay
        if quiz.round.phase != Phase.ALL_PLAY or question is None:
            return super().deadline_us()
        if question.warned < WARNING_SECONDS:
            warn_at = question.deadline_us - (WARNING_SECONDS - question.warned) * 1_000_000
            return max(warn_at, quiz.now_us + 1)
        return question.deadline_us

    def fire(self, now_us: int) -> list[GameEvent]:
        if self.quiz.round.phase != Phase.ALL_PLAY:
            return super().fire(now_us)
        question = self.quiz.allplay
        assert question is not None
        left = question.deadline_us - now_us
        if left <= 0:
            return [GameEvent(EventKind.TIME_UP, question.deadline_us, None), *self._close(question.deadline_us)]
        question.warned = max(question.warned + 1, WARNING_SECONDS - (left - 1) // 1_000_000)
        return [GameEvent(EventKind.TIMER_WARNING, now_us, None, {"seconds_left": -(-left // 1_000_000)})]

    def _team_mean(self) -> bool:
        """A team scores its members' mean (rules 3, unless ``team_points`` is ``sum``)."""
        return self.quiz._rules_3() and self.quiz.options.team_points == TEAM_MEAN

    def _close(self, t: int) -> list[GameEvent]:
        """Everyone has answered or the timer ran out: each right answer
        scores by its speed, the answer is shown with how the room answered."""
        quiz = self.quiz
        question = quiz.allplay
        assert question is not None
        question.close(t, quiz.teams, self._team_mean())
        r = quiz.round
        r.revealed = True
        for station, credit in question.credit.items():
            r.scores[quiz.teams[station]] += credit
        for station in question.scored:
            team = quiz.teams[station]
            if question.locked[station].choice == question.right:
                r.correct[team] += 1
            else:
                r.wrong[team] += 1
            quiz.reactions[station].add(question.reaction_us(station))
        answers = question.answers()
        fastest = next((row["player"] for row in answers if row["right"]), None)
        reveal = GameEvent(QuizEvent.ALL_PLAY_REVEAL, t, None, {
            "number": r.question, "answer": str(quiz._question().get("answer", "")), "right": question.right,
            "distribution": question.distribution(), "answers": answers})
        return [reveal, *quiz._end_round(t, fastest, ALL_PLAY)]
