"""``play --web`` in the split design (docs/processes.md): the box decides in
a process without pygame or aiohttp; the phones' server runs in the screen's
process, serves the snapshots the deciding process publishes after the lamp,
and sends what a phone does back to it as a stamped input.

The test is a phone (aiohttp) and a second viewer (``--viewer-socket``)
while ``play`` runs in this process; every wait is for what the processes
send (a listening port, a view, a reply), never for time."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from playwright.sync_api import expect

from controller import channel
from controller import protocol as p
from controller.cli import main
from games import registry
from tests.processes import HANG_S, beside, connect_when_listening, running

ROOT = Path(__file__).resolve().parents[2]
#: bounds a failure only: each wait ends as soon as what it waits for comes
DEADLINE_S = HANG_S


@pytest.fixture(autouse=True)
def hands(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with registry.register("hands", "tests.web.hands"):
        yield


async def reply(ws: aiohttp.ClientWebSocketResponse, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The first message from the box that passes ``test``."""
    give_up = time.monotonic() + DEADLINE_S
    while True:
        message = json.loads((await asyncio.wait_for(ws.receive(), DEADLINE_S)).data)
        if test(message):
            return message
        assert time.monotonic() < give_up, message


async def seat_socket(session: aiohttp.ClientSession, port: int) -> aiohttp.ClientWebSocketResponse:
    """The seat page's socket, as soon as the screen's process serves (it starts with the first snapshot)."""
    give_up = time.monotonic() + DEADLINE_S
    while True:
        try:
            return await session.ws_connect(f"http://localhost:{port}/ws/seat")
        except aiohttp.ClientConnectorError:
            assert time.monotonic() < give_up, "the phones' server never listened"
            await asyncio.sleep(0.01)  # polling for the listener, not pacing the test


