"""Schicki Micki (Zoch 2003) on the buzzer box: spot pairs, two-worm hens and twins first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSpec
from games.i18n import LANGUAGES, N_
from games.schicki_micki.bots import new_bots
from games.schicki_micki.buttons import BUTTONS, FULL_INPUTS
from games.schicki_micki.engine import SchickiMickiEngine
from games.schicki_micki.options import OPTIONS
from games.schicki_micki.strip import worded_strip


def scenario_step(step: Mapping[str, Any], t_us: int) -> Action | None:
    """``{"turn": true}`` -> host turn; ``{"show": CARD}`` -> host show_card;
    ``{"pace": N | null}`` -> host pace (null: the host turns every card)."""
    if step.get("turn"):
        return Action(kind="turn", t_us=t_us)
    if "show" in step:
        return Action(kind="show_card", t_us=t_us, args={"card": step["show"]})
    if "pace" in step:
        return Action(kind="pace", t_us=t_us, args={"turn_interval_us": step["pace"]})
    return None


SPEC = GameSpec(
    inputs=FULL_INPUTS,
    name="schicki-micki",
    rules_version=2,  # 2: the last window ends the game, fair shuffle of a twinned deck, final grabs
    title="Schicki Micki",
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=2,
    max_players=7,
    new_engine=SchickiMickiEngine,
    buttons=BUTTONS,
    new_bots=new_bots,
    scenario_step=scenario_step,
    scenario_options=("deck", "won"),
    scene="games.schicki_micki.scene:SchickiMickiScene",
    strip_wording=worded_strip,  # games/schicki_micki/strip.py: the scene's strip, and the phones' pages'
    own_results=True,  # its scene draws its own end screen (the scene's own_results)
    options=OPTIONS,
    host_aliases={"arm": ("arm", "turn"), "next": ("next", "turn")},
    host_buttons=("arm", "next"),  # both turn the next card; nothing to judge, undo or reset
    # the host remote's words (docs/companion.md)
    host_labels={"turn": N_("Turn a card")},
    phase_labels={"waiting": N_("Waiting"), "showing": N_("Card on show"), "window": N_("React now")},
    # a station's reaction to the newest card, then how it was judged
    status_lights={"winner": "on", "reacted": "blink",
                   "done": "off", "ignored": "off", "nothing": "off", "returned": "off"},
    status_labels={"winner": N_("WINNER"), "reacted": N_("REACTED"), "done": N_("DONE"), "ignored": N_("IGNORED"),
                   "nothing": N_("NOTHING"), "returned": N_("RETURNED")},
    summary=N_("Cards of dressed-up hens are turned one by one. Call the accessory that two hens share in "
               "one colour, knock for a two-worm hen, grab a pawn for several pairs or twin cards."),
)
