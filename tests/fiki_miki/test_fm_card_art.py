"""Fiki Miki's table as the room sees it: every card on the screen shows its
pictures, as many as it counts, in its kind's colour (counted through the
scene's own record of where it drew them, then looked for on the frame)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from games.fiki_miki.cards import KIND_COLORS
from games.fiki_miki.scene import FikiMikiScene
from games.registry import get
from games.toolkit.art import picture_spots
from games.toolkit.scene import freeze


def _moment(players: int, want: Any, **options: Any) -> tuple[Session, dict[str, Any]]:
    spec = get("fiki-miki")
    settings = spec.settings(players, 5, **options)
    s = Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), 5)
    while s.now_us < 900_000_000 and not want(s.box.engine.public_view()):
        s.step(max(s.next_time_us() or s.now_us + 1000, s.now_us))
    view = s.box.engine.public_view()
    assert want(view), "the seeded game never reached the moment"
    return s, view


def _shows_colour(surface: pygame.Surface, spot: pygame.Rect, color: tuple[int, int, int]) -> bool:
    """At least a tenth of the spot is painted in ``color`` (the picture is there, not a blank square)."""
    part = surface.subsurface(spot.clip(surface.get_rect()))
    mask = pygame.mask.from_threshold(part, (*color, 255), (6, 6, 6, 255))
    return mask.count() >= spot.width * spot.height // 10


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_each_stacks_cards_show_their_pictures_counted(size: tuple[int, int]) -> None:
    s, view = _moment(5, lambda v: v["phase"] != "over" and sum(len(st["cards"]) for st in v["stacks"]) >= 8)
    surface = pygame.Surface(size)
    scene = FikiMikiScene()
    scene.draw(surface, freeze(view), s.box.strip(), s.now_us)
    shown = 0
    for stack in view["stacks"]:
        if not stack["cards"]:
            continue
        top = stack["cards"][-1]  # the newest card lies on top, whole
        faces = [f for f in scene.faces if f.kind == stack["kind"]]
        assert faces, f"the {stack['kind']} stack shows no card"
        assert faces[-1].pictures == top["pictures"]
        for face in faces:
            assert len(face.spots) == face.pictures
            painted = sum(_shows_colour(surface, spot, KIND_COLORS[str(face.kind)]) for spot in face.spots)
            assert painted == face.pictures, f"a {face.kind} card of {face.pictures} shows {painted} pictures"
            shown += 1
    assert shown >= 3


def test_variant_two_shows_every_card_of_the_trick_with_its_pictures() -> None:
    s, view = _moment(4, lambda v: v["phase"] != "over" and len(v.get("trick", ())) >= 3, variant="IIB")
    surface = pygame.Surface((1920, 1080))
    scene = FikiMikiScene()
    scene.draw(surface, freeze(view), s.box.strip(), s.now_us)
    trick = [entry["card"] for entry in view["trick"]]
    assert [(f.kind, f.pictures) for f in scene.faces] == [(c["kind"], c["pictures"]) for c in trick]
    for face in scene.faces:
        if face.kind is not None:
            assert sum(_shows_colour(surface, spot, KIND_COLORS[face.kind]) for spot in face.spots) == face.pictures


@pytest.mark.parametrize("n", range(1, 10))
@pytest.mark.parametrize("rect", [pygame.Rect(0, 0, 200, 150), pygame.Rect(10, 10, 300, 40), pygame.Rect(0, 0, 60, 200)])
def test_n_pictures_get_n_separate_squares_inside_the_card(n: int, rect: pygame.Rect) -> None:
    spots = picture_spots(rect, n)
    assert len(spots) == n
    assert all(rect.contains(spot) and spot.width == spot.height > 0 for spot in spots)
    assert not any(a.colliderect(b) for i, a in enumerate(spots) for b in spots[i + 1:])
