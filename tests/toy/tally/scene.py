"""Tally on the screen: the target and who is ahead, drawn with the toolkit."""

from __future__ import annotations

import pygame

from games.i18n import _
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text


class TallyScene(Scene):
    def header(self, view: View) -> tuple[str, str]:
        return self.title, _("first to {n}").format(n=view.get("target"))

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        scores = list(view.get("scores", ()))
        text = " : ".join(str(s) for s in scores)
        draw_text(surface, text, lay.size(4), theme.FG, area)
