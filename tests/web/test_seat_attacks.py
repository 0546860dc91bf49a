"""Issue 48's attacks on the seat picker, rerun over real sockets from
several loopback addresses: a script that grabs every seat without joining,
one that re-takes a seat the moment the host gives it a new code, and one
that re-asks for a held seat over and over. Each time the real phone ends
with its seat and the attacker with none.

The take deadline runs on the seats' injected clock: a test moves it on
instead of waiting."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.web.guard import Limits
from controller.web.seats import Seats
from controller.web.server import CLOSE_REFUSED, CompanionServer
from games import registry
from tests.web.test_security import receive

ATTACKER, PHONE, HOST = "127.0.0.2", "127.0.0.3", "127.0.0.4"


class Clock:
    """The seats' clock, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def four() -> Iterator[tuple[CompanionServer, Clock]]:
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get("hands")
        clock = Clock()
        server = box_server(Box(spec, spec.settings(4, seed=3)), port=0, bind="127.0.0.1", address="127.0.0.1",
                                 seats=Seats(4, clock=clock), limits=Limits(take_s=5.0))
        server.start()
        yield server, clock
        server.stop()


def run(server: CompanionServer, script: Any) -> Any:
    """``script(connect)``: ``connect(address, path)`` opens a socket from that loopback address."""
    async def main() -> Any:
        sessions: list[aiohttp.ClientSession] = []

        async def connect(address: str, path: str = "/ws/seat") -> aiohttp.ClientWebSocketResponse:
            session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0)))
            sessions.append(session)
            return await session.ws_connect(f"http://127.0.0.1:{server.port}{path}")

        try:
            return await script(connect)
        finally:
            for session in sessions:
                await session.close()
    return asyncio.run(main())


async def hello(ws: aiohttp.ClientWebSocketResponse, seat: int, token: str) -> dict[str, Any]:
    await ws.send_json({"type": "hello", "seat": seat, "token": token})
    return await receive(ws)


async def take(ws: aiohttp.ClientWebSocketResponse, seat: int) -> dict[str, Any]:
    """A tap on a seat of the picker: the box's answer (granted, asked or refused)."""
    await ws.send_json({"type": "take", "seat": seat})
    while True:
        answer = await receive(ws)
        if answer["type"] != "pick":
            return answer


async def host_page(connect: Any, server: CompanionServer) -> aiohttp.ClientWebSocketResponse:
    host = await connect(HOST, "/ws/host")
    await host.send_json({"type": "hello", "pin": server.seats.pin})
    assert (await receive(host, "welcome"))["type"] == "welcome"
    return host


async def asks_seen(host: aiohttp.ClientWebSocketResponse, count: int) -> list[dict[str, Any]]:
    """The host page's list of asks, once it shows ``count`` of them."""
    while True:
        news = await receive(host, "seats")
        if len(news["asks"]) == count:
            return list(news["asks"])


def held_by(server: CompanionServer, tokens: list[tuple[int, str]]) -> list[int]:
    """The seats whose current token is one of ``tokens`` (what a phone was handed)."""
    return [seat for seat, token in tokens if server.seats.token(seat) == token]


def test_one_picker_socket_without_a_hello_gets_one_seat_for_seconds_and_the_phone_gets_its_own(
        four: tuple[CompanionServer, Clock]) -> None:
    server, clock = four

    async def script(connect: Any) -> dict[str, Any]:
        bot = await connect(ATTACKER)
        answers = [await take(bot, seat) for seat in range(4)]
        grabbed = [(a["seat"], a["token"]) for a in answers if a["type"] == "granted"]
        clock.now += 6.0  # the grabbed seat's phone never said hello in time
        phone = await connect(PHONE)
        await phone.send_json({"type": "seats"})
        listed = await receive(phone, "pick")
        got = await take(phone, 0)
        welcome = await hello(phone, 0, got["token"])
        late = await hello(await connect(ATTACKER), grabbed[0][0], grabbed[0][1])  # the bot's token stopped working
        again = await take(await connect(ATTACKER), 1)  # its address waits before taking again
        return {"answers": [a["type"] for a in answers], "free": [s["free"] for s in listed["seats"]],
                "welcome": welcome["type"], "late": late["type"], "again": again["type"],
                "bot holds": held_by(server, grabbed), "joined": server.joined()}

    out = run(server, script)
    assert out["answers"] == ["granted", "refused", "refused", "refused"]
    assert out["free"] == [True] * 4  # the lapsed take is free again by itself
    assert out["welcome"] == "welcome" and out["joined"] == [True, False, False, False]
    assert out["late"] == "refused" and out["again"] == "refused"
    assert out["bot holds"] == []


