"""Seeded bots for Viva Topo!: they read the shared screen and press buttons.

Strategy (greedy, one move ahead): every mouse is worth its *potential*
discounted by the risk of the cat catching it before its owner moves again.
The potential is the best cheese still ahead (a house's pieces or a wheel)
times the chance of winning the race to it against the cat chasing from
behind: the cat's expected turns to come past the mouse and reach that place
against the turns the mouse needs (it gets only a share of its owner's
moves). A move scores the change in that value, plus cheese banked at once.
A mouse's share of its owner's moves shrinks with the mice the owner has in
play, so a crowd of mice cannot all win long races. So bots run mice ahead
of the cat, take a house when the cat is close behind (entering while the cat
comes past within ``HOUSE_REACH`` cat rolls earns a bonus: cheese banked beats
a long race), rarely run past the cat (it would be in danger ahead of it), bring
mice out of the start while the cat is on its way (a bonus by the risk of
being trapped there), and prefer houses with the most valuable cheese left.
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Callable, Mapping
from typing import Any

from games.base import GameEvent, GameSettings, PlannedPress, RuleError
from games.viva_topo.buttons import BUTTONS
from games.viva_topo.engine import CAT, FACES, NUMBERS, VivaTopoEngine

#: replan if the screen has not changed this long after the last planned press
STALL_US = 3_000_000
#: turns between cat rolls on average, and spaces a mouse moves per roll
TURNS_PER_CAT = len(FACES) / FACES.count(CAT)
MOUSE_STEP = (sum(NUMBERS) + FACES.count(CAT)) / len(FACES)
#: a mouse gets about 1 in RACE_SHARE of its owner's moves; a lead of
#: RACE_SPREAD turns (plus a quarter of the cat's time) makes a race 3 to 1
RACE_SHARE = 1.5
RACE_SPREAD = 2.0
#: a mouse's share of its owner's moves shrinks with the mice the owner still has in play
SHARE_PER_MOUSE = 0.6
#: entering a house with cheese while the cat will come past within this many cat rolls
#: banks the cheese: worth HOUSE_BONUS on top of its value
HOUSE_REACH = 2
HOUSE_BONUS = 1.5
#: bringing a mouse out of the start is worth this times its risk of being trapped
START_BONUS = 2.0


def _cat_moves(view: Mapping[str, Any], moves: int) -> list[set[int]]:
    """Track spaces the cat covers on each of its next ``moves`` cat rolls
    (fewer sets once its run is over)."""
    cat = view["cat"]
    if cat["done"] or cat["space"] is None:
        return []
    board = view["board"]
    symbols: list[int] = board["cat_symbols"]
    n = len(symbols)
    spaces: int = board["spaces"]
    g, end = cat["route"], cat["route_end"]  # symbols, unwrapped; lap 2 is the last n of them
    out: list[set[int]] = []
    space = cat["space"]
    for _ in range(moves):
        if g >= end:
            break
        covered: set[int] = set()
        target = min(g + board["cat_speed"][0 if g < end - n else 1], end)
        while g < target:
            g += 1
            goal = symbols[g % n]
            while space != goal:
                space = space % spaces + 1
                covered.add(space)
        out.append(covered)
    return out


def _cat_reach(view: Mapping[str, Any], moves: int) -> set[int]:
    """Track spaces the cat covers in its next ``moves`` cat rolls."""
    return set().union(*_cat_moves(view, moves))


def _rolls_until(sweeps: list[set[int]], here: int, goal: int) -> int | None:
    """How many cat rolls until the cat, chasing a mouse on ``here``, covers
    ``goal`` ahead of it (None if its run ends first): the first time it
    covers ``goal`` once it has come past ``here``."""
    behind = False
    for rolls, covered in enumerate(sweeps, 1):
        behind = behind or here in covered
        if behind and goal in covered:
            return rolls
    return None


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
        """How much ``move`` gains: the worth of where the mouse lands (the cheese ahead, the
        cat's threat: ``_Outlook``) against where it stands."""
        board = view["board"]
        owner = next(m["owner"] for m in view["mice"] if m["id"] == move["mouse"])
        outlook = _Outlook(view, owner)
        mouse = next(m for m in view["mice"] if m["id"] == move["mouse"])
        here = mouse["space"] or 0
        before = outlook.worth(here)
        # the rulebook's tip: a mouse that runs past the cat is in mortal danger;
        # the risk below prices that in, this keeps a bot from doing it lightly
        caution = 0.5 if move["passes_cat"] else 0.0
        target: str = move["to"]
        if target == "emmentalia":
            left = view["cheese_left"]["emmentalia"]
            return (board["emmentalia"]["value"] if left else 0.5) - before + 1.0
        if target.startswith("house"):
            house = next(h for h in board["houses"] if h["name"] == target)
            gain = house["value"] if view["cheese_left"][target] else 0.0
            start_exit = outlook.start_exit
            coming = _rolls_until(outlook.sweeps, here or start_exit, here or start_exit)
            if gain and coming is not None and coming <= HOUSE_REACH:
                gain += HOUSE_BONUS
            return gain - before
        after = outlook.worth(int(target.split("-")[1])) - before - caution
        if here == 0:  # every mouse out of the start is one fewer the cat can trap there
            after += START_BONUS * outlook.risk(0)
        return after


class _Outlook:
    """The board as a bot weighs one owner's mouse on it for the pending roll: where
    the cat sweeps next, how long the owner's turns take to come round, and what a
    space is worth from there (``VivaTopoBot.score``)."""

    def __init__(self, view: Mapping[str, Any], owner: int) -> None:
        board = self.board = view["board"]
        self.view = view
        self.certain = view["roll"] == CAT  # the cat moves right after this move
        sweeps = self.sweeps = _cat_moves(view, 4 * board["spaces"])
        self.near = sweeps[0] if sweeps else set()
        self.far = self.near | sweeps[1] if len(sweeps) > 1 else self.near
        self.start_exit = board["start_exit"]
        self.players = len(view["players"])
        self.waiting = sum(1 for m in view["mice"] if m["owner"] == owner and m["where"] == "start")
        # a mouse gets about one in (mice in play) of its owner's moves, whatever RACE_SHARE says
        own = sum(
            1
            for m in view["mice"]
            if m["owner"] == owner and (m["where"] == "start" or m["where"].startswith("space-"))
        )
        self.share = max(RACE_SHARE, own * SHARE_PER_MOUSE)

    def risk(self, space: int) -> float:
        """Chance the cat gets this mouse before its owner moves again."""
        if space == 0:  # trapped when the cat passes the start exit
            for moves, covered in enumerate(self.sweeps, 1):
                if self.start_exit in covered:
                    if moves == 1 and self.certain:
                        return 1.0
                    # the owner's turns before the cat gets there, shared by the
                    # mice still waiting in the start
                    turns = moves * TURNS_PER_CAT / self.players
                    return min(0.95, self.waiting / (turns + 1.0))
            return 0.0
        if space in self.near:
            return 1.0 if self.certain else 0.6
        if space in self.far:
            return 0.3
        return 0.05

    def survival(self, space: int, goal: int, steps: int) -> float:
        """Chance of running ``steps`` to ``goal`` before the cat behind comes by:
        expected turns the cat needs against the turns the mouse needs."""
        cat_rolls = _rolls_until(self.sweeps, space or self.start_exit, goal)
        if cat_rolls is None:
            return 1.0  # the cat's run ends before it gets there
        cat_turns = cat_rolls * TURNS_PER_CAT
        margin = cat_turns - steps / MOUSE_STEP * self.players * self.share
        return 1.0 / (1.0 + math.exp(-margin / (RACE_SPREAD + 0.25 * cat_turns)))

    def potential(self, space: int) -> float:
        """The best cheese still ahead, times the chance to get there first."""
        board, view = self.board, self.view
        best = 0.3
        for house in board["houses"]:
            arrow = house["arrow_space"]
            if arrow >= space and view["cheese_left"][house["name"]]:
                steps = arrow - space + 1
                value = house["value"] * self.survival(space, arrow, steps) * 0.97**steps
                best = max(best, value)
        if view["cheese_left"]["emmentalia"]:
            steps = board["spaces"] + 1 - space
            value = board["emmentalia"]["value"] * self.survival(space, board["spaces"], steps)
            best = max(best, value * 0.97**steps)
        return best

    def worth(self, space: int) -> float:
        """What a mouse on ``space`` is worth: the cheese ahead, if the cat does not get it first."""
        return self.potential(space) * (1.0 - self.risk(space))


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
        action = BUTTONS.action(station, button, "buttons", t_us)
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
