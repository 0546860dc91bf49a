"""Station buttons -> Schicki Micki actions (station index == player index).

Full station: ``bell`` (knock), one button per accessory (call it), ``blue``,
``red``. Compact station (kind ``compact``): ``bell``, ``blue``, ``red`` and
one ``call`` button; the engine credits that call to the single pair on the
table, so the map sends a ``call`` without an accessory. Stations whose
buttons are only numbered (``a``, ``b``, ``c``: the header profiles and the
keyboard) play compact: ``a`` calls, ``b`` grabs blue, ``c`` grabs red.
"""

from __future__ import annotations

from controller.press import Press
from games.base import Action
from games.schicki_micki.cards import ACCESSORIES

FULL_INPUTS: tuple[str, ...] = ("bell", *ACCESSORIES, "blue", "red")
COMPACT_INPUTS: tuple[str, ...] = ("bell", "blue", "red", "call")
#: numbered buttons (header profiles, keyboard) play as a compact station
NUMBERED_INPUTS: dict[str, str] = {"a": "call", "b": "blue", "c": "red"}


def button_map(press: Press, station_kind: str) -> Action | None:
    """Map one debounced press; inputs this station kind does not have give None."""
    name = NUMBERED_INPUTS.get(press.input, press.input)
    if press.input in NUMBERED_INPUTS:
        station_kind = "compact"
    kind: str | None = None
    args: dict[str, str] = {}
    if name == "bell":
        kind = "knock"
    elif name in ("blue", "red"):
        kind = name
    elif station_kind == "compact":
        if name == "call":
            kind = "call"
    elif name in ACCESSORIES:
        kind, args = "call", {"accessory": name}
    if kind is None:
        return None
    return Action(kind=kind, t_us=press.t_us, player=press.station, args=args, precision_us=press.precision_us)
