"""Helpers for the card art the table games draw in code: where N counted
pictures go on a card, unit-square shapes placed in a rectangle, and a
bounded cache of drawn faces (a frame blits a card, it does not redraw it)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

import pygame


def picture_spots(rect: pygame.Rect, n: int) -> list[pygame.Rect]:
    """Where ``n`` pictures go inside ``rect``: the grid of rows x columns
    that gives each picture the largest square, rows centred (a short last
    row too), so 1-9 pictures are counted at a glance like a die's pips."""
    if n <= 0 or rect.width <= 0 or rect.height <= 0:
        return []
    side, rows, cols = max((min(rect.width // -(-n // r), rect.height // r), r, -(-n // r)) for r in range(1, n + 1))
    top = rect.top + (rect.height - rows * side) // 2
    spots = []
    for row in range(rows):
        count = min(cols, n - row * cols)
        left = rect.left + (rect.width - count * side) // 2
        for col in range(count):
            spots.append(pygame.Rect(left + col * side, top + row * side, side, side).inflate(-(side // 7), -(side // 7)))
    return spots


def placed(r: pygame.Rect, points: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """Points given in a unit square (0-1 across and down) placed in ``r``."""
    return [(round(r.left + x * r.width), round(r.top + y * r.height)) for x, y in points]


class FaceCache:
    """Drawn faces by key, least recently used dropped past ``limit``: the
    same few cards come back every frame, and drawing one is many shapes."""

    def __init__(self, limit: int = 256) -> None:
        self._faces: OrderedDict[Hashable, pygame.Surface] = OrderedDict()
        self.limit = limit

    def get(self, key: Hashable, size: tuple[int, int], draw: Callable[[pygame.Surface], None],
            under: tuple[int, int, int] | None = None) -> pygame.Surface:
        """The face for ``key``; drawn by ``draw`` on a clear surface of ``size`` the first time
        (``under``: the colour the face will lie on, when known: an opaque face blits several
        times faster than one with an alpha channel, a 1080p board's worth of a millisecond)."""
        face = self._faces.get((key, under))
        if face is not None:
            self._faces.move_to_end((key, under))
            return face
        size = (max(1, size[0]), max(1, size[1]))
        if under is None:
            face = pygame.Surface(size, pygame.SRCALPHA)
        else:
            face = pygame.Surface(size)
            face.fill(under)
        draw(face)
        self._faces[(key, under)] = face
        while len(self._faces) > self.limit:
            self._faces.popitem(last=False)
        return face

    def __len__(self) -> int:
        return len(self._faces)
