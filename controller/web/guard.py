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
    #: a socket that has not said what it is by then is closed: a seat's phone its hello (or that it
    #: is on the seat picker), a host page its PIN, a scoreboard its hello
    hello_s: float = 10.0
    #: sockets that have not proven themselves (a seat picker, a scoreboard, a seat or host page
    #: before its hello) one address may hold: past it, that address's oldest is closed
    waiting_per_address: int = 8
    #: such sockets over all addresses: past it, the oldest of the address holding the most is
    #: closed when that address holds more than the newcomer's (so a phone at a new address always
    #: gets the seat picker however many a guest holds); a joined phone or a logged-in host page
    #: is never closed for room
    waiting: int = 40
    #: a seat picker open this long without asking for a seat is closed (the page opens it again)
    picker_s: float = 120.0
    #: how long a phone handed a seat's token has to say hello with it (``seats.TAKE_HELLO_S``)
    take_s: float = 5.0
    #: an ask for a held seat the host leaves unanswered this long is withdrawn (its phone may ask again)
    ask_s: float = 120.0
    #: a connection that has not sent a whole request by then (silent, or a header dribbled byte by byte) is closed
    header_s: float = 10.0


#: the close code of a socket that never said hello
CLOSE_NO_HELLO = 4003
#: the close code of a seat picker idle past ``Limits.picker_s`` (its page opens another)
CLOSE_IDLE = 4004
#: the close code of a socket closed or refused for room (its page says the box is full and tries again)
CLOSE_FULL = 4008


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


class Malformed(logging.Filter):
    """aiohttp's own "Error handling request" records (a traceback each, for
    any malformed request a stranger sends) become one short line each in
    ``quiet`` (a few a minute, then counted), never a traceback in the log."""

    def __init__(self, quiet: QuietLog) -> None:
        super().__init__()
        self.quiet = quiet

    def filter(self, record: logging.LogRecord) -> bool:
        if not str(record.msg).startswith("Error handling request"):
            return True
        exc = record.exc_info[1] if record.exc_info else None
        text = str(getattr(exc, "message", exc) or "").strip()
        said = text.splitlines()[0][:120] if text else ""
        self.quiet.warning("malformed", "companion: a malformed request%s (%s%s)",
                           str(record.getMessage())[len("Error handling request"):][:60],
                           exc.__class__.__name__ if exc is not None else "?", f": {said}" if said else "")
        return False


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
    """A connection over a cap: told so in one short answer (in the box's
    language: a phone's browser shows it) and closed."""
    from games.i18n import _

    assert isinstance(transport, asyncio.WriteTransport)
    body = _("The box is full: try again in a minute.").encode()
    transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
    transport.close()


class _Turned(asyncio.Protocol):
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        _turn(transport)


class _Counted(asyncio.Protocol):
    """One address's connection: the server's own protocol once the peer is
    known and under its address's cap, else turned away (no handler made)."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], held: dict[str, list[_Counted]],
                 cap: Callable[[], int], on_turned: Callable[[str], None], full: Callable[[], bool]) -> None:
        self._factory, self._held, self._cap, self._on_turned, self._full = factory, held, cap, on_turned, full
        self._inner: asyncio.Protocol | None = None
        self._address = ""
        self._transport: asyncio.BaseTransport | None = None
        self._requested = False  # a whole request header came (a page loaded, a socket opened)
        self._tail = b""  # the last bytes of a header still coming (its end may be split)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        peer = transport.get_extra_info("peername")
        self._address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        mine = self._held.setdefault(self._address, [])
        if len(mine) >= self._cap() or (self._full() and not self._room(len(mine))):
            if not mine:
                del self._held[self._address]
            self._on_turned(self._address)
            _turn(transport)
            return
        mine.append(self)
        self._transport = transport
        self._inner = self._factory()
        self._inner.connection_made(transport)

    def _room(self, mine: int) -> bool:
        """Every connection is taken: the oldest of the address holding the most that has not
        finished a request (a slowloris dribbling its header, a silent one) is closed, when that
        address holds more than this one would. A phone at an address new to the box so always
        loads its page, however many addresses keep reconnecting."""
        heavy = max(self._held.values(), key=len, default=[])
        if len(heavy) <= mine + 1:
            return False
        victim = next((c for c in heavy if not c._requested), None)
        if victim is None or victim._transport is None:
            return False
        victim._forget()
        assert isinstance(victim._transport, asyncio.WriteTransport)
        victim._transport.abort()
        return True

    def _forget(self) -> None:
        mine = self._held.get(self._address, [])
        if self in mine:
            mine.remove(self)
        if not mine:
            self._held.pop(self._address, None)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._inner is None:
            return
        self._forget()
        self._inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._inner is not None:
            if not self._requested:
                seen = self._tail + data
                self._requested = b"\r\n\r\n" in seen or b"\n\n" in seen
                self._tail = seen[-3:]
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
    header deadline). With ``per_address``, a connection beyond ``cap()``
    may take the place of the heaviest address's idle one (``_Counted._room``)."""
    held: dict[str, list[_Counted]] = {}

    def make() -> asyncio.Protocol:
        if per_address is None:
            if open_now() >= cap():
                on_turned()
                return _Turned()
            return factory()
        return _Counted(factory, held, per_address, on_address_turned or (lambda _address: on_turned()),
                        lambda: open_now() >= cap())

    return make
