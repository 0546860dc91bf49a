"""A peer of the deciding process on its viewer socket (docs/processes.md, "Peers").

The deciding process takes viewers on a Unix socket (``--viewer-socket``);
a peer that is not the screen (the league's link, ``bench``, a test) says
what it is in its first message (``protocol.Hello``: a plain viewer, a
board follower, the phones' server), reads the views, sends inputs and may
put one line on the screens (``protocol.PeerLine``).

``PeerLink`` is that client end, beside the channel and the protocol it
speaks because peers of several packages use it (controller/league, and the
phones' server) and it is no side of the processes itself: it imports no
pygame and no aiohttp. The socket may not be there yet (the deciding process
makes it once it took the game over), and a deciding process killed
mid-game is started again by ``play`` on the same path: the link connects
as soon as one listens, says hello again and goes on, until the game's
``Ended`` comes, giving up after ``wait_s`` with nobody listening (logged)
once nobody will start one (``keep_waiting``).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from controller import channel
from controller import protocol as p

log = logging.getLogger("buzzerbox.peer")

#: how long a peer waits for a deciding process to listen (at the start, after one went away), and for
#: its next message (views come at least once a second): past it, the game is over for the peer
PEER_WAIT_S = 30.0
#: how often a peer looks whether a deciding process listens yet (polling a path, not pacing anything)
POLL_S = 0.05


class PeerLink:
    """A connection to the deciding process of a game as a socket peer of
    ``role`` (``protocol.ROLES``), kept across the deciding process's restarts."""

    def __init__(self, path: str | Path, role: str, name: str, *, wait_s: float = PEER_WAIT_S,
                 keep_waiting: Callable[[], bool] | None = None,
                 greeting: Callable[[], Sequence[p.Message]] | None = None,
                 ungreeted: Callable[[Sequence[p.Message]], None] | None = None,
                 idle_s: float | None = PEER_WAIT_S, answer_s: float | None = None) -> None:
        """``greeting``: what the peer says after its hello to each deciding process it connects to
        (a new one knows nothing of it: the phones' server's seats' codes and panel); ``ungreeted``
        is handed it back when it could not be sent (what it took to send waits again);
        ``idle_s``: a deciding process silent this long went away (None: never so, the menu's
        evening, silent between games); ``answer_s``: with no ``idle_s``, one that has not answered
        the hello within this long went away too (stuck, or never accepting: its listening queue
        connects the peer all the same); None: the role's, ``PEER_WAIT_S`` for the one role answered
        at once in and between games, the phones' server (handed its seats in a game, the box's
        language between games), no bound for the others (between games nobody answers them)."""
        if role not in p.ROLES:
            raise ValueError(f"a peer's role is one of {', '.join(p.ROLES)}, not {role!r}")
        self.path = str(path)
        self.role = role
        self.name = name
        self.wait_s = wait_s
        #: while it says True, waiting for a deciding process has no bound (the process that starts them
        #: lives: a new game's roll call may take minutes before its deciding process listens)
        self.keep_waiting = keep_waiting
        self.greeting = greeting
        self.ungreeted = ungreeted
        self.idle_s = idle_s
        self.answer_s = answer_s if answer_s is not None else PEER_WAIT_S if role == p.PHONES else None
        #: set while a deciding process is connected (a request waits for one: it may be starting again)
        self.connected = threading.Event()
        #: how many times it connected (more than once: a deciding process started again)
        self.connections = 0
        #: no more waiting for a deciding process: what the current one still sends, then the end
        #: (``play`` is done with the game: its deciding process has exited). A plain flag: a signal
        #: handler sets it (``finish``), and one must never take a lock the interrupted code may hold
        self.final = False
        self._lines: dict[str, str] = {}
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def run(self, take: Callable[[p.Message], None]) -> p.Ended | None:
        """Every message but ``Ended`` handed to ``take`` (on this thread), across
        the deciding process's restarts; the game's ``Ended``, or None: no
        deciding process listened for ``wait_s``, or it spoke another protocol
        (said in one line), or ``final`` was set and the last one went away."""
        deadline = time.monotonic() + self.wait_s
        while True:
            sock = self._connect(deadline)
            if sock is None:
                if not self.final:
                    log.warning("%s: no deciding process listened on %s for %g s: the game is over for it",
                                self.name, self.path, self.wait_s)
                return None
            try:
                for n, message in enumerate(self._received(sock)):
                    if n == 0 and self.idle_s is None and self.answer_s is not None:
                        with self._lock:  # answered: silent from now on is no sign of its going (the sends wait)
                            sock.settimeout(None)
                    if isinstance(message, channel.VersionMismatch):
                        print(f"buzzerbox: {message}", file=sys.stderr, flush=True)  # translated; a name would not be
                        return None
                    if isinstance(message, p.Ended):
                        return message
                    take(message)
            finally:
                self.connected.clear()
                with self._lock:
                    self._sock = None
                sock.close()
            if self.final:
                return None
            log.warning("%s: the deciding process went away: waiting up to %g s for the one started again",
                        self.name, self.wait_s)
            deadline = time.monotonic() + self.wait_s

    def _connect(self, deadline: float) -> socket.socket | None:
        """Connected as soon as a deciding process listens (a killed one leaves
        its socket file: refused until the next listens), hello and lines said;
        None past ``deadline`` or once ``final`` is set."""
        while not self.final:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(POLL_S)  # not blocking: a listener whose queue is full refuses at once (looked for again)
            try:
                sock.connect(self.path)
            except (FileNotFoundError, ConnectionRefusedError, BlockingIOError, TimeoutError):
                sock.close()
                if time.monotonic() >= deadline and (self.keep_waiting is None or not self.keep_waiting()):
                    return None
                time.sleep(POLL_S)  # looking for the listener again, not pacing anything
                continue
            # a deciding process that stopped sending (views come at least once a second) is one that went away;
            # with no idle bound, one that never answers the hello (``answer_s``)
            sock.settimeout(self.answer_s if self.idle_s is None else max(self.wait_s, self.idle_s))
            greeting: Sequence[p.Message] = ()
            try:
                with self._lock:
                    channel.send(sock, p.Hello(self.role, self.name))
                    for source, text in self._lines.items():  # a new deciding process knows none of them
                        channel.send(sock, p.PeerLine(source, text))
                    greeting = self.greeting() if self.greeting is not None else ()
                    for message in greeting:
                        channel.send(sock, message)
                    self._sock = sock
                self.connected.set()
            except OSError:  # it went away as it was greeted: looked for again
                sock.close()
                if greeting and self.ungreeted is not None:
                    self.ungreeted(greeting)
                continue
            self.connections += 1
            if self.connections > 1:
                log.warning("%s: connected to the deciding process started again", self.name)
            return sock
        return None

    def _received(self, sock: socket.socket) -> Iterator[p.Message | channel.VersionMismatch]:
        """What the deciding process sends until it goes away (a message that is not one: logged, skipped)."""
        while True:
            try:
                message = channel.receive(sock)
            except channel.VersionMismatch as exc:
                yield exc
                return
            except channel.ChannelError as exc:
                log.warning("%s: the deciding process sent something that is not a message (%s): ignored",
                            self.name, exc)
                continue
            if message is None:
                return
            yield message

    def send(self, message: p.Message) -> bool:
        """``message`` to the deciding process now (any thread); False while none is connected."""
        with self._lock:
            if self._sock is None:
                return False
            try:
                channel.send(self._sock, message)
            except OSError:
                return False
            return True

    def say(self, source: str, text: str | None) -> None:
        """One line on the screens (in the box's language; None: taken back), said again to
        a deciding process started again."""
        with self._lock:
            if text:
                self._lines[source] = text
            else:
                self._lines.pop(source, None)
        self.send(p.PeerLine(source, text))

    def finish(self) -> None:
        """No more waiting for a deciding process (any thread, a signal handler too: it takes no lock)."""
        self.final = True


