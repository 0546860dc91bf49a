"""A real Mosquitto for the league tests: its config, ACL and passwords written
by ``league broker-config`` into a temp folder, on a free loopback port (picked
again if another process took it before Mosquitto bound it); ready when its log
says it runs AND a TCP connect succeeds (never a sleep); stopped (and waited
for) at the end of the test, whatever happened."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from controller.league import signing
from controller.league.broker import write_broker_files
from controller.league.outbox import RoomFolder
from controller.league.simulated import play_next
from controller.league.tournament import Tournament, load
from tests.processes import HANG_S

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
WAIT_S = HANG_S  # a fail-safe for a broken machine, never a synchronisation

TOURNAMENT = """
[tournament]
id = "cup"
title = "Spring Cup"
game = "quiz"
players_per_team = {per_team}
day_start = "09:00"
[tournament.options]
demo_questions = 4

[broker]
host = "127.0.0.1"
port = {port}

[hub]
password_file = "secrets/hub.password"
[organiser]
password_file = "secrets/organiser.password"
{key}

[[rooms]]
id = "a"
name = "Hall A"
password_file = "secrets/box-a.password"
[[rooms]]
id = "b"
name = "Hall B"
password_file = "secrets/box-b.password"
[[rooms]]
id = "c"
name = "Hall C"
password_file = "secrets/box-c.password"

{teams}
[schedule]
kind = "round-robin"
slot_minutes = 30
"""

TEAMS = ("owls", "foxes", "bees", "moles", "hares", "crows")

#: a playoff after the round robin: its top 4 play on in room a (settings of the section may follow)
PLAYOFF = '\n[playoffs]\nteams = 4\nroom = "a"\n'


def tournament_text(port: int, key: str = "", per_team: int = 1, teams: tuple[str, ...] = TEAMS) -> str:
    team_tables = "\n".join(f'[[teams]]\nid = "{t}"\nname = "{t.capitalize()}"\n' for t in teams)
    return TOURNAMENT.format(port=port, key=key, per_team=per_team, teams=team_tables)


#: how many free ports a broker is tried on: another test may bind the one picked before Mosquitto does
PORT_TRIES = 20


def free_port() -> int:
    """A loopback port free now, for Mosquitto (which cannot be given port 0 and say which it bound):
    use ``started_broker``, which picks again if another process took it first."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PortTaken(Exception):
    """Another process bound Mosquitto's port between its pick and Mosquitto's own bind."""


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A loopback port where nothing listens for the whole test: bound by the test (so no other test's
    server can take it meanwhile) and never listening, so a connection there is refused at once."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


class Mosquitto:
    """One broker process, stoppable and restartable on the same port."""

    def __init__(self, folder: Path, t: Tournament, port: int) -> None:
        self.folder, self.port = folder, port
        write_broker_files(t, folder, port=port)
        conf = folder / "mosquitto.conf"
        text = conf.read_text().replace(f"listener {port}", f"listener {port} 127.0.0.1")
        if os.geteuid() == 0:  # as root Mosquitto would drop to its own user, who cannot read a temp folder
            text += "user root\n"
        conf.write_text(text + "log_dest stderr\nlog_type all\n")
        self.proc: subprocess.Popen[str] | None = None
        self.reader: threading.Thread | None = None
        self.log: list[str] = []

    def start(self) -> None:
        assert self.proc is None
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
        running = threading.Event()

        def read(proc: subprocess.Popen[str]) -> None:
            assert proc.stdout is not None
            for line in proc.stdout:
                self.log.append(line.rstrip())
                if " running" in line:
                    running.set()
            running.set()  # the process ended: stop waiting, the connect below fails loudly

        self.reader = threading.Thread(target=read, args=(self.proc,), daemon=True)
        self.reader.start()
        assert running.wait(WAIT_S), "mosquitto wrote no 'running' line"
        if any("Address already in use" in line for line in self.log):  # it says so, then exits
            self.stop()
            raise PortTaken(self.port)
        assert self.proc.poll() is None, "mosquitto exited:\n" + "\n".join(self.log[-20:])
        socket.create_connection(("127.0.0.1", self.port), timeout=WAIT_S).close()  # it accepts: ready

    def stop(self) -> None:
        """SIGTERM: Mosquitto saves its retained messages and exits; waited for."""
        proc, self.proc = self.proc, None
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(WAIT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc is not None and proc.stdout is not None:
            if self.reader is not None:
                self.reader.join(WAIT_S)  # it read to the end: a pipe closed under a reading thread raises there
            proc.stdout.close()


def started_broker(folder: Path, tournament_at: Callable[[int], Tournament]) -> tuple[Mosquitto, Tournament]:
    """A broker started in ``folder`` on a free port, and the tournament ``tournament_at(port)`` wrote
    for that port (its file names the broker's port); a port another process took first is picked again."""
    for _ in range(PORT_TRIES):
        port = free_port()
        t = tournament_at(port)
        mosquitto = Mosquitto(folder, t, port)
        try:
            mosquitto.start()
        except PortTaken:
            continue
        return mosquitto, t
    raise AssertionError(f"Mosquitto found no free port in {PORT_TRIES} tries")


@pytest.fixture
def league_file(tmp_path: Path) -> Callable[..., Path]:
    """Write a tournament file (and its broker's files) into tmp_path."""
    def make(port: int = 1883, **kw: object) -> Path:
        key_file = tmp_path / "organiser.key"
        public = signing.public_of(signing.load_key(key_file)) if key_file.exists() else signing.new_key(key_file)
        path = tmp_path / "cup.toml"
        path.write_text(tournament_text(port, key=f'public_key = "{public}"', **kw))  # type: ignore[arg-type]
        return path
    return make


@pytest.fixture
def broker(tmp_path: Path, league_file: Callable[..., Path], request: pytest.FixtureRequest) -> Iterator[Mosquitto]:
    from tests import runtimes

    runtimes.require("mosquitto", request.node.nodeid)
    mosquitto, _t = started_broker(tmp_path / "broker", lambda port: load(league_file(port)))
    try:
        yield mosquitto
    finally:
        mosquitto.stop()


def play_round_robin(folder: RoomFolder) -> None:
    """Every match ``folder``'s room can play now (its round robin, before a playoff is drawn),
    offline, seeded 1, 2, ... in turn."""
    seed = 1
    while play_next(folder, seed) is not None:
        seed += 1
