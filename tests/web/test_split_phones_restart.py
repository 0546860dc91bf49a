"""The phones in the split design when a process goes (docs/processes.md):
a screen process killed with -9 comes back serving the same phones, and the
menu's games with phones are decided in a process of their own, served by
the menu's one server. Every wait is for what the processes say (a line, a
view, a reply), never for time; a deadline only bounds a failure."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp

from controller import channel
from controller import protocol as p
from controller.box import session as box_session
from games import scenes
from games.registry import get
from tests import processes
from tests.core.test_split import until
from tests.processes import Lines, connect_when_listening
from tests.web.test_split_phones import DEADLINE_S, LAUNCH, ROOT, port_in, reply, seat_socket

ENV = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}


def running(command: list[str]) -> contextlib.AbstractContextManager[tuple[subprocess.Popen[str], Lines]]:
    """A child and its stderr's lines; it and every process it started are killed after."""
    return processes.running(command, ENV, ROOT)


async def take_seat(session: aiohttp.ClientSession, port: int, seat: int) -> tuple[aiohttp.ClientWebSocketResponse, str]:
    """A phone on the picker takes ``seat``: its socket (said hello) and the token it was handed."""
    ws = await seat_socket(session, port)
    await ws.send_json({"type": "take", "seat": seat})
    token = str((await reply(ws, lambda m: m["type"] == "granted"))["token"])
    await ws.send_json({"type": "hello", "seat": seat, "token": token})
    return ws, token


async def play_first_card(ws: aiohttp.ClientWebSocketResponse, seq: int) -> int:
    """The seat's first card played once it may move; the card, once the box took it."""
    before = await reply(ws, lambda m: m["type"] == "seat" and m["moves"])
    card = int(before["private"]["hand"][0])
    await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": seq})
    assert (await reply(ws, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
    await reply(ws, lambda m: m["type"] == "seat" and card not in m["private"]["hand"])
    return card


async def first_phone(port: int) -> tuple[str, int]:
    async with aiohttp.ClientSession() as session:
        ws, token = await take_seat(session, port, 0)
        card = await play_first_card(ws, 1)
        await ws.close()
        return token, card


async def after_the_crash(port: int, token: str, card: int) -> dict[str, Any]:
    """Seat 1's phone comes back with its code to the current view; its old
    message is still known; seat 2, still free, joins and plays."""
    async with aiohttp.ClientSession() as session:
        ws = await seat_socket(session, port)  # the new screen's server, once it listens
        await ws.send_json({"type": "hello", "seat": 0, "token": token})
        assert (await reply(ws, lambda m: m["type"] in ("welcome", "refused")))["type"] == "welcome"
        now = await reply(ws, lambda m: m["type"] == "seat")
        await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": 1})
        repeated = await reply(ws, lambda m: m["type"] in ("ok", "refused"))
        second, _token = await take_seat(session, port, 1)
        played = await play_first_card(second, 1)
        await ws.close()
        await second.close()
        return {"now": now, "repeated": repeated, "played": played}


def test_the_screen_killed_with_9_comes_back_serving_the_same_phones(tmp_path: Path) -> None:
    views_at, journal = tmp_path / "views.sock", tmp_path / "hands.jsonl"
    with running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--seed", "7", "--headless",
                  "--journal", str(journal), "--web", "0", "--viewer-socket", str(views_at)]) as (proc, err):
        port = port_in(err.wait_for(lambda x: "companion pages:" in x)[1])  # the port it bound: the new screen's too
        token, card = asyncio.run(first_phone(port))
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            proc.send_signal(signal.SIGKILL)  # the screen process, and its server, die
            proc.wait()
            at, _line = err.wait_for(lambda x: "the screen process went away" in x)
            err.wait_for(lambda x: "companion pages:" in x, after=at)  # the new screen serves again
            seen = asyncio.run(after_the_crash(port, token, card))
            assert card not in seen["now"]["private"]["hand"]  # the current view, not the start's
            assert seen["repeated"]["type"] == "refused"  # a resent message is still not played twice
            channel.send(sock, p.Stop("menu"))
            ended = until(sock, lambda m: isinstance(m, p.Ended))
        finally:
            sock.close()
    assert ended.loaded == {"pygame": False, "aiohttp": False}
    records = [json.loads(x) for x in journal.read_text().splitlines()]
    assert [(r["player"], r["args"]["card"]) for r in records if r.get("type") == "action"] == [
        (0, card), (1, seen["played"])]


