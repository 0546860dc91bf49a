"""Hot Potato on the screen: the round and who holds the potato."""

from __future__ import annotations

import pygame

from games.i18n import _
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text


class HotPotatoScene(Scene):
    def header(self, view: View) -> tuple[str, str]:
        return self.title, _("round {n} of {total}").format(n=view.get("round"), total=view.get("rounds"))

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        holder = view.get("holder")
        text = _("pass it on!") if view.get("phase") == "passing" and holder is not None else _("wait for the host")
        draw_text(surface, text, lay.size(4), theme.FG, area)
