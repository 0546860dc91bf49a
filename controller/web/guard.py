"""What keeps a bar's guest Wi-Fi from bending the companion server: caps on
connections and sockets, deadlines for the silent and the slow, the Host
names the box answers to, and warnings that cannot flood the log.

Each limit is a number in ``Limits`` (the tests shrink them); the reasons
sit beside each one.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Limits:
    """The server's caps. The kiosk unit allows 8,192 descriptors
    (``LimitNOFILE``) and a shell 1,024: ``connections`` stays far below
    both, so the journal, the GPIO chip and the deciding channel can always
    open their files however many connections a guest opens."""

    #: TCP connections open at once (pages loading, WebSockets): beyond it a connection is closed at once
    connections: int = 256
    #: TCP connections one address may hold: a browser opens 6 per host for pages plus its
    #: WebSockets (``per_address``), twice that fits; one guest's half-open flood then takes
    #: an eighth of ``connections``, and the other phones still load their pages
    connections_per_address: int = 32
    #: WebSockets open at once over all addresses (a table of 7 phones, a host, a few boards fit many times)
    sockets: int = 64
    #: WebSockets one address may hold (7 seats + host + board from one laptop fit)
    per_address: int = 12
    #: a seat or host socket that has not said hello by then is closed
    hello_s: float = 10.0
    #: a connection that has not sent a whole request by then (silent, or a header dribbled byte by byte) is closed
    header_s: float = 10.0


#: the close code of a socket that never said hello
CLOSE_NO_HELLO = 4003


class QuietLog:
    """Warnings a stranger can cause (wrong tokens, refused connections): at
    most ``burst`` lines per ``window_s`` for each kind, then one line saying
    how many were left out. A flood of tries must not fill the SD card."""

    def __init__(self, log: logging.Logger, burst: int = 5, window_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.log = log
        self.burst = burst
        self.window_s = window_s
        self.clock = clock
        self._windows: dict[str, tuple[float, int]] = {}  # kind -> (window start, lines in it)
        self.left_out = 0

    def warning(self, kind: str, message: str, *args: object) -> None:
        now = self.clock()
        start, said = self._windows.get(kind, (now, 0))
        if now - start >= self.window_s:
            if said > self.burst:
                self.log.warning("companion: %d more lines like %r were left out", said - self.burst, kind)
            start, said = now, 0
        said += 1
        self._windows[kind] = (start, said)
        if said <= self.burst:
            self.log.warning(message, *args)
        else:
            self.left_out += 1
            if said == self.burst + 1:
                self.log.warning("companion: more %r lines this minute are left out", kind)


def own_names() -> set[str]:
    """The names (not addresses) a phone may call the box: anything else in
    a ``Host`` header is a DNS-rebinding page speaking for another site."""
    host = socket.gethostname().lower()
    return {"localhost", host, host + ".local"}


def host_name(host: str) -> str:
    """``Host`` without its port (``[::1]:8080`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str | None, local_address: str | None, names: set[str]) -> bool:
    """True when ``Host`` names the box: the address this very connection
    reached (a literal IP cannot be rebound to another site) or one of the
    box's own ``names``."""
    if not host:
        return False
    name = host_name(host)
    try:
        ip = ipaddress.ip_address(name)
    except ValueError:
        return name in names
    if local_address is None:
        return False
    try:
        here = ipaddress.ip_address(local_address.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(here, "ipv4_mapped", None)
    return ip == here or (mapped is not None and ip == mapped)


def _turn(transport: asyncio.BaseTransport) -> None:
    """A connection over a cap: told so in one short answer and closed."""
    assert isinstance(transport, asyncio.WriteTransport)
    transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    transport.close()


class _Turned(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        _turn(transport)


class _Counted(asyncio.Protocol):
    """One address's connection: the server's own protocol once the peer is
    known and under its address's cap, else turned away (no handler made)."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], held: Counter[str], cap: Callable[[], int],
                 on_turned: Callable[[str], None]) -> None:
        self._factory, self._held, self._cap, self._on_turned = factory, held, cap, on_turned
        self._inner: asyncio.Protocol | None = None
        self._address = ""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self._address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if self._held[self._address] >= self._cap():
            self._on_turned(self._address)
            _turn(transport)
            return
        self._held[self._address] += 1
        self._inner = self._factory()
        self._inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._inner is None:
            return
        self._held[self._address] -= 1
        if self._held[self._address] <= 0:
            del self._held[self._address]
        self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received() if self._inner is not None else None

    def pause_writing(self) -> None:
        if self._inner is not None:
            self._inner.pause_writing()

    def resume_writing(self) -> None:
        if self._inner is not None:
            self._inner.resume_writing()


def capped(factory: Callable[[], asyncio.Protocol], open_now: Callable[[], int], cap: Callable[[], int],
           on_turned: Callable[[], None], per_address: Callable[[], int] | None = None,
           on_address_turned: Callable[[str], None] | None = None) -> Callable[[], asyncio.Protocol]:
    """The server's protocol factory with caps: a connection beyond
    ``cap()`` open ones, or beyond ``per_address()`` from its address, is
    answered 503 and closed (its descriptor freed at once) instead of
    waiting in the server (where a half-open one holds its place until the
    header deadline)."""
    held: Counter[str] = Counter()

    def make() -> asyncio.Protocol:
        if open_now() >= cap():
            on_turned()
            return _Turned()
        if per_address is None:
            return factory()
        return _Counted(factory, held, per_address, on_address_turned or (lambda _address: on_turned()))

    return make
