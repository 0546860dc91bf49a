"""Every command docs/league.md gives, run as it is written there (the lines
are read from the page, with the hall's addresses and paths swapped for the
test's): the organiser's key, the file's check, the broker's files, the day's
CA and certificate with openssl, Mosquitto with TLS, the hub, a second hub
refused, a box playing its matches over TLS, a replay, a schedule change,
and the menu in a tournament (it delivers what its room owes)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.league.conftest import WAIT_S, Mosquitto, started_broker, tournament_text

pytestmark = pytest.mark.runtime("mosquitto")
ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "league.md"
#: the page's lines for the machine's administrator, not the box's: not run here
SYSTEM = ("apt-get install", "systemctl", "chown")
#: names of commands in the prose, not command lines (`buzzerbox results` has its own page)
NAMES = ("buzzerbox league", "buzzerbox results")


def doc_commands() -> list[str]:
    """Each command line of the page's code blocks, in order (comments and optional [..] parts left out)."""
    out, fenced = [], False
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        text = re.sub(r"\s+#.*$", "", line).strip()
        if fenced and re.match(r"^(sudo )?(buzzerbox|openssl|printf|mosquitto) ", text):
            out.append(re.sub(r"\s*\[[^\]]*\]", "", text.removeprefix("sudo ")))
        elif not fenced:  # and the ones the prose gives in `buzzerbox ...`
            out += [c for c in re.findall(r"`(buzzerbox [^`]+)`", line) if c not in out]
    return out


def until(what: Callable[[], bool], why: str) -> None:
    """Wait for a condition another process makes true (a readiness wait, bounded; never a measure)."""
    deadline = time.monotonic() + WAIT_S
    while not what():
        assert time.monotonic() < deadline, why
        time.sleep(0.05)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=WAIT_S) as res:
        return res.read().decode("utf-8")


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[dict[str, object]]:
    children: list[subprocess.Popen[str]] = []
    state: dict[str, object] = {"children": children}
    try:
        yield state
    finally:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
                child.wait(WAIT_S)
            for stream in (child.stdout, child.stderr):
                if stream is not None:
                    stream.close()
        broker = state.get("broker")
        if isinstance(broker, Mosquitto):
            broker.stop()


