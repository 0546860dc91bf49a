"""Viva Topo! (mice and cat race) for the buzzer box: engine, buttons, bots."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSpec
from games.i18n import LANGUAGES, N_
from games.viva_topo.bots import new_bots
from games.viva_topo.buttons import BUTTONS
from games.viva_topo.engine import VivaTopoEngine
from games.viva_topo.options import OPTIONS
from games.viva_topo.strip import worded_strip


def scenario_step(step: Mapping[str, Any], t_us: int) -> Action | None:
    """``{"roll": 4}``/``{"roll": "cat"}`` and ``{"move": ID, "to": ...}`` for the
    current player (``"player"`` may name another one, to test rejections)."""
    if "roll" in step:
        return Action("roll", t_us, player=step.get("player"), args={"value": step["roll"]})
    if "move" in step:
        args: dict[str, Any] = {"mouse": step["move"]}
        if "to" in step:
            args["to"] = step["to"]
        return Action("move", t_us, player=step.get("player"), args=args)
    return None


SPEC = GameSpec(
    inputs=(N_("bell"), N_("next"), N_("prev"), N_("ok")),
    name="viva-topo",
    rules_version=2,  # 2: a mouse may run past the cat, numbered cat start, two laps from it
    title="Viva Topo!",
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=2,
    max_players=4,
    new_engine=VivaTopoEngine,
    buttons=BUTTONS,
    new_bots=new_bots,
    scenario_step=scenario_step,
    scenario_options=("start", "auto_move_single"),
    scene="games.viva_topo.scene:VivaTopoScene",
    host_buttons=(),  # the players roll and move with their bells: the host's buttons take nothing
    strip_wording=worded_strip,  # games/viva_topo/strip.py: the scene's strip, and the phones' pages'
    own_results=True,  # its scene draws its own end screen (the scene's own_results)
    phase_labels={"roll": N_("Roll the die"), "move": N_("Move")},  # the host remote's words
    options=OPTIONS,
    summary=N_("Roll and run your mice round the board to the cheese houses; the cat chases them and eats "
               "every mouse it reaches. The most cheese wins."),
    logged_events={
        "eaten": N_("the cat caught mice"), "trapped": N_("mice are shut in at the start"),
        "cheese": N_("{player} took cheese"),
    },
    # the die's rattle, cheese won, the cat's meal and a mouse shut in the start
    event_sounds={"roll": "tick", "cheese": "bell", "eaten": "buzz", "trapped": "buzz"},
)
