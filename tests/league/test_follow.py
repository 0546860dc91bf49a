"""The league's peer of a match's deciding process (controller/league/follow.py)
with a real Mosquitto and ``play --league`` as users start it (the split
design): the hall keeps the live view and gets the result when ``play``'s own
process (the screen) is killed with -9 mid-match, the peer follows a deciding
process started again, and a peer with no deciding process ever ends by itself
in one line. No process outlives a test: play's group is killed, and the
peer, in a session of its own, is waited for (it ends by itself)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from controller import channel
from controller import protocol as p
from controller.league.broker import write_broker_files
from controller.league.commands import FOLLOWER_UNREACHABLE
from controller.league.hub import Hub
from controller.league.tournament import load
from tests.core.test_split import ENV, ROOT, ready_pid, until
from tests.league.conftest import WAIT_S, Mosquitto
from tests.league.test_tournament import start_hub, wait_for
from tests.processes import Lines, connect_when_listening, running

pytestmark = pytest.mark.runtime("mosquitto")


def board(hub: Hub, room: str = "b") -> dict[str, object]:
    live = hub.rooms[room].live
    return dict(live.board) if live is not None else {}


def followers(tmp_path: Path) -> list[int]:
    """The league peers this test's ``play`` started (their command line names its tournament file)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"controller.league.follow" in argv and str(tmp_path / "cup.toml").encode() in argv:
                found.append(int(entry.name))
    return found


def ended_by_themselves(pids: list[int]) -> bool:
    """The peers ended (each polled until gone, at most WAIT_S in all); any left is killed, and False."""
    give_up = time.monotonic() + WAIT_S
    left = list(pids)
    while left and time.monotonic() < give_up:
        left = [pid for pid in left if Path(f"/proc/{pid}").exists() and not zombie(pid)]
        time.sleep(0.02)  # polling for their exit, not pacing the test
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return not left


def zombie(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) == "Z"
    except (OSError, IndexError):
        return True


def play_league(tmp_path: Path, views_at: Path) -> list[str]:
    return [sys.executable, "-m", "controller", "play", "--league", str(tmp_path / "cup.toml"), "--room", "b",
            "--headless", "--seconds", str(WAIT_S * 4), "--viewer-socket", str(views_at)]


def env_of(tmp_path: Path) -> dict[str, str]:
    return {**ENV, "XDG_DATA_HOME": str(tmp_path / "data")}


def stopped(sock: socket.socket) -> None:
    channel.send(sock, p.Stop("menu"))
    until(sock, lambda m: isinstance(m, p.Ended))


def killed_midway(tmp_path: Path, kill: Callable[[subprocess.Popen[str], Lines, socket.socket], socket.socket]) -> None:
    """``play --league`` plays room b's match; once the hall has its board, ``kill`` kills a process of it
    (and hands back the test's viewer socket, connected again if it had to be); then the host arms: the hall
    must see it armed (a view decided after the kill), and, the game stopped, get the match's result; the
    league's peer ends by itself."""
    t = load(tmp_path / "cup.toml")
    service = start_hub(t, tmp_path / "hub.jsonl")
    hub, views_at = service.hub, tmp_path / "views.sock"
    try:
        assert service.conn.subscribed.wait(WAIT_S)
        with running(play_league(tmp_path, views_at), env_of(tmp_path), ROOT) as (proc, err):
            sock = connect_when_listening(str(views_at), WAIT_S)
            try:
                wait_for(hub, lambda: board(hub).get("live") is True, "the hall never got the match's board")
                assert board(hub).get("phase") != "armed"
                sock = kill(proc, err, sock)
                until(sock, lambda m: isinstance(m, p.View))  # the game is back: its keys are the game's again
                channel.send(sock, p.HostKey("arm", 0))
                wait_for(hub, lambda: board(hub).get("phase") == "armed", "the hall saw nothing after the kill")
                stopped(sock)
            finally:
                sock.close()
            wait_for(hub, lambda: "m2" in hub.results, "the match's result never reached the hall")
            assert ended_by_themselves(followers(tmp_path)), "the league's peer outlived the match"
    finally:
        service.stop()