class ViewedGame:
    """A game as the newest view of its deciding process says it (the screen's ``DecidingLink``,
    the phones' server's ``PhonesLink``): the seats' names and the host's pause, read off ``view``."""

    view: p.View = p.NO_VIEW

    @property
    def station_names(self) -> list[str]:
        """The seats' names, as the newest view has them."""
        return list(self.view.names)

    @property
    def host_paused(self) -> bool:
        """The host paused the game."""
        return self.view.host_paused


#: the longest path a Unix socket is bound at (sun_path: 108 bytes with its NUL on Linux, 104 on macOS)
SOCKET_PATH_MAX = 103 if sys.platform == "darwin" else 107


#: how ``private_socket``'s folders are named, and the file in each that names the process that made it
PRIVATE_PREFIX = "buzzerbox-peers-"
OWNER_FILE = "owner"
#: a private folder younger than this (its mtime) is never swept: its maker may be in another PID
#: namespace sharing /tmp (a container of the same user), where it looks dead, between making the
#: folder and listening on its socket
PRIVATE_SETTLE_S = 10.0


def private_socket(name: str = "peers.sock") -> Path:
    """Where a game's deciding process takes its peers: a path in a folder of its
    own that only this user may enter (0700), the socket itself made 0600; in
    the temporary folder ($TMPDIR), or in /tmp where that is so deep that no
    socket can be bound in it (the deciding process could not listen). The
    folder names its maker (``OWNER_FILE``); those of makers that died (a menu
    killed with -9 removes nothing) are swept first (``sweep_private``)."""
    sweep_private()
    folder = Path(tempfile.mkdtemp(prefix=PRIVATE_PREFIX))
    if len(bytes(folder / name)) > SOCKET_PATH_MAX:
        folder.rmdir()
        folder = Path(tempfile.mkdtemp(prefix=PRIVATE_PREFIX, dir="/tmp"))
    (folder / OWNER_FILE).write_text(f"{os.getpid()}\n", encoding="ascii")
    return folder / name


