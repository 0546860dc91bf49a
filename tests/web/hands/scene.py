"""Hands' one-line scene (apart from its rules: the deciding process never imports pygame)."""

from __future__ import annotations

from typing import Any

import pygame

from games.toolkit import theme
from games.toolkit.scene import Scene, View, draw_text


class HandsScene(Scene):
    shown = ""

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: theme.Layout, view: View,
                  strip: Any, now_us: int) -> None:
        played = " ".join(str(c) for c in view.get("played", ())[-8:]) or "-"  # the last few: a line fits
        self.shown = f"played: {played}"  # what the HDMI screen says now (the tests read it)
        draw_text(surface, self.shown, lay.size(2), theme.FG, area)
