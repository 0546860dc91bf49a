"""Issue 48's attacks on the phones' server, rerun on loopback (attackers
at 127.0.0.2 and up, the real phone at 127.0.0.3, the host at 127.0.0.4)
against a fresh server for each trial (the test game "hands", 4 seats),
in real time: ``PYTHONPATH=. python benchmarks/seat_attacks.py [TRIALS]``.

Prints one row per attack: trials, seats the attacker held at the end,
real phones (or hosts) locked out, tracebacks in the log, hangs (a reply
that never came within 30 s). Not a test: tests/web/test_seat_attacks.py,
test_flood_split.py and test_limits.py check each deterministically.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.web.server import CompanionServer
from games import registry

ATTACKER, PHONE, HOST = "127.0.0.2", "127.0.0.3", "127.0.0.4"
HANG_S = 30.0


class Hang(Exception):
    """A reply that never came."""


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str | None = None) -> dict[str, Any]:
    while True:
        try:
            msg = await asyncio.wait_for(ws.receive(), HANG_S)
        except asyncio.TimeoutError:
            raise Hang from None
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": "closed", "code": ws.close_code}
        data = json.loads(msg.data)
        if kind is None or data["type"] == kind:
            return data


class Net:
    """Sockets from chosen loopback addresses to one server."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sessions: list[aiohttp.ClientSession] = []

    async def ws(self, address: str, path: str = "/ws/seat") -> aiohttp.ClientWebSocketResponse:
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
        self.sessions.append(session)
        return await session.ws_connect(f"http://127.0.0.1:{self.port}{path}")

    async def close(self) -> None:
        for session in self.sessions:
            await session.close()


async def take(ws: aiohttp.ClientWebSocketResponse, seat: int) -> dict[str, Any]:
    await ws.send_json({"type": "take", "seat": seat})
    while True:
        answer = await receive(ws)
        if answer["type"] != "pick":
            return answer


async def phone_joins(net: Net, seat: int, server: CompanionServer) -> bool:
    """The real phone: picks ``seat`` (asking the host when held) and says hello; True when it joined."""
    ws = await net.ws(PHONE)
    got = await take(ws, seat)
    if got["type"] == "asked":
        return False
    if got["type"] != "granted":
        return False
    await ws.send_json({"type": "hello", "seat": seat, "token": got["token"]})
    return (await receive(ws))["type"] == "welcome"


async def host(net: Net, server: CompanionServer) -> aiohttp.ClientWebSocketResponse:
    ws = await net.ws(HOST, "/ws/host")
    await ws.send_json({"type": "hello", "pin": server.seats.pin})
    assert (await receive(ws, "welcome"))["type"] == "welcome"
    return ws


async def sit(net: Net, address: str) -> aiohttp.ClientWebSocketResponse:
    """A phone at ``address`` takes seat 1 and joins with it."""
    ws = await net.ws(address)
    got = await take(ws, 0)
    await ws.send_json({"type": "hello", "seat": 0, "token": got["token"]})
    await receive(ws, "welcome")
    return ws


async def given(h: aiohttp.ClientWebSocketResponse, phone: aiohttp.ClientWebSocketResponse, code: str) -> bool:
    """The host gives seat 1 to the phone showing ``code``; True when that phone joined with it."""
    await h.send_json({"type": "approve", "seat": 0, "code": code, "seq": 9})
    token = (await receive(phone, "granted"))["token"]
    await phone.send_json({"type": "hello", "seat": 0, "token": token})
    return (await receive(phone))["type"] == "welcome"


