"""Every display test runs without a screen or a sound card."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import collections  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from controller.box.runtime import Box  # noqa: E402
from controller.box.simulate import Session  # noqa: E402
from games.registry import get  # noqa: E402


@pytest.fixture(autouse=True)
def _pygame() -> Any:
    """pygame ready to draw; after the test, no layout record left on (``theme.DRAWN``)."""
    from games.toolkit import theme

    pygame.display.init()
    pygame.font.init()
    yield
    theme.DRAWN = None


def session(game: str, players: int = 4, seed: int = 3, **options: Any) -> Session:
    spec = get(game)
    settings = spec.settings(players, seed, **{**spec.demo_options, **options})
    box = Box(spec, settings)
    return Session(box, spec.new_bots(settings), spec.new_host(settings), seed)


def play_until(s: Session, want: Callable[[dict[str, Any]], bool], limit_us: int = 600_000_000) -> dict[str, Any]:
    """Step the simulated game until the public view satisfies ``want``."""
    while s.now_us < limit_us:
        view = s.box.engine.public_view()
        if want(view):
            return view
        nxt = s.next_time_us()
        if nxt is None:
            break
        s.step(max(nxt, s.now_us))
    raise AssertionError("the simulated game never reached the wanted state")


def dominant(surface: pygame.Surface, rect: pygame.Rect, grid: int = 24) -> tuple[int, int, int]:
    """The most common colour on a grid of points inside ``rect``."""
    counts: collections.Counter[tuple[int, int, int]] = collections.Counter()
    for gx in range(grid):
        for gy in range(grid):
            x = rect.left + (gx * 2 + 1) * rect.width // (grid * 2)
            y = rect.top + (gy * 2 + 1) * rect.height // (grid * 2)
            c = surface.get_at((x, y))
            counts[(c.r, c.g, c.b)] += 1
    return counts.most_common(1)[0][0]
