"""Fiki Miki over 1,000 seeded bot games per variant: is the deck a good one?

Run: PYTHONPATH=. python benchmarks/fiki_miki_games.py [GAMES] [--copies 3,3,3,3,2] [--precision-us 1]

For each variant, GAMES games (player counts cycling over the variant's range)
in 5 equal batches; each figure is the mean over all games with the spread of
the 5 batch means (min-max), so a difference smaller than that spread is noise.
The same seeds are played with a baseline deck make-up in the same run (default
``--copies 3,3,3,3,2``: flatter, more pictures per card) to judge ours against.

Figures: game length in moves (cards played, added or discarded) and in
simulated minutes; bell races per game (I: a stack taken; IIB: a lead with at
least one correct ring); the share of rings that were wrong; ties per game;
rings the engine refused (a banned player, a closed IIB window); the share
of the deck that ends in collected piles (the rest stays on the stacks in I,
or was discarded or left in hands in II). What they
prove: how the deck and the rules play with these bots. What they cannot:
bots are not children; their counting mistakes and reaction times are guesses
(games/fiki_miki/bots.py), so the wrong-ring share follows the bots' error rates.
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass, field

from games.base import GameSettings
from games.fiki_miki.bots import play_bot_game
from games.fiki_miki.options import PLAYERS, Variant

BATCHES = 5


@dataclass
class Batch:
    moves: list[int] = field(default_factory=list)
    minutes: list[float] = field(default_factory=list)
    races: list[int] = field(default_factory=list)
    ties: list[int] = field(default_factory=list)
    taken: list[float] = field(default_factory=list)  # share of the deck collected
    rings: int = 0
    wrong: int = 0
    refused: int = 0

    def wrong_share(self) -> float:
        return self.wrong / self.rings if self.rings else 0.0


def play_batches(variant: Variant, games: int, copies: list[int] | None, precision_us: int) -> list[Batch]:
    low, high = PLAYERS[variant]
    batches = [Batch() for _ in range(BATCHES)]
    for seed in range(games):
        players = low + seed % (high - low + 1)
        options: dict[str, object] = {"variant": variant.value}
        if copies is not None:
            options["copies"] = copies
        game = play_bot_game(GameSettings(players=players, seed=seed, options=options), precision_us)
        summary = game.engine.summary()
        batch = batches[seed * BATCHES // games]
        batch.moves.append(summary["moves"])
        batch.minutes.append(game.end_us / 60e6)
        batch.races.append(summary["races"])
        batch.ties.append(summary["ties"])
        batch.taken.append(sum(summary["collected"]) / summary["total_cards"])
        batch.rings += summary["rings"]
        batch.wrong += summary["wrong_rings"]
        batch.refused += game.rejected
    return batches


def figure(values: list[float], fmt: str) -> str:
    return f"{statistics.mean(values):{fmt}} ({min(values):{fmt}}-{max(values):{fmt}})"


def report(label: str, batches: list[Batch]) -> str:
    per_game = [len(b.moves) for b in batches]
    games = sum(per_game)
    return (
        f"{label}: {games} games; length {figure([statistics.mean(b.moves) for b in batches], '.1f')} moves, "
        f"{figure([statistics.mean(b.minutes) for b in batches], '.1f')} min; "
        f"collected {figure([100 * statistics.mean(b.taken) for b in batches], '.0f')} % of the deck; "
        f"races/game {figure([statistics.mean(b.races) for b in batches], '.2f')}; "
        f"wrong rings {figure([100 * b.wrong_share() for b in batches], '.1f')} %; "
        f"ties/game {figure([statistics.mean(b.ties) for b in batches], '.3f')}; "
        f"refused rings/game {figure([b.refused / n for b, n in zip(batches, per_game, strict=True)], '.2f')}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=1_000)
    parser.add_argument("--copies", default="3,3,3,3,2", help="baseline make-up: cards per kind with 1, 2, ... pictures")
    parser.add_argument(
        "--precision-us", type=int, default=1, help="stamp precision of the bells (1: board; 25000: keyboard)"
    )
    args = parser.parse_args()
    if args.games < BATCHES:
        parser.error(f"GAMES must be at least {BATCHES} (one per batch)")
    baseline = [int(n) for n in args.copies.split(",")]
    print(
        f"mean (spread of {BATCHES} batch means); ours: copies 5,3,3,2,1; baseline: copies {args.copies}; "
        f"bells stamped to {args.precision_us} µs"
    )
    for variant in Variant:
        print(report(f"{variant.value:>3} ours    ", play_batches(variant, args.games, None, args.precision_us)))
        print(report(f"{variant.value:>3} baseline", play_batches(variant, args.games, baseline, args.precision_us)))


if __name__ == "__main__":
    main()
