"""No scene can reach engine state beyond ``public_view()``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame
import pytest

from controller.screen.loop import Presenter, run_virtual
from controller.screen.screen import Screen
from games.registry import available, get
from games.scenes import scene_for
from games.toolkit.scene import freeze
from tests.display.conftest import session


def _secret(*_args: Any, **_kw: Any) -> dict[str, Any]:
    raise AssertionError("the display asked for private state")


@pytest.mark.parametrize("game", [g for g in available() if get(g).scene])
def test_every_game_scene_gets_only_the_public_view_frozen(game: str) -> None:
    s = session(game, players=3)
    # simulated players on phones read their own seat's view; the scene never may
    seat_view = s.box.engine.private_view
    drawing = [False]

    def guarded(seat: int) -> dict[str, Any]:
        return _secret() if drawing[0] else seat_view(seat)

    s.box.engine.private_view = guarded  # type: ignore[method-assign]
    scene = scene_for(game, None)
    calls: list[tuple[Any, Any]] = []
    draw = scene.draw
    draw_body = scene.draw_body

    def drawing_frame(surface, view, strip, now_us):  # type: ignore[no-untyped-def]
        drawing[0] = True
        try:
            draw(surface, view, strip, now_us)
        finally:
            drawing[0] = False

    def recording(surface, area, lay, view, strip, now_us):  # type: ignore[no-untyped-def]
        calls.append((view, strip))
        draw_body(surface, area, lay, view, strip, now_us)

    scene.draw = drawing_frame  # type: ignore[method-assign]

    scene.draw_body = recording  # type: ignore[method-assign]
    run_virtual(s, Presenter(Screen.open(headless=True), scene, results=scene), until_us=30_000_000)
    assert calls, "the scene was never drawn"
    for view, strip in calls:
        assert isinstance(view, Mapping) and not isinstance(view, dict)  # read-only
        assert set(view) == set(s.box.engine.public_view())
        for cell in strip:
            assert set(cell) <= {"name", "status", "pressed", "stuck", "presses", "lockout_us", "label"}
    # and the last frame's view is what the engine says publicly, nothing more
    assert dict(calls[-1][0])["phase"] == s.box.engine.public_view()["phase"]


def test_a_scene_cannot_change_the_game_through_its_view() -> None:
    s = session("reaction")
    from tests.display.conftest import play_until

    play_until(s, lambda v: v["phase"] == "result")
    view = freeze(s.box.engine.public_view())
    with pytest.raises(TypeError):
        view["last"]["order"] = []  # type: ignore[index]
    with pytest.raises(AttributeError):
        view["last"]["order"].append(99)
    assert 99 not in s.box.engine.public_view()["last"]["order"]
    pygame.display.quit()
