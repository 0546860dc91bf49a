"""Reaction duel: the box's own wait-for-GO game."""

from games.base import GameSpec
from games.i18n import LANGUAGES, N_
from games.reaction.bots import new_bots, new_host
from games.reaction.buttons import BUTTONS
from games.reaction.engine import ReactionEngine
from games.reaction.options import OPTIONS

SPEC = GameSpec(
    name="reaction",
    title=N_("Reaction duel"),
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=2,
    max_players=16,
    new_engine=ReactionEngine,
    buttons=BUTTONS,
    new_bots=new_bots,
    new_host=new_host,
    scene="games.reaction.scene:ReactionScene",
    options=OPTIONS,
    demo_options={"rounds": 8, "decoy_chance": 0.2},
    host_aliases={"arm": ("arm", "start"), "reset": ("reset", "stop")},
    # the host remote says its phases in words (docs/companion.md)
    phase_labels={"ready": N_("Ready"), "wait": N_("Wait for it"), "decoy": N_("Wait for it"), "go": N_("GO"),
                  "result": N_("Result")},
    status_lights={"winner": "on", "reacted": "blink"},
    summary=N_("Wait for GO, then press: the fastest wins the round. "
                "Press before GO, or on a decoy, and you sit the round out."),
)
