"""The QR panel in a real game's frame (``play --web``: the game's presenter,
the companion server on loopback, the panel the server puts over the
game's scene): at both screen sizes, in every language, with every seat
still waiting for a phone, default names or the longest a profile allows,
the free seats are said whole in the smallest type beside the game's own
layout. In the first real frames the names ran together on one line, cut
("a připojte se: Hráč 1,…") and shrunk to under half the smallest type."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from benchmarks.companion_box import serve
from controller.box import session
from controller.screen import live
from controller.screen.loop import draw_box
from controller.screen.phones_panel import CompanionOverlay
from controller.screen.screen import Screen
from games import registry
from games.i18n import set_language
from games.toolkit import theme
from tests.display.test_qr_panel_room import (
    LANGUAGES,
    LONGEST_NAME,
    SIZES,
    assert_free_seats_readable,
)
from tests.web.phones import SCREENS

#: the games with phone seats, each with its most players (Hands, the test game, with the 8 the issue saw)
GAMES = [("hands", 8), ("pictomania", 6), ("fiki-miki", 6), ("piepmatz", 4)]

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


@pytest.fixture(autouse=True)
def hands() -> Iterator[None]:
    with registry.register("hands", "tests.web.hands"):
        yield


@pytest.mark.parametrize("naming", ["default", "longest"])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "players"), GAMES, ids=lambda v: str(v))
def test_a_real_frame_says_every_free_seat_whole_beside_the_game(game: str, players: int, language: str,
                                                                naming: str) -> None:
    set_language(language)
    spec = registry.get(game)
    names = [LONGEST_NAME] * players if naming == "longest" else None
    box = session.new_box(spec, spec.settings(players, seed=7), None, None, station_names=names)
    presenter = live.presenter_for(box.spec, Screen.open(headless=True, size=(1280, 720)), sound=None,
                                   colors=None)
    server = serve(box, [presenter.scene, presenter.results], 0, bind="127.0.0.1", address="192.168.100.200")
    try:
        overlay = next(o for o in presenter.scene.overlays if isinstance(o, CompanionOverlay))
        for size in SIZES:
            surface = pygame.Surface(size)
            theme.DRAWN = []
            draw_box(presenter, box, 0, surface)
            drawn, theme.DRAWN = theme.DRAWN, None
            pygame.image.save(surface, str(SCREENS / f"qr-panel-{game}-{players}-{naming}-{language}-{size[0]}.png"))
            assert overlay.panel_at is not None and overlay.body_at is not None, f"{size}: no panel though every seat waits"
            free = [(seat, box.station_names[seat]) for seat in range(players)]
            assert_free_seats_readable(drawn, overlay.panel_at, overlay, surface, overlay.body_at[1], free)
    finally:
        server.stop()
