"""Quiz stations: any input of a station buzzes (the bell is the one players reach for)."""

from __future__ import annotations

from controller.press import Press
from games.base import Action


def map_press(press: Press, station_kind: str) -> Action | None:
    return Action("buzz", press.t_us, press.station, precision_us=press.precision_us)
