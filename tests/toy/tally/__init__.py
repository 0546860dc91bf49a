"""Tally, the toy game: first station to press its bell ``target`` times wins.

It lives under tests/ on purpose: it proves a game plugs into the box with
one package and one registry line (``games.registry.register`` in the test),
without a line of ``controller/`` knowing it. docs/architecture.md walks
through it as "adding a game".
"""

from __future__ import annotations

from games.base import ANY, ButtonMap, GameSpec
from games.i18n import N_
from tests.toy.tally.bots import new_bots
from tests.toy.tally.engine import OPTIONS, TallyEngine

SPEC = GameSpec(
    name="tally",
    title="Tally",
    min_players=2,
    max_players=8,
    new_engine=TallyEngine,
    # any button of a station counts one for its player
    buttons=ButtonMap({(ANY, ANY): ("tap", {})}),
    new_bots=new_bots,
    scene="tests.toy.tally.scene:TallyScene",
    options=OPTIONS,
    summary=N_("Press any button of your station to score. The first to reach the target wins."),
    # the game's own words: the box logs, sounds, lights and labels them
    host_aliases={"reset": ("clear",)},
    host_buttons=("reset",),  # the only generic button it takes (as its clear): the help lists no other
    host_labels={"clear": N_("Clear")},  # the host page's button for it (else its id, as English)
    logged_events={"point": "{player} scored"},
    event_sounds={"point": "tick"},
    status_lights={"ahead": "blink"},
    status_labels={"ahead": N_("AHEAD")},
)
