"""Reaction duel: wait for GO, press first; a press before GO is a false start.

Rules: README.md ("Quiz and reaction duel"). Reaction times are measured from
``t_show``, the box time at which the display flipped the GO frame (the
runtime reports it with a ``shown`` host action; until then the scheduled GO
time stands in).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import Enum
from typing import Any

from games.arbitration import Stamp, Stamped, rank_by_stamp
from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    TIE_WINDOW,
    Action,
    EventKind,
    GameEvent,
    GameSettings,
    OptionError,
    Outcome,
    RuleError,
    best_of,
    checked_options,
    fire_due,
)
from games.i18n import N_
from games.reaction.options import OPTIONS


class Phase(str, Enum):
    """Where a reaction round stands (``public_view()["phase"]`` says its value)."""

    READY = "ready"
    WAIT = "wait"
    DECOY = "decoy"
    GO = "go"
    RESULT = "result"
    OVER = "over"


class EndReason(Enum):
    """Why a reaction session ended."""

    ROUNDS_PLAYED = "rounds_played"  # the set number of rounds
    STOPPED = "stopped"  # the host stopped it


@dataclass
class ReactionOptions:
    """The options in the engine's hands; declared (type, default, range) once in ``options.py``."""

    min_delay_us: int = OPTIONS["min_delay_us"].default
    max_delay_us: int = OPTIONS["max_delay_us"].default
    decoy_chance: float = OPTIONS["decoy_chance"].default
    rounds: int = OPTIONS["rounds"].default
    answer_window_us: int = OPTIONS["answer_window_us"].default
    go_timeout_us: int = OPTIONS["go_timeout_us"].default
    result_hold_us: int = OPTIONS["result_hold_us"].default
    auto_next: bool = OPTIONS["auto_next"].default
    settle_us: int = OPTIONS["settle_us"].default
    tie_window_us: int = OPTIONS[TIE_WINDOW].default

    @classmethod
    def from_settings(cls, settings: GameSettings) -> ReactionOptions:
        values = checked_options(OPTIONS, {k: v for k, v in settings.options.items() if v is not None}, "reaction")
        opts = cls(**values)
        if not 0 < opts.min_delay_us <= opts.max_delay_us:
            raise OptionError(N_("reaction: min_delay_us {low} and max_delay_us {high}: give 0 < min_delay_us <= "
                                 "max_delay_us"), low=opts.min_delay_us, high=opts.max_delay_us)
        return opts


@dataclass(frozen=True)
class Hit(Stamped):
    player: int
    stamp: Stamp


@dataclass
class PlayerRecord:
    wins: int = 0
    rounds: int = 0
    false_starts: int = 0
    #: running figures, not every time: the leaderboard is drawn every frame,
    #: and a long session must not make it slower (the history has each time)
    best_us: int | None = None
    total_us: int = 0
    timed: int = 0

    def add_time(self, t_us: int) -> None:
        self.best_us = t_us if self.best_us is None else min(self.best_us, t_us)
        self.total_us += t_us
        self.timed += 1

    @property
    def mean_us(self) -> int | None:
        return self.total_us // self.timed if self.timed else None