async def phone(port: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Take seat 1 on the picker, play the first card of its hand; the seat's
    view before and after the box took the move."""
    async with aiohttp.ClientSession() as session:
        ws = await seat_socket(session, port)
        await ws.send_json({"type": "take", "seat": 0})
        token = (await reply(ws, lambda m: m["type"] == "granted"))["token"]
        await ws.send_json({"type": "hello", "seat": 0, "token": token})
        before = await reply(ws, lambda m: m["type"] == "seat" and m["moves"])
        card = before["private"]["hand"][0]
        await ws.send_json({"type": "move", "kind": "play", "args": {"card": card}, "seq": 1})
        assert (await reply(ws, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
        after = await reply(ws, lambda m: m["type"] == "seat" and card not in m["private"]["hand"])
        await ws.close()
        return before, after


def test_a_phone_move_reaches_the_deciding_process_and_its_reply_the_phone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    views_at, journal = tmp_path / "views.sock", tmp_path / "hands.jsonl"
    seen: dict[str, Any] = {}

    def play_and_watch() -> None:
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            sock.settimeout(DEADLINE_S)
            seen["before"], seen["after"] = asyncio.run(phone(started(capsys)[0]))
            card = seen["before"]["private"]["hand"][0]
            while True:  # the second viewer sees the move decided, in the public view only
                message = channel.receive(sock)
                assert message is not None and isinstance(message, p.View)
                assert message.companion is None  # the hands go to the phones' server only
                if card in message.public["played"]:
                    break
        finally:
            channel.send(sock, p.Stop("menu"))
            try:
                while (message := channel.receive(sock)) is not None and not isinstance(message, p.Ended):
                    pass
                seen["ended"] = message
            finally:
                sock.close()

    with beside(play_and_watch):
        assert main(["play", "hands", "--players", "2", "--headless", "--seconds", str(DEADLINE_S),
                     "--journal", str(journal), "--web", "0", "--viewer-socket", str(views_at)]) == 0
    assert seen["ended"].loaded == {"pygame": False, "aiohttp": False}  # the box decided without them
    before, after = seen["before"], seen["after"]
    assert len(after["private"]["hand"]) == len(before["private"]["hand"]) - 1 and not after["moves"]
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    actions = [r for r in records if r.get("type") == "action"]
    assert [(a["kind"], a["player"], a["args"]) for a in actions] == [("play", 0, {"card": before["private"]["hand"][0]})]


#: the line ``play --web`` writes once its server listens: the port it bound, the host's PIN
START_LINE = re.compile(r"companion pages: https?://[^\s/]+:(\d+)\S* \(host page .*, PIN (\d{6})\)")


def port_in(line: str) -> int:
    """The port in a ``play --web 0`` start line, in any of the box's languages: the one its server bound."""
    found = re.search(r"https?://[^\s/]+:(\d+)", line)
    assert found is not None, line
    return int(found.group(1))


def started(capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The port and the host's PIN, from the start line of a ``play --web 0`` in this process:
    the port the server bound itself (a port picked free beforehand may be taken meanwhile)."""
    give_up, err = time.monotonic() + DEADLINE_S, ""
    while (found := START_LINE.search(err)) is None:
        assert time.monotonic() < give_up, err
        err += capsys.readouterr().err  # waiting for the start line, not pacing the test
        time.sleep(0.01)
    return int(found.group(1)), found.group(2)


async def host_page(port: int, pin: str, paused: Callable[[], bool]) -> None:
    """Log in with the PIN the start line says, pause the game (the host page's
    next view says so once the deciding process took it), then end it."""
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"http://localhost:{port}/ws/host")
        await ws.send_json({"type": "hello", "pin": "000000" if pin != "000000" else "111111"})
        assert (await reply(ws, lambda m: m["type"] in ("welcome", "refused")))["type"] == "refused"
        await ws.send_json({"type": "hello", "pin": pin})
        await reply(ws, lambda m: m["type"] == "host" and m["live"] and not m["paused"])
        await ws.send_json({"type": "host", "action": "pause", "seq": 1})
        assert (await reply(ws, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
        await reply(ws, lambda m: m["type"] == "host" and m["paused"])
        # the screen's view (from the deciding process) says it too: the screen and the phones' server are
        # two peers of the deciding process, each sent the view on its own
        give_up = time.monotonic() + DEADLINE_S
        while not paused():
            assert time.monotonic() < give_up, "the screen's view never said the game is paused"
            await asyncio.sleep(0.01)  # waiting for the screen's view, not pacing the test
        await ws.send_json({"type": "host", "action": "end", "seq": 2})
        await reply(ws, lambda m: m["type"] == "ended")
        await ws.close()


def test_the_host_page_pauses_and_ends_a_game_decided_in_its_own_process(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "hands.jsonl"
    screen_paused: list[bool] = []

    def host() -> None:
        asyncio.run(host_page(*started(capsys), lambda: bool(screen_paused)))

    from controller.screen import viewer

    update = viewer.DecidingLink.update

    def watched(self: viewer.DecidingLink, view: p.View) -> None:
        update(self, view)
        if self.host_paused:
            screen_paused.append(True)

    with beside(host), pytest.MonkeyPatch.context() as mp:
        mp.setattr(viewer.DecidingLink, "update", watched)
        assert main(["play", "hands", "--players", "2", "--headless", "--seconds", str(DEADLINE_S),
                     "--journal", str(journal), "--web", "0"]) == 0
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert any(r.get("type") == "notice" and r.get("kind") == "host_paused" for r in records), records
    assert records[-1]["type"] == "end"


#: ``play`` in a process of its own, with the test's game registered (as the menu registers a plug-in game)
LAUNCH = ("import sys\nfrom games import registry\nfrom controller.cli import main\n"
          "with registry.register('hands', 'tests.web.hands'):\n    sys.exit(main(sys.argv[1:]))")


def test_two_phones_pick_their_seats_and_play_against_the_split_design(tmp_path: Path, phone: Any) -> None:
    """Real pages (Chromium) on the screen's process's server: each phone sees
    only its own hand; a tap is decided in the deciding process, and both
    phones follow (the card leaves the hand, the turn passes)."""
    journal = tmp_path / "hands.jsonl"
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--seed", "7", "--headless",
                  "--journal", str(journal), "--web", "0"], env, ROOT) as (proc, err):
        port = port_in(err.wait_for(lambda x: START_LINE.search(x) is not None)[1])  # the port it bound (port 0: none taken meanwhile)
        a, b = phone(), phone()
        for page, seat in ((a, 0), (b, 1)):
            page.goto(f"http://localhost:{port}/play")
            page.locator(f".pick button[data-seat='{seat}']").click()
            page.wait_for_selector("#private .chip")
        hand_a = [int(t) for t in a.locator("#private .chip").all_inner_texts()]
        hand_b = [int(t) for t in b.locator("#private .chip").all_inner_texts()]
        assert hand_a and hand_b and b.locator("#moves button").count() == 0  # seat 2 waits for its turn
        for card in hand_b:
            assert str(card) not in a.inner_text("body")
        a.locator("#moves button").first.click()
        expect(a.locator("#private .chip")).to_have_count(len(hand_a) - 1)
        expect(b.locator("#moves button")).not_to_have_count(0)  # the turn passed to seat 2's phone
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [r["player"] for r in records if r.get("type") == "action"] == [0]


class WordingScene:
    """A scene that words each cell its own way (as the quiz's and reaction's do)."""

    own_results = False

    def adjust_strip(self, view: Any, strip: Any) -> Any:
        return [{**cell, "label": f"cell {i} in {view.get('phase')}"} for i, cell in enumerate(strip)]


def test_the_relayed_pages_word_the_strip_as_the_screen_and_the_one_process_pages_do() -> None:
    """The deciding process builds the snapshot without the scene (it draws
    with pygame); the screen's process words the strip with it: the pages
    read exactly what one process's publisher, scene and all, would send."""
    from controller.box.runtime import Box
    from controller.box.views import Publisher, RelayedPublisher, snapshot_from, snapshot_message

    spec = registry.get("hands")
    box = Box(spec, spec.settings(2, seed=3))
    with box.lock:
        built = snapshot_from(snapshot_message(Publisher(box).publish()))  # as it crosses the channel
        one_process = Publisher(box)
        one_process.scene = WordingScene()  # type: ignore[assignment]
        expected = one_process.publish()
    relayed = RelayedPublisher(box, built)
    got: list[Any] = []
    relayed.listeners.append(got.append)
    relayed.scene = WordingScene()  # type: ignore[assignment]
    snap = relayed.update(built, box.engine.public_view(), box.strip(), finished=False)
    labels = [p["label"] for p in json.loads(snap.board)["players"]]
    assert labels == ["cell 0 in playing", "cell 1 in playing"] and got == [snap]
    for page in ("board", "host"):
        assert json.loads(getattr(snap, page))["players"] == json.loads(getattr(expected, page))["players"]
    assert snap.seats == expected.seats and snap.offered == expected.offered


def test_a_taken_port_is_one_line_before_the_game_is_handed_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The phones' server starts before the deciding process: a taken port
    is the one line that says so (and how to choose another), no game begins,
    no journal is left behind and nothing keeps running."""
    journal = tmp_path / "hands.jsonl"
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen(1)
        with pytest.raises(SystemExit) as failed:
            main(["play", "hands", "--players", "2", "--headless", "--journal", str(journal),
                  "--web", str(taken.getsockname()[1])])
    err = capsys.readouterr().err
    assert failed.value.code == 1 and "choose another with --web PORT" in err and "Traceback" not in err, err
    assert "deciding process" not in err and not journal.exists()


@pytest.mark.parametrize(("language", "words"), [("cs", "zvolte jiný pomocí --web PORT"),
                                                 ("pl", "wybierz inny przez --web PORT")])
def test_a_taken_port_is_said_in_the_box_s_language(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     language: str, words: str) -> None:
    """The phones' server's refusal of a taken port is in the catalogue: a Czech or
    Polish box says it in its language (before, in English whatever ``--lang``)."""
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(SystemExit) as failed:
            main(["play", "hands", "--players", "2", "--headless", "--journal", str(tmp_path / "hands.jsonl"),
                  "--web", str(port), "--lang", language])
    err = capsys.readouterr().err
    assert failed.value.code == 1 and words in err and f" {port}:" in err and "Traceback" not in err, err


async def music_round(port: int, pin: str) -> list[Any]:
    """The host arms the music round's first question; the scoreboard's states
    until it says the clip plays; then the host ends the game."""
    async with aiohttp.ClientSession() as session:
        host = await session.ws_connect(f"http://localhost:{port}/ws/host")
        await host.send_json({"type": "hello", "pin": pin})
        await reply(host, lambda m: m["type"] == "host" and m["live"])
        board = await session.ws_connect(f"http://localhost:{port}/ws/board")
        await board.send_json({"type": "hello"})
        before = await reply(board, lambda m: m["type"] == "state" and m["live"])
        await host.send_json({"type": "host", "action": "arm", "seq": 1})
        assert (await reply(host, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
        playing = await reply(board, lambda m: m["type"] == "state" and m["phase"] == "armed")
        await host.send_json({"type": "host", "action": "end", "seq": 2})
        await reply(host, lambda m: m["type"] == "ended")
        await host.close()
        await board.close()
        return [before["clip"], playing["clip"]]


@pytest.mark.parametrize("pack", ["en-music", "en-video"])  # an audio clip, a video clip
def test_the_scoreboard_of_a_split_music_round_says_the_clip_plays_once_armed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], pack: str) -> None:
    seen: dict[str, Any] = {}

    def host() -> None:
        seen["clip"] = asyncio.run(music_round(*started(capsys)))

    with beside(host):
        assert main(["play", "quiz", "--players", "2", "--headless", "--seconds", str(DEADLINE_S),
                     "--option", f"pack={pack}", "--journal", str(tmp_path / "quiz.jsonl"), "--web", "0"]) == 0
    assert seen["clip"] == [None, "playing"]  # published by the deciding process, as the screen plays it
