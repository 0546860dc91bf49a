"""Issue #30's attacks on the companion server, rerun on loopback against a
fresh server (the test game "hands", 2 seats), each with the number it
gives now: ``PYTHONPATH=. python benchmarks/companion_attacks.py``.

Not a test (it opens 1,100 connections and takes seconds); the tests in
tests/web/test_limits.py check each limit deterministically.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import resource
import time
from typing import Any

import aiohttp

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.web.guard import Limits
from controller.web.server import CompanionServer
from games import registry


async def _first_reply(session: aiohttp.ClientSession, url: str, text: str, board: bool) -> str:
    ws = await session.ws_connect(url)
    if board:
        await ws.receive()  # the board's state comes first
    await ws.send_str(text)
    msg = await asyncio.wait_for(ws.receive(), 5)
    await ws.close()
    return str(json.loads(msg.data)["type"]) if msg.type == aiohttp.WSMsgType.TEXT else f"closed {ws.close_code}"


async def attacks(srv: CompanionServer, log: io.StringIO) -> dict[str, Any]:
    base = f"http://127.0.0.1:{srv.port}"
    out: dict[str, Any] = {}
    async with aiohttp.ClientSession() as s:
        out["deep nesting, reply per endpoint"] = [
            await _first_reply(s, base + path, "[" * 1000 + "]" * 1000, path == "/ws/board")
            for path in ("/ws/seat", "/ws/host", "/ws/board")]
        out["a seat's token in the screen's QR"] = any(srv.seats.token(i) in srv.join_url() for i in range(2))
        async with s.get(base + "/host", headers={"Host": "evil.example", "Origin": "http://evil.example"}) as r:
            out["DNS rebinding (Host=Origin=evil.example)"] = r.status
        tries = 0  # 40 addresses, 5 tries each (loopback cannot fake addresses: the Seats the server uses)
        for a in range(40):
            for _ in range(5):
                if not srv.seats.pin_locked(f"10.0.0.{a}"):
                    srv.seats.check_pin(f"10.0.0.{a}", "x")
                    tries += 1
        out["wrong PINs from 40 addresses before every login waits"] = tries
        before, started = log.getvalue().count("wrong token"), time.monotonic()
        for i in range(312):
            ws = await s.ws_connect(base + "/ws/seat")
            await ws.send_json({"type": "hello", "seat": 0, "token": f"guess{i}"})
            await ws.receive()
            await ws.receive()
        out["312 wrong tokens: warning lines"] = log.getvalue().count("wrong token") - before
        out["312 wrong tokens: seconds"] = round(time.monotonic() - started, 2)
        srv.limits.per_address = 1000  # as if from 40 addresses: the total cap alone
        srv.limits.connections_per_address = 1000
        held, refused = [], 0
        for _ in range(480):
            try:
                held.append(await s.ws_connect(base + "/ws/board"))
            except aiohttp.WSServerHandshakeError:
                refused += 1
        out["480 sockets: held, refused"] = (len(held), refused)
        for ws in held:
            await ws.close()
        srv.limits.hello_s = 0.5  # shortened to see it
        ws = await s.ws_connect(base + "/ws/seat")
        await asyncio.wait_for(ws.receive(), 5)
        out["a socket that never says hello: closed with"] = ws.close_code
    srv.limits.connections_per_address = Limits.connections_per_address  # one address floods again
    conns = [await asyncio.open_connection("127.0.0.1", srv.port) for _ in range(1100)]
    await asyncio.sleep(0.5)  # a benchmark, not a test: let the server take what it takes
    runner_server = srv._runner.server if srv._runner is not None else None
    out["1,100 half-open connections: the server holds"] = len(runner_server.connections) if runner_server else None
    async with aiohttp.ClientSession() as s, s.get(base + "/play") as r:
        out["/play during the flood, from the flooding address"] = r.status
    phone = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))  # another phone on the same Wi-Fi
    async with aiohttp.ClientSession(connector=phone) as s, s.get(base + "/play") as r:
        out["/play during the flood, from another address"] = r.status
    with open("/tmp/companion_attacks_probe", "w"):  # noqa: PTH123 (a descriptor is left for files)
        out["a file opens during the flood"] = True
    for _reader, writer in conns:
        writer.close()
    return out


def main() -> None:
    log = io.StringIO()
    handler = logging.StreamHandler(log)
    for name in ("buzzerbox.web", "asyncio"):
        logging.getLogger(name).addHandler(handler)
    logging.getLogger("buzzerbox.web").setLevel(logging.INFO)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))  # room for the attacker's own 1,100
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get("hands")
        srv = box_server(Box(spec, spec.settings(2, seed=3)), port=0, bind="127.0.0.1", address="127.0.0.1")
        srv.start()
        try:
            results = asyncio.run(attacks(srv, log))
        finally:
            srv.stop()
    for key, value in results.items():
        print(f"{key}: {value}")
    print(f"log: {len(log.getvalue())} bytes, {log.getvalue().count('Traceback')} tracebacks")


if __name__ == "__main__":
    main()