async def menu_phone(port: int) -> tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse, str, dict[str, Any]]:
    session = aiohttp.ClientSession()
    ws, token = await take_seat(session, port, 0)
    seat = await reply(ws, lambda m: m["type"] == "seat")
    return session, ws, token, seat


def cut_off_phone_game(tmp_path: Path) -> Path:
    """A journals folder whose newest game (piepmatz: phones needed) was cut off: the menu resumes it first."""
    folder = tmp_path / "journals"
    folder.mkdir()
    spec = get("piepmatz")
    box = box_session.new_box(spec, spec.settings(2, 1), None, folder / "piepmatz.jsonl")
    assert box.journal is not None
    box.journal.close()
    return folder


def test_the_menus_game_with_phones_is_decided_apart_and_its_phones_stay_joined(tmp_path: Path) -> None:
    """A phone game cut off in the menu is resumed with phones (the Phones
    row): in a deciding process of its own, served by the menu's server,
    whose seat codes still work once the menu is back."""
    folder, views_at = cut_off_phone_game(tmp_path), tmp_path / "views.sock"
    with running([sys.executable, "-m", "controller", "menu", "--players", "2", "--journal-dir", str(folder),
                  "--viewer-socket", str(views_at), "--web", "0"]) as (proc, err):
        err.wait_for(lambda x: x.startswith("deciding process "))  # the game is decided apart
        port = port_in(err.wait_for(lambda x: "companion pages:" in x)[1])  # the port the menu's server bound

        async def phone_through_the_game() -> tuple[dict[str, Any], str]:
            session, ws, token, seat = await menu_phone(port)
            try:
                sock = connect_when_listening(str(views_at), DEADLINE_S)
                try:
                    channel.send(sock, p.Stop("menu"))
                    ended = await asyncio.to_thread(until, sock, lambda m: isinstance(m, p.Ended))
                finally:
                    sock.close()
                assert ended.loaded == {"pygame": False, "aiohttp": False}
                back = await seat_socket(session, port)  # the menu is back: the same code still holds the seat
                await back.send_json({"type": "hello", "seat": 0, "token": token})
                welcome = await reply(back, lambda m: m["type"] in ("welcome", "refused"))
                await back.close()
                return seat, str(welcome["type"])
            finally:
                await ws.close()
                await session.close()

        seat, welcome = asyncio.run(phone_through_the_game())
        assert seat["seat"] == 0 and "private" in seat and welcome == "welcome"
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)



