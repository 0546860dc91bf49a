"""Longer translations stay inside their panels: every screen the project
pictures (tools/screenshots.py) and every phase of every registered game drawn at 1920x1080 and 1280x720 in the
pseudo-locale (every text about 40 % longer, accented), each text's ink
measured as rendered (the toolkit's ``theme.DRAWN`` record of draw_text)
against the rect it was given and the screen, and against the other texts.

And the real languages: no Czech or Polish text is cut short with an
ellipsis where the English one fits.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

import pygame
import pytest

from games.i18n import set_language
from games.toolkit import theme
from tests.fits import Drawn, overlaps, spills
from tests.phases import named_draws

ROOT = Path(__file__).resolve().parents[2]
SIZES = [(1920, 1080), (1280, 720)]
#: drawn over a dimmed game frame: the frame's texts are meant to be covered
OVERLAYS = {"help.png"}


def _screenshots() -> ModuleType:
    spec = importlib.util.spec_from_file_location("buzzerbox_screenshots", ROOT / "tools" / "screenshots.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: the curated pictures, and a frame of every phase of every registered game (tests/phases.py)
SHOTS: list[tuple[str, Callable[[pygame.Surface], None]]] = _screenshots().shots() + named_draws()


#: fonts up, and after each test the draw record off and English back (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


@cache
def drawn(draw: Callable[[pygame.Surface], None], size: tuple[int, int], language: str) -> Drawn:
    """Every text ``draw`` puts on a ``size`` screen in ``language``, as measured
    (kept: the English frames are compared with every other language's)."""
    set_language(language)
    theme.DRAWN = []
    try:
        draw(pygame.Surface(size))
        return [d for d in theme.DRAWN if d[2].width > 0]  # an empty text has no ink
    finally:
        theme.DRAWN = None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize(("name", "draw"), SHOTS, ids=[n for n, _ in SHOTS])
def test_pseudo_locale_text_stays_in_its_panel(name: str, draw: Callable[[pygame.Surface], None], size: tuple[int, int]) -> None:
    english = drawn(draw, size, "en")
    longer = drawn(draw, size, "xx")
    assert longer, f"{name}: nothing drawn"
    for asked, _shown, ink, box, screen in longer:
        why = spills(asked, ink, box, screen)
        assert why is None, f"{name}: {why}"
    if name in OVERLAYS:
        return
    before = overlaps(english)  # where English texts already touch, that is no translation's doing
    new = [pair for key, pair in overlaps(longer).items() if key not in before]
    assert not new, f"{name}: longer texts run into each other: " + "; ".join(f"{a!r} over {b!r}" for a, b in new)


@pytest.mark.parametrize("language", ["cs", "pl"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_translation_is_cut_short_where_english_fits(language: str, size: tuple[int, int]) -> None:
    """A text cut with an ellipsis in Czech or Polish in a rect where the English
    one fits is the translation's fault (a scene that cuts English too is the scene's)."""
    cut = []
    for name, draw in SHOTS:
        english = {tuple(box) for asked, shown, _ink, box, _s in drawn(draw, size, "en") if shown != asked}
        cut += [(name, asked) for asked, shown, _ink, box, _s in drawn(draw, size, language)
                if shown != asked and tuple(box) not in english]
    assert not cut, f"{language} {size}: cut with an ellipsis: {cut[:8]}"
