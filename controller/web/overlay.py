"""What the HDMI screen says about the companion pages: the address, the
host PIN, and a QR code for each seat no phone holds yet.

Drawn by the loop thread over every frame (a Scene overlay). QR codes are
rendered once per URL and kept, so a frame costs a few blits.
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
                 joined: Callable[[], Sequence[bool]], names: Sequence[str]) -> None:
        self.base_url = base_url
        self.pin = pin
        self.seat_urls = seat_urls  # None: a game played on the buttons (host page and scoreboard only)
        self.joined = joined
        self.names = list(names)
        self._codes: dict[tuple[str, int], pygame.Surface] = {}

    def code(self, url: str, size: int) -> pygame.Surface:
        key = (url, size)
        if key not in self._codes:
            if len(self._codes) >= MAX_CACHED:
                self._codes.clear()
            self._codes[key] = qr_surface(url, size)
        return self._codes[key]

    def __call__(self, surface: pygame.Surface) -> None:
        lay = theme.layout_for(surface)
        body = lay.body
        line = lay.min_text
        width = max(body.width // 4, line * 12)
        lines = [_("Phones: {url}").format(url=self.base_url()), _("Host PIN {pin}").format(pin=self.pin)]
        waiting: list[tuple[int, str]] = []
        if self.seat_urls is not None:
            joined = self.joined()
            waiting = [(i, url) for i, url in enumerate(self.seat_urls()) if not (i < len(joined) and joined[i])]
        code_size = min(width // 2 - lay.pad, body.height // 3)
        per_row = max(1, width // (code_size + lay.pad))
        code_rows = -(-len(waiting) // per_row)
        height = lay.pad * 2 + len(lines) * int(line * 1.3) + code_rows * (code_size + int(line * 1.3) + lay.pad)
        box = pygame.Rect(body.right - width - lay.pad, body.top + lay.pad, width, min(height, body.height - lay.pad))
        theme.panel(surface, box, theme.PANEL)
        y = box.top + lay.pad
        for text in lines:
            theme.draw_text(surface, text, line, theme.FG, pygame.Rect(box.left + lay.pad, y, box.width - 2 * lay.pad,
                                                                       int(line * 1.3)), align="left", min_size=line // 2)
            y += int(line * 1.3)
        for n, (seat, url) in enumerate(waiting):
            row, col = divmod(n, per_row)
            top = y + row * (code_size + int(line * 1.3) + lay.pad)
            if top + code_size > box.bottom:
                break
            left = box.left + lay.pad + col * (code_size + lay.pad)
            code = self.code(url, code_size)
            surface.blit(code, (left, top))
            name = self.names[seat] if seat < len(self.names) else str(seat + 1)
            theme.draw_text(surface, name, line, theme.FG, pygame.Rect(left, top + code.get_height(), code_size,
                                                                      int(line * 1.3)), min_size=line // 2)
