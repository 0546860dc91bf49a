"""Station buttons for Fiki Miki: the bell rings (variant I's race for a
stack, variant IIB's "I lack the led kind"). Cards are chosen on the phone;
every other button is ignored, so a stray press never plays a card."""

from __future__ import annotations

from games.base import ANY, ButtonMap
from games.fiki_miki.engine import RING

BUTTONS = ButtonMap({
    (ANY, "bell"): (RING, {}),
    (ANY, ANY): None,
})