def sweep_private() -> None:
    """The private folders a dead process left (``private_socket``'s, in $TMPDIR and /tmp): each
    of this user's that names its maker, gone once that process is dead and nobody listens on
    its socket any more (a game its dead maker started plays on; its phones' server removes the
    folder at the game's end) and it is a few seconds old (``PRIVATE_SETTLE_S``: one just made may
    be another PID namespace's, not listening yet). Anything else is left: another user's, one without an owner file."""
    for base in dict.fromkeys((tempfile.gettempdir(), "/tmp")):
        with contextlib.suppress(OSError):
            for folder in Path(base).glob(PRIVATE_PREFIX + "*"):
                if _stale(folder):
                    _remove_folder(folder)


def _stale(folder: Path) -> bool:
    """``folder`` is this user's private folder, older than ``PRIVATE_SETTLE_S``, its maker dead
    and none of its sockets listened on."""
    try:
        if folder.is_symlink():
            return False
        status = folder.stat()
        if status.st_uid != os.getuid():
            return False
        if abs(time.time() - status.st_mtime) < PRIVATE_SETTLE_S:  # just made: its socket may not listen yet
            return False
        owner = int((folder / OWNER_FILE).read_text(encoding="ascii"))
        sockets = [entry for entry in folder.iterdir() if entry.is_socket()]
    except (OSError, ValueError):  # not ours, no owner named, gone meanwhile
        return False
    return not _alive(owner) and not any(_listened_on(sock) for sock in sockets)


def _alive(pid: int) -> bool:
    """A process ``pid`` exists (another user's too)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _listened_on(path: Path) -> bool:
    """Somebody accepts connections on the Unix socket at ``path`` (a killed listener's file refuses)."""
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(str(path))
    except OSError:
        return False
    finally:
        sock.close()
    return True


def _remove_folder(folder: Path) -> None:
    """A private folder gone with its owner file and what a socket left; nothing if it holds more or is gone."""
    with contextlib.suppress(OSError):
        for entry in folder.iterdir():
            if entry.name == OWNER_FILE or entry.is_socket():
                entry.unlink(missing_ok=True)
        folder.rmdir()


@contextlib.contextmanager
def given_or_private(args: argparse.Namespace) -> Iterator[str]:
    """``args.viewer_socket``: the one given, else a private one (``private_socket``) made for the
    while and removed after it (``remove_private``)."""
    private = getattr(args, "viewer_socket", None) is None
    if private:
        args.viewer_socket = str(private_socket())
    try:
        yield args.viewer_socket
    finally:
        if private:
            remove_private(Path(args.viewer_socket))
            args.viewer_socket = None


def remove_private(path: Path) -> None:
    """``private_socket``'s folder gone (the socket a killed deciding process left too): nothing if already gone."""
    with contextlib.suppress(OSError):
        path.unlink(missing_ok=True)
        (path.parent / OWNER_FILE).unlink(missing_ok=True)
        path.parent.rmdir()


def add_peer_args(parser: argparse.ArgumentParser) -> None:
    """A peer process's ``--starter`` and ``--private`` (the league's link, the phones' server)."""
    parser.add_argument("--starter", type=int, default=None,
                        help="the pid of the process that started this one (its parent if not given; read at "
                             "once, so one that died as this one started is seen gone)")
    parser.add_argument("--private", action="store_true",
                        help="the socket's folder was made for this game (controller.peer.private_socket): "
                             "removed at the end, also when its starter died")
