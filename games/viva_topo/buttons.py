"""Station buttons for Viva Topo!: the bell rolls, then confirms the highlighted
move; next/prev (or a station's first/second button) step through the moves,
ok (or its third button) confirms too. So a bell and one button are enough:
that is what the keyboard and the header profiles give each station.

Station index is the player index. The button map cannot know whose turn it
is (it only sees the press), so it maps every station's presses and the
engine rejects out-of-turn ones with a ``RuleError`` naming whose turn it is;
the runtime treats that as an ignored press. Inputs the game does not use
(other arcade buttons) map to None.
"""

from __future__ import annotations

from games.base import ANY, ButtonMap

BUTTONS = ButtonMap({
    (ANY, "bell"): ("bell", {}),
    (ANY, "next"): ("select", {"step": 1}),
    (ANY, "prev"): ("select", {"step": -1}),
    (ANY, "ok"): ("confirm", {}),
    (ANY, "a"): ("select", {"step": 1}),
    (ANY, "b"): ("select", {"step": -1}),
    (ANY, "c"): ("confirm", {}),
})
