"""The bots finish games with legal moves only, replayably, and the sensible
bot beats random play in most games."""

from __future__ import annotations

import random

import pytest

from games.base import GameSettings
from games.piepmatz.bots import play_game, random_bot, sensible_bot
from tests.piepmatz.helpers import collect, game, give_seeds, put_pest


@pytest.mark.parametrize("players", [2, 3, 4])
def test_sensible_bots_finish_a_game_and_the_same_seed_plays_the_same_game(players: int) -> None:
    first = play_game(GameSettings(players, seed=11), [sensible_bot] * players)
    second = play_game(GameSettings(players, seed=11), [sensible_bot] * players)
    assert first.finished and first.summary() == second.summary()
    assert first.public_view() == second.public_view()


def test_sensible_bot_beats_random_bots_in_most_games() -> None:
    wins = 0
    games = 12
    for seed in range(games):
        players = 2 + seed % 3
        seat = seed % players
        bots = [random_bot] * players
        bots[seat] = sensible_bot
        engine = play_game(GameSettings(players, seed=500 + seed), bots)
        wins += seat in engine.winners
    assert wins >= 9, f"the sensible bot won only {wins} of {games}"


HAND = ("sparrow-f6", "greenfinch-m1", "chaffinch-f2", "yellowhammer-m4")
OTHER = ("blackbird-f1", "chaffinch-f6", "yellowhammer-f4", "greenfinch-f3")


def test_sensible_bot_goes_for_the_three_eggs() -> None:
    engine = game(hands=(HAND, OTHER))  # a 6 behind the 3 reaches position 3: three eggs
    move = sensible_bot(engine.public_view(), engine.private_view(0), random.Random(1))
    assert (move["kind"], move["args"]) == ("play", {"card": "sparrow-f6", "perch": 0})


def test_sensible_bot_keeps_away_from_a_squirrel_on_its_eggs() -> None:
    engine = game(hands=(HAND, OTHER))
    give_seeds(engine, 0, ["egg3-02", "egg3-03"])
    put_pest(engine, 3, "squirrel-01")
    move = sensible_bot(engine.public_view(), engine.private_view(0), random.Random(1))
    assert move["kind"] == "play" and move["preview"]["diffs"] != [3]


def test_sensible_bot_keeps_a_crow_off_its_pair() -> None:
    engine = game(hands=(HAND, OTHER))
    collect(engine, 0, ["sparrow-m5", "sparrow-f5"])  # a pair the crow would break
    put_pest(engine, 3, "crow-01")
    move = sensible_bot(engine.public_view(), engine.private_view(0), random.Random(1))
    assert move["kind"] == "play" and move["preview"]["diffs"] != [3]
