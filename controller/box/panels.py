"""A game's own phone page (``GameSpec.phone_panel``), built on the loop
thread with everything else a seat's snapshot holds.

The panel is built from a ``PhoneTable`` (the public view, this seat's own
private view and moves, the station names), so it can show nothing the
generic page could not. Its taps may send moves beyond ``legal_moves`` (a
move held for the station to confirm): ``offered_keys`` lets the server
accept exactly those, and the engine judges each again when it arrives.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.base import GameSpec
from games.panels import PanelMove, PhonePanel, PhoneTable


def seat_panel(spec: GameSpec, names: Sequence[str], seat: int, public: Mapping[str, Any], private: Mapping[str, Any],
               moves: Sequence[Mapping[str, Any]]) -> PhonePanel | None:
    """The game's page for ``seat``, or None: the generic page draws the private view."""
    build = spec.phone_panel
    if build is None:
        return None
    return build(PhoneTable(seat, tuple(names), public, private, tuple(moves)))


def panel_moves(panel: PhonePanel | None) -> list[PanelMove]:
    """Every move a tap on the panel may send (what the server lets through)."""
    return [] if panel is None else panel.moves()
