"""The title card: what a room sees before the first round of a game.

The game's name huge over a band of the players' colours, every player by
name in their own colour (so each knows which button is theirs), and one line
saying what happens next. The station strip stays below it, so a press shows
at once: players try their buttons while the host gets ready.
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from games.toolkit import theme
from games.toolkit.theme import Color, Layout, draw_text, draw_wrapped, panel


def draw_title_card(surface: pygame.Surface, area: pygame.Rect, lay: Layout, title: str, names: Sequence[str],
                    colors: Sequence[Color], hint: str) -> None:
    """Title, the players in their colours, and what to do to begin."""
    panel(surface, area, theme.PANEL)
    band_h = max(6, area.height // 40)
    n = max(1, len(colors))
    for k, c in enumerate(colors):  # the players' colours as a ribbon under the title
        x0 = area.left + k * area.width // n
        x1 = area.left + (k + 1) * area.width // n
        pygame.draw.rect(surface, c, pygame.Rect(x0, area.top + area.height * 46 // 100, x1 - x0, band_h))
    draw_text(surface, title, lay.size(4.5), theme.FG,
              pygame.Rect(area.left + 2 * lay.pad, area.top, area.width - 4 * lay.pad, area.height * 46 // 100),
              min_size=lay.size(2))
    # the players, in rows of chips
    chips = pygame.Rect(area.left + 2 * lay.pad, area.top + area.height * 50 // 100,
                        area.width - 4 * lay.pad, area.height * 30 // 100)
    per_row = min(len(names), 4 if len(names) <= 8 else 8) or 1
    rows = -(-len(names) // per_row)
    chip_h = min(lay.size(1.5), (chips.height - (rows - 1) * lay.pad) // max(1, rows))
    chip_w = (chips.width - (per_row - 1) * lay.pad) // per_row
    for k, name in enumerate(names):
        row, col = divmod(k, per_row)
        in_row = min(per_row, len(names) - row * per_row)
        left = chips.left + (chips.width - in_row * chip_w - (in_row - 1) * lay.pad) // 2
        r = pygame.Rect(left + col * (chip_w + lay.pad), chips.top + row * (chip_h + lay.pad), chip_w, chip_h)
        fill = colors[k] if k < len(colors) else theme.PANEL
        panel(surface, r, fill, radius=chip_h // 2)
        draw_text(surface, name, lay.min_text, theme.text_on(fill), r.inflate(-2 * lay.pad, 0), min_size=lay.min_text)
    draw_wrapped(surface, hint, lay.min_text, theme.MUTED,
                 pygame.Rect(area.left + 2 * lay.pad, area.top + area.height * 76 // 100, area.width - 4 * lay.pad,
                             area.height * 22 // 100))
