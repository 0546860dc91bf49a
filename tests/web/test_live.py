"""The companion server in the live game: ``play --web`` says where it is and
stops with the game; phones' moves are journaled like presses and replay to
the same game; the HDMI overlay shows a QR code for each seat not yet held."""

from __future__ import annotations

import asyncio
import json
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import pygame
import pytest

from benchmarks.companion_box import box_server
from controller.box import journal as journal_mod
from controller.box.runtime import Box, box_from_journal
from controller.box.timeline import box_now_us
from controller.cli import main
from controller.screen.phones_panel import CompanionOverlay, qr_surface
from games import registry
from games.toolkit import theme
from tests.processes import HANG_S
from tests.web.test_security import settle


@pytest.fixture(autouse=True)
def hands() -> Iterator[None]:
    with registry.register("hands", "tests.web.hands"):
        yield


def test_play_web_says_its_address_and_pin_and_stops_with_the_game(
        capsys: pytest.CaptureFixture[str], mock_pins: None, tmp_path: Path) -> None:
    assert main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.3", "--headless",
                 "--journal", str(tmp_path / "q.jsonl"), "--web", "0"]) == 0
    err = capsys.readouterr().err
    found = re.search(r"companion pages: http://([\d.]+):(\d+)/board \(host page \S+/host, PIN (\d{6})\)", err)
    assert found, err
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", int(found.group(2))), timeout=1):
        pass  # the game ended: nothing listens any more


def test_without_web_nothing_listens(capsys: pytest.CaptureFixture[str], mock_pins: None, tmp_path: Path) -> None:
    assert main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless",
                 "--journal", str(tmp_path / "q.jsonl")]) == 0
    assert "companion" not in capsys.readouterr().err


def test_phone_moves_are_journaled_and_replay_to_the_same_game(tmp_path: Path) -> None:
    spec = registry.get("hands")
    path = tmp_path / "hands.jsonl"
    box = Box(spec, spec.settings(2, seed=5))
    box.time_offset_us = -box_now_us()
    box.journal = journal_mod.JournalWriter.create(path, box.header(mode="play"))
    server = box_server(box, port=0, bind="127.0.0.1", address="127.0.0.1")
    server.start()
    try:
        for seq, seat in enumerate((0, 1, 0), start=1):
            card = box.engine.hands[seat][0]

            async def play(seat: int = seat, card: int = card, seq: int = seq) -> None:
                async with aiohttp.ClientSession() as session:
                    ws = await session.ws_connect(f"http://127.0.0.1:{server.port}/ws/seat")
                    await ws.send_json({"type": "hello", "seat": seat, "token": server.seats.token(seat)})
                    while json.loads((await asyncio.wait_for(ws.receive(), HANG_S)).data)["type"] != "seat":
                        pass
                    await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": seq})
                    reply = {"type": ""}
                    while reply["type"] not in ("ok", "refused"):
                        reply = json.loads((await asyncio.wait_for(ws.receive(), HANG_S)).data)
                    assert reply["type"] == "ok", reply
            asyncio.run(play())
            settle(box)
    finally:
        server.stop()
        box.journal.close()
    assert len(box.engine.played) == 3
    replayed = box_from_journal(journal_mod.read(path))
    assert replayed.engine.public_view() == box.engine.public_view()
    assert replayed.engine.private_view(0) == box.engine.private_view(0)


def test_the_overlay_shows_one_join_code_while_a_seat_has_no_phone_and_never_a_token(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface((1280, 720))
    joined = [False, False, False]
    overlay = CompanionOverlay(lambda: "http://10.0.0.2:8080", "123456", lambda: "http://10.0.0.2:8080/play",
                               lambda: joined, ["Ann", "Bob", "Cy"])
    monkeypatch.setattr(theme, "DRAWN", [])

    def codes_drawn() -> int:
        theme.DRAWN.clear()  # type: ignore[union-attr]
        surface.fill((20, 20, 20))
        overlay(surface)
        white = pygame.mask.from_threshold(surface, (255, 255, 255), (1, 1, 1, 255))
        return sum(1 for r in white.get_bounding_rects() if r.width > 80 and r.height > 80 and r.width == r.height)

    def said() -> str:
        return " ".join(shown for shown, *_rest in theme.DRAWN or [])

    assert codes_drawn() == 1
    assert "Ann, Bob, Cy" in said()  # (the names may wrap onto several lines)
    joined[1] = True
    assert codes_drawn() == 1
    assert "Ann, Cy" in said() and "Bob" not in said()
    joined[:] = [True, True, True]
    assert codes_drawn() == 0
    no_seats = CompanionOverlay(lambda: "http://10.0.0.2:8080", "123456", None, lambda: joined, [])
    surface.fill((20, 20, 20))
    no_seats(surface)  # quiz: address and PIN only
    assert qr_surface("http://10.0.0.2:8080/play", 120).get_width() <= 120
