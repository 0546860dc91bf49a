"""A player's phone answers an all-play question through the companion
pages: offered one move per choice while the question is open, its pick
locked in like a station's, stamped on arrival with the web's precision."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import aiohttp
import pytest

from benchmarks.companion_box import box_server
from controller.box.runtime import Box
from controller.box.timeline import box_now_us
from controller.web.server import WEB_PRECISION_US, CompanionServer
from games import registry
from games.quiz import PACKS_DIR
from tests.processes import HANG_S
from tests.web.test_security import join, receive, talk

SPEC = registry.get("quiz")


@pytest.fixture
def quiz_box() -> Iterator[tuple[Box, CompanionServer]]:
    settings = SPEC.settings(3, 1, pack=str(PACKS_DIR / "en-general.csv"), rounds=[{"rules": "all-play"}])
    box = Box(SPEC, settings)
    server = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()
    box.host("arm", box_now_us() + box.time_offset_us)
    with box.lock:
        server.publisher.publish()
    yield box, server
    server.stop()


def until_locked_in(box: Box, seat: int) -> None:
    """Step the box (as its loop does each frame) until the phone's pick is in."""
    deadline = time.monotonic() + HANG_S  # a bound against a hang, not a timing claim
    while time.monotonic() < deadline:
        box.step(box_now_us() + box.time_offset_us)
        if any(e.kind == "locked_in" and e.player == seat for e in box.event_log):
            return
        time.sleep(0.01)
    raise AssertionError("the phone's answer never reached the engine")


def test_a_phone_answers_and_is_locked_in(quiz_box: tuple[Box, CompanionServer]) -> None:
    box, server = quiz_box

    async def script(session: aiohttp.ClientSession, base: str) -> dict[str, Any]:
        ws = await join(session, base, 0, server.seats.token(0))
        await ws.send_json({"type": "move", "kind": "buzz", "args": {"choice": 1}, "seq": 1})
        refused = await receive(ws, "refused")  # a station's action stays on the station
        await ws.send_json({"type": "move", "kind": "answer", "args": {"choice": 1}, "seq": 2})
        return {"refused": refused, "ok": await receive(ws, "ok")}

    offered = json.loads(server.publisher.latest.seats[0])["moves"]
    assert [(m["kind"], m["args"]) for m in offered] == [("answer", {"choice": k}) for k in range(4)]
    out = talk(server, script)
    assert "station's button" in out["refused"]["why"] and out["ok"]["seq"] == 2
    until_locked_in(box, 0)
    question = box.engine.allplay
    assert question is not None and question.locked[0].choice == 1
    assert question.locked[0].precision_us == WEB_PRECISION_US
    assert box.engine.legal_moves(0) == []  # locked in: nothing more to offer
