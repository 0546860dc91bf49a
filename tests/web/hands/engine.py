"""Hands' rules (its scene is drawn in scene.py: the deciding process imports no pygame)."""

from __future__ import annotations

import random
from typing import Any

from games.base import HOST_RESUME, HOST_SHOWN, Action, GameEvent, GameSettings, RuleError

HAND = 3


class HandsEngine:
    def __init__(self, settings: GameSettings) -> None:
        self.players = settings.players
        rng = random.Random(settings.seed)
        hand = int(settings.options.get("hand", HAND))
        #: deal a fresh hand to whoever plays their last card (the benchmark: a game that never ends)
        self.refill = bool(settings.options.get("refill", False))
        self._rng, self._hand = rng, hand
        deck = list(range(10, 10 + hand * self.players * 3))
        rng.shuffle(deck)
        self.hands = [sorted(deck[i * hand:(i + 1) * hand]) for i in range(self.players)]
        self.scores = [0] * self.players
        self.turn = 0
        self.played: list[int] = []

    @property
    def finished(self) -> bool:
        return not any(self.hands)

    def handle(self, action: Action) -> list[GameEvent]:
        if action.kind in (HOST_SHOWN, HOST_RESUME) or action.player is None:
            return []
        if action.kind != "play":
            raise RuleError(f"Hands has no {action.kind!r}")
        if action.player != self.turn:
            raise RuleError("not your turn")
        card = action.args.get("card")
        if card not in self.hands[action.player]:
            raise RuleError("not in your hand")
        self.hands[action.player].remove(card)
        self.scores[action.player] += card
        self.played.append(card)
        if self.refill and not self.hands[action.player]:
            self.hands[action.player] = sorted(self._rng.sample(range(10, 1000), self._hand))
        self.turn = (self.turn + 1) % self.players
        events = [GameEvent("played", action.t_us, action.player, {"card": card})]
        if self.finished:
            events.append(GameEvent("game_over", action.t_us))
        return events

    def tick(self, now_us: int) -> list[GameEvent]:
        return []

    def next_deadline_us(self) -> int | None:
        return None

    def public_view(self) -> dict[str, Any]:
        return {"phase": "over" if self.finished else "playing", "scores": list(self.scores),
                "status": ["active" if i == self.turn else "idle" for i in range(self.players)],
                "turn": self.turn, "played": list(self.played)}

    def private_view(self, player: int) -> dict[str, Any]:
        return {"hand": list(self.hands[player]), "your_turn": player == self.turn}

    def legal_moves(self, player: int) -> list[dict[str, Any]]:
        if player != self.turn or self.finished:
            return []
        return [{"kind": "play", "args": {"card": c}} for c in self.hands[player]]

    def summary(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "finished": self.finished}

    def legal_actions(self, player: int | None) -> list[str]:
        return [] if player is None else (["play"] if self.legal_moves(player) else [])
