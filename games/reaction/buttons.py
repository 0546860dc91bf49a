"""Reaction duel stations: any input of a station is that player's press."""

from __future__ import annotations

from games.base import ANY, ButtonMap

BUTTONS = ButtonMap({(ANY, ANY): ("press", {})})