class ReactionEngine:
    """Sans-I/O reaction duel; players send ``press``, the host ``start``/``stop``."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.options = ReactionOptions.from_settings(settings)
        self.rng = random.Random(settings.seed)
        self.end_reason: EndReason | None = None
        self.now_us = 0
        self.phase = Phase.READY
        self.round_no = 0
        self.go_at_us: int | None = None
        self.decoy_at_us: int | None = None
        self.t_show_us: int | None = None
        self.hits: list[Hit] = []
        self.false_starts: list[int] = []
        self.next_at_us: int | None = None  # when the next round begins (auto)
        self.started = False
        self.records = [PlayerRecord() for _ in range(settings.players)]
        self.last: dict[str, Any] = {}
        self.history: list[dict[str, Any]] = []

    @property
    def finished(self) -> bool:
        return self.phase == Phase.OVER

    # -- protocol -------------------------------------------------------------
    def handle(self, action: Action) -> list[GameEvent]:
        events = self.tick(action.t_us)
        if action.player is None:
            return events + self._host(action)
        if action.kind != "press":
            raise RuleError(N_("reaction: players only press; {kind!r} is not an action here"), kind=action.kind)
        return events + self._press(action)

    def tick(self, now_us: int) -> list[GameEvent]:
        """Fire every deadline due by now_us, each at its own time (``fire_due``)."""
        events = fire_due(self.next_deadline_us, self._fire, now_us)
        self.now_us = max(self.now_us, now_us)
        return events

    def next_deadline_us(self) -> int | None:
        if self.phase == Phase.READY and self.started and self.next_at_us is not None:
            return self.next_at_us
        if self.phase in (Phase.WAIT, Phase.DECOY):
            if self.decoy_at_us is not None and self.phase == Phase.WAIT:
                return self.decoy_at_us
            return self.go_at_us
        if self.phase == Phase.GO:
            assert self.go_at_us is not None
            deadline = (self.t_show_us or self.go_at_us) + self.options.go_timeout_us
            if self.hits:
                first = min(h.t_us for h in self.hits)
                deadline = min(deadline, first + self.options.answer_window_us)
            return deadline
        if self.phase == Phase.RESULT and self.options.auto_next and self.next_at_us is not None:
            return self.next_at_us
        return None

    def legal_actions(self, player: int | None) -> list[str]:
        if player is not None:
            return ["press"]
        return {Phase.READY: ["start"], Phase.OVER: []}.get(self.phase, ["stop"]) + [HOST_SHOWN]

    # -- transitions ------------------------------------------------------------
    def _fire(self, at_us: int) -> list[GameEvent]:
        if self.phase in (Phase.READY, Phase.RESULT):
            return self._begin_round(at_us)
        if self.phase == Phase.WAIT and self.decoy_at_us is not None and at_us == self.decoy_at_us:
            self.phase = Phase.DECOY
            self.decoy_at_us = None
            return [GameEvent(EventKind.SHOW, at_us, None, {"what": "decoy"})]
        if self.phase in (Phase.WAIT, Phase.DECOY) and at_us == self.go_at_us:
            self.phase = Phase.GO
            self.t_show_us = at_us
            return [GameEvent(EventKind.SHOW, at_us, None, {"what": "go", "round": self.round_no})]
        return self._end_round(at_us)

    def _begin_round(self, at_us: int) -> list[GameEvent]:
        if self.options.rounds and self.round_no >= self.options.rounds:
            self.phase = Phase.OVER
            self.end_reason = EndReason.ROUNDS_PLAYED
            return [GameEvent("game_over", at_us, None, {"scores": self.scores()})]
        self.round_no += 1
        self.phase = Phase.WAIT
        self.hits = []
        self.false_starts = []
        self.t_show_us = None
        delay = self.rng.randint(self.options.min_delay_us, self.options.max_delay_us)
        self.go_at_us = at_us + delay
        self.decoy_at_us = None
        if self.rng.random() < self.options.decoy_chance:
            self.decoy_at_us = at_us + self.rng.randint(self.options.min_delay_us // 2, max(delay - 300_000, self.options.min_delay_us // 2))
            if self.decoy_at_us >= self.go_at_us:
                self.decoy_at_us = None
        self.next_at_us = None
        return [GameEvent(EventKind.SHOW, at_us, None, {"what": "wait", "round": self.round_no})]

    def _host(self, action: Action) -> list[GameEvent]:
        if action.kind == HOST_SHOWN:
            if self.phase == Phase.GO and self.go_at_us is not None and action.t_us >= self.go_at_us:
                self.t_show_us = action.t_us
                # a press before the GO frame was on the screen anticipated it
                early = [h for h in self.hits if h.t_us < action.t_us]
                self.hits = [h for h in self.hits if h.t_us >= action.t_us]
                events = []
                for hit in early:
                    self.false_starts.append(hit.player)
                    self.records[hit.player].false_starts += 1
                    events.append(GameEvent("early", hit.t_us, hit.player, {"before_frame": True}))
                if early and len(self.false_starts) == self.settings.players:
                    events += self._end_round(action.t_us)
                return events
            return []
        if action.kind == HOST_RESUME:
            return self._resume(int(action.args.get("paused_us", 0)), action.t_us)
        if action.kind == "start":
            if self.phase not in (Phase.READY, Phase.RESULT):
                raise RuleError(N_("reaction: a round is running; wait for it to end"))
            self.started = True
            return self._begin_round(action.t_us)
        if action.kind == "stop":
            self.phase = Phase.OVER
            self.end_reason = EndReason.STOPPED
            return [GameEvent("game_over", action.t_us, None, {"scores": self.scores()})]
        raise RuleError(N_("reaction: unknown host action {kind!r}; one of start, stop, shown"), kind=action.kind)

    def _resume(self, paused_us: int, t: int) -> list[GameEvent]:
        """A round the inputs were away for cannot be judged: it is played
        again; waits and result screens get the paused time back."""
        if self.phase in (Phase.WAIT, Phase.DECOY, Phase.GO):
            self.round_no -= 1
            self.phase = Phase.RESULT
            self.hits, self.false_starts = [], []
            self.last = {"round": self.round_no + 1, "void": True}
            self.next_at_us = t + paused_us + self.options.result_hold_us
            return [GameEvent("message", t, None, {"text": "round void: the stations were away", "void": True})]
        if self.next_at_us is not None:
            self.next_at_us += paused_us
        return []

    def _press(self, action: Action) -> list[GameEvent]:
        p = action.player
        assert p is not None
        if p in self.false_starts or any(h.player == p for h in self.hits):
            return []
        if self.phase in (Phase.WAIT, Phase.DECOY) or (
            self.phase == Phase.GO and self.go_at_us is not None and action.t_us < (self.t_show_us or self.go_at_us)
        ):
            self.false_starts.append(p)
            self.records[p].false_starts += 1
            events = [GameEvent("early", action.t_us, p, {"decoy": self.phase == Phase.DECOY})]
            if len(self.false_starts) == self.settings.players:
                events += self._end_round(action.t_us)
            return events
        if self.phase != Phase.GO:
            return []
        self.hits.append(Hit(p, action.stamp))
        events = [GameEvent(EventKind.BUZZ, action.t_us, p, {"reaction_us": action.t_us - (self.t_show_us or 0)})]
        if len(self.hits) + len(self.false_starts) == self.settings.players:
            events += self._end_round(action.t_us)
        return events

    def _end_round(self, at_us: int) -> list[GameEvent]:
        t_show = self.t_show_us or self.go_at_us or at_us
        groups = rank_by_stamp(self.hits, self.options.tie_window_us)
        winners = [h.player for h in groups[0]] if groups else []
        for p in range(self.settings.players):
            self.records[p].rounds += 1
        for h in self.hits:
            self.records[h.player].add_time(h.t_us - t_show)
        for p in winners:
            self.records[p].wins += 1
        ordered = [h for g in groups for h in g]
        first_t = ordered[0].t_us if ordered else 0
        self.last = {
            "round": self.round_no,
            "winner": winners[0] if len(winners) == 1 else None,
            "ties": [[h.player for h in g] for g in groups if len(g) > 1],
            "order": [h.player for h in ordered],
            "reaction_us": {str(h.player): h.t_us - t_show for h in ordered},
            "margins_us": [h.t_us - first_t for h in ordered[1:]],
            "false_starts": list(self.false_starts),
        }
        self.history.append(self.last)
        self.phase = Phase.RESULT
        self.next_at_us = at_us + self.options.result_hold_us
        events = [GameEvent("round_over", at_us, self.last["winner"], dict(self.last))]
        if winners:
            events.insert(0, GameEvent("winner", at_us, winners[0], {"tied": winners[1:]}))
        if self.options.rounds and self.round_no >= self.options.rounds and not self.options.auto_next:
            self.phase = Phase.OVER
            self.end_reason = EndReason.ROUNDS_PLAYED
            events.append(GameEvent("game_over", at_us, None, {"scores": self.scores()}))
        return events

    # -- views ------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [r.wins for r in self.records]

    def leaderboard(self) -> list[dict[str, Any]]:
        rows = [
            {"player": p, "wins": r.wins, "best_us": r.best_us, "mean_us": r.mean_us, "false_starts": r.false_starts}
            for p, r in enumerate(self.records)
        ]
        return sorted(rows, key=lambda row: (-row["wins"], row["best_us"] if row["best_us"] is not None else 1 << 62))

    def _status(self, p: int) -> str:
        if p in self.false_starts:
            return "locked"
        if self.phase == Phase.RESULT and self.last.get("order") and self.last["order"][0] == p:
            return "first"
        if any(h.player == p for h in self.hits):
            return "queued"
        return "idle"

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return [self._status(p) for p in range(self.settings.players)]

    def public_view(self) -> dict[str, Any]:
        return {
            "game": "reaction",
            "phase": self.phase.value,
            "round": self.round_no,
            "rounds": self.options.rounds,
            # GO must not be revealed early: only its existence once it is due
            "go_shown": self.phase == Phase.GO,
            "t_show_us": self.t_show_us if self.phase in (Phase.GO, Phase.RESULT) else None,
            "pressed": [h.player for h in self.hits],
            "false_starts": list(self.false_starts),
            "last": dict(self.last),
            "leaderboard": self.leaderboard(),
            "scores": self.scores(),
            "status": self.station_statuses(),
            "finished": self.finished,
        }

    def private_view(self, player: int) -> dict[str, Any]:
        return {}

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        if not self.finished or self.end_reason is None:
            return None
        scores = self.scores()
        return Outcome(best_of(scores), self.end_reason, tuple(scores))

    def summary(self) -> dict[str, Any]:
        last = self.last
        return {
            "winner": last.get("winner"),
            "queue": last.get("order", [])[1:] if last.get("winner") is not None else [],
            "margins_us": last.get("margins_us", []),
            "ties": last.get("ties", []),
            "early": last.get("false_starts", list(self.false_starts)),
            "scores": self.scores(),
            "rounds": len(self.history),
            "history": list(self.history),
            "leaderboard": self.leaderboard(),
            "finished": self.finished,
        }
