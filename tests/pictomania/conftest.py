"""A table to play Pictomania rounds by hand in tests: seats guess right or
wrong on purpose (reading the drawer's number from the drawer's own phone view,
as a player who recognised the drawing would), ring bells, reveal."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from games.base import Action, GameEvent, GameSettings
from games.pictomania.engine import DONE, GUESS, NUMBERS, REVEAL, START, PictomaniaEngine
from games.pictomania.words import WordCard, load_words

SECOND = 1_000_000


@pytest.fixture(scope="session")
def cards() -> Mapping[int, Sequence[WordCard]]:
    return load_words("en")


class Table:
    """One game and a clock that moves a second per action unless told otherwise."""

    def __init__(self, engine: PictomaniaEngine) -> None:
        self.engine = engine
        self.t = 0

    def _at(self, at: int | None) -> int:
        self.t = self.t + SECOND if at is None else at
        return self.t

    def send(self, action: Action) -> list[GameEvent]:
        return self.engine.handle(action)

    def start(self) -> Table:
        self.send(Action(START, self._at(None)))
        return self

    def number(self, player: int) -> int:
        secret = self.engine.private_view(player)["secret"]
        assert secret is not None
        return int(secret["number"])

    def used(self, player: int) -> set[int]:
        return {g["number"] for g in self.engine.private_view(player)["guesses"]}

    def guess(self, guesser: int, drawer: int, number: int, at: int | None = None,
              precision: int = 20_000) -> list[GameEvent]:
        return self.send(Action(GUESS, self._at(at), guesser, {"drawer": drawer, "number": number},
                                precision_us=precision))

    def right(self, guesser: int, drawer: int, at: int | None = None) -> list[GameEvent]:
        return self.guess(guesser, drawer, self.number(drawer), at)

    def wrong(self, guesser: int, drawer: int, at: int | None = None) -> list[GameEvent]:
        bad = next(k for k in NUMBERS if k != self.number(drawer) and k not in self.used(guesser))
        return self.guess(guesser, drawer, bad, at)

    def bell(self, player: int, at: int | None = None, precision: int = 100,
             **args: Any) -> list[GameEvent]:
        return self.send(Action(DONE, self._at(at), player, dict(args), precision_us=precision))

    def settle(self) -> list[GameEvent]:
        events: list[GameEvent] = []
        while (deadline := self.engine.next_deadline_us()) is not None:
            self.t = max(self.t, deadline)
            events += self.engine.tick(self.t)
        return events

    def all_ring(self) -> None:
        """Everyone not yet done rings, a second apart, and the tokens are awarded."""
        for p in range(self.engine.players):
            if self.engine.round.done_us[p] is None:
                self.bell(p)
        self.settle()

    def reveal(self) -> dict[str, Any]:
        self.send(Action(REVEAL, self._at(None)))
        reveal = self.engine.public_view()["reveal"]
        assert reveal is not None
        return dict(reveal)


@pytest.fixture
def table(cards: Mapping[int, Sequence[WordCard]]) -> Callable[..., Table]:
    def make(players: int = 4, seed: int = 1, **options: Any) -> Table:
        return Table(PictomaniaEngine(GameSettings(players=players, seed=seed, options=options), cards))

    return make
