"""The big screen draws the phones' panel from what their server says in a
view (``PhonesPanel``: their server is a process of its own since issue 47),
and it must look as the panel of a server in the screen's own process did:
the same frame, pixel for pixel, while every seat waits (QR code and PIN),
once a seat is taken, once a host logged in (the PIN leaves the screen), and
while the host paused the game. Nothing secret goes in a view: the PIN only
while the room may see it, never a seat's code."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest

from benchmarks.companion_box import serve
from controller.box import session
from controller.screen import live
from controller.screen.loop import draw_box
from controller.screen.phones_panel import panel_overlay
from controller.screen.screen import Screen
from controller.web.process import panel_of
from games import registry
from tests.web.phones import SCREENS

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


@pytest.fixture(autouse=True)
def hands() -> Iterator[None]:
    with registry.register("hands", "tests.web.hands"):
        yield


@pytest.mark.parametrize(("game", "players"), [("hands", 4), ("reaction", 3)])
def test_the_panel_drawn_from_a_view_is_the_panel_the_server_drew(game: str, players: int) -> None:
    spec = registry.get(game)
    box = session.new_box(spec, spec.settings(players, seed=7), None, None)
    screen = Screen.open(headless=True, size=(1280, 720))
    before = live.presenter_for(box.spec, screen, sound=None, colors=None)
    after = live.presenter_for(box.spec, screen, sound=None, colors=None)
    server = serve(box, [before.scene, before.results], 0, bind="127.0.0.1", address="192.168.100.200")
    said: list[object] = []

    def panel() -> object:
        said.append(panel_of(server))  # what the phones' server puts in the views
        return said[-1]

    overlay = panel_overlay(panel, lambda: box.station_names, lambda: box.host_paused)  # type: ignore[arg-type]
    after.scene.overlays.append(overlay)
    after.scene.asides.append(overlay.aside)
    try:
        for moment in ("waiting", "a seat taken", "a host logged in", "paused"):
            if moment == "a seat taken":
                assert server.seats.take(0) is not None
            elif moment == "a host logged in":
                server._host_ever = True  # as the host page's hello does
            elif moment == "paused":
                box.host_paused = True  # as the host page's pause does
            frames = []
            for presenter, name in ((before, "server"), (after, "view")):
                surface = pygame.Surface((1280, 720))
                draw_box(presenter, box, 0, surface)
                pygame.image.save(surface, str(SCREENS / f"phones-panel-{game}-{moment.replace(' ', '-')}-{name}.png"))
                frames.append(pygame.image.tobytes(surface, "RGB"))
            assert frames[0] == frames[1], f"{game}, {moment}: the panel drawn from the view differs"
    finally:
        server.stop()
    assert all(p.pin is None for p in said[-2:])  # a host is in: the PIN is in no view  # type: ignore[attr-defined]
    assert said[0].pin == server.seats.pin  # type: ignore[attr-defined]
    assert all(server.seats.token(0) not in repr(p) for p in said)  # no seat's code in a view
