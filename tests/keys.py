"""Keys pressed from a thread while a command runs in the foreground (the
menu and its games read pygame's event queue; a test leaves them with Esc)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pygame


@contextmanager
def escape_every(seconds: float = 0.3) -> Iterator[None]:
    """Post Esc every ``seconds`` while the display is open, until the block ends:
    it leaves a running game, then the menu."""
    done = threading.Event()

    def press_escape() -> None:
        while not done.wait(seconds):
            if pygame.display.get_init():
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))

    escaper = threading.Thread(target=press_escape, daemon=True)
    escaper.start()
    try:
        yield
    finally:
        done.set()
        escaper.join()
