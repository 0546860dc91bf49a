"""A peer on the deciding process's viewer socket (controller/peer.py,
docs/processes.md "Peers"): a board follower gets the pages' public board
and no private hand, a peer's line is on the game's screen while it is
said, and a peer that says no hello (``bench``) stays a plain viewer."""

from __future__ import annotations

import json
import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.cli import main
from controller.peer import PeerLink
from controller.screen.loop import Presenter
from games import registry
from tests.processes import HANG_S, beside, connect_when_listening

#: bounds a failure only: each wait ends as soon as what it waits for comes
DEADLINE_S = HANG_S
LINE = "the hall's broker: a test line"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def hands(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with registry.register("hands", "tests.web.hands"):
        yield


def test_a_board_follower_gets_the_board_without_hands_and_its_line_is_on_the_screen(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    views_at, journal = tmp_path / "views.sock", tmp_path / "hands.jsonl"
    seen: dict[str, Any] = {"views": [], "plain": []}
    drawn = threading.Event()
    draw = Presenter.draw_view

    def drawing(self: Presenter, shown: p.View, spec: Any, now_us: int, surface: Any = None,
                frozen: bool = False) -> None:
        draw(self, shown, spec, now_us, surface, frozen)
        if (self.results if shown.finished else self.scene).message == LINE:
            drawn.set()

    monkeypatch.setattr(Presenter, "draw_view", drawing)
    link = PeerLink(views_at, p.BOARD, "test board", wait_s=DEADLINE_S)

    def take(message: p.Message) -> None:
        if not isinstance(message, p.View):
            return
        seen["views"].append(message)
        if message.board is not None and "said" not in seen:
            seen["said"] = True
            link.say("test", LINE)
        elif message.lines == (LINE,) and "cleared" not in seen:
            seen["on screen"] = drawn.wait(DEADLINE_S)
            seen["cleared"] = True
            link.say("test", None)
        elif "cleared" in seen and message.lines == () and "stopped" not in seen:
            seen["stopped"] = True
            link.send(p.Stop("menu"))

    def follow() -> None:
        plain = connect_when_listening(str(views_at), DEADLINE_S)  # no hello: a plain viewer, as bench is
        try:
            seen["ended"] = link.run(take)
            while (message := channel.receive(plain)) is not None:
                seen["plain"].append(message)
        finally:
            plain.close()
            if "stopped" not in seen:
                link.finish()

    with beside(follow):
        assert main(["play", "hands", "--players", "2", "--headless", "--seconds", str(DEADLINE_S),
                     "--journal", str(journal), "--web", "0", "--viewer-socket", str(views_at)]) == 0
    assert isinstance(seen["ended"], p.Ended) and seen["ended"].pages is None  # the closed pages hold the hands
    views: list[p.View] = seen["views"]
    boards = [json.loads(v.board) for v in views if v.board is not None]
    assert boards and boards[0]["game"] == "hands" and [pl["seat"] for pl in boards[0]["players"]] == [0, 1]
    assert all(v.companion is None for v in views)  # the phones' snapshot is the phones' server's alone
    assert not {"private", "hand", "moves"} & set().union(*(keys(b) for b in boards))  # no seat's page in it
    assert seen["on screen"], "the game's screen never showed the peer's line"
    assert any(v.lines == () for v in views[views.index(next(v for v in views if v.lines)):])  # taken back
    plain = [m for m in seen["plain"] if isinstance(m, p.View)]
    assert plain and all(v.board is None and v.companion is None for v in plain)
    assert any(v.lines == (LINE,) for v in plain)  # the lines go to every viewer


def keys(data: Any) -> set[str]:
    """Every key of a JSON value, at any depth."""
    if isinstance(data, dict):
        return set(data).union(*(keys(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(keys(v) for v in data))
    return set()


def test_a_peer_with_no_deciding_process_gives_up_within_its_bound(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Nothing ever listens: ``run`` ends (no Ended) after its bound, and the log says so once."""
    link = PeerLink(tmp_path / "nobody.sock", p.BOARD, "lonely", wait_s=0.2)
    with caplog.at_level("WARNING", logger="buzzerbox.peer"):
        assert link.run(lambda _m: None) is None
    said = [r.getMessage() for r in caplog.records if r.name == "buzzerbox.peer"]
    assert said == [f"lonely: no deciding process listened on {tmp_path / 'nobody.sock'} for 0.2 s: "
                    "the game is over for it"]


def test_a_peer_waits_past_its_bound_while_someone_will_start_a_deciding_process(tmp_path: Path) -> None:
    """A new game's roll call may take minutes before its deciding process
    listens: while ``keep_waiting`` says so the peer has no bound, and it
    connects (saying hello) once one listens, well past its ``wait_s``."""
    path = tmp_path / "late.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    looks: list[int] = []
    heard: list[p.Message | None] = []

    def deciding() -> None:
        conn, _addr = server.accept()
        with conn:
            heard.append(channel.receive(conn))
            channel.send(conn, p.Ended("menu"))

    answering = threading.Thread(target=deciding)

    def keep_waiting() -> bool:
        looks.append(1)
        if len(looks) == 3:  # the bound (0 s) long passed: the deciding process listens now
            server.bind(str(path))
            server.listen(1)
            answering.start()
        return True

    link = PeerLink(path, p.BOARD, "patient", wait_s=0, keep_waiting=keep_waiting)
    try:
        ended = link.run(lambda _m: None)
    finally:
        answering.join(DEADLINE_S)
        server.close()
    assert isinstance(ended, p.Ended) and heard == [p.Hello(p.BOARD, "patient")] and len(looks) >= 3


def test_the_halls_board_says_what_the_rooms_screen_says() -> None:
    """The board a follower gets is built where no scene is (the deciding
    process): its players' labels are worded as the game's scene words the
    strip on the room's screen (a false start: EARLY), as the hall saw them
    when the board was followed in the screen's process."""
    from controller.box.views import board_as_shown
    from games.scenes import scene_for

    spec = registry.get("reaction")
    board = json.dumps({"type": "state", "players": [{"seat": 0, "label": "Ready"}, {"seat": 1, "label": "Ready"}]})
    strip = [{"name": "A", "status": "idle"}, {"name": "B", "status": "idle"}]
    shown = board_as_shown(board, scene_for("reaction"), spec, {"phase": "go", "false_starts": [1], "pressed": [0]},
                           strip, finished=False)
    assert [player["label"] for player in json.loads(shown)["players"]] == ["pressed", "EARLY"]


def test_the_league_follower_words_the_board_so_without_loading_pygame() -> None:
    """The league's follower (a process of its own, drawing nothing) words the hall's board with the
    game's own wording, the one its scene calls, not with the scene: no pygame loaded for it."""
    import subprocess
    import sys

    probe = """
import json, sys
from dataclasses import replace
from controller import protocol as p
from controller.league.follow import board_wording
from controller.league.tournament import Match
board = json.dumps({"type": "state", "players": [{"seat": 0, "label": "Ready"}, {"seat": 1, "label": "Ready"}]})
view = replace(p.NO_VIEW, public={"phase": "go", "false_starts": [1], "pressed": [0]},
               strip=[{"name": "A", "status": "idle"}, {"name": "B", "status": "idle"}], board=board)
worded = board_wording(Match("m1", "hall", ("a", "b"), "reaction"))(view)
print(json.dumps([[player["label"] for player in json.loads(worded)["players"]], "pygame" in sys.modules]))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=HANG_S, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [["pressed", "EARLY"], False]


def test_a_peer_connected_before_a_game_that_never_came_is_let_go_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu refuses a match after its deciding process took the league's
    peer: closing the viewer socket closes that peer's connection, so it ends
    now instead of waiting out ``PEER_WAIT_S`` (the menu froze meanwhile)."""
    import time

    from controller import peer as peer_mod
    from controller.box.process import Link, Peers

    monkeypatch.setattr(peer_mod, "PEER_WAIT_S", 10 * DEADLINE_S)  # only its socket's closing can end it in time
    screen, mine = socket.socketpair()
    link = Link(mine)
    peers = Peers(str(tmp_path / "views.sock"), link, lambda _m: p.Answered(False))
    follower = PeerLink(tmp_path / "views.sock", p.BOARD, "league b", wait_s=0)
    ended: list[p.Ended | None] = []
    following = threading.Thread(target=lambda: ended.append(follower.run(lambda _m: None)), daemon=True)
    following.start()
    give_up = time.monotonic() + DEADLINE_S
    while not any(peer.role == p.BOARD for peer in link.peers) and time.monotonic() < give_up:
        time.sleep(0.01)  # waiting for its hello to be read, not pacing the test
    try:
        peers.close()
        following.join(DEADLINE_S)
        assert not following.is_alive() and ended == [None], "the peer still waits on a socket nobody writes to"
    finally:
        follower.finish()
        link.close()
        screen.close()


def test_a_peer_of_another_protocol_says_so_in_one_translated_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The deciding process speaks another protocol: the peer ends with the
    channel's own line (translated), no English name of the peer before it."""
    import struct

    path = tmp_path / "other.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    body = json.dumps([p.PROTOCOL + 1, "stop", "menu"]).encode()

    def deciding() -> None:
        conn, _addr = server.accept()
        with conn:
            conn.sendall(struct.pack(">I", len(body)) + body)
            channel.receive(conn)  # its hello: then the peer reads what was sent

    answering = threading.Thread(target=deciding)
    answering.start()
    try:
        assert PeerLink(path, p.PHONES, "the phones' server", wait_s=DEADLINE_S).run(lambda _m: None) is None
    finally:
        answering.join(DEADLINE_S)
        server.close()
    assert capsys.readouterr().err == f"buzzerbox: {p.VersionMismatch(p.PROTOCOL + 1)}\n"


def test_what_waited_for_a_deciding_process_is_kept_when_its_greeting_could_not_be_sent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's button pressed while no deciding process listened waits (``PhonesLink.held``) and goes
    in the greeting to the next one; one that goes away as it is greeted (the send fails) must not take
    it along: the one after gets it. Before, the held press was taken and lost with the failed send."""
    from controller.web.process import PhonesLink

    path = tmp_path / "deciding.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(2)
    peer = PeerLink(path, p.PHONES, "phones", wait_s=HANG_S)
    link = PhonesLink(registry.get("quiz"), registry.get("quiz").settings(2), peer)
    peer.greeting = lambda: [*link.held(), p.Seats({"pin": "123456"})]  # the seats last: the greeting's end
    peer.ungreeted = link.hold_again
    link.host_key("arm", 5_000)  # nobody listens yet: held
    real, failed = channel.send, []

    def send(sock: socket.socket, message: p.Message) -> None:
        if isinstance(message, p.HostKey) and not failed:  # the first deciding process went as it was greeted
            failed.append(message)
            raise BrokenPipeError
        real(sock, message)

    monkeypatch.setattr(channel, "send", send)
    heard: list[p.Message | None] = []

    def deciding() -> None:
        first, _addr = server.accept()  # open until the peer comes again: its greeting fails by the test's send
        conn, _addr = server.accept()  # alone (closed at once, the greeting's hello raced the close, and lost)
        first.close()
        with conn:
            while not heard or not isinstance(heard[-1], (p.Seats, type(None))):
                heard.append(channel.receive(conn))
            real(conn, p.Ended("menu"))

    answering = threading.Thread(target=deciding)
    answering.start()
    try:
        ended = peer.run(lambda _m: None)
    finally:
        answering.join(DEADLINE_S)
        server.close()
    # the host page's button goes as a host key by name (decided as the screen's keys), in game time (no view: +0)
    assert isinstance(ended, p.Ended) and failed == [p.HostKey("arm", 5_000)]
    assert heard == [p.Hello(p.PHONES, "phones"), p.HostKey("arm", 5_000), p.Seats({"pin": "123456"})]


#: a process holding a private peer folder as the menu does all evening (``given_or_private``), until killed
HOLDS_A_FOLDER = """
import argparse, sys
from controller.peer import given_or_private
with given_or_private(argparse.Namespace(viewer_socket=None)) as path:
    print(path, flush=True)
    sys.stdin.read()
"""


def made_long_ago(folder: Path) -> None:
    """``folder`` last changed an hour ago (its mtime): older than ``PRIVATE_SETTLE_S``."""
    import time

    an_hour_ago = time.time() - 3600
    os.utime(folder, (an_hour_ago, an_hour_ago))


def test_a_private_peer_folder_left_by_a_killed_process_is_swept_at_the_next_start(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu killed with -9 cannot remove its private folder: the next start (``private_socket``)
    does, as the folder names its dead maker. A living maker's folder, one whose socket is still
    listened on (a game its dead maker started plays on) and a folder naming no maker stay.
    Before, each killed menu left its folder in the temporary folder for good."""
    import subprocess
    import sys
    import tempfile

    from controller.peer import OWNER_FILE, private_socket, remove_private

    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    killed = []
    for _n in range(2):
        holder = subprocess.Popen([sys.executable, "-c", HOLDS_A_FOLDER], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert holder.stdout is not None
        killed.append(Path(holder.stdout.readline().strip()).parent)
        assert (killed[-1] / OWNER_FILE).read_text().strip() == str(holder.pid)
        holder.kill()
        holder.wait()
        made_long_ago(killed[-1])
    playing_on = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    playing_on.bind(str(killed[1] / "peers.sock"))  # the dead maker's game still listens there
    playing_on.listen(1)
    not_ours = tmp_path / "buzzerbox-peers-other"
    not_ours.mkdir()
    living = private_socket()
    try:
        mine = private_socket()
        assert not killed[0].exists()  # swept
        assert killed[1].is_dir() and not_ours.is_dir() and living.parent.is_dir()  # kept
        playing_on.close()
        (killed[1] / "peers.sock").unlink()  # that game ended (its deciding process removes its socket)
        made_long_ago(killed[1])
        remove_private(private_socket())
        assert not killed[1].exists() and not_ours.is_dir() and living.parent.is_dir() and mine.parent.is_dir()
    finally:
        playing_on.close()
        remove_private(living)
        remove_private(mine)
    assert sorted(tmp_path.iterdir()) == [not_ours]


def test_a_private_folder_just_made_is_kept_though_its_maker_looks_dead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A process in another PID namespace sharing /tmp (a container of the same user) looks dead
    here: between making its folder and listening on its socket, a sweep would remove it. A folder
    younger than ``PRIVATE_SETTLE_S`` is kept; the same folder older is swept. Before, the fresh
    one was swept too."""
    import subprocess
    import sys
    import tempfile
    import time

    from controller.peer import OWNER_FILE, PRIVATE_PREFIX, sweep_private

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid names nobody now
    folder = tmp_path / (PRIVATE_PREFIX + "elsewhere")
    folder.mkdir()
    (folder / OWNER_FILE).write_text(f"{dead.pid}\n", encoding="ascii")
    now = time.time()
    os.utime(folder, (now, now))
    sweep_private()
    assert folder.is_dir()  # just made: kept
    made_long_ago(folder)
    sweep_private()
    assert not folder.exists()  # left long ago by a dead maker: swept


def test_a_deciding_process_that_accepts_no_more_is_given_up_on_not_hung_on(tmp_path: Path) -> None:
    """A listener whose queue is full (a deciding process stuck, accepting nobody): the peer's
    connect does not block for ever; it looks again until its wait is over and says so (None)."""
    path = tmp_path / "deciding.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(0)
    queued: list[socket.socket] = []
    try:
        while True:  # the queue filled: the next connect would wait for an accept that never comes
            filler = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            filler.setblocking(False)
            try:
                filler.connect(str(path))
            except BlockingIOError:
                filler.close()
                break
            queued.append(filler)
        peer = PeerLink(path, p.PHONES, "phones", wait_s=0.0)
        ended: list[p.Ended | None] = []
        looking = threading.Thread(target=lambda: ended.append(peer.run(lambda _m: None)), daemon=True)
        looking.start()
        looking.join(DEADLINE_S)  # bounds a failure only: it returns at its first look past the wait
        assert ended == [None], "the peer hung in connect on a listener that accepts nobody"
    finally:
        for sock in queued:
            sock.close()
        server.close()


class Contended:
    """A lock that says when a thread has to wait for it (``waiting``), else the lock it wraps."""

    def __init__(self, lock: Any, waiting: threading.Event) -> None:
        self.lock, self.waiting = lock, waiting

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if self.lock.acquire(blocking=False):
            return True
        if not blocking:
            return False
        self.waiting.set()
        return bool(self.lock.acquire(True, timeout))

    def release(self) -> None:
        self.lock.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *_exc: object) -> None:
        self.release()


def test_a_phones_server_whose_hello_is_read_as_the_game_takes_its_peers_over_is_the_games_phones_server(
        tmp_path: Path) -> None:
    """The phones' server connected before the game, and its ``Hello`` is read by its link's reader
    just as the game takes the peers over (``Peers.start``: after the peer's role was looked at,
    before the game reads its link): it is the game's phones' server all the same (the pages in its
    views, its panel on the screens). Before, the lobby took the hello too late: the game had made
    it a plain viewer and refused its panel ("viewer-1 sent a panel message, which only the phones'
    server sends: ignored"), the flaky CI failure of test_join_code_wanted. A panel from a peer that
    is no phones' server is still refused."""
    from controller.box.process import DecidingGame, Link, Peers, shut
    from controller.box.runtime import Box

    spec = registry.get("reaction")
    game = DecidingGame(Box(spec, spec.settings(2, seed=1)), None, None, until_us=None, results_s=0, screen_args=[])
    screen, mine = socket.socketpair()
    link = Link(mine)
    peers = Peers(str(tmp_path / "views.sock"), link, lambda _m: p.Answered(False))
    panel = p.PhonesPanel("http://box:8080", None, (False, False))
    ends: list[socket.socket] = []
    for n in (1, 2):  # the phones' server and a board follower, listed as ``Peers._accept`` lists a peer before the game
        theirs, conn = socket.socketpair()
        ends.append(theirs)
        link.peers.append(Link(conn, f"viewer-{n}", lobby=link))
    phones = link.peers[0]
    read = threading.Event()  # the hello was taken, or the reader waits for the game to take the peer over
    taken_over = game.attach
    waits = phones.waits

    def waiting(message: p.Message) -> None:
        waits(message)
        if isinstance(message, p.Hello):
            read.set()

    def attach(sock: socket.socket, name: str, process: Any = None, role: str = p.VIEWER,
               link: Link | None = None) -> Any:
        if link is phones:  # the hello comes now: its role was looked at, its link is not the game's yet
            for message in (p.Hello(p.PHONES, "phones"), p.Panel(panel), p.PeerLine("phones", "said")):
                channel.send(ends[0], message)
            assert read.wait(DEADLINE_S)
        return taken_over(sock, name, process, role, link)

    said = {"phones": threading.Event(), "board": threading.Event()}
    take_from = game.take_from

    def taking(viewer: Any, message: p.Message) -> None:
        take_from(viewer, message)
        if isinstance(message, p.PeerLine):
            said[message.source].set()  # after what it sent before it

    phones.waits = waiting  # type: ignore[method-assign]
    phones._lock = Contended(phones._lock, read)  # type: ignore[assignment]
    game.attach = attach  # type: ignore[method-assign]
    game.take_from = taking  # type: ignore[method-assign]
    try:
        peers.start(game)
        assert said["phones"].wait(DEADLINE_S)
        viewers = {viewer.name: viewer for viewer in game.viewers}
        assert viewers["viewer-1"].role == p.PHONES and viewers["viewer-1"].companion
        assert game.panel == panel
        for message in (p.Hello(p.BOARD, "league"), p.Panel(None), p.PeerLine("board", "said")):
            channel.send(ends[1], message)
        assert said["board"].wait(DEADLINE_S)
        assert viewers["viewer-2"].role == p.BOARD and game.panel == panel  # not the phones': refused
    finally:
        peers.close()
        for viewer in game.viewers:
            viewer.outbox.close(0.5)
            shut(viewer.sock)
        for end in ends:
            end.close()
        link.close()
        screen.close()
        mine.close()


def test_an_evenings_phones_server_lets_a_deciding_process_that_never_answers_its_hello_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu's phones' server waits for the deciding process with no idle bound (silent between
    games), but its hello is answered at once in and between games (its seats, the box's language):
    one that accepted it and never answers (stuck; or its listening queue took the connection)
    is let go after ``PEER_WAIT_S`` and looked for again, instead of held on to for ever. Once
    answered, silence is no sign of its going. Before, the phones' server waited on it for good."""
    from controller import peer as peer_mod

    monkeypatch.setattr(peer_mod, "PEER_WAIT_S", 0.2)  # the phones' role's answer bound (read as it is made)
    path = tmp_path / "stuck.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(4)
    stuck = PeerLink(path, p.PHONES, "phones", wait_s=0, idle_s=None)
    ended: list[p.Ended | None] = []
    running = threading.Thread(target=lambda: ended.append(stuck.run(lambda _m: None)), daemon=True)
    running.start()
    try:
        conn, _addr = server.accept()
        with conn:
            conn.settimeout(DEADLINE_S)  # a hang guard only: the peer closes its end within its answer bound
            assert channel.receive(conn) == p.Hello(p.PHONES, "phones")
            try:
                assert conn.recv(1) == b"", "the peer sent more than its hello"
            except TimeoutError:
                pytest.fail("the phones' server still waits for a deciding process that never answers")
    finally:
        stuck.finish()
        server.close()  # what connected again meanwhile is let go: the peer, finished, ends
        running.join(DEADLINE_S)
    assert not running.is_alive() and ended == [None]

    path = tmp_path / "answers.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)
    answered = PeerLink(path, p.PHONES, "phones", wait_s=0, idle_s=None, answer_s=DEADLINE_S)
    timeouts: list[float | None] = []

    def take(_message: p.Message) -> None:
        assert answered._sock is not None
        timeouts.append(answered._sock.gettimeout())

    running = threading.Thread(target=lambda: ended.append(answered.run(take)), daemon=True)
    running.start()
    try:
        conn, _addr = server.accept()
        with conn:
            assert channel.receive(conn) == p.Hello(p.PHONES, "phones")
            channel.send(conn, p.SetLanguage("en"))
            channel.send(conn, p.Ended("menu"))
            running.join(DEADLINE_S)
    finally:
        answered.finish()
        server.close()
        running.join(DEADLINE_S)
    assert ended[-1] == p.Ended("menu") and timeouts == [None]  # answered: no bound on its silence
