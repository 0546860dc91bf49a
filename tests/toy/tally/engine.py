"""Tally's rules: a sans-I/O engine on the game contract only."""

from __future__ import annotations

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
    checked_options,
)
from games.i18n import N_

#: Tally's one option, read by the engine through the table (an unknown or ill-typed option is refused)
OPTIONS = {"target": Option(3, int, low=1, high=99, label="Presses to win", choices=((3, "3"), (5, "5"), (10, "10")))}


class EndReason(Enum):
    """Why a game of Tally ended: one way only."""

    TARGET_REACHED = "target_reached"


class TallyEngine:
    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.target = int(checked_options(OPTIONS, settings.options, "Tally")["target"])
        self.scores = [0] * settings.players
        self.winner: int | None = None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def handle(self, action: Action) -> list[GameEvent]:
        if action.kind in (HOST_SHOWN, HOST_RESUME):
            return []
        if action.kind == "clear" and action.player is None:
            if self.finished:
                raise RuleError(N_("the game is over: start a new one"))
            self.scores = [0] * self.settings.players
            return [GameEvent("cleared", action.t_us)]
        if action.kind != "tap" or action.player is None:
            raise RuleError(N_("Tally has no {kind!r}: players tap, the host clears"), kind=action.kind)
        if self.finished:
            raise RuleError(N_("the game is over"))
        player = action.player
        self.scores[player] += 1
        events = [GameEvent("point", action.t_us, player, {"score": self.scores[player]})]
        if self.scores[player] >= self.target:
            self.winner = player
            events.append(GameEvent("game_over", action.t_us, player))
        return events

    def tick(self, now_us: int) -> list[GameEvent]:
        return []  # no clock in this game

    def next_deadline_us(self) -> int | None:
        return None

    def public_view(self) -> dict[str, Any]:
        best = max(self.scores)
        status = ["won" if i == self.winner else "ahead" if best and s == best else "idle"
                  for i, s in enumerate(self.scores)]
        return {"phase": "over" if self.finished else "playing", "scores": list(self.scores),
                "status": status, "target": self.target}

    def private_view(self, player: int) -> dict[str, Any]:
        return {}

    def outcome(self) -> Outcome | None:
        """Who won and why; None while the game goes on."""
        if self.winner is None:
            return None
        return Outcome((self.winner,), EndReason.TARGET_REACHED, tuple(self.scores))

    def summary(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winner": self.winner, "finished": self.finished}

    def legal_actions(self, player: int | None) -> list[str]:
        if self.finished:
            return []
        return ["clear"] if player is None else ["tap"]
