"""Quiz bowl's steps over the quiz's core: tossups with powers and negs
read by a moderator (the marks ``m`` and ``e``), the rebound to the other
team, and the bonus for the team that got the tossup (NAQT rules; the
scoring itself is ``games/quiz/bowl_scoring.py``'s; docs/quiz.md#quiz-bowl)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import GameEvent
from games.quiz.bowl_scoring import NEG, NO_PENALTY, POWER, Buzz, has_power, tossup_result
from games.quiz.core import Phase, QuizCore


class BowlMode(QuizCore):
    """The core with quiz bowl's tossups and bonuses."""

    def _bowl_locked_out(self) -> list[int]:
        """The teams out of this tossup (each answered it wrong), in team order."""
        return sorted({b.team for b in self.round.tossup.buzzes if b.kind in (NEG, NO_PENALTY)})

    def _bowl_marks(self) -> list[str]:
        """The moderator's marks while reading: past the power mark, read to the end."""
        r, tossup = self.round, self.round.tossup
        reading = r.phase == Phase.ARMED or (r.phase == Phase.IDLE and bool(tossup.buzzes))
        if not reading or tossup.read_at_us is not None:
            return []
        power = r.phase == Phase.ARMED and tossup.power_at_us is None and has_power(self._question())
        return ["power", "read"] if power else ["read"]

    def _bowl_mark(self, kind: str, t: int) -> list[GameEvent]:
        r = self.round
        if kind == "power":
            r.tossup = replace(r.tossup, power_at_us=t)
            return [GameEvent("power_mark", t)]
        r.tossup = r.tossup.read_to(t)
        events = [GameEvent("read", t)]
        if r.phase == Phase.IDLE:  # after a neg: now the other team may buzz
            self.arbiter.arm(t)
            self._bench()
            r.phase = Phase.ARMED
            events.append(GameEvent("armed", t, None, {"rearmed": True}))
        return events

    def _bowl_judged(self, station: int, correct: bool) -> Buzz | None:
        """The tossup answer of ``station`` as quiz bowl scores it (None in other rules)."""
        if not self._bowl():
            return None
        r, opts = self.round, self.options
        pressed = [b.t_us for b in self.arbiter.buzzes if b.station == station]
        t_us = pressed[0] if pressed else self.now_us
        kind = tossup_result(r.tossup, t_us, correct, has_power(self._question()))
        points = {POWER: opts.power_points, NEG: -opts.neg_points}.get(kind, self._points() if correct else 0)
        buzz = Buzz(station, self.teams[station], kind, points, t_us)
        r.tossup = r.tossup.judged(buzz)
        return buzz

    @staticmethod
    def _tossup_data(buzz: Buzz | None) -> dict[str, Any]:
        return {} if buzz is None else {"tossup": buzz.kind}

    def _bowl_record(self) -> dict[str, Any]:
        return {"bowl": self.round.tossup.record()} if self._bowl() else {}

    def _bonus_start(self, t: int, station: int) -> list[GameEvent]:
        """The tossup's team gets the bonus; nobody buzzes while it is read."""
        r = self.round
        self.arbiter.close()
        r.phase, r.answer_deadline_us = Phase.BONUS, None
        r.tossup = replace(r.tossup, bonus_team=self.teams[station])
        return [GameEvent("bonus", t, station, {"team": self.teams[station], "parts": self.options.bonus_parts})]

    def _bonus_part(self, correct: bool, t: int) -> list[GameEvent]:
        self._keep_for_undo(t)
        r, opts = self.round, self.options
        team = r.tossup.bonus_team
        assert team is not None
        points = opts.bonus_points if correct else 0
        r.scores[team] += points
        r.tossup = replace(r.tossup, bonus=(*r.tossup.bonus, points))
        part = len(r.tossup.bonus)
        events = [GameEvent("bonus_part", t, r.answering, {"team": team, "part": part, "of": opts.bonus_parts,
                                                            "points": points})]
        if part >= opts.bonus_parts:
            events += self._end_round(t, r.answering, "correct")
        return events

    def _bowl_view(self) -> dict[str, Any] | None:
        """The screen's and host page's tossup: the marks, the bonus so far."""
        if not self._bowl():
            return None
        tossup = self.round.tossup
        return {"power_mark": has_power(self._question()), "power_passed": tossup.power_at_us is not None,
                "read": tossup.read_at_us is not None, "bonus_team": tossup.bonus_team,
                "bonus": list(tossup.bonus), "bonus_parts": self.options.bonus_parts,
                "buzzes": tossup.record()["buzzes"], "locked_out": self._bowl_locked_out()}
