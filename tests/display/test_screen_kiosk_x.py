"""On an X display without a window manager (a kiosk's ``startx``, Xvfb) the
menu and the games fill the screen, as on the console: a 1280x720 window
there sat in a corner with nothing to move or enlarge it. With a window
manager (a desktop) it stays a window; ``--window`` always wins."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from controller.screen import screen as screen_mod


@pytest.mark.parametrize(("manager", "fullscreen"), [(False, True), (True, False), (None, False)])
def test_x_without_a_window_manager_opens_full_screen(manager: bool | None, fullscreen: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    modes: list[tuple[tuple[int, int], int]] = []

    def set_mode(size: tuple[int, int], flags: int = 0) -> Any:
        modes.append((size, flags))
        return pygame.Surface((16, 9))

    monkeypatch.setenv("DISPLAY", ":99")
    monkeypatch.setattr(screen_mod, "on_console", lambda: False)
    monkeypatch.setattr(screen_mod, "window_manager", lambda: manager)
    monkeypatch.setattr(screen_mod, "set_mode", set_mode)
    monkeypatch.setattr(pygame.display, "init", lambda: None)
    monkeypatch.setattr(pygame.display, "get_driver", lambda: "x11")
    monkeypatch.setattr(pygame.display, "set_caption", lambda *_a: None)
    monkeypatch.setattr(pygame.mouse, "set_visible", lambda *_a: None)
    screen_mod.Screen.open()
    screen_mod.Screen.open(fullscreen=False)  # --window
    assert [bool(flags & pygame.FULLSCREEN) for _size, flags in modes] == [fullscreen, False]


def test_no_display_has_no_window_manager(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    assert screen_mod.window_manager() is None
