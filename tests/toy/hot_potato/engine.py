"""Hot Potato's rules: a sans-I/O engine on the game contract only."""

from __future__ import annotations

import random
from enum import Enum
from typing import Any

from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    Action,
    GameEvent,
    GameSettings,
    Option,
    Outcome,
    RuleError,
    best_of,
    checked_options,
    fire_due,
)
from games.i18n import N_

#: every option, declared once: the spec, the menu and the engine read this table
OPTIONS = {
    "rounds": Option(3, int, low=1, high=20, label="Rounds", choices=((3, "3"), (5, "5"))),
    "fuse_min_us": Option(3_000_000, int, low=500_000, high=60_000_000),
    "fuse_max_us": Option(8_000_000, int, low=500_000, high=60_000_000),
}


class Phase(str, Enum):
    """Where the round stands (``public_view()["phase"]`` says its value)."""

    IDLE = "idle"  # waiting for the host to start a round
    PASSING = "passing"  # the fuse burns; the holder passes with the bell
    OVER = "over"


class EndReason(Enum):
    ROUNDS_PLAYED = "rounds_played"


class HotPotatoEngine:
    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.options = checked_options(OPTIONS, settings.options, "Hot Potato")
        self.rng = random.Random(settings.seed)  # the fuses: hidden, but the same for the same seed
        self.phase = Phase.IDLE
        self.round = 0
        self.holder: int | None = None
        self.fuse_us: int | None = None  # when the potato burns (never in the view: it is hidden)
        self.burnt = [0] * settings.players

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    def handle(self, action: Action) -> list[GameEvent]:
        events = self.tick(action.t_us)
        if action.kind in (HOST_SHOWN, HOST_RESUME):
            return events
        if action.player is None:
            if action.kind != "start" or self.phase is not Phase.IDLE:
                raise RuleError(N_("hot potato: the host may start a round only between rounds, not {kind!r} now"),
                                kind=action.kind)
            self.round += 1
            self.holder = (self.round - 1) % self.settings.players
            low, high = self.options["fuse_min_us"], self.options["fuse_max_us"]
            self.fuse_us = action.t_us + self.rng.randint(min(low, high), max(low, high))
            self.phase = Phase.PASSING
            return events + [GameEvent("round", action.t_us, self.holder, {"round": self.round})]
        if action.kind != "pass" or self.phase is not Phase.PASSING or action.player != self.holder:
            raise RuleError(N_("hot potato: only the holder passes, while the fuse burns"))
        self.holder = (self.holder + 1) % self.settings.players
        return events + [GameEvent("passed", action.t_us, self.holder)]

    def next_deadline_us(self) -> int | None:
        return self.fuse_us if self.phase is Phase.PASSING else None

    def tick(self, now_us: int) -> list[GameEvent]:
        return fire_due(self.next_deadline_us, self._burn, now_us)

    def _burn(self, due_us: int) -> list[GameEvent]:
        assert self.holder is not None
        self.burnt[self.holder] += 1
        events = [GameEvent("burnt", due_us, self.holder, {"round": self.round})]
        self.phase = Phase.OVER if self.round >= self.options["rounds"] else Phase.IDLE
        self.fuse_us = None
        if self.finished:
            events.append(GameEvent("game_over", due_us, data={"scores": self.scores()}))
        return events

    def scores(self) -> list[int]:
        """Rounds survived."""
        return [self.round - b for b in self.burnt]

    def public_view(self) -> dict[str, Any]:
        status = ["holding" if p == self.holder and self.phase is Phase.PASSING else "idle"
                  for p in range(self.settings.players)]
        if self.finished:
            status = ["won" if p in best_of(self.scores()) else "out" for p in range(self.settings.players)]
        return {"phase": self.phase.value, "round": self.round, "rounds": self.options["rounds"],
                "holder": self.holder, "scores": self.scores(), "burnt": list(self.burnt), "status": status}

    def private_view(self, player: int) -> dict[str, Any]:
        return {}

    def outcome(self) -> Outcome | None:
        if not self.finished:
            return None
        return Outcome(best_of(self.scores()), EndReason.ROUNDS_PLAYED, tuple(self.scores()))

    def summary(self) -> dict[str, Any]:
        return {"scores": self.scores(), "burnt": list(self.burnt), "rounds": self.round, "finished": self.finished}

    def legal_actions(self, player: int | None) -> list[str]:
        if player is None:
            return ["start"] if self.phase is Phase.IDLE else []
        return ["pass"] if self.phase is Phase.PASSING and player == self.holder else []
