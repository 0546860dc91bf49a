"""A person at the kiosk, for tests that run the whole ``buzzerbox menu``
loop (controller/apps/menu.py) as the box runs it: they look at each frame
the loop draws and press keys on what they see, in the loop's own thread.

pygame's event queue is replaced by the script: each ``pygame.event.get()``
hands the script the texts drawn since the last one (``theme.DRAWN``) and
returns the keys it presses. Frames are counted, not timed: the frame clock
does not sleep, and a script waits for what it wants to see (readiness),
never for a moment. A script that never sees what it waits for closes the
window after ``MAX_FRAMES`` and the test fails saying what it waited for."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pygame
import pytest

from games.toolkit import theme

#: what one frame drew: (text asked, text shown, ink, rect given, screen) per text
Frame = list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]]
#: a script: sent each frame drawn, yields the keys pressed before the next (a key code, or an
#: event of its own: typed text)
Script = Generator[list[Any], Frame, None]
#: a part of a script (``yield from``): it returns the frame it ended on
Steps = Generator[list[Any], Frame, Frame]
#: a loop that never shows what the script waits for ends here (a hang guard, not a timer)
MAX_FRAMES = 3_000


class FrameClock:
    """pygame's frame clock without its sleep: the next frame comes at once."""

    def tick(self, framerate: int = 0) -> int:
        return 0


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


class Kiosk:
    """Runs ``script`` as the events of every loop that reads pygame's queue."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, script: Script) -> None:
        self.script = script
        self.frames = 0
        self.done = False
        self.stuck: str | None = None
        next(script)  # to its first look at the screen
        monkeypatch.setattr(pygame.event, "get", self.events)
        monkeypatch.setattr(pygame.time, "Clock", FrameClock)
        theme.DRAWN = []

    def events(self, *_args: Any, **_kwargs: Any) -> list[pygame.event.Event]:
        """The keys the person presses on seeing what was drawn since the last look."""
        drawn: Frame = list(theme.DRAWN or [])
        theme.DRAWN = []
        if self.done or self.stuck is not None:
            return [pygame.event.Event(pygame.QUIT)]  # the script is over: any loop left closes
        if not drawn:  # nothing drawn since the last look (a loop just began): nothing to react to
            return []
        self.frames += 1
        if self.frames > MAX_FRAMES:
            self.stuck = (f"the screen never showed what the script waited for in {MAX_FRAMES} frames; "
                          f"the last showed: {' | '.join(str(d[0]) for d in drawn)[:3000]}")
            return [pygame.event.Event(pygame.QUIT)]
        try:
            return [key(code) if isinstance(code, int) else code for code in self.script.send(drawn)]
        except StopIteration:
            self.done = True
            return []
