"""Station buttons -> Schicki Micki actions (station index == player index).

Full station: ``bell`` (knock), one button per accessory (call it), ``blue``,
``red``. Compact station (kind ``compact``): ``bell``, ``blue``, ``red`` and
one ``call`` button; the engine credits that call to the single pair on the
table, so the map sends a ``call`` without an accessory. Stations whose
buttons are only numbered (``a``, ``b``, ``c``: the header profiles and the
keyboard) play compact, whatever their kind: ``a`` calls, ``b`` grabs blue,
``c`` grabs red.
"""

from __future__ import annotations

from typing import Any

from games.base import ANY, Binding, ButtonMap
from games.i18n import N_
from games.schicki_micki.cards import ACCESSORIES

#: (marked for the catalogue: the help and diagnostics screens name them)
FULL_INPUTS: tuple[str, ...] = (N_("bell"), *ACCESSORIES, N_("blue"), N_("red"))
COMPACT_INPUTS: tuple[str, ...] = (N_("bell"), N_("blue"), N_("red"), N_("call"))
#: numbered buttons (header profiles, keyboard) play as a compact station
NUMBERED_INPUTS: dict[str, str] = {"a": "call", "b": "blue", "c": "red"}

_CALL: Binding = ("call", {})
_BINDINGS: dict[tuple[str, str], Binding | None] = {
    (ANY, "bell"): ("knock", {}),
    (ANY, "blue"): ("blue", {}),
    (ANY, "red"): ("red", {}),
    ("compact", "call"): _CALL,
    (ANY, "a"): _CALL,
    (ANY, "b"): ("blue", {}),
    (ANY, "c"): ("red", {}),
}
for _accessory in ACCESSORIES:
    _args: dict[str, Any] = {"accessory": _accessory}
    _BINDINGS[(ANY, _accessory)] = ("call", _args)
    _BINDINGS[("compact", _accessory)] = None  # a compact station has one call button

BUTTONS = ButtonMap(_BINDINGS)