def test_a_seat_given_a_new_code_is_not_retaken_by_a_waiting_picker_the_host_chooses_by_code(
        four: tuple[CompanionServer, Clock]) -> None:
    server, clock = four

    async def script(connect: Any) -> dict[str, Any]:
        host = await host_page(connect, server)
        bot = await connect(ATTACKER)
        granted = await take(bot, 0)  # the bot sat down first (said hello: it looks like a person)
        assert (await hello(bot, 0, granted["token"]))["type"] == "welcome"
        picker = await connect(ATTACKER)  # and keeps a picker open to grab the seat again
        await picker.send_json({"type": "seats"})
        await receive(picker, "pick")
        await host.send_json({"type": "reissue", "seat": 0, "seq": 1})  # the host takes the seat back
        closed = await receive(bot, "closed")
        regrab = await take(picker, 0)  # at once: before a person could tap
        phone = await connect(PHONE)
        mine = await take(phone, 0)
        asks = await asks_seen(host, 2)
        await host.send_json({"type": "approve", "seat": 0, "code": mine["code"], "seq": 2})
        given = await receive(phone, "granted")
        welcome = await hello(phone, 0, given["token"])
        told = await receive(picker, "denied")
        return {"closed": closed["code"], "regrab": regrab["type"], "mine": mine["type"],
                "codes": sorted(a["code"] for a in asks), "want": sorted([regrab.get("code"), mine["code"]]),
                "welcome": welcome["type"], "told": told["why"], "joined": server.joined(),
                "bot holds": held_by(server, [(0, granted["token"])])}

    out = run(server, script)
    assert out["closed"] == CLOSE_REFUSED
    assert out["regrab"] == "asked" and out["mine"] == "asked"  # a re-issued seat goes by the host's choice
    assert out["codes"] == out["want"]  # the host page shows each ask with the code its phone shows
    assert out["welcome"] == "welcome" and out["joined"][0]
    assert "another phone" in out["told"]  # the other asker learns the outcome
    assert out["bot holds"] == []


def test_re_asking_again_and_again_does_not_win_the_host_gives_the_seat_to_the_code_shown(
        four: tuple[CompanionServer, Clock]) -> None:
    server, clock = four

    async def script(connect: Any) -> dict[str, Any]:
        host = await host_page(connect, server)
        old = await connect(PHONE)  # the player's first phone, now lost in a bag
        first = await take(old, 0)
        assert (await hello(old, 0, first["token"]))["type"] == "welcome"
        phone = await connect(PHONE)
        mine = await take(phone, 0)
        bots = [await connect(ATTACKER) for _ in range(4)]
        bot_answers = []
        for _round in range(5):  # re-asking as fast as it can, from every socket
            for bot in bots:
                bot_answers.append(await take(bot, 0))
        asks = await asks_seen(host, 1 + 2)  # the phone's ask and two of the bot's address: no more
        await host.send_json({"type": "approve", "seat": 0, "code": mine["code"], "seq": 1})
        given = await receive(phone, "granted")
        welcome = await hello(phone, 0, given["token"])
        told = [await receive(bot, "denied") for bot in bots[:2]]
        codes = {a.get("code") for a in bot_answers if a["type"] == "asked"}
        return {"asks": len(asks), "bot codes": codes, "mine": mine["code"], "welcome": welcome["type"],
                "told": [t["type"] for t in told], "refused": sum(a["type"] == "refused" for a in bot_answers),
                "joined": server.joined(), "bot holds": [s for s in range(4) if server.joined()[s] and s != 0]}

    out = run(server, script)
    assert out["asks"] == 3 and len(out["bot codes"]) == 2  # a socket re-asking keeps its one code
    assert out["mine"] not in out["bot codes"]
    assert out["refused"] == 5 * 2  # the address's third and fourth sockets may not ask
    assert out["welcome"] == "welcome" and out["told"] == ["denied", "denied"]
    assert out["joined"] == [True, False, False, False] and out["bot holds"] == []


