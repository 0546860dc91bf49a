"""Reaction duel: the box's own wait-for-GO game."""

from games.reaction.bots import new_bots, new_host
from games.reaction.buttons import map_press
from games.reaction.engine import ReactionEngine
from games.registry import GameSpec

SPEC = GameSpec(
    name="reaction",
    title="Reaction duel",
    min_players=2,
    max_players=16,
    new_engine=ReactionEngine,
    button_map=map_press,
    new_bots=new_bots,
    new_host=new_host,
    scene="games.reaction.scene:ReactionScene",
    default_options={},
    demo_options={"rounds": 8, "decoy_chance": 0.2},
)
