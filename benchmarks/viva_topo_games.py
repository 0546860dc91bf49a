"""Average Viva Topo! game length in turns over 1,000 seeded bot games.

Run: PYTHONPATH=. python benchmarks/viva_topo_games.py [GAMES]
"""

from __future__ import annotations

import statistics
import sys

from games.viva_topo import SPEC
from games.viva_topo.bots import play_bot_game


def main(games: int = 1_000) -> None:
    by_players: dict[int, list[int]] = {2: [], 3: [], 4: []}
    for seed in range(games):
        players = 2 + seed % 3
        engine = play_bot_game(SPEC.settings(players, seed))
        by_players[players].append(engine.turn_count)
    every = [t for turns in by_players.values() for t in turns]
    print(f"{len(every)} bot games: average {statistics.mean(every):.1f} turns")
    for players, turns in by_players.items():
        if turns:
            print(
                f"  {players} players: {statistics.mean(turns):.1f} turns "
                f"(min {min(turns)}, max {max(turns)}, {len(turns)} games)"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000)
