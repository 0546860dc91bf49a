"""The bell stays on the stations: for each game with phones, the action a
station's button stands for (Fiki Miki's ring, Pictomania's done,
Piepmatz's confirm) is never offered to a phone and is refused when a phone
sends it, at a moment the engine would take it from the station; the
station's own button still does it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box.inputs import HOST_STATION
from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.timeline import box_now_us
from controller.box.views import station_kinds
from controller.web.server import CompanionServer
from games import registry
from games.base import Action
from tests.web.test_security import join, receive, settle, talk


def _fiki_miki(box: Box) -> None:
    """Variant I: every seat may ring for the stack at any time."""


def _pictomania(box: Box) -> None:
    box.press(Press(HOST_STATION, "arm", box_now_us() + box.time_offset_us))  # the host deals: drawing starts
    settle(box)
    assert box.engine.phase.value == "drawing"


def _piepmatz(box: Box) -> None:
    """A move held for seat 0 (as a shared phone holds it): the station's confirm would play it."""
    move = box.engine.legal_moves(0)[0].to_json()
    box.deliver_action(Action("propose", box_now_us() + box.time_offset_us, 0,
                              {"move": {"kind": move["kind"], "args": move["args"]}}, 100_000))
    settle(box)
    assert 0 in box.engine.proposed


GAMES: list[tuple[str, dict[str, Any], str, Callable[[Box], None], str]] = [
    ("fiki-miki", {"variant": "I"}, "ring", _fiki_miki, "wrong"),  # a ring with no stack to claim is judged wrong
    ("pictomania", {}, "done", _pictomania, "bonus"),
    ("piepmatz", {}, "confirm", _piepmatz, "confirmed"),
]


@pytest.fixture(params=GAMES, ids=[g[0] for g in GAMES])
def game(request: pytest.FixtureRequest) -> Iterator[tuple[Box, CompanionServer, str, str]]:
    name, options, kind, prepare, event = request.param
    spec = registry.get(name)
    box = Box(spec, spec.settings(3, seed=5, **options))
    server = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()
    prepare(box)
    with box.lock:
        server.publisher.publish()
    yield box, server, kind, event
    server.stop()


def test_no_phone_can_ring_or_stand_in_for_a_station_button(game: tuple[Box, CompanionServer, str, str]) -> None:
    box, server, kind, event = game
    assert kind in station_kinds(box.spec)
    assert kind in box.engine.legal_actions(0) or 0 in getattr(box.engine, "proposed", {})  # the station could now

    async def script(session: aiohttp.ClientSession, base: str) -> tuple[list[str], dict[str, Any]]:
        ws = await join(session, base, 0, server.seats.token(0))
        offered = [m["kind"] for m in json.loads(server.publisher.latest.seats[0])["moves"]]
        await ws.send_json({"type": "move", "kind": kind, "args": {}, "seq": 1})
        return offered, await receive(ws, "refused")

    offered, refused = talk(server, script)
    assert kind not in offered
    assert "station's button" in refused["why"]
    settle(box)
    assert not [e for e in box.event_log if e.kind == event and e.player == 0]
    pressed = box_now_us() + box.time_offset_us
    box.press(Press(0, "bell", pressed))  # the station's own bell does it
    settle(box)
    box.step(pressed + 1_000_000)  # past any guard and window the press waits for
    assert [e for e in box.event_log if e.kind == event and e.player == 0]

