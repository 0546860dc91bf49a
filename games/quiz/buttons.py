"""Quiz stations: any input of a station buzzes (the bell is the one players reach for)."""

from __future__ import annotations

from games.base import ANY, ButtonMap

BUTTONS = ButtonMap({(ANY, ANY): ("buzz", {})})
