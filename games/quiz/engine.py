"""Quiz buzzer: the host arms, the first press answers, the host judges.

Rules: ../shared/rules/quiz-and-reaction.md. Arbitration (arming, early-buzz
lockouts, ties, next-in-line queue) is the shared ``Arbiter``; this engine adds
the round flow, scoring, teams, timers and undo.
"""

from __future__ import annotations

import copy
import random
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Any

from games.arbitration import Arbiter, ArbiterOptions
from games.base import HOST_RESUME, Action, GameEvent, GameSettings, RuleError

HOST_ACTIONS = ("arm", "correct", "wrong", "next", "reset", "undo", "pick")
WARNING_SECONDS = 3  # a tick sound for each of the timer's last seconds
#: how many judgements back ``undo`` reaches (a host corrects the last few
#: slips, not the whole evening); each step keeps one question's state, so a
#: long quiz stays flat
UNDO_DEPTH = 20
#: how many past results ``public_view`` carries (the screen shows the last
#: few; ``summary`` and the journal have all of them)
VIEW_RESULTS = 10


@dataclass
class QuizOptions:
    lockout_us: int = 250_000
    tie_window_us: int = 0
    queue_window_us: int | None = None
    #: the winner is announced this long after the first press, so a press that
    #: was stamped earlier but delivered later can still win
    settle_us: int = 2_000
    points_correct: int = 1
    points_wrong: int = 0
    after_wrong: str = "next"  # "next": next in line answers; "rearm": everyone else may buzz again
    answer_time_us: int | None = None
    buzz_window_us: int | None = None
    teams: list[int] | None = None
    questions: int | None = None

    @classmethod
    def from_settings(cls, settings: GameSettings) -> QuizOptions:
        known = set(cls.__dataclass_fields__)
        unknown = set(settings.options) - known
        if unknown:
            raise ValueError(f"quiz: unknown option(s) {sorted(unknown)}; known: {sorted(known)}")
        opts = cls(**settings.options)
        if opts.after_wrong not in ("next", "rearm"):
            raise ValueError("quiz: after_wrong must be 'next' or 'rearm'")
        teams = opts.teams
        if teams is not None and (
            not isinstance(teams, list)
            or len(teams) != settings.players
            or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in teams)
        ):
            raise ValueError(
                f"quiz: teams must list one team number (0, 1, ...) per station, {settings.players} in all, "
                f"e.g. [0, 0, 1, 1]; got {teams!r}"
            )
        return opts


@dataclass
class _Round:
    """The state that undo restores."""

    phase: str = "idle"
    question: int = 1
    scores: list[int] = field(default_factory=list)
    answering: int | None = None  # station whose answer the host is judging
    decided_at_us: int | None = None
    answer_deadline_us: int | None = None
    warned: int = 0
    buzz_window_shift_us: int = 0  # pauses while armed lengthen the buzz window
    results: list[dict[str, Any]] = field(default_factory=list)


