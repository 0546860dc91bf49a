"""The companion pages' fixtures: a live game as ``play --web`` runs it by
default (``served``: its deciding process and its phones' server, each a
process of its own), and Debian's chromium driven by Playwright (never
Playwright's own browser download)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.box.inputs import BOX_CLOCK_SLACK_US
from controller.box.press import Press
from controller.box.timeline import box_now_us
from controller.screen import live
from controller.screen.screen import Screen
from controller.web.seats import board_url, host_url, join_url
from games import registry
from games.base import Action
from tests import runtimes
from tests.processes import HANG_S, Lines, connect_when_listening, running
from tests.runtimes import CHROMIUM

#: How long a page may take to show what a test waits for. A guard against a
#: hang, never a measure: a CI machine with a hog on each core once took over
#: Playwright's own 5 s to log a host page in, so every wait here (Playwright's
#: ``expect``, its actions, ``Served.wait``) is this one generous bound.
READY_MS = int(HANG_S * 1000)

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_chromium() -> None:
    """Skip loudly on a developer's machine without chromium; FAIL when
    BUZZERBOX_REQUIRE_RUNTIMES=1 (CI): tests/runtimes.py decides."""
    runtimes.require("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require_chromium()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=READY_MS)
    with sync_playwright() as p:
        # Playwright's own launch bound is 30 s, which a busy machine's Chromium start can pass
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, timeout=READY_MS)
        yield b
        b.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Callable[[], Any]]:
    """New pages on a small portrait phone (360x740), each its own browser context (its own phone)."""
    contexts: list[Any] = []

    def new_page() -> Any:
        ctx = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
        ctx.set_default_timeout(READY_MS)  # every page of this phone, a tab opened later too
        contexts.append(ctx)
        return ctx.new_page()

    yield new_page
    for ctx in contexts:
        ctx.close()


#: ``play`` in a process of its own, with the games this test process registered beside ``games/`` registered too (the test game
#: ``hands``, ``--toy-games``' toys): ``BUZZERBOX_TEST_GAMES``, ``name=package`` pairs
LAUNCH = ("import contextlib, os, sys\nfrom games import registry\nfrom controller.cli import main\n"
          "with contextlib.ExitStack() as games:\n"
          "    for pair in os.environ['BUZZERBOX_TEST_GAMES'].split(','):\n"
          "        games.enter_context(registry.register(*pair.split('=')))\n"
          "    sys.exit(main(sys.argv[1:]))")
#: the line ``play --web`` says once its phones' server listens (any language): the port it bound, the PIN
START_LINE = re.compile(r"https?://[^\s/]+:(\d+)\S* \(.*(\d{6})\)")
ROOT = Path(__file__).resolve().parents[2]


class Pages:
    """Where the phones' server of a ``play --web`` serves its pages, read
    from its start line (the port it bound, the PIN the room sees)."""

    def __init__(self, port: int, pin: str) -> None:
        self.port = port
        self.base_url = f"http://127.0.0.1:{port}"
        self.pin = pin

    def host_url(self) -> str:
        return host_url(self.base_url)

    def join_url(self) -> str:
        return join_url(self.base_url)

    def board_url(self) -> str:
        return board_url(self.base_url)


class Served:
    """A game ``play --web`` runs in the default (split) design: ``play`` (the
    screen's process, headless), its deciding process and its phones' server,
    each a process of its own. The test is a second viewer on the deciding
    process's viewer socket: it reads each view (what the screen draws) and
    sends what ``play``'s screen sends (station presses, host keys by name)
    and what the phones' server sends (a seat's move). Started with
    ``pages``, it follows the phones' pages too (``Hello`` as the phones'
    server says it), as the deciding process builds them: each seat's page,
    private hand and moves offered included."""

    def __init__(self, game: str, proc: subprocess.Popen[str], err: Lines, sock: socket.socket, pages: Pages) -> None:
        self.game, self.proc, self.err, self.sock = game, proc, err, sock
        self.server = pages
        self._views = threading.Condition()
        self._view: p.View = p.NO_VIEW
        self.ended: p.Ended | None = None
        #: the phones' pages the deciding process sent last (``views.snapshot_message``), with ``pages``
        self._pages: dict[str, Any] | None = None
        #: the version of the pages it published last to every page (0: none since this peer followed them)
        self._published = 0
        #: the box's data folder (``XDG_DATA_HOME``): the packs folder is data/buzzerbox/packs
        self.data = Path()
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            while (message := channel.receive(self.sock)) is not None:
                with self._views:
                    if isinstance(message, p.View):
                        self._view = message
                        self._take_pages(message)
                    elif isinstance(message, p.Ended):
                        self.ended = message
                    self._views.notify_all()
        except OSError:
            pass
        finally:
            with self._views:
                self._closed = True
                self._views.notify_all()

    def _take_pages(self, view: p.View) -> None:
        """The pages a view carries. The first, the answer to this peer's ``Hello``, was built for it
        alone (a version no phone gets); the views after it carry what every page got."""
        if view.companion is None:
            return
        if self._pages is not None:
            self._published = int(view.companion["version"])
        self._pages = view.companion

    def follow_pages(self) -> None:
        """From now on the views carry the phones' pages (this peer says it serves them, as their server does)."""
        self.send(p.Hello(p.PHONES, "the test's view of the pages"))

    @property
    def view(self) -> p.View:
        """The deciding process's newest view (what the HDMI screen draws)."""
        with self._views:
            return self._view

    @property
    def public(self) -> Mapping[str, Any]:
        """The game's public view, as the newest view has it."""
        return self.view.public

    @property
    def pages_version(self) -> int:
        """The version of the phones' pages the deciding process published last (0: none since this peer
        followed them): each seat's page says it (its ``version``) once the phone has it."""
        with self._views:
            return self._published

    def seat(self, seat: int) -> dict[str, Any]:
        """Seat ``seat``'s page as the deciding process built it last (``pages``): its private view
        (``private``), the moves its phone is offered (``moves``), its phase."""
        with self._views:
            assert self._pages is not None, "no pages: start the game with pages=True"
            return dict(json.loads(self._pages["seats"][seat]))

    def wait(self, predicate: Callable[[], bool], timeout: float = READY_MS / 1000) -> None:
        """Until ``predicate`` holds, looked at again at each view (a hang guard only)."""
        end = time.monotonic() + timeout
        with self._views:
            while not predicate():
                left = end - time.monotonic()
                assert left > 0 and not self._closed, (f"timed out waiting; the newest view: {self._view}\n"
                                                       + "\n".join(self.err.lines[-30:]))
                self._views.wait(min(left, 0.1))  # a predicate on something else (a log line) is looked at too

    def wait_view(self, predicate: Callable[[Mapping[str, Any]], bool]) -> Mapping[str, Any]:
        """The first public view (from now on) that passes ``predicate``."""
        self.wait(lambda: predicate(self._view.public))
        return self.public

    def now_us(self) -> int:
        """The game's time now (the box clock plus the newest view's offset), as ``play``'s screen stamps a host key."""
        return box_now_us() + self.view.offset_us

    def send(self, message: p.Message) -> None:
        channel.send(self.sock, message)

    def press(self, station: int, button: str = "bell", t_us: int | None = None) -> int:
        """A station's press (box clock), as a stamped input: what the stations' inputs hand the deciding
        process. Stamped now: one stamped before something the box decided meanwhile is late evidence
        (never played), so a test presses again once the view shows the last press taken. One stamped
        later is sent when it happens (the box refuses a press from its future: ``BOX_CLOCK_SLACK_US``)."""
        t = box_now_us() if t_us is None else t_us
        self.presses([(station, button, t)])
        return t

    def presses(self, pressed: Sequence[tuple[int, str, int]]) -> None:
        """Stations' presses ``(station, button, box µs)`` handed over in this order in one write (the
        deciding process reads the next right after the first: a decision on the first waits for the
        stations' word past its stamp, which comes later), once the clock is within the box's slack of
        the latest stamp, as stations pressing then would be."""
        latest = max(t for _station, _button, t in pressed)
        while (ahead_us := latest - box_now_us()) > BOX_CLOCK_SLACK_US // 2:  # the moment the last one happens
            time.sleep((ahead_us - BOX_CLOCK_SLACK_US // 2) / 1e6)
        self.sock.sendall(b"".join(channel.encode(p.PressInput(Press(station, button, t)))
                                   for station, button, t in pressed))

    def host(self, name: str) -> None:
        """A host key by name (arm, correct, ...), stamped as ``play``'s screen stamps it."""
        self.send(p.HostKey(name, self.now_us()))

    def move(self, seat: int, kind: str, args: Mapping[str, Any]) -> None:
        """A seat's move, stamped now, as the phones' server hands the deciding process a phone's tap."""
        self.send(p.ActionInput(Action(kind, self.now_us(), seat, dict(args))))

    def take_seat(self, page: Any, seat: int) -> Any:
        """``page`` takes ``seat`` on the seat picker (the QR code's page), as a player does."""
        from playwright.sync_api import expect

        page.goto(self.server.join_url())
        page.locator(f".pick button[data-seat='{seat}']").click()
        expect(page.locator("#who")).not_to_be_empty()  # the seat's own page: its player's name
        return page

    def log(self, text: str) -> bool:
        """Whether a process of the game said ``text`` on stderr."""
        return any(text in line for line in self.err.lines)

    def screenshot(self, path: str, size: tuple[int, int] = (1280, 720)) -> None:
        """The newest view drawn as ``play``'s screen draws it (its presenter), saved as a PNG."""
        import pygame

        spec = registry.get(self.game)
        presenter = live.presenter_for(spec, Screen.open(headless=True, size=size), sound=None,
                                       colors=None)
        surface = pygame.Surface(size)
        presenter.draw_view(self.view, spec, self.now_us(), surface)
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, path)

    def stop(self) -> p.Ended:
        """End the game as closing the screen's window does; the deciding process's ``Ended``."""
        if self.ended is None and not self._closed:
            with contextlib.suppress(OSError):
                self.send(p.Stop("menu"))
            self.wait(lambda: self.ended is not None)
        assert self.ended is not None
        return self.ended

    def power_cut(self) -> None:
        """Every process of the game killed at once, as a power cut stops the box: nothing is said to
        the pages (no "ended"), their sockets just die."""
        kill_all([self.proc.pid, *descendants(self.proc.pid)])
        self.proc.wait(HANG_S)


def descendants(pid: int) -> list[int]:
    """Every process ``pid`` started, at any depth, that still runs (from /proc)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            for child in (task / "children").read_text().split():
                found += [int(child), *descendants(int(child))]
    return found


def pidfds(pids: list[int]) -> list[int]:
    """A pidfd of each of ``pids`` still running: a signal through one never reaches another process
    that took a reaped one's id."""
    fds: list[int] = []
    for pid in pids:
        with contextlib.suppress(OSError):  # gone already
            fds.append(os.pidfd_open(pid))
    return fds


def kill_all(pids: list[int]) -> None:
    """SIGKILL to each of ``pids`` still running."""
    fds = pidfds(pids)
    try:
        kill_through(fds)
    finally:
        for fd in fds:
            os.close(fd)


def kill_through(fds: list[int]) -> None:
    """SIGKILL through each pidfd of ``fds`` whose process still runs."""
    for fd in fds:
        with contextlib.suppress(OSError):  # it ended: nothing to kill
            signal.pidfd_send_signal(fd, signal.SIGKILL)


def ended(s: Served) -> None:
    """The game closed as ``play``'s window closes it, and every process of it gone: the phones'
    server runs in a session of its own (it outlives a killed screen), so killing ``play``'s group
    would leave it waiting for a deciding process for ``peer.PEER_WAIT_S``; after the game's end it
    ends by itself. Whatever is left after that is killed through a pidfd taken before the stop
    (by a plain id, a process that ended and was reaped meanwhile could be another's by now)."""
    started = pidfds(descendants(s.proc.pid))
    try:
        with contextlib.suppress(AssertionError, OSError):  # a game that ended or died already
            s.stop()
        with contextlib.suppress(subprocess.TimeoutExpired):
            s.proc.wait(HANG_S)
        kill_through(started)
    finally:
        for fd in started:
            os.close(fd)


def shut(sock: socket.socket) -> None:
    """No more reads or writes on ``sock``: a thread blocked reading it returns (a close alone may not wake it)."""
    with contextlib.suppress(OSError):  # the other end went first
        sock.shutdown(socket.SHUT_RDWR)


#: the header's GPIOs a test's wiring profile wires, in order: none reserved (0, 1, 14, 15), nor 2 and 3
#: (their fixed pull-ups are for lamps)
FREE_GPIOS = [pin for pin in range(4, 28) if pin not in (14, 15)]


def wiring(path: Path, names: Sequence[str]) -> Path:
    """A wiring profile (GPIO: mock pins in a test) with a station per name, as long as a profile
    allows (``profile.MAX_NAME``, longer than the menu's): each a bell and as many answer buttons
    (a, b ...) as the header's free pins allow, four at most (a pack's most choices)."""
    buttons = min(4, len(FREE_GPIOS) // len(names) - 1)
    pins = iter(FREE_GPIOS)
    lines = ['name = "long-names"', 'source = "gpio"']
    for name in names:
        inputs = ", ".join(f"{key} = {next(pins)}" for key in ["bell", *"abcd"[:buttons]])
        lines += ["[[stations]]", f"name = {json.dumps(name)}", f"inputs = {{ {inputs} }}"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def served(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[..., Served]]:
    """A live game as ``buzzerbox play --web`` runs it by default: ``play``
    (headless), its deciding process and its phones' server are processes of
    their own, killed with their group afterwards. ``names``: the players' names
    as the menu saves them; ``stations``: the stations' names of a wiring
    profile instead (on mock GPIO pins; as many stations as ``players``);
    ``lang``: the box's language; ``verbose``: its processes log what they did
    (``-v``); ``port``: the phones' server's (0: any free one); ``pages``: the
    test follows the phones' pages (``Served.seat``); ``options``: ``--option``s."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")  # this process only draws a view for a screenshot
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    stack = contextlib.ExitStack()
    stack.enter_context(registry.register("hands", "tests.web.hands"))

    def start(game: str, players: int, names: list[str] | None = None, *, stations: Sequence[str] | None = None,
              lang: str = "en", verbose: bool = False, port: int = 0, pages: bool = False, **options: Any) -> Served:
        where = tmp_path_factory.mktemp("served")
        registered = ",".join(f"{name}={registry.package_of(name)}" for name in registry.available()
                              if not registry.package_of(name).startswith("games."))
        env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
               "XDG_DATA_HOME": str(where / "data"), "BUZZERBOX_TEST_GAMES": registered}
        if names is not None:  # as the menu saves them (session.names_path)
            (where / "data" / "buzzerbox").mkdir(parents=True)
            (where / "data" / "buzzerbox" / "players.json").write_text(json.dumps({"keyboard": names}))
        if stations is not None:  # a profile's stations: as many players as it has
            assert len(stations) == players
            seats = ["--profile", str(wiring(where / "long-names.toml", stations))]
            env["GPIOZERO_PIN_FACTORY"] = "mock"
        else:
            seats = ["--players", str(players)]
        views_at = where / "views.sock"
        argv = [sys.executable, "-c", LAUNCH, *(["-v"] if verbose else []), "play", game, *seats,
                "--seed", "7", "--headless", "--seconds", str(20 * HANG_S), "--lang", lang, "--journal", str(where / "game.jsonl"),
                "--web", str(port), "--viewer-socket", str(views_at)]
        for key, value in options.items():
            argv += ["--option", f"{key}={value if isinstance(value, str) else json.dumps(value)}"]
        proc, err = stack.enter_context(running(argv, env, ROOT))
        found = START_LINE.search(err.wait_for(lambda x: START_LINE.search(x) is not None)[1])
        assert found is not None
        sock = connect_when_listening(str(views_at), HANG_S)
        stack.callback(sock.close)
        s = Served(game, proc, err, sock, Pages(int(found.group(1)), found.group(2)))
        # at the end (first to last): the socket shut (its reader's read ends), the reader joined, closed
        stack.callback(s._reader.join, HANG_S)
        stack.callback(shut, sock)
        stack.callback(ended, s)
        s.data = where / "data"
        if pages:
            s.follow_pages()
            s.wait(lambda: s._pages is not None)
        s.wait(lambda: s.view.version > 0)
        return s

    with stack:
        yield start
