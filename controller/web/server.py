"""The companion server: aiohttp on its own thread and event loop.

It runs in the phones' server's process (``controller/web/process.py``) and
is an input source like the buttons: a phone's move or a host button goes
to the deciding process (``ServedGame``), stamped on the box clock when it
arrives (``WEB_PRECISION_US``: a phone on Wi-Fi is no stopwatch, so no timing
contest is decided by it). It reads only the snapshots the deciding process
builds (``RelayedPublisher``).

Every message is checked before anything happens: size, JSON, schema, the
seat's token (constant time), a sequence number (a replayed message is
refused), and for a move, that it is one the seat is offered right now (the
engine checks it again). A refusal is one JSON line ``{"type": "refused",
"why": ...}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import secrets as random_codes
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from controller.box.inputs import HOST_STATION
from controller.box.press import InputNotice
from controller.box.runtime import HOST_CONTINUED, HOST_PAUSED, RENAMED
from controller.box.timeline import box_now_us
from controller.box.views import PICK, Publisher, Snapshot, messages, move_key, station_kinds
from controller.pack_store import MAX_UPLOAD_BYTES, NO_PACKS_FOLDER, Saved, too_large
from controller.peer import PEER_WAIT_S
from controller.web import DEFAULT_PORT, WebError, lan_address
from controller.web.guard import (
    CLOSE_FULL,
    CLOSE_IDLE,
    CLOSE_NO_HELLO,
    Limits,
    Malformed,
    QuietLog,
    capped,
    host_allowed,
    own_names,
)
from controller.web.seats import PIN_TRIES, Seats, board_url, host_url, join_url, seat_url, shown
from controller.web.serving import LoopThread
from games.base import (
    HOST_ADJUST,
    HOST_TEAM_NAME,
    Action,
    GameSettings,
    GameSpec,
    RuleError,
)
from games.glyphs import name_refusal
from games.i18n import N_, _, current_language, reason_text
from games.panels import TYPED
from games.quiz.teams import checked_team_name

log = logging.getLogger("buzzerbox.web")

#: a phone's action is stamped when it reaches the box: Wi-Fi adds up to this much
WEB_PRECISION_US = 100_000
#: the largest message a page may send (a move is ~100 bytes)
MAX_MESSAGE_BYTES = 2048
#: open WebSockets one address may hold (``Limits.per_address``)
MAX_SOCKETS_PER_ADDRESS = Limits.per_address
#: how many connections may wait to be accepted: a burst beyond the connection cap overshoots by no more
LISTEN_BACKLOG = 32
#: how deep a message's objects and lists may nest (a held move in a move's args is 4)
MAX_DEPTH = 6
#: a move's args: this many keys at most, each a short name, each value a plain scalar
MAX_ARGS = 8
#: where the host page posts a pack file (its PIN in a header)
PACK_UPLOAD_PATH = "/host/pack"
PAGES = {"/play": "player.html", "/host": "host.html", "/board": "board.html", "/": "board.html"}
#: each page's name in its browser tab (``TAB_TITLE``), in the box's language: three tabs of one box tell apart
PAGE_TITLES = {"player.html": N_("Your hand"), "host.html": N_("Host remote"), "board.html": N_("Scoreboard")}
TAB_TITLE = N_("{page} · {box}")
ASSETS = ("app.css", "common.js", "player.js", "player.css", "host.js", "board.js")
#: a player's name as the host types it: what a strip cell shows (``live.NAME_LENGTH``)
MAX_NAME_CHARS = 16
#: the host page's messages and the fields each takes (besides ``type`` and ``seq``)
HOST_MESSAGES: dict[str, tuple[str, ...]] = {"host": ("action",), "reissue": ("seat",), "score": ("seat", "points"),
                                             "name": ("seat", "name"), "team_name": ("team", "name"),
                                             "option": ("key", "value"), "show_pin": (),
                                             "approve": ("seat", "code"), "deny": ("seat", "code"),
                                             "rotate_pin": (), "pick": ("seat",), "start": ()}
#: how long the HDMI screen shows the PIN when a logged-in host asks (a co-host types it meanwhile)
PIN_SHOWN_S = 60.0
#: how often every page's socket hears the box (``{"type": "alive"}``) when nothing else is said: a page that
#: hears nothing for 2.5 times this (``Box.SILENT_MS`` in common.js) says its link is lost and opens a new one
KEEPALIVE_S = 10.0
ALIVE = json.dumps({"type": "alive"})
#: between the menu's games, how often the host page's "next game" is compared with the menu's
NEXT_GAME_POLL_S = 1.0
#: how long a server started again holds the sockets for the seats the deciding process kept (``settle``):
#: past it none were handed back, and it serves on its own new seats (the phones join again)
SEATS_WAIT_S = PEER_WAIT_S
#: close codes the pages understand
CLOSE_REFUSED = 4001  # bad token / re-issued seat: scan again
CLOSE_REPLACED = 4002  # the same seat joined from another tab or phone
#: phones asking the host for one seat at once (each with its own code on the host page)
MAX_ASKERS = 6
#: asks one address may have waiting at once (over all seats)
ASKS_PER_ADDRESS = 2
#: takes one address may have waiting for their hello at once (a laptop's tabs take one after another)
TAKES_PER_ADDRESS = 2
#: how long an address whose take lapsed (no hello came) waits before it may take a free seat again
TAKE_COOLDOWN_S = 30.0
#: the seats' news to host pages and pickers goes out at most this often (a flood of asks is one push)
SEATS_PUSH_S = 0.05


@dataclass
class Ask:
    """A phone asking the host for a held seat: the code it shows, the host page shows beside it."""

    ws: web.WebSocketResponse
    code: str
    address: str


class Refused(Exception):
    """A message the box will not act on; ``str`` says why, for the page."""


def _static(name: str) -> bytes:
    return resources.files("controller.web").joinpath("static", name).read_bytes()


def _no_constant(name: str) -> Any:
    raise ValueError(name)


def parse(text: str | bytes) -> dict[str, Any]:
    """A page's message as a dict with a string ``type``, or Refused. Any
    failure of the parser is a refusal: nesting too deep for it
    (``RecursionError``), numbers of thousands of digits, NaN, binary."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise Refused(_("message too long: at most {n} bytes").format(n=MAX_MESSAGE_BYTES))
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise Refused(_("nested too deeply: send a flat JSON object")) from None
    except Exception:  # noqa: BLE001 (ValueError, UnicodeDecodeError, digits limit: all mean "not JSON we take")
        raise Refused(_("not JSON: send one JSON object per message")) from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refused(_('not a message: send an object with a "type"'))
    if _depth(data) > MAX_DEPTH:
        raise Refused(_("nested too deeply: send a flat JSON object"))
    return data


