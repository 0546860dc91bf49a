"""A person at the kiosk, for tests that run the whole ``buzzerbox menu``
loop (controller/apps/menu.py) as the box runs it: they look at each frame
the loop draws and press keys on what they see, in the loop's own thread.

pygame's event queue is replaced by the script: each ``pygame.event.get()``
hands the script the texts drawn since the last one (``theme.DRAWN``) and
returns the keys it presses. A script waits for what it wants to see
(readiness), never for a moment. The frame clock only yields the processor
(the deciding process, which moves the game on in its own time, shares it).

A script that never sees what it waits for is a hang: the window closes and
the test fails saying what it waited for. The guard needs both ``MAX_FRAMES``
frames and ``HANG_S`` seconds: frames alone raced the deciding process (a
fast machine drew 3,000 frames of "get ready" before the question came), and
seconds alone would stop a slow machine's long script. A script of several
stages (games played one after another) yields ``Reached`` at each: every
stage has the guard's whole allowance."""

from __future__ import annotations

import time
from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller import protocol as p
from controller.cli import main
from controller.screen import evening, viewer
from games.toolkit import theme
from tests.processes import HANG_S

#: what one frame drew: (text asked, text shown, ink, rect given, screen) per text
Frame = list[tuple[str, str, pygame.Rect, pygame.Rect, pygame.Rect]]
#: a script: sent each frame drawn, yields the keys pressed before the next (a key code, or an
#: event of its own: typed text)
Script = Generator[list[Any], Frame, None]
#: a part of a script (``yield from``): it returns the frame it ended on
Steps = Generator[list[Any], Frame, Frame]
#: a loop that never shows what the script waits for ends after both this many frames and
#: ``HANG_S`` (a hang guard, never a bound on how fast the box is: a busy machine only waits
#: longer before calling it a hang)
MAX_FRAMES = 3_000


def menu_args(tmp_path: Path, *more: str) -> list[str]:
    """``buzzerbox menu`` as these tests start it: in a window, with no first start, its
    journals, packs and media in ``tmp_path`` (``journals``, ``packs``, ``media``)."""
    return ["menu", "--window", "--fresh", "--journal-dir", str(tmp_path / "journals"),
            "--packs-dir", str(tmp_path / "packs"), "--media-root", str(tmp_path / "media"), *more]


class FrameClock:
    """pygame's frame clock without its frame-rate sleep: the next frame comes as soon as the
    processor has been offered to the other processes (a spinning loop starved them on 2 cores)."""

    def tick(self, framerate: int = 0) -> int:
        time.sleep(0)
        return 0


@dataclass(frozen=True)
class Reached:
    """Yielded among a script's keys (never pressed): the script got to a new stage, the hang
    guard starts again from here (a long script is not a hang because it is long)."""

    stage: str


def key(code: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)


class Kiosk:
    """Runs ``script`` as the events of every loop that reads pygame's queue."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, script: Script) -> None:
        self.script = script
        self.frames = 0
        self.done = False
        self.stuck: str | None = None
        self.began = time.monotonic()
        #: the stages the script got to (``Reached``), in order
        self.stages: list[str] = []
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
        if self.frames > MAX_FRAMES and time.monotonic() - self.began > HANG_S:
            self.stuck = (f"the screen never showed what the script waited for in {self.frames} frames "
                          f"and {HANG_S:.0f} s" + (f" after {self.stages[-1]}" if self.stages else "") + "; "
                          f"the last showed: {' | '.join(str(d[0]) for d in drawn)[:3000]}")
            return [pygame.event.Event(pygame.QUIT)]
        try:
            pressed = self.script.send(drawn)
        except StopIteration:
            self.done = True
            return []
        for reached in [code for code in pressed if isinstance(code, Reached)]:  # the guard from here
            self.stages.append(reached.stage)
            self.frames, self.began = 0, time.monotonic()
        return [key(code) if isinstance(code, int) else code for code in pressed if not isinstance(code, Reached)]


def sent_to_decider(monkeypatch: pytest.MonkeyPatch) -> list[p.Message]:
    """Every message the screen sends its deciding process from now on (they still go)."""
    sent: list[p.Message] = []
    to_decider = viewer.DecidingLink.send

    def send(link: viewer.DecidingLink, message: p.Message) -> None:
        sent.append(message)
        to_decider(link, message)

    monkeypatch.setattr(viewer.DecidingLink, "send", send)
    return sent


def results_kept(monkeypatch: pytest.MonkeyPatch, results_s: float) -> None:
    """The menu's games keep their final results up ``results_s`` by themselves (the evening's deciding
    process's ``--results-s``: a long one, and only a key, a host button or the host page closes them)."""
    spawn = evening.spawn_deciding

    def kept(args: Sequence[str], **kwargs: Any) -> Any:
        return spawn([*args, "--results-s", f"{results_s:g}"], **kwargs)

    monkeypatch.setattr(evening, "spawn_deciding", kept)


def in_the_menu(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: Script, *, language: str = "en",
                players: int = 3, packs: Mapping[str, str] | None = None, web: bool = False,
                results_s: float | None = None, seen: object = None) -> Kiosk:
    """``script`` at the kiosk of ``buzzerbox menu`` (``menu_args``) in ``language``, ``players`` players:
    ``packs`` (a file's name: its text) in its packs folder, ``web``: with its phones' server (``--web 0``),
    ``results_s``: its games' final results up that long by themselves (``results_kept``; None: the
    deciding process's own time). It ends well, and the script never got stuck (``seen``: said too if it did)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if packs is not None:
        folder = tmp_path / "packs"
        folder.mkdir()
        for name, text in packs.items():
            (folder / name).write_text(text, encoding="utf-8")
    if results_s is not None:
        results_kept(monkeypatch, results_s)
    kiosk = Kiosk(monkeypatch, script)
    more = ["--players", str(players), *(["--web", "0"] if web else [])]
    assert main(["--lang", language, *menu_args(tmp_path, *more)]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen) if seen is not None else kiosk.stuck
    return kiosk
