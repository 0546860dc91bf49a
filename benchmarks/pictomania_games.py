"""Pictomania over 1,000 seeded bot games per table: score spread, black sheep, bonus tokens.

Run: PYTHONPATH=. .venv/bin/python benchmarks/pictomania_games.py [GAMES]

Three tables play the same seeds (3-6 players, cycling), each in 5 batches so
the spread between batches shows how settled a figure is:

* ``baseline`` — perfect guessers (accuracy 1.0, no skips): nobody guesses
  wrong, so there must be no black sheep and every bonus token is taken;
  if these figures are off, the engine or the bots are wrong.
* ``normal`` — the default bots (accuracy 0.75, 10 % skipped drawers).
* ``harsher`` — the default bots in the harsher game (one bonus token fewer).
* ``declining`` — harsher, and 15 % of "done"s decline the bonus token (the
  rulebook allows it): rounds then end when everyone is done.

What it proves: how the token values (our decision, see README.md) spread the
final scores between simulated players, how often a round's black sheep is
"shared" (a tie for most wrong guesses, so nobody is the sheep), and how many
bonus tokens a round hands out. What it cannot: real players' accuracy and
timing; the bots' guesses are independent coin flips, people's are not.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.base import GameSettings
from games.pictomania.bots import BotProfile, play_bot_game
from games.pictomania.engine import PictomaniaEngine
from games.pictomania.words import WordCard, load_words

BATCHES = 5
TABLES: dict[str, tuple[BotProfile, dict[str, Any]]] = {
    "baseline": (BotProfile(accuracy=1.0, skip=0.0, wrong_drawing=0.0), {}),
    "normal": (BotProfile(), {}),
    "harsher": (BotProfile(), {"harsher": True}),
    "declining": (BotProfile(decline=0.15), {"harsher": True}),
}


@dataclass
class Batch:
    spreads: list[int] = field(default_factory=list)  # best minus worst total, per game
    margins: list[int] = field(default_factory=list)  # winner minus runner-up
    shared_wins: int = 0  # games whose top total is tied
    rounds: int = 0
    sheep: int = 0  # rounds with a single black sheep
    shared: int = 0  # rounds where several tied for most wrong guesses: no sheep
    tokens: list[int] = field(default_factory=list)  # bonus tokens taken, per round
    seconds: float = 0.0

    def add(self, engine: PictomaniaEngine) -> None:
        ranked = sorted(engine.totals, reverse=True)
        self.spreads.append(ranked[0] - ranked[-1])
        self.margins.append(ranked[0] - ranked[1])
        self.shared_wins += ranked[0] == ranked[1]
        for reveal in engine.history:
            self.rounds += 1
            self.sheep += reveal["black_sheep"] is not None
            self.shared += bool(reveal["black_sheep_tied"])
            self.tokens.append(sum(b is not None for b in reveal["bonus"]))

    def figures(self) -> dict[str, float]:
        return {
            "spread": statistics.mean(self.spreads),
            "margin": statistics.mean(self.margins),
            "shared_win_%": 100 * self.shared_wins / len(self.spreads),
            "sheep_%": 100 * self.sheep / self.rounds,
            "shared_%": 100 * self.shared / self.rounds,
            "tokens": statistics.mean(self.tokens),
            "ms/game": 1000 * self.seconds / len(self.spreads),
        }


def run_table(profile: BotProfile, options: dict[str, Any], games: int,
              cards: Mapping[int, Sequence[WordCard]]) -> list[Batch]:
    batches = [Batch() for _ in range(BATCHES)]
    for seed in range(games):
        batch = batches[seed * BATCHES // games]
        settings = GameSettings(players=3 + seed % 4, seed=seed, options=options)
        start = time.perf_counter()
        engine = play_bot_game(settings, cards, profile)
        batch.seconds += time.perf_counter() - start
        batch.add(engine)
    return batches


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 1_000
    cards = load_words("en")
    print(f"{games} games per table (3-6 players cycling), {BATCHES} batches; "
          "figures: mean over batches ± stdev between batches")
    print("  spread  = best minus worst final total; margin = winner minus runner-up;")
    print("  shared_win_% = games won by a tie; sheep_% = rounds with one black sheep;")
    print("  shared_% = rounds where a tie for most wrong guesses left no sheep;")
    print("  tokens = bonus tokens taken per round")
    for name, (profile, options) in TABLES.items():
        batches = run_table(profile, options, games, cards)
        figures = [b.figures() for b in batches]
        parts = []
        for key in figures[0]:
            values = [f[key] for f in figures]
            parts.append(f"{key} {statistics.mean(values):.2f}±{statistics.stdev(values):.2f}")
        print(f"{name:>8}: " + ", ".join(parts))
    for players in (3, 4, 5, 6):
        tokens = {}
        for name in ("normal", "harsher", "declining"):
            profile, options = TABLES[name]
            batch = Batch()
            for seed in range(players - 3, min(games, 200), 4):
                batch.add(play_bot_game(GameSettings(players=players, seed=seed, options=options), cards, profile))
            tokens[name] = f"{statistics.mean(batch.tokens):.2f}"
        print(f"  {players} players: bonus tokens per round normal {tokens['normal']}, "
              f"harsher {tokens['harsher']} (harsher has {players - 1}), "
              f"declining {tokens['declining']}")


if __name__ == "__main__":
    main(sys.argv)
