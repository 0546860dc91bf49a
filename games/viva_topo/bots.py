"""Seeded bots for Viva Topo!: they read the shared screen and press buttons.

Strategy (greedy, one move ahead): every mouse is worth its *potential*
(cheese it may still collect, growing along the track) discounted by the risk
of the cat catching it before its owner moves again. A move scores the change
in that value, plus cheese banked at once. So bots avoid ending in front of
the cat, never run into it when anything else is possible, duck into a house
when the cat is close, bring mice out of the start before the cat closes it,
and prefer houses with the most valuable cheese left.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Mapping
from typing import Any

from controller.press import Press
from games.base import GameEvent, GameSettings, RuleError
from games.registry import PlannedPress
from games.viva_topo.buttons import button_map
from games.viva_topo.engine import VivaTopoEngine

#: replan if the screen has not changed this long after the last planned press
STALL_US = 3_000_000


def _cat_reach(view: Mapping[str, Any], moves: int) -> set[int]:
    """Track spaces the cat covers in its next ``moves`` cat rolls."""
    cat = view["cat"]
    if cat["done"] or cat["space"] is None:
        return set()
    board = view["board"]
    symbols: list[int] = board["cat_symbols"]
    n = len(symbols)
    spaces: int = board["spaces"]
    g = symbols.index(cat["space"]) + (cat["lap"] - 1) * n
    covered: set[int] = set()
    space = cat["space"]
    for _ in range(moves):
        if g >= 2 * n - 1:
            break
        target = min(g + board["cat_speed"][0 if g < n else 1], 2 * n - 1)
        while g < target:
            g += 1
            goal = symbols[g % n]
            while space != goal:
                space = space % spaces + 1
                covered.add(space)
    return covered


class VivaTopoBot:
    """One simulated player: bell to roll, next/prev to pick, ok to confirm."""

    def __init__(self, player: int, seed: int) -> None:
        self.player = player
        self.rng = random.Random(seed * 1_000 + player)
        self._planned_key: tuple[int, str] | None = None
        self._planned_until = 0

    def _delay(self) -> int:
        return self.rng.randint(250_000, 700_000)

    def observe(
        self, view: Mapping[str, Any], events: list[GameEvent], now_us: int
    ) -> list[PlannedPress]:
        if view["phase"] == "over" or view["turn"] != self.player:
            return []
        key = (int(view["turn_count"]), str(view["phase"]))
        if key == self._planned_key and now_us < self._planned_until + STALL_US:
            return []
        self._planned_key = key
        t = now_us
        plan: list[PlannedPress] = []
        if view["phase"] == "roll":
            t += self._delay()
            plan.append(PlannedPress("bell", t))
        else:
            moves = view["legal_moves"]
            best = self.choose(view)
            here = view["highlight"] or 0
            forward = (best - here) % len(moves)
            backward = (here - best) % len(moves)
            button, count = ("next", forward) if forward <= backward else ("prev", backward)
            for _ in range(count):
                t += self._delay()
                plan.append(PlannedPress(button, t))
            t += self._delay()
            plan.append(PlannedPress("ok", t))
        self._planned_until = t
        return plan

    # ------------------------------------------------------------------ strategy
    def choose(self, view: Mapping[str, Any]) -> int:
        """Index of the best legal move for the pending roll."""
        scores = [self.score(view, move) + self.rng.random() * 0.05 for move in view["legal_moves"]]
        return max(range(len(scores)), key=scores.__getitem__)

    def score(self, view: Mapping[str, Any], move: Mapping[str, Any]) -> float:
        board = view["board"]
        certain = view["roll"] == "cat"  # the cat moves right after this move
        near = _cat_reach(view, 1)
        far = _cat_reach(view, 2)
        start_exit = board["start_exit"]

        def risk(space: int) -> float:
            if space == 0:  # trapped when the cat passes the start exit
                for moves in range(1, 6):
                    if start_exit in _cat_reach(view, moves):
                        return (1.0 if certain else 0.7) if moves == 1 else 1.5 / (moves + 1)
                return 0.1
            if space in near:
                return 1.0 if certain else 0.6
            if space in far:
                return 0.3
            return 0.05

        def potential(space: int) -> float:
            """The best cheese still ahead, less the further it is."""
            cat = view["cat"]
            # behind the cat on its first lap, cheese past it waits for the cat's
            # second, faster lap to sweep by first: worth much less
            wall = (
                cat["space"] if cat["lap"] == 1 and cat["space"] and cat["space"] > space else None
            )
            best = 0.3
            for house in board["houses"]:
                if house["arrow_space"] >= space and view["cheese_left"][house["name"]]:
                    value = house["value"] * 0.93 ** (house["arrow_space"] - space)
                    if wall is not None and house["arrow_space"] >= wall:
                        value *= 0.4
                    best = max(best, value)
            if view["cheese_left"]["emmentalia"]:
                distance = board["spaces"] + 1 - space
                value = board["emmentalia"]["value"] * 0.93**distance
                best = max(best, value * (0.3 if wall is not None else 1.0))
            return best

        def worth(space: int) -> float:
            return potential(space) * (1.0 - risk(space))

        mouse = next(m for m in view["mice"] if m["id"] == move["mouse"])
        here = mouse["space"] or 0
        before = worth(here)
        if move["into_cat"]:
            return -before - 5.0
        target: str = move["to"]
        if target == "emmentalia":
            left = view["cheese_left"]["emmentalia"]
            return (board["emmentalia"]["value"] if left else 0.5) - before + 1.0
        if target.startswith("house"):
            house = next(h for h in board["houses"] if h["name"] == target)
            gain = house["value"] if view["cheese_left"][target] else 0.0
            return gain - before
        return worth(int(target.split("-")[1])) - before


def new_bots(settings: GameSettings) -> list[VivaTopoBot]:
    return [VivaTopoBot(player, settings.seed) for player in range(settings.players)]


def play_bot_game(
    settings: GameSettings,
    max_presses: int = 20_000,
    after_action: Callable[[VivaTopoEngine], None] | None = None,
) -> VivaTopoEngine:
    """Play one game to the end with bots pressing buttons (no I/O, no clock).

    A small stand-in for the core simulator: presses go through the button map
    like real ones, out-of-turn presses are dropped as the runtime would.
    ``after_action`` sees the engine after every accepted action (property tests).
    """
    engine = VivaTopoEngine(settings)
    bots = new_bots(settings)
    queue: list[tuple[int, int, int, str]] = []
    seq = 0

    def observe(events: list[GameEvent], now: int) -> None:
        nonlocal seq
        view = engine.public_view()
        for bot in bots:
            for planned in bot.observe(view, events, now):
                heapq.heappush(queue, (planned.t_us, seq, bot.player, planned.input))
                seq += 1

    observe([], 0)
    for _ in range(max_presses):
        if engine.finished:
            return engine
        if not queue:
            raise RuntimeError("bots stopped pressing before the game ended")
        t_us, _, station, button = heapq.heappop(queue)
        action = button_map(Press(station=station, input=button, t_us=t_us), "buttons")
        events: list[GameEvent] = []
        if action is not None:
            try:
                events = engine.handle(action)
            except RuleError:
                events = []
            else:
                if after_action is not None:
                    after_action(engine)
        observe(events, t_us)
    raise RuntimeError(f"game not over after {max_presses} presses")
