"""The phones in the split design (docs/processes.md): the menu's games
with phones are decided in a process of their own, served by the menu's one
server (``play --web``'s phones' server through a screen killed with -9:
tests/web/test_phones_process.py). Every wait is for what the processes say (a line, a
view, a reply), never for time; a deadline only bounds a failure."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp

from controller import channel
from controller import protocol as p
from controller.box import session as box_session
from games.registry import get
from tests import processes
from tests.core.test_split import until
from tests.processes import Lines, connect_when_listening
from tests.web.test_split_phones import DEADLINE_S, ROOT, port_in, reply, seat_socket

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
