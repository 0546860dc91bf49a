"""Bots play every variant to the end, reproducibly, through the bell as well as their hands."""

from __future__ import annotations

import pytest

from games.base import GameSettings
from games.fiki_miki.bots import play_bot_game
from games.fiki_miki.options import PLAYERS, Variant


@pytest.mark.parametrize("variant", list(Variant))
def test_bots_finish_every_player_count(variant: Variant) -> None:
    low, high = PLAYERS[variant]
    for players in range(low, high + 1):
        game = play_bot_game(GameSettings(players=players, seed=players, options={"variant": variant.value}))
        summary = game.engine.summary()
        assert summary["finished"] and summary["winners"]
        if variant is Variant.I:
            assert summary["races"] > 0 and sum(summary["collected"]) > 0  # stacks were rung for and taken
        if variant is Variant.IIB:
            assert summary["rings"] > 0
        if variant is Variant.IIA:
            assert summary["rings"] == 0 and summary["tricks"] > 0


def test_the_same_seed_gives_the_same_bot_game() -> None:
    def outcome(seed: int) -> tuple[object, ...]:
        game = play_bot_game(GameSettings(players=4, seed=seed, options={"variant": "I"}))
        return (game.engine.summary(), game.end_us, game.rejected)

    assert outcome(11) == outcome(11)
    assert outcome(11) != outcome(12)