def test_a_phone_joined_in_the_menu_keeps_its_seat_into_a_game_decided_apart() -> None:
    """The menu's one server moves from a game played in the menu's process
    to one decided apart: the phone that joined stays on its socket, is sent
    the new game's hand, and its move goes to the deciding process's channel."""
    from controller.box.runtime import Box
    from controller.box.views import Publisher, first_snapshot, snapshot_from, snapshot_message
    from controller.screen.viewer import DecidingLink, ending
    from controller.web.attach import MenuCompanion
    from games import registry

    with registry.register("hands", "tests.web.hands"):
        spec = get("hands")
        companion = MenuCompanion(0, bind="127.0.0.1", address="127.0.0.1")
        mine, deciding = socket.socketpair()
        try:
            first, second = Box(spec, spec.settings(2, seed=3)), Box(spec, spec.settings(2, seed=11))
            server = companion.game(first, [])

            async def phone() -> tuple[list[int], Any]:
                async with aiohttp.ClientSession() as session:
                    ws, _token = await take_seat(session, server.port, 0)
                    await reply(ws, lambda m: m["type"] == "seat" and m["private"]["hand"] == first.engine.hands[0])
                    companion.between()
                    view = DecidingLink(spec, second.settings, mine)
                    moved, publisher = companion.relayed(view, first_snapshot(second), [], ending(view))
                    assert moved is server
                    with second.lock:  # what the deciding process sends, as it crosses the channel
                        built = snapshot_from(snapshot_message(Publisher(second).publish()))
                    publisher.update(built, second.engine.public_view(), second.strip())
                    now = await reply(ws, lambda m: m["type"] == "seat" and m["moves"])
                    card = now["private"]["hand"][0]
                    await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": 1})
                    assert (await reply(ws, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
                    await ws.close()
                    return now["private"]["hand"], await asyncio.to_thread(channel.receive, deciding)

            hand, sent = asyncio.run(phone())
        finally:
            companion.stop()
            mine.close()
            deciding.close()
    assert hand == second.engine.hands[0] != first.engine.hands[0]
    assert isinstance(sent, p.ActionInput) and (sent.action.kind, sent.action.player) == ("play", 0)
    assert sent.action.args == {"card": hand[0]}


def test_a_screen_started_again_takes_a_move_before_its_loop_has_drawn_anything() -> None:
    """The first view a restarted screen reads is the deciding process's own
    snapshot of now: a phone that rejoins at once and moves is taken, not
    refused as "not a move you can make now" until a later view arrives."""
    from types import SimpleNamespace

    from controller.box.runtime import Box
    from controller.box.views import Publisher, snapshot_message
    from controller.protocol import NO_VIEW
    from controller.screen.screen import Screen
    from controller.screen.viewer import DecidingLink, RelayedPhones
    from controller.web.seats import Seats
    from games import registry

    with registry.register("hands", "tests.web.hands"):
        spec = get("hands")
        box = Box(spec, spec.settings(2, seed=5))
        seats = Seats(2)
        token = seats.take(0)
        assert token is not None
        with box.lock:  # what the deciding process sends a screen it started again
            first = dataclasses.replace(
                NO_VIEW, companion=snapshot_message(Publisher(box).publish()), public=box.engine.public_view(),
                strip=box.strip(), seats={"seats": seats.state(), "host_ever": False, "last_seq": {}, "port": 0})
        mine, deciding = socket.socketpair()
        scene = scenes.scene_for("hands", None)
        presenter = SimpleNamespace(scene=scene, results=scene, box_actions={})
        Screen.open(headless=True)
        phones = RelayedPhones.restored(presenter, DecidingLink(spec, box.settings, mine), first)  # type: ignore[arg-type]
        try:
            async def rejoin_and_move() -> tuple[str, Any]:
                async with aiohttp.ClientSession() as session:
                    ws = await seat_socket(session, phones.server.port)
                    await ws.send_json({"type": "hello", "seat": 0, "token": token})
                    await reply(ws, lambda m: m["type"] == "seat" and m["moves"])
                    card = box.engine.hands[0][0]
                    await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": 1})
                    answer = await reply(ws, lambda m: m["type"] in ("ok", "refused"))
                    await ws.close()
                    if answer["type"] != "ok":
                        return str(answer["why"]), None
                    return "ok", await asyncio.to_thread(until, deciding, lambda m: not isinstance(m, p.Seats))

            answer, sent = asyncio.run(rejoin_and_move())
        finally:
            phones.stop()
            mine.close()
            deciding.close()
    assert answer == "ok" and sent is not None
    assert isinstance(sent, p.ActionInput) and (sent.action.kind, sent.action.player) == ("play", 0)


def test_the_host_page_uploads_a_pack_during_the_menus_game_decided_apart(tmp_path: Path) -> None:
    """The menu's first game is decided apart (a cut-off game resumed with
    phones): the server the menu starts for it takes a pack uploaded from
    the host page into the menu's packs folder, as it does between games."""
    from controller.web.server import PACK_UPLOAD_PATH
    from tests.web.test_pack_upload import GOOD

    folder, packs, views_at = cut_off_phone_game(tmp_path), tmp_path / "packs", tmp_path / "views.sock"
    with running([sys.executable, "-m", "controller", "menu", "--players", "2", "--journal-dir", str(folder),
                  "--packs-dir", str(packs), "--viewer-socket", str(views_at), "--web", "0"]) as (proc, err):
        err.wait_for(lambda x: x.startswith("deciding process "))  # the game is decided apart
        _at, line = err.wait_for(lambda x: "companion pages:" in x)
        port = port_in(line)  # the port the menu's server bound
        pin = line.rsplit("PIN ", 1)[1].rstrip(")")

        async def upload() -> tuple[int, Any]:
            async with aiohttp.ClientSession() as session, session.post(
                    f"http://127.0.0.1:{port}{PACK_UPLOAD_PATH}", params={"name": "night.csv"},
                    data=GOOD.encode(), headers={"X-Host-Pin": pin}) as response:
                return response.status, json.loads(await response.text())

        status, said = asyncio.run(upload())
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            channel.send(sock, p.Stop("menu"))
            until(sock, lambda m: isinstance(m, p.Ended))
        finally:
            sock.close()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
    assert (status, said["saved"]) == (200, "night.csv"), said
    assert (packs / "night.csv").read_text(encoding="utf-8") == GOOD
