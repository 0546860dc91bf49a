"""The box decides as soon as it can, not when the screen is ready: with a
frame that takes 80 ms of CPU to draw, the winner's light is on before the
frame that was being drawn at the contact is finished, and the next frame
shows it.

The claim is judged by order, not by a clock: each frame is 80 ms of its own
thread's CPU time (``time.thread_time``), so a loaded machine stretches the
frame and the decision alike and cannot turn "decided at once" into "waited
for the frame" (a wall-clock bound here failed whenever the machine was
busy). How many milliseconds contact -> light takes is benchmarks/realtime.py's
figure, not this test's."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pygame

from benchmarks.one_process import run_live
from controller.box.lights import LightDirector, RecordingLights
from controller.box.press import Edge
from controller.box.runtime import Box
from controller.box.timeline import box_now_us
from controller.screen.loop import Presenter
from controller.screen.screen import Screen
from games.base import GameSettings
from games.registry import get
from games.scenes import scene_for

GUARD_US = 2_000
GLITCH_US = 1_000
RENDER_CPU_S = 0.08
HANG_GUARD_S = 120  # never on a working box: a box that never lights fails below


class SlowScene:
    """The quiz's scene, then 80 ms of this thread's CPU in pure Python holding
    the GIL (a heavy frame). It keeps when each draw began and ended (game
    µs), and says when a frame asked for is halfway through its CPU."""

    def __init__(self, now: Callable[[], int]) -> None:
        self.inner = scene_for("quiz")
        self.now = now
        self.draws: list[tuple[int, int]] = []
        self.wanted = threading.Event()  # the script asks: tell me when the next frame is halfway
        self.halfway = threading.Event()  # ... and this frame (index ``len(draws)``) is halfway now

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def draw(self, *args, **kwargs) -> None:
        began = self.now()
        self.inner.draw(*args, **kwargs)
        self._work(RENDER_CPU_S / 2)
        if self.wanted.is_set():
            self.wanted.clear()
            self.halfway.set()
        self._work(RENDER_CPU_S / 2)
        self.draws.append((began, self.now()))

    @staticmethod
    def _work(cpu_s: float) -> None:
        end = time.thread_time() + cpu_s
        while time.thread_time() < end:
            sum(range(200))


def test_the_winner_is_decided_and_lit_before_the_slow_frame_shows_it() -> None:
    spec = get("quiz")
    box = Box(spec, GameSettings(2, 1, {"settle_us": 0}), latency_guard_us=GUARD_US)
    box.time_offset_us = -box_now_us()

    def game_now() -> int:
        return box_now_us() + box.time_offset_us

    lights = RecordingLights([(0, "bell"), (1, "bell")], clock=game_now)
    scene = SlowScene(game_now)
    presenter = Presenter(Screen.open(headless=True), scene, results=scene)  # type: ignore[arg-type]
    contacts: list[tuple[int, int]] = []  # (game µs, the frame being drawn then)

    def lit_by(n: int) -> None:
        give_up = time.monotonic() + HANG_GUARD_S
        while sum(1 for station, _ in lights.lit if station == 1) < n and time.monotonic() < give_up:
            time.sleep(0.001)

    def halfway_through_a_frame() -> int:
        """Wait until a frame has 40 ms of its CPU still to do; its index."""
        scene.halfway.clear()
        scene.wanted.set()
        scene.halfway.wait(HANG_GUARD_S)
        return len(scene.draws)

    def players() -> None:
        try:
            with box.lock:
                box.host("arm", game_now())
            for k in range(3):
                frame = halfway_through_a_frame()
                t = box_now_us()
                contacts.append((t + box.time_offset_us, frame))
                box.edge(Edge(1, "bell", 0, t), 1)
                # held until its lamp is lit, as a finger holds the bell: a late wake-up of this thread
                # on a loaded machine can never shorten the press into a glitch
                lit_by(k + 1)
                box.edge(Edge(1, "bell", 1, box_now_us()), 1)
                halfway_through_a_frame()  # well past the bell's bounce window before the next round
                with box.lock:
                    box.host("reset", game_now())
                    box.host("arm", game_now())
            # readiness: two frames begun after the last lamp (the first shows it, the second
            # begins once that one is on the glass) before the window closes
            lit_at = lights.lit[-1][1] if lights.lit else 0
            give_up = time.monotonic() + HANG_GUARD_S
            while sum(began > lit_at for began, _ in scene.draws) < 2 and time.monotonic() < give_up:
                time.sleep(0.001)
        finally:
            pygame.event.post(pygame.event.Event(pygame.QUIT))  # the script is done: end the run

    feeder = threading.Thread(target=players)
    feeder.start()
    try:
        result = run_live(box, presenter, fps=60, lamps=LightDirector(lights))
    finally:
        feeder.join()
    winners = [e for e in result.events if e.kind == "winner"]
    assert len(winners) == 3 and len(contacts) == 3
    lit = [t for station, t in lights.lit if station == 1]
    assert len(lit) == 3
    for (contact, frame), on in zip(contacts, lit, strict=True):
        # the bell closed with half the frame's CPU still to do: the lamp did not wait for it
        drawing_end = scene.draws[frame][1]
        assert contact <= on < drawing_end, (contact, on, drawing_end)
    for on in lit:  # and on the glass with the first frame begun after the light, at the latest
        [(_decided, _lit, shown)] = [d for d in result.decisions if (d[0] or 0) <= on <= (d[1] or 0)]
        k = next(i for i, (began, _end) in enumerate(scene.draws) if began > on)
        assert shown is not None and on <= shown < scene.draws[k + 1][0], (on, shown, scene.draws[k:k + 2])