def _depth(data: object) -> int:
    """How deep lists and objects nest in ``data`` (walked without recursion:
    what the parser took, nothing later may recurse into too deeply)."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            todo.extend((v, level + 1) for v in (item.values() if isinstance(item, dict) else item))
    return deepest


def _int(data: Mapping[str, Any], key: str, low: int = 0, high: int = 2**53) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise Refused(_('"{key}" must be a whole number from {low} to {high}').format(key=key, low=low, high=high))
    return value


def _args(data: Mapping[str, Any]) -> dict[str, Any]:
    args = data.get("args", {})
    if not isinstance(args, dict) or len(args) > MAX_ARGS:
        raise Refused(_('"args" must be an object with at most {n} keys').format(n=MAX_ARGS))
    for key, value in args.items():
        if len(key) > 40 or not _plain_arg(value):
            raise Refused(_('"args" values must be plain numbers or short texts'))
    return args


def _plain_arg(value: Any, nested: bool = True) -> bool:
    """A move's argument: a number or short text, a short list of them (two
    cards laid at once), or a whole move ``{"kind", "args"}`` (one held for
    the seat's station to confirm). The move must still equal one offered."""
    if value is None or isinstance(value, (int, bool, float)):
        return True
    if isinstance(value, str):
        return len(value) <= 200
    if isinstance(value, list):
        return len(value) <= MAX_ARGS and all(_plain_arg(v, False) for v in value)
    kind = value.get("kind") if isinstance(value, dict) else None
    if isinstance(value, dict) and nested and set(value) <= {"kind", "args"} and isinstance(kind, str) and len(kind) <= 40:
        inner = value.get("args", {})
        return isinstance(inner, dict) and len(inner) <= MAX_ARGS and all(
            isinstance(k, str) and len(k) <= 40 and _plain_arg(v, False) for k, v in inner.items())
    return False


def typed_text(kind: str, args: Mapping[str, Any], offered: frozenset[str]) -> str | None:
    """The text typed into a move offered with ``TYPED`` in that one argument's place; None when the
    move has no such text."""
    return next((value for key, value in args.items() if isinstance(value, str) and value != TYPED
                 and move_key(kind, {**args, key: TYPED}) in offered), None)


def typed_in(kind: str, args: Mapping[str, Any], offered: frozenset[str]) -> bool:
    """A move with a typed text: offered with ``TYPED`` in that one argument's place."""
    return typed_text(kind, args, offered) is not None


def _only(data: Mapping[str, Any], *keys: str) -> None:
    extra = set(data) - {"type", *keys}
    if extra:
        raise Refused(_("unknown fields: {names}").format(names=", ".join(sorted(extra))))


#: checks and saves a pack the host page sent (its file's name and bytes): where it was saved and the lines to show
Upload = Callable[[str, bytes], Saved]


class ServedGame(Protocol):
    """What the phones' server needs of the game it serves: where its inputs
    go (``web.process.PhonesLink``: to the game's deciding process)."""

    @property
    def spec(self) -> GameSpec: ...
    @property
    def settings(self) -> GameSettings: ...
    @property
    def lock(self) -> AbstractContextManager[Any]: ...
    @property
    def station_names(self) -> Sequence[str]: ...
    @property
    def host_paused(self) -> bool: ...
    def deliver_action(self, action: Action) -> None: ...
    def host_key(self, name: str, t_us: int) -> None: ...
    def notice(self, notice: InputNotice) -> None: ...


class CompanionServer(LoopThread):
    """The three pages and their WebSockets, for one game at a time: the
    menu's evening moves it from game to game (``swap``), keeping the port,
    the seats' codes and the PIN, so joined phones stay joined."""

    def __init__(self, box: ServedGame, *, publisher: Publisher, end_game: Callable[[], None],
                 port: int = DEFAULT_PORT, bind: str = "0.0.0.0",
                 seats: Seats | None = None, clock: Callable[[], int] = box_now_us,
                 address: str | None = None, on_rename: Callable[[int, str], None] | None = None,
                 on_option: Callable[[str, Any], bool] | None = None,
                 limits: Limits | None = None, upload: Upload | None = None,
                 awaits_seats: bool = False) -> None:
        """``publisher``: where the snapshots come from (a ``RelayedPublisher``
        fed by the deciding process); ``end_game``: the host page's "end" (the
        same ``Stop`` as the screen's Esc); ``upload``: who checks and saves a
        pack uploaded from the host page (the deciding process, which owns the
        packs folder; None: no upload here); ``awaits_seats``: a server started
        again, whose WebSockets and uploads wait until it holds the seats the one
        before it had (``settle``)."""
        super().__init__()
        self.box: ServedGame = box
        self.upload = upload
        self.limits = limits or Limits()
        #: warnings a stranger can cause, at most a few a minute each
        self.quiet = QuietLog(log)
        #: aiohttp's traceback for each malformed request, made one of ``quiet``'s lines
        self._malformed = Malformed(self.quiet)
        self._names = own_names() | ({address.lower()} if address else set())
        self._tcp: asyncio.AbstractServer | None = None
        self.port = port
        self.bind = bind
        self.clock = clock
        self.seats = seats or Seats(box.settings.players)
        self.publisher = publisher
        self.address = address
        self._runner: web.AppRunner | None = None
        self._seat_sockets: dict[int, list[web.WebSocketResponse]] = {}
        self._host_sockets: list[web.WebSocketResponse] = []
        self._board_sockets: list[web.WebSocketResponse] = []
        self._per_address: Counter[str] = Counter()
        #: sockets not proven yet (pickers, scoreboards, before a hello) -> their address, oldest first
        self._waiting: dict[web.WebSocketResponse, str] = {}
        #: sockets closed for room: already counted out of ``_per_address``
        self._evicted: set[web.WebSocketResponse] = set()
        self._last_seq: dict[int, int] = {}
        #: the last sequence number each host socket sent: a replay is a resend on the same socket,
        #: so a second host page (a co-host's phone) counts its own taps from 1
        self._host_seq: dict[web.WebSocketResponse, int] = {}
        self._joined = [False] * self.seats.count
        #: phones on the seat picker (told when a seat is taken or freed)
        self._pickers: list[web.WebSocketResponse] = []
        #: seat -> the phones asking to take it over, each with its code (the host chooses on the host page)
        self._asking: dict[int, list[Ask]] = {}
        #: picker sockets that were handed a seat's token -> (that seat, their address): one take a socket
        self._took: dict[web.WebSocketResponse, tuple[int, str]] = {}
        #: address -> until when (``seats.clock``) it may not take a free seat (a take of it lapsed)
        self._take_cooldown: dict[str, float] = {}
        self._seats_due = False  # a push of the seats' news is scheduled
        self._seats_sent: dict[web.WebSocketResponse, str] = {}  # what each host page and picker was last sent
        #: until when (``time.monotonic``) the host asked the HDMI screen to show the PIN
        self._pin_until = 0.0
        #: a host logged in once: from then on the PIN is on the big screen only when a host asks
        self._host_ever = False
        #: a name the host typed, for whoever keeps names (the menu, the profile's file); runs on the server thread
        self.on_rename = on_rename
        self.end_game = end_game
        #: an option for the menu's next game (``Menu.set_option``); None outside the menu
        self.on_option = on_option
        #: the host page's "start" between the menu's games (the evening's phones' server asks the menu); False:
        #: not asked. None: no menu to ask
        self.on_start: Callable[[], bool] | None = None
        self.refusals = 0  # counted for the tests and the benchmark
        #: told the seats' codes, the PIN and the replay counters whenever they change (the split
        #: design keeps them in the deciding process, so a screen started again serves the same phones)
        self.on_secrets: Callable[[dict[str, Any]], None] | None = None
        self._secrets_told: dict[str, Any] | None = None  # what ``on_secrets`` was last given
        self._watcher: asyncio.Task[None] | None = None
        self._alive: asyncio.Task[None] | None = None  # the keepalive (``KEEPALIVE_S``)
        #: it holds the seats it serves (its own, or those ``settle`` restored): sockets are let in
        self._settled = threading.Event()
        if not awaits_seats:
            self._settled.set()
        self._let_in: asyncio.Event | None = None  # ``_settled`` as the loop waits for it
        #: told once the server holds its seats (a server started again answers its starter then)
        self.on_settled: Callable[[], None] | None = None

    # -- where people go ----------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://{self.address or lan_address()}:{self.port}"

    def seat_url(self, seat: int) -> str:
        return seat_url(self.base_url, seat, self.seats.token(seat))

    def host_url(self) -> str:
        return host_url(self.base_url)

    def join_url(self) -> str:
        return join_url(self.base_url)

    def board_url(self) -> str:
        return board_url(self.base_url)

    def pin_wanted(self) -> bool:
        """Whether the HDMI screen shows the host PIN now: until the first
        host logs in, then only for a minute after a host asked (the host
        page, or the box's keyboard: ``show_pin``), never because a host's
        tab closed or its phone slept. Otherwise a player could read it and
        judge their own answer."""
        return not self._host_ever or time.monotonic() < self._pin_until

    def show_pin(self) -> None:
        """The HDMI screen shows the PIN for a minute (a co-host logs in)."""
        self._pin_until = time.monotonic() + PIN_SHOWN_S

    def box_key_pin(self) -> None:
        """The box's own key: a person at the box asked, so the PIN is shown and every
        address that sent wrong PINs may try again (the host's phone always gets back in)."""
        self.seats.forgive()
        log.info("companion: the PIN was asked for on the box: every address may log in again")
        self.show_pin()

    def secrets(self) -> dict[str, Any]:
        """What a server started again needs to serve the same phones and host pages (``restore``)."""
        return {"seats": self.seats.state(), "host_ever": self._host_ever,
                "last_seq": {str(seat): seq for seat, seq in self._last_seq.items()}, "port": self.port}

    def restore(self, secrets: Mapping[str, Any]) -> None:
        """A crashed server's ``secrets``: the same seats' codes and PIN (its phones and host pages
        rejoin), a host who logged in keeps the PIN off the big screen, a phone's repeated message
        is still refused. Malformed ones are a ``ValueError`` (nothing restored)."""
        try:
            seats = Seats.restored(secrets["seats"])
            host_ever = bool(secrets.get("host_ever"))
            last_seq = {int(seat): int(seq) for seat, seq in dict(secrets.get("last_seq") or {}).items()}
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a server's seats ({exc.__class__.__name__}: {str(exc)[:80]})") from None
        self.seats, self._host_ever, self._last_seq = seats, host_ever, last_seq
        self._joined += [False] * (self.seats.capacity - len(self._joined))

    @property
    def settled(self) -> bool:
        """It holds the seats it serves: its own, or those a server before it had (``settle``)."""
        return self._settled.is_set()

    def settle(self, secrets: Mapping[str, Any] | None) -> None:
        """A server started again (``awaits_seats``) holds the seats the one before it had
        (``secrets``, kept by the deciding process; None: none kept, it keeps its own new ones),
        and lets the waiting sockets in (any thread: done on the loop's). Once only."""
        loop = self.loop
        if loop is None:
            self._settle_now(secrets)
        else:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nothing to let in
                loop.call_soon_threadsafe(self._settle_now, secrets)

    def _settle_now(self, secrets: Mapping[str, Any] | None) -> None:
        if self._settled.is_set():
            return
        if secrets:
            try:
                self.restore(secrets)
                log.info("companion: the seats' codes and the PIN of the server before are kept: its phones rejoin")
            except ValueError as exc:
                log.warning("companion: the seats handed back could not be restored (%s): new seats, phones join again",
                            exc)
        self._settled.set()
        if self._let_in is not None:
            self._let_in.set()
        self._secrets_changed()  # the deciding process keeps what is served now
        if self.on_settled is not None:
            self.on_settled()

    def _unsettled(self) -> None:
        """``SEATS_WAIT_S`` passed and no seats were handed back: it serves its own new ones."""
        if not self._settled.is_set():
            log.warning("companion: no deciding process handed back the seats in %g s: new seats, phones join again",
                        SEATS_WAIT_S)
            self._settle_now(None)

    async def _admitted(self) -> None:
        """A socket or an upload waits until the server holds its seats (``SEATS_WAIT_S`` at most: ``_unsettled``):
        a phone that rejoined a server started again before then would be refused its seat's code."""
        if self._let_in is not None:
            await self._let_in.wait()

    def _secrets_changed(self) -> None:
        """The deciding process keeps the seats' codes at once, not at the next coalesced push:
        a screen that dies right after a phone joined is started again with that seat."""
        if self.on_secrets is not None:
            secrets = self.secrets()
            if secrets == self._secrets_told:
                return
            self._secrets_told = secrets
            try:
                self.on_secrets(secrets)
            except Exception:  # noqa: BLE001 (the pages go on; a screen started again may ask phones to rejoin)
                log.exception("companion: could not keep the seats' codes with the deciding process")

    def joined(self) -> list[bool]:
        """Which of this game's seats a phone holds now."""
        return list(self._joined[: self.seats.count])

    def held(self) -> list[bool]:
        """Which of this game's seats a phone cannot take at a tap (held, being taken, or kept for
        the host's choice): the big screen's "scan to join" lists only the others, as the picker does."""
        return [not self.seats.free(i) for i in range(self.seats.count)]

    # -- the loop thread's side ------------------------------------------------------------
    def start(self) -> None:
        """Serve on a thread of its own; returns once listening (or raises WebError)."""
        self.publisher.listeners.append(self._published)
        logging.getLogger("aiohttp.server").addFilter(self._malformed)
        error = self._start_loop("companion-web")
        if error is not None:
            raise WebError(_("cannot serve the companion pages on port {port}: {why}; choose another with --web PORT")
                           .format(port=self.port, why=error)) from None
        log.info("companion pages at %s (host %s, PIN %s)", self.base_url, self.host_url(), self.seats.pin)

    def swap(self, box: ServedGame, publisher: Publisher) -> None:
        """The menu's next game on the same server, with its own publisher: the
        same port, PIN and seats' codes (seats are added for a larger game,
        kept for a smaller one); joined phones stay joined and are sent the new
        game's views."""
        self.detach()
        if self._published in self.publisher.listeners:
            self.publisher.listeners.remove(self._published)
        self.publisher = publisher
        publisher.listeners.append(self._published)
        self._serve_box(box)
        self._published(publisher.latest)

    def _serve_box(self, box: ServedGame) -> None:
        """The pages follow ``box`` from now on (the last game detached), with seats for all its players."""
        self.box = box
        self.seats.resize(box.settings.players)
        self._joined += [False] * (self.seats.capacity - len(self._joined))
        log.info("companion pages now serve %s", box.spec.title)

    def detach(self) -> None:
        """The game closed (the menu is back): the pages say no game runs."""
        if self.publisher.live:
            self.publisher.detach()

    def stop(self) -> None:
        """Close every socket and the port. Never raises: it runs while the
        game closes, which must still write the journal's end and turn the
        lights off whatever a phone does."""
        logging.getLogger("aiohttp.server").removeFilter(self._malformed)
        loop, self.loop = self.loop, None
        if loop is None or self._thread is None or not self._thread.is_alive():
            return
        try:
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(timeout=5)
        except Exception as exc:  # noqa: BLE001 (said, and the closing goes on)
            log.warning("companion: stopping the server: %s", exc or exc.__class__.__name__)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(5)

    def _published(self, snap: Snapshot) -> None:
        loop = self.loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # closed meanwhile: nobody left to tell
                loop.call_soon_threadsafe(self._push, snap)

    # -- the server thread --------------------------------------------------------------
    async def _open(self) -> None:
        app = web.Application(client_max_size=MAX_MESSAGE_BYTES, middlewares=[self._only_own_host])
        app.router.add_get("/ws/seat", self._ws_seat)
        app.router.add_get("/ws/host", self._ws_host)
        app.router.add_get("/ws/board", self._ws_board)
        app.router.add_get("/messages.json", self._messages)
        for path in PAGES:
            app.router.add_get(path, self._page)
        app.router.add_get("/static/{name}", self._asset)
        app.router.add_post(PACK_UPLOAD_PATH, self._upload_pack)
        # an access log would be noise, tokens never reach it anyway; a connection idle before
        # its first whole request (silent, or dribbling a header) is closed after header_s
        self._runner = web.AppRunner(app, access_log=None, keepalive_timeout=self.limits.header_s)
        await self._runner.setup()
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._loop_trouble)
        server = self._runner.server
        assert server is not None
        self._tcp = await loop.create_server(
            capped(server, lambda: len(server.connections), lambda: self.limits.connections, self._turned,
                   lambda: self.limits.connections_per_address, self._address_turned),
            self.bind, self.port, backlog=LISTEN_BACKLOG, reuse_address=True)
        if self.port == 0:  # tests: the port the system chose
            self.port = int(self._tcp.sockets[0].getsockname()[1])
        self._let_in = asyncio.Event()
        if self._settled.is_set():
            self._let_in.set()
        else:  # none handed back in time (no deciding process listens): it serves its own new seats
            loop.call_later(SEATS_WAIT_S, self._unsettled)
        self._watcher = loop.create_task(self._watch_next_game())
        self._alive = loop.create_task(self._keep_alive())

    def _turned(self) -> None:
        self.quiet.warning("connections", "companion: %d connections open; closed another",
                           self.limits.connections)

    def _address_turned(self, address: str) -> None:
        self.quiet.warning("address_connections", "companion: %s holds %d connections; closed another",
                           address, self.limits.connections_per_address)

    def _loop_trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's own complaints (accept() out of descriptors, a
        socket reset mid-write): one short line each, never a traceback flood."""
        exc = context.get("exception")
        self.quiet.warning("loop", "companion: %s%s", context.get("message", "trouble"),
                           f" ({exc.__class__.__name__}: {exc})" if exc is not None else "")

    @web.middleware
    async def _only_own_host(self, request: web.Request,
                             handler: Callable[[web.Request], Any]) -> web.StreamResponse:
        """Every request must name the box in ``Host``: a page of another
        site whose name was rebound to the box's address names itself."""
        peer = request.transport.get_extra_info("sockname") if request.transport is not None else None
        if not host_allowed(request.headers.get("Host"), peer[0] if peer else None, self._names):
            self.quiet.warning("host", "companion: refused a request for Host %r", request.headers.get("Host", "")[:60])
            return web.Response(status=421, text=_("This box answers only to its own address."))
        response: web.StreamResponse = await handler(request)
        return response

    async def _watch_next_game(self) -> None:
        """Between the menu's games nothing publishes; the host changing the
        menu's game or options on the HDMI screen still reaches the host page
        within a second."""
        while True:
            await asyncio.sleep(NEXT_GAME_POLL_S)
            next_game = self.publisher.next_game
            if next_game is None or self.publisher.live:
                continue  # a running game publishes on its own
            try:
                now = json.dumps(next_game(), default=str)
            except Exception:  # noqa: BLE001 (the menu changed under us: look again next time)
                continue
            if now != self.publisher.next_shown:
                with self.box.lock:
                    self.publisher.publish()

    async def _keep_alive(self) -> None:
        """Every page's socket hears the box every ``KEEPALIVE_S`` (the protocol's pings never reach a
        page's script): a page that stops hearing it knows its link is lost (a phone gone offline)."""
        while True:
            await asyncio.sleep(KEEPALIVE_S)
            everyone = {*self._waiting, *self._host_sockets, *self._board_sockets, *self._pickers,
                        *(w for group in self._seat_sockets.values() for w in group)}
            for ws in everyone:
                asyncio.ensure_future(self._send(ws, ALIVE))

    def _ended_text(self) -> str:
        """The last word to every page when the server stops: the game is
        over, thanks, and the final scores (public: what the strip showed)."""
        try:
            players = json.loads(self.publisher.latest.host).get("players") or []
        except (ValueError, AttributeError):
            players = []
        return json.dumps({"type": "ended", "players": [{"name": p.get("name"), "score": p.get("score")}
                                                        for p in players if isinstance(p, dict)]})

    async def _shutdown(self) -> None:
        for task in (self._watcher, self._alive):
            if task is not None:
                task.cancel()
        ended = self._ended_text()
        everyone = [*self._host_sockets, *self._board_sockets, *self._pickers,
                    *(w for group in self._seat_sockets.values() for w in group)]
        # all at once: a second at most in all however many sockets a guest holds, not a second each
        await asyncio.gather(*(asyncio.wait_for(self._send(ws, ended), 1.0) for ws in everyone),
                             return_exceptions=True)  # a phone that does not answer is not waited for
        await asyncio.gather(*(asyncio.wait_for(ws.close(code=1001, message=b"the game ended"), 1.0)
                               for ws in everyone), return_exceptions=True)
        if self._tcp is not None:
            self._tcp.close()
        if self._runner is not None:
            await self._runner.cleanup()
        if self._tcp is not None:
            await self._tcp.wait_closed()

    # -- pages ----------------------------------------------------------------------------
    @staticmethod
    def _headers(content_type: str) -> dict[str, str]:
        return {"Content-Type": content_type, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
                "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                           "style-src 'self'; script-src 'self'"}

    async def _page(self, request: web.Request) -> web.Response:
        # the page says the box's language (a phone's screen reader and hyphenation read Czech as Czech)
        # and its own name in its tab, in that language
        name = PAGES[request.path]
        title = _(TAB_TITLE).format(page=_(PAGE_TITLES[name]), box=_("Buzzer box"))
        body = (_static(name).replace(b'<html lang="en">', f'<html lang="{current_language()}">'.encode(), 1)
                .replace(b"<title>Buzzer box</title>", f"<title>{html.escape(title)}</title>".encode(), 1))
        return web.Response(body=body, headers=self._headers("text/html; charset=utf-8"))

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in ASSETS:
            raise web.HTTPNotFound()
        kind = "text/css" if name.endswith(".css") else "text/javascript"
        return web.Response(body=_static(name), headers=self._headers(kind + "; charset=utf-8"))

    async def _messages(self, request: web.Request) -> web.Response:
        return web.json_response(messages(), headers={"Cache-Control": "no-store"})

    async def _upload_pack(self, request: web.Request) -> web.Response:
        """A pack from the host page: the body is the file, ``?name=`` its name,
        the ``X-Host-Pin`` header the host's PIN (a header a page of another
        site cannot send without the box's leave). Checked by the packs
        checker; the answer is ``{"saved", "lines"}``, one line per problem."""
        address = request.remote or "?"
        origin = request.headers.get("Origin")

        def said(status: int, *lines: str, saved: str | None = None) -> web.Response:
            return web.json_response({"saved": saved, "lines": list(lines)}, status=status,
                                     headers={"Cache-Control": "no-store"})

        if origin is not None and origin.split("://", 1)[-1] != request.host:
            return said(403, _("packs only from the box's own host page"))
        await self._admitted()  # the PIN it is checked against: the one the host was shown
        if self.seats.pin_locked(address):
            return said(429, messages()["pin_locked"])
        if not self.seats.check_pin(address, request.headers.get("X-Host-Pin")):
            self._wrong_pin(address)
            return said(403, messages()["wrong_pin"])
        if self.upload is None:
            return said(404, _(NO_PACKS_FOLDER))
        name = request.query.get("name", "")
        if request.content_length is not None and request.content_length > MAX_UPLOAD_BYTES:
            return said(413, too_large(name))
        body = bytearray()
        while chunk := await request.content.read(65536):
            body += chunk
            if len(body) > MAX_UPLOAD_BYTES:
                return said(413, too_large(name))
        # asked on a worker thread: a large pack takes most of a second to check, and the phones must not wait
        result = await asyncio.get_running_loop().run_in_executor(None, self.upload, name, bytes(body))
        if result.path is not None:
            log.info("companion: pack %s saved from %s", result.path.name, address)
        return said(200 if result.path is not None else 422, *result.lines,
                    saved=result.path.name if result.path is not None else None)

    # -- sockets --------------------------------------------------------------------------
    async def _open_socket(self, request: web.Request) -> tuple[web.WebSocketResponse, str] | web.StreamResponse:
        """A new socket, counted as waiting (not proven) until its hello; with no room for it
        (``_room_for``) it is told the box is full, in the box's language, and closed."""
        address = request.remote or "?"
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            return web.Response(status=403, text=_("WebSockets only from the box's own pages"))
        await self._admitted()
        ws = web.WebSocketResponse(max_msg_size=4 * MAX_MESSAGE_BYTES, heartbeat=20)
        if not self._room_for(address):
            self.quiet.warning("sockets", "companion: no room for another socket from %s (%d open, %d waiting)",
                               address, sum(self._per_address.values()), len(self._waiting))
            await ws.prepare(request)
            await self._say_full(ws)
            return ws
        await ws.prepare(request)
        self._per_address[address] += 1
        self._waiting[ws] = address
        return ws, address

    def _room_for(self, address: str) -> bool:
        """Room for one more waiting socket from ``address``, maybe by closing another: past the
        address's own caps its oldest waiting one; past the totals the oldest of the address
        holding the most waiting ones, when that holds more than ``address`` would. Joined
        phones and logged-in host pages are never closed for room."""
        mine = [ws for ws, a in self._waiting.items() if a == address]
        if len(mine) >= self.limits.waiting_per_address or self._per_address[address] >= self.limits.per_address:
            if not mine:
                return False
            self._evict(mine[0])
            return True
        if len(self._waiting) >= self.limits.waiting or sum(self._per_address.values()) >= self.limits.sockets:
            counts = Counter(self._waiting.values())
            heavy, most = counts.most_common(1)[0] if counts else ("", 0)
            if most <= len(mine) + 1:
                return False
            self._evict(next(ws for ws, a in self._waiting.items() if a == heavy))
        return True

    def _evict(self, ws: web.WebSocketResponse) -> None:
        """``ws`` gives its place to a newer socket: counted out now, told the box is full, closed."""
        address = self._waiting.pop(ws)
        self._evicted.add(ws)
        self._count_out(address)
        asyncio.ensure_future(self._say_full(ws))

    async def _say_full(self, ws: web.WebSocketResponse) -> None:
        """The box is full: said in the box's language (the page shows it and tries again)."""
        with contextlib.suppress(Exception):  # gone meanwhile: nothing to tell
            await self._send(ws, json.dumps({"type": "refused", "why": messages()["full"], "full": True}))
            await ws.close(code=CLOSE_FULL, message=b"the box is full")

    def _proven(self, ws: web.WebSocketResponse) -> None:
        """``ws`` said hello as a seat's phone or a host page: never closed for room from now on."""
        self._waiting.pop(ws, None)

    def _closed(self, address: str, ws: web.WebSocketResponse | None = None) -> None:
        self._waiting.pop(ws, None)  # type: ignore[arg-type]
        if ws in self._evicted:
            self._evicted.discard(ws)  # type: ignore[arg-type]
            return
        self._count_out(address)

    def _count_out(self, address: str) -> None:
        self._per_address[address] -= 1
        if self._per_address[address] <= 0:
            del self._per_address[address]

    async def _refuse(self, ws: web.WebSocketResponse, why: str) -> None:
        self.refusals += 1
        if not ws.closed:
            await ws.send_str(json.dumps({"type": "refused", "why": why}))

    def _hello_deadline(self, ws: web.WebSocketResponse, seconds: float | None = None,
                        code: int = CLOSE_NO_HELLO) -> asyncio.TimerHandle:
        """Close ``ws`` unless it says hello in time (the handle is cancelled
        when it does): a socket held open in silence only takes a place."""
        def close() -> None:
            if not ws.closed:
                asyncio.ensure_future(ws.close(code=code, message=b"no hello in time"))
        return asyncio.get_running_loop().call_later(self.limits.hello_s if seconds is None else seconds, close)

    async def _trouble(self, ws: web.WebSocketResponse, exc: Exception) -> None:
        """A message that broke its handler: one log line and one refusal;
        the socket and the game go on."""
        self.quiet.warning("trouble", "companion: a message could not be handled: %s: %s",
                           exc.__class__.__name__, str(exc)[:120])
        await self._refuse(ws, _("could not handle that message: nothing done"))

    async def _messages_of(self, ws: web.WebSocketResponse) -> Any:
        """Each text message, parsed; refusals answered here. Oversized frames
        close the socket (code 1009) before they are read."""
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                await self._refuse(ws, _("send text (JSON) messages"))
                continue
            try:
                yield parse(msg.data)
            except Refused as exc:
                await self._refuse(ws, str(exc))

    async def _ws_board(self, request: web.Request) -> web.StreamResponse:
        opened = await self._open_socket(request)
        if not isinstance(opened, tuple):  # refused: already answered
            return opened
        ws, address = opened
        self._board_sockets.append(ws)
        deadline = self._hello_deadline(ws)  # a scoreboard says hello too: a silent socket only takes a place
        try:
            await ws.send_str(self.publisher.latest.board)
            async for data in self._messages_of(ws):
                if data["type"] == "hello" and len(data) == 1:
                    deadline.cancel()
                    continue
                await self._refuse(ws, _("the scoreboard is read-only"))
        finally:
            deadline.cancel()
            self._board_sockets.remove(ws)
            self._closed(address, ws)
        return ws

    async def _ws_seat(self, request: web.Request) -> web.StreamResponse:
        opened = await self._open_socket(request)
        if not isinstance(opened, tuple):  # refused: already answered
            return opened
        ws, address = opened
        seat: int | None = None
        generation = -1
        picking = False
        deadline = self._hello_deadline(ws)
        try:
            async for data in self._messages_of(ws):
                try:
                    if seat is None:
                        if await self._pick(ws, data, address):
                            if self._ask_of(ws) is not None:
                                deadline.cancel()  # asking the host: the ask's own caps hold it
                            elif not picking:  # a person is choosing a seat: a while, not all evening
                                picking = True
                                deadline.cancel()
                                deadline = self._hello_deadline(ws, self.limits.picker_s, CLOSE_IDLE)
                            continue
                        seat, generation = await self._seat_hello(ws, data, address)
                        deadline.cancel()
                        self._proven(ws)
                        if ws in self._pickers:
                            self._pickers.remove(ws)
                        continue
                    if self.seats.generation(seat) != generation:
                        break  # re-issued meanwhile: the old code stops at once
                    self._seat_move(seat, data)
                    await ws.send_str(json.dumps({"type": "ok", "seq": data["seq"]}))
                except Refused as exc:
                    await self._refuse(ws, str(exc))
                    if seat is None and data.get("type") == "hello":
                        await ws.close(code=CLOSE_REFUSED, message=b"bad token")
                except Exception as exc:  # noqa: BLE001 (one line and a refusal, never a traceback)
                    await self._trouble(ws, exc)
        finally:
            deadline.cancel()
            self._seat_socket_gone(ws, seat, address)
        return ws

    def _seat_socket_gone(self, ws: web.WebSocketResponse, seat: int | None, address: str) -> None:
        """A phone's socket closed: it picks no more, its asks for a seat are withdrawn, and the
        seat it held is no longer joined on it (the pickers and the host page hear of both)."""
        if ws in self._pickers:
            self._pickers.remove(ws)
        self._took.pop(ws, None)
        self._seats_sent.pop(ws, None)
        self._withdraw(ws)
        if seat is not None:
            sockets = self._seat_sockets.get(seat, [])
            if ws in sockets:
                sockets.remove(ws)
            self._joined[seat] = bool(sockets)
            self._push_seats()
        self._closed(address, ws)

    def _no_seats(self) -> bool:
        """The running game is played on the buttons (a quiz): the picker offers no seat."""
        return self.publisher.live and not self.publisher.latest.uses_seats

    def _picker_text(self) -> str:
        names = self.box.station_names
        return json.dumps({"type": "pick", "seats": [] if self._no_seats() else [
            {"seat": i, "name": names[i] if i < len(names) else str(i + 1), "free": self.seats.free(i),
             "joined": self._joined[i]} for i in range(self.seats.count)]})

    def _ask_of(self, ws: web.WebSocketResponse) -> tuple[int, Ask] | None:
        """The seat ``ws`` asks the host for, and its ask; None when it asks for none."""
        for seat, asks in self._asking.items():
            for ask in asks:
                if ask.ws is ws:
                    return seat, ask
        return None

    def _withdraw(self, ws: web.WebSocketResponse) -> None:
        """``ws``'s ask for a seat, if any, leaves the host page (its phone went, or chose another seat)."""
        for asks in self._asking.values():
            for ask in [a for a in asks if a.ws is ws]:
                asks.remove(ask)
                self._push_seats()

    def _ask_lapsed(self, seat: int, ask: Ask) -> None:
        """An ask the host left unanswered for ``Limits.ask_s``: withdrawn, and its phone told so (its
        picker is open again: it may ask again or choose another seat)."""
        asks = self._asking.get(seat, [])
        if not any(a is ask for a in asks):
            return  # answered, withdrawn or gone meanwhile
        asks[:] = [a for a in asks if a is not ask]
        self._push_seats()
        asyncio.ensure_future(self._send(ask.ws, json.dumps({"type": "denied", "seat": seat,
                                                             "why": messages()["ask_lapsed"]})))

    def _lapses(self) -> None:
        """Takes whose phone never said hello: the seat is free again (``Seats`` gave it a new
        token), the pickers hear it, and the address that took it waits before taking again."""
        gone = self.seats.lapsed()
        if not gone:
            return
        until = self.seats.clock() + TAKE_COOLDOWN_S
        for ws, (seat, address) in list(self._took.items()):
            if seat in gone:
                self._take_cooldown[address] = until
                self.quiet.warning("lapsed", "companion: %s took seat %d and never joined: the seat is free again",
                                   address, seat + 1)
                self._took[ws] = (-1, address)  # this socket took its one seat
        self._push_seats()

    def _watch_lapses(self) -> None:
        """Look for lapsed takes when the next one is due (``Limits.take_s`` on the loop's clock)."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.limits.take_s + 0.05, self._lapses)

    async def _pick(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str = "?") -> bool:
        """The seat picker (before a phone has a seat): the list of seats, a
        free seat taken (its token handed to this phone, once: it must say
        hello with it within ``Limits.take_s``), or a held one asked for (the
        host chooses among the askers by the code each shows). False for any
        other message."""
        self._lapses()
        if data["type"] == "seats":
            _only(data)
            if ws not in self._pickers:
                self._pickers.append(ws)
            self._seats_sent[ws] = self._picker_text()
            await ws.send_str(self._seats_sent[ws])
            return True
        if data["type"] != "take":
            return False
        _only(data, "seat")
        seat = _int(data, "seat", 0, self.seats.count - 1)
        if self._no_seats():
            raise Refused(messages()["no_private"])
        asking = self._ask_of(ws)
        if asking is not None:
            if asking[0] == seat:  # asked already: the same code again, nothing new for the host
                await ws.send_str(json.dumps({"type": "asked", "seat": seat, "code": asking[1].code}))
                return True
            self._withdraw(ws)  # the phone chose another seat: its ask leaves the host page (one ask a phone)
        if ws in self._took:
            raise Refused(messages()["take_once"])
        if self.seats.free(seat):
            waiting = sum(1 for s, a in self._took.values() if a == address and s >= 0 and self.seats.pending(s))
            if self._take_cooldown.get(address, float("-inf")) > self.seats.clock() or waiting >= TAKES_PER_ADDRESS:
                raise Refused(messages()["take_wait"])
            token = self.seats.take(seat, self.limits.take_s)
            if token is not None:
                self._took[ws] = (seat, address)
                self._watch_lapses()
                log.info("companion: seat %d taken on the picker from %s", seat + 1, address)
                await ws.send_str(json.dumps({"type": "granted", "seat": seat, "token": token}))
                self._push_seats()
                return True
        asks = self._asking.setdefault(seat, [])
        from_here = sum(1 for each in self._asking.values() for a in each if a.address == address)
        if len(asks) >= MAX_ASKERS or from_here >= ASKS_PER_ADDRESS:
            raise Refused(messages()["asks_full"])
        codes = {a.code for a in asks}
        code = f"{random_codes.randbelow(10_000):04d}"
        while code in codes:
            code = f"{random_codes.randbelow(10_000):04d}"
        ask = Ask(ws, code, address)
        asks.append(ask)
        asyncio.get_running_loop().call_later(self.limits.ask_s, self._ask_lapsed, seat, ask)
        await ws.send_str(json.dumps({"type": "asked", "seat": seat, "code": code}))
        log.info("companion: a phone at %s asks to take over seat %d (code %s)", address, seat + 1, code)
        self._push_seats()
        return True

    async def _seat_hello(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> tuple[int, int]:
        if data["type"] != "hello":
            raise Refused(_("say hello with your seat and token first"))
        _only(data, "seat", "token")
        seat, token = data.get("seat"), data.get("token")
        self._lapses()
        if not self.seats.check(seat, token):
            self.quiet.warning("token", "companion: %s gave a wrong token %s for seat %r", address,
                               shown(token) if isinstance(token, str) else "(none)", str(seat)[:20])
            raise Refused(messages()["bad_token"])
        assert isinstance(seat, int)
        self._took.pop(ws, None)
        generation = self.seats.generation(seat)
        old = self._seat_sockets.get(seat, [])
        self._seat_sockets[seat] = [ws]
        for other in old:  # newest phone wins: a woken phone takes its seat back from its dead socket
            await other.close(code=CLOSE_REPLACED, message=b"seat taken by a newer connection")
        self._joined[seat] = True
        log.info("companion: seat %d joined from %s", seat + 1, address)
        await ws.send_str(json.dumps({"type": "welcome", "seat": seat, "seq": self._last_seq.get(seat, 0)}))
        await ws.send_str(seat_text(self.publisher.latest, seat))
        self._push_seats()
        return seat, generation

    def _seat_move(self, seat: int, data: dict[str, Any]) -> None:
        if data["type"] != "move":
            raise Refused(_('unknown message "{type}": a seat sends "move"').format(type=data["type"][:40]))
        _only(data, "kind", "args", "seq")
        kind = data.get("kind")
        if not isinstance(kind, str) or not 0 < len(kind) <= 40:
            raise Refused(_('"kind" must be a short text'))
        args = _args(data)
        seq = _int(data, "seq", 1)
        if seq <= self._last_seq.get(seat, 0):
            raise Refused(_("already received (a repeated message): nothing done"))
        if kind in station_kinds(self.box.spec):
            raise Refused(_("that is your station's button: press it there"))
        snap = self.publisher.latest
        offered = snap.offered[seat] if seat < len(snap.offered) and self.publisher.live else frozenset()
        if move_key(kind, args) not in offered:
            typed = typed_text(kind, args, offered)
            if typed is None:
                raise Refused(_("not a move you can make now: nothing done"))
            refusal = name_refusal(typed)  # a team's name goes on the TV: the host page's and the menu's rule
            if refusal is not None:
                raise Refused(refusal)
        self._last_seq[seat] = seq
        self._secrets_changed()
        self.box.deliver_action(Action(kind, self.clock(), seat, args, WEB_PRECISION_US))

    async def _ws_host(self, request: web.Request) -> web.StreamResponse:
        opened = await self._open_socket(request)
        if not isinstance(opened, tuple):  # refused: already answered
            return opened
        ws, address = opened
        authorised = False
        deadline = self._hello_deadline(ws)
        try:
            async for data in self._messages_of(ws):
                try:
                    if not authorised:
                        authorised = await self._host_hello(ws, data, address)
                        if authorised:
                            deadline.cancel()
                            self._proven(ws)
                        continue
                    await self._host_message(ws, data)
                    await ws.send_str(json.dumps({"type": "ok", "seq": data["seq"]}))
                except Refused as exc:
                    await self._refuse(ws, str(exc))
                except Exception as exc:  # noqa: BLE001 (one line and a refusal, never a traceback)
                    await self._trouble(ws, exc)
        finally:
            deadline.cancel()
            if ws in self._host_sockets:
                self._host_sockets.remove(ws)
            self._host_seq.pop(ws, None)
            self._seats_sent.pop(ws, None)
            self._closed(address, ws)
        return ws

    async def _host_hello(self, ws: web.WebSocketResponse, data: dict[str, Any], address: str) -> bool:
        if data["type"] != "hello":
            raise Refused(_("give the host PIN first"))
        _only(data, "pin")
        if self.seats.pin_locked(address):
            raise Refused(messages()["pin_locked"])
        if not self.seats.check_pin(address, data.get("pin")):
            self._wrong_pin(address)
            raise Refused(messages()["wrong_pin"])
        log.info("companion: host page opened from %s", address)
        self._host_ever = True
        self._secrets_changed()
        notice = json.dumps({"type": "notice", "what": "second_host", "address": address})
        for other in self._host_sockets:  # a second host is never silent: each page already in is told
            await self._send(other, notice)
        self._host_sockets.append(ws)
        self._host_seq[ws] = 0
        # "menu": a menu runs the evening (its pack row offers an uploaded pack); the page words its packs part so
        await ws.send_str(json.dumps({"type": "welcome", "seq": 0, "menu": self.on_start is not None}))
        await ws.send_str(self.publisher.latest.host)
        self._seats_sent[ws] = self._seats_text()
        await ws.send_str(self._seats_sent[ws])
        return True

    def _wrong_pin(self, address: str) -> None:
        """A wrong PIN: in the log, and once the address must wait, on every host page too
        (only that address waits: the host's own phone is never kept out by another's guesses)."""
        self.quiet.warning("pin", "companion: wrong host PIN from %s", address)
        wait = self.seats.pin_lockouts().get(address)
        if wait is not None:
            log.warning("companion: %s sent %d wrong host PINs: it waits %d s (other addresses may log in)",
                        address, PIN_TRIES, wait)
            self._push_seats()

    async def _host_message(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        kind = data["type"]
        if kind not in HOST_MESSAGES:
            raise Refused(_('unknown message "{type}": the host sends {kinds}').format(
                type=kind[:40], kinds=", ".join(f'"{k}"' for k in HOST_MESSAGES)))
        _only(data, *HOST_MESSAGES[kind], "seq")
        seq = _int(data, "seq", 1)
        if seq <= self._host_seq.get(ws, 0):
            raise Refused(_("already received (a repeated message): nothing done"))
        if kind == "host":
            self._host_action(data.get("action"))
        elif kind == "score":
            self._score(_int(data, "seat", 0, self.box.settings.players - 1), _int(data, "points", -1, 1))
        elif kind == "name":
            self._rename(_int(data, "seat", 0, self.box.settings.players - 1), data.get("name"))
        elif kind == "pick":
            self._pick_tied(data.get("seat"))
        elif kind == "team_name":
            self._rename_team(data.get("team"), data.get("name"))
        elif kind == "option":
            self._option(data.get("key"), data.get("value"))
        elif kind == "show_pin":
            self.show_pin()
        elif kind == "start":
            self._start_next()
        elif kind == "rotate_pin":
            await self._rotate_pin(ws)
        elif kind in ("approve", "deny"):
            await self._decide_takeover(_int(data, "seat", 0, self.seats.count - 1), data.get("code"),
                                        kind == "approve")
        else:
            await self._reissue(_int(data, "seat", 0, self.seats.count - 1))
        self._host_seq[ws] = seq

    def _host_action(self, action: object) -> None:
        """A host button: the game's own (a host key by name, as the screen's keys: ``host_aliases``
        apply, and on the final results a step forward closes them), or the box's pause, carry on and end."""
        snap = self.publisher.latest
        if not isinstance(action, str) or action not in snap.host_actions:
            raise Refused(_("no such host button") if self.publisher.live else messages()["between"])
        if action in ("pause", "continue"):
            kind = HOST_PAUSED if action == "pause" else HOST_CONTINUED
            self.box.notice(InputNotice(HOST_STATION, "host", kind, self.clock()))
        elif action == "end":
            log.info("companion: the host ended %s", self.box.spec.title)
            self.end_game()
        else:
            self.box.host_key(action, self.clock())

    def _start_next(self) -> None:
        """The host page's "start" between the menu's games: the menu starts its next game (while
        one runs, or starts, the host is told the next starts after it: nothing is kept)."""
        if self.on_start is not None and (self.publisher.live or self.publisher.starting):
            raise Refused(_("a game is running: the next one starts after it"))
        if self.on_start is None or not self.on_start():
            raise Refused(_("the next game is started in the menu now"))

    def _score(self, seat: int, points: int) -> None:
        """A score correction: a host action the game journals and applies."""
        if not points:
            raise Refused(_('"points" must be 1 or -1'))
        if not self.publisher.latest.adjust:
            raise Refused(messages()["no_corrections"])
        self.box.deliver_action(Action(HOST_ADJUST, self.clock(), None, {"player": seat, "points": points},
                                       WEB_PRECISION_US))

    def _pick_tied(self, seat: object) -> None:
        """The host gives a tied turn to one of the tied players (the screen's
        key draws one fairly): a host action the game journals and applies."""
        tied = self.publisher.latest.tied if self.publisher.live else ()
        if not tied:
            raise Refused(_("no tie to decide now"))
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in tied:
            raise Refused(_('"seat" must be one of the tied seats: {seats}').format(
                seats=", ".join(str(s) for s in tied)))
        self.box.deliver_action(Action(PICK, self.clock(), None, {"player": seat}, WEB_PRECISION_US))

    def _rename(self, seat: int, name: object) -> None:
        """A player's new name: on the strip at once and journaled (a notice
        the box applies), and kept for the next games (``on_rename``)."""
        if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME_CHARS \
                or not name.isprintable():
            raise Refused(_("a name is 1 to {n} letters, digits or signs").format(n=MAX_NAME_CHARS))
        name = name.strip()
        refusal = name_refusal(name)  # an emoji: an empty box on the TV, refused as the menu's names editor says
        if refusal is not None:
            raise Refused(refusal)
        if self.publisher.live or self.publisher.starting:  # in the roll call: the game takes it as it starts
            self.box.notice(InputNotice(seat, name, RENAMED, self.clock()))
        if self.on_rename is not None:
            self.on_rename(seat, name)

    def _rename_team(self, team: object, name: object) -> None:
        """A team's new name: a host action the game journals and applies, so
        a replay and ``buzzerbox results`` name the team as the TV did. The
        name is checked here as the game checks it, for a refusal said at once."""
        listed = self.publisher.latest.host_teams if self.publisher.live else ()
        if not listed:
            raise Refused(_("no team to rename now: teams are named while a team quiz runs"))
        if not isinstance(team, int) or isinstance(team, bool) or team not in listed:
            raise Refused(_('"team" must be the number of a team the page lists: {teams}').format(
                teams=", ".join(str(t) for t in listed)))
        try:
            name = checked_team_name(name)
        except RuleError as exc:
            raise Refused(reason_text(exc.reason, exc.arguments)) from None
        refusal = name_refusal(name)
        if refusal is not None:
            raise Refused(refusal)
        self.box.deliver_action(Action(HOST_TEAM_NAME, self.clock(), None, {"team": team, "name": name},
                                       WEB_PRECISION_US))

    def _option(self, key: object, value: object) -> None:
        """An option for the menu's next game: it applies when that game starts."""
        if self.on_option is None:
            raise Refused(_("options are chosen in the menu: this game was started without it"))
        if not isinstance(key, str) or not (value is None or isinstance(value, (int, str, bool, float))) \
                or not self.on_option(key, value):
            raise Refused(_("not an option the next game offers"))
        with self.box.lock:  # the page hears the new choice now, not at the next event
            self.publisher.publish()

    async def _rotate_pin(self, keeper: web.WebSocketResponse) -> None:
        """A new PIN (the old one was seen): every other host page is logged
        out (it must be given the new one); the host who asked is told it."""
        self.seats.rotate_pin()
        self._pin_until = 0.0
        self._secrets_changed()
        log.info("companion: the host PIN was changed; other host pages are logged out")
        await self._send(keeper, json.dumps({"type": "pin", "pin": self.seats.pin}))
        for other in [w for w in self._host_sockets if w is not keeper]:
            self._host_sockets.remove(other)
            await self._refuse(other, messages()["pin_changed"])
            with contextlib.suppress(Exception):
                await other.close(code=CLOSE_REFUSED, message=b"the PIN was changed")

    async def _decide_takeover(self, seat: int, code: object, approved: bool) -> None:
        """The host's answer to a phone asking for a held seat, named by the
        code it shows: approved, the seat gets a new token (the phone holding
        it is dropped and shows nothing more) handed to that asker, and every
        other asker for the seat is told it went elsewhere; denied, the asker
        is told."""
        asks = self._asking.get(seat, [])
        ask = next((a for a in asks if isinstance(code, str) and a.code == code and not a.ws.closed), None)
        if ask is None:
            self._push_seats()
            raise Refused(_("nobody is asking for that seat with that code now"))
        asks.remove(ask)
        if not approved:
            await self._send(ask.ws, json.dumps({"type": "denied", "seat": seat, "why": messages()["pick_denied"]}))
            self._push_seats()
            return
        self._asking.pop(seat, None)
        await self._reissue(seat)
        token = self.seats.give(seat, self.limits.take_s)
        self._took[ask.ws] = (seat, ask.address)
        self._watch_lapses()
        log.info("companion: the host gave seat %d to the phone with code %s", seat + 1, ask.code)
        await self._send(ask.ws, json.dumps({"type": "granted", "seat": seat, "token": token}))
        for other in asks:
            await self._send(other.ws, json.dumps({"type": "denied", "seat": seat, "why": messages()["given_other"]}))

    async def _reissue(self, seat: int) -> None:
        token = self.seats.reissue(seat)
        self._last_seq.pop(seat, None)
        log.info("companion: seat %d has a new code %s; the old one no longer works", seat + 1, shown(token))
        for ws in self._seat_sockets.pop(seat, []):
            await self._refuse(ws, messages()["bad_token"])
            await ws.close(code=CLOSE_REFUSED, message=b"seat re-issued")
        self._joined[seat] = False
        self._push_seats()

    # -- pushing the loop's snapshots ---------------------------------------------------
    def _seats_text(self) -> str:
        """The host page's news of the seats: who joined, who asks (each ask's code, as its phone
        shows it) and the addresses that sent wrong PINs and wait."""
        asks = [{"seat": seat, "code": a.code} for seat, each in sorted(self._asking.items()) for a in each]
        return json.dumps({"type": "seats", "joined": self.joined(), "asking": sorted({a["seat"] for a in asks}),
                           "asks": asks, "lockouts": self.seats.pin_lockouts()})

    def _push_seats(self) -> None:
        """Who holds which seat changed: the deciding process keeps the codes at once, the host
        pages and pickers hear it once for everything that changed within ``SEATS_PUSH_S``."""
        self._secrets_changed()
        if self._seats_due:
            return
        self._seats_due = True
        asyncio.get_running_loop().call_later(SEATS_PUSH_S, self._flush_seats)

    def _flush_seats(self) -> None:
        """The seats' news to every host page and picker that has not heard it yet."""
        self._seats_due = False
        self._secrets_changed()
        texts = [(ws, self._seats_text()) for ws in self._host_sockets]
        if self._pickers:
            picker = self._picker_text()
            texts += [(ws, picker) for ws in self._pickers]
        for ws, text in texts:
            if self._seats_sent.get(ws) != text:
                self._seats_sent[ws] = text
                asyncio.ensure_future(self._send(ws, text))

    def _push(self, snap: Snapshot) -> None:
        for ws in self._board_sockets:
            asyncio.ensure_future(self._send(ws, snap.board))
        for ws in self._host_sockets:
            asyncio.ensure_future(self._send(ws, snap.host))
        for seat, sockets in self._seat_sockets.items():
            for ws in sockets:
                asyncio.ensure_future(self._send(ws, seat_text(snap, seat)))

    @staticmethod
    async def _send(ws: web.WebSocketResponse, text: str) -> None:
        if not ws.closed:
            with contextlib.suppress(ConnectionError, RuntimeError):  # gone meanwhile: its handler cleans up
                await ws.send_str(text)


def seat_text(snap: Snapshot, seat: int) -> str:
    """What a seat's phone is sent: its view, or, for a seat the running
    game does not have (the menu chose fewer players), that it sits out."""
    if seat < len(snap.seats):
        return snap.seats[seat]
    return json.dumps({"type": "seat", "version": snap.version, "seat": seat, "name": "", "phase": None,
                       "finished": False, "private": {}, "moves": [], "rejected": None, "sitting_out": True})
