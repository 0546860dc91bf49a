"""The HDMI screen is read by the whole room, and the pages must agree with
it: the host PIN is on it only while no host page is logged in (or the host
asks), the address line never covers what the game drew, the pages word a
player's cell as the strip does, and the scoreboard says whose press the
margins count from."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pygame
import pytest

from benchmarks.companion_box import serve
from controller.box import session as box_session
from controller.box.inputs import HOST_STATION
from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.timeline import box_now_us
from controller.screen import live
from controller.screen.loop import draw_box
from controller.screen.phones_panel import CompanionOverlay
from controller.screen.screen import Screen
from controller.web.server import CompanionServer
from games import registry
from games.toolkit import theme
from tests.processes import HANG_S
from tests.web.test_security import settle

SIZES = ((1280, 720), (1920, 1080))


def covered(bare: pygame.Surface, shown: pygame.Surface) -> tuple[pygame.Rect | None, int]:
    """Where the overlay changed the frame, and how many changed pixels
    held something the game drew (anything but the header's plain fill)."""
    changed: list[tuple[int, int]] = []
    over_content = 0
    for y in range(bare.get_height()):
        for x in range(0, bare.get_width(), 2):
            before = bare.get_at((x, y))
            if before != shown.get_at((x, y)):
                changed.append((x, y))
                over_content += int(tuple(before)[:3] != theme.PANEL)
    if not changed:
        return None, 0
    xs, ys = [x for x, _ in changed], [y for _, y in changed]
    return pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1), over_content


@dataclass
class Shown:
    """A quiz on the HDMI screen with its server, no loop thread: the test
    steps the box and draws the frames itself."""

    box: Box
    presenter: Any
    server: CompanionServer

    def frame(self, size: tuple[int, int], with_overlay: bool) -> pygame.Surface:
        scene = self.presenter.scene
        kept = list(scene.overlays)
        if not with_overlay:
            scene.overlays.clear()
        try:
            surface = pygame.Surface(size)
            draw_box(self.presenter, self.box, self.box.now_us, surface)
        finally:
            scene.overlays[:] = kept
        return surface


@pytest.fixture
def shown(monkeypatch: pytest.MonkeyPatch) -> Iterator[Shown]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    spec = registry.get("quiz")
    box = box_session.new_box(spec, spec.settings(3, seed=7, pack="en-general"), None, None)
    presenter = live.presenter_for(box.spec, Screen.open(headless=True, size=(1280, 720)), sound=None,
                                   colors=None)
    server = serve(box, [presenter.scene, presenter.results], 0, bind="127.0.0.1", address="127.0.0.1")
    yield Shown(box, presenter, server)
    server.stop()


def test_the_pin_leaves_the_screen_once_a_host_is_in_and_the_question_stays_clear(shown: Shown) -> None:
    s = shown
    armed_at = box_now_us()
    s.box.press(Press(HOST_STATION, "arm", armed_at))
    s.box.step(armed_at + s.box.time_offset_us + 1_000_000)  # well past the latency guard: the arming is decided
    assert s.box.engine.public_view()["phase"] == "armed"
    server, overlay = s.server, s.presenter.scene.overlays[0]
    assert isinstance(overlay, CompanionOverlay)
    assert server.pin_wanted()  # nobody has logged in yet: the host reads the PIN on the big screen
    base = f"http://127.0.0.1:{server.port}"

    def frames_agree() -> None:
        for size in SIZES:  # while the host page is logged in
            bare, shown = s.frame(size, False), s.frame(size, True)
            where, over = covered(bare, shown)
            header = theme.layout_for(bare).header
            assert where is not None and header.contains(where), (size, where)  # the address, in the header
            assert over == 0, size  # and over nothing the game drew (the question card, "1 point", the title)
            overlay.show_pin = lambda: True  # the same frame if the PIN were shown: it says more
            assert covered(shown, s.frame(size, True))[0] is not None
            overlay.show_pin = server.pin_wanted
            pygame.image.save(shown, f"/tmp/webfix-hdmi-{size[0]}.png")

    async def logged_in_and_asks_again() -> tuple[bool, list[dict[str, Any]]]:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"{base}/ws/host")
            inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

            async def read() -> None:  # reading all along answers the server's heartbeat pings
                async for message in ws:
                    await inbox.put(json.loads(message.data))

            reader = asyncio.create_task(read())
            try:
                await ws.send_json({"type": "hello", "pin": server.seats.pin})
                while (await asyncio.wait_for(inbox.get(), HANG_S))["type"] != "welcome":  # a hang guard
                    pass
                hidden = not server.pin_wanted()
                await asyncio.to_thread(frames_agree)  # slow under load: the socket keeps being read meanwhile
                await ws.send_json({"type": "show_pin", "seq": 1})
                while (reply := await asyncio.wait_for(inbox.get(), HANG_S))["type"] not in ("ok", "refused"):
                    pass
                return hidden, [reply, {"wanted": server.pin_wanted()}]
            finally:
                reader.cancel()

    hidden, (ok, after) = asyncio.run(logged_in_and_asks_again())
    assert hidden
    assert ok["type"] == "ok" and after["wanted"]  # the host asked: a co-host can read it now


def test_the_pages_call_the_right_answer_what_the_big_screen_calls_it(shown: Shown) -> None:
    """Player 2 answered right: the strip says RIGHT under their name, and so
    do the host page and the scoreboard (not the raw "in line")."""
    s = shown
    s.box.press(Press(HOST_STATION, "arm", box_now_us()))
    settle(s.box)
    s.box.press(Press(1, "bell", box_now_us()))
    settle(s.box)
    s.box.press(Press(HOST_STATION, "correct", box_now_us()))
    settle(s.box)
    assert s.box.engine.public_view()["phase"] == "round_over"
    on_screen = s.presenter.scene.adjust_strip(s.box.engine.public_view(), s.box.strip())
    assert on_screen[1]["label"] == "RIGHT"
    for page in (s.server.publisher.latest.host, s.server.publisher.latest.board):
        players = json.loads(page)["players"]
        assert players[1]["label"] == "RIGHT"
        assert [p["label"] for p in players if p["seat"] != 1] == ["", ""]


def test_after_a_wrong_answer_the_scoreboard_says_who_answers_and_whose_press_the_margins_count_from(
        shown: Shown) -> None:
    s = shown
    s.box.press(Press(HOST_STATION, "arm", box_now_us()))
    settle(s.box)
    t = box_now_us()
    s.box.press(Press(0, "bell", t))
    s.box.press(Press(1, "bell", t + 9_000))  # 9 ms later
    settle(s.box, t + 9_000)
    s.box.press(Press(HOST_STATION, "wrong", box_now_us()))
    settle(s.box)
    board = json.loads(s.server.publisher.latest.board)
    assert board["first"] == 1  # the next in line answers now
    assert board["fastest"] == 0  # the margins still count from the question's first bell
    assert board["margins_us"]["0"] == 0 and board["margins_us"]["1"] == 9_000
