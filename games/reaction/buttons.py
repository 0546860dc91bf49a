"""Reaction duel stations: any input of a station is that player's press."""

from __future__ import annotations

from controller.press import Press
from games.base import Action


def map_press(press: Press, station_kind: str) -> Action | None:
    return Action("press", press.t_us, press.station, precision_us=press.precision_us)
