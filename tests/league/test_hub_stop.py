"""``league serve`` stops on SIGTERM whatever it is doing: no broker there,
a broker that never answers, a broker that never confirms the hub's claim,
the broker lost while serving, and serving a hall screen's stream. Each
state is reached by readiness (a log line, bytes at a listener, a frame at
a viewer); the exit is waited for, never timed (WAIT_S is a fail-safe).

A hub once hung on SIGTERM under load: the hall screen's push waited with
``asyncio.wait_for``, which before Python 3.12 swallows a cancel that comes in
the loop's turn its event is set, and the broker connection closing as the
hub stopped set it: the pages, so the hub, never stopped
(``test_the_pages_stop_though_a_change_comes_as_they_stop`` makes that turn
happen every time)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.league.broker import write_broker_files
from controller.league.pages import HubService
from controller.league.tournament import load
from tests.league.conftest import WAIT_S, Mosquitto

ROOT = Path(__file__).resolve().parents[2]
#: what the hub says once its pages serve: the port they bound follows
SERVING = "league hub: scoreboard http://127.0.0.1:"
#: fail-safes, never measures: a Python process with pygame and aiohttp to import may take half a minute to
#: start on a 2-core machine under a load of 30; its exit (no imports left) is given less
START_WAIT_S = 4 * WAIT_S
EXIT_WAIT_S = 2 * WAIT_S


class HubProcess:
    """``buzzerbox league serve`` as the organiser starts it, its stderr read line by line."""

    def __init__(self, league: Path, ledger: Path) -> None:
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "BUZZERBOX_LANG": "en",
               "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "controller", "league", "serve", str(league), "--port", "0",
             "--bind", "127.0.0.1", "--ledger", str(ledger)],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines: list[str] = []
        self._said = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._said:
                self.lines.append(line.rstrip())
                self._said.notify_all()
        with self._said:
            self.lines.append("<exited>")
            self._said.notify_all()

    def said(self, text: str) -> None:
        """Wait until the hub said ``text`` (readiness), fail if it exited first."""
        with self._said:
            self._said.wait_for(lambda: any(text in x or x == "<exited>" for x in self.lines), START_WAIT_S)
            assert any(text in x for x in self.lines), f"the hub never said {text!r}:\n" + "\n".join(self.lines)

    @property
    def port(self) -> int:
        """The port its pages bound (it serves on port 0), from the line that says it serves."""
        self.said(SERVING)
        with self._said:
            said = "\n".join(self.lines)
        found = re.search(re.escape(SERVING) + r"(\d+)/", said)
        assert found is not None, said
        return int(found.group(1))

    def terminate(self) -> None:
        """SIGTERM, then the exit waited for: a clean one (status 0, no traceback)."""
        self.proc.terminate()
        try:
            status = self.proc.wait(EXIT_WAIT_S)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("the hub did not exit on SIGTERM:\n" + "\n".join(self.lines)) from None
        self.said("<exited>")
        assert status == 0, "\n".join(self.lines)
        assert not any("Traceback" in x for x in self.lines), "\n".join(self.lines)

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stderr is not None:
            self.proc.stderr.close()


class FakeBroker:
    """A listener on loopback that speaks as little MQTT as a state needs: ``answers`` False takes the
    hub's connection and never says a word; True accepts it, confirms its subscriptions and its
    publishes, and never sends a message (so never the hub's own claim back)."""

    def __init__(self, answers: bool) -> None:
        self.answers = answers
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = int(self.server.getsockname()[1])
        self.seen: list[int] = []  # the packet types that came (0x10 CONNECT, 0x82 SUBSCRIBE, ...)
        self.event = threading.Condition()
        self.conns: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._serve, daemon=True)]
        self.threads[0].start()

    def _serve(self) -> None:
        try:
            while True:
                conn, _addr = self.server.accept()
                self.conns.append(conn)
                self.threads.append(threading.Thread(target=self._talk, args=(conn,), daemon=True))
                self.threads[-1].start()
        except OSError:
            return  # closed

    def _talk(self, conn: socket.socket) -> None:
        stream = conn.makefile("rb")
        try:
            while head := stream.read(1):
                length, shift = 0, 0
                while True:
                    byte = stream.read(1)[0]
                    length |= (byte & 0x7F) << shift
                    shift += 7
                    if not byte & 0x80:
                        break
                body = stream.read(length)
                if self.answers and head[0] == 0x10:
                    conn.sendall(b"\x20\x03\x00\x00\x00")  # CONNACK: accepted, no properties
                elif self.answers and head[0] == 0x82:
                    conn.sendall(bytes([0x90, 3 + topics(body)]) + body[:2] + b"\x00" + b"\x01" * topics(body))
                elif self.answers and head[0] & 0xF6 == 0x32:  # a PUBLISH at QoS 1: PUBACK, success
                    at = 2 + int.from_bytes(body[:2], "big")
                    conn.sendall(b"\x40\x02" + body[at:at + 2])
                with self.event:
                    self.seen.append(head[0])
                    self.event.notify_all()
        except (OSError, IndexError):
            return

    def saw(self, packet: int) -> None:
        with self.event:
            assert self.event.wait_for(lambda: packet in self.seen, START_WAIT_S), f"no packet {packet:#x}: {self.seen}"

    def close(self) -> None:
        for sock in (self.server, *self.conns):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes the accept and the reads
            sock.close()
        for thread in self.threads:
            thread.join(WAIT_S)


