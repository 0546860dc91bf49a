"""What the HDMI screen draws of a box's frame, read where it draws it (loads pygame:
tests/web/finished.py, which a pygame-free probe imports, must not import this)."""

from __future__ import annotations

import inspect
from typing import Any

import pygame
import pytest

from controller.box.runtime import Box
from controller.screen.loop import Presenter, draw_box
from controller.screen.screen import Screen
from games.scenes import scene_for
from games.toolkit import scene as scene_module
from games.toolkit.strip_words import status_label


def on_screen(box: Box, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Each strip cell's status and word as the HDMI screen draws the box's frame now
    (the strip ``draw_strip`` gets, and its labels, however they are passed)."""
    drawn: list[list[tuple[str, str]]] = []
    real = scene_module.draw_strip
    signature = inspect.signature(real)

    def spy(*args: Any, **kwargs: Any) -> Any:
        given = signature.bind(*args, **kwargs)
        given.apply_defaults()
        strip, labels = given.arguments["strip"], given.arguments["labels"]
        drawn.append([(str(cell.get("status")), status_label(cell, labels)) for cell in strip])
        return real(*args, **kwargs)

    monkeypatch.setattr(scene_module, "draw_strip", spy)
    presenter = Presenter(Screen.open(headless=True, size=(1280, 720)), scene_for(box.spec.name))
    draw_box(presenter, box, box.now_us, pygame.Surface((1280, 720)))
    assert drawn, "no strip drawn"
    return drawn[-1]
