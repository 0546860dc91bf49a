"""Issue 48's lock-out by volume, against ``play hands --web`` as it starts
by default (the split design, in a process of its own): 64 idle seat
pickers and scoreboards from 6 addresses and a reconnecting slowloris from
12 more keep every connection the box allows busy, and a real phone
(Chromium) still loads /play and joins while a host logs in. With every
waiting place held by as many addresses, a phone is told the box is full,
in the box's language.

The attackers use loopback addresses 127.0.0.2 and up (Linux routes all of
127.0.0.0/8 to lo); every wait is for what the box sends, never for time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from playwright.sync_api import expect

from controller.web.guard import Limits
from tests.processes import running
from tests.web.conftest import READY_MS
from tests.web.test_split_phones import DEADLINE_S, LAUNCH, ROOT, port_in

#: the addresses of the idle sockets and of the slowloris
IDLE_FROM = [f"127.0.0.{i}" for i in range(2, 8)]
SLOW_FROM = [f"127.0.0.{i}" for i in range(8, 20)]
#: the end of ``play --web``'s start line in every language: the host's PIN
PIN_AT_END = re.compile(r"(\d{6})\)$")


@pytest.fixture
def play(tmp_path: Path) -> Iterator[Any]:
    """``start(*args)``: ``play hands --web PORT`` in its own process; gives (port, PIN) once it serves.
    Each, and every process it started, is killed after."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with contextlib.ExitStack() as children:
        def start(*extra: str) -> tuple[int, str]:
            _proc, err = children.enter_context(running(
                [sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--seed", "7", "--headless",
                 "--journal", str(tmp_path / "hands.jsonl"), "--web", "0", *extra], env, ROOT))
            # the start line, in any language: "…/host…, PIN 123456)", with the port its server bound
            _i, line = err.wait_for(lambda x: "/host" in x and PIN_AT_END.search(x.strip()) is not None)
            found = PIN_AT_END.search(line.strip())
            assert found is not None
            return port_in(line), found.group(1)

        yield start


class Flood:
    """The attackers, on a thread and event loop of their own while the test drives Chromium."""

    def __init__(self, port: int, idle: int, idle_from: list[str], slow_from: list[str], slow_each: int) -> None:
        self.port, self.idle, self.idle_from, self.slow_from, self.slow_each = port, idle, idle_from, slow_from, slow_each
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.opened = 0  # idle sockets that were let in (and said what they are)
        self.stopping = False
        self.tasks: list[asyncio.Task[None]] = []
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self.main(),), daemon=True)

    async def socket(self, address: str, path: str, first: dict[str, Any]) -> None:
        """An idle picker or scoreboard that says what it is, then nothing; opened again when closed."""
        url = f"http://127.0.0.1:{self.port}{path}"
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0))) as session:
            while not self.stopping:
                with contextlib.suppress(aiohttp.ClientError, OSError):
                    async with session.ws_connect(url) as ws:
                        await ws.send_json(first)
                        self.opened += 1
                        async for _message in ws:
                            pass
                await asyncio.sleep(0.2)  # the attacker's own pace between tries

    async def slowloris(self, address: str) -> None:
        """A request header that never ends; opened again whenever the box closes it."""
        while not self.stopping:
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(address, 0))
                writer.write(b"GET /play HTTP/1.1\r\nHost: 127.0.0.1\r\nX-a: ")
                await reader.read()  # until the box closes it
                writer.close()
            await asyncio.sleep(0.2)  # the attacker's own pace between tries

    async def main(self) -> None:
        self.tasks = tasks = [asyncio.create_task(self.socket(self.idle_from[i % len(self.idle_from)],
                                                 "/ws/seat" if i % 2 else "/ws/board",
                                                 {"type": "seats"} if i % 2 else {"type": "hello"}))
                 for i in range(self.idle)]
        while self.opened < self.idle:  # every idle socket got in once before the phone comes
            await asyncio.sleep(0.01)
        tasks += [asyncio.create_task(self.slowloris(a)) for a in self.slow_from for _ in range(self.slow_each)]
        self.tasks = tasks
        self.ready.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    def __enter__(self) -> Flood:
        self.thread.start()
        assert self.ready.wait(DEADLINE_S), "the flood never started"
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping = True
        self.loop.call_soon_threadsafe(lambda: [task.cancel() for task in self.tasks])
        self.thread.join(DEADLINE_S)


async def host_logs_in(port: int, pin: str) -> str:
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://localhost:{port}/ws/host")
        await ws.send_json({"type": "hello", "pin": pin})
        while True:
            message = json.loads((await asyncio.wait_for(ws.receive(), DEADLINE_S)).data)
            if message["type"] in ("welcome", "refused"):
                return str(message["type"])


def test_a_phone_joins_and_the_host_logs_in_through_idle_sockets_and_a_slowloris(play: Any, phone: Any) -> None:
    port, pin = play()
    # the slowloris holds more than every connection the box allows: 12 addresses of a full share each
    with Flood(port, 64, IDLE_FROM, SLOW_FROM, Limits.connections_per_address) as flood:
        page = phone()
        page.goto(f"http://localhost:{port}/play")
        page.locator(".pick button[data-seat='0']").click()
        page.wait_for_selector("#private .chip")  # joined: its own hand
        assert "reconnecting" not in page.locator("#status").inner_text()
        host = asyncio.run_coroutine_threadsafe(host_logs_in(port, pin), flood.loop)  # Playwright holds this thread's
        assert host.result(DEADLINE_S) == "welcome"


def test_a_phone_with_no_room_left_is_told_the_box_is_full_in_the_box_language(play: Any, phone: Any) -> None:
    port, _pin = play("--lang", "cs")
    # every waiting place held by an address of its own: none holds more than the phone would
    many = [f"127.0.1.{i}" for i in range(1, Limits.waiting + 1)]
    with Flood(port, Limits.waiting, many, [], 0):
        page = phone()
        page.goto(f"http://localhost:{port}/play")
        # the box's own words (its catalogue, its language), once the page has them: before that
        # Box.text answers with the key itself ("full"), and an English box never gets past here. A function,
        # not an expression: Playwright polls an expression through eval, which the page's CSP refuses (a
        # loaded run polled because the first look came before the texts)
        page.wait_for_function("() => Box.text('full') !== 'full'", timeout=READY_MS)
        full = page.evaluate("Box.text('full')")
        expect(page.locator("#status")).to_contain_text(full)