def topics(subscribe: bytes) -> int:
    """How many topic filters an MQTT 5 SUBSCRIBE's body names (after its id and properties)."""
    at, length, shift = 2, 0, 0
    while True:
        byte = subscribe[at]
        at += 1
        length |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            break
    at += length
    count = 0
    while at < len(subscribe):
        at += 2 + int.from_bytes(subscribe[at:at + 2], "big") + 1
        count += 1
    return count


@pytest.fixture
def hub_at(tmp_path: Path, league_file: Callable[..., Path]) -> Iterator[Callable[[int], HubProcess]]:
    """A hub started with the tournament's broker at a port; killed at the end whatever happened."""
    started: list[HubProcess] = []

    def start(port: int) -> HubProcess:
        path = league_file(port)
        if not (tmp_path / "broker" / "passwd").exists():
            write_broker_files(load(path), tmp_path / "broker", port=port)
        started.append(HubProcess(path, tmp_path / "hub.jsonl"))
        return started[-1]

    try:
        yield start
    finally:
        for hub in started:
            hub.kill()


def test_sigterm_with_no_broker_there(hub_at: Callable[[int], HubProcess], silent_port: int) -> None:
    """Nothing listens at the broker's port: the hub retries, says so, and stops at once on SIGTERM."""
    hub = hub_at(silent_port)
    hub.said("cannot connect: nothing answers at 127.0.0.1:")
    hub.terminate()


@pytest.mark.parametrize("answers", [False, True], ids=["broker-silent", "claim-unconfirmed"])
def test_sigterm_while_the_broker_does_not_answer(hub_at: Callable[[int], HubProcess], answers: bool) -> None:
    """A broker that takes the connection and never answers it (the hub waits for its CONNACK), or
    one that never sends the hub's claim back (the hub waits for its claim): SIGTERM stops it."""
    fake = FakeBroker(answers)
    try:
        hub = hub_at(fake.port)
        fake.saw(0x82 if answers else 0x10)  # subscribed (its claim goes next), or connecting
        hub.terminate()  # (under a heavy load the 5 s claim wait may have ended first: it then stops serving)
    finally:
        fake.close()


@pytest.mark.runtime("mosquitto")
def test_sigterm_with_the_broker_lost_while_serving(broker: Mosquitto, hub_at: Callable[[int], HubProcess]) -> None:
    hub = hub_at(broker.port)
    hub.said(SERVING)
    broker.stop()
    hub.said("lost the broker")
    hub.terminate()


@pytest.mark.runtime("mosquitto")
def test_sigterm_while_a_hall_screen_streams(broker: Mosquitto, hub_at: Callable[[int], HubProcess]) -> None:
    """A hall screen is reading the push: SIGTERM ends its stream and the hub exits 0."""
    hub = hub_at(broker.port)
    viewer = http.client.HTTPConnection("127.0.0.1", hub.port, timeout=WAIT_S)
    try:
        viewer.request("GET", "/events")
        stream = viewer.getresponse()
        assert stream.status == 200
        assert stream.readline().startswith(b"data: {")  # the first frame: the screen is up
        hub.terminate()
        while stream.readline():  # what was pushed meanwhile, then the end of the stream
            pass
    finally:
        viewer.close()


def test_the_pages_stop_though_a_change_comes_as_they_stop(tmp_path: Path, league_file: Callable[..., Path],
                                                          silent_port: int) -> None:
    """The turn of the pages' loop that hung the hub: a change is told (the broker connection closing
    as the hub stops) in the same turn as the stop; the pages stop all the same."""
    t = load(league_file(silent_port))
    write_broker_files(t, tmp_path / "broker")
    service = HubService(t, tmp_path / "hub.jsonl", port=0, bind="127.0.0.1").start()  # no broker answers
    assert service.loop is not None and service._wake is not None
    wake = service._wake

    async def told_as_it_stops() -> None:
        wake.set()
        await service._cleanup()

    try:
        asyncio.run_coroutine_threadsafe(told_as_it_stops(), service.loop).result(WAIT_S)
    finally:
        service.stop()


def test_a_stop_waiting_for_the_broker_says_so(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A broker that never confirms what the hub sent last (its claim's removal) holds the stop up to its
    fail-safe: the organiser sees one line saying what it waits for, not a silent hang (virtual time)."""
    from controller.league import link
    from controller.league.tournament import Broker

    clock = [0.0]
    monkeypatch.setattr(link.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(link.time, "sleep", lambda s: clock.__setitem__(0, clock[0] + s))
    conn = link.Connection(Broker("127.0.0.1", 1), "hub", None, "hub-test")
    conn.connected.set()
    conn.client._out_messages[1] = object()  # type: ignore[assignment]  # the claim's removal, never acknowledged
    with caplog.at_level("WARNING", logger="buzzerbox.league"):
        conn.stop(drain_s=10.0)
    waits = [r.getMessage() for r in caplog.records if "waiting up to" in r.getMessage()]
    assert len(waits) == 1, caplog.text
    assert "8 s more for the broker to confirm 1 message(s)" in waits[0]
    assert clock[0] >= 10.0  # the wait still runs to its fail-safe: cut short, the claim would stay
