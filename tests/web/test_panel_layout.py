"""The HDMI picture of a game played with keyboard stations and ``--web``
at both screen sizes: the QR panel says every free seat whole in the smallest type,
and no word of Pictomania's cards is covered (the keys hint used to lie
over the seventh words; it now has its own band below the strip)."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from benchmarks.companion_box import serve
from controller.box.runtime import Box
from controller.screen import live
from controller.screen.loop import Presenter, draw_box
from controller.screen.phones_panel import CompanionOverlay
from controller.screen.screen import Screen
from controller.web.server import CompanionServer
from games import registry
from games.toolkit import theme
from tests.display.test_qr_panel_room import assert_free_seats_readable
from tests.web.phones import SCREENS

SIZES = ((1280, 720), (1920, 1080))


@pytest.fixture
def pictomania() -> Iterator[tuple[Box, Presenter, CompanionServer]]:
    spec = registry.get("pictomania")
    box = Box(spec, spec.settings(4, seed=5))
    presenter = live.presenter_for(box.spec, Screen.open(headless=True, size=(1280, 720)), sound=None,
                                   colors=None)
    live.show_keys(presenter, 4)
    server = serve(box, [presenter.scene, presenter.results], 0, bind="127.0.0.1", address="127.0.0.1")
    with box.lock:
        box.host("start", box.now_us + 1)  # the cards and the secrets: the seventh words on show
    yield box, presenter, server
    server.stop()


def _frame(box: Box, presenter: Presenter, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch,
           dressed: bool) -> tuple[pygame.Surface, list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]]]:
    """A frame in the game's first seconds (the keys hint on), with or
    without what the box adds over the game (the QR panel, the hint)."""
    scene = presenter.scene
    kept, draw = list(scene.overlays), scene.draw
    if not dressed:
        scene.overlays.clear()
        del scene.draw  # the scene's own draw, without the keys hint
    drawn: list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]] = []
    monkeypatch.setattr(theme, "DRAWN", drawn)
    surface = pygame.Surface(size)
    try:
        draw_box(presenter, box, 1_000_000, surface)
    finally:
        scene.overlays[:] = kept
        scene.draw = draw  # type: ignore[method-assign]
    return surface, drawn


@pytest.mark.parametrize("size", SIZES)
def test_the_qr_panel_names_every_free_seat_and_covers_no_card_word(
        pictomania: tuple[Box, Presenter, CompanionServer], size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    box, presenter, _server = pictomania
    shown, drawn = _frame(box, presenter, size, monkeypatch, True)
    bare, bare_drawn = _frame(box, presenter, size, monkeypatch, False)
    pygame.image.save(shown, str(SCREENS / f"companion-hdmi-pictomania-{size[0]}.png"))
    overlay = next(o for o in presenter.scene.overlays if isinstance(o, CompanionOverlay))
    assert overlay.panel_at is not None and overlay.body_at is not None
    # "Player 3/4" were cut off at the panel's edge; the body above the keys' band is shorter still
    assert_free_seats_readable(drawn, overlay.panel_at, overlay, shown, overlay.body_at[1],
                               [(seat, box.station_names[seat]) for seat in range(4)])
    words = {w for card in box.engine.public_view()["cards"] for w in card["words"]}
    placed = [(asked, ink) for asked, _text, ink, _given, _surface in bare_drawn if asked in words]
    assert len({asked for asked, _ink in placed}) >= len(words) - 1  # (a word may be drawn over two lines)
    for asked, ink in placed:
        ink = ink.clip(bare.get_rect())
        same = all(bare.get_at((x, y)) == shown.get_at((x, y))
                   for x in range(ink.left, ink.right, 2) for y in range(ink.top, ink.bottom, 2))
        assert same, (size, asked)  # nothing the box adds lies over a card's word
    keys = [text for asked, text, *_rest in drawn if asked.startswith("keys 1–4")]
    assert keys and "…" not in keys[0], "the keys line is drawn whole, in its own band below the strip"
