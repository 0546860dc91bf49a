"""English "Enter" is two things: the key (the help and the results line name it) and the phone's
button that sends the PIN. Czech and Polish keyboards print "Enter" on the key; the button is a verb."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame  # noqa: E402

from controller.box.views import messages  # noqa: E402
from controller.screen.loop import key_word  # noqa: E402
from games.i18n import set_language  # noqa: E402


@pytest.mark.parametrize(("lang", "button"), [("en", "Enter"), ("cs", "Zadat"), ("pl", "Zatwierdź")])
def test_the_key_is_named_as_printed_and_the_button_is_a_verb(lang: str, button: str) -> None:
    set_language(lang)
    try:
        assert key_word(pygame.K_RETURN) == "Enter"
        assert messages()["enter"] == button
    finally:
        set_language("en")
