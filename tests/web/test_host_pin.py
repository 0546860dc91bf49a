"""The host PIN on a screen the whole room reads: shown until the first host
logs in, afterwards only when a host asks (never because a host's tab
closed); a second host page is announced on the first; the host changes
the PIN, which logs every other host page out. Real sockets and, for the
page, headless Chromium."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest
from playwright.sync_api import expect

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.web.server import CLOSE_REFUSED, CompanionServer
from games import registry
from tests.processes import HANG_S
from tests.web.conftest import Served
from tests.web.phones import SCREENS
from tests.web.test_security import receive, talk


@pytest.fixture
def quiz() -> Iterator[CompanionServer]:
    spec = registry.get("quiz")
    server = box_server(Box(spec, spec.settings(3)), port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()
    yield server
    server.stop()


async def _login(session: aiohttp.ClientSession, base: str, pin: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(f"{base}/ws/host")
    await ws.send_json({"type": "hello", "pin": pin})
    assert (await receive(ws))["type"] == "welcome"
    return ws


def test_the_pin_leaves_the_big_screen_for_good_once_a_host_is_in(quiz: CompanionServer) -> None:
    server = quiz

    async def script(session: aiohttp.ClientSession, base: str) -> list[bool]:
        wanted = [server.pin_wanted()]
        host = await _login(session, base, server.seats.pin)
        wanted.append(server.pin_wanted())
        await host.close()  # the host's tab closed (or its phone slept and the socket died)
        while server._host_sockets:
            await receive(await session.ws_connect(f"{base}/ws/board"), "state")
        wanted.append(server.pin_wanted())
        again = await _login(session, base, server.seats.pin)
        await again.send_json({"type": "show_pin", "seq": 1})
        await receive(again, "ok")
        wanted.append(server.pin_wanted())
        return wanted

    assert talk(server, script) == [True, False, False, True]


def test_a_second_host_is_announced_and_a_new_pin_logs_the_others_out(quiz: CompanionServer) -> None:
    server = quiz
    old = server.seats.pin

    async def script(session: aiohttp.ClientSession, base: str) -> dict[str, Any]:
        first = await _login(session, base, old)
        second = await _login(session, base, old)
        notice = await receive(first, "notice")
        await first.send_json({"type": "rotate_pin", "seq": 1})
        told = await receive(first, "pin")
        assert (await receive(first, "ok"))["seq"] == 1
        kicked = [await receive(second, "refused"), await receive(second, "closed")]
        with_old = await session.ws_connect(f"{base}/ws/host")
        await with_old.send_json({"type": "hello", "pin": old})
        refused = await receive(with_old)
        fresh = await _login(session, base, told["pin"])
        await fresh.close()
        await first.send_json({"type": "host", "action": "pause", "seq": 2})
        return {"notice": notice, "told": told, "kicked": kicked, "refused": refused,
                "still": await receive(first, "ok")}

    out = talk(server, script)
    assert out["notice"]["what"] == "second_host" and out["notice"]["address"] == "127.0.0.1"
    assert out["told"]["pin"] == server.seats.pin != old
    assert "changed the PIN" in out["kicked"][0]["why"] and out["kicked"][1]["code"] == CLOSE_REFUSED
    assert "Wrong PIN" in out["refused"]["why"]
    assert out["still"]["seq"] == 2  # the host who changed it stays in
    assert not server.pin_wanted()  # the new PIN is not on the big screen either


def test_the_host_page_says_a_second_host_came_and_changes_the_pin_with_two_taps(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3)
    first, second = phone(), phone()
    for page in (first, second):
        page.goto(s.server.host_url())
        page.fill("#pin", s.server.pin)
        page.locator("#enter").click()
        expect(page.locator("#remote")).to_be_visible()
    expect(first.locator("#alert")).to_contain_text("Another host page just logged in")
    rotate = first.locator("button[data-action='rotate_pin']")
    rotate.click()
    expect(rotate).to_contain_text("Tap again")
    rotate.click()
    # the phones' server changes the PIN: the page saying so is the readiness to read it
    expect(first.locator("#alert")).to_contain_text(re.compile(r"The new PIN is \d{6}"))
    new_pin = re.findall(r"\d{6}", first.locator("#alert").inner_text())[0]
    assert new_pin != s.server.pin
    expect(second.locator("#login")).to_be_visible()  # logged out: it needs the new PIN
    expect(second.locator("#status")).to_contain_text("changed the PIN")
    second.fill("#pin", s.server.pin)  # the old PIN no longer logs in; the new one does
    second.locator("#enter").click()
    expect(second.locator("#status")).to_contain_text("Wrong PIN")
    second.fill("#pin", new_pin)
    second.locator("#enter").click()
    expect(second.locator("#remote")).to_be_visible()
    first.screenshot(path=str(SCREENS / "companion-host-pin.png"), full_page=True)


def test_the_armed_end_button_falls_back_after_a_while(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3)
    host = phone()
    host.clock.install()
    host.goto(s.server.host_url())
    host.fill("#pin", s.server.pin)
    host.locator("#enter").click()
    end = host.locator("button[data-action='end']")
    end.click()
    expect(end).to_contain_text("Tap again")
    host.clock.run_for(4100)  # the page's own clock: no waiting on the wall
    expect(end).not_to_contain_text("Tap again")
    expect(end).to_have_text("End the game")
    end.click()  # the first tap again only asks
    expect(end).to_contain_text("Tap again")
    assert s.ended is None and s.proc.poll() is None  # the game goes on


def test_the_k_key_puts_the_pin_on_the_big_screen_and_the_help_says_so(served: Any) -> None:
    """``play --web``: the box's own keyboard (k, on the screen's key path) asks
    the phones' server, through the deciding process, for the PIN as a host
    page can; once a host is in, the frame drawn from the views has no PIN
    before the key and has it after; the help overlay (h) lists k."""
    import pygame

    from controller.screen import live, viewer
    from controller.screen.keyboard import BOX_KEYS, KeyboardSource
    from controller.screen.loop import keyboard_help
    from controller.screen.screen import Screen

    s: Served = served("quiz", 2)
    spec = registry.get("quiz")
    link = viewer.DecidingLink(spec, spec.settings(2), s.sock)  # this test's channel is the screen's
    presenter = live.presenter_for(spec, Screen.open(headless=True, size=(1280, 720)), sound=None, colors=None)
    viewer.show_phones(presenter, link)  # as play's screen does with --web
    keyboard = KeyboardSource(2)
    keyboard.add_host_keys({key: action for key, action in BOX_KEYS.items() if action in presenter.box_actions})
    presenter.help = keyboard_help(spec, keyboard, s.public)
    assert ("k", "show the host PIN on the big screen for a minute") in presenter.help.rows

    at = s.now_us()

    def frame() -> bytes:
        """The frame drawn from the newest view, as play's screen draws it (at one moment: only the view differs)."""
        link.update(s.view)
        surface = pygame.Surface((1280, 720))
        presenter.draw_view(link.view, spec, at, surface)
        return pygame.image.tobytes(surface, "RGB")

    s.wait(lambda: s.view.phones is not None and s.view.phones.pin == s.server.pin)
    with_pin = frame()  # nobody logged in yet: the room sees the PIN
    logged_in = threading.Thread(target=talk, args=(s.server, lambda session, base: _login(session, base, s.server.pin)))
    logged_in.start()  # on a thread of its own: Playwright may hold this thread's event loop
    logged_in.join(HANG_S)
    s.wait(lambda: s.view.phones is not None and s.view.phones.pin is None)  # a host is in: the PIN left
    without = frame()
    assert without != with_pin
    before = s.public
    k = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_k, mod=0, unicode="k", scancode=0)
    viewer._Watching(link, presenter, keyboard).keys([k], 0)  # the screen's key path
    s.wait(lambda: s.view.phones is not None and s.view.phones.pin == s.server.pin)
    assert frame() == with_pin
    assert s.public == before  # the game itself saw no key


def test_a_guessing_address_is_named_on_the_host_page_and_the_host_stays_in(served: Any, phone: Any) -> None:
    """Issue 48: wrong PINs from another address wait, and the host page says which (never silent)."""
    from tests.web.test_host_pages import log_in

    s: Served = served("hands", 2)
    host = phone()
    log_in(host, s)
    said: list[str] = []

    async def guess() -> None:
        connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
        async with aiohttp.ClientSession(connector=connector) as session:
            ws = await session.ws_connect(f"http://127.0.0.1:{s.server.port}/ws/host")
            for _ in range(5):
                await ws.send_json({"type": "hello", "pin": "000000"})
                said.append((await ws.receive_json())["why"])

    guesser = threading.Thread(target=asyncio.run, args=(guess(),))  # Playwright holds this thread's loop
    guesser.start()
    guesser.join(HANG_S)
    assert len(said) == 5
    expect(host.locator("#lockouts")).to_contain_text("127.0.0.2")
    host.screenshot(path=str(SCREENS / "companion-host-lockout.png"))
    again = phone()  # the host's own phone, logging in again meanwhile (another tab: the same address here)
    log_in(again, s)
