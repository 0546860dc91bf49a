"""Every game ends the same way for the code that reads it: a typed
``Outcome`` (winners, the game's own ``EndReason``, scores), None until the
end, telling the same story as the game's own summary."""

from __future__ import annotations

from enum import Enum

import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from games import registry
from games.base import Engine, Outcome


def play_to_the_end(name: str, players: int, seed: int) -> Box:
    spec = registry.get(name)
    settings = spec.settings(players, seed, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
    assert box.engine.outcome() is None, "an outcome before the game ended"
    session.run_virtual(3_600_000_000)
    assert box.engine.finished, f"{name}: the bots did not finish in an hour"
    return box


@pytest.mark.parametrize("name", registry.available())
def test_every_game_ends_with_a_typed_outcome(name: str) -> None:
    spec = registry.get(name)
    for players in sorted({spec.min_players, min(4, spec.max_players)}):
        box = play_to_the_end(name, players, 5)
        assert isinstance(box.engine, Engine)
        outcome = box.engine.outcome()
        assert isinstance(outcome, Outcome) and isinstance(outcome.reason, Enum)
        assert len(outcome.scores) == players and outcome.winners
        best = max(outcome.scores)
        assert all(outcome.scores[p] == best for p in outcome.winners), "a winner without the top score"
        summary = box.engine.summary()
        assert list(outcome.scores) == summary["scores"]
        if "winners" in summary:
            assert list(outcome.winners) == summary["winners"]
        assert outcome.to_json()["reason"] == outcome.reason.value
