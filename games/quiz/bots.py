"""Simulated quiz players and a simulated quiz master, for demos and simulations."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import Action, EventKind, GameEvent, GameSettings, PlannedPress
from games.humans import human_reaction_us
from games.quiz.allplay_scoring import CHOICE_INPUTS
from games.quiz.core import QuizEvent


class QuizPlayer:
    """Knows some answers, buzzes a human reaction time after arming, now and
    then jumps the gun while the question is still being read."""

    def __init__(self, station: int, seed: int, knowledge: float = 0.7, jumpy: float = 0.06) -> None:
        self.station = station
        self.rng = random.Random(f"quiz-player-{seed}-{station}")
        self.knowledge = knowledge
        self.jumpy = jumpy
        self.median_ms = self.rng.uniform(380, 750)

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]:
        plans: list[PlannedPress] = []
        for event in events:
            if event.kind in (QuizEvent.NEXT, EventKind.ROUND_OVER, QuizEvent.RESET) and self.rng.random() < self.jumpy:
                plans.append(PlannedPress("bell", now_us + self.rng.randint(300_000, 1_500_000)))
            if event.kind == QuizEvent.ALL_PLAY_OPEN:  # everyone answers (the screen never shows the answer: a guess)
                plans += self._pick(now_us, int(event.data["choices"]))
            knows = event.kind == QuizEvent.ARMED and view["status"][self.station] not in ("out", "locked", "sitting")
            if knows and self.rng.random() < self.knowledge:
                plans.append(PlannedPress("bell", now_us + human_reaction_us(self.rng, self.median_ms)))
        return plans

    def _pick(self, now_us: int, choices: int) -> list[PlannedPress]:
        """A guess on a station's button (a, b ...), a reading time and a human reaction after the opening."""
        pick = self.rng.randrange(min(choices, len(CHOICE_INPUTS)))
        think_us = self.rng.randint(1_000_000, 6_000_000)
        return [PlannedPress(CHOICE_INPUTS[pick], now_us + think_us + human_reaction_us(self.rng, self.median_ms))]


class QuizMaster:
    """Reads a question, arms, judges (right more often than not), moves on."""

    def __init__(self, seed: int, right: float = 0.6) -> None:
        self.rng = random.Random(f"quiz-master-{seed}")
        self.right = right
        self.seen: tuple[Any, ...] | None = None

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[Action]:
        phase = view["phase"]
        bowl = view.get("bowl") or {}
        situation = (phase, view["question"], view["answering"], view["status"].count("out"), view.get("revealed"),
                     len(bowl.get("bonus") or ()))
        if situation == self.seen or view.get("finished"):
            return []
        self.seen = situation
        if phase == "idle" and bowl.get("buzzes") and not bowl.get("read"):
            # quiz bowl, after a neg: the rest of the question is read, then the other team may buzz
            return [Action("read", now_us + self.rng.randint(1_500_000, 3_000_000))]
        if phase == "idle":
            return [Action("arm", now_us + self.rng.randint(1_500_000, 3_000_000))]
        if phase == "bonus":  # quiz bowl: each part of the bonus judged in turn
            verdict = "correct" if self.rng.random() < self.right else "wrong"
            return [Action(verdict, now_us + self.rng.randint(2_000_000, 4_000_000))]
        if phase == "answering":
            verdict = "correct" if self.rng.random() < self.right else "wrong"
            return [Action(verdict, now_us + self.rng.randint(900_000, 2_200_000))]
        if phase == "tie":
            ties = view["ties"][0] if view["ties"] else [0]
            return [Action("pick", now_us + 800_000, args={"player": self.rng.choice(ties)})]
        if phase == "round_over":
            if (view.get("ask") or {}).get("text") and not view.get("revealed"):  # a pack's answer is read out first
                return [Action("reveal", now_us + self.rng.randint(800_000, 1_500_000))]
            return [Action("next", now_us + self.rng.randint(1_500_000, 2_500_000))]
        return []


def new_bots(settings: GameSettings) -> list[QuizPlayer]:
    return [QuizPlayer(i, settings.seed) for i in range(settings.players)]


def new_host(settings: GameSettings) -> QuizMaster:
    return QuizMaster(settings.seed)
