"""Piepmatz over seeded bot games: length, points by source, pest strikes, bot strength.

Run: PYTHONPATH=. python benchmarks/piepmatz_games.py [GAMES] [BATCH]

Part 1 plays GAMES games (default 1,000; 2, 3 and 4 players in turn) with the
sensible bot in every seat and prints the game length (turns, rounds), the
average points per player by source (pairs, eggs, majorities), how often crows
and squirrels strike per game, what they cost, and how games end. What it
proves: the rules as coded give games of a sane length where every scoring
source matters. What it cannot: how people play (bots are not people).

Part 2 plays 5 batches of BATCH games (default 100) with one sensible seat
(rotating) against random-legal-move bots, and the same deals with a random
bot in that seat (the baseline: chance is about 1/players). It prints each
batch's win share (a shared win counts as a share) and the mean and spread
over the batches. What it proves: the sensible bot is much better than chance
against random play. What it cannot: that it plays well against good players.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from games.base import GameSettings
from games.piepmatz.bots import Bot, play_game, random_bot, sensible_bot
from games.piepmatz.engine import PiepmatzEngine

SOURCES = ("pairs", "eggs", "majority")
BATCHES = 5


@dataclass
class Tally:
    turns: list[int] = field(default_factory=list)
    rounds: list[int] = field(default_factory=list)
    points: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SOURCES})
    totals: list[int] = field(default_factory=list)
    crows: list[int] = field(default_factory=list)
    squirrels: list[int] = field(default_factory=list)
    seeds_lost: list[int] = field(default_factory=list)
    birds_lost: list[int] = field(default_factory=list)
    ends: Counter[str] = field(default_factory=Counter)

    def add(self, engine: PiepmatzEngine) -> None:
        summary = engine.summary()
        self.turns.append(summary["turns"])
        self.rounds.append(summary["rounds"])
        for part in summary["score_parts"]:
            for source in SOURCES:
                self.points[source].append(part[source])
            self.totals.append(part["total"])
        self.crows.append(summary["crow_strikes"])
        self.squirrels.append(summary["squirrel_strikes"])
        self.seeds_lost.append(summary["seeds_lost"])
        self.birds_lost.append(summary["birds_lost"])
        self.ends[summary["end_reason"]] += 1

    def absorb(self, other: Tally) -> None:
        """Add another tally's games to this one."""
        for name in ("turns", "rounds", "totals", "crows", "squirrels", "seeds_lost", "birds_lost"):
            getattr(self, name).extend(getattr(other, name))
        for source in SOURCES:
            self.points[source] += other.points[source]
        self.ends += other.ends

    def lines(self, label: str) -> list[str]:
        games = len(self.turns)
        mean = statistics.mean
        points = ", ".join(f"{s} {mean(self.points[s]):.1f}" for s in SOURCES)
        ends = ", ".join(f"{reason} {n} ({100 * n / games:.1f}%)" for reason, n in self.ends.most_common())
        return [
            f"{label}: {games} games, {mean(self.turns):.1f} turns (min {min(self.turns)}, "
            f"max {max(self.turns)}), {mean(self.rounds):.1f} rounds",
            f"    points per player: {points}; total {mean(self.totals):.1f}",
            f"    strikes per game: crow {mean(self.crows):.2f}, squirrel {mean(self.squirrels):.2f} "
            f"(games with a crow {100 * sum(1 for c in self.crows if c) / games:.0f}%, with a squirrel "
            f"{100 * sum(1 for s in self.squirrels if s) / games:.0f}%); lost per game: "
            f"{mean(self.seeds_lost):.2f} seed cards, {mean(self.birds_lost):.2f} birds",
            f"    ends: {ends}",
        ]


def players_for(seed: int) -> int:
    return 2 + seed % 3


def play_sensible_games(games: int) -> dict[int, Tally]:
    by_players = {2: Tally(), 3: Tally(), 4: Tally()}
    for seed in range(games):
        players = players_for(seed)
        by_players[players].add(play_game(GameSettings(players, seed), [sensible_bot] * players))
    return by_players


def win_share(bot: Bot, first_seed: int, games: int) -> float:
    """Share of games ``bot`` wins in a rotating seat against random bots."""
    won = 0.0
    for seed in range(first_seed, first_seed + games):
        players = players_for(seed)
        seat = seed % players
        bots: list[Bot] = [random_bot] * players
        bots[seat] = bot
        engine = play_game(GameSettings(players, seed), bots)
        if seat in engine.winners:
            won += 1 / len(engine.winners)
    return won / games


def main(games: int = 1_000, batch: int = 100) -> None:
    started = time.perf_counter()
    by_players = play_sensible_games(games)
    every = Tally()
    for tally in by_players.values():
        every.absorb(tally)
    print("\n".join(every.lines("sensible bots in every seat")))
    for players, tally in by_players.items():
        if tally.turns:
            print("\n".join(tally.lines(f"  {players} players")))
    print(f"({time.perf_counter() - started:.0f} s)")

    print(f"\none sensible seat against random bots, {BATCHES} batches of {batch} games (2-4 players):")
    sensible: list[float] = []
    baseline: list[float] = []
    for n in range(BATCHES):
        first = 100_000 + n * batch  # deals unlike part 1's
        sensible.append(win_share(sensible_bot, first, batch))
        baseline.append(win_share(random_bot, first, batch))
        print(f"  batch {n + 1}: sensible wins {100 * sensible[-1]:.0f}%, random in that seat {100 * baseline[-1]:.0f}%")
    print(
        f"  sensible {100 * statistics.mean(sensible):.1f}% +- {100 * statistics.stdev(sensible):.1f} "
        f"(stdev over batches); baseline random {100 * statistics.mean(baseline):.1f}% "
        f"+- {100 * statistics.stdev(baseline):.1f}; chance ~{100 * statistics.mean(1 / players_for(s) for s in range(3)):.0f}%"
    )
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:3]))
