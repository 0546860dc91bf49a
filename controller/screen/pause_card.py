"""The pause card: what the big screen shows while the host has the game
paused (a presenter clicker's B or ., the host page's Pause). The whole
screen, so nothing of the question shows while the room takes a break."""

from __future__ import annotations

import pygame

from games.i18n import _
from games.toolkit import theme
from games.toolkit.theme import draw_text, layout_for


def draw_pause_card(surface: pygame.Surface) -> None:
    """"Paused" over the whole screen, and how to carry on."""
    surface.fill(theme.BG)
    lay = layout_for(surface)
    rect = surface.get_rect()
    big = pygame.Rect(rect.left + lay.pad, rect.top + rect.height // 4, rect.width - 2 * lay.pad, rect.height // 3)
    draw_text(surface, _("Paused"), lay.size(6), theme.FG, big)
    line = pygame.Rect(big.left, big.bottom + lay.pad, big.width, lay.size(2) * 2)
    draw_text(surface, _("The game waits. Press B again (or . on a clicker) to carry on"), lay.size(1.4), theme.MUTED,
              line, min_size=lay.min_text)
