"""Piepmatz's table as the room sees it: each bird on the screen is a card
with the bird drawn in its species' colour, its value and its sex's symbol in
that sex's colour; each seed card shows as many eggs as it holds; a crow or a
squirrel beside a position is drawn there (found through the scene's own
record of where it drew them, then looked for on the frame)."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from games.piepmatz.cards import SPECIES_COLORS
from games.piepmatz.scene import EGG, PEST_COLORS, SEX_COLORS, PiepmatzScene
from games.registry import get
from games.toolkit import theme
from games.toolkit.scene import freeze


def _moment(want: Any, seed: int = 3) -> tuple[Session, dict[str, Any]]:
    spec = get("piepmatz")
    settings = spec.settings(4, seed, **spec.demo_options)
    s = Session(Box(spec, settings), spec.new_bots(settings), spec.new_host(settings), seed)
    while s.now_us < 900_000_000 and not want(s.box.engine.public_view()):
        nxt = s.next_time_us()
        if nxt is None:
            break
        s.step(max(nxt, s.now_us))
    view = s.box.engine.public_view()
    assert want(view), "the seeded game never reached the moment"
    return s, view


def _share(surface: pygame.Surface, rect: pygame.Rect, color: tuple[int, int, int]) -> float:
    """How much of ``rect`` is painted in ``color``."""
    part = surface.subsurface(rect.clip(surface.get_rect()))
    return pygame.mask.from_threshold(part, (*color, 255), (6, 6, 6, 255)).count() / max(1, rect.width * rect.height)


def _drawn(size: tuple[int, int], view: dict[str, Any], s: Session) -> tuple[pygame.Surface, PiepmatzScene]:
    surface = pygame.Surface(size)
    scene = PiepmatzScene()
    scene.draw(surface, freeze(view), s.box.strip(), s.now_us)
    return surface, scene


def _pests_and_birds(v: dict[str, Any]) -> bool:
    return v["phase"] == "play" and any(v["pests"]) and any(p["queue"] for p in v["perches"])


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_every_bird_on_the_feeder_and_offer_is_drawn_with_its_colour_value_and_sex(size: tuple[int, int]) -> None:
    s, view = _moment(_pests_and_birds)
    surface, scene = _drawn(size, view, s)
    shown = [(b.species, b.sex, b.value) for b in scene.birds]
    for perch in view["perches"]:
        assert (perch["bird"]["species"], perch["bird"]["sex"], perch["bird"]["value"]) in shown
    for bird in view["offer"]:
        assert (bird["species"], bird["sex"], bird["value"]) in shown
    for face in scene.birds:
        assert _share(surface, face.picture, SPECIES_COLORS[face.species]) > 0.1, f"no {face.species} drawn"
        assert _share(surface, face.sign, SEX_COLORS[face.sex]) > 0.1, f"no {face.sex} symbol on a {face.species}"
        assert _share(surface, face.sign, SEX_COLORS["f" if face.sex == "m" else "m"]) == 0


def test_the_value_is_written_on_each_bird_card() -> None:
    s, view = _moment(_pests_and_birds)
    theme.DRAWN = []
    try:
        _surface, scene = _drawn((1920, 1080), view, s)
        drawn = theme.DRAWN
    finally:
        theme.DRAWN = None
    for face in scene.birds:
        assert any(text == str(face.value) and face.rect.contains(ink) for text, _shown, ink, _r, _s in drawn)


@pytest.mark.parametrize("kind", ["crow", "squirrel"])
def test_seed_cards_show_their_eggs_and_pests_are_drawn_beside_them(kind: str) -> None:
    s, view = _moment(lambda v: v["phase"] in ("play", "final") and any(p and p["kind"] == kind for p in v["pests"]))
    surface, scene = _drawn((1920, 1080), view, s)
    by_position = {face.position: face for face in scene.seeds}
    assert sorted(by_position) == list(range(1, len(view["row"]) + 1))
    for i, card in enumerate(view["row"]):
        face = by_position[i + 1]
        eggs = 0 if card is None else int(card["eggs"])
        assert len(face.eggs) == eggs
        assert sum(_share(surface, spot, EGG) > 0.2 for spot in face.eggs) == eggs
        pest = view["pests"][i]
        assert face.pest == (None if pest is None else pest["kind"])
        if pest is not None:
            assert face.pest_rect is not None
            assert _share(surface, face.pest_rect, PEST_COLORS[pest["kind"]]) > 0.05, f"no {pest['kind']} drawn"
    assert any(face.pest == kind for face in scene.seeds)
