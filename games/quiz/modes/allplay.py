"""All-play's steps over the quiz's core: every station (or phone) answers
every multiple-choice question, Kahoot-style, scored by speed (the scoring
itself is ``games/quiz/allplay_scoring.py``'s; docs/quiz.md#all-play-rounds)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameEvent, RuleError
from games.i18n import N_
from games.quiz.allplay_scoring import (
    ALL_PLAY,
    ALL_PLAY_PRESET,
    FULL_POINTS_US,
    AllPlayQuestion,
    right_choice,
)
from games.quiz.core import WARNING_SECONDS, Phase, QuizCore


class AllPlayMode(QuizCore):
    """The core with all-play questions: open, lock in, time up, reveal."""

    def _all_play_open(self, t: int) -> list[GameEvent]:
        """The host opens the question: the timer starts, every station may pick."""
        question = self._question()
        right, offered = right_choice(question), self._offered(question)
        if right is None or right >= offered:
            raise RuleError(N_("an all-play question needs choices with the answer among them; "
                               "skip this one with next"))
        time_us = self.options.answer_time_us or int(ALL_PLAY_PRESET["answer_time_us"])
        self.allplay = AllPlayQuestion(t, time_us, offered, right, self._points(),
                                       full_us=FULL_POINTS_US if self._rules_3() else 0)
        self.round.phase = Phase.ALL_PLAY
        return [GameEvent("all_play_open", t, None, {"choices": self.allplay.choices, "answer_time_us": time_us})]

    def _offered(self, question: Mapping[str, Any]) -> int:
        """How many of a question's choices (the first ones) an all-play round
        offers: everyone, on a station or a phone, picks among the same."""
        count, most = len(question.get("choices") or ()), self.options.most_choices
        return count if most is None else min(count, most)

    def _all_play_press(self, action: Action, from_phone: bool) -> list[GameEvent]:
        """A station's button (or a phone's answer) picks a choice: the first
        pick is locked in. A station's stray press (its bell, a button past the
        question's choices, a press while no question is open) does nothing; a
        phone's move outside the question is refused."""
        assert action.player is not None
        question, station = self.allplay, action.player
        choice = action.args.get("choice")
        is_open = question is not None and self.round.phase == Phase.ALL_PLAY
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
        events = [GameEvent("locked_in", action.t_us, station, {"answered": len(question.locked)})]
        if len(question.locked) == self.settings.players:
            events += self._all_play_close(action.t_us)
        return events

    def _all_play_deadline(self, question: AllPlayQuestion) -> int:
        """The next timer warning (each of the last seconds), else the end."""
        if question.warned < WARNING_SECONDS:
            warn_at = question.deadline_us - (WARNING_SECONDS - question.warned) * 1_000_000
            return max(warn_at, self.now_us + 1)
        return question.deadline_us

    def _all_play_fire(self, now_us: int) -> list[GameEvent]:
        question = self.allplay
        assert question is not None
        left = question.deadline_us - now_us
        if left <= 0:
            return [GameEvent("time_up", question.deadline_us, None), *self._all_play_close(question.deadline_us)]
        question.warned = max(question.warned + 1, WARNING_SECONDS - (left - 1) // 1_000_000)
        return [GameEvent("timer_warning", now_us, None, {"seconds_left": -(-left // 1_000_000)})]

    def _all_play_close(self, t: int) -> list[GameEvent]:
        """Everyone has answered, the timer ran out or the host revealed: each
        right answer scores by its speed, the answer is shown with how the room
        answered."""
        question = self.allplay
        assert question is not None
        question.close(t, self.teams, self._team_mean())
        r = self.round
        r.revealed = True
        for station, credit in question.credit.items():
            r.scores[self.teams[station]] += credit
        for station in question.scored:
            team = self.teams[station]
            if question.locked[station].choice == question.right:
                r.correct[team] += 1
            else:
                r.wrong[team] += 1
            self.reactions[station].add(question.reaction_us(station))
        answers = question.answers()
        fastest = next((row["player"] for row in answers if row["right"]), None)
        reveal = GameEvent("all_play_reveal", t, None, {
            "number": r.question, "answer": str(self._question().get("answer", "")), "right": question.right,
            "distribution": question.distribution(), "answers": answers})
        return [reveal, *self._end_round(t, fastest, ALL_PLAY)]
