"""Every text on every pictured screen (tools/screenshots.py) stands out from
what it is drawn on: the toolkit's ``theme.INKED`` record gives each text's
colour and the colour under its ink, read off the frame before the text went
on, and their contrast ratio must be at least 4.5:1 (WCAG's bar for normal
text; across a room it is the least we owe)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterator
from pathlib import Path

import pygame
import pytest

from games.i18n import set_language
from games.toolkit import theme

ROOT = Path(__file__).resolve().parents[2]


def _shots() -> list[tuple[str, Callable[[pygame.Surface], None]]]:
    spec = importlib.util.spec_from_file_location("buzzerbox_screenshots_contrast", ROOT / "tools" / "screenshots.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shots: list[tuple[str, Callable[[pygame.Surface], None]]] = module.shots()
    return shots


SHOTS = _shots()
#: drawn over a dimmed game frame: the frame's own texts are meant to be covered
OVERLAYS = {"help.png"}


@pytest.fixture(autouse=True)
def _record() -> Iterator[None]:
    set_language("en")
    theme.INKED = []
    yield
    theme.INKED = None


def test_the_measure_tells_grey_on_grey_from_white_on_black() -> None:
    assert theme.contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21)
    assert theme.contrast((150, 158, 175), (80, 90, 80)) < theme.MIN_CONTRAST
    surface = pygame.Surface((200, 100))
    surface.fill((200, 200, 200))
    theme.draw_text(surface, "Hi", 40, (190, 190, 190), surface.get_rect())
    assert theme.INKED and theme.INKED[-1][1:] == ((190, 190, 190), (200, 200, 200))


@pytest.mark.parametrize(("name", "draw"), SHOTS, ids=[n for n, _ in SHOTS])
def test_every_text_has_contrast(name: str, draw: Callable[[pygame.Surface], None]) -> None:
    draw(pygame.Surface((1920, 1080)))
    inked = theme.INKED or []
    assert inked, f"{name}: no text measured"
    if name in OVERLAYS:
        return
    faint = sorted({(round(theme.contrast(color, under), 2), text, color, under) for text, color, under in inked
                    if text.strip() and theme.contrast(color, under) < theme.MIN_CONTRAST})
    assert not faint, f"{name}: texts below {theme.MIN_CONTRAST}:1 (ratio, text, colour, background): {faint[:8]}"
