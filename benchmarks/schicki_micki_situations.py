"""How often each Schicki Micki situation comes up in bot games.

Prints, per game over N simulated games (bots pressing through the real
debounce and button maps, virtual time), how many turned cards left the table
in each row of the outcome table, and how many games never saw a row.

    PYTHONPATH=. python benchmarks/schicki_micki_situations.py [--games 1000] [--players 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter

from controller.box.simulate import simulate
from games.registry import get

ROWS = ("one_pair", "several_pairs", "two_worms", "identical", "nothing")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    spec = get("schicki-micki")
    totals: Counter[str] = Counter()
    per_game: dict[str, list[int]] = {row: [] for row in ROWS}
    absent: Counter[str] = Counter()
    turned = 0
    started = time.perf_counter()
    for seed in range(args.games):
        summary = simulate(spec, args.players, seed).box.summary()
        seen = summary["situations"]
        totals.update(seen)
        for row in ROWS:
            per_game[row].append(seen.get(row, 0))
        absent.update(row for row in ROWS if not seen.get(row))
        turned += summary["cards_turned"]
    n = args.games
    print(f"{n} games, {args.players} players, {time.perf_counter() - started:.0f} s; {turned / n:.1f} cards turned per game")
    print(f"{'row after a turned card':<24} {'per game':>9} {'sd':>6} {'games without it':>17}")
    for row in ROWS:
        sd = statistics.pstdev(per_game[row])
        print(f"{row.replace('_', ' '):<24} {totals[row] / n:>9.2f} {sd:>6.2f} {absent[row]:>11} of {n}")
    print("sd: the spread between games; the mean's own uncertainty is sd / sqrt(games)")


if __name__ == "__main__":
    main()
