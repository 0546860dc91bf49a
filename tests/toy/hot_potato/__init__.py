"""Hot Potato, the worked example of docs/architecture.md ("Adding a game").

The host starts a round; the potato starts at a station; its holder passes
it on with the bell (to the next station); a hidden timer, drawn from the
seed, burns whoever holds it when it runs out. After ``rounds`` rounds the
stations burnt least often win. It needs a host to start each round, so it
brings a host bot: without one, ``simulate`` and ``demo`` would say the game
stands still. Its texts are not translated: they show in English.
"""

from __future__ import annotations

from games.base import ANY, ButtonMap, GameSpec
from games.i18n import N_
from tests.toy.hot_potato.bots import new_bots, new_host
from tests.toy.hot_potato.engine import OPTIONS, HotPotatoEngine

SPEC = GameSpec(
    name="hot-potato",
    title="Hot Potato",
    min_players=2,
    max_players=8,
    new_engine=HotPotatoEngine,
    buttons=ButtonMap({(ANY, "bell"): ("pass", {})}),  # the bell passes; other buttons do nothing
    new_bots=new_bots,
    new_host=new_host,  # the host bot starts every round (docs/architecture.md)
    scene="tests.toy.hot_potato.scene:HotPotatoScene",
    options=OPTIONS,
    summary=N_("Pass the potato with the bell; whoever holds it when the hidden timer runs out is burnt."),
    host_aliases={"arm": ("start",), "next": ("start",)},
    logged_events={"burnt": "{player} held the potato too long"},
    event_sounds={"burnt": "buzz", "passed": "tick"},
    status_lights={"holding": "blink"},
    status_labels={"holding": N_("HOT")},
    phase_labels={"passing": N_("Passing the potato")},  # idle and over: the common words
    # translated: English only (the default): cs and pl fall back to English
)
