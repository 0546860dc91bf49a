"""A bar's guest Wi-Fi is hostile: what a phone may and may not do, over the
real WebSocket (aiohttp's client, no browser needed). Every refusal is one
JSON line saying why, and nothing in the game changes."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.box.timeline import box_now_us
from controller.web.seats import PIN_TRIES
from controller.web.server import (
    CLOSE_REFUSED,
    MAX_MESSAGE_BYTES,
    MAX_SOCKETS_PER_ADDRESS,
    WEB_PRECISION_US,
    CompanionServer,
    Refused,
    parse,
)
from games import registry
from tests.processes import HANG_S

Client = Callable[[Callable[[aiohttp.ClientSession, str], Awaitable[Any]]], Any]


@pytest.fixture
def hands() -> Iterator[tuple[Box, CompanionServer]]:
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get("hands")
        box = Box(spec, spec.settings(2, seed=3))
        server = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
        server.start()
        yield box, server
        server.stop()


@pytest.fixture
def quiz() -> Iterator[tuple[Box, CompanionServer]]:
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3))
    server = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()
    yield box, server
    server.stop()


def talk(server: CompanionServer, script: Callable[[aiohttp.ClientSession, str], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with aiohttp.ClientSession() as session:
            return await script(session, f"http://127.0.0.1:{server.port}")
    return asyncio.run(main())


async def receive(ws: aiohttp.ClientWebSocketResponse, kind: str | None = None) -> dict[str, Any]:
    """The next message (of ``kind``), skipping view updates in between."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), HANG_S)
        if msg.type == aiohttp.WSMsgType.CLOSE:
            return {"type": "closed", "code": msg.data}
        if msg.type != aiohttp.WSMsgType.TEXT:
            return {"type": "closed", "code": ws.close_code}
        data = json.loads(msg.data)
        if kind is None or data["type"] == kind:
            return data


async def join(session: aiohttp.ClientSession, base: str, seat: int, token: str) -> aiohttp.ClientWebSocketResponse:
    ws = await session.ws_connect(f"{base}/ws/seat")
    await ws.send_json({"type": "hello", "seat": seat, "token": token})
    assert (await receive(ws))["type"] == "welcome"
    assert (await receive(ws))["type"] == "seat"
    return ws


def settle(box: Box, stamped_by_us: int | None = None) -> None:
    """What the loop does each frame, until the box has decided everything that reached it
    before this call, or stamped up to ``stamped_by_us`` (box clock) if later (its inbox taken,
    the decision guard and any debouncing passed), or the host paused it: waiting for the
    box's horizon, never for a timer a busy machine outruns."""
    arrived_by = max(box_now_us(), stamped_by_us or 0) + box.time_offset_us
    give_up = time.monotonic() + HANG_S
    while True:
        box.step(box_now_us() + box.time_offset_us)
        if box.horizon_us >= arrived_by or box.paused or box.host_paused:
            return
        assert time.monotonic() < give_up, "the box never decided what reached it"
        time.sleep(0.005)  # polling the box's horizon, not pacing the test


def first_card(box: Box, seat: int) -> int:
    return int(box.engine.hands[seat][0])