def test_every_command_of_the_league_page_runs_as_written(tmp_path: Path, hall: dict[str, object],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import runtimes

    runtimes.require("mosquitto")
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    commands = doc_commands()
    assert len(commands) >= 14, commands
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT), "BUZZERBOX_LANG": "en"}
    children = hall["children"]
    assert isinstance(children, list)
    ran: list[str] = []

    def swap(line: str) -> str:
        return line.replace("/etc/mosquitto/cup", str(tmp_path / "broker")).replace("192.168.1.10", "127.0.0.1")

    def run(line: str, *extra: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
        ran.append(line)
        if line.startswith("buzzerbox "):
            argv = [sys.executable, "-m", "controller", *swap(line).split()[1:], *extra]
            proc = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        else:
            proc = subprocess.run(swap(line), shell=True, cwd=tmp_path, env=env, capture_output=True, text=True,
                                  timeout=300)
        assert (proc.returncode == 0) == ok, f"{line}: {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        return proc

    def command(start: str) -> str:
        return next(c for c in commands if c.startswith(start))

    # the organiser's key first: its public half goes into the file
    keygen = run(command("buzzerbox league keygen"))
    public = keygen.stdout.strip()
    assert re.fullmatch(r'public_key = "[A-Za-z0-9+/]{43}="', public)
    from controller.league.tournament import Tournament, load

    def cup_file(port: int) -> Tournament:
        """The page's tournament file, naming the day's CA and the broker's port."""
        text = tournament_text(port, key=public).replace(f"port = {port}", f'port = {port}\ntls_ca = "ca.crt"')
        (tmp_path / "cup.toml").write_text(text)
        return load(tmp_path / "cup.toml")

    cup_file(1883)  # the broker's port until it starts (below, on a free one): nothing connects before
    assert run("buzzerbox league check cup.toml").stdout.startswith("OK: Spring Cup (cup): 3 rooms")  # the prose's

    run(command("buzzerbox league broker-config"))
    for line in commands:  # the day's CA and the broker's certificate, with openssl as the page does it
        if line.startswith(("openssl", "printf")):
            run(line)
    for name in ("server.crt", "server.key"):
        shutil.move(tmp_path / name, tmp_path / "broker" / name)
    mosquitto_line = command("mosquitto -c")
    assert mosquitto_line.endswith("/etc/mosquitto/cup/mosquitto.conf")
    ran.append(mosquitto_line)
    hall["broker"], _t = started_broker(tmp_path / "broker", cup_file)  # `mosquitto -c <folder>/mosquitto.conf`
    assert "certfile" in (tmp_path / "broker" / "mosquitto.conf").read_text()

    # the page's optional parts, with the test's own values
    serve = command("buzzerbox league serve") + " --port 0 --bind 127.0.0.1 --ledger cup.hub.jsonl"
    ran.append(command("buzzerbox league serve"))
    hub = subprocess.Popen([sys.executable, "-m", "controller", *serve.split()[1:]], cwd=tmp_path, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    children.append(hub)
    assert hub.stderr is not None
    serving = hub.stderr.readline()
    found = re.search(r"league hub: scoreboard http://127\.0\.0\.1:(\d+)/", serving)
    assert found is not None, serving
    base = f"http://127.0.0.1:{found.group(1)}"  # the port it bound
    until(lambda: '"up":true' in get(base + "/board.json").replace(" ", ""), "the hub never reached the broker")

    second = subprocess.run([sys.executable, "-m", "controller", *serve.split()[1:]], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert second.returncode != 0 and "another hub is serving this tournament" in second.stderr
    assert len(second.stderr.strip().splitlines()) == 1 and "Traceback" not in second.stderr

    play = command("buzzerbox play --league")
    for expected in ("a: match m1: ", "a: match m4: "):
        assert expected in run(play, "--headless", "--seconds", "0.3").stderr

    def taken() -> int:
        return int(re.search(r'"taken": (\d+)', get(base + "/stats.json")).group(1))  # type: ignore[union-attr]

    until(lambda: taken() == 2, "the box's results never reached the hub over TLS")
    assert "match m4 is played again next in room a" in run(command("buzzerbox league replay")).stdout
    assert "a: match m4: " in run(play, "--headless", "--seconds", "0.3").stderr
    until(lambda: taken() == 3, "the replay's result never reached the hub")
    assert (tmp_path / "data" / "buzzerbox" / "journals" / "league" / "cup" / "a" / "m4-2.jsonl").is_file()

    assert "schedule revision 1 published (2 moves)" in run(command("buzzerbox league reschedule")).stdout
    resume = command("buzzerbox play --resume")
    assert resume == "buzzerbox play --resume JOURNAL"  # run by tests/league/test_box.py on a crashed journal
    ran.append(resume)

    hub.send_signal(signal.SIGTERM)
    assert hub.wait(WAIT_S) == 0, hub.stderr.read()
    run_elsewhere = {"buzzerbox menu --league cup.toml --room a":
                     "test_the_menu_in_a_tournament_delivers_what_its_room_owes",
                     "buzzerbox league rehearse cup.toml":
                     "tests/league/test_box.py::test_a_rehearsal_plays_the_whole_tournament_with_simulated_boxes"}
    for line in commands:
        if line not in NAMES:
            assert line in ran or line in run_elsewhere, f"docs/league.md's `{line}` is run by no test"


def test_the_menu_in_a_tournament_delivers_what_its_room_owes(
        broker: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mock_pins: None) -> None:
    """`buzzerbox menu --league cup.toml --room a`: its link sends the results the room played offline."""
    import threading

    import pygame

    from controller.cli import main
    from controller.league.commands import room_folder
    from controller.league.pages import HubService
    from controller.league.simulated import play_next
    from controller.league.tournament import load

    assert "buzzerbox menu --league cup.toml --room a" in DOCS.read_text(encoding="utf-8")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    t = load(tmp_path / "cup.toml")
    folder = room_folder(t, "a", tmp_path / "journals")
    play_next(folder, 1)
    play_next(folder, 2)  # played while the broker was away
    service = HubService(t, tmp_path / "hub.jsonl", port=0, bind="127.0.0.1", reconnect_s=(1, 1)).start()
    hub = service.hub
    done = threading.Event()

    def leave_once_delivered() -> None:
        with hub.changed:
            hub.changed.wait_for(lambda: len(hub.results) == 2 or done.is_set(), WAIT_S)
        while not done.wait(0.3):  # then Esc leaves the menu
            if pygame.display.get_init():
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))

    leaver = threading.Thread(target=leave_once_delivered)
    leaver.start()
    try:
        assert main(["menu", "--league", str(tmp_path / "cup.toml"), "--room", "a", "--profile", "header-4",
                     "--journal-dir", str(tmp_path / "journals"), "--window"]) == 0
        assert len(hub.results) == 2 and folder.undelivered() == []
        with hub.changed:  # and it said goodbye: offline, not only by the broker's will
            assert hub.changed.wait_for(lambda: hub.rooms["a"].status is not None
                                        and not hub.rooms["a"].status.online, WAIT_S)
    finally:
        done.set()
        with hub.changed:
            hub.changed.notify_all()
        leaver.join()
        service.stop()
