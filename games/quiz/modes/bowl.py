"""Quiz bowl's steps (games/quiz/modes/): classic's buzzer race with tossups
(powers and negs, read by a moderator who marks ``m`` and ``e``), the rebound
to the other team, and the bonus for the team that got the tossup (NAQT
rules; the scoring itself is ``games/quiz/bowl_scoring.py``'s;
docs/quiz.md#quiz-bowl). The tossup's state is the round's (``round.tossup``),
which undo restores."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import Action, FirstPress, GameEvent
from games.quiz.bowl_scoring import NEG, NO_PENALTY, POWER, Buzz, has_power, tossup_result
from games.quiz.core import Phase, QuizEvent
from games.quiz.modes.classic import ClassicMode


class BowlMode(ClassicMode):
    """Classic's race with quiz bowl's tossups and bonuses."""

    def first_press(self) -> FirstPress | None:
        """No race declared ahead: a tossup's rebound and the bonus are quiz
        bowl's own (the lamp follows the decision)."""
        return None

    def round_card(self) -> dict[str, Any]:
        """What a tossup, a power, a neg and the bonus are worth."""
        opts = self.options
        return {"power_points": opts.power_points, "neg_points": opts.neg_points,
                "bonus_parts": opts.bonus_parts, "bonus_points": opts.bonus_points}

    def result_record(self) -> dict[str, Any]:
        return {"bowl": self.quiz.round.tossup.record()}

    def _rebound_while_read(self) -> bool:
        """After a neg the other team may buzz while the rest is read (rules 3; docs/quiz.md)."""
        return self.quiz._rules_3()

    def _locked_out(self) -> list[int]:
        """The teams out of this tossup (each answered it wrong), in team order."""
        return sorted({b.team for b in self.quiz.round.tossup.buzzes if b.kind in (NEG, NO_PENALTY)})

    def press(self, action: Action) -> list[GameEvent]:
        """Nobody buzzes while the bonus is read and answered."""
        return [] if self.quiz.round.phase == Phase.BONUS else super().press(action)

    def press_out(self, station: int, t: int) -> list[GameEvent]:
        """A team that answered this tossup wrong is out of it; the screen says why."""
        if self.quiz.round.phase == Phase.ARMED and self._rebound_while_read():
            return [GameEvent(QuizEvent.LOCKED_OUT, t, station, {"team": self.quiz.teams[station]})]
        return []

    def host_moves(self, phase: Phase) -> list[str]:
        """The bonus's judging; the moderator's marks while reading: past the power mark, read to the end."""
        quiz, r = self.quiz, self.quiz.round
        if phase == Phase.BONUS:  # the host judges each part of the bonus
            return ["correct", "wrong"]
        moves, tossup = super().host_moves(phase), r.tossup
        reading = r.phase == Phase.ARMED or (r.phase == Phase.IDLE and bool(tossup.buzzes))
        if not reading or tossup.read_at_us is not None:
            return moves
        power = r.phase == Phase.ARMED and tossup.power_at_us is None and has_power(quiz._question())
        return [*moves, "power", "read"] if power else [*moves, "read"]

    def mark(self, kind: str, t: int) -> list[GameEvent]:
        quiz, r = self.quiz, self.quiz.round
        if kind == "power":
            r.tossup = replace(r.tossup, power_at_us=t)
            return [GameEvent(QuizEvent.POWER_MARK, t)]
        r.tossup = r.tossup.read_to(t)
        events = [GameEvent(QuizEvent.READ, t)]
        if r.phase == Phase.IDLE:  # after a neg: now the other team may buzz
            quiz.arbiter.arm(t)
            quiz._bench()
            r.phase = Phase.ARMED
            events.append(GameEvent(QuizEvent.ARMED, t, None, {"rearmed": True}))
        return events

    def judge(self, correct: bool, t: int) -> list[GameEvent]:
        """During the bonus, the host judges its parts; else the tossup's answer."""
        if self.quiz.round.phase == Phase.BONUS:
            return self._bonus_part(correct, t)
        return super().judge(correct, t)

    def judged(self, station: int, correct: bool) -> tuple[int, dict[str, Any]]:
        """The tossup answer of ``station`` as quiz bowl scores it: a power, ten, a neg or no penalty."""
        quiz, r, opts = self.quiz, self.quiz.round, self.quiz.options
        pressed = [b.t_us for b in quiz.arbiter.buzzes if b.station == station]
        t_us = pressed[0] if pressed else quiz.now_us
        kind = tossup_result(r.tossup, t_us, correct, has_power(quiz._question()))
        points = {POWER: opts.power_points, NEG: -opts.neg_points}.get(kind, quiz._points() if correct else 0)
        buzz = Buzz(station, quiz.teams[station], kind, points, t_us)
        r.tossup = r.tossup.judged(buzz)
        return buzz.points, {"tossup": buzz.kind}

    def after_right(self, t: int, station: int) -> list[GameEvent]:
        """The tossup's team gets the bonus (if the round has bonuses); nobody buzzes while it is read."""
        quiz, r = self.quiz, self.quiz.round
        if quiz.options.bonus_parts <= 0 or r.over is not None:
            return super().after_right(t, station)
        quiz.arbiter.close()
        r.phase, r.answer_deadline_us = Phase.BONUS, None
        r.tossup = replace(r.tossup, bonus_team=quiz.teams[station])
        return [GameEvent(QuizEvent.BONUS, t, station, {"team": quiz.teams[station], "parts": quiz.options.bonus_parts})]

    def after_wrong(self, t: int) -> list[GameEvent]:
        """A neg while the tossup is read: the moderator reads on (the other
        team may buzz at once, or from the end under rules 2)."""
        quiz, r = self.quiz, self.quiz.round
        if r.tossup.read_at_us is not None:
            return super().after_wrong(t)
        if not self._rebound_while_read():
            # rules 2: after a neg the buzzers stayed closed until the moderator read the question to the end
            quiz.arbiter.disarm()
            r.phase, r.answering, r.decided_at_us, r.answer_deadline_us = Phase.IDLE, None, None, None
            return []
        # NAQT: the moderator reads on, the other team may buzz at any moment (a power before the
        # mark) and after the end until the moderator calls time; the negged team's presses are refused
        quiz.arbiter.arm(t)
        r.phase, r.answering, r.decided_at_us, r.answer_deadline_us = Phase.ARMED, None, None, None
        return [GameEvent(QuizEvent.ARMED, t, None, {"rearmed": True, "locked_out": self._locked_out()})]

    def _bonus_part(self, correct: bool, t: int) -> list[GameEvent]:
        quiz = self.quiz
        quiz._keep_for_undo(t)
        r, opts = quiz.round, quiz.options
        team = r.tossup.bonus_team
        assert team is not None
        points = opts.bonus_points if correct else 0
        r.scores[team] += points
        r.tossup = replace(r.tossup, bonus=(*r.tossup.bonus, points))
        part = len(r.tossup.bonus)
        events = [GameEvent(QuizEvent.BONUS_PART, t, r.answering, {"team": team, "part": part, "of": opts.bonus_parts,
                                                            "points": points})]
        if part >= opts.bonus_parts:
            events += quiz._end_round(t, r.answering, "correct")
        return events

    def tossup_view(self) -> dict[str, Any] | None:
        """The screen's and host page's tossup: the marks, the bonus so far."""
        quiz = self.quiz
        tossup = quiz.round.tossup
        return {"power_mark": has_power(quiz._question()), "power_passed": tossup.power_at_us is not None,
                "read": tossup.read_at_us is not None, "bonus_team": tossup.bonus_team,
                "bonus": list(tossup.bonus), "bonus_parts": quiz.options.bonus_parts,
                "buzzes": tossup.record()["buzzes"], "locked_out": self._locked_out()}
