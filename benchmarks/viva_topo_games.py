"""Viva Topo! over 1,000 seeded bot games: length, points and what became of the mice.

Run: PYTHONPATH=. python benchmarks/viva_topo_games.py [GAMES]

Reports the average game length in turns, the average cheese points scored per
game and per player, how many houses paid at least one piece, and the share of
mice eaten, trapped in the start, safe in a house or in Emmentalia; then the
three figures the board is tuned for: in how many games the cat reached its
second lap, in how many each house paid, and in how many a mouse reached
Emmentalia. What it proves: how the board plays with these bots; what it
cannot: how people play (they may take other risks).
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from dataclasses import dataclass, field

from games.viva_topo import SPEC
from games.viva_topo.bots import play_bot_game
from games.viva_topo.engine import EATEN, EMMENTALIA, HOUSE, TRAPPED, VivaTopoEngine

FATES = (EATEN, TRAPPED, HOUSE, EMMENTALIA)


@dataclass
class Tally:
    turns: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)  # per game
    player_points: list[int] = field(default_factory=list)  # per player and game
    houses_paid: list[int] = field(default_factory=list)
    wheels: list[int] = field(default_factory=list)
    fates: Counter[str] = field(default_factory=Counter)
    second_lap: int = 0  # games in which the cat reached its second lap
    house_paid: Counter[str] = field(default_factory=Counter)  # games in which each house paid
    emmentalia_games: int = 0  # games in which a mouse reached Emmentalia

    def add(self, engine: VivaTopoEngine) -> None:
        self.turns.append(engine.turn_count)
        self.points.append(sum(engine.scores))
        self.player_points += engine.scores
        board = engine.board
        self.houses_paid.append(
            sum(1 for h in board.houses if engine.house_left[h.name] < h.pieces)
        )
        self.wheels.append(board.emmentalia_wheels - engine.wheels_left)
        self.fates.update(m.place for m in engine.mice.values())
        self.second_lap += engine.cat_lap == 2 or engine.cat_done
        self.house_paid.update(h.name for h in board.houses if engine.house_left[h.name] < h.pieces)
        self.emmentalia_games += any(m.place == EMMENTALIA for m in engine.mice.values())

    def targets(self, label: str) -> str:
        n = len(self.turns)

        def share(k: int) -> str:
            """A share of games with its 95% margin (binomial), so runs of few games say how sure they are."""
            p = k / n
            return f"{100 * p:.0f}% (±{196 * (p * (1 - p) / n) ** 0.5:.0f})"

        houses = ", ".join(f"{name} {share(k)}" for name, k in sorted(self.house_paid.items()))
        return (
            f"{label}: cat reached its 2nd lap in {share(self.second_lap)} of games; "
            f"houses paid in: {houses}; a mouse reached Emmentalia in {share(self.emmentalia_games)}"
        )

    def line(self, label: str) -> str:
        mice = sum(self.fates.values())
        shares = ", ".join(f"{f} {100 * self.fates[f] / mice:.0f}%" for f in FATES)
        return (
            f"{label}: {statistics.mean(self.turns):.1f} turns "
            f"(min {min(self.turns)}, max {max(self.turns)}), "
            f"{statistics.mean(self.points):.1f} points/game, "
            f"{statistics.mean(self.player_points):.1f} points/player, "
            f"{statistics.mean(self.houses_paid):.1f} houses paid, "
            f"{statistics.mean(self.wheels):.1f} wheels; mice: {shares}"
        )


def run(games: int = 1_000) -> dict[int, Tally]:
    by_players = {2: Tally(), 3: Tally(), 4: Tally()}
    for seed in range(games):
        players = 2 + seed % 3
        by_players[players].add(play_bot_game(SPEC.settings(players, seed)))
    return by_players


def main(games: int = 1_000) -> None:
    by_players = run(games)
    every = Tally()
    for tally in by_players.values():
        every.turns += tally.turns
        every.points += tally.points
        every.player_points += tally.player_points
        every.houses_paid += tally.houses_paid
        every.wheels += tally.wheels
        every.fates += tally.fates
        every.second_lap += tally.second_lap
        every.house_paid += tally.house_paid
        every.emmentalia_games += tally.emmentalia_games
    print(every.line(f"{len(every.turns)} bot games"))
    for players, tally in by_players.items():
        if tally.turns:
            print(tally.line(f"  {players} players ({len(tally.turns)} games)"))
    print(every.targets("all games"))
    for players, tally in by_players.items():
        if tally.turns:
            print(tally.targets(f"  {players} players"))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000)
