"""What the HDMI screen says about the companion pages: the address, the
host PIN, a QR code for each seat no phone holds yet, and "paused" while
the host has paused the game from the host page.

Drawn by the loop thread over every frame (a Scene overlay). QR codes are
rendered once per URL and the panel once per change, so a frame costs one blit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame
import segno

from games.i18n import _
from games.toolkit import theme

#: QR codes kept (seats x re-issues in one game stay far below this)
MAX_CACHED = 64


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of dark (True) modules, quiet zone excluded."""
    code = segno.make(text, error="m", micro=False)
    return [[bool(m) for m in row] for row in code.matrix]


def qr_surface(text: str, size: int) -> pygame.Surface:
    """A QR code ``size`` pixels square (whole pixels per module), white quiet zone included."""
    rows = qr_matrix(text)
    modules = len(rows) + 8  # 4 modules of quiet zone each side
    scale = max(1, size // modules)
    surface = pygame.Surface((modules * scale, modules * scale))
    surface.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), pygame.Rect((x + 4) * scale, (y + 4) * scale, scale, scale))
    return surface


class CompanionOverlay:
    """Called with the frame's surface after the scene drew it."""

    def __init__(self, base_url: Callable[[], str], pin: str, seat_urls: Callable[[], Sequence[str]] | None,
                 joined: Callable[[], Sequence[bool]], names: Callable[[], Sequence[str]] | Sequence[str],
                 paused: Callable[[], bool] | None = None) -> None:
        self.base_url = base_url
        self.pin = pin
        self.seat_urls = seat_urls  # None: a game played on the buttons (host page and scoreboard only)
        self.joined = joined
        #: the players' names as they are now (the host may rename them)
        fixed = None if callable(names) else list(names)
        self.names: Callable[[], Sequence[str]] = names if callable(names) else (lambda: fixed or [])
        self.paused = paused or (lambda: False)
        self._codes: dict[tuple[str, int], pygame.Surface] = {}
        self._key: object = None
        self._panel: pygame.Surface | None = None
        self._at = (0, 0)
        self._banner: tuple[tuple[int, int], pygame.Surface, tuple[int, int]] | None = None

    def code(self, url: str, size: int) -> pygame.Surface:
        key = (url, size)
        if key not in self._codes:
            if len(self._codes) >= MAX_CACHED:
                self._codes.clear()
            self._codes[key] = qr_surface(url, size)
        return self._codes[key]

    def __call__(self, surface: pygame.Surface) -> None:
        """Blit the panel; it is drawn again only when what it says changed
        (a seat joined, a new code, another window size): a frame costs one blit."""
        waiting: tuple[tuple[int, str], ...] = ()
        if self.seat_urls is not None:
            joined = self.joined()
            waiting = tuple((i, url) for i, url in enumerate(self.seat_urls()) if not (i < len(joined) and joined[i]))
        names = tuple(self.names())
        key = (surface.get_size(), self.base_url(), waiting, names)
        if key != self._key or self._panel is None:
            self._key = key
            self._panel, self._at = self.panel(surface, waiting, names)
        surface.blit(self._panel, self._at)
        if self.paused():
            self.banner(surface)

    def banner(self, surface: pygame.Surface) -> None:
        """"Paused" across the middle of the picture, for the whole room."""
        size = surface.get_size()
        if self._banner is None or self._banner[0] != size:
            lay = theme.layout_for(surface)
            box = pygame.Rect(0, 0, round(lay.width * 0.6), lay.size(4))
            box.center = lay.body.center
            out = pygame.Surface(box.size, pygame.SRCALPHA)
            fill = theme.STATUS_COLORS["locked"]
            theme.panel(out, out.get_rect(), fill)
            ink = theme.text_on(fill)
            top = pygame.Rect(0, 0, box.width, box.height * 6 // 10)
            theme.draw_text(out, _("PAUSED"), lay.size(2.2), ink, top.inflate(-4 * lay.pad, 0), min_size=lay.min_text)
            theme.draw_text(out, _("the host paused the game: the bells do nothing until it goes on"), lay.min_text,
                            ink, pygame.Rect(0, top.bottom, box.width, box.height - top.height).inflate(-4 * lay.pad, 0),
                            min_size=lay.min_text // 2)
            self._banner = (size, out, box.topleft)
        surface.blit(self._banner[1], self._banner[2])

    def panel(self, surface: pygame.Surface, waiting: tuple[tuple[int, str], ...],
              names: Sequence[str] = ()) -> tuple[pygame.Surface, tuple[int, int]]:
        """The panel for ``surface``'s size, and where it goes (top right of the body)."""
        lay = theme.layout_for(surface)
        body = lay.body
        line = lay.min_text
        row_h = int(line * 1.3)
        width = max(body.width // 4, line * 12)
        lines = [_("Phones: {url}").format(url=self.base_url()), _("Host PIN {pin}").format(pin=self.pin)]
        code_size = min(width // 2 - lay.pad, body.height // 3)
        per_row = max(1, width // (code_size + lay.pad))
        code_rows = -(-len(waiting) // per_row)
        height = lay.pad * 2 + len(lines) * row_h + code_rows * (code_size + row_h + lay.pad)
        box = pygame.Rect(0, 0, width, min(height, body.height - lay.pad))
        out = pygame.Surface(box.size, pygame.SRCALPHA)  # rounded corners over whatever the scene drew
        theme.panel(out, box, theme.PANEL)
        y = lay.pad
        for text in lines:
            theme.draw_text(out, text, line, theme.FG, pygame.Rect(lay.pad, y, width - 2 * lay.pad, row_h),
                            align="left", min_size=line // 2)
            y += row_h
        for n, (seat, url) in enumerate(waiting):
            row, col = divmod(n, per_row)
            top = y + row * (code_size + row_h + lay.pad)
            if top + code_size > box.bottom:
                break
            left = lay.pad + col * (code_size + lay.pad)
            code = self.code(url, code_size)
            out.blit(code, (left, top))
            name = names[seat] if seat < len(names) else str(seat + 1)
            theme.draw_text(out, name, line, theme.FG, pygame.Rect(left, top + code.get_height(), code_size, row_h),
                            min_size=line // 2)
        if pygame.display.get_surface() is not None:
            out = out.convert_alpha()  # the screen's pixel format: blitting needs no conversion each frame
        return out, (body.right - width - lay.pad, body.top + lay.pad)
