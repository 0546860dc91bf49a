"""The server's limits against a hostile guest network, over real sockets:
a parse error of any kind is one refusal line, silent and slow connections
are closed, caps hold in total as well as per address, and a page of
another site (DNS rebinding: Host and Origin both its own) is refused."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.web.guard import CLOSE_FULL, CLOSE_NO_HELLO, Limits, QuietLog, host_allowed
from controller.web.seats import PIN_TRIES, Seats
from controller.web.server import MAX_MESSAGE_BYTES, CompanionServer, Refused, parse
from games import registry
from tests.processes import HANG_S
from tests.web.test_security import receive, talk

DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def served() -> Iterator[tuple[Box, CompanionServer]]:
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get("hands")
        box = Box(spec, spec.settings(2, seed=3))
        # a silent socket is closed only after a hang guard's time: a slow test never sees it go under it
        server = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1",
                                 limits=Limits(connections=6, sockets=4, hello_s=HANG_S, header_s=HANG_S))
        server.start()
        yield box, server
        server.stop()


@pytest.mark.parametrize("text", [DEEP, '{"type": "hello", "seat": ' + "[" * 900 + "]" * 900 + "}",
                                  "1" * 2000, "NaN", '{"type": Infinity}',
                                  "\udcff", b"\xff\xfe\x00"])
def test_any_parse_error_is_a_refusal(text: str | bytes) -> None:
    with pytest.raises(Refused) as refused:
        parse(text)
    assert str(refused.value)


def test_deep_nesting_and_huge_numbers_get_one_refusal_line_on_every_endpoint(
        served: tuple[Box, CompanionServer], caplog: pytest.LogCaptureFixture) -> None:
    box, server = served

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        out = []
        for path in ("/ws/seat", "/ws/host", "/ws/board"):
            ws = await session.ws_connect(base + path)
            if path == "/ws/board":
                await receive(ws, "state")
            for text in (DEEP, "9" * 2000):
                await ws.send_str(text)
                out.append(await receive(ws))
            await ws.close()
        return out

    with caplog.at_level(logging.DEBUG):
        replies = talk(server, script)
    assert [r["type"] for r in replies] == ["refused"] * 6
    assert all("nested too deeply" in r["why"] for r in replies[::2])
    assert all('"type"' in r["why"] for r in replies[1::2])  # a number of 2,000 digits is no message
    assert not [r for r in caplog.records if r.exc_info]  # no traceback anywhere


def test_a_socket_that_never_says_hello_is_closed(served: tuple[Box, CompanionServer]) -> None:
    box, server = served
    server.limits.hello_s = 0.2  # short, so the test needs not wait long (it waits for the close, not a time)

    async def script(session: aiohttp.ClientSession, base: str) -> list[Any]:
        seat = await session.ws_connect(base + "/ws/seat")
        host = await session.ws_connect(base + "/ws/host")
        return [await receive(seat), await receive(host)]

    assert talk(server, script) == [{"type": "closed", "code": CLOSE_NO_HELLO}] * 2


def test_the_sockets_are_capped_in_total_not_only_per_address(served: tuple[Box, CompanionServer]) -> None:
    """Past the total, a socket from the address already holding them is not let in: it is
    told the box is full (in words, a close code the page knows) and one freed makes room."""
    box, server = served
    server.limits.per_address = server.limits.waiting_per_address = 100  # as if from many addresses

    async def script(session: aiohttp.ClientSession, base: str) -> tuple[dict[str, Any], dict[str, Any], int]:
        held = [await session.ws_connect(base + "/ws/board") for _ in range(server.limits.sockets)]
        turned = await session.ws_connect(base + "/ws/board")
        said, closed = await receive(turned), await receive(turned)
        await held.pop().close()
        await asyncio.sleep(0)
        again = await _when_open(session, base)
        for ws in [*held, again]:
            await ws.close()
        return said, closed, len(held)

    said, closed, _held = talk(server, script)
    assert said["full"] and "full" in said["why"]
    assert closed == {"type": "closed", "code": CLOSE_FULL}


async def _when_open(session: aiohttp.ClientSession, base: str) -> aiohttp.ClientWebSocketResponse:
    """A board socket, once the server counted a closed one back (it does so after the close handshake)."""
    while True:
        ws = await session.ws_connect(base + "/ws/board")
        if (await receive(ws))["type"] == "state":
            return ws
        await ws.close()
        await asyncio.sleep(0.01)


def test_one_address_cannot_take_every_connection_and_another_still_loads_the_page() -> None:
    """A guest holding connections open in silence (half-open, waiting out
    the header deadline) is turned away past its own cap, while a phone at
    another address loads /play meanwhile and the pool still has room."""
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get("hands")
        server = box_server(Box(spec, spec.settings(2, seed=3)), port=0, bind="127.0.0.1", address="127.0.0.1",
                                 limits=Limits(connections=12, connections_per_address=4, hello_s=HANG_S, header_s=HANG_S))
        server.start()
        try:
            async def main() -> tuple[list[bytes], int, int, bytes]:
                async def from_(source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
                    return await asyncio.open_connection("127.0.0.1", server.port, local_addr=(source, 0))

                held = [await from_("127.0.0.2") for _ in range(4)]
                while len(server._runner.server.connections) < 4:  # type: ignore[union-attr]
                    await asyncio.sleep(0.01)
                turned = []
                for _ in range(3):  # more from the same address: each answered 503 and closed at once
                    reader, writer = await from_("127.0.0.2")
                    turned.append(await reader.read())
                    writer.close()
                phone = aiohttp.TCPConnector(local_addr=("127.0.0.3", 0))  # another phone's address
                async with aiohttp.ClientSession(connector=phone) as other, \
                        other.get(f"http://127.0.0.1:{server.port}/play") as page:
                    status = page.status
                open_then = len(server._runner.server.connections)  # type: ignore[union-attr]
                for _r, w in held:
                    w.close()
                while server._runner.server.connections:  # type: ignore[union-attr]
                    await asyncio.sleep(0.01)
                reader, writer = await from_("127.0.0.2")  # its connections gone: the address is welcome again
                writer.write(f"GET /play HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nConnection: close\r\n\r\n".encode())
                again = await reader.read()
                writer.close()
                return turned, status, open_then, again

            turned, status, open_then, again = asyncio.run(main())
        finally:
            server.stop()
    assert all(t.startswith(b"HTTP/1.1 503") for t in turned), turned
    assert status == 200
    assert open_then <= 5  # the four held and at most the page's own, never one of the turned
    assert again.startswith(b"HTTP/1.1 200")


def test_connections_beyond_the_cap_are_closed_at_once_and_pages_load_after(
        served: tuple[Box, CompanionServer]) -> None:
    box, server = served

    async def main() -> tuple[bytes, int]:
        held = [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(server.limits.connections)]
        while len(server._runner.server.connections) < server.limits.connections:  # type: ignore[union-attr]
            await asyncio.sleep(0.01)
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        turned = await reader.read()  # answered and closed without a request
        writer.close()
        for _r, w in held:
            w.close()
        while server._runner.server.connections:  # type: ignore[union-attr]
            await asyncio.sleep(0.01)
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{server.port}/play") as page:
            return turned, page.status

    turned, status = asyncio.run(main())
    assert turned.startswith(b"HTTP/1.1 503")
    assert status == 200


def test_a_silent_or_dribbling_connection_is_closed_after_the_header_deadline() -> None:
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get("hands")
        # short, so the test needs not wait long: it waits for the close, not for a time
        server = box_server(Box(spec, spec.settings(2, seed=3)), port=0, bind="127.0.0.1", address="127.0.0.1",
                                 limits=Limits(header_s=0.3))
        server.start()
        try:
            _silent_and_dribbling_are_closed(server)
        finally:
            server.stop()


def _silent_and_dribbling_are_closed(server: CompanionServer) -> None:
    async def main() -> list[bytes]:
        silent = await asyncio.open_connection("127.0.0.1", server.port)
        dribble = await asyncio.open_connection("127.0.0.1", server.port)
        dribble[1].write(b"GET /play HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never more
        out = [await silent[0].read(), await dribble[0].read()]  # both end: EOF
        silent[1].close()
        dribble[1].close()
        return out

    assert asyncio.run(main()) == [b"", b""]


def test_a_dns_rebinding_page_is_refused_and_the_box_addresses_are_not(served: tuple[Box, CompanionServer]) -> None:
    box, server = served

    async def script(session: aiohttp.ClientSession, base: str) -> list[int]:
        out = []
        evil = {"Host": "evil.example", "Origin": "http://evil.example"}
        for path in ("/host", "/messages.json"):
            async with session.get(base + path, headers=evil) as r:
                out.append(r.status)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(base + "/ws/host", headers=evil)
        out.append(refused.value.status)
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
            async with session.get(base + "/host", headers={"Host": host}) as r:
                out.append(r.status)
        return out

    assert talk(server, script) == [421, 421, 421, 200, 200]


def test_host_allowed_takes_the_connections_own_address_and_the_boxs_names() -> None:
    names = {"localhost", "buzzerbox", "buzzerbox.local"}
    assert host_allowed("10.42.0.1:8080", "10.42.0.1", names)
    assert host_allowed("[::1]:8080", "::1", names)
    assert host_allowed("127.0.0.1", "::ffff:127.0.0.1", names)
    assert host_allowed("buzzerbox.local:8080", "10.42.0.1", names)
    assert not host_allowed("10.42.0.2:8080", "10.42.0.1", names)  # an address that is not this connection's
    assert not host_allowed("evil.example", "10.42.0.1", names)
    assert not host_allowed(None, "10.42.0.1", names)
    assert not host_allowed("", "10.42.0.1", names)


def test_wrong_pins_slow_the_guessing_addresses_and_never_keep_the_host_out() -> None:
    """20 wrong PINs a minute from 4 addresses (issue 48): those addresses wait, longer each
    round; the host's address logs in meanwhile; the box's own key lets everyone try again."""
    now = [0.0]
    seats = Seats(2, pin="123456", clock=lambda: now[0])
    guessers = [f"10.0.0.{i}" for i in range(4)]
    tried = 0
    for minute in range(3):
        now[0] = minute * 60.0
        for address in guessers:
            for _ in range(PIN_TRIES):
                if not seats.pin_locked(address):
                    seats.check_pin(address, "000000")
                    tried += 1
        assert not seats.pin_locked("10.0.0.99") and seats.check_pin("10.0.0.99", "123456")  # the host gets in
    assert tried == 2 * len(guessers) * PIN_TRIES  # the third minute they still wait: the wait doubled
    assert seats.pin_lockouts() == {a: 60 for a in guessers}  # what the host page and the log say
    now[0] = 179.0  # the second round ended at 60 s: 120 s of waiting
    assert all(seats.pin_locked(a) for a in guessers)
    seats.forgive()  # the box's own key
    assert not any(seats.pin_locked(a) for a in guessers)


def test_warnings_a_stranger_causes_are_few_a_minute(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    quiet = QuietLog(logging.getLogger("buzzerbox.web"), burst=5, window_s=60, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, "buzzerbox.web"):
        for i in range(312):
            quiet.warning("token", "wrong token %d", i)
        now[0] = 61.0
        quiet.warning("token", "wrong token %d", 999)
    lines = [r.getMessage() for r in caplog.records]
    assert lines[:5] == [f"wrong token {i}" for i in range(5)]
    assert "left out" in lines[5] and "307 more" in lines[6] and lines[7] == "wrong token 999"
    assert len(lines) == 8


def test_wrong_tokens_flood_the_log_no_more(served: tuple[Box, CompanionServer],
                                             caplog: pytest.LogCaptureFixture) -> None:
    box, server = served

    async def script(session: aiohttp.ClientSession, base: str) -> None:
        ws = await session.ws_connect(base + "/ws/board")  # one socket place is kept free for the tries
        for i in range(40):
            seat = await session.ws_connect(base + "/ws/seat")
            await seat.send_json({"type": "hello", "seat": 0, "token": f"guess{i:04d}"})
            await receive(seat, "closed")
        await ws.close()

    with caplog.at_level(logging.WARNING, "buzzerbox.web"):
        talk(server, script)
    assert len([r for r in caplog.records if "wrong token" in r.getMessage()]) == 5


ENDPOINTS = ("/ws/seat", "/ws/host", "/ws/board")


def _frame(rng: random.Random) -> str | bytes:
    """A seeded random frame: deep nesting, huge numbers, binary, broken
    UTF-8, near-messages with odd fields, or a plain message of each kind."""
    pick = rng.randrange(8)
    if pick == 0:
        depth = rng.randrange(1, 1000)
        return rng.choice("[{") * depth if rng.random() < 0.3 else "[" * depth + "]" * depth
    if pick == 1:
        return '{"type": "move", "kind": "play", "seq": ' + "9" * rng.randrange(1, 2000) + "}"
    if pick == 2:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    if pick == 3:
        return "".join(chr(rng.randrange(1, 0x2FFF)) for _ in range(rng.randrange(1, 200)))
    if pick == 4:
        value = rng.choice([None, True, -1, 2**70, 1e308, "x" * 300, [[1]], {"kind": "play", "args": {"a": [1]}}])
        return json.dumps({"type": rng.choice(["hello", "move", "host", "score", "name", "option", "reissue"]),
                           rng.choice(["seat", "token", "pin", "kind", "args", "seq", "action", "x"]): value})
    if pick == 5:
        return json.dumps({"type": "move", "kind": "play", "args": {"card": rng.randrange(-5, 99)},
                           "seq": rng.randrange(-2, 5)})
    if pick == 6:
        return json.dumps({"type": "hello", "seat": rng.randrange(-1, 4), "token": "t" * rng.randrange(40)})
    return '{"type": "hello", "pin": "' + str(rng.randrange(10**6)).zfill(6) + '"}'


def test_fuzz_every_endpoint_with_seeded_random_frames(served: tuple[Box, CompanionServer],
                                                       caplog: pytest.LogCaptureFixture) -> None:
    """Seeded and bounded (a fixed number of frames): each answer is a
    refusal, a welcome or a view, each socket stays open unless it was told
    why it closed, no traceback is logged and the server serves after."""
    box, server = served
    server.limits.hello_s = HANG_S  # no fuzzed socket is closed for its silence while the test runs
    server.limits.sockets = server.limits.per_address = 50
    rng = random.Random(30)
    hand = list(box.engine.hands[0])

    async def script(session: aiohttp.ClientSession, base: str) -> tuple[set[str], set[int]]:
        kinds: set[str] = set()
        closes: set[int] = set()
        for _round in range(30):
            path = rng.choice(ENDPOINTS)
            ws = await session.ws_connect(base + path)
            if path == "/ws/board":
                await receive(ws, "state")
            for _ in range(rng.randrange(1, 12)):
                frame = _frame(rng)
                await (ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_str(frame))
                reply = await receive(ws)
                kinds.add(reply["type"])
                if reply["type"] == "closed":
                    closes.add(reply["code"])
                    break
                if reply["type"] in ("welcome", "seat", "state", "host"):
                    continue
                assert reply["type"] == "refused" and reply["why"], reply
            await ws.close()
        return kinds, closes

    with caplog.at_level(logging.DEBUG):
        kinds, closes = talk(server, script)
    assert "refused" in kinds
    assert closes <= {4001, 1009}  # a wrong seat token, a frame over the size limit
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert list(box.engine.hands[0]) == hand  # no guess was a move

    async def after(session: aiohttp.ClientSession, base: str) -> str:
        ws = await session.ws_connect(base + "/ws/seat")
        await ws.send_json({"type": "hello", "seat": 0, "token": server.seats.token(0)})
        return (await receive(ws))["type"]

    assert talk(server, after) == "welcome"
    assert MAX_MESSAGE_BYTES == 2048


def test_malformed_requests_are_a_few_counted_lines_not_tracebacks(
        served: tuple[Box, CompanionServer], caplog: pytest.LogCaptureFixture) -> None:
    """Issue 48: 2,000 malformed requests put 2,000 aiohttp tracebacks in the log."""
    box, server = served
    bad = [b"GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n",
           b"GET /\x00 HTTP/1.1\r\n\r\n"]

    async def main() -> list[bytes]:
        answers = []
        for i in range(60):
            reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
            writer.write(bad[i % len(bad)])
            answers.append(await reader.read())
            writer.close()
        return answers

    with caplog.at_level(logging.DEBUG):
        answers = asyncio.run(main())
    assert all(a.startswith(b"HTTP/1.0 400") or a.startswith(b"HTTP/1.1 400") for a in answers), answers[:3]
    assert not [r for r in caplog.records if r.exc_info]  # no traceback
    said = [r.getMessage() for r in caplog.records if "malformed" in r.getMessage()]
    assert len(said) == server.quiet.burst + 1 and "left out" in said[-1], said
    assert "Content-Length" in " ".join(said)  # each line names what was wrong
