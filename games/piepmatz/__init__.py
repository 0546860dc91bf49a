"""Piepmatz (little songbirds at the feeder) for the buzzer box: the hands are
on the players' phones, the feeder, queues, seed row and collections on the
shared screen (README.md has the rules, what the phone shows and sends)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSettings, GameSpec, Option
from games.i18n import N_
from games.piepmatz import phone
from games.piepmatz.bots import new_bots
from games.piepmatz.buttons import BUTTONS
from games.piepmatz.cards import SPECIES
from games.piepmatz.engine import (
    INT_OPTIONS,
    PERCH_RANGE,
    SEED_CARDS_MAX,
    Majority,
    PiepmatzEngine,
    PiepmatzOptions,
)

_DEFAULTS = PiepmatzOptions()


def new_engine(settings: GameSettings) -> PiepmatzEngine:
    return PiepmatzEngine(settings)


def _int_option(name: str, label: str, *choices: int) -> Option:
    default, low, high = INT_OPTIONS[name]
    return Option(default, int, low=low, high=high, label=label,
                  choices=tuple((c, str(c)) for c in sorted({default, *choices})))


#: every option, its defaults taken from the engine's own ``PiepmatzOptions``
OPTIONS: Mapping[str, Option] = {
    # None: 2 perches for 2-3 players, 3 for 4 (the engine decides)
    "perches": Option(None, int, low=PERCH_RANGE[0], high=PERCH_RANGE[1], label="Perches",
                      choices=((None, "by players"), (2, "2"), (3, "3"))),
    "crows": _int_option("crows", "Crows", 0, 3, 9),
    "squirrels": _int_option("squirrels", "Squirrels", 0, 3, 9),
    "pair_points": _int_option("pair_points", "Points per pair", 3, 7),
    "majority": Option(_DEFAULTS.majority.value, str, label="Majority counts",
                       choices=tuple((m.value, m.value) for m in Majority)),
    "removed_species": Option(_DEFAULTS.removed_species, str, nullable=True,
                              label="Left out with 2 players",
                              choices=((_DEFAULTS.removed_species, str(_DEFAULTS.removed_species)),
                                       (None, "none"))),
    "seed_cards": Option(list(_DEFAULTS.seed_cards), list, high=SEED_CARDS_MAX),
}


def scenario_step(step: Mapping[str, Any], t_us: int) -> Action | None:
    """``{"play": BIRD, "perch": N, "player": P}``, ``{"crow"|"lay"|"take": BIRD, "player": P}``,
    ``{"final": [BIRD, BIRD], "player": P}``: what a phone sends for seat P."""
    player = step.get("player")
    if "play" in step:
        return Action("play", t_us, player, {"card": step["play"], "perch": step.get("perch", 0)})
    for kind in ("crow", "lay", "take"):
        if kind in step:
            return Action(kind, t_us, player, {"card": step[kind]})
    if "final" in step:
        return Action("final", t_us, player, {"cards": step["final"]})
    return None


SPEC = GameSpec(
    summary=N_("Queue birds behind the perched ones: a queue worth more than its perched bird wins seed cards and birds, but crows and squirrels strike. Pairs and eggs score."),
    name="piepmatz",
    title="Piepmatz",
    min_players=2,
    max_players=4,
    new_engine=new_engine,
    buttons=BUTTONS,
    new_bots=new_bots,
    scenario_step=scenario_step,
    scenario_options=("bird_deck_top", "feeder_deck_top"),
    scene="games.piepmatz.scene:PiepmatzScene",
    options=OPTIONS,
    logged_events=frozenset({"played", "perch_change", "strike", "seed", "end_triggered", "final"}),
    event_sounds={"strike": "buzz", "perch_change": "tick"},
    needs_phones=True,
    phone_panel=phone.panel,
)

__all__ = ["SPEC", "SPECIES"]
