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

from controller.press import Press
from games.base import Action

#: input name -> (action kind, args)
INPUTS: dict[str, tuple[str, dict[str, int]]] = {
    "bell": ("bell", {}),
    "next": ("select", {"step": 1}),
    "prev": ("select", {"step": -1}),
    "ok": ("confirm", {}),
    "a": ("select", {"step": 1}),
    "b": ("select", {"step": -1}),
    "c": ("confirm", {}),
}


def button_map(press: Press, station_kind: str) -> Action | None:
    """Turn a debounced press into an engine action for that station's player."""
    mapped = INPUTS.get(press.input)
    if mapped is None:
        return None
    kind, args = mapped
    return Action(
        kind=kind,
        t_us=press.t_us,
        player=press.station,
        args=dict(args),
        precision_us=press.precision_us,
    )
