"""Fiki Miki for the buzzer box: hands on the phones (or, variant I in teaching
mode, on the shared screen), the bell at every station; README.md has the
rules, what the phone shows and sends."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSpec
from games.fiki_miki import phone
from games.fiki_miki.bots import new_phone_bots
from games.fiki_miki.buttons import BUTTONS
from games.fiki_miki.engine import DISCARD, PLAY, FikiMikiEngine
from games.fiki_miki.options import OPTIONS, PLAYERS, RULES_VERSION, Variant
from games.i18n import LANGUAGES, N_


def scenario_step(step: Mapping[str, Any], t_us: int) -> Action | None:
    """``{"play": CARD_ID, "player": P}`` and ``{"discard": CARD_ID, "player": P}``:
    what seat P's phone sends (the bell is a station ``press``)."""
    for kind in (PLAY, DISCARD):
        if kind in step:
            return Action(kind, t_us, step.get("player"), {"card": step[kind]})
    return None


SPEC = GameSpec(
    summary=N_("Play your cards onto the stacks and ring the bell the moment it is right (a stack reaches the count, or you lack the led kind): the first right ring takes the stack."),
    name="fiki-miki",
    title="Fiki Miki",
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=min(low for low, _ in PLAYERS.values()),
    max_players=max(high for _, high in PLAYERS.values()),
    new_engine=FikiMikiEngine,
    buttons=BUTTONS,
    new_bots=new_phone_bots,
    scenario_step=scenario_step,
    scenario_options=("deck", "variant", "hand_size", "threshold"),
    scene="games.fiki_miki.scene:FikiMikiScene",
    host_buttons=(),  # the players play it on their bells and phones: the host's buttons take nothing
    options=OPTIONS,
    rules_version=RULES_VERSION,  # 2: a wrong ringer's bell ban lasts until their own turn after the lost one
    logged_events={
        "played": N_("{player} played a card"), "led": N_("{player} led a new stack"),
        "wrong": N_("{player} was wrong"), "out": N_("{player} is out"),
        "late": N_("{player} rang too late"), "skipped": N_("{player} sits out a card"),
    },
    event_sounds={"played": "tick", "led": "tick"},
    status_lights={"banned": "off", "empty": "off", "winner": "on", "done": "off"},
    status_labels={"banned": N_("NO BELL"), "empty": N_("NO CARDS"), "winner": N_("WON"), "done": ""},
    needs_phones=True,
    no_phones_with={"variant": Variant.I.value, "open_hands": True},
    phone_panel=phone.panel,
    # the host remote's words for the phases
    phase_labels={"play": N_("Playing a card"), "bell": N_("Bell open"), "lead": N_("Leading a card"),
                  "follow": N_("Following")},
)
