"""The phones' server (controller/web/process.py) stopped by its starter
while it closes by itself: told the game ended, it sends every page its last
word (the game ended, the scores) and closes its socket, then aiohttp cleans
up. Its starter's stop (``PhonesProcess.stop``: SIGTERM once it has not ended
by itself within ``END_WAIT_S``) must not cut that close short: before, the
stop's ``KeyboardInterrupt`` did, with a traceback on the starter's terminal.
The server's process is held at the start of its close through a seam (its
``CompanionServer.stop`` waits for a byte on its stdin), stopped there, then
let go; no wait is for time."""

from __future__ import annotations

import asyncio
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import aiohttp

from controller import channel
from controller import protocol as p
from controller.box.session import starting_pages
from controller.box.views import snapshot_message
from games.registry import get
from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]

#: the phones' server as its starter runs it (``python -m controller.web.process``), with a seam in its close:
#: its server's ``stop`` first writes a byte on stdout (its answer was written before: the close began), then
#: waits for a byte on its stdin (its starter wrote the game there and keeps it open) before it goes on
IN_ITS_CLOSE = """
import os, runpy
from controller.web import server
stop = server.CompanionServer.stop
def held(self):
    os.write(1, b"!")
    os.read(0, 1)
    stop(self)
server.CompanionServer.stop = held
runpy.run_module("controller.web.process", run_name="__main__", alter_sys=True)
"""


class Scoreboard(threading.Thread):
    """A scoreboard page on the server's ``/ws/board``: everything it was sent, until its socket closed."""

    def __init__(self, port: int) -> None:
        super().__init__(name="test-scoreboard", daemon=True)
        self.url = f"http://127.0.0.1:{port}/ws/board"
        self.shown = threading.Event()  # its first board came: the server counts it among its pages
        self.said: list[Any] = []
        self.close_code: int | None = None  # its close frame's code (None: the socket dropped without one)

    def run(self) -> None:
        asyncio.run(self.follow())

    async def follow(self) -> None:
        try:
            async with aiohttp.ClientSession() as session, session.ws_connect(self.url, heartbeat=None) as ws:
                await ws.send_json({"type": "hello"})
                while True:
                    msg = await asyncio.wait_for(ws.receive(), HANG_S)
                    if msg.type == aiohttp.WSMsgType.CLOSE:  # the server's close frame (its code, as sent)
                        self.close_code = msg.data
                    if msg.type != aiohttp.WSMsgType.TEXT:  # closed, or dropped with no close frame
                        break
                    self.said.append(json.loads(msg.data))
                    self.shown.set()
        finally:
            self.shown.set()  # a failure is seen by the test, not waited for


def read_byte(fd: int) -> bytes:
    """One byte from the pipe ``fd`` (b"": it closed), waited for at most HANG_S (a hang, not a pace)."""
    ready, _w, _x = select.select([fd], [], [], HANG_S)
    assert ready, "the phones' server never reached its close"
    return os.read(fd, 1)


def test_a_stop_as_the_phones_server_closes_leaves_every_page_its_last_word(tmp_path: Path) -> None:
    """The game's ``Ended`` came (the deciding process lets its peers go at its close) and the
    server closes; its starter's stop (SIGTERM to its session) comes in that close. Before, the
    stop's ``KeyboardInterrupt`` cut the close short: the scoreboard got no "ended" and its socket
    was dropped with no close frame, and a traceback was printed (exit -2). The close goes on."""
    viewer_socket = str(tmp_path / "viewer.sock")
    deciding = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # the deciding process, as its peers see it
    deciding.bind(viewer_socket)
    deciding.listen(1)
    spec = get("quiz")
    first = starting_pages(spec, spec.settings(2), None)
    argv = [sys.executable, "-c", IN_ITS_CLOSE, "--viewer-socket", viewer_socket, "--port", "0",
            "--bind", "127.0.0.1", "--players", "2", "--register", "quiz=games.quiz",
            "--starter", str(os.getpid()), "--log-level", "40"]
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=env, cwd=ROOT, start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    board: Scoreboard | None = None
    try:
        proc.stdin.write(channel.encode(p.Serving("quiz=games.quiz", snapshot_message(first))))
        proc.stdin.flush()  # kept open: the seam reads its go from it
        listening = channel.read_from(proc.stdout.fileno(), HANG_S)
        assert isinstance(listening, p.Listening), listening
        peer, _address = deciding.accept()
        with peer:
            assert isinstance(channel.receive(peer), p.Hello)
            board = Scoreboard(listening.port)
            board.start()
            assert board.shown.wait(HANG_S) and board.said, "the scoreboard was shown nothing"
            channel.send(peer, p.Ended(p.NOT_BEGUN))  # the game is over: the server closes
        assert read_byte(proc.stdout.fileno()) == b"!"  # in its close
        os.killpg(proc.pid, signal.SIGTERM)  # its starter's stop (``PhonesProcess.stop``), just then
        proc.stdin.close()  # the seam's read returns: the close goes on
        code = proc.wait(HANG_S)
        err = proc.stderr.read().decode(errors="replace")
        board.join(HANG_S)
        assert not board.is_alive()
        ended = any(isinstance(said, dict) and said.get("type") == "ended" for said in board.said)
        # before: (-2, True, False, None): a traceback, no last word, the socket dropped without a close frame
        assert (code, "Traceback" in err, ended, board.close_code) == (0, False, True, 1001), err
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
        deciding.close()
        if board is not None:
            board.join(HANG_S)
