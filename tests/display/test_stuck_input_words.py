"""A stuck input is named on the strip in the box's language (a Czech strip
said "ZASEKLÉ bell": the wiring's name of the input, in English); a button's
letter stays as printed. The quiz's screen drawn as the box draws it, at
both sizes."""

from __future__ import annotations

import pygame
import pytest

from games.i18n import _, set_language
from games.scenes import scene_for
from games.toolkit import theme
from games.toolkit.scene import freeze
from tests.display.conftest import session

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_a_stuck_bell_is_named_in_the_box_language(language: str) -> None:
    set_language(language)
    s = session("quiz", players=3)
    strip = [dict(cell) for cell in s.box.strip()]
    strip[0].update(status="stuck", stuck=["bell"])
    strip[1].update(status="stuck", stuck=["a", "bell"])
    for size in ((1920, 1080), (1280, 720)):
        theme.DRAWN = []
        scene_for("quiz").draw(pygame.Surface(size), freeze(s.box.engine.public_view()), strip, 0)
        said = [shown for _asked, shown, *_r in theme.DRAWN]
        assert _("STUCK {inputs}").format(inputs=_("bell")) in said, said
        assert _("STUCK {inputs}").format(inputs="a," + _("bell")) in said, said
        if language != "en":
            assert not any(text.endswith(" bell") or text.endswith(",bell") for text in said), said
