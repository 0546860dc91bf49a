"""Schicki Micki cards and pawns drawn in code (our own art, no assets).

A hen is a white bird on a cream card; her six accessories carry the colours.
Every colour also has its own **pattern**, so players who cannot tell pink
from orange or red from green still can (the legend, also in docs/display.md):

==========  ==================  ==========  ==================
colour      pattern             colour      pattern
==========  ==================  ==========  ==================
red         plain (no marks)    pink        diagonal stripes /
blue        horizontal stripes  purple      grid (checks)
yellow      dots                orange      zigzag
green       vertical stripes
==========  ==================  ==========  ==================

Accessories are placed in a unit box of 100 x 130 (the card's aspect), so a
test can ask where the hat of a card drawn in some rectangle is
(``part_rect``). Faces are cached per (card, size): a frame only blits.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

import pygame

Color = tuple[int, int, int]
Point = tuple[float, float]

#: width : height of a card
ASPECT = 130 / 100

COLORS: dict[str, Color] = {
    "red": (221, 30, 38),
    "blue": (25, 95, 230),
    "yellow": (255, 214, 0),
    "green": (20, 160, 60),
    "pink": (255, 128, 200),
    "purple": (120, 40, 170),
    "orange": (255, 125, 0),
}

PATTERNS: dict[str, str] = {
    "red": "plain",
    "blue": "horizontal stripes",
    "yellow": "dots",
    "green": "vertical stripes",
    "pink": "diagonal stripes",
    "purple": "grid",
    "orange": "zigzag",
}

CARD_BG: Color = (250, 244, 226)
CARD_EDGE: Color = (120, 110, 90)
HEN: Color = (255, 255, 255)
OUTLINE: Color = (40, 36, 32)
LEG: Color = (150, 130, 100)
PAWN_BLUE: Color = COLORS["blue"]
PAWN_RED: Color = COLORS["red"]

#: bounding boxes of the accessories in the 100 x 130 unit box (tests look there)
PARTS: dict[str, tuple[float, float, float, float]] = {
    "umbrella": (57, 6, 39, 24),
    "hat": (21, 13, 34, 25),
    "beak": (6, 44, 22, 15),
    "scarf": (27, 58, 28, 24),
    "tail": (77, 58, 19, 40),
    "worm": (4, 114, 34, 14),
}
SECOND_WORM = (60, 114, 34, 14)

# -- shapes in unit coordinates ----------------------------------------------------------
# A shape is a list of (kind, data): "poly" points, "ellipse" (x, y, w, h),
# "halfellipse" (x, y, w, h: the top half), "wave" (x, y, w, h).


def _shapes(accessory: str, box: tuple[float, float, float, float] | None = None) -> list[tuple[str, Any]]:
    x, y, w, h = box or PARTS[accessory]
    if accessory == "umbrella":
        # a canopy with scalloped rim: the top half of an ellipse
        return [("halfellipse", (x, y, w, h * 2 - 2))]
    if accessory == "hat":
        # a top hat: brim and crown
        return [("poly", [(x + w * 0.18, y + h * 0.83), (x + w * 0.22, y), (x + w * 0.78, y), (x + w * 0.82, y + h * 0.83)]),
                ("ellipse", (x, y + h * 0.7, w, h * 0.3))]
    if accessory == "beak":
        return [("poly", [(x + w, y), (x + w, y + h), (x, y + h * 0.55)])]
    if accessory == "scarf":
        # a band round the neck and its loose end
        return [("ellipse", (x, y, w, h * 0.42)),
                ("poly", [(x + w * 0.55, y + h * 0.2), (x + w * 0.9, y + h * 0.2), (x + w * 0.8, y + h), (x + w * 0.5, y + h * 0.92)])]
    if accessory == "tail":
        # three feathers fanning out
        return [("poly", [(x, y + h * 0.5), (x + w * 0.7, y), (x + w, y + h * 0.1), (x + w * 0.45, y + h * 0.55)]),
                ("poly", [(x, y + h * 0.55), (x + w, y + h * 0.35), (x + w, y + h * 0.65), (x, y + h * 0.7)]),
                ("poly", [(x, y + h * 0.75), (x + w * 0.45, y + h * 0.6), (x + w, y + h * 0.9), (x + w * 0.7, y + h)])]
    if accessory == "worm":
        return [("wave", (x, y, w, h))]
    raise ValueError(accessory)


def _wave_points(x: float, y: float, w: float, h: float, steps: int = 40) -> tuple[list[Point], float]:
    """The worm: a fat sine wave (centre line, thickness)."""
    thick = h * 0.5
    amp = (h - thick) / 2
    pts = [(x + thick / 2 + (w - thick) * i / steps, y + h / 2 + amp * math.sin(i / steps * math.tau * 1.5)) for i in range(steps + 1)]
    return pts, thick


def _draw_shapes(surface: pygame.Surface, shapes: list[tuple[str, Any]], to_px: Callable[[Point], tuple[int, int]],
                 scale: float, color: Color, outline: int = 0) -> None:
    """Paint shapes filled (``outline`` 0) or as outlines ``outline`` px wide."""
    for kind, data in shapes:
        if kind == "poly":
            pygame.draw.polygon(surface, color, [to_px(p) for p in data], outline)
        elif kind in ("ellipse", "halfellipse"):
            x, y, w, h = data
            (left, t), (r, b) = to_px((x, y)), to_px((x + w, y + h))
            rect = pygame.Rect(left, t, max(1, r - left), max(1, b - t))
            if kind == "ellipse":
                pygame.draw.ellipse(surface, color, rect, outline)
            else:
                pts = [(rect.centerx + rect.width / 2 * math.cos(a), rect.centery - rect.height / 2 * math.sin(a))
                       for a in (math.pi * i / 32 for i in range(33))]
                if outline:
                    pygame.draw.lines(surface, color, True, pts, outline)
                else:
                    pygame.draw.polygon(surface, color, pts)
        elif kind == "wave":
            pts, thick = _wave_points(*data)
            px = [to_px(p) for p in pts]
            r = max(1, round(thick * scale / 2))
            if outline:
                for p in px:
                    pygame.draw.circle(surface, color, p, r + outline)
            else:
                for p in px:
                    pygame.draw.circle(surface, color, p, r)


def _pattern(size: tuple[int, int], colour: str, period: int) -> pygame.Surface | None:
    """The colour's pattern over a ``size`` area, in ink that contrasts with it."""
    name = PATTERNS[colour]
    if name == "plain":
        return None
    base = COLORS[colour]
    light = (0.299 * base[0] + 0.587 * base[1] + 0.114 * base[2]) > 140
    ink = (30, 24, 20, 255) if light else (255, 255, 255, 255)
    surf = pygame.Surface(size, pygame.SRCALPHA)
    drawn = _PATTERN_DRAWN.get(name)
    if drawn is not None:
        drawn(surf, ink, size, period, max(2, period // 3))
    return surf


#: how a pattern's drawer is called: (surface, ink, size, period, line width)
PatternDrawn = Callable[[pygame.Surface, tuple[int, int, int, int], tuple[int, int], int, int], None]


def _horizontal_stripes(surf: pygame.Surface, ink: tuple[int, int, int, int], size: tuple[int, int],
                        period: int, line: int) -> None:
    w, h = size
    for y in range(period // 2, h, period):
        pygame.draw.rect(surf, ink, (0, y, w, line))


def _vertical_stripes(surf: pygame.Surface, ink: tuple[int, int, int, int], size: tuple[int, int],
                      period: int, line: int) -> None:
    w, h = size
    for x in range(period // 2, w, period):
        pygame.draw.rect(surf, ink, (x, 0, line, h))


def _diagonal_stripes(surf: pygame.Surface, ink: tuple[int, int, int, int], size: tuple[int, int],
                      period: int, line: int) -> None:
    w, h = size
    for x in range(-h, w + h, period):
        pygame.draw.line(surf, ink, (x, h), (x + h, 0), line)


def _grid(surf: pygame.Surface, ink: tuple[int, int, int, int], size: tuple[int, int], period: int, line: int) -> None:
    w, h = size
    for y in range(period // 2, h, period):
        pygame.draw.rect(surf, ink, (0, y, w, max(1, line - 1)))
    for x in range(period // 2, w, period):
        pygame.draw.rect(surf, ink, (x, 0, max(1, line - 1), h))


def _dots(surf: pygame.Surface, ink: tuple[int, int, int, int], size: tuple[int, int], period: int, line: int) -> None:
    w, h = size
    r = max(1, period // 4)
    for row, y in enumerate(range(period // 2, h + period, period)):
        for x in range(period // 2 + (row % 2) * period // 2, w + period, period):
            pygame.draw.circle(surf, ink, (x, y), r)


def _zigzag(surf: pygame.Surface, ink: tuple[int, int, int, int], size: tuple[int, int], period: int, line: int) -> None:
    w, h = size
    half = period // 2
    for y in range(period // 2, h + period, period + half):
        pts = [(x, y + (half if (x // half) % 2 else 0)) for x in range(-half, w + period, half)]
        pygame.draw.lines(surf, ink, False, pts, line)


#: each pattern's drawer (``PATTERNS`` names one per colour; "plain" draws none)
_PATTERN_DRAWN: dict[str, PatternDrawn] = {
    "horizontal stripes": _horizontal_stripes, "vertical stripes": _vertical_stripes,
    "diagonal stripes": _diagonal_stripes, "grid": _grid, "dots": _dots, "zigzag": _zigzag,
}


def draw_accessory(card: pygame.Surface, accessory: str, colour: str, box: tuple[float, float, float, float] | None = None,
                   zoom: float = 1.0) -> None:
    """One accessory on a card surface: filled, patterned, outlined.
    ``box`` places it elsewhere in the unit box (close-ups: big)."""
    w, h = card.get_size()
    scale = w / 100

    def to_px(p: Point) -> tuple[int, int]:
        return round(p[0] * scale), round(p[1] * scale)

    shapes = _shapes(accessory, box)
    outline = max(1, round(scale * 0.9 * min(zoom, 2)))
    _draw_shapes(card, shapes, to_px, scale, OUTLINE, outline)  # a dark rim first (the worm's rim is a fatter worm)
    # fill and pattern on a layer the size of the accessory only (a card-sized
    # layer per accessory made a new face cost 25 ms at 1080p)
    bx, by, bw, bh = box or PARTS[accessory]
    area = pygame.Rect(to_px((bx, by)), (round(bw * scale) + 2, round(bh * scale) + 2)).inflate(4, 4).clip(card.get_rect())

    def to_local(p: Point) -> tuple[int, int]:
        x, y = to_px(p)
        return x - area.left, y - area.top

    layer = pygame.Surface(area.size, pygame.SRCALPHA)
    _draw_shapes(layer, shapes, to_local, scale, COLORS[colour])
    period = max(5, round(scale * 4.2 * zoom))
    pattern = _pattern(area.size, colour, period)
    if pattern is not None:
        mask = layer.copy()
        mask.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)  # white, with the shape's alpha
        pattern.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)  # the pattern only inside the shape
        layer.blit(pattern, (0, 0))
    card.blit(layer, area)
    if accessory != "worm":
        _draw_shapes(card, shapes, to_px, scale, OUTLINE, outline)


def _hen_body(card: pygame.Surface) -> None:
    w, _h = card.get_size()
    s = w / 100

    def r(x: float, y: float, ww: float, hh: float) -> pygame.Rect:
        return pygame.Rect(round(x * s), round(y * s), round(ww * s), round(hh * s))

    line = max(1, round(s * 0.9))
    # the umbrella's handle, held against her body
    pygame.draw.line(card, OUTLINE, (round(76 * s), round(24 * s)), (round(76 * s), round(70 * s)), max(2, round(s * 1.6)))
    for leg in (50, 64):
        pygame.draw.line(card, LEG, (round(leg * s), round(100 * s)), (round(leg * s), round(114 * s)), max(2, round(s * 2)))
        pygame.draw.line(card, LEG, (round(leg * s), round(114 * s)), (round((leg - 5) * s), round(117 * s)), max(2, round(s * 2)))
    for rect in (r(28, 60, 58, 44), r(25, 34, 28, 30)):  # body, head
        pygame.draw.ellipse(card, HEN, rect)
        pygame.draw.ellipse(card, OUTLINE, rect, line)
    pygame.draw.circle(card, OUTLINE, (round(33 * s), round(45 * s)), max(2, round(s * 2.2)))  # eye
    pygame.draw.arc(card, OUTLINE, r(42, 66, 32, 22), math.pi * 1.05, math.pi * 1.95, max(1, line))  # a wing


def card_key(card: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(sorted((str(k), str(v)) for k, v in card.items()))


class CardArt:
    """Card faces by (card, width): drawn once, blitted every frame."""

    def __init__(self, max_faces: int = 256) -> None:
        self._faces: OrderedDict[tuple[Any, ...], pygame.Surface] = OrderedDict()
        self.max_faces = max_faces

    def face(self, card: Mapping[str, Any], width: int) -> pygame.Surface:
        key = (card_key(card), width)
        surf = self._faces.get(key)
        if surf is None:
            surf = self._faces[key] = draw_card(card, width)
            if len(self._faces) > self.max_faces:
                self._faces.popitem(last=False)
        else:
            self._faces.move_to_end(key)
        return surf


def draw_card(card: Mapping[str, Any], width: int) -> pygame.Surface:
    """A card face ``width`` px wide (height ``width * ASPECT``)."""
    width = max(20, width)
    h = round(width * ASPECT)
    surf = pygame.Surface((width, h), pygame.SRCALPHA)
    radius = max(3, width // 14)
    pygame.draw.rect(surf, CARD_BG, surf.get_rect(), border_radius=radius)
    pygame.draw.rect(surf, CARD_EDGE, surf.get_rect(), max(1, width // 70), border_radius=radius)
    if "closeup" in card:
        accessory = str(card["closeup"])
        x, y, w, hh = PARTS[accessory]
        # the accessory enlarged to fill the card, centred, keeping its shape
        k = min(84 / w, 110 / hh)
        box = (50 - w * k / 2, 65 - hh * k / 2, w * k, hh * k)
        draw_accessory(surf, accessory, str(card["color"]), box, zoom=1.6)
        return surf
    _hen_body(surf)
    for accessory in ("umbrella", "tail", "scarf", "hat", "beak"):
        draw_accessory(surf, accessory, str(card[accessory]))
    draw_accessory(surf, "worm", str(card["worm"]))
    if int(card.get("worms", 1)) == 2:
        draw_accessory(surf, "worm", str(card["worm"]), SECOND_WORM)
    return surf


def part_rect(card_rect: pygame.Rect, accessory: str, second: bool = False) -> pygame.Rect:
    """Where ``accessory`` lies on a hen drawn in ``card_rect`` (for tests)."""
    x, y, w, h = SECOND_WORM if second else PARTS[accessory]
    s = card_rect.width / 100
    return pygame.Rect(card_rect.left + round(x * s), card_rect.top + round(y * s), round(w * s), round(h * s))


def draw_pawn(surface: pygame.Surface, rect: pygame.Rect, fill: Color, ring: Color) -> None:
    """A pawn (head on a cone) standing in ``rect``: ``fill`` is who has it, the
    base ``ring`` says which pawn it is (blue or red)."""
    w, h = rect.size
    head_r = min(w, h) * 0.2
    cx = rect.centerx
    head_c = (cx, rect.top + head_r + 1)
    body = [(cx - w * 0.18, rect.top + head_r * 1.6), (cx + w * 0.18, rect.top + head_r * 1.6),
            (cx + w * 0.38, rect.bottom - h * 0.16), (cx - w * 0.38, rect.bottom - h * 0.16)]
    base = pygame.Rect(rect.left + w * 0.06, rect.bottom - h * 0.2, w * 0.88, h * 0.2)
    line = max(2, w // 25)
    pygame.draw.ellipse(surface, ring, base)
    pygame.draw.ellipse(surface, OUTLINE, base, line)
    pygame.draw.polygon(surface, fill, body)
    pygame.draw.polygon(surface, OUTLINE, body, line)
    pygame.draw.circle(surface, fill, head_c, head_r)
    pygame.draw.circle(surface, OUTLINE, head_c, head_r, line)


def draw_back(width: int) -> pygame.Surface:
    """The back of a card (the deck)."""
    h = round(width * ASPECT)
    surf = pygame.Surface((width, h), pygame.SRCALPHA)
    radius = max(3, width // 14)
    pygame.draw.rect(surf, (90, 40, 30), surf.get_rect(), border_radius=radius)
    inner = surf.get_rect().inflate(-width // 8, -width // 8)
    pygame.draw.rect(surf, (200, 150, 60), inner, max(2, width // 30), border_radius=radius)
    pygame.draw.ellipse(surf, HEN, inner.inflate(-inner.width // 3, -inner.height // 2))
    return surf
