"""The companion pages' fixtures: a live game served on loopback, its loop
running on a thread with the dummy video driver, and Debian's chromium
driven by Playwright (never Playwright's own browser download)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from benchmarks import one_process
from benchmarks.one_process import OneProcessGame
from controller.box import session
from controller.screen import live
from controller.screen.screen import Screen
from controller.web.attach import serve
from controller.web.server import CompanionServer
from games import registry
from tests import runtimes
from tests.processes import HANG_S
from tests.runtimes import CHROMIUM

#: How long a page may take to show what a test waits for. A guard against a
#: hang, never a measure: a CI machine with a hog on each core once took over
#: Playwright's own 5 s to log a host page in, so every wait here (Playwright's
#: ``expect``, its actions, ``Served.wait``) is this one generous bound.
READY_MS = int(HANG_S * 1000)

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_chromium() -> None:
    """Skip loudly on a developer's machine without chromium; FAIL when
    BUZZERBOX_REQUIRE_RUNTIMES=1 (CI): tests/runtimes.py decides."""
    runtimes.require("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=READY_MS)
    with sync_playwright() as p:
        # Playwright's own launch bound is 30 s, which a busy machine's Chromium start can pass
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=READY_MS)
        yield b
        b.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Callable[[], Any]]:
    """New pages on a small portrait phone (360x740), each its own browser context (its own phone)."""
    contexts: list[Any] = []

    def new_page() -> Any:
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
        ctx.set_default_timeout(READY_MS)  # every page of this phone, a tab opened later too
        contexts.append(ctx)
        return ctx.new_page()

    yield new_page
    for ctx in contexts:
        ctx.close()


@dataclass
class Served:
    game: one_process.LiveGame
    server: CompanionServer
    thread: threading.Thread

    @property
    def box(self) -> Any:
        return self.game.box

    def stop(self) -> None:
        """End the HDMI loop (as closing the window does); the server stays for the test."""
        import pygame

        if self.thread.is_alive():
            pygame.event.post(pygame.event.Event(pygame.QUIT))
            self.thread.join(HANG_S)

    def wait(self, predicate: Callable[[], bool], timeout: float = READY_MS / 1000) -> None:
        end = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > end:
                raise AssertionError("timed out waiting")
            time.sleep(0.02)


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Served]]:
    """A live game with the companion server on loopback and the HDMI loop
    (dummy video driver) running on a thread, as ``play --web`` runs it."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    started: list[Served] = []
    registered = registry.register("hands", "tests.web.hands")
    registered.__enter__()

    def start(game: str, players: int, names: list[str] | None = None, **options: Any) -> Served:
        spec = registry.get(game)
        box = session.new_box(spec, spec.settings(players, seed=7, **options), None, None, station_names=names)
        presenter = live.presenter_for(box.spec, Screen.open(headless=True, size=(1280, 720)), lights=None, sound=None,
                                       colors=None)
        lg = OneProcessGame(box, presenter)  # the pages' harness: one process, no second
        lg.companion = serve(box, [presenter.scene, presenter.results], 0, bind="127.0.0.1", address="127.0.0.1")
        # the loop plays until the test stops it (below): a busy machine's long test is no reason for the
        # game to end under it, so its own bound is only a hang guard far beyond any test
        thread = threading.Thread(target=lg.run, kwargs={"realtime": True, "seconds": 20 * HANG_S, "fps": 30},
                                  daemon=True)
        thread.start()
        s = Served(lg, lg.companion, thread)
        started.append(s)
        return s

    yield start
    for s in started:
        s.stop()
        one_process.stop_companion(s.game)
    registered.__exit__(None, None, None)
