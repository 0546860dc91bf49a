"""Colours, fonts, text and layout shared by every scene.

Everything is sized from the surface, never in fixed pixels, so one scene
reads the same on a 1280x720 TV and a 3840x2160 one. The smallest text any
scene may draw is ``Layout.min_text`` (1/24 of the screen height): capitals
of about 2 cm on a 55" TV, legible from across a bar.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import pygame

# the one rule for the names the screen can draw (the typeface's own character map, no pygame needed)
from games import glyphs
from games.arbitration import fmt_ms as fmt_ms  # the scenes' reaction times and countdowns
from games.glyphs import name_refusal as name_refusal
from games.glyphs import undrawable as undrawable
from games.glyphs import undrawable_line as undrawable_line
from games.toolkit.colors import DEFAULT_COLORS

Color = tuple[int, int, int]

#: the smallest font size, as a fraction of the screen height (see docs/display.md)
MIN_TEXT_FRACTION = 1 / 24

BG: Color = (14, 17, 26)
PANEL: Color = (30, 35, 48)
FG: Color = (242, 244, 248)
MUTED: Color = (150, 158, 175)
DARK_TEXT: Color = (6, 6, 8)  # near black: it must read on the red station colour too

#: fills of the station strip's cells, one per status (engines may add statuses:
#: unknown ones are drawn like idle, with their name as the label)
STATUS_COLORS: dict[str, Color] = {
    "idle": (40, 46, 60),
    "first": (255, 179, 0),
    "won": (255, 179, 0),
    "turn": (255, 179, 0),
    "queued": (92, 107, 192),
    "locked": (176, 24, 32),
    "out": (58, 58, 64),
    "stuck": (255, 109, 0),
    "disconnected": (10, 10, 12),
}
PRESSED: Color = (255, 255, 255)

GOOD: Color = (0, 200, 83)
BAD: Color = (229, 57, 53)

_EXTRA_COLORS = ["#6d4c41", "#c0ca33", "#3949ab", "#f4511e", "#00897b", "#7cb342", "#5e35b1", "#ec407a"]


def hex_color(text: str) -> Color:
    """'#e53935' -> (229, 57, 53)."""
    s = text.lstrip("#")
    return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))


#: team / station colours: the wiring profile's eight defaults, then eight more for 16 stations
PALETTE: list[Color] = [hex_color(c) for c in [*DEFAULT_COLORS, *_EXTRA_COLORS]]


def station_color(view: Mapping[str, Any], station: int, colors: Sequence[Color] | None = None) -> Color:
    """A station's colour: its team's colour when the view has teams (the game's
    own ``team_colors``, one RGB per team, when it names them: then the strip, the
    tables and the end screen show a team in the colour its players are told),
    else its own (the wiring profile's ``color`` when given)."""
    teams = view.get("teams")
    if teams and station < len(teams):
        team = int(teams[station])
        team_count = int(view.get("team_count", len(teams)))
        if team_count < len(teams):  # real teams: colour by team
            named = view.get("team_colors") or ()
            if 0 <= team < len(named):
                red, green, blue = (int(c) for c in named[team][:3])
                return (red, green, blue)
            return PALETTE[team % len(PALETTE)]
    if colors and station < len(colors):
        return colors[station]
    return PALETTE[station % len(PALETTE)]


def luminance(color: Color) -> float:
    """The relative luminance of an sRGB colour (WCAG 2): 0 black, 1 white."""
    r, g, b = color[:3]
    return _luminance(int(r), int(g), int(b))


@lru_cache(maxsize=4096)
def _luminance(r: int, g: int, b: int) -> float:
    """Kept per colour: scenes ask for the same few colours' contrast hundreds of times a frame."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours, 1 (none) to 21 (black on white);
    text needs 4.5 to be read easily, and more from across a room."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


#: the least contrast any text on the screen has against its background (a test measures it)
MIN_CONTRAST = 4.5


def text_on(fill: Color) -> Color:
    """Black or white, whichever has more contrast on ``fill`` (measured, not
    guessed from brightness: white on the mice's green read at 3.3:1)."""
    return DARK_TEXT if contrast(DARK_TEXT, fill) >= contrast(FG, fill) else FG


def legible_fill(fill: Color) -> Color:
    """``fill`` lightened just enough that black or white text reads on it at
    ``MIN_CONTRAST`` (a mid green or brown reads with neither)."""
    return _legible_fill((int(fill[0]), int(fill[1]), int(fill[2])))


@lru_cache(maxsize=1024)
def _legible_fill(fill: Color) -> Color:
    for step in range(0, 11):
        mixed = blend(fill, FG, step / 20)
        if contrast(text_on(mixed), mixed) >= MIN_CONTRAST:
            return mixed
    return FG


def readable_on(color: Color, fill: Color) -> Color:
    """``color`` lightened or darkened just enough to read on ``fill``
    (a player's colour as text on a panel)."""
    return _readable_on((int(color[0]), int(color[1]), int(color[2])), (int(fill[0]), int(fill[1]), int(fill[2])))


@lru_cache(maxsize=1024)
def _readable_on(color: Color, fill: Color) -> Color:
    if contrast(color, fill) >= MIN_CONTRAST:
        return color
    toward = text_on(fill)
    for step in range(1, 11):
        mixed = blend(color, toward, step / 10)
        if contrast(mixed, fill) >= MIN_CONTRAST:
            return mixed
    return toward


def blend(a: Color, b: Color, t: float) -> Color:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


# -- fonts and text ------------------------------------------------------------------


#: the box's one typeface, shipped beside its licence (Bitstream Vera / DejaVu:
#: free to copy and redistribute): bold, so it carries across a room, and it has
#: every Czech and Polish letter (pygame's built-in font has not)
FONT_FILE = glyphs.FONT_FILE


class Text:
    """Font and rendered-text caches.

    A size is the height of the rendered line in pixels, measured, not the
    point size asked of the font: pygame's built-in font drew a 30 px line for
    a 45 px request, so "1/24 of the screen" was a promise on paper only.

    Rendering a string is the slowest thing a frame does; the same labels come
    back every frame, so rendered surfaces are kept (LRU) and a frame mostly blits.
    The cache is bounded by count and by bytes: a long game's ever-new scores
    and counts would otherwise fill 1,024 big 1080p lines (~100 MB).
    """

    def __init__(self, max_rendered: int = 1024, font_file: Path = FONT_FILE,
                 max_bytes: int = 24 * 1024 * 1024) -> None:
        self._fonts: dict[int, pygame.font.Font] = {}
        self._rendered: OrderedDict[tuple[str, int, Color], pygame.Surface] = OrderedDict()
        self.max_rendered = max_rendered
        self.max_bytes = max_bytes
        self._bytes = 0
        self.font_file = font_file
        #: the measured heights of the rendered lines (tests hold them to the minimum)
        self.sizes_used: set[int] = set()

    def font(self, size: int) -> pygame.font.Font:
        """The font whose rendered line is ``size`` px tall (or the next size up)."""
        f = self._fonts.get(size)
        if f is None:
            if not pygame.font.get_init():
                pygame.font.init()
            points = max(1, int(size / 1.17))
            f = pygame.font.Font(str(self.font_file), points)
            while f.get_height() < size:
                points += 1
                f = pygame.font.Font(str(self.font_file), points)
            self._fonts[size] = f
        return f

    def render(self, text: str, size: int, color: Color) -> pygame.Surface:
        key = (text, size, color)
        surf = self._rendered.get(key)
        if surf is None:
            surf = self.font(size).render(text, True, color)
            self._rendered[key] = surf
            self._bytes += _bytes_of(surf)
            while len(self._rendered) > 1 and (len(self._rendered) > self.max_rendered or self._bytes > self.max_bytes):
                self._bytes -= _bytes_of(self._rendered.popitem(last=False)[1])
        else:
            self._rendered.move_to_end(key)
        self.sizes_used.add(surf.get_height())
        return surf

    def width(self, text: str, size: int) -> int:
        return self.font(size).size(text)[0]


def _bytes_of(surface: pygame.Surface) -> int:
    return surface.get_pitch() * surface.get_height()


TEXT = Text()
#: the font ``undrawable`` asks (any thread), apart from the frame's


@dataclass(frozen=True)
class Layout:
    """Regions and sizes computed from the surface size: header, body, strip
    and, when asked for, a footer of text lines below the strip (the keyboard
    stations' keys: in its own space, never over the game's picture)."""

    width: int
    height: int
    stations: int = 0
    footer_lines: int = 0

    @property
    def min_text(self) -> int:
        """The smallest font size (px) any scene draws: 1/24 of the height."""
        return max(12, round(self.height * MIN_TEXT_FRACTION))

    def size(self, scale: float) -> int:
        """A font size ``scale`` times the minimum (never below the minimum)."""
        return max(self.min_text, round(self.min_text * scale))

    @property
    def pad(self) -> int:
        return max(4, round(self.height / 72))

    @property
    def strip_rows(self) -> int:
        return 1 if self.stations <= 8 else 2

    @property
    def header(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, round(self.min_text * 1.7))

    @property
    def footer(self) -> pygame.Rect:
        h = round(self.footer_lines * self.min_text * 1.2) + (self.pad if self.footer_lines else 0)
        return pygame.Rect(0, self.height - h, self.width, h)

    @property
    def strip(self) -> pygame.Rect:
        bottom = self.footer.top
        if self.stations == 0:
            return pygame.Rect(0, bottom, self.width, 0)
        h = round(self.height * (0.19 if self.strip_rows == 1 else 0.30))
        return pygame.Rect(0, bottom - h, self.width, h)

    @property
    def body(self) -> pygame.Rect:
        top = self.header.bottom + self.pad
        return pygame.Rect(self.pad, top, self.width - 2 * self.pad, self.strip.top - self.pad - top)


def layout_for(surface: pygame.Surface, stations: int = 0, footer_lines: int = 0) -> Layout:
    w, h = surface.get_size()
    return Layout(w, h, stations, footer_lines)


#: a list while a test measures the screens (tests/i18n/test_layout.py): every
#: text draw_text drew, as (text asked for, text drawn, its ink's rect, the rect
#: it was given, the surface's rect)
DRAWN: list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]] | None = None


