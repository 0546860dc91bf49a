"""The phones' server's rules behind the player page's fixes, over real sockets:
a phone asking for a held seat may choose another seat instead (its ask
leaves the host page), an ask the host leaves unanswered lapses and its
phone is told so; a team's name typed on a phone passes the same check as
the host page's and the menu's (``games.glyphs.name_refusal``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.box.views import messages
from controller.web.guard import Limits
from controller.web.seats import Seats
from controller.web.server import CompanionServer
from games import registry
from games.glyphs import name_refusal
from games.i18n import set_language
from tests.web.test_seat_attacks import (
    ATTACKER,
    PHONE,
    Clock,
    asks_seen,
    hello,
    host_page,
    run,
    take,
)
from tests.web.test_security import receive

#: a lapse far beyond any test's run (the asks that must not lapse) and one that comes at once
NEVER_S, AT_ONCE_S = 3600.0, 0.0


def started(game: str, players: int, ask_s: float, **options: Any) -> Iterator[CompanionServer]:
    with registry.register("hands", "tests.web.hands"):
        spec = registry.get(game)
        server = box_server(Box(spec, spec.settings(players, seed=3, **options)), port=0, bind="127.0.0.1",
                            address="127.0.0.1", seats=Seats(players, clock=Clock()), limits=Limits(ask_s=ask_s))
        server.start()
        yield server
        server.stop()


@pytest.fixture
def patient() -> Iterator[CompanionServer]:
    """Four seats of the test game; a host who may take all evening to answer an ask."""
    set_language("en")
    yield from started("hands", 4, NEVER_S)


@pytest.fixture
def hasty() -> Iterator[CompanionServer]:
    """Four seats of the test game; an ask lapses the moment it is made."""
    set_language("en")
    yield from started("hands", 4, AT_ONCE_S)


@pytest.fixture
def teams() -> Iterator[CompanionServer]:
    """A team quiz's lobby: four seats, two teams to name on the phones."""
    set_language("en")
    yield from started("quiz", 4, NEVER_S, rules="teams")


def test_a_phone_asking_for_a_held_seat_takes_a_free_one_instead_and_its_ask_leaves_the_host_page(
        patient: CompanionServer) -> None:
    server = patient

    async def script(connect: Any) -> dict[str, Any]:
        owner = await connect(PHONE)
        got = await take(owner, 0)
        await hello(owner, 0, got["token"])
        host = await host_page(connect, server)
        asker = await connect(ATTACKER)
        asked = await take(asker, 0)
        listed = await asks_seen(host, 1)
        again = await take(asker, 0)  # the same seat again: the same code, nothing new
        moved = await take(asker, 2)  # another seat: the ask is withdrawn, the free seat taken
        left = await asks_seen(host, 0)
        welcome = await hello(asker, 2, moved["token"])
        return {"asked": asked, "listed": listed, "again": again, "moved": moved["type"], "left": left,
                "welcome": welcome["type"]}

    out = run(server, script)
    assert out["asked"]["type"] == "asked" and out["listed"] == [{"seat": 0, "code": out["asked"]["code"]}]
    assert out["again"] == out["asked"]
    assert out["moved"] == "granted" and out["left"] == [] and out["welcome"] == "welcome"


def test_a_phone_asking_for_one_held_seat_may_ask_for_another_instead(patient: CompanionServer) -> None:
    server = patient

    async def script(connect: Any) -> dict[str, Any]:
        for seat in (0, 1):
            owner = await connect(PHONE)
            await hello(owner, seat, (await take(owner, seat))["token"])
        host = await host_page(connect, server)
        asker = await connect(ATTACKER)
        first = await take(asker, 0)
        await asks_seen(host, 1)
        second = await take(asker, 1)
        while (listed := await asks_seen(host, 1))[0]["seat"] != 1:
            pass
        return {"first": first["type"], "second": second, "listed": listed}

    out = run(server, script)
    assert out["first"] == "asked" and out["second"]["type"] == "asked"  # the old code refused: "asks already"
    assert out["listed"] == [{"seat": 1, "code": out["second"]["code"]}]  # one ask a phone, for the seat it chose last


def test_an_ask_the_host_leaves_unanswered_lapses_and_its_phone_may_ask_again(hasty: CompanionServer) -> None:
    server = hasty

    async def script(connect: Any) -> dict[str, Any]:
        owner = await connect(PHONE)
        await hello(owner, 0, (await take(owner, 0))["token"])
        host = await host_page(connect, server)
        asker = await connect(ATTACKER)
        asked = await take(asker, 0)
        told = await receive(asker, "denied")
        await asks_seen(host, 0)
        again = await take(asker, 0)
        return {"asked": asked["type"], "told": told, "again": again["type"]}

    out = run(server, script)
    assert out["asked"] == "asked" and out["again"] == "asked"
    assert out["told"] == {"type": "denied", "seat": 0, "why": messages()["ask_lapsed"]}


def test_a_team_name_typed_on_a_phone_passes_the_host_page_s_check_of_what_the_tv_can_draw(
        teams: CompanionServer) -> None:
    server = teams

    async def script(connect: Any) -> list[dict[str, Any]]:
        phone = await connect(PHONE)
        await hello(phone, 0, server.seats.token(0))
        said = []
        for seq, name in enumerate(["🐦", "Sýkorky 🐦", "Sýkorky"], start=1):
            await phone.send_json({"type": "move", "kind": "team", "args": {"team": 0, "name": name}, "seq": seq})
            said.append(await receive(phone, "refused" if seq < 3 else "ok"))
        return said

    out = run(server, script)
    assert out[0] == {"type": "refused", "why": name_refusal("🐦")}
    assert out[1] == {"type": "refused", "why": name_refusal("🐦")}
    assert out[2]["type"] == "ok"  # a name the TV draws is handed to the game (which names the team)
