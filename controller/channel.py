"""The channel between the deciding process and its peers (docs/processes.md).

One stream socket (a ``socketpair`` made by whoever starts the other
process), messages both ways, each a 4-byte big-endian length and one
message of ``controller.protocol`` (typed, versioned, JSON on the wire:
no class but the protocol's own is rebuilt from it, and a game a message
names is one the reader knows already, ``registry.known``: so a peer cannot
make the reader run code), at most ``MAX_MESSAGE_BYTES`` long.

The deciding process never waits for a viewer: it hands each message to an
``Outbox``, whose own thread writes it. Views are versioned and the newest
wins (a view not yet written when a newer one comes is dropped, and
counted); the events they carry are kept until written, the oldest dropped
past ``EVENTS_KEPT`` (counted too). A dead viewer's outbox just closes.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import select
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from controller.protocol import ChannelError, Message, VersionMismatch, View, dumps, loads
from games.base import GameEvent

__all__ = ["EVENTS_KEPT", "MAX_MESSAGE_BYTES", "ChannelError", "Outbox", "VersionMismatch", "decode", "encode",
           "read_from", "receive", "send"]

log = logging.getLogger("buzzerbox.channel")

#: the largest message either side accepts (a view with every seat's hand is ~20 KB)
MAX_MESSAGE_BYTES = 4 * 1024 * 1024
#: the events an outbox keeps for a viewer that is behind (sounds, messages, shows)
EVENTS_KEPT = 512
_LENGTH = struct.Struct(">I")


def encode(message: Message) -> bytes:
    """One message as it goes on the wire (length first)."""
    body = dumps(message)
    if len(body) > MAX_MESSAGE_BYTES:
        raise ChannelError(f"a message of {len(body)} bytes is over the channel's {MAX_MESSAGE_BYTES}")
    return _LENGTH.pack(len(body)) + body


def decode(body: bytes) -> Message:
    """A message's body back as its message, or ChannelError (VersionMismatch: another install's)."""
    return loads(body)


def send(sock: socket.socket, message: Message) -> None:
    """Write one message now (the viewer's side: it may wait; the deciding process uses an ``Outbox``)."""
    sock.sendall(encode(message))


def read_from(fd: int, wait_s: float) -> Message | None:
    """The one message a pipe (``fd``) carries within ``wait_s`` (the phones' server's start-up:
    the game it serves on its stdin, its answer on its stdout); None: the pipe closed, or nothing
    whole came in time; ChannelError: what came is not a message (another install's: VersionMismatch)."""
    deadline = time.monotonic() + wait_s
    data, need = b"", _LENGTH.size
    while len(data) < need:
        ready, _w, _x = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            return None
        chunk = os.read(fd, need - len(data))
        if not chunk:
            return None
        data += chunk
        if need == _LENGTH.size == len(data):
            (length,) = _LENGTH.unpack(data)
            if length > MAX_MESSAGE_BYTES:
                raise ChannelError(f"a message of {length} bytes is over the channel's {MAX_MESSAGE_BYTES}: refused")
            need += length
    return decode(data[_LENGTH.size:])


def _read_exactly(sock: socket.socket, n: int) -> bytes | None:
    chunks, got = [], 0
    while got < n:
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            return None
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> Message | None:
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


#: a view's pages, encoded when called: the phones' snapshot (a dict: ``View.companion``) or the public
#: board alone (a text: ``View.board``, a board follower's); None: they could not be, the peer keeps its last
EncodedPages = Callable[[], dict[str, Any] | str | None]


class Outbox:
    """What the deciding process sends one viewer, written by a thread of its
    own: ``publish`` and ``put`` never wait. The newest view wins; events
    and other messages wait in bounded queues (or replace their like:
    ``put_newest``). ``dropped_views``, ``dropped_events`` and
    ``dropped_messages`` count what a slow viewer never got."""

    def __init__(self, sock: socket.socket, name: str = "viewer") -> None:
        self.sock = sock
        self.name = name
        self.closed = False
        self.dropped_views = 0
        self.dropped_events = 0
        #: messages that are not views dropped unsent (``put``), and those of the stretch being caught up on
        self.dropped_messages = 0
        self._behind = 0
        self.sent = 0
        #: messages that could not be encoded, dropped alone (``_encoded``)
        self.unsendable = 0
        self._view: View | None = None
        #: the pending view's phones' pages, encoded on this outbox's thread just before the view is sent
        #: (the deciding process builds them under ``box.lock``, the JSON is written after it); never raises
        self._pages: EncodedPages | None = None
        self._events: deque[GameEvent] = deque()
        self._messages: deque[Message] = deque(maxlen=EVENTS_KEPT)
        self._wake = threading.Condition()
        self._thread = threading.Thread(target=self._write, name=f"buzzerbox-outbox-{name}", daemon=True)
        self._thread.start()

    def publish(self, view: View, events: list[GameEvent], pages: EncodedPages | None = None) -> None:
        """The newest view (its ``events`` are these, added as it is sent), with the events decided since the
        last; ``pages``: its phones' pages (``View.companion``) or public board (``View.board``), encoded as it is sent."""
        with self._wake:
            if self._view is not None:
                self.dropped_views += 1
                old = self._view  # the pages' newest snapshot is kept
                if view.companion is None and view.board is None and pages is None:
                    if old.companion is not None or old.board is not None:
                        view = dataclasses.replace(view, companion=old.companion, board=old.board)
                    pages = self._pages
            self._view, self._pages = view, pages
            self._events.extend(events)
            while len(self._events) > EVENTS_KEPT:
                self._events.popleft()
                self.dropped_events += 1
            self._wake.notify()

    def put(self, message: Message) -> None:
        """A message that is not a view (``Ended``): sent after the pending view.
        Past ``EVENTS_KEPT`` waiting the oldest is dropped, counted
        (``dropped_messages``) and said in the log when the viewer catches up."""
        with self._wake:
            self._append(message)
            self._wake.notify()

    def put_newest(self, message: Message, merge: Callable[[Any, Any], Message]) -> None:
        """``message``, which makes the one of its kind still waiting last (not
        yet written) unneeded: that one becomes ``merge(old, message)`` (between
        an evening's games the stations' newest strip with both's presses), so a
        viewer that does not read for a while (a bots game) gets one, not a pile."""
        with self._wake:
            if self._messages and type(self._messages[-1]) is type(message):
                self._messages[-1] = merge(self._messages[-1], message)
            else:
                self._append(message)
            self._wake.notify()

    def _append(self, message: Message) -> None:
        if len(self._messages) == EVENTS_KEPT:
            self.dropped_messages += 1
            self._behind += 1
        self._messages.append(message)

    def _write(self) -> None:
        while True:
            with self._wake:
                self._wake.wait_for(lambda: self.closed or self._view is not None or bool(self._messages))
                if self.closed and self._view is None and not self._messages:
                    return
                view, self._view = self._view, None
                pages, self._pages = self._pages, None
                events = list(self._events)
                self._events.clear()
                messages = list(self._messages)
                self._messages.clear()
                behind, self._behind = self._behind, 0
            if behind:
                log.warning("%s was behind: %d messages it did not read in time were dropped, the oldest first",
                            self.name, behind)
            if view is not None and pages is not None:
                encoded = pages()
                if isinstance(encoded, str):
                    view = dataclasses.replace(view, board=encoded)
                elif encoded is not None:
                    view = dataclasses.replace(view, companion=encoded)
            out: list[Message] = [] if view is None else [dataclasses.replace(view, events=tuple(events))]
            try:
                for message in out + messages:
                    if (data := self._encoded(message)) is not None:
                        self.sock.sendall(data)
                        self.sent += 1
            except OSError as exc:
                log.info("a viewer went away (%s): nothing more is sent to it", exc)
                with self._wake:
                    self.closed = True
                    self._view = None
                    self._messages.clear()
                return

    def _encoded(self, message: Message) -> bytes | None:
        """``message`` as it goes on the wire; None (said in the log, counted in ``unsendable``) for one that
        cannot be: it alone is dropped. Such a failure used to close the outbox as if the viewer had gone
        (said at INFO only), and everything queued behind it went nowhere: a view that could not be encoded
        took the game's ``Ended`` with it, and ``play`` never heard how many records the disk refused."""
        try:
            return encode(message)
        except Exception as exc:  # noqa: BLE001 (a message built as the game changed under it: the next ones still go)
            self.unsendable += 1
            log.warning("%s: a %s message could not be encoded (%s): dropped, what follows it is sent",
                        self.name, getattr(message, "TAG", type(message).__name__), exc)
            return None

    def close(self, timeout_s: float = 2.0) -> bool:
        """Send what is queued (at most ``timeout_s``), then stop writing; False if it
        was not all written by then (the viewer did not read it)."""
        with self._wake:
            self.closed = True
            self._wake.notify()
        self._thread.join(timeout_s)
        return not self._thread.is_alive()