class QuizEngine:
    """Sans-I/O quiz. Players send ``buzz``; the host sends HOST_ACTIONS."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.options = QuizOptions.from_settings(settings)
        n = settings.players
        self.teams = self.options.teams or list(range(n))
        self.team_count = max(self.teams) + 1
        self.arbiter = Arbiter(
            n,
            ArbiterOptions(
                lockout_us=self.options.lockout_us,
                tie_window_us=self.options.tie_window_us,
                queue_window_us=self.options.queue_window_us,
            ),
        )
        self.round = _Round(scores=[0] * self.team_count)
        self.rng = random.Random(f"quiz-{settings.seed}")  # tie draws only
        self.now_us = 0
        #: before each judgement: the round (without its results), how many
        #: results there were, the question's arbiter, and when it was judged
        self._undo: deque[tuple[_Round, int, Arbiter, int]] = deque(maxlen=UNDO_DEPTH)

    # -- the protocol -------------------------------------------------------
    @property
    def finished(self) -> bool:
        q = self.options.questions
        return q is not None and len(self.round.results) >= q

    def handle(self, action: Action) -> list[GameEvent]:
        events = self.tick(action.t_us)
        if action.player is None:
            events += self._host(action)
        elif action.kind == "buzz":
            events += self._buzz(action)
        else:
            raise RuleError(f"quiz: players only buzz; {action.kind!r} is not a quiz action")
        return events

    def tick(self, now_us: int) -> list[GameEvent]:
        if now_us <= self.now_us:
            return []
        self.now_us = now_us
        r = self.round
        events: list[GameEvent] = []
        if r.phase == "armed" and r.decided_at_us is None:
            first = self.arbiter.first_time_us()
            if first is not None and now_us >= first + self.options.settle_us:
                events += self._decide(first + self.options.settle_us)
            elif (
                first is None
                and self.options.buzz_window_us is not None
                and self.arbiter.armed_at_us is not None
                and now_us >= self.arbiter.armed_at_us + self.options.buzz_window_us + r.buzz_window_shift_us
            ):
                end = self.arbiter.armed_at_us + self.options.buzz_window_us + r.buzz_window_shift_us
                events += self._end_round(end, None, "nobody buzzed")
        if r.phase == "answering" and r.answer_deadline_us is not None:
            left = r.answer_deadline_us - now_us
            if left <= 0:
                events.append(GameEvent("time_up", r.answer_deadline_us, r.answering))
                events += self._judge(False, r.answer_deadline_us)
            else:
                due = WARNING_SECONDS - (left - 1) // 1_000_000
                if due > r.warned:
                    r.warned = due
                    events.append(GameEvent("timer_warning", now_us, r.answering, {"seconds_left": -(-left // 1_000_000)}))
        return events

    def next_deadline_us(self) -> int | None:
        r = self.round
        if r.phase == "armed" and r.decided_at_us is None:
            first = self.arbiter.first_time_us()
            if first is not None:
                return first + self.options.settle_us
            if self.options.buzz_window_us is not None and self.arbiter.armed_at_us is not None:
                return self.arbiter.armed_at_us + self.options.buzz_window_us + r.buzz_window_shift_us
        if r.phase == "answering" and r.answer_deadline_us is not None:
            warn_at = r.answer_deadline_us - (WARNING_SECONDS - r.warned) * 1_000_000
            return max(warn_at, self.now_us + 1) if r.warned < WARNING_SECONDS else r.answer_deadline_us
        return None

    def legal_actions(self, player: int | None) -> list[str]:
        if player is not None:
            return ["buzz"]
        phase = self.round.phase
        legal = {
            "idle": ["arm", "next"],
            "armed": ["reset", "next"],
            "answering": ["correct", "wrong", "reset", "next"],
            "tie": ["pick", "arm", "reset", "next"],
            "round_over": ["next", "arm"],
        }[phase]
        return legal + (["undo"] if self._undo else [])

    # -- players ------------------------------------------------------------
    def _buzz(self, action: Action) -> list[GameEvent]:
        assert action.player is not None
        station, t = action.player, action.t_us
        outcome = self.arbiter.press(station, t, action.precision_us, action.clock, action.clock_precision_us)
        if outcome in ("early", "locked"):
            until = self.arbiter.locked_until_us[station]
            return [GameEvent("early", t, station, {"locked_until_us": until, "restarted": outcome == "locked"})]
        if outcome == "counted":
            # a team answers once: drop team-mates' later presses from the queue
            team = self.teams[station]
            mates = [b for b in self.arbiter.buzzes if self.teams[b.station] == team]
            if len(mates) > 1:
                keep = min(mates, key=lambda b: b.t_us)
                self.arbiter.buzzes = [b for b in self.arbiter.buzzes if self.teams[b.station] != team or b is keep]
                if keep.station != station:
                    return []
            return [GameEvent("buzz", t, station)]
        return []

    def _decide(self, at_us: int) -> list[GameEvent]:
        r = self.round
        result = self.arbiter.result()
        r.decided_at_us = at_us
        if result.winner is None:
            r.phase = "tie"
            return [GameEvent("tie", at_us, None, {"stations": result.ties[0]})]
        return self._give_turn(result.winner, at_us)

    def _give_turn(self, station: int, at_us: int, kind: str = "winner") -> list[GameEvent]:
        """``winner``: the first press answers; ``next_in_line``: the turn
        passes on after a wrong answer."""
        r = self.round
        r.phase = "answering"
        r.answering = station
        r.warned = 0
        r.answer_deadline_us = None if self.options.answer_time_us is None else at_us + self.options.answer_time_us
        result = self.arbiter.result()
        return [
            GameEvent(
                kind,
                at_us,
                station,
                {"queue": result.queue, "margins_us": result.margins_us, "ties": result.ties},
            )
        ]

    # -- host ---------------------------------------------------------------
    def _host(self, action: Action) -> list[GameEvent]:
        kind, t = action.kind, action.t_us
        if kind == HOST_RESUME:
            return self._resume(int(action.args.get("paused_us", 0)), t)
        if kind not in HOST_ACTIONS:
            raise RuleError(f"quiz: unknown host action {kind!r}; one of {', '.join(HOST_ACTIONS)}")
        if kind not in self.legal_actions(None):
            raise RuleError(f"quiz: cannot {kind} while {self.round.phase}; now: {', '.join(self.legal_actions(None))}")
        r = self.round
        if kind == "arm":
            if r.phase in ("round_over",):
                self._new_question()
            elif r.phase == "tie":
                self.arbiter.disarm()
            self.arbiter.arm(t)
            r.phase = "armed"
            r.decided_at_us = None
            r.answering = None
            r.buzz_window_shift_us = 0
            return [GameEvent("armed", t)]
        if kind == "reset":
            self.arbiter.disarm()
            r.phase = "idle"
            r.answering = None
            r.decided_at_us = None
            return [GameEvent("reset", t)]
        if kind == "next":
            if r.phase != "round_over":
                r.results.append({"question": r.question, "winner": None, "result": "skipped"})
            self._new_question()
            return [GameEvent("next", t, None, {"question": r.question})]
        if kind == "pick":
            tie = self.arbiter.result(contenders_only=True).ties
            if "player" in action.args:
                station = int(action.args["player"])
            else:  # no choice named: a fair draw from the game's seeded generator (replays the same)
                station = self.rng.choice(tie[0]) if tie else -1
            if not tie or station not in tie[0]:
                raise RuleError(f"quiz: pick one of the tied stations {tie[0] if tie else []}")
            return self._give_turn(station, t)
        if kind == "undo":
            prev_round, results, prev_arbiter, judged_at = self._undo.pop()
            if prev_round.answer_deadline_us is not None:
                prev_round.answer_deadline_us += t - judged_at  # the answer time left when judged, again
                prev_round.warned = 0
            del self.round.results[results:]  # results are only ever appended: drop those since
            prev_round.results = self.round.results
            self.round, self.arbiter = prev_round, prev_arbiter
            return [GameEvent("undo", t, None, {"phase": self.round.phase})]
        return self._judge(kind == "correct", t)

    def _resume(self, paused_us: int, t: int) -> list[GameEvent]:
        """Stop the clocks for the pause: the answer timer and the buzz window
        get the time back; lockouts too."""
        r = self.round
        if r.answer_deadline_us is not None:
            r.answer_deadline_us += paused_us
        r.buzz_window_shift_us += paused_us
        for station, until in self.arbiter.locked_until_us.items():
            if until > t:
                self.arbiter.locked_until_us[station] = until + paused_us
        return [GameEvent("resumed", t, None, {"paused_us": paused_us})]

    def _judge(self, correct: bool, t: int) -> list[GameEvent]:
        r = self.round
        # one question's worth of state, whatever the length of the game
        kept = replace(r, scores=list(r.scores), results=[])
        self._undo.append((kept, len(r.results), copy.deepcopy(self.arbiter), t))
        station = r.answering
        assert station is not None
        team = self.teams[station]
        if correct:
            r.scores[team] += self.options.points_correct
            events = [GameEvent("correct", t, station, {"points": self.options.points_correct})]
            return events + self._end_round(t, station, "correct")
        r.scores[team] -= self.options.points_wrong
        events = [GameEvent("wrong", t, station, {"points": -self.options.points_wrong})]
        for s, s_team in enumerate(self.teams):
            if s_team == team:
                self.arbiter.exclude(s)
        if all(self.teams[s] in {self.teams[x] for x in self.arbiter.excluded} for s in range(self.settings.players)):
            return events + self._end_round(t, None, "everyone answered wrong")
        result = self.arbiter.result(contenders_only=True)
        if self.options.after_wrong == "next" and (result.winner is not None):
            return events + self._give_turn(result.winner, t, "next_in_line")
        if self.options.after_wrong == "next" and result.ties:
            r.phase = "tie"
            return events + [GameEvent("tie", t, None, {"stations": result.ties[0]})]
        # nobody left in line (or re-arm by setting): everyone else may buzz again
        self.arbiter.arm(t)
        r.phase = "armed"
        r.answering = None
        r.decided_at_us = None
        r.answer_deadline_us = None
        return events + [GameEvent("armed", t, None, {"rearmed": True})]

    def _end_round(self, t: int, winner: int | None, why: str) -> list[GameEvent]:
        r = self.round
        r.phase = "round_over"
        r.answer_deadline_us = None
        r.answering = winner
        self.arbiter.close()  # presses before the next arming are early again
        r.results.append({"question": r.question, "winner": winner, "result": why})
        events = [GameEvent("round_over", t, winner, {"result": why})]
        if self.finished:
            events.append(GameEvent("game_over", t, None, {"scores": list(r.scores)}))
        return events

    def _new_question(self) -> None:
        self.arbiter.new_question()
        r = self.round
        r.phase = "idle"
        r.question += 1
        r.answering = None
        r.decided_at_us = None
        r.answer_deadline_us = None

    # -- views --------------------------------------------------------------
    def _status(self, station: int) -> str:
        r = self.round
        if self.arbiter.locked(station, self.now_us):
            return "locked"
        if station in self.arbiter.excluded:
            return "out"
        if r.answering == station and r.phase == "answering":
            return "first"
        if any(b.station == station for b in self.arbiter.buzzes):
            return "queued"
        return "idle"

    def public_view(self) -> dict[str, Any]:
        r = self.round
        result = self.arbiter.result()
        return {
            "game": "quiz",
            "phase": r.phase,
            "question": r.question,
            "armed": self.arbiter.armed,
            "answering": r.answering,
            "winner": r.answering if r.phase in ("answering", "round_over") else result.winner,
            "queue": [s for s in result.queue if s != r.answering and s not in self.arbiter.excluded],
            "margins_us": {str(b.station): b.t_us - (self.arbiter.first_time_us() or 0) for b in self.arbiter.buzzes},
            "ties": result.ties,
            "early": result.early,
            "lockouts_us": {
                str(s): until - self.now_us for s, until in self.arbiter.locked_until_us.items() if until > self.now_us
            },
            "teams": list(self.teams),
            "team_count": self.team_count,
            "scores": [r.scores[self.teams[s]] for s in range(self.settings.players)],
            "team_scores": list(r.scores),
            "status": [self._status(s) for s in range(self.settings.players)],
            "answer_left_us": None if r.answer_deadline_us is None else max(0, r.answer_deadline_us - self.now_us),
            "results": r.results[-VIEW_RESULTS:],
            "questions_done": len(r.results),
            "finished": self.finished,
        }

    def private_view(self, player: int) -> dict[str, Any]:
        return {}  # a quiz has no hidden information

    def summary(self) -> dict[str, Any]:
        """``winner``/``queue``/``margins_us``/``ties``: the buzz ranking of the
        current question, every counted press on record (also those that then
        answered wrong), margins behind the very first; ``answering``: who has
        the turn now; ``results``: each question's judgement."""
        r = self.round
        result = self.arbiter.result()
        return {
            "winner": result.winner,
            "queue": result.queue,
            "margins_us": result.margins_us,
            "ties": result.ties,
            "early": result.early,
            "answering": r.answering if r.phase == "answering" else None,
            "scores": [r.scores[self.teams[s]] for s in range(self.settings.players)],
            "team_scores": list(r.scores),
            "phase": r.phase,
            "question": r.question,
            "results": list(r.results),
            "finished": self.finished,
        }
