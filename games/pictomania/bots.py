"""Seeded simulated Pictomania players: they draw for a while, guess, ring the bell.

The simulator plays the part of the paper: a bot "looks at" a drawing and
recognises it with probability ``accuracy`` (it then names the drawer's true
number, read from the drawer's private view as the drawing would show it);
otherwise it names a wrong number. Like a person, a bot never lays its own
number and never a guess card it has already laid; once its right card is
gone, any later guess is wrong. All times are box microseconds; no clock, no
I/O: the same seed plays the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.base import Action, GameEvent, GameSettings, PlannedAction, PlannedPress, RuleError
from games.pictomania.engine import (
    ADMIT,
    DONE,
    DRAWN,
    GUESS,
    NEXT,
    NUMBERS,
    REVEAL,
    START,
    PictomaniaEngine,
)
from games.pictomania.words import WordCard

SECOND_US = 1_000_000
#: a phone guess is stamped when it reaches the box: honest to tens of ms
PHONE_PRECISION_US = 20_000
#: a wired bell is stamped at the source
BELL_PRECISION_US = 100


@dataclass(frozen=True)
class BotProfile:
    """How a simulated table plays (the same for every seat)."""

    accuracy: float = 0.75  # chance one guess names the right number
    skip: float = 0.1  # chance a bot does not guess a drawer at all
    draw_s: tuple[float, float] = (20.0, 60.0)  # how long drawing takes
    guess_gap_s: tuple[float, float] = (2.0, 12.0)  # thinking time before each guess
    wrong_drawing: float = 0.02  # chance a bot drew the wrong word and admits it
    decline: float = 0.0  # chance a bot says "done" without a bonus token (needs token_choice)
    bell_s: tuple[float, float] = (0.2, 2.0)  # from the last guess to the bell


#: the ``bot_pace`` option "demo": a table that draws and guesses in seconds, so an
#: unattended demo reaches a scored reveal within about 15 s (rules unchanged)
DEMO_PROFILE = BotProfile(draw_s=(3.0, 6.0), guess_gap_s=(0.4, 1.2), bell_s=(0.2, 0.8))


def profile_for(settings: GameSettings) -> BotProfile:
    """The simulated table's pace from the ``bot_pace`` option."""
    return DEMO_PROFILE if settings.options.get("bot_pace") == "demo" else BotProfile()


def _plan_round(engine: PictomaniaEngine, profile: BotProfile, rng: random.Random,
                start_us: int) -> list[Action]:
    """Every bot's guesses and bell press for one round, in the bots' own time."""
    players = engine.players
    numbers = [engine.private_view(p)["secret"]["number"] for p in range(players)]
    actions: list[Action] = []
    for p in range(players):
        t = start_us + int(rng.uniform(*profile.draw_s) * SECOND_US)
        actions.append(Action(DRAWN, t, p, precision_us=PHONE_PRECISION_US))
        actions += plan_guesses(p, numbers, profile, rng, t)
    actions.sort(key=lambda a: a.t_us)
    return actions


def plan_guesses(p: int, numbers: Sequence[int], profile: BotProfile, rng: random.Random,
                 drawn_us: int) -> list[Action]:
    """One player's guesses and bell once its own drawing is done at ``drawn_us``
    (``numbers``: every drawer's true number, as the drawings show them)."""
    actions: list[Action] = []
    t = drawn_us
    others = [d for d in range(len(numbers)) if d != p]
    rng.shuffle(others)
    used = {numbers[p]}  # laying one's own number is pointless: bots never do
    for d in others:
        t += int(rng.uniform(*profile.guess_gap_s) * SECOND_US)
        if rng.random() < profile.skip:
            continue
        right = numbers[d]
        if rng.random() < profile.accuracy and right not in used:
            number = right
        else:
            wrong = [k for k in NUMBERS if k not in used and k != right]
            if not wrong:
                continue
            number = rng.choice(wrong)
        used.add(number)
        actions.append(Action(GUESS, t, p, {"drawer": d, "number": number},
                              precision_us=PHONE_PRECISION_US))
    t += int(rng.uniform(*profile.bell_s) * SECOND_US)
    if rng.random() < profile.decline:  # the phone's "done, no token"
        actions.append(Action(DONE, t, p, {"token": 0}, precision_us=PHONE_PRECISION_US))
    else:
        actions.append(Action(DONE, t, p, precision_us=BELL_PRECISION_US))
    return actions


