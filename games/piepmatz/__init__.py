"""Piepmatz (little songbirds at the feeder) for the buzzer box: the hands are
on the players' phones, the feeder, queues, seed row and collections on the
shared screen (README.md has the rules, what the phone shows and sends)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSpec
from games.i18n import LANGUAGES, N_
from games.piepmatz import phone
from games.piepmatz.bots import new_bots
from games.piepmatz.buttons import BUTTONS
from games.piepmatz.cards import SPECIES
from games.piepmatz.engine import PiepmatzEngine
from games.piepmatz.options import OPTIONS, RULES_VERSION


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
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=2,
    max_players=4,
    new_engine=PiepmatzEngine,
    buttons=BUTTONS,
    new_bots=new_bots,
    scenario_step=scenario_step,
    scenario_options=("bird_deck_top", "feeder_deck_top"),
    scene="games.piepmatz.scene:PiepmatzScene",
    host_buttons=(),  # the players play it on their bells and phones: the host's buttons take nothing
    options=OPTIONS,
    rules_version=RULES_VERSION,  # 2: a pest at the won position strikes and the seed card is taken too
    logged_events={
        "played": N_("{player} played a bird"), "perch_change": N_("{player} took birds from the perch"),
        "strike": N_("a pest struck {player}"), "seed": N_("{player} took a seed card"),
        "end_triggered": N_("the last round begins"), "final": N_("the final lay begins"),
        "final_chosen": N_("{player} chose a final lay"), "final_revealed": N_("the final lays are shown"),
    },
    event_sounds={"strike": "buzz", "perch_change": "tick"},
    needs_phones=True,
    phone_panel=phone.panel,
    # the host remote's words for the phases (the turn player acts on their phone)
    phase_labels={"play": N_("Playing a bird"), "crow": N_("Crow: discarding a bird"), "lay": N_("Laying a card"),
                  "take": N_("Taking from the offer"), "final": N_("Last two cards")},
)

__all__ = ["SPEC", "SPECIES"]
