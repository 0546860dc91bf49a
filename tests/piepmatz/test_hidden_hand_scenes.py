"""The three hidden-hand games' scenes (Piepmatz, Fiki Miki, Pictomania) draw
every phase of a whole bot game at every supported screen size with no text
below 1/24 of the screen height (kept here with the shared box checks)."""

from __future__ import annotations

import pygame
import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from games.registry import get
from games.scenes import scene_for
from games.toolkit.scene import freeze
from games.toolkit.theme import TEXT, Layout

GAMES = [("piepmatz", 4, {}), ("fiki-miki", 6, {"open_hands": True}), ("fiki-miki", 4, {"variant": "IIB"}),
         ("pictomania", 6, {})]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)])
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[f"{g}-{p}" for g, p, _ in GAMES])
def test_every_phase_is_drawn_with_readable_text(game: str, players: int, options: dict[str, object],
                                                  size: tuple[int, int]) -> None:
    spec = get(game)
    settings = spec.settings(players, 7, **options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 7)
    scene = scene_for(game)
    surface = pygame.Surface(size)
    TEXT.sizes_used.clear()
    phases = set()
    t_us = 0
    while not box.engine.finished and t_us < 3_600_000_000:
        t_us += 20_000_000
        session.run_virtual(t_us)
        view = box.engine.public_view()
        if view["phase"] not in phases:
            phases.add(view["phase"])
            scene.draw(surface, freeze(view), box.strip(), session.now_us)
    scene.draw(surface, freeze(box.engine.public_view()), box.strip(), session.now_us)
    assert box.engine.finished and len(phases) >= 2
    assert min(TEXT.sizes_used) >= Layout(*size).min_text