def play_bot_game(
    settings: GameSettings,
    cards: Mapping[int, Sequence[WordCard]],
    profile: BotProfile = BotProfile(),
    after_action: Callable[[PictomaniaEngine, Action], None] | None = None,
) -> PictomaniaEngine:
    """Play a whole game with bots; actions the rules refuse (a harsher round
    already over) are dropped as the runtime would drop them."""
    engine = PictomaniaEngine(settings, cards)
    rng = random.Random(settings.seed * 7919 + 1)
    t = 0

    def send(action: Action) -> None:
        try:
            engine.handle(action)
        except RuleError:
            return
        if after_action is not None:
            after_action(engine, action)

    while not engine.finished:
        t += SECOND_US
        send(Action(START, t))
        plan = _plan_round(engine, profile, rng, t)
        for action in plan:
            send(action)
        t = max(t, plan[-1].t_us)
        while (deadline := engine.next_deadline_us()) is not None:
            t = max(t, deadline)
            engine.tick(t)
        t += SECOND_US
        for p in range(engine.players):
            if rng.random() < profile.wrong_drawing:
                send(Action(ADMIT, t, p))
        send(Action(REVEAL, t))
        t += SECOND_US
        send(Action(NEXT, t))
    return engine


# ---------------------------------------------------------------------- on the box


class Paper:
    """The drawings on the table, which the box never sees: each simulated
    drawer puts its true number here, as its drawing would show it."""

    def __init__(self, players: int) -> None:
        self.numbers: list[int | None] = [None] * players
        self.round = 0


class PictomaniaPhoneBot:
    """A seat on the box (``PhoneBot``): draws for a while ("drawn" from the
    phone), then guesses the others' drawings from the phone and rings the
    station bell when done (the bell is ranked by its stamp for the bonus)."""

    def __init__(self, seed: int, seat: int, paper: Paper, profile: BotProfile = BotProfile()) -> None:
        self.seat = seat
        self.paper = paper
        self.profile = profile
        self.rng = random.Random(f"pictomania-phone-{seed}-{seat}")
        self._round = 0

    def observe_seat(
        self, view: Mapping[str, Any], private: Mapping[str, Any], events: list[GameEvent], now_us: int
    ) -> list[PlannedPress | PlannedAction]:
        if view["phase"] != "drawing" or private.get("secret") is None:
            return []
        plans: list[PlannedPress | PlannedAction] = []
        if self._round != view["round"]:  # a new round: draw the own word
            self._round = int(view["round"])
            self.paper.numbers[self.seat] = int(private["secret"]["number"])
            drawn = now_us + int(self.rng.uniform(*self.profile.draw_s) * SECOND_US)
            plans.append(PlannedAction(DRAWN, drawn, precision_us=PHONE_PRECISION_US))
        if any(e.kind == "drawn" and e.player == self.seat for e in events):
            numbers = [n if n is not None else 0 for n in self.paper.numbers]
            for action in plan_guesses(self.seat, numbers, self.profile, self.rng, now_us):
                if action.kind == DONE and not action.args:
                    plans.append(PlannedPress("bell", action.t_us))
                else:
                    plans.append(PlannedAction(action.kind, action.t_us, action.args, action.precision_us))
        return plans


class PictomaniaHost:
    """A simulated host: deals when the cards are on show, reveals when everyone
    is done, and moves on once the table has read the reveal."""

    PAUSE_US = {"cards": 4 * SECOND_US, "review": 3 * SECOND_US, "revealed": 12 * SECOND_US}
    #: a demo's host deals and reveals at once (the reveal stays as long: it is read)
    DEMO_PAUSE_US = {"cards": SECOND_US, "review": SECOND_US // 2, "revealed": 12 * SECOND_US}
    KIND = {"cards": START, "review": REVEAL, "revealed": NEXT}

    def __init__(self, pause_us: Mapping[str, int] | None = None) -> None:
        self._planned: tuple[Any, ...] | None = None
        self.pause_us = dict(pause_us or self.PAUSE_US)

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[Action]:
        phase = str(view["phase"])
        key = (view["round"], phase)
        if phase not in self.KIND or key == self._planned:
            return []
        self._planned = key
        return [Action(self.KIND[phase], now_us + self.pause_us[phase])]


def new_phone_bots(settings: GameSettings) -> list[PictomaniaPhoneBot]:
    paper = Paper(settings.players)
    profile = profile_for(settings)
    return [PictomaniaPhoneBot(settings.seed, seat, paper, profile) for seat in range(settings.players)]


def new_host(settings: GameSettings) -> PictomaniaHost:
    demo = settings.options.get("bot_pace") == "demo"
    return PictomaniaHost(PictomaniaHost.DEMO_PAUSE_US if demo else None)