async def grab(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """One picker socket takes every seat and never says hello; the phone comes once the take lapsed."""
    bot = await net.ws(ATTACKER)
    tokens = [(s, a["token"]) for s in range(4) if (a := await take(bot, s))["type"] == "granted"]
    await asyncio.sleep(server.limits.take_s + 0.3)  # a benchmark in real time: the take's own deadline
    joined = await phone_joins(net, 0, server)
    return [t for s, t in tokens if server.seats.token(s) == t], joined


async def regrab(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """The bot sat down first; the host gives the seat a new code; the bot's open picker re-takes at once."""
    h = await host(net, server)
    await sit(net, ATTACKER)
    picker = await net.ws(ATTACKER)
    await picker.send_json({"type": "seats"})
    await receive(picker, "pick")
    await h.send_json({"type": "reissue", "seat": 0, "seq": 1})
    again = await take(picker, 0)
    phone = await net.ws(PHONE)
    mine = await take(phone, 0)
    if mine["type"] != "asked":
        return ["?"], False
    joined = await given(h, phone, mine["code"])
    return (["regrabbed"] if again["type"] == "granted" else []), joined


async def snipe(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """The seat's old phone is lost; the player's new phone asks; a bot re-asks every 0.2 s from 4 sockets."""
    h = await host(net, server)
    await sit(net, PHONE)  # the player's first phone, now lost in a bag
    phone = await net.ws(PHONE)
    mine = await take(phone, 0)
    bots = [await net.ws(ATTACKER) for _ in range(4)]
    for _ in range(5):
        for bot in bots:
            await take(bot, 0)
        await asyncio.sleep(0.2)
    joined = await given(h, phone, mine["code"])  # the code the host sees beside the player's ask
    return [], joined and server.joined()[0]


async def idle_sockets(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """64 idle pickers and scoreboards from 6 addresses; a phone (another address) joins, a host logs in."""
    held = []
    for i in range(64):
        ws = await net.ws(f"127.0.1.{i % 6 + 1}", "/ws/seat" if i % 2 else "/ws/board")
        await ws.send_json({"type": "seats"} if i % 2 else {"type": "hello"})
        held.append(ws)
    joined = await phone_joins(net, 0, server)
    await host(net, server)
    return [], joined


async def wrong_pins(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """20 wrong PINs from 4 addresses, then the host's own address with the right one."""
    for a in range(4):
        ws = await net.ws(f"127.0.2.{a + 1}", "/ws/host")
        for _ in range(5):
            await ws.send_json({"type": "hello", "pin": "000000"})
            await receive(ws, "refused")
    ws = await net.ws(HOST, "/ws/host")
    await ws.send_json({"type": "hello", "pin": server.seats.pin})
    while (answer := await receive(ws))["type"] not in ("welcome", "refused"):
        pass
    return [], answer["type"] == "welcome"


async def malformed(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """200 malformed HTTP requests; then the phone joins."""
    for i in range(200):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=(ATTACKER, 0))
        writer.write([b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"][i % 2])
        await asyncio.wait_for(reader.read(), HANG_S)
        writer.close()
    return [], await phone_joins(net, 0, server)


async def take_flood(net: Net, server: CompanionServer) -> tuple[list[str], bool]:
    """3,000 take messages from one socket at a held seat: how many pushes a host page gets."""
    h = await host(net, server)
    await sit(net, PHONE)
    bot = await net.ws(ATTACKER)
    for _ in range(3000):
        await bot.send_json({"type": "take", "seat": 0})
    await asyncio.sleep(1.0)  # let the host page hear what it hears
    pushes = 0
    while True:
        try:
            msg = await asyncio.wait_for(h.receive(), 0.5)
        except asyncio.TimeoutError:
            break
        pushes += msg.type == aiohttp.WSMsgType.TEXT and json.loads(msg.data)["type"] == "seats"
    print(f"  3,000 takes: {pushes} seat pushes to the host page")
    return [], True


ATTACKS: dict[str, Callable[[Net, CompanionServer], Awaitable[tuple[list[str], bool]]]] = {
    "grab all seats, one picker, no hello": grab,
    "re-grab after the host's new code": regrab,
    "snipe: re-ask every 0.2 s": snipe,
    "64 idle pickers/boards from 6 addresses": idle_sockets,
    "20 wrong PINs from 4 addresses": wrong_pins,
    "200 malformed requests": malformed,
    "3,000 takes at a held seat": take_flood,
}


def trial(attack: Callable[[Net, CompanionServer], Awaitable[tuple[list[str], bool]]]) -> tuple[int, int, int, int]:
    """(seats the attacker held, phones locked out, tracebacks, hangs) of one run on a fresh server."""
    log = io.StringIO()
    handler = logging.StreamHandler(log)
    handler.setFormatter(logging.Formatter("%(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    spec = registry.get("hands")
    server = box_server(Box(spec, spec.settings(4, seed=3)), port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()

    async def main() -> tuple[list[str], bool]:
        net = Net(server.port)
        try:
            return await attack(net, server)
        finally:
            await net.close()

    try:
        held, joined = asyncio.run(main())
        hangs = 0
    except Hang:
        held, joined, hangs = [], False, 1
    finally:
        server.stop()
        root.removeHandler(handler)
    if "Traceback" in log.getvalue():
        print(log.getvalue()[-3000:], file=sys.stderr)
    return len(held), int(not joined), log.getvalue().count("Traceback"), hangs


def main() -> None:
    trials = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    logging.getLogger().setLevel(logging.INFO)
    rows = []
    with registry.register("hands", "tests.web.hands"):
        for name, attack in ATTACKS.items():
            started = time.monotonic()
            results = [trial(attack) for _ in range(trials)]
            rows.append((name, trials, *(sum(r[i] for r in results) for i in range(4)), time.monotonic() - started))
    print("| attack | trials | seats taken by the attacker | phones/hosts locked out | tracebacks | hangs |")
    print("|---|---|---|---|---|---|")
    for name, n, held, out, tracebacks, hangs, _s in rows:
        print(f"| {name} | {n} | {held} | {out} | {tracebacks} | {hangs} |")


if __name__ == "__main__":
    main()