def test_a_killed_screen_leaves_the_hall_its_live_view_and_the_result(broker: Mosquitto, tmp_path: Path) -> None:
    """``play --league``'s own process killed with -9 mid-match: the deciding
    process goes on (a new screen), and the hall still sees the game move (the
    host arms after the kill: the hall sees it armed), then gets the result."""
    def kill(proc: subprocess.Popen[str], err: Lines, sock: socket.socket) -> socket.socket:
        os.kill(proc.pid, signal.SIGKILL)  # the screen's process: play itself
        assert proc.wait(WAIT_S) == -signal.SIGKILL
        err.wait_for(lambda line: "a new screen process" in line)  # the deciding process goes on
        return sock

    killed_midway(tmp_path, kill)


def test_the_peer_follows_a_deciding_process_started_again(broker: Mosquitto, tmp_path: Path) -> None:
    """The match's deciding process killed with -9: ``play`` starts another on
    the same journal and socket, the peer says it connected to it, and the
    hall sees what it decides (armed after the kill), then the result."""
    def kill(_proc: subprocess.Popen[str], err: Lines, sock: socket.socket) -> socket.socket:
        _n, line = err.wait_for(lambda line: line.startswith("deciding process "))
        sock.close()
        os.kill(ready_pid(line), signal.SIGKILL)
        err.wait_for(lambda line: "league b: connected to the deciding process started again" in line)
        return connect_when_listening(str(tmp_path / "views.sock"), WAIT_S)  # the new one's

    killed_midway(tmp_path, kill)


def test_a_peer_with_no_deciding_process_ends_within_its_bound_in_one_line(
        league_file: Callable[..., Path], tmp_path: Path, silent_port: int) -> None:
    """No deciding process ever listens (and no broker): the peer gives up
    after its bound with one line, and its status and last line say why the
    results could not go (``play`` words that line)."""
    path = league_file(silent_port)
    write_broker_files(load(path), tmp_path / "broker")
    argv = [sys.executable, "-m", "controller.league.follow", "--league", str(path), "--room", "b",
            "--match", "m2", "--journals", str(tmp_path / "journals"), "--socket", str(tmp_path / "none.sock"),
            "--wait-s", "0.3", "--broker-wait-s", str(WAIT_S), "--log-level", str(30)]
    with running(argv, env_of(tmp_path), ROOT, stdout=subprocess.PIPE) as (proc, err):
        assert proc.stdout is not None
        out = proc.stdout.read()  # to its end: it exited
        assert proc.wait(WAIT_S) == FOLLOWER_UNREACHABLE
        err.join()
    said = [line for line in err.lines if "no deciding process" in line]
    assert len(said) == 1 and said[0].endswith(f"league b: no deciding process listened on {tmp_path / 'none.sock'} "
                                               "for 0.3 s: the game is over for it"), err.lines
    assert out.strip().splitlines()[-1].startswith("nothing answers at 127.0.0.1:"), out


#: the league's peer as ``python -m`` runs it, with a seam at its very end: two C-level exit functions that
#: run once Python has finalized (its own signal handlers put back to the default), each reading a byte
#: of stdin; the first byte taken says the peer is past its finalization, the second read holds it there
AT_ITS_EXIT = """
import ctypes, runpy, sys
libc = ctypes.CDLL(None)
for _ in range(2):
    ctypes.pythonapi.Py_AtExit(ctypes.cast(libc.getchar, ctypes.c_void_p))
runpy.run_module("controller.league.follow", run_name="__main__", alter_sys=True)
"""


def unread(fd: int) -> int:
    """How many bytes wait in the pipe whose end is ``fd``."""
    import array
    import fcntl
    import termios

    count = array.array("i", [0])
    fcntl.ioctl(fd, termios.FIONREAD, count)
    return count[0]