#: a list while a test measures contrast (tests/display/test_contrast.py): every
#: text draw_text drew, as (text, its colour, the colour most of its ink covers)
INKED: list[tuple[str, Color, Color]] | None = None


def background(surface: pygame.Surface, rect: pygame.Rect, grid: int = 7) -> Color:
    """The colour most of ``rect`` shows on ``surface`` (read before a text is
    drawn over it: what the text must stand out from)."""
    rect = rect.clip(surface.get_rect())
    if not rect.width or not rect.height:
        return BG
    counts: dict[Color, int] = {}
    for gx in range(grid):
        for gy in range(grid):
            c = surface.get_at((rect.left + (2 * gx + 1) * rect.width // (2 * grid),
                                rect.top + (2 * gy + 1) * rect.height // (2 * grid)))
            key = (c.r, c.g, c.b)
            counts[key] = counts.get(key, 0) + 1
    return max(counts, key=lambda k: counts[k])


def draw_text(
    surface: pygame.Surface,
    text: str,
    size: int,
    color: Color,
    rect: pygame.Rect,
    align: str = "center",
    valign: str = "center",
    min_size: int | None = None,
) -> pygame.Rect:
    """Draw ``text`` inside ``rect``, shrinking it to fit the width but never
    below ``min_size`` (then it is cut with an ellipsis). Returns where it went."""
    if min_size is None:  # shrink to fit down to the screen's minimum, not cut a headline short
        min_size = min(size, max(12, round(surface.get_height() * MIN_TEXT_FRACTION)))
    asked = text
    size = fit_size(text, size, rect.width, min_size)
    if TEXT.width(text, size) > rect.width:
        halves = two_lines(text, size, rect)
        if halves is not None:  # words broken onto two lines rather than cut ("frying p…" reads as nothing)
            top = rect.centery - line_height(size)
            out = pygame.Rect(rect.left, top, rect.width, 0)
            for k, half in enumerate(halves):
                out.union_ip(draw_text(surface, half, size, color, pygame.Rect(rect.left, top + k * line_height(size),
                                                                               rect.width, line_height(size)),
                                       align=align, min_size=size))
            return out
        text = ellipsize(text, size, rect.width)
    surf = TEXT.render(text, size, color)
    r = surf.get_rect()
    if align == "left":
        r.left = rect.left
    elif align == "right":
        r.right = rect.right
    else:
        r.centerx = rect.centerx
    if valign == "top":
        r.top = rect.top
    elif valign == "bottom":
        r.bottom = rect.bottom
    else:
        r.centery = rect.centery
    if INKED is not None:
        INKED.append((asked, color, background(surface, surf.get_bounding_rect().move(r.topleft))))
    surface.blit(surf, r)
    if DRAWN is not None:
        DRAWN.append((asked, text, surf.get_bounding_rect().move(r.topleft), rect.copy(), surface.get_rect()))
    return r


def two_lines(text: str, size: int, rect: pygame.Rect) -> tuple[str, str] | None:
    """``text`` broken at one space into two lines that each fit ``rect``'s
    width at ``size``, when ``rect`` is tall enough for two (None otherwise)."""
    if " " not in text.strip() or rect.height < 2 * line_height(size) * 9 // 10:
        return None
    words = text.split()
    for cut in sorted(range(1, len(words)), key=lambda k: abs(2 * k - len(words))):
        first, second = " ".join(words[:cut]), " ".join(words[cut:])
        if TEXT.width(first, size) <= rect.width and TEXT.width(second, size) <= rect.width:
            return first, second
    return None


def fit_size(text: str, size: int, max_width: int, min_size: int) -> int:
    """The largest size <= ``size`` (and >= ``min_size``) at which ``text`` fits."""
    if size <= min_size or max_width <= 0:
        return max(size, min_size)
    w = TEXT.width(text, size)
    # widths do not scale exactly with the size: shrink again until it fits (a text
    # one pixel too wide was cut with an ellipsis though a smaller size was allowed)
    while w > max_width and size > min_size:
        size = max(min_size, min(size - 1, int(size * max_width / w)))
        w = TEXT.width(text, size)
    return size


def ellipsize(text: str, size: int, max_width: int) -> str:
    while len(text) > 1 and TEXT.width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…" if text else text


def panel(surface: pygame.Surface, rect: pygame.Rect, color: Color, radius: int | None = None) -> None:
    """A filled rounded rectangle (the one shape every scene is built from)."""
    pygame.draw.rect(surface, color, rect, border_radius=radius if radius is not None else max(4, rect.height // 20))


def wrap_lines(text: str, size: int, width: int, max_lines: int | None = None) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` at
    ``size``; a word wider than the line is broken after its hyphens
    ("Wiśniewska-" over "Łę"), and what is still wider stands alone (cut when
    drawn). With ``max_lines`` the last line takes the rest of the text."""
    lines: list[str] = []
    for word in text.split():
        pieces = [word] if TEXT.width(word, size) <= width else _HYPHENATED.split(word)
        for k, piece in enumerate(pieces):
            glue = "" if k else " "  # a piece after a hyphen joins it without a space
            if lines and (len(lines) == max_lines or TEXT.width(lines[-1] + glue + piece, size) <= width):
                lines[-1] += glue + piece
            else:
                lines.append(piece)
    return lines


#: where a word may break when it is wider than its line: after a hyphen between letters
_HYPHENATED = re.compile(r"(?<=\w-)(?=\w)")


def draw_wrapped(surface: pygame.Surface, text: str, size: int, color: Color, rect: pygame.Rect, max_lines: int = 2,
                 align: str = "center") -> None:
    """Text that may not fit one line (a hint, a translation 40 % longer):
    broken at spaces into up to ``max_lines`` lines of ``size``, the last cut
    with an ellipsis if it still does not fit. Never smaller than ``size``."""
    lines = wrap_lines(text, size, rect.width, max_lines)  # the last line, with the rest, is cut with an ellipsis
    line_h = TEXT.font(size).get_height()
    top = rect.top + max(0, (rect.height - line_h * len(lines)) // 2)
    for k, line in enumerate(lines):
        draw_text(surface, line, size, color, pygame.Rect(rect.left, top + k * line_h, rect.width, line_h), align=align, min_size=size)


def fit_lines(text: str, size: int, width: int, min_size: int, max_lines: int = 2) -> tuple[int, list[str]]:
    """How ``text`` fits ``width``: shrunk on one line down to ``min_size``,
    else broken at spaces into up to ``max_lines`` lines of ``min_size`` (a
    name, a score: "Player 1" cut to "Play…" reads as nobody). The last line
    may still be too wide (it is cut with an ellipsis when drawn)."""
    fitted = fit_size(text, size, width, min_size)
    if TEXT.width(text, fitted) <= width or max_lines <= 1:
        return fitted, [text]
    return min_size, wrap_lines(text, min_size, width, max_lines)


def fits(text: str, size: int, width: int, min_size: int, max_lines: int = 2) -> bool:
    """Whether ``text`` is drawn whole in ``width`` (shrunk, then on up to ``max_lines`` lines)."""
    fitted, lines = fit_lines(text, size, width, min_size, max_lines)
    return all(TEXT.width(line, fitted) <= width for line in lines)


def fit_width(text: str, size: int, max_lines: int = 1) -> int:
    """The narrowest width in which ``text`` is drawn whole at ``size`` on up
    to ``max_lines`` lines, as ``fit_lines`` wraps it (a column sized to its names)."""
    low, high = 1, TEXT.width(text, size)
    while max_lines > 1 and low < high:
        middle = (low + high) // 2
        if fits(text, size, middle, size, max_lines):
            high = middle
        else:
            low = middle + 1
    return high


def line_height(size: int) -> int:
    return int(TEXT.font(size).get_height())


def draw_fitted(surface: pygame.Surface, text: str, size: int, color: Color, rect: pygame.Rect, min_size: int,
                max_lines: int = 2, align: str = "center") -> pygame.Rect:
    """``text`` shrunk to fit, then on two lines, before any ellipsis
    (``fit_lines``); as many lines as ``rect`` is tall for. Returns where it went."""
    fitted, lines = fit_lines(text, size, rect.width, min_size, max(1, min(max_lines, rect.height // line_height(min_size))))
    line_h = line_height(fitted)
    top = rect.top + (rect.height - line_h * len(lines)) // 2
    out = pygame.Rect(rect.left, top, rect.width, 0)
    for k, line in enumerate(lines):
        out.union_ip(draw_text(surface, line, fitted, color, pygame.Rect(rect.left, top + k * line_h, rect.width, line_h),
                               align=align, min_size=fitted))
    return out


def draw_confirm(surface: pygame.Surface, text: str) -> None:
    """The "are you sure" dialog in the middle of the body (the menu's quit,
    a game's end): one look for every question that ends something."""
    lay = layout_for(surface, 1)
    r = pygame.Rect(0, 0, round(lay.width * 0.6), lay.size(3))
    r.center = lay.body.center
    panel(surface, r, STATUS_COLORS["locked"])
    draw_fitted(surface, text, lay.size(1.2), text_on(STATUS_COLORS["locked"]), r.inflate(-4 * lay.pad, -lay.pad),
                lay.min_text)


