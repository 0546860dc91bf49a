"""No scene can reach engine state beyond ``public_view()``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame
import pytest

from controller.display.loop import Presenter, run
from controller.display.scene import Scene, freeze
from controller.display.screen import Screen
from tests.display.conftest import session


class Spy(Scene):
    """Records exactly what the framework hands a scene."""

    def __init__(self) -> None:
        super().__init__("spy")
        self.calls: list[tuple[Any, Any]] = []

    def draw_body(self, surface, area, lay, view, strip, now_us) -> None:  # type: ignore[no-untyped-def]
        self.calls.append((view, strip))


def _secret(*_args: Any, **_kw: Any) -> dict[str, Any]:
    raise AssertionError("the display asked for private state")


@pytest.mark.parametrize("game", ["quiz", "reaction"])
def test_scenes_get_only_the_public_view_frozen(game: str) -> None:
    s = session(game)
    s.box.engine.private_view = _secret  # type: ignore[method-assign]
    spy = Spy()
    presenter = Presenter(Screen.open(headless=True), spy, results=spy)
    run(s, presenter, realtime=False, until_us=30_000_000)
    assert spy.calls, "the scene was never drawn"
    for view, strip in spy.calls:
        assert isinstance(view, Mapping) and not isinstance(view, dict)  # read-only
        assert set(view) == set(s.box.engine.public_view())
        for cell in strip:
            assert set(cell) <= {"name", "status", "pressed", "stuck", "presses", "lockout_us", "label"}
    # and the last frame's view is what the engine says publicly, nothing more
    assert dict(spy.calls[-1][0])["phase"] == s.box.engine.public_view()["phase"]


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
