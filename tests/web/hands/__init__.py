"""Hands, a test-only hidden-hand game for the companion pages: each player
holds secret numbered cards and, in turn, plays one; its value is scored.
It has what the hidden-hand games on main have (``private_view(seat)`` and
``legal_moves(seat)``), so the player page is tested the way they will use it.
"""

from __future__ import annotations

from games.base import ANY, ButtonMap, GameSpec, Option
from tests.web.hands.engine import HandsEngine

SPEC = GameSpec(
    name="hands",
    title="Hands",
    min_players=2,
    max_players=8,
    new_engine=HandsEngine,
    buttons=ButtonMap({(ANY, ANY): None}),  # played on phones only
    new_bots=lambda settings: [],
    scene="tests.web.hands.scene:HandsScene",
    logged_events={"played": "{player} played a card"},
    options={"hand": Option(3, int, low=1, high=100, label="Cards in a hand"),
             "refill": Option(False, bool, label="Deal again when a hand is empty")},
)
