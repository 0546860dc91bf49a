"""The box decides as soon as it can, not when the screen is ready: with a
frame that takes 80 ms of CPU to draw, the winner's light is on a few ms
after the contact, long before that frame is on the glass."""

from __future__ import annotations

import threading
import time

from controller.display.loop import Presenter, run
from controller.display.screen import Screen
from controller.lights import RecordingLights
from controller.press import Edge
from controller.runtime import Box
from controller.timeline import box_now_us
from games.base import GameSettings
from games.registry import get, scene_for

GUARD_US = 2_000
GLITCH_US = 1_000
RENDER_S = 0.08


class SlowScene:
    """The quiz's scene, then 80 ms of pure-Python work holding the GIL (a heavy frame)."""

    def __init__(self) -> None:
        self.inner = scene_for("quiz")

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def draw(self, *args, **kwargs) -> None:
        self.inner.draw(*args, **kwargs)
        end = time.perf_counter() + RENDER_S
        while time.perf_counter() < end:
            sum(range(200))


def test_the_winner_is_decided_and_lit_before_the_slow_frame_shows_it() -> None:
    spec = get("quiz")
    box = Box(spec, GameSettings(2, 1, {"settle_us": 0}), latency_guard_us=GUARD_US)
    box.time_offset_us = -box_now_us()

    def game_now() -> int:
        return box_now_us() + box.time_offset_us

    lights = RecordingLights([(0, "bell"), (1, "bell")], clock=game_now)
    scene = SlowScene()
    presenter = Presenter(Screen.open(headless=True), scene, lights=lights,  # type: ignore[arg-type]
                          results=scene)  # type: ignore[arg-type]
    contacts: list[int] = []

    def players() -> None:
        time.sleep(0.15)
        with box.lock:
            box.host("arm", game_now())
        for _ in range(3):  # land the press at different moments of a frame
            time.sleep(0.19)
            t = box_now_us()
            contacts.append(t + box.time_offset_us)
            box.edge(Edge(1, "bell", 0, t), 1)
            time.sleep(0.05)
            box.edge(Edge(1, "bell", 1, box_now_us()), 1)
            time.sleep(0.03)
            with box.lock:
                box.host("reset", game_now())
                box.host("arm", game_now())

    feeder = threading.Thread(target=players)
    feeder.start()
    result = run(box, presenter, realtime=True, until_us=game_now() + 1_100_000, fps=60)
    feeder.join()
    winners = [e for e in result.events if e.kind == "winner"]
    assert len(winners) == 3 and len(contacts) == 3
    lit = [t for station, t in lights.lit if station == 1]
    assert len(lit) == 3
    for contact, on in zip(contacts, lit, strict=True):
        # contact + glitch filter + report delay, with room for a busy shared test machine's
        # scheduling, and far below the 80 ms frame (benchmarks/realtime.py measures the p99)
        assert on - contact < GLITCH_US + GUARD_US + 25_000, (on - contact)
    for on in lit:  # the screen shows it on the next frame: after the light, within a frame's drawing
        [(at, _lit, shown)] = [d for d in result.decisions if d[0] <= on <= d[1]]
        assert shown is not None and on <= shown < at + 2 * int(RENDER_S * 1e6) + 20_000
