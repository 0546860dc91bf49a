"""Whether a screen's texts are drawn whole, for the screen tests: measured
with the toolkit's own record of what draw_text drew (``theme.DRAWN``: the
text asked for, the text drawn, its ink, its rect, the screen) and the line
heights the font rendered (``TEXT.sizes_used``), not pixel goldens.

A text is unfit when it is cut with an ellipsis, rendered smaller than the
layout's minimum, spills out of its rect or the screen, or its ink touches
another text's. The station strip is left out when asked (its cells cut a long
name by design: a tile is narrow; the names are whole on the game's own picture).
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from games.toolkit import theme

Drawn = list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]]

#: the longest station names a profile allows (24 characters), wide letters and accents
LONG_NAMES = ["Maximilián Wolfgang Żółw", "Bartłomiej Szczęsny-Woźń", "Přemysl Ondřej Šťastný W", "Władysław Grzegorz Mąkaw",
              "Magdaléna Weissová-Hůlka", "Małgorzata Wiśniewska-Łę", "Jaroslav Wenceslas Dvořá", "Wojciech Mazurkiewicz-MW"]
#: the longest team names (24 characters) in Czech and Polish
LONG_TEAMS = ["Sovy z Horní Dolní Lhoty", "Wesołe Żmije z Wąchocka!", "Chytré hlavy ze Žďáru nS", "Mądre Głowy z Łodzi 2024"]


def measured(draw: Callable[[pygame.Surface], None], size: tuple[int, int], stations: int = 0) -> tuple[Drawn, int]:
    """(every text ``draw`` puts on a ``size`` screen with ink, outside the strip of
    ``stations`` cells; the smallest line height rendered anywhere on it)."""
    strip = theme.Layout(*size, stations).strip
    theme.DRAWN = []
    theme.TEXT.sizes_used.clear()
    try:
        draw(pygame.Surface(size))
        drawn = [d for d in theme.DRAWN if d[2].width > 0 and not (stations and strip.contains(d[3]))]
    finally:
        theme.DRAWN = None
    return drawn, min(theme.TEXT.sizes_used, default=0)


def overlaps(texts: Drawn) -> dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[str, str]]:
    """Texts whose ink touches, keyed by the rects they were given (the layout's,
    the same in every language) and naming what was drawn."""
    return {(tuple(a[3]), tuple(b[3])): (a[1], b[1])
            for k, a in enumerate(texts) for b in texts[k + 1:] if a[2].colliderect(b[2])}


def spills(asked: str, ink: pygame.Rect, box: pygame.Rect, screen: pygame.Rect) -> str | None:
    """Why a text's ink is outside its rect or the screen (None when inside).
    Across: not a pixel; up and down: accents and ogonki may reach a tenth of a
    line past a rect drawn as tight as the line itself (invisible on a panel with a margin)."""
    if not (screen.contains(box) or not box.width):
        return f"{asked!r} was given a rect off the screen: {box}"
    slack = max(2, ink.height // 10)
    if not (box.left <= ink.left and ink.right <= box.right and box.top - slack <= ink.top and ink.bottom <= box.bottom + slack):
        return f"{asked!r} spills out of its rect: ink {ink}, rect {box}"
    return None


def unfit(draw: Callable[[pygame.Surface], None], size: tuple[int, int], stations: int = 0) -> list[str]:
    """What is wrong with the texts ``draw`` puts on a ``size`` screen (empty when
    every text is whole, at least the layout's minimum size, inside its rect and
    clear of the others), the strip of ``stations`` cells left out."""
    return unfit_texts(*measured(draw, size, stations), size)


def unfit_texts(drawn: Drawn, smallest: int, size: tuple[int, int]) -> list[str]:
    """What is wrong with texts as ``measured`` gave them (see ``unfit``)."""
    wrong = [f"{asked!r} cut to {shown!r}" for asked, shown, *_r in drawn if shown != asked]
    least = theme.TEXT.font(theme.Layout(*size).min_text).get_height()
    if smallest < least:
        wrong.append(f"a text rendered {smallest} px tall, below the minimum {least} px")
    wrong += [why for asked, _s, ink, box, screen in drawn if (why := spills(asked, ink, box, screen))]
    wrong += [f"{a!r} over {b!r}" for a, b in overlaps(drawn).values()]
    return wrong