def test_a_seat_plays_its_move_stamped_on_arrival_with_the_web_precision(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands
    card = first_card(box, 0)

    async def script(session: aiohttp.ClientSession, base: str) -> dict[str, Any]:
        ws = await join(session, base, 0, server.seats.token(0))
        before = box_now_us()
        await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": 1})
        ok = await receive(ws, "ok")
        return {"ok": ok, "before": before, "after": box_now_us()}

    out = talk(server, script)
    assert out["ok"]["seq"] == 1
    settle(box)
    played = [e for e in box.event_log if e.kind == "played"]
    assert [(e.player, e.data["card"]) for e in played] == [(0, card)]
    assert out["before"] <= played[0].t_us <= out["after"]  # stamped when it reached the box
    assert WEB_PRECISION_US == 100_000


def test_a_wrong_token_or_another_seats_token_is_refused_and_the_socket_closed(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        out = []
        for seat, token in ((0, "x" * 24), (1, server.seats.token(0)), (5, server.seats.token(0)), ("0", server.seats.token(0))):
            ws = await session.ws_connect(f"{base}/ws/seat")
            await ws.send_json({"type": "hello", "seat": seat, "token": token})
            out.append(await receive(ws))
            out.append(await receive(ws))
        return out

    replies = talk(server, script)
    for refusal, closed in zip(replies[::2], replies[1::2], strict=True):
        assert refusal["type"] == "refused" and "no longer valid" in refusal["why"]
        assert closed == {"type": "closed", "code": CLOSE_REFUSED}
    assert server.joined() == [False, False]


def test_a_seat_cannot_act_for_another_seat_out_of_turn_or_twice(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands
    mine, theirs = first_card(box, 0), first_card(box, 1)

    async def script(session: aiohttp.ClientSession, base: str) -> list[str]:
        a = await join(session, base, 0, server.seats.token(0))
        b = await join(session, base, 1, server.seats.token(1))
        whys = []
        # seat 1 names seat 0 as the player / plays seat 0's card / plays out of turn
        for msg in ({"type": "move", "kind": "play", "args": {"card": mine}, "seq": 1, "player": 0},
                    {"type": "move", "kind": "play", "args": {"card": mine}, "seq": 2},
                    {"type": "move", "kind": "play", "args": {"card": theirs}, "seq": 3}):
            await b.send_json(msg)
            whys.append((await receive(b, "refused"))["why"])
        await a.send_json({"type": "move", "kind": "play", "args": {"card": mine}, "seq": 1})
        await receive(a, "ok")
        await a.send_json({"type": "move", "kind": "play", "args": {"card": mine}, "seq": 1})  # replayed
        whys.append((await receive(a, "refused"))["why"])
        return whys

    whys = talk(server, script)
    assert "unknown fields: player" in whys[0]
    assert "not a move you can make now" in whys[1] and "not a move you can make now" in whys[2]
    assert "already received" in whys[3]
    settle(box)
    assert [(e.player, e.data["card"]) for e in box.event_log if e.kind == "played"] == [(0, mine)]


def test_oversized_malformed_and_unknown_messages_get_a_clear_refusal_and_change_nothing(
        hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands
    hand = list(box.engine.hands[0])

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        ws = await join(session, base, 0, server.seats.token(0))
        out = []
        for text in ("{not json", "[1, 2]", '"move"', '{"kind": "play"}', '{"type": "dance", "seq": 1}',
                     json.dumps({"type": "move", "kind": "play", "args": {"card": "x" * (MAX_MESSAGE_BYTES + 10)},
                                 "seq": 1}),
                     json.dumps({"type": "move", "kind": "play", "args": [1], "seq": 1}),
                     json.dumps({"type": "move", "kind": "play", "args": {"card": {"deep": 1}}, "seq": 1}),
                     json.dumps({"type": "move", "kind": "play", "args": {"card": hand[0]}, "seq": -1}),
                     json.dumps({"type": "move", "kind": "play", "args": {"card": hand[0]}, "seq": True})):
            await ws.send_str(text)
            out.append(await receive(ws))
        await ws.send_bytes(b"\x00\x01")
        out.append(await receive(ws))
        await ws.send_str("x" * (20 * MAX_MESSAGE_BYTES))  # far too big: the socket is closed (1009)
        out.append(await receive(ws))
        return out

    replies = talk(server, script)
    assert [r["type"] for r in replies[:-1]] == ["refused"] * 11
    whys = [r["why"] for r in replies[:-1]]
    assert "not JSON" in whys[0] and '"type"' in whys[1] and '"type"' in whys[2] and '"type"' in whys[3]
    assert 'unknown message "dance"' in whys[4]
    assert "too long" in whys[5]
    assert '"args"' in whys[6] and '"args"' in whys[7]
    assert '"seq"' in whys[8] and '"seq"' in whys[9]
    assert "text" in whys[10]
    assert replies[-1] == {"type": "closed", "code": 1009}
    settle(box)
    assert list(box.engine.hands[0]) == hand and not box.engine.played


def test_the_host_page_needs_the_pin_and_guessing_it_locks_the_address_out(quiz: tuple[Box, CompanionServer]) -> None:
    box, server = quiz

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        ws = await session.ws_connect(f"{base}/ws/host")
        out = []
        await ws.send_json({"type": "host", "action": "arm", "seq": 1})  # no PIN given
        out.append(await receive(ws))
        wrong = "000000" if server.seats.pin != "000000" else "111111"
        for _ in range(PIN_TRIES):
            await ws.send_json({"type": "hello", "pin": wrong})
            out.append(await receive(ws))
        await ws.send_json({"type": "hello", "pin": server.seats.pin})  # right, but too late
        out.append(await receive(ws))
        await ws.send_json({"type": "host", "action": "arm", "seq": 2})
        out.append(await receive(ws))
        return out

    replies = talk(server, script)
    assert all(r["type"] == "refused" for r in replies)
    assert "PIN" in replies[0]["why"]
    assert all("Wrong PIN" in r["why"] for r in replies[1:-2])
    assert "Too many wrong PINs" in replies[-2]["why"]
    settle(box)
    assert box.engine.public_view()["phase"] == "idle"  # never armed


def test_the_host_arms_and_a_repeated_host_message_is_refused(quiz: tuple[Box, CompanionServer]) -> None:
    box, server = quiz

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        ws = await session.ws_connect(f"{base}/ws/host")
        await ws.send_json({"type": "hello", "pin": server.seats.pin})
        assert (await receive(ws))["type"] == "welcome"
        await ws.send_json({"type": "host", "action": "arm", "seq": 1})
        out = [await receive(ws, "ok")]
        for msg in ({"type": "host", "action": "arm", "seq": 1}, {"type": "host", "action": "explode", "seq": 2}):
            await ws.send_json(msg)
            out.append(await receive(ws, "refused"))
        return out

    ok, replayed, unknown = talk(server, script)
    assert ok["seq"] == 1 and "already received" in replayed["why"] and "no such host button" in unknown["why"]
    settle(box)
    assert box.engine.public_view()["phase"] == "armed"


def test_a_second_host_page_counts_its_own_taps(quiz: tuple[Box, CompanionServer]) -> None:
    """Two hosts (a co-host's phone): each socket counts its own messages, so
    page B's first tap after page A sent three is not taken for a replay."""
    box, server = quiz

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        first = await session.ws_connect(f"{base}/ws/host")
        second = await session.ws_connect(f"{base}/ws/host")
        for ws in (first, second):
            await ws.send_json({"type": "hello", "pin": server.seats.pin})
            await receive(ws, "welcome")
        for seq, action in enumerate(("pause", "continue", "pause"), 1):
            await first.send_json({"type": "host", "action": action, "seq": seq})
            await receive(first, "ok")
            settle(box)
        await second.send_json({"type": "host", "action": "continue", "seq": 1})
        out = [await receive(second, "ok")]
        await second.send_json({"type": "host", "action": "continue", "seq": 1})  # a true resend on B's socket
        out.append(await receive(second, "refused"))
        return out

    ok, replayed = talk(server, script)
    assert ok["seq"] == 1 and "already received" in replayed["why"]
    settle(box)
    assert not box.host_paused


def test_reissuing_a_seat_stops_the_old_token_at_once(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands
    old = server.seats.token(0)

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        phone = await join(session, base, 0, old)
        host = await session.ws_connect(f"{base}/ws/host")
        await host.send_json({"type": "hello", "pin": server.seats.pin})
        await receive(host, "welcome")
        await host.send_json({"type": "reissue", "seat": 0, "seq": 1})
        await receive(host, "ok")
        out = [await receive(phone, "refused"), await receive(phone, "closed")]
        again = await session.ws_connect(f"{base}/ws/seat")
        await again.send_json({"type": "hello", "seat": 0, "token": old})
        out.append(await receive(again))
        fresh = await join(session, base, 0, server.seats.token(0))
        await fresh.send_json({"type": "move", "kind": "play", "args": {"card": first_card(box, 0)}, "seq": 1})
        out.append(await receive(fresh, "ok"))
        return out

    refused, closed, again, ok = talk(server, script)
    assert "no longer valid" in refused["why"] and closed["code"] == CLOSE_REFUSED
    assert again["type"] == "refused"
    assert ok["seq"] == 1 and server.seats.token(0) != old


def test_a_hundred_reconnects_keep_the_seat_and_the_connection_limit_holds(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands

    async def script(session: aiohttp.ClientSession, base: str) -> dict[str, Any]:
        for _ in range(100):  # a phone sleeping and waking, over and over
            ws = await join(session, base, 1, server.seats.token(1))
            await ws.close()
        ws = await join(session, base, 1, server.seats.token(1))
        joined_after = server.joined()
        extra = [await session.ws_connect(f"{base}/ws/board") for _ in range(MAX_SOCKETS_PER_ADDRESS + 4)]
        gone = len(extra) - server.limits.waiting_per_address  # the oldest boards made room for the newest
        firsts = [[(await receive(board))["type"], (await receive(board)).get("full")] for board in extra[:gone]]
        most = max(server._per_address.values())
        still = server.joined()
        for other in extra:
            await other.close()
        await ws.close()
        return {"joined": joined_after, "firsts": firsts, "most": most, "still": still}

    out = talk(server, script)
    assert out["joined"] == [False, True]
    assert out["firsts"] == [["state", True]] * (MAX_SOCKETS_PER_ADDRESS + 4 - server.limits.waiting_per_address)
    assert out["still"] == [False, True]  # the joined phone was never closed for room
    assert out["most"] <= server.limits.waiting_per_address + 1  # the boards and the one joined phone
    deadline = time.monotonic() + HANG_S  # a hang guard: the server's thread counts them back as it sees them close
    while server._per_address:
        assert time.monotonic() < deadline, f"closed sockets never counted back: {server._per_address}"
        time.sleep(0.01)  # polling the server's count


def test_a_page_from_another_site_cannot_open_a_socket(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands

    async def script(session: aiohttp.ClientSession, base: str) -> int:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await session.ws_connect(f"{base}/ws/board", headers={"Origin": "http://evil.example"})
        return refused.value.status

    assert talk(server, script) == 403


def test_the_scoreboard_is_read_only(hands: tuple[Box, CompanionServer]) -> None:
    box, server = hands

    async def script(session: aiohttp.ClientSession, base: str) -> list[dict[str, Any]]:
        ws = await session.ws_connect(f"{base}/ws/board")
        state = await receive(ws)
        await ws.send_json({"type": "host", "action": "arm", "seq": 1})
        return [state, await receive(ws)]

    state, refused = talk(server, script)
    assert state["type"] == "state" and state["v"] == 1 and [p["seat"] for p in state["players"]] == [0, 1]
    text = json.dumps(state)
    assert not [c for hand in box.engine.hands for c in hand if str(c) in text]  # no card on the public stream
    assert refused["type"] == "refused" and "read-only" in refused["why"]


def test_parse_fuzz_never_raises_anything_but_a_refusal() -> None:
    """Seeded and time-bounded: random bytes and JSON shapes are a dict with a type, or Refused."""
    rng = random.Random(16)
    shapes: list[Any] = [None, 1, "x", [], {}, {"type": 1}, {"type": "move"}, {"type": "hello", "seat": "0"}]
    n = 0
    while n < 3000:  # a fixed number of seeded cases
        n += 1
        if rng.random() < 0.5:
            text: str | bytes = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
        else:
            text = json.dumps(rng.choice(shapes))[: rng.randrange(1, 40)]
        try:
            data = parse(text)
        except Refused as exc:
            assert str(exc)
        else:
            assert isinstance(data, dict) and isinstance(data["type"], str)
    assert n > 100
