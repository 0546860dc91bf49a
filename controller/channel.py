"""The channel between the deciding process and its viewers (docs/processes.md).

One stream socket (a ``socketpair`` made by whoever starts the other
process), messages both ways, each a 4-byte big-endian length and a pickle
of one dict with a ``"type"``. Only plain data crosses: the reader refuses
any class but the few value objects named in ``ALLOWED`` (a peer cannot
make the reader run code), and any message longer than ``MAX_MESSAGE_BYTES``.

The deciding process never waits for a viewer: it hands each message to an
``Outbox``, whose own thread writes it. Views are versioned and the newest
wins (a view not yet written when a newer one comes is dropped, and
counted); the events they carry are kept until written, the oldest dropped
past ``EVENTS_KEPT`` (counted too). A dead viewer's outbox just closes.
"""

from __future__ import annotations

import io
import logging
import pickle
import socket
import struct
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from games.base import BuzzerBoxError

log = logging.getLogger("buzzerbox.channel")

#: the largest message either side accepts (a view with every seat's hand is ~20 KB)
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: the events an outbox keeps for a viewer that is behind (sounds, messages, shows)
EVENTS_KEPT = 512
#: the only classes a message may hold (module, name): the game's events and the inputs, and the
#: stamp an input carries
ALLOWED = frozenset({("games.base", "GameEvent"), ("games.base", "Action"), ("controller.box.press", "Edge"),
                     ("controller.box.press", "Press"), ("controller.box.press", "InputNotice"),
                     ("controller.box.press", "Watermark"), ("games.arbitration", "Stamp")})
_LENGTH = struct.Struct(">I")

# message types: deciding process -> viewer
READY = "ready"  #: the deciding process runs: its pid and the priority it got
VIEW = "view"  #: a published view (``version``, the game's public view, the strip, ...) and the events since the last
ENDED = "ended"  #: the game is closed (journal end written, lights off): ``reason``
#: a view's key for the companion pages' snapshot (board, host, every seat's hand): only for the
#: screen that serves the phones (``--web``), built after the lamp when something was decided
COMPANION = "companion"
#: the phones' server's seat codes, PIN and replay counters: kept by the deciding process (screen ->
#: deciding, a ``seats`` message) and handed, in a view's ``seats`` key, only to a screen it starts
#: again, on that screen's private socketpair, so the phones it serves keep their seats
SEATS = "seats"
# viewer -> deciding process
EDGE, PRESS, NOTICE, ACTION = "edge", "press", "notice", "action"  #: stamped inputs (keyboard, phones)
#: how far a forwarding source (the keyboard read by the screen) has delivered (``mark``: a ``Watermark``)
WATERMARK = "watermark"
HOST = "host"  #: a host key by name (``name``), stamped ``t_us``
SHOWN = "shown"  #: the frame with the newest card / GO flipped at ``t_us``
STOP = "stop"  #: end the game (``reason``: menu, quit)


class ChannelError(BuzzerBoxError):
    """A message that is not one: too long, cut off, or holding something that is not plain data."""


class _PlainData(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in ALLOWED:
            raise ChannelError(f"a message holds {module}.{name}, which is not plain data: refused")
        return super().find_class(module, name)


def encode(message: dict[str, Any]) -> bytes:
    """One message as it goes on the wire (length first)."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    if len(body) > MAX_MESSAGE_BYTES:
        raise ChannelError(f"a message of {len(body)} bytes is over the channel's {MAX_MESSAGE_BYTES}")
    return _LENGTH.pack(len(body)) + body


def decode(body: bytes) -> dict[str, Any]:
    """A message's body back as a dict with a string ``type``, or ChannelError."""
    try:
        message = _PlainData(io.BytesIO(body)).load()
    except ChannelError:
        raise
    except Exception as exc:  # noqa: BLE001 (whatever a broken pickle raises: one error for it)
        raise ChannelError(f"a message that does not decode ({type(exc).__name__}): refused") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise ChannelError("a message without a type: refused")
    return message


def send(sock: socket.socket, message: dict[str, Any]) -> None:
    """Write one message now (the viewer's side: it may wait; the deciding process uses an ``Outbox``)."""
    sock.sendall(encode(message))


def _read_exactly(sock: socket.socket, n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> dict[str, Any] | None:
    """The next message, None when the other side has gone (closed or died);
    ChannelError for one that is not a message."""
    try:
        head = _read_exactly(sock, _LENGTH.size)
        if head is None:
            return None
        (length,) = _LENGTH.unpack(head)
        if length > MAX_MESSAGE_BYTES:
            raise ChannelError(f"a message of {length} bytes is over the channel's {MAX_MESSAGE_BYTES}: refused")
        body = _read_exactly(sock, length)
    except (ConnectionError, OSError):
        return None
    if body is None:
        raise ChannelError("a message cut off: the other side stopped mid-message")
    return decode(body)


class Outbox:
    """What the deciding process sends one viewer, written by a thread of its
    own: ``publish`` and ``put`` never wait. The newest view wins; events
    and other messages wait in bounded queues. ``dropped_views`` and
    ``dropped_events`` count what a slow viewer never got."""

    def __init__(self, sock: socket.socket, name: str = "viewer",
                 finish: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
        self.sock = sock
        #: turns each view into what is sent, on this outbox's thread just before it is encoded (the
        #: deciding process encodes the phones' pages here, after ``box.lock``); never raises
        self.finish = finish
        self.closed = False
        self.dropped_views = 0
        self.dropped_events = 0
        self.sent = 0
        self._view: dict[str, Any] | None = None
        self._events: deque[Any] = deque()
        self._messages: deque[dict[str, Any]] = deque(maxlen=EVENTS_KEPT)
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._write, name=f"buzzerbox-outbox-{name}", daemon=True)
        self._thread.start()

    def publish(self, view: dict[str, Any], events: list[Any]) -> None:
        """The newest view, with the events decided since the last one."""
        with self._wake:
            if self._view is not None:
                self.dropped_views += 1
                for kept in (COMPANION, SEATS):  # the pages' newest snapshot (and a new screen's seats) is kept
                    if self._view.get(kept) is not None and view.get(kept) is None:
                        view = {**view, kept: self._view[kept]}
            self._view = view
            self._events.extend(events)
            while len(self._events) > EVENTS_KEPT:
                self._events.popleft()
                self.dropped_events += 1
            self._wake.notify()

    def put(self, message: dict[str, Any]) -> None:
        """A message that is not a view (ready, ended): sent after the pending view."""
        with self._wake:
            self._messages.append(message)
            self._wake.notify()

    def _write(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self.closed or self._view is not None or bool(self._messages))
                if self.closed and self._view is None and not self._messages:
                    return
                view, self._view = self._view, None
                events = list(self._events)
                self._events.clear()
                messages = list(self._messages)
                self._messages.clear()
            if view is not None and self.finish is not None:
                view = self.finish(view)
            out = [] if view is None else [{**view, "events": events}]
            try:
                for message in out + messages:
                    self.sock.sendall(encode(message))
                    self.sent += 1
            except (OSError, ChannelError) as exc:
                log.info("a viewer went away (%s): nothing more is sent to it", exc)
                with self._wake:
                    self.closed = True
                    self._view = None
                    self._messages.clear()
                return

    def close(self, timeout_s: float = 2.0) -> None:
        """Send what is queued (at most ``timeout_s``), then stop writing."""
        with self._wake:
            self.closed = True
            self._wake.notify()
        self._thread.join(timeout_s)
