"""Station buttons for Piepmatz: the station confirms the move its seat chose.

A hand is secret, so no station button may step through moves on the shared
screen. A seat chooses on a phone: straight away (the move is played), or as
a ``propose`` that waits for the seat's own station (bell, ok or its third
button) to ``confirm`` it. That is how one phone passed around a table works:
whoever holds it picks the move for the seat to act, the player at that seat
presses their bell, and the box knows the right seat signed the move.
"""

from __future__ import annotations

from games.base import ANY, ButtonMap
from games.piepmatz.engine import CONFIRM

BUTTONS = ButtonMap({
    (ANY, "bell"): (CONFIRM, {}),
    (ANY, "ok"): (CONFIRM, {}),
    (ANY, "c"): (CONFIRM, {}),
    (ANY, ANY): None,
})