def test_plays_stop_as_the_peer_exits_does_not_take_its_status(
        league_file: Callable[..., Path], tmp_path: Path, silent_port: int) -> None:
    """``play`` says stop to its peer once done with the game; a peer that had ended by itself (the
    game's ``Ended`` seen) may be exiting just then, past Python's finalization, which puts the stop's
    handler back to the default: the stop ended it by the signal, its status lost, and ``play`` did
    not say the broker was out of reach (a fresh-clone run missed that line). The stop comes there
    (through the seam above): the status still says how the results went."""
    path = league_file(silent_port)
    write_broker_files(load(path), tmp_path / "broker")
    argv = [sys.executable, "-c", AT_ITS_EXIT, "--league", str(path), "--room", "b", "--match", "m2",
            "--journals", str(tmp_path / "journals"), "--socket", str(tmp_path / "none.sock"),
            "--wait-s", "0", "--broker-wait-s", str(WAIT_S), "--log-level", str(40)]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            env=env_of(tmp_path), cwd=ROOT, start_new_session=True)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        assert proc.stdout.readline().startswith(b"nothing answers at 127.0.0.1:")  # decided: unreachable
        proc.stdin.write(b"x")
        proc.stdin.flush()
        give_up = time.monotonic() + WAIT_S
        while unread(proc.stdin.fileno()) and time.monotonic() < give_up:
            time.sleep(0.01)  # polling for the first exit function's read, not pacing the test
        assert not unread(proc.stdin.fileno()), "the peer did not reach its exit"
        os.kill(proc.pid, signal.SIGTERM)  # play's stop, as the peer exits
        proc.stdin.close()  # the second read returns: the peer exits
        assert proc.wait(WAIT_S) == FOLLOWER_UNREACHABLE
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()


#: a starter that dies as soon as it started the league's peer (``play`` killed then), with the peer's bounds short
DIES_AT_ONCE = """
import subprocess, sys
from pathlib import Path
from controller.league import commands
popen = subprocess.Popen
def short(command, **kw):
    return popen([*command, "--wait-s", "0.3", "--broker-wait-s", "0.3"], **{**kw, "stdout": subprocess.DEVNULL})
commands.subprocess.Popen = short
print(commands.start_follower(sys.argv[1], "b", "m2", Path(sys.argv[2]), sys.argv[3]).pid, flush=True)
"""


def test_a_peer_whose_play_died_as_it_started_it_ends_by_itself(
        league_file: Callable[..., Path], tmp_path: Path, silent_port: int) -> None:
    """``play`` killed while its league peer still imported: the peer, waiting
    with no bound while play lives, sees it gone (it was told play's pid) rather
    than taking the process that adopted it for play and waiting for ever."""
    path = league_file(silent_port)
    write_broker_files(load(path), tmp_path / "broker")
    starter = subprocess.run([sys.executable, "-c", DIES_AT_ONCE, str(path), str(tmp_path / "journals"),
                              str(tmp_path / "none.sock")], env=env_of(tmp_path), cwd=ROOT,
                             capture_output=True, text=True, check=True, timeout=WAIT_S)
    assert ended_by_themselves([int(starter.stdout.strip())]), "the league's peer outlived its dead play"


def test_a_menu_matchs_peer_does_not_hold_the_menu_waiting_for_the_broker(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The menu's own link sends a match's result too (``--beside``): its peer
    asks the broker once at the end, not for ``BROKER_WAIT_S``, so the menu's
    thread is not held while the broker is out of reach; ``play``'s peer waits."""
    from controller.league import commands

    started: list[list[str]] = []
    monkeypatch.setattr(commands.subprocess, "Popen", lambda command, **_kw: started.append(command))
    for beside in (True, False):
        commands.start_follower("t.toml", "b", "m2", tmp_path, str(tmp_path / "peers.sock"), beside=beside)
    menus, plays = started
    assert menus[menus.index("--broker-wait-s") + 1] == "0"
    assert "--broker-wait-s" not in plays
