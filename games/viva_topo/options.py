"""Viva Topo!'s options, declared once: the spec, the menu and the engine
(through ``games.base.checked_options``) read this table."""

from __future__ import annotations

from games.base import Option

OPTIONS: dict[str, Option] = {
    # a lone legal move is made at once (no confirming press)
    "auto_move_single": Option(True, bool),
    # a mid-game position (scenarios, tests, disputes): mice, cat, cheese, turn, scores
    "start": Option(None, dict),
}
