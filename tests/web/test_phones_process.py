"""``play --web``'s phones' server is a process of its own, a peer of the
deciding process (docs/processes.md): the screen's process dying does not
take it along (a phone keeps its socket and its seat and is sent the next
view; nothing is served again), and a pack the host page uploads is saved
by the deciding process in the packs folder (before, ``play --web`` had
none: 404 "no packs folder here"). Every wait is for what the processes
say (a line, a reply, a page's text), never for time."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
from playwright.sync_api import expect

from controller import channel
from controller import protocol as p
from controller.peer import SOCKET_PATH_MAX
from games.i18n import _
from tests import processes
from tests.core.test_split import until
from tests.processes import connect_when_listening
from tests.web.test_menu_owner import saved_line
from tests.web.test_pack_upload import GOOD
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import DEADLINE_S, LAUNCH, ROOT, port_in, reply
from tests.web.test_split_phones_restart import ENV, play_first_card, running, take_seat


def test_a_phone_keeps_its_socket_and_seat_when_the_screen_is_killed_with_9(tmp_path: Path) -> None:
    """Seat 1's phone plays, the screen's process (``play``'s own) is killed with
    -9; the deciding process starts a new screen, and the phone, on the socket it
    had, is sent the view after seat 2's move and plays again. The server never
    stopped: it said where it serves once."""
    views_at, journal = tmp_path / "views.sock", tmp_path / "hands.jsonl"
    with running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--seed", "7", "--headless",
                  "--journal", str(journal), "--web", "0", "--viewer-socket", str(views_at)]) as (proc, err):
        port = port_in(err.wait_for(lambda x: "companion pages:" in x)[1])

        def kill_the_screen() -> None:
            proc.send_signal(signal.SIGKILL)  # the screen's process (play's own) dies
            proc.wait()
            err.wait_for(lambda x: "the screen process went away" in x)
            err.wait_for(lambda x: "a new screen process" in x)  # the deciding process started a new screen

        async def phones() -> dict[str, Any]:
            async with aiohttp.ClientSession() as session:
                first, _token = await take_seat(session, port, 0)
                card = await play_first_card(first, 1)
                await asyncio.to_thread(kill_the_screen)
                second, _token2 = await take_seat(session, port, 1)
                other = await play_first_card(second, 1)
                # the same socket: the view after seat 2's move (seat 1's turn again), then its move taken
                now = await reply(first, lambda m: m["type"] == "seat" and bool(m["moves"]))
                again = int(now["private"]["hand"][0])
                await first.send_json({"type": "move", "kind": "play", "args": {"card": again}, "seq": 2})
                assert (await reply(first, lambda m: m["type"] in ("ok", "refused")))["type"] == "ok"
                await first.close()
                await second.close()
                return {"card": card, "other": other, "now": now, "again": again}

        seen = asyncio.run(phones())
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            channel.send(sock, p.Stop("menu"))
            ended = until(sock, lambda m: isinstance(m, p.Ended))
        finally:
            sock.close()
    assert ended.loaded == {"pygame": False, "aiohttp": False}
    assert seen["card"] not in seen["now"]["private"]["hand"]
    assert sum("companion pages:" in line for line in err.lines) == 1  # served once: never started again
    records = [json.loads(x) for x in journal.read_text().splitlines()]
    assert [(r["player"], r["args"]["card"]) for r in records if r.get("type") == "action"] == [
        (0, seen["card"]), (1, seen["other"]), (0, seen["again"])]


def test_a_pack_uploaded_from_the_host_page_in_play_web_is_saved_in_the_packs_folder(
        tmp_path: Path, phone: Any) -> None:
    """The host page of ``play --web`` (Chromium) uploads a pack: the deciding
    process, which owns the packs folder, checks and saves it; the host reads that it was saved."""
    files, data = tmp_path / "files", tmp_path / "data"
    files.mkdir()
    (files / "night.csv").write_text(GOOD, encoding="utf-8")
    env = {**ENV, "XDG_DATA_HOME": str(data)}  # the packs folder: data/buzzerbox/packs
    with processes.running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--headless",
                            "--journal", str(tmp_path / "hands.jsonl"), "--web", "0"], env, ROOT) as (proc, err):
        _at, line = err.wait_for(lambda x: "companion pages:" in x)
        host = phone()
        host_logged_in(host, port_in(line), line)
        host.set_input_files("#pack-file", str(files / "night.csv"))
        host.click("#pack-send")
        expect(host.locator("#pack-lines li")).to_have_text([saved_line("night.csv")])
        # play mode has no menu now: the pack waits for the next evening's menu, and the page says so
        expect(host.locator("#status")).to_have_text(
            _("Pack saved: the menu's pack row offers it the next time the box runs its menu."))
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
    assert (data / "buzzerbox" / "packs" / "night.csv").read_text(encoding="utf-8") == GOOD



class PhonesServer:
    """``play --web``'s phones' server, found by its command line (it runs in a session of
    its own, so the test's group kill does not reach it; it names ``play`` its ``--starter``):
    its ``--viewer-socket``, and a pidfd that is readable once it has exited."""

    def __init__(self, play: subprocess.Popen[str]) -> None:
        for entry in Path("/proc").iterdir():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:  # not a process, or one that just ended
                continue
            if b"controller.web.process" in argv and b"--starter" in argv and \
                    argv[argv.index(b"--starter") + 1] == str(play.pid).encode():
                self.socket = Path(os.fsdecode(argv[argv.index(b"--viewer-socket") + 1]))
                self.pidfd = os.pidfd_open(int(entry.name))
                return
        raise AssertionError("play --web runs no phones' server")

    def wait_gone(self) -> None:
        ready, _w, _x = select.select([self.pidfd], [], [], processes.HANG_S)  # a hang bound, not a timing claim
        assert ready, "the phones' server never ended"

    def close(self) -> None:
        """Killed if a failed test left it running, its pidfd closed."""
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)
        os.close(self.pidfd)


def deep_tmpdir(tmp_path: Path) -> dict[str, str]:
    """An environment whose temporary folder is so deep that no socket can be bound in it
    (a CI's own, nested, was: the deciding process died binding its peers' socket there)."""
    deep = tmp_path / ("deep-" + "d" * 100)
    deep.mkdir()
    assert len(bytes(deep / "buzzerbox-peers-12345678" / "peers.sock")) > SOCKET_PATH_MAX
    return {**ENV, "TMPDIR": str(deep)}


def started(err: processes.Lines) -> None:
    """``play --web``'s game is on: its deciding process listens on the private socket (its ready
    line), or the test fails on the line that says it is not (before, a deep $TMPDIR broke it)."""
    _at, line = err.wait_for(lambda x: x.startswith("deciding process ") or "stopped before the game began" in x)
    assert line.startswith("deciding process "), "\n".join(err.lines)


def test_play_web_plays_with_a_deep_tmpdir_and_its_private_socket_folder_goes_at_its_end(tmp_path: Path) -> None:
    """``play --web`` without ``--viewer-socket`` makes a private folder (0700) for its deciding
    process's socket; where $TMPDIR is too deep for a socket it is made in /tmp (before: the
    deciding process died with a traceback and no game began). A normal end (SIGTERM, as Ctrl+C)
    leaves no folder behind."""
    with processes.running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--seed", "7",
                            "--headless", "--journal", str(tmp_path / "hands.jsonl"), "--web", "0"],
                           deep_tmpdir(tmp_path), ROOT) as (proc, err):
        started(err)
        server = PhonesServer(proc)
        try:
            folder = server.socket.parent
            assert folder.name.startswith("buzzerbox-peers-") and folder.stat().st_mode & 0o777 == 0o700
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
            server.wait_gone()
        finally:
            server.close()
    assert not folder.exists()


def test_the_private_socket_folder_goes_when_play_died_and_the_game_ended_without_it(tmp_path: Path) -> None:
    """``play`` killed with -9 cannot remove its private folder; the phones' server does, at
    the game's end (before 6a050af, every such game left one in /tmp)."""
    with processes.running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--seed", "7",
                            "--headless", "--journal", str(tmp_path / "hands.jsonl"), "--web", "0"],
                           deep_tmpdir(tmp_path), ROOT) as (proc, err):
        started(err)
        server = PhonesServer(proc)
        try:
            folder = server.socket.parent
            assert folder.is_dir()
            proc.send_signal(signal.SIGKILL)  # play dies: its own removal never runs
            proc.wait()
            err.wait_for(lambda x: "the screen process went away" in x)  # the deciding process plays on
            sock = connect_when_listening(str(server.socket), DEADLINE_S)
            try:
                channel.send(sock, p.Stop("menu"))
                until(sock, lambda m: isinstance(m, p.Ended))
            finally:
                sock.close()
            server.wait_gone()  # it ends at the game's end
        finally:
            server.close()
    assert not folder.exists()


def test_a_viewer_socket_too_long_to_bind_is_one_line_and_no_game(tmp_path: Path) -> None:
    """A ``--viewer-socket`` path no socket can be bound at is refused as the command is read
    (before, the start line came, then the deciding process's traceback and 'stopped before the game began')."""
    journal = tmp_path / "hands.jsonl"
    too_long = str(tmp_path / ("v" * SOCKET_PATH_MAX) / "views.sock")
    with processes.running([sys.executable, "-c", LAUNCH, "play", "hands", "--players", "2", "--headless",
                            "--journal", str(journal), "--web", "0", "--viewer-socket", too_long], ENV, ROOT) as (proc, err):
        code = proc.wait(DEADLINE_S)
    said = "\n".join(err.lines)
    assert code == 2 and "is too long for a socket" in said and "Traceback" not in said, said
    assert not journal.exists()