def test_the_big_screen_lists_only_seats_a_phone_can_take(four: tuple[CompanionServer, Clock]) -> None:
    """A seat whose phone slept is held (the picker says "ask the host"): the TV's
    "scan to join" no longer offers it as free."""
    from benchmarks.companion_box import show_on

    server, clock = four
    overlay = show_on(server, [])

    async def script(connect: Any) -> list[bool]:
        phone = await connect(PHONE)
        got = await take(phone, 0)
        assert (await hello(phone, 0, got["token"]))["type"] == "welcome"
        await phone.close()
        picker = await connect(PHONE)
        while True:  # the picker shows it held once the box saw the phone go
            await picker.send_json({"type": "seats"})
            listed = await receive(picker, "pick")
            if not listed["seats"][0]["joined"]:
                return [s["free"] for s in listed["seats"]]

    free = run(server, script)
    assert free == [False, True, True, True]
    assert overlay.waiting() == (1, 2, 3)


def test_a_quiz_on_the_buttons_offers_no_seat_on_the_picker() -> None:
    spec = registry.get("quiz")
    server = box_server(Box(spec, spec.settings(3)), port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()
    try:
        async def script(connect: Any) -> tuple[dict[str, Any], dict[str, Any]]:
            phone = await connect(PHONE)
            await phone.send_json({"type": "seats"})
            return await receive(phone, "pick"), await take(phone, 0)

        listed, taken = run(server, script)
    finally:
        server.stop()
    assert listed["seats"] == [] and taken["type"] == "refused"


def test_asks_repeated_by_one_socket_reach_the_host_page_once(four: tuple[CompanionServer, Clock]) -> None:
    """Issue 48: 3,000 takes pushed 3,000 updates to every host page."""
    server, clock = four

    async def script(connect: Any) -> list[dict[str, Any]]:
        host = await host_page(connect, server)
        owner = await connect(PHONE)
        got = await take(owner, 0)
        assert (await hello(owner, 0, got["token"]))["type"] == "welcome"
        bot = await connect(ATTACKER)
        answers = [await take(bot, 0) for _ in range(300)]
        assert {a.get("code") for a in answers} == {answers[0]["code"]}  # one ask, one code, however often
        await host.send_json({"type": "deny", "seat": 0, "code": answers[0]["code"], "seq": 1})
        await receive(bot, "denied")
        seen = []
        while not seen or seen[-1]["asks"]:  # every push up to the one after the host's answer
            seen.append(await receive(host, "seats"))
        return seen

    seen = run(server, script)
    assert sum(1 for news in seen if news["asks"]) <= 1


def test_wrong_pins_from_one_address_are_on_the_host_page_and_another_address_logs_in(
        four: tuple[CompanionServer, Clock]) -> None:
    server, clock = four

    async def script(connect: Any) -> tuple[dict[str, Any], str, str]:
        host = await host_page(connect, server)
        guesser = await connect(ATTACKER, "/ws/host")
        for _ in range(5):
            await guesser.send_json({"type": "hello", "pin": "000000"})
            await receive(guesser, "refused")
        await guesser.send_json({"type": "hello", "pin": server.seats.pin})  # even the right PIN waits now
        locked = (await receive(guesser, "refused"))["why"]
        while not (news := await receive(host, "seats"))["lockouts"]:
            pass
        other = await connect(PHONE, "/ws/host")  # the host's own phone, woken: another address
        await other.send_json({"type": "hello", "pin": server.seats.pin})
        return news, locked, (await receive(other, "welcome"))["type"]

    news, locked, welcome = run(server, script)
    assert list(news["lockouts"]) == [ATTACKER] and "wait" in locked
    assert welcome == "welcome"
