"""The deciding process (docs/processes.md): owns the sources, the debounce,
the roll call, the box and its engine, the lights and the journal, at
real-time priority, and publishes what it decided to its viewers after the
lamp is lit.

``play`` and the menu (the screen's process) start it with ``python -m
controller.box.process`` and one end of a socketpair. A new game's first
message is the game (``Start``: typed fields, no header); this process opens the inputs and lamps,
runs the roll call on them (``--roll-call``: the screen draws what it is
sent), then writes the journal, header first, the header built here (the
screen's process never opens an input, builds a header nor writes a journal); a deciding process that died
is started again on the same file and carries on where the journal ends.
The menu starts one for its whole evening (``--evening``): the inputs and
lamps opened once, the stations sent to the menu between games
(``Between``), each game taken over on a ``Play`` and decided as ``play``'s;
the menu tells it the box's language (``SetLanguage``), never restarts it for one.
``buzzerbox diag`` starts one on its profile (``--diag``): the inputs
debounced as between games, each input's row sent to it (``DiagView``).
Nothing here imports pygame or aiohttp: a frame
being drawn or a page being served never holds this process's interpreter.

When its screen dies the game goes on (lamps, journal) and a new screen
process is started (``controller.screen.viewer``), which shows the current view.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import logging
import os
import queue
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from controller import channel
from controller import protocol as p
from controller.box import owner, session
from controller.box import profile as profile_mod
from controller.box.bots import BotsSource
from controller.box.deciding import Decider, ask_realtime
from controller.box.inputs import PRESS_FLASH_US
from controller.box.lights import LightDirector
from controller.box.monitor import InputMonitor, RollCall
from controller.box.press import Press
from controller.box.results.quiz import Recorder, not_written_line, write_replayed
from controller.box.runtime import HORIZON_POLICIES, HORIZON_WATERMARKS, LEAVE_RESULTS, RENAMED, Box
from controller.box.sources.base import Source
from controller.box.timeline import box_now_us
from controller.box.views import Pages, Publisher, snapshot_message, view_of
from controller.channel import EVENTS_KEPT, ChannelError, EncodedPages, Outbox, VersionMismatch
from controller.system import signals, terminal
from games import registry
from games.base import BuzzerBoxError, EventKind, GameEvent
from games.i18n import LANGUAGES, N_, PSEUDO, _, current_language, set_language

log = logging.getLogger("buzzerbox.decider")
T = TypeVar("T")

#: a view is published at least this often while the strip changes without an event (a press's flash)
VIEW_EVERY_US = 33_000
#: and at least this often while nothing changes
VIEW_REFRESH_US = 1_000_000
#: how often this process's threads take turns at the interpreter (Python's default: 5 ms; see ``main``)
SWITCH_INTERVAL_S = 0.0005
#: how long the roll call lingers once every station answered (the last tick is seen)
ROLL_CALL_LINGER_US = 800_000
#: the first line this process writes on stderr, with its pid, in the box's language: a test waits for it
#: an evening's game closing waits at most this long for its kept inputs to deliver up to the close
CLOSE_WAIT_S = 3.0
#: ... asking them again this often (a reader's answer trails now by its ``capture_us``)
CLOSE_POLL_S = 0.001
READY_LINE = N_("deciding process {pid}: {priority}")
#: a peer's line on the screens is cut to this many characters (one line), its source's name to these
PEER_LINE_CHARS = 200
PEER_SOURCE_CHARS = 40


@dataclass
class Viewer:
    """One viewer's socket, its outbox and the thread reading what it sends."""

    sock: socket.socket
    outbox: Outbox
    name: str
    process: subprocess.Popen[bytes] | None = None  # a screen this process started
    #: it serves the phones (a socket peer's ``Hello`` as the phones' server): its views carry
    #: the pages' snapshot, private hands and all
    companion: bool = False
    #: it follows the public board (a socket peer's ``Hello``: the league's link): its views carry the board alone
    board: bool = False
    #: what it said it is (``Hello``): a viewer, a board follower, the phones' server
    role: str = p.VIEWER
    gone: threading.Event = field(default_factory=threading.Event)


@dataclass
class KeptSeats:
    """The phones' server's seats' codes, PIN, replay counters and port as it last sent them
    (``Seats``), kept for this process's whole life (an evening's every game, between them too):
    handed back to a phones' server that says hello, so one started again keeps the phones' seats."""

    seats: dict[str, Any] | None = None

    def handed_back(self) -> p.Seats:
        """What a phones' server is told after its hello (empty: none kept)."""
        return p.Seats(self.seats or {})


class DecidingGame:
    """A live box decided here and watched by viewers."""

    def __init__(self, box: Box, source: Source | None, lights: LightDirector | None, *,
                 until_us: int | None, results_s: float, screen_args: Sequence[str],
                 companion: Publisher | None = None, recorder: Recorder | None = None,
                 kept: KeptSeats | None = None, evening: bool = False) -> None:
        self.box = box
        #: one of the menu's evening's games (``--evening``): its results close back to the menu
        self.evening = evening
        self.source = source
        self.lights = lights
        self.until_us = until_us
        self.results_s = results_s
        #: when the game was last found finished (``results_shown``)
        self._finished_at: int | None = None
        #: the stamp of the newest host key on the final results held for the horizon (a source of stated
        #: delay), and of the newest step forward among them, until delivered (``host_key``)
        self._held_key_us: int | None = None
        self._held_forward_us: int | None = None
        self.screen_args = list(screen_args)
        self.viewers: list[Viewer] = []
        self.version = 0
        self.stop_reason: p.EndReason | None = None
        self.wake = threading.Event()
        self.awaiting_show = False
        self._last_view: tuple[Any, Any, tuple[str, ...], Any] | None = None
        self._last_view_us = 0
        #: when the views were last built, whether a step since can have changed them, whether the last
        #: look found them standing still, when the next press's flash on the strip ends (``publish``)
        self._looked_us = 0
        self._unseen = True
        self._still = False
        self._flash_ends_us: int | None = None
        #: the phones' server's seats, as it last sent them (the process's, across its games: ``Link.kept``)
        self.kept = kept if kept is not None else KeptSeats()
        #: what the big screen says of the phones, as their server last said it: in every view
        self.panel: p.PhonesPanel | None = None
        #: answers the phones' server's requests (a pack uploaded from the host page: ``owner.answer``)
        self.requests: Callable[[p.Message], p.Answered] | None = None
        #: builds the phones' snapshots (``--web``): after the lamp, never inside the decision
        self.companion = companion
        #: a quiz's record, folded as the game is decided: written beside the journal at the close
        self.recorder = recorder
        #: the socket peers' lines on the screens (``PeerLine``): by source, (the viewer that said it, its text)
        self.peer_lines: dict[str, tuple[str, str]] = {}
        #: an evening's game with phones: what its phones' server is told it serves (a server that connects late)
        self.serving: p.Serving | None = None
        #: what the host page asked of the menu meanwhile (a rename, an option): sent to the menu after the
        #: game's ``Ended``
        self.menu_asks: list[p.Message] = []
        #: ``play``'s game keeps a player renamed on the host page in the names file (this process owns it;
        #: an evening's menu sends its names itself: ``owner``)
        self.keep_name: Callable[[int, str], None] | None = None
        #: the simulated players, when they play (``Taking.bots``): they see each step's decisions
        self.bots: BotsSource | None = None
        self.decider = Decider(box, self.game_now, self.light, after=self.publish, rehearse=self.rehearse_light)
        if lights is not None:  # a race the engine declared lights its winner before the engine's step
            box.first_lamp = self.first_light
        box.results_keys = self.key  # the host box's own buttons on the final results: host keys

    def game_now(self) -> int:
        return box_now_us() + self.box.time_offset_us

    def light(self) -> int | None:
        """The lamps from the stations' statuses now; when the first went on (None: none did)."""
        if self.lights is None:
            return None
        return self.lights.update(self.box.statuses(), self.box.spec.status_light, clock=self.game_now)

    def first_light(self, station: int, status: str) -> int | None:
        """The lamps of the winner of a race the engine declared (``Box.first_lamp``), at once."""
        assert self.lights is not None
        return self.lights.light_station(station, self.box.spec.status_light(status), clock=self.game_now)

    def rehearse_light(self) -> None:
        """``light``'s reads, nothing written (``Decider.rehearse``)."""
        if self.lights is not None:
            self.lights.plan(self.box.statuses(), self.box.spec.status_light)

    # -- views out ------------------------------------------------------------------------
    def view(self, t_us: int, public: dict[str, Any] | None = None,
             strip: list[dict[str, Any]] | None = None) -> p.View:
        """What a screen draws: the engine's public view, the strip and the box's
        state (``public`` and ``strip``: those views now, if already asked for)."""
        last = self.decider.decisions[-1] if self.decider.decisions else None
        decided = None if last is None or last[0] is None else (last[0], last[1])
        view = view_of(self.box, t_us, version=self.version, public=public, strip=strip, decided=decided)
        view = dataclasses.replace(view, lines=self.lines()) if self.peer_lines else view
        return view if self.panel is None else dataclasses.replace(view, phones=self.panel)

    def lines(self) -> tuple[str, ...]:
        """The peers' lines on the screens now (hold ``box.lock``)."""
        return tuple(text for _viewer, text in self.peer_lines.values())

    def publish(self, events: list[GameEvent], t_us: int, stirred: bool = True) -> None:
        """After each step, the lamp lit: a new view when something changed
        (at most every ``VIEW_EVERY_US`` without an event, and at least
        every ``VIEW_REFRESH_US``).

        Most steps change nothing a viewer sees, and the views are built only
        when they can have changed: something was decided, the step was
        ``stirred`` (it took a delivery or a command, or a moment due
        passed), a press's flash on the strip ended, or the refresh is due.
        And time: a view may count down with the engine's clock (the quiz's
        answer time): after each change it is looked at every ``VIEW_EVERY_US``
        until one look finds it standing still, then not until it changes.
        With no viewer nothing is built (a viewer that comes is sent the view
        of then: ``attach``): the phones' pages only note the events."""
        if self.bots is not None and (events or stirred):
            self.bots.observe(events, t_us)
        if events and self._held_key_us is not None:
            with self.box.lock:  # a key held on the final results, delivered: did the game take it?
                self._results_key_done(events)
        viewers = self.live_viewers()
        if not viewers:
            self._unwatched(events, t_us)
            return
        if any(e.kind == EventKind.SHOW for e in events):
            self.awaiting_show = True
        if stirred or (self._flash_ends_us is not None and self.box.now_us >= self._flash_ends_us):
            self._unseen = True
        since = t_us - self._last_view_us
        if not events and (since < VIEW_EVERY_US or (not self._unseen and since < VIEW_REFRESH_US and (
                self._still or t_us - self._looked_us < VIEW_EVERY_US))):
            return
        with self.box.lock:
            public = self.box.engine.public_view()
            strip = self.box.strip(public)
            lines = self.lines()
            same = (public, strip, lines, self.panel) == self._last_view
            # a view that changed may count down from now; one that a look for time's sake alone found as it
            # was sent (VIEW_EVERY_US ago at least) does not, until it changes
            self._still = same and (self._still or not self._unseen)
            self._looked_us, self._unseen, self._flash_ends_us = t_us, False, self._flash_end()
            if not events and same and since < VIEW_REFRESH_US:
                return
            self._last_view, self._last_view_us = (public, strip, lines, self.panel), t_us
            self.version += 1
            view = self.view(t_us, public, strip)  # the views are asked for once per publish
            pages = self.pages(events, public, strip) if events else None
        for viewer in viewers:
            viewer.outbox.publish(view, events, None if pages is None else self.encoded_for(viewer, pages))
        if events:
            self.wake.set()  # the main thread checks for the end

    def _unwatched(self, events: list[GameEvent], t_us: int) -> None:
        """``publish`` with no viewer: nothing is built. A card to show is shown now (nobody
        flips it: the game goes on), the phones' pages note the events, and the next viewer's
        view is built afresh."""
        self._unseen = True
        if not events:
            return
        if any(e.kind == EventKind.SHOW for e in events):
            self.answer_show(t_us)
        if self.companion is not None:
            with self.box.lock:
                self.companion.note(events)
        self.wake.set()  # the main thread checks for the end

    def _flash_end(self) -> int | None:
        """The box time the next press's flash on the strip ends (None: none is
        lit): the strip changes then, with nothing delivered (hold ``box.lock``)."""
        now = self.box.now_us
        ends = [st.last_press_us + PRESS_FLASH_US for st in self.box.stations if st.last_press_us is not None]
        return min((end for end in ends if end > now), default=None)

    def pages(self, events: list[GameEvent], public: dict[str, Any] | None = None,
              strip: list[dict[str, Any]] | None = None) -> Pages | None:
        """The phones' newest pages as plain data, not yet JSON (hold
        ``box.lock``: only the views are copied under it; ``encoded``
        writes the text on the outbox's thread), or None without ``--web``.
        A view the pages cannot show is logged, never allowed to stop the
        game (the phones keep their last one)."""
        if self.companion is None:
            return None
        try:
            return self.companion.gather(events, public, strip)
        except Exception:  # noqa: BLE001 (the game goes on)
            log.exception("companion: could not build the pages' views; the phones keep the last ones")
            return None

    @staticmethod
    def encoded(pages: Pages) -> EncodedPages:
        """The phones' pages as a view carries them, encoded when called (on
        the screen's outbox's thread, outside ``box.lock``). Pages that cannot
        be encoded are logged and left out: the phones keep their last ones."""

        def encode() -> dict[str, Any] | None:
            try:
                return snapshot_message(pages.snapshot())
            except Exception:  # noqa: BLE001 (the game goes on)
                log.exception("companion: could not encode the pages' views; the phones keep the last ones")
                return None

        return encode

    def encoded_for(self, viewer: Viewer, pages: Pages) -> EncodedPages | None:
        """What of the pages ``viewer`` gets: the phones' server their snapshot,
        a board follower the public board alone (no private hand), any other none."""
        if viewer.companion:
            return self.encoded(pages)
        if viewer.board:
            return self.board_encoded(pages)
        return None

    @staticmethod
    def board_encoded(pages: Pages) -> EncodedPages:
        """The public board's JSON text as a board follower's view carries it, encoded when called."""

        def encode() -> str | None:
            try:
                return json.dumps(pages.board, default=str)
            except Exception:  # noqa: BLE001 (the game goes on)
                log.exception("companion: could not encode the board; its followers keep the last one")
                return None

        return encode

    def answer_show(self, t_us: int) -> None:
        self.awaiting_show = False
        self.decider.submit(lambda: self.box.shown(t_us))

    def live_viewers(self) -> list[Viewer]:
        return [v for v in self.viewers if not v.gone.is_set() and not v.outbox.closed]

    # -- inputs in ----------------------------------------------------------------------
    def attach(self, sock: socket.socket, name: str, process: subprocess.Popen[bytes] | None = None,
               role: str = p.VIEWER, link: Link | None = None) -> Viewer:
        """A viewer from now on: it gets the current view at once (and, in a
        role that follows the pages, their snapshot), and its inputs are read. That view is its first
        message: it is handed over before the viewer is listed for the next.
        ``link``: a channel read and written by its own thread and outbox (the
        process that started this one, for the whole evening; a peer that
        connected before the game): the game has them until it ends."""
        viewer = Viewer(sock, link.outbox if link is not None else Outbox(sock, name), name, process)
        with self.box.lock:
            self.assign(viewer, role)
            self.version += 1
            viewer.outbox.publish(*self.first_view(viewer))
            self.viewers.append(viewer)
        if link is not None:
            link.play(self, viewer)
        else:
            threading.Thread(target=self._read, args=(viewer,), name=f"buzzerbox-read-{name}", daemon=True).start()
        return viewer

    def assign(self, viewer: Viewer, role: str) -> None:
        """``viewer`` is a ``role`` from now on: a board follower's views carry the public
        board, the phones' server's the pages' snapshot (the pages are built from then on
        if they were not). Hold ``box.lock``."""
        viewer.role = role
        if role != p.VIEWER and self.companion is None:  # nobody asked for the pages so far: built from now on
            self.companion = Publisher(self.box, evening=self.evening)
        viewer.board, viewer.companion = role == p.BOARD, role == p.PHONES

    def first_view(self, viewer: Viewer) -> tuple[p.View, list[GameEvent], EncodedPages | None]:
        """What a viewer is sent first, for its role (hold ``box.lock``): the pages to a role that follows them."""
        view = self.view(self.game_now())
        pages = self.pages([]) if viewer.role != p.VIEWER else None
        return view, [], None if pages is None else self.encoded_for(viewer, pages)

    def _read(self, viewer: Viewer) -> None:
        try:
            for message in received(viewer.sock, viewer.name):
                self.take_from(viewer, message)
        finally:
            self.went(viewer)

    def went(self, viewer: Viewer) -> None:
        """``viewer`` closed its end: the main loop lets it go (and starts a screen again); its lines leave the screens."""
        viewer.gone.set()
        with self.box.lock:
            said = [source for source, (name, _text) in self.peer_lines.items() if name == viewer.name]
            for source in said:
                del self.peer_lines[source]
        if said:
            self.decider.submit(list)  # a step asked for: a view without them goes out
        self.wake.set()

    def take_from(self, viewer: Viewer, message: p.Message) -> None:
        """A viewer's message: what only the phones' server says (its seats, its panel, its
        requests) kept or answered, a socket peer's hello and lines taken here, the rest taken by the game."""
        if isinstance(message, p.Hello):
            self.greet(viewer, message)
        elif isinstance(message, p.PeerLine):
            self.say(viewer, message)
        elif isinstance(message, PHONES_ONLY) and viewer.role != p.PHONES:
            log.warning("%s sent a %s message, which only the phones' server sends: ignored", viewer.name, message.TAG)
        elif isinstance(message, p.SetLanguage):
            if viewer.name == STARTER:  # the menu's (between its games it comes to ``between``)
                self.speak(message)
            else:
                log.warning("%s sent a %s message, which only the menu sends: ignored", viewer.name, message.TAG)
        elif isinstance(message, KEPT_FOR_THE_MENU):
            # the menu's next games use the name (this game journals its notice), the option
            self.menu_asks.append(message)
        elif isinstance(message, p.MENU_ASKS):  # its page was told a game runs: the next starts after it
            log.info("the host page's %s came while a game runs: not the game's, dropped", message.TAG)
        elif isinstance(message, p.Seats):
            self.kept.seats = message.seats
        elif isinstance(message, p.Panel):
            self.panel = message.panel
            self.decider.submit(list)  # a view with it, at the next step: the screens draw it
        elif isinstance(message, REQUESTS):
            answer_on_a_thread(self.requests, message, viewer.outbox)
        elif isinstance(message, p.ShowPin):
            for phones in self.live_viewers():
                if phones.role == p.PHONES:
                    phones.outbox.put(message)
        else:
            self.take(message)

    def greet(self, viewer: Viewer, hello: p.Hello) -> None:
        """A socket peer says what it is: a board follower's views carry the
        public board from now on, the phones' server's the pages' snapshot (the
        pages are built from then on if they were not), and it is handed back the
        seats it last sent (one started again keeps them); the view now goes at once."""
        if hello.role not in p.ROLES:
            log.warning("%s says it is a %r, which is no peer's role (%s): a plain viewer", viewer.name,
                        hello.role[:40], ", ".join(p.ROLES))
            return
        log.info("%s is %s (%s)", viewer.name, hello.role, hello.name[:80] or "unnamed")
        if hello.role == p.VIEWER:
            return
        with self.box.lock:
            self.assign(viewer, hello.role)
            self.version += 1
            if hello.role == p.PHONES:  # its kept seats, the box's language now, and (an evening's) which game
                viewer.outbox.put(self.kept.handed_back())
                viewer.outbox.put(p.SetLanguage(current_language()))
                if self.serving is not None:
                    viewer.outbox.put(self.serving)
            viewer.outbox.publish(*self.first_view(viewer))

    def speak(self, message: p.SetLanguage) -> None:
        """The box's language from now on, passed on to the phones' server (``speak``)."""
        if speak(message):
            for phones in self.live_viewers():
                if phones.role == p.PHONES:
                    phones.outbox.put(message)
            self.decider.submit(list)  # a view worded in it goes out

    def say(self, viewer: Viewer, line: p.PeerLine) -> None:
        """A peer's line on the screens (None: taken back), the newest per source, in every view from now on."""
        with self.box.lock:
            if line.text:
                self.peer_lines[line.source[:PEER_SOURCE_CHARS]] = (viewer.name, line.text[:PEER_LINE_CHARS])
            else:
                self.peer_lines.pop(line.source[:PEER_SOURCE_CHARS], None)
        self.decider.submit(list)  # a step asked for (it decides nothing): the view with the line goes out

    def take(self, message: p.Message) -> None:
        """One stamped input or request from a viewer (reader thread: only enqueues)."""
        box = self.box
        # forwarded inputs: their lateness is the screen's, never a reason to slow the stations' decisions
        if isinstance(message, p.EdgeInput):
            box.edge(message.edge, message.precision_us, measured=False)
        elif isinstance(message, p.PressInput):
            box.press(message.press, measured=False)
        elif isinstance(message, p.WatermarkInput):
            box.watermark(message.mark)
        elif isinstance(message, p.NoticeInput):
            box.notice(message.notice)
            if message.notice.kind == RENAMED and self.keep_name is not None:
                self.keep_name(message.notice.station, message.notice.input)
        elif isinstance(message, p.ActionInput):
            box.deliver_action(message.action)
        elif isinstance(message, p.HostKey):
            self.key(message.name, message.t_us)
        elif isinstance(message, p.Shown):
            self.awaiting_show = False
            t_shown = message.t_us
            self.decider.submit(lambda: box.shown(t_shown))
        elif isinstance(message, p.Stop):
            self.stop_reason = message.reason
            self.wake.set()
        else:
            log.warning("a viewer sent a %s message, which only the deciding process sends: ignored", message.TAG)

    def key(self, name: str, t_us: int) -> None:
        """A host key (game µs), decided on the deciding thread before its next step (``host_key``)."""
        self.decider.submit(lambda: self.host_key(name, t_us))

    def host_key(self, name: str, t_us: int) -> list[GameEvent]:
        """A host key (on the deciding thread, the box locked): the screen's keys, the host page's game
        buttons (its phones' server sends them by name: ``PhonesLink.host_key``), and the host box's own
        buttons once the game is finished (``Box.results_keys``). On the final results a step forward the
        game has no use for any more (a clicker's next, next, arm: after the last answer was shown, if it
        was not: ``Box.leaves_results``) closes them, as Enter does: back to the menu, never a key that
        "does nothing". A key the game takes there (the reveal, an undo) shows the results ``results_s`` anew."""
        box = self.box
        if not box.engine.finished:
            return box.host_button(name, t_us)
        # a step forward held for the horizon (a source of stated delay) is done already: the next
        # leaves (a clicker's double press), rather than resolve to the same reveal and be refused
        ahead = self._held_forward_us
        held = ahead is not None and (first := box.next_held_us()) is not None and first <= ahead
        if (held and name in LEAVE_RESULTS) or box.leaves_results(name):
            self.stop_reason = p.EndReason.FINISHED
            self.wake.set()
            return []
        events = box.host_button(name, t_us)
        if not events:  # held for the horizon: what it did is known once it is delivered (``publish``)
            self._held_key_us = t_us
            self._held_forward_us = t_us if name in LEAVE_RESULTS else self._held_forward_us
        self._results_key_done(events)
        return events

    def _results_key_done(self, events: list[GameEvent]) -> None:
        """A key on the final results that the game took (the reveal, an undo, not refused) shows them
        ``results_s`` anew (``results_shown``): the answer is read, not flashed (hold ``box.lock``)."""
        if any(e.kind != EventKind.REJECTED for e in events):
            self._finished_at = None
        first = self.box.next_held_us()
        if self._held_key_us is not None and (first is None or first > self._held_key_us):
            self._held_key_us = None  # every key held so far is delivered
        if self._held_forward_us is not None and (first is None or first > self._held_forward_us):
            self._held_forward_us = None

    # -- the screen ---------------------------------------------------------------------
    def start_screen(self) -> Viewer:
        """A new screen process (the last one died): it draws the current view (the phones' panel
        with it: their server, a process of its own, never stopped)."""
        mine, theirs = socket.socketpair()
        with signals.blocked_for_child():  # a signal while it starts waits for its handlers
            process = subprocess.Popen([sys.executable, "-m", "controller.screen.viewer", "--fd", str(theirs.fileno()),
                                        *self.screen_args, "--lang", current_language(),
                                        "--log-level", str(logging.getLogger().getEffectiveLevel())],
                                       pass_fds=[theirs.fileno()])
        theirs.close()
        log.warning("a new screen process %d shows the game", process.pid)
        return self.attach(mine, f"screen-{process.pid}", process)

    # -- the game -----------------------------------------------------------------------
    def run(self) -> p.EndReason:
        """Decide until the game ends (and its results were shown), time is up,
        a viewer asks to stop, Ctrl+C or SIGTERM; returns why it ended."""
        box = self.box
        self.decider.start()
        try:
            while True:
                self.wake.wait(0.1)
                self.wake.clear()
                if self.decider.error is not None:
                    raise self.decider.error
                if self.stop_reason is not None:
                    return self.stop_reason
                if signals.received() is not None:  # SIGTERM, Ctrl+C, SIGHUP, SIGQUIT: closed as a stop
                    return p.EndReason.STOPPED
                now = self.game_now()
                with box.lock:  # (a key on the final results times them anew under it: ``host_key``)
                    shown = self.results_shown(box.engine.finished, now)
                if shown:
                    return p.EndReason.FINISHED
                if self.until_us is not None and now >= self.until_us:
                    return p.EndReason.TIME
                self._mind_the_screen(now)
        finally:
            self.decider.stop()

    def results_shown(self, finished: bool, now: int) -> bool:
        """The game has been finished for ``results_s`` by ``now`` (game µs): its results were on show
        that long. An undo on the final results makes it unfinished again: timed anew when it ends again
        (it closed ``results_s`` after the first end, the game going on)."""
        if not finished:
            self._finished_at = None
        elif self._finished_at is None:
            self._finished_at = now
        return self._finished_at is not None and now - self._finished_at > self.results_s * 1_000_000

    def _mind_the_screen(self, now: int) -> None:
        for viewer in list(self.viewers):
            if viewer.gone.is_set():
                self.viewers.remove(viewer)
                viewer.outbox.close(0.1)
                viewer.sock.close()
                if viewer.process is not None:
                    viewer.process.wait()
                if viewer.name.startswith("screen"):
                    log.warning("the screen process went away: the game goes on (lamps, journal)")
                    if self.awaiting_show:
                        self.answer_show(now)
                    if self.screen_args:
                        self.start_screen()

    def await_sources(self) -> None:
        """An evening's game closes with its inputs kept open: a press already on its way
        (in the GPIO reader's pipe, on the board's serial line, in the feed) is
        still taken before the journal's end, by waiting until every source says
        it delivered up to the close, and past the debounce of a press that came
        (``CLOSE_WAIT_S`` at most: a source that never says is logged, and the
        game closes without it)."""
        box = self.box
        close_us = max(self.game_now(), box.now_us)
        deadline = time.monotonic() + CLOSE_WAIT_S
        said = False
        box.handed_over()  # (the deciding thread stopped: this is no pause of the box's)
        while True:
            box.arrived.clear()
            with box.lock:
                now = self.game_now()
                box.step(now)  # what came is taken: a press still being debounced is waited for too
                pending = box.debouncer.earliest_pending_us()
                through = close_us if pending is None else max(close_us, pending + box.debouncer.config.bounce_us)
                behind = box.sources_behind(through, now)
            if not behind:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                log.warning("the %s inputs did not say within %.1f s that they delivered everything up to the "
                            "game's close: closed without what they still hold", ", ".join(behind), CLOSE_WAIT_S)
                return
            if not said:
                said = True
                log.debug("the game closes: waiting for the %s inputs to deliver up to its close", ", ".join(behind))
            box.arrived.wait(min(left, CLOSE_POLL_S))  # a delivery wakes it; a probe's lag passes by the poll

    def close(self, reason: p.EndReason, link: Link | None = None, keep_inputs: bool = False) -> None:
        """Lamps off, sources stopped (``keep_inputs``: an evening's next game
        reads them: only no longer delivered to this box), the journal's end
        written, the viewers told; ``link``'s outbox is the evening's: kept open."""
        box = self.box
        box.first_lamp = None  # what the close still decides (box.end) lights nothing after all_off
        # the deciding thread has stopped: a host button's press the close still takes is the game's, journaled
        # (and refused by a finished game), never handed to host keys nobody decides any more
        box.results_keys = None
        try:
            if self.lights is not None:
                self.lights.all_off()
        finally:
            try:
                if self.bots is not None:  # they press no more: what they pressed is taken below
                    self.bots.stop()
                if self.source is not None and not keep_inputs:
                    self.source.stop()  # what it hands over as it stops still reaches this box
                elif self.source is not None:
                    self.await_sources()  # kept open, so not drained by a stop: waited for instead
                    session.disconnect(self.source)  # kept: an input board holds no contest of this game
            finally:
                if link is not None:
                    link.relay.target = None  # nothing more reaches this box
                box.end(max(self.game_now(), box.now_us))  # every press taken is journaled before the end
        results = self.write_results(reason)
        ended = p.Ended(
            reason=reason, summary=box.summary(), late_deliveries=box.late_deliveries,
            worst_delivery_us=box.worst_delivery_us, stalls=box.stalls, longest_wait_us=box.longest_wait_us,
            decided_by=box.decided_by(), offset_us=box.time_offset_us, stated_delay_us=box.stated_delay_us,
            decisions=[list(d) for d in self.decider.decisions], decision_detail=list(self.decider.detail),
            loaded={name: name in sys.modules for name in ("pygame", "aiohttp")},
            dropped_views=sum(v.outbox.dropped_views for v in self.viewers),
            unsaved=box.journal.unsaved if box.journal is not None else 0,
            unsaved_path=None if box.journal is None or box.journal.unsaved_path is None
            else str(box.journal.unsaved_path),
            played=session.played_of(box), results=results, switch_interval_us=round(sys.getswitchinterval() * 1e6))
        pages = self.final_pages()
        if link is not None:
            link.play(None, None)  # what the channel brings from now on waits for the evening
        for viewer in self.viewers:
            # the pages hold the private hands: only the screen serving the phones gets them
            viewer.outbox.put(dataclasses.replace(ended, pages=pages) if viewer.companion else ended)
            if link is None or viewer.outbox is not link.outbox:
                viewer.outbox.close()
        for viewer in self.viewers:
            if viewer.process is not None:
                viewer.process.wait()

    def write_results(self, reason: p.EndReason) -> tuple[str, ...]:
        """A quiz's record beside its closed journal, from the record folded as
        the game went (a stop's too: it takes milliseconds); the files written.
        A game taken over from a checkpoint has not seen its first events: its
        journal is replayed for them, but not at a stop (a stop stays prompt;
        the line says how to write them later)."""
        recorder, journal = self.recorder, self.box.journal
        if recorder is None or journal is None:
            return ()
        if recorder.whole:
            written = recorder.write(self.box, journal.path)
        elif reason == p.EndReason.STOPPED:
            log.warning("%s", not_written_line(journal.path))
            written = []
        else:
            written = write_replayed(journal.path)
        return tuple(str(path) for path in written)

    def final_pages(self) -> dict[str, Any] | None:
        """The phones' pages of the closed game, offering no move (what they
        show between the menu's games: no game running, its last scores);
        None without ``--web``, or pages that cannot be built (logged)."""
        if self.companion is None:
            return None
        try:
            with self.box.lock:
                return snapshot_message(self.companion.detach())
        except Exception:  # noqa: BLE001 (the game is closed all the same; the phones keep their last view)
            log.exception("companion: could not build the closed game's pages; the phones keep the last ones")
            return None


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m controller.box.process",
                                description="The deciding process of a live game (started by play and the menu).")
    p.add_argument("--fd", type=int, required=True, help="the channel socket to the screen process")
    p.add_argument("--journal", default=None, help="the game's journal: taken over here (not --evening)")
    p.add_argument("--evening", action="store_true",
                   help="the menu's whole evening: the inputs and lamps opened once; between games the stations "
                        "go to the menu, each game is a play message (docs/processes.md)")
    p.add_argument("--diag", action="store_true",
                   help="buzzerbox diag: the profile's inputs debounced as between games, every input's row "
                        "sent to the screen until a stop (no game)")
    p.add_argument("--profile", default=None)
    p.add_argument("--new", action="store_true",
                   help="a new game: the screen's first message is its session header; this process writes the "
                        "journal and the game's time starts now (else: resumed from the journal)")
    p.add_argument("--roll-call", action="store_true",
                   help="a new game on real stations: every station presses once before it starts (the screen "
                        "draws it from what this process sends)")
    p.add_argument("--carry-on", action="store_true",
                   help="a game the host ended before its end goes on (its screen checked it was not played out)")
    p.add_argument("--seconds", type=float, default=None, help="end this long after taking the game over")
    p.add_argument("--bots", action="store_true",
                   help="a resumed game played by simulated players (a new one's Start says so)")
    p.add_argument("--board-sim", action="store_true", help="with --bots: through a simulated input board")
    p.add_argument("--results-s", type=float, default=10.0)
    p.add_argument("--viewer-socket", default=None, help="also take viewers on this Unix socket")
    p.add_argument("--feed", default=None, help="a FIFO of synthetic edges (controller/box/feed.py)")
    p.add_argument("--register", action="append", default=[],
                   help="GAME=PACKAGE: where a game is imported from (repeated: every game beside games/ an "
                        "evening's Play may name)")
    p.add_argument("--screen", default="[]", help="JSON list: the arguments of a new screen process")
    p.add_argument("--web", action="store_true",
                   help="the screen serves the phones' pages: build their snapshots and send them to it")
    p.add_argument("--lang", choices=(*LANGUAGES, PSEUDO), default="en",
                   help="the box's language: the phones' pages, the host page and a new screen speak it")
    p.add_argument("--log-level", type=int, default=logging.INFO,
                   help="the command's logging level: a box at a terminal says only problems, as a service more")
    p.add_argument("--requests-fd", type=int, default=None,
                   help="the menu's channel of requests: the names and the packs this process writes (controller/box/owner.py)")
    p.add_argument("--packs-dir", default=None, help="the packs folder: packs uploaded from the host page are saved here")
    p.add_argument("--horizon", choices=HORIZON_POLICIES, default=HORIZON_WATERMARKS,
                   help="how the box knows every input is in: the sources' watermarks (default), or the "
                        "old fixed delay (benchmarks/realtime.py compares them)")
    args = p.parse_args(argv)
    if args.diag and not args.profile:
        p.error("--diag reads a wiring profile's inputs: give --profile")
    if args.journal is None and not (args.evening or args.diag):
        p.error("--journal is needed: the game's journal (or --evening: the menu sends each game's)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    # a stopping signal (SIGTERM, SIGINT, SIGHUP, SIGQUIT) is recorded, never raised: the game loop
    # closes the game on it. The screen started this process with them blocked, so one sent during
    # the imports above waited; it arrives here (controller/system/signals.py)
    terminal.whole_lines()  # its lines and the screen's share one stderr
    signals.install(raising=False)
    # the threads here take turns at the interpreter every 5 ms by default: while the deciding thread
    # steps, an edge reader thread with a press to hand over would wait that long, and the box would
    # decide past a press that came but was not yet read. Ask for a turn every half millisecond
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    args = parse(argv)
    set_language(args.lang)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    # it opens the inputs: gpiozero's fallback warnings only when the command was asked for more than its
    # problems and its progress (-vv; a box run as a service logs at INFO with no -v)
    session.quiet_gpio_fallbacks(0 if args.log_level >= logging.INFO else 1)
    priority = ask_realtime(translated=True)
    sock = socket.socket(fileno=args.fd)
    with contextlib.ExitStack() as games:  # the games it knows: a Play names one of them (``registry.known``)
        for pair in args.register:
            games.enter_context(registry.register(*pair.split("=", 1)))
        return decide(args, sock, priority, wake_on_signal=True)


def received(sock: socket.socket, name: str) -> Iterator[p.Message]:
    """What a viewer sends, until it closes its end: a message that is not one
    is logged and skipped; another install's is said once and ends it."""
    while True:
        try:
            message = channel.receive(sock)
        except VersionMismatch as exc:  # another install's screen: it is told by its own reader
            print(f"buzzerbox: {exc}", file=sys.stderr, flush=True)
            return
        except ChannelError as exc:
            log.warning("%s sent something that is not a message (%s): ignored", name, exc)
            continue
        except OSError:  # closed under the reader
            return
        if message is None:
            return
        yield message


#: the name of the channel to the process that started this one (``play``'s screen, the menu), as a viewer
STARTER = "screen"


def speak(message: p.SetLanguage) -> bool:
    """The box's language from now on (the menu's ``SetLanguage``): this process's own texts, the
    views' words, a screen it starts; False (said in the log) for one that is no language of the box."""
    if message.language == current_language():
        return False
    if message.language not in (*LANGUAGES, PSEUDO):
        log.warning("the menu asked for the language %r, which the box does not speak (%s): kept %s",
                    message.language[:20], ", ".join(LANGUAGES), current_language())
        return False
    set_language(message.language)
    log.info("the box speaks %s from now on", message.language)
    return True


#: what only the phones' server asks of what this process owns (answered on a thread: ``answer_on_a_thread``)
REQUESTS = (p.SaveNames, p.UploadPack)
#: what only the phones' server sends (its seats, its panel, its requests, the host page's asks of the menu)
PHONES_ONLY = (p.Seats, p.Panel, *REQUESTS, *p.MENU_ASKS)
#: what the host page asks of the menu while a game runs that the menu takes after it (a name, an
#: option for its next game: ``DecidingGame.menu_asks``); a "start" is answered on the page (a game runs)
KEPT_FOR_THE_MENU = (p.HostRenamed, p.SetOption)


def answer_on_a_thread(answer: Callable[[p.Message], p.Answered] | None, message: p.Message, outbox: Outbox) -> None:
    """A request answered on a thread of its own (a pack is checked for up to a second: never on the
    reader that takes the phones' moves), the answer put in ``outbox`` (the asker asks one at a time)."""
    def run() -> None:
        try:
            answered = answer(message) if answer is not None else owner.answer(message, None, None)
        except Exception:  # noqa: BLE001 (said; the asker reads a refusal, the game goes on)
            log.exception("a %s request could not be answered", message.TAG)
            answered = p.Answered(False)
        outbox.put(answered)

    threading.Thread(target=run, name="buzzerbox-request", daemon=True).start()


class _Wake:
    """In a ``Link``'s inbox: no message, only a look up (``Link.wake``)."""


_WAKE = _Wake()


class Link:
    """The channel to the process that started this one (the screen of
    ``play``, the menu), read by one thread and written by one outbox for
    this process's whole life: in a game its messages go to the game
    (``DecidingGame.take_from``), before it (the roll call, a new game's
    header) and between an evening's games they wait in ``inbox`` (None:
    the channel closed). One writer, so an evening's ``Between`` never
    comes before the ``Ended`` of the game it follows."""

    def __init__(self, sock: socket.socket, name: str = "screen", lobby: Link | None = None) -> None:
        """``lobby``: a peer's link (on the viewer socket) to the screen's: what the peer sends while
        no game runs (the roll call) waits in the screen's ``inbox``, its requests are answered here."""
        self.sock = sock
        self.name = name
        self.outbox = Outbox(sock, name)
        self.inbox: queue.Queue[p.Message | None | _Wake] = queue.Queue()
        self.lobby = lobby
        #: what the peer said it is (``Hello``), and what it asks of the session's owner (``REQUESTS``)
        self.role = p.VIEWER
        self.requests: Callable[[p.Message], p.Answered] | None = None
        #: the peers connected before the game (the screen's link): each roll call's view goes to them too
        self.peers: list[Link] = []
        #: what a peer said before the game existed that the game takes from it (its lines, the phones' panel)
        self.said: list[p.PeerLine | p.Panel] = []
        #: the screen's link: the phones' server's seats, kept across games (a peer's: its lobby's)
        self.kept = KeptSeats()
        #: an evening's (the screen's link): the game its phones' server is to serve now (``Serving``, from the
        #: menu's ``Play``) and the menu's next game for the host page (``NextGame``): told to each that says hello
        self.serving: p.Serving | None = None
        self.next_game: p.NextGame | None = None
        #: the stations' deliveries go to whatever runs now: the roll call's or the evening's monitor, or a box
        self.relay = session.Relay()
        #: the oldest presses of ``Between`` messages merged while the menu did not read (``merged_between``)
        self.dropped_presses = 0
        self.closed = threading.Event()
        #: held while a message is taken and while the link changes hands (``play``, ``joins``: reentrant)
        self._lock = threading.RLock()
        self._game: tuple[DecidingGame, Viewer] | None = None
        #: a ``wake`` waits in ``inbox`` not taken yet: another adds nothing (a storm of edges is one)
        self._wake_queued = False
        threading.Thread(target=self._read, name="buzzerbox-read-screen", daemon=True).start()

    def send(self, message: p.Message) -> None:
        """After what was sent before (a game's last view, its ``Ended``). A ``Between``
        replaces one not yet written (``merged_between``): a menu that does not read
        while a bots game or a results screen runs gets the stations' newest, not a pile."""
        if isinstance(message, p.Between):
            self.outbox.put_newest(message, self.merged_between)
        else:
            self.outbox.put(message)
        if isinstance(message, p.RollCallView):
            # the host page says who the roll call still waits for; a board follower (the league's)
            # ignores it but hears from the deciding process: silent for ``PEER_WAIT_S`` it is gone
            for peer in list(self.peers):
                if peer.role != p.VIEWER and not peer.closed.is_set():
                    peer.outbox.put(message)

    def to_phones(self, message: p.Message) -> None:
        """``message`` to the phones' server waiting between an evening's games (a peer that said it is one)."""
        for peer in list(self.peers):
            if peer.role == p.PHONES and not peer.closed.is_set():
                peer.outbox.put(message)

    def merged_between(self, old: p.Between, new: p.Between) -> p.Between:
        """Two ``Between`` as one: the newest strip, the presses of both (at most the newest
        ``EVENTS_KEPT``: the menu takes none made before it was shown again; the rest counted)."""
        presses = (*old.presses, *new.presses)
        if len(presses) > EVENTS_KEPT:
            self.dropped_presses += len(presses) - EVENTS_KEPT
            presses = presses[-EVENTS_KEPT:]
        return p.Between(new.strip, presses)

    def play(self, game: DecidingGame | None, viewer: Viewer | None) -> None:
        """From now on the channel's messages go to ``game`` (None: to ``inbox``);
        what waited in the inbox goes to it first (sent as the game was being taken over)."""
        with self._lock:
            self._game = None if game is None or viewer is None else (game, viewer)
            if game is not None and viewer is not None:
                while True:
                    try:
                        message = self.inbox.get_nowait()
                    except queue.Empty:
                        break
                    if message is None:
                        game.went(viewer)
                    elif isinstance(message, _Wake):
                        self._wake_queued = False
                    else:
                        game.take_from(viewer, message)

    def joins(self, game: DecidingGame) -> None:
        """A peer connected before ``game``: its viewer from now on, in the role it said, and what it said
        meanwhile taken by the game before anything newer. Its reader waits meanwhile: a ``Hello`` it read
        after the role was looked at would be the lobby's, too late (a plain viewer in the game: no pages,
        the phones' server's panel refused)."""
        with self._lock:
            viewer = game.attach(self.sock, self.name, role=self.role, link=self)
            for message in self.said:
                game.take_from(viewer, message)

    def _read(self) -> None:
        try:
            for message in received(self.sock, "the screen" if self.lobby is None else self.name):
                with self._lock:
                    if self._game is not None:
                        self._game[0].take_from(self._game[1], message)
                    elif self.lobby is None:
                        self.inbox.put(message)
                    else:
                        self.waits(message)
        finally:
            with self._lock:
                self.closed.set()
                if self.lobby is None:
                    self.inbox.put(None)
                if self._game is not None:
                    self._game[0].went(self._game[1])

    def waits(self, message: p.Message) -> None:
        """A peer's message while no game runs: its ``Hello`` kept (the phones' server handed back
        its seats), its requests answered, the phones' seats kept, what the phones' server alone may
        send dropped from any other, the rest to the screen's inbox (the roll call keeps what is for
        the game: a rename)."""
        assert self.lobby is not None
        if isinstance(message, p.Hello):
            self.role = message.role if message.role in p.ROLES else p.VIEWER
            if self.role == p.PHONES:  # the evening's phones' server between games: seats, language, next game
                self.outbox.put(p.SetLanguage(current_language()))
                for told in (self.lobby.kept.handed_back(), self.lobby.next_game, self.lobby.serving):
                    if told is not None:
                        self.outbox.put(told)
        elif isinstance(message, PHONES_ONLY) and self.role != p.PHONES:
            log.warning("%s sent a %s message, which only the phones' server sends: ignored", self.name, message.TAG)
        elif isinstance(message, p.SetLanguage):
            log.warning("%s sent a %s message, which only the menu sends: ignored", self.name, message.TAG)
        elif isinstance(message, p.Seats):
            self.lobby.kept.seats = message.seats
        elif isinstance(message, (p.PeerLine, p.Panel)):
            self.said.append(message)  # the game takes them from this peer once it exists (``Peers.start``)
        elif isinstance(message, REQUESTS):
            answer_on_a_thread(self.requests, message, self.outbox)
        else:
            self.lobby.inbox.put(message)

    def wake(self) -> None:
        """The one waiting in ``next`` looks up (a signal came: it asks ``signals.received``;
        a source delivered to the watch of the stations: it steps them). One wake waits at a
        time: it is marked taken before the one woken looks, so what came before is seen."""
        if not self._wake_queued:
            self._wake_queued = True
            self.inbox.put(_WAKE)

    def next(self, timeout_s: float | None) -> p.Message | None | Literal[False]:
        """The next message waiting (None: the channel closed; False: nothing came within
        ``timeout_s``, or it was woken)."""
        try:
            message = self.inbox.get(timeout=timeout_s) if timeout_s is None or timeout_s > 0 else self.inbox.get_nowait()
        except queue.Empty:
            return False
        if isinstance(message, _Wake):
            self._wake_queued = False
            return False
        if message is None:
            self.inbox.put(None)  # closed for every later look too
        return message

    def close(self) -> None:
        """What is queued is sent (bounded), then nothing more."""
        if self.dropped_presses:
            log.info("between games the menu left %d presses unread (made while it was not shown): dropped",
                     self.dropped_presses)
        if not self.outbox.close():  # its thread dies with this process: what it holds is lost
            log.warning("%s did not read what was left for it (the game's end among it) within the close's "
                        "bound: this process exits without sending it", self.name)


@dataclass
class Inputs:
    """The profile's inputs and lamps as this process holds them (none on keyboard stations)."""

    profile: profile_mod.Profile | None
    source: Source | None
    lights: LightDirector | None

    @classmethod
    def open(cls, profile_name: str | None, relay: session.Relay, feed: str | None) -> Inputs:
        """Opened once (a process's game, or an evening's every game); a refusal is a ``BuzzerBoxError``."""
        profile = profile_mod.load(profile_name) if profile_name else None
        source = session.open_inputs(profile, relay, feed) if profile is not None else None
        try:
            lights = LightDirector(session.open_lights(profile, source)) if profile is not None else None
        except BaseException:
            if source is not None:
                source.stop()
            raise
        return cls(profile, source, lights)

    def close(self) -> None:
        """Lamps off and their pins released (the blinker's thread ended with
        them), the sources stopped."""
        try:
            if self.lights is not None:
                try:
                    self.lights.all_off()
                finally:
                    self.lights.backend.close()
        finally:
            if self.source is not None:
                self.source.stop()


@dataclass(frozen=True)
class Taking:
    """How one game is taken over: ``play``'s from its command line, an evening's from its ``Play``."""

    journal: str
    #: a new game (this process journals it, its header built here), None: the journal's game resumed
    game: p.NewGame | None
    roll_call: bool = False
    carry_on: bool = False
    web: bool = False
    screen: tuple[str, ...] = ()
    #: simulated players play every station (``demo``, the menu's bots' games): an input source here
    bots: p.Bots | None = None


def decide(args: argparse.Namespace, sock: socket.socket, priority: str, wake_on_signal: bool = False) -> int:
    """Take the inputs over, tell the screen, then decide the game (an
    evening's games, ``--evening``) until it ends, and close it. ``wake_on_signal``:
    a stopping signal wakes a wait on the channel (this process's own signals)."""
    link = Link(sock)
    if wake_on_signal:
        signals.wake_on_signal(link.wake)
    try:
        try:
            inputs = Inputs.open(args.profile, link.relay, args.feed)
        except BuzzerBoxError as exc:  # the screen says it, in one line (or this process, if it is gone)
            refuse(link, exc)
            return 1
        if args.requests_fd is not None:  # the names and the packs: this process writes them
            requests = socket.socket(fileno=args.requests_fd)
            owner.serve(requests, received(requests, "the menu's requests"), inputs.profile,
                        None if args.packs_dir is None else Path(args.packs_dir))
        try:
            link.send(p.Opened(inputs.source.describe() if inputs.source is not None else ""))
            if args.diag:
                return diagnose(link, inputs)
            if args.evening:
                return evening(args, link, inputs, priority)
            try:
                start = new_game(link) if args.new else None
            except BuzzerBoxError as exc:
                refuse(link, exc)
                return 1
            # a resumed game's simulated players are on the command line (no Start is sent for it)
            bots = start.bots if start is not None else p.Bots(args.board_sim) if args.bots else None
            taking = Taking(args.journal, None if start is None else start.game, roll_call=args.roll_call,
                            carry_on=args.carry_on, web=args.web, screen=tuple(json.loads(args.screen)), bots=bots)
            return 0 if play(args, link, inputs, taking, priority) is not None else 1
        finally:
            inputs.close()
    finally:
        link.close()


def refuse(link: Link, exc: BuzzerBoxError) -> None:
    """The screen says why, in one line (or this process, when nobody listens)."""
    if link.closed.is_set():
        print(f"buzzerbox: {exc}", file=sys.stderr)
    else:
        link.send(p.Refused(str(exc)))


def evening(args: argparse.Namespace, link: Link, inputs: Inputs, priority: str) -> int:
    """An evening's games one after the other on the inputs opened once:
    between them the stations go to the menu (``between``); each ``Play`` is
    taken over and decided as ``play``'s game is. A stop, a signal or the
    channel closing between games ends it (lamps off, inputs closed). Its
    viewer socket listens all evening: the menu's phones' server stays
    connected across games (between them what the host page asks goes to
    the menu, and the menu's next game to the host page: ``between``)."""
    peers = evening_peers(args, link, inputs)
    try:
        while True:
            start = between(link, inputs)
            if start is None:
                return 0
            try:  # games this process knows (from games/ or its command line): a Play imports nothing new, nor
                for pair in (start.register, *registered_in(start.screen)):  # makes a screen it starts import it
                    registry.known(pair)
            except BuzzerBoxError as exc:
                log.warning("%s", exc)
                refuse(link, exc)  # the menu says it; the evening waits for its next game
                continue
            taking = Taking(start.journal, start.game, roll_call=start.roll_call, carry_on=start.carry_on,
                            web=start.web, screen=start.screen, bots=start.bots)
            if start.web and start.pages is not None:  # the evening's phones' server serves this game from now on
                link.serving = p.Serving(start.register, start.pages)
                link.to_phones(link.serving)
            reason = play(args, link, inputs, taking, priority, peers)  # it lets ``link.serving`` go
            if reason == p.EndReason.STOPPED or link.closed.is_set() or signals.received() is not None:
                return 0
    finally:
        if peers is not None:
            peers.close()


def registered_in(screen: Sequence[str]) -> list[str]:
    """The GAME=PACKAGE pairs a screen's arguments (``Play.screen``) register: a screen this process starts imports them."""
    return [value for flag, value in zip(screen, screen[1:], strict=False) if flag == "--register"]


def evening_peers(args: argparse.Namespace, link: Link, inputs: Inputs) -> Peers | None:
    """The evening's viewer socket (``--viewer-socket``), listened on until its end: the menu's phones'
    server is its peer between games too."""
    if not args.viewer_socket:
        return None
    return Peers(args.viewer_socket, link, functools.partial(owner.answer, profile=inputs.profile,
                                                             packs=packs_of(args)))


def play(args: argparse.Namespace, link: Link, inputs: Inputs, taking: Taking, priority: str,
         evening_peers: Peers | None = None) -> p.EndReason | None:
    """One game taken over and decided until it ends (``play``'s game, an
    evening's each): how it ended (``NOT_BEGUN``: left in its roll call),
    None if it could not be taken (the screen was told why). ``evening_peers``:
    the evening's viewer socket, listened on after the game too."""
    # the viewer socket's peers (the phones' server, bench, a test) from before the roll call: the host page says it
    peers = evening_peers or (Peers(args.viewer_socket, link, functools.partial(
        owner.answer, profile=inputs.profile, packs=packs_of(args))) if args.viewer_socket else None)
    kept: list[p.Message] = []  # what came in its roll call
    try:
        game = open_game(args, link, inputs, taking, peers, kept)
    except BuzzerBoxError as exc:
        link.serving = None  # no game to serve
        if peers is not None and evening_peers is None:
            peers.close()
        elif peers is not None:
            peers.release(p.Ended(p.NOT_BEGUN))
        refuse(link, exc)
        return None
    if game is None:  # the host left the roll call: no game, no journal
        return not_begun(link, peers, evening_peers, kept if args.evening else [])
    print(_(READY_LINE).format(pid=os.getpid(), priority=priority), file=sys.stderr, flush=True)
    reason = p.EndReason.STOPPED
    # the game greets its phones' server from now on: one that connects again after the game's end
    # (before its Ended too: the peers are let go first) is not told the finished game's ``Serving``
    game.serving, link.serving = link.serving, None
    try:
        reason = game.run()
    finally:
        if peers is not None and evening_peers is None:
            peers.close()
        elif peers is not None:
            peers.detach()  # a peer connecting from now on waits for the evening's next game
        # an evening's next game reads the inputs (closed by who opened them); play's stop before the end, so
        # what a source hands over as it stops (the GPIO reader reads its pipe to the end) is journaled
        game.close(reason, link, keep_inputs=args.evening)
        if not args.evening:  # stopped and dark already: ``Inputs.close`` has nothing left to do
            inputs.source = inputs.lights = None
        else:  # its peers connect again for the next game (the phones' server) or are done
            for viewer in game.viewers:
                if viewer.outbox is not link.outbox and viewer.process is None:
                    shut(viewer.sock)
            for asked in game.menu_asks:
                link.send(asked)
    return reason


def not_begun(link: Link, peers: Peers | None, evening_peers: Peers | None, kept: list[p.Message]) -> p.EndReason:
    """The host left the roll call: its peers and the screen told (``Ended``), then the names typed and
    the options chosen on the host page meanwhile (``kept``'s ``KEPT_FOR_THE_MENU``: the menu's still)."""
    link.serving = None  # a phones' server greeted from now on is between games
    if peers is not None and evening_peers is None:
        peers.close(p.Ended(p.NOT_BEGUN))
    elif peers is not None:
        peers.release(p.Ended(p.NOT_BEGUN))
    link.send(p.Ended(p.NOT_BEGUN))
    for asked in kept:
        if isinstance(asked, KEPT_FOR_THE_MENU):
            link.send(asked)
    return p.NOT_BEGUN


def packs_of(args: argparse.Namespace) -> Path | None:
    """The packs folder this process saves the host page's uploads in (``--packs-dir``)."""
    return None if args.packs_dir is None else Path(args.packs_dir)


def open_game(args: argparse.Namespace, link: Link, inputs: Inputs, taking: Taking,
              peers: Peers | None = None, kept: list[p.Message] | None = None) -> DecidingGame | None:
    """The roll call (a new game's, ``roll_call``), then the journaled game
    taken over and connected to the open inputs; None when the host left
    the roll call (``kept``: what was sent in it)."""
    profile, source = inputs.profile, inputs.source
    kept = [] if kept is None else kept  # what the screen sent in the roll call for the game
    try:
        if (taking.game is not None and taking.roll_call and profile is not None and source is not None
                and not roll_call(link, profile, source, kept=kept)):
            raise RollCallLeft
        if taking.game is not None:  # the journal is written here, its header built here: its time starts now
            # simulated players' stations are the game's own, whatever the wiring (it lights their lamps)
            box = session.started_box(taking.game, profile if taking.bots is None else None, taking.journal)
        else:
            # its screen checked the whole chain as it handed the game over (``session.resumable``), or this
            # game's deciding processes wrote it: the newest checkpoint is found from the end, only what follows read
            box, _journal = session.resumed_box(taking.journal, carry_on=taking.carry_on, checked=True)
    except RollCallLeft:
        if inputs.lights is not None:
            inputs.lights.all_off()
        return None
    box.horizon_policy = args.horizon
    recorder = Recorder.of(box, whole=box.restored_from == 0)  # before ``bound_logs``: every event so far
    # the stations play (simulated players play on their own: the stations' inputs feed nothing, the lamps are lit)
    link.relay.target = box if taking.bots is None else None
    if source is not None and profile is not None and taking.bots is None:
        session.connect(box, source, profile)
    box.measure_report_delay(box_now_us)
    box.bound_logs()
    bots = None if taking.bots is None else BotsSource(box, board_sim=taking.bots.board_sim)
    lights = inputs.lights
    if bots is not None and bots.board is not None:  # the simulated board's lamps are the game's
        lights = LightDirector(bots.board.source.lights())
    until = None if args.seconds is None else box_now_us() + box.time_offset_us + int(args.seconds * 1_000_000)
    companion = None
    if taking.web:  # the pages' snapshots are JSON text built here: no aiohttp, no pygame
        with box.lock:
            companion = Publisher(box, evening=args.evening)
    game = DecidingGame(box, source, lights, until_us=until, results_s=args.results_s,
                        screen_args=list(taking.screen), companion=companion, recorder=recorder, kept=link.kept,
                        evening=args.evening)
    if bots is not None:  # they play from the game's time now on
        game.bots = bots
        bots.follow()
    if not args.evening:
        game.keep_name = functools.partial(session.keep_name, profile)
    game.requests = functools.partial(owner.answer, profile=profile, packs=packs_of(args))
    role = hand_over(game, kept)
    game.attach(link.sock, STARTER, role=role, link=link)
    if peers is not None:
        peers.start(game)
    return game


class RollCallLeft(Exception):
    """The host left the roll call (Esc, a closed window, the screen gone, a stop): the game never begins."""


def roll_call(link: Link, profile: profile_mod.Profile, source: Source, *,
              linger_us: int = ROLL_CALL_LINGER_US, kept: list[p.Message] | None = None) -> bool:
    """Before a new game on real stations every station presses once, on the
    inputs this process owns: the screen draws each ``RollCallView`` sent
    (and forwards its keyboard's station keys); its skip key, or the host's
    arm button, starts without the rest. True: the game goes on (after a
    moment more once everyone answered, so the last tick is seen); False:
    the host left it (Esc, a closed window, a stop), nothing journaled.
    ``kept`` gets what the screen forwards meanwhile for the game (``FOR_THE_GAME``),
    in order, stamped as it came: its box takes it once it exists; and a name or an
    option chosen on the host page for the menu (``KEPT_FOR_THE_MENU``, sent after the game)."""
    call = RollCall(profile.roll_call())
    complete_at: list[int] = []  # when every station had answered

    def taken(message: p.Message | None) -> Over[bool] | None:
        if message is None or isinstance(message, p.Stop):
            if isinstance(message, p.Stop) and message.reason in p.ENDS_EVENING:
                link.inbox.put(message)  # the screen's stop (a signal): an evening's too, ``between`` ends it
            return Over(False)
        if isinstance(message, p.HostKey) and message.name == p.SKIP_ROLL_CALL:
            return Over(skipped(call.missing))
        if isinstance(message, (*FOR_THE_GAME, *KEPT_FOR_THE_MENU)) and kept is not None:
            kept.append(message)  # a name typed on the host page: the game's notice, and the menu's (after the game)
        if isinstance(message, p.NoticeInput) and message.notice.kind == RENAMED:
            call.rename(message.notice.station, message.notice.input)  # named so on screen at once
        return None

    def stepped(t: int, presses: tuple[Press, ...]) -> Over[bool] | None:
        for press in presses:
            if press.station < 0 and press.input in p.SKIPS_ROLL_CALL:
                return Over(skipped(call.missing))
            call.press(press.station)
        if call.done and not complete_at:
            complete_at.append(t)
        if complete_at and t - complete_at[0] >= linger_us:
            return Over(skipped([]))
        return None

    return watch(link, station_monitor(profile, source), False, taken=taken, stepped=stepped,
                 shown=lambda monitor: (call.view(), call.strip(monitor.strip())),
                 message=lambda shown, _presses: p.RollCallView(*shown),
                 due=lambda: complete_at[0] + linger_us if complete_at else None)


#: what the screen and the peers forward during the roll call for the game (a player renamed on the host
#: page, the seats of the phones the menu serves, the screen's role): dropped, the rename never reached
#: the game's screen (a peer's own seats and panel wait with the peer: ``Link.waits``)
FOR_THE_GAME = (p.NoticeInput, p.ActionInput, p.Seats, p.Hello)


def hand_over(game: DecidingGame, kept: list[p.Message]) -> str:
    """What the screen and the peers sent during the roll call for the game, to its box: in order,
    before anything they send from now on (the readers are not started yet); the screen's role
    (its ``Hello``: the menu's screen serving the phones in its process gets the pages)."""
    role = p.VIEWER
    for message in kept:
        if isinstance(message, p.Seats):
            game.kept.seats = message.seats
        elif isinstance(message, p.Hello):
            role = message.role if message.role in p.ROLES else p.VIEWER
        elif isinstance(message, KEPT_FOR_THE_MENU):
            game.menu_asks.append(message)  # the menu's, after the game's end (as one typed in the game)
        else:
            game.take(message)
    return role



def between(link: Link, inputs: Inputs) -> p.Play | None:
    """Between an evening's games: the stations' debounced presses and strip
    go to the menu (``Between``: when the strip changes, a press came, and
    once a second), its keyboard's station keys count as the stations'; asked
    (``PressLamps``, the first start's test press), a station's press lights
    its lamp before the menu hears of it. The next game's ``Play``, or None:
    the evening is over (a stop, a signal, the channel closed)."""
    lights = inputs.lights
    lamps = [False]  # a station's press lights its lamp (``PressLamps``)

    def taken(message: p.Message | None) -> Over[p.Play | None] | None:
        if message is None or (isinstance(message, p.Stop) and message.reason in p.ENDS_EVENING):
            return Over(None)
        if isinstance(message, p.Play):
            return Over(message)
        if isinstance(message, p.NextGame):  # the menu's next game: the host page shows it
            link.next_game = message
            link.to_phones(message)
        elif isinstance(message, p.SetLanguage) and speak(message):  # the menu's language: its phones' server's too
            link.to_phones(message)
        elif isinstance(message, p.MENU_ASKS):  # the host page (the evening's phones' server) asks the menu
            link.send(message)
        if isinstance(message, p.PressLamps):
            lamps[0] = message.on
            if not message.on and lights is not None:
                lights.all_off()
        return None  # a late game's host key, a stop it never saw: nothing

    def stepped(_t: int, presses: tuple[Press, ...]) -> None:
        if lamps[0] and lights is not None:
            for press in presses:
                if press.station >= 0:
                    lights.light(press.station, "bell")

    monitor = station_monitor(inputs.profile, inputs.source) if inputs.profile is not None else None
    try:
        return watch(link, monitor, None, taken=taken, stepped=stepped, shown=lambda monitor: monitor.strip(),
                     message=lambda strip, presses: p.Between(strip, presses), presses_sent=True)
    finally:
        if lamps[0] and lights is not None:  # the game lights its own from its statuses
            lights.all_off()


def diagnose(link: Link, inputs: Inputs) -> int:
    """``buzzerbox diag`` on the profile's inputs this process opened: they are
    debounced as between an evening's games (``station_monitor``), the screen's
    keyboard station keys too, and every input's row and the strip go to the
    screen (``DiagView``) when they change and once a second, until a stop, a
    signal or the channel closing. The screen's process opens no input."""
    assert inputs.profile is not None  # ``parse``: --diag needs --profile

    def taken(message: p.Message | None) -> Over[None] | None:
        return Over(None) if message is None or isinstance(message, p.Stop) else None

    watch(link, station_monitor(inputs.profile, inputs.source), None, taken=taken, stepped=lambda _t, _presses: None,
          shown=lambda monitor: (monitor.view()["inputs"], monitor.strip()),
          message=lambda shown, _presses: p.DiagView(*shown))
    return 0


@dataclass(frozen=True)
class Over(Generic[T]):
    """A watch of the stations ends, with ``result``."""

    result: T


def watch(link: Link, monitor: InputMonitor | None, gone: T, *,
          taken: Callable[[p.Message | None], Over[T] | None],
          stepped: Callable[[int, tuple[Press, ...]], Over[T] | None],
          shown: Callable[[InputMonitor], Any], message: Callable[[Any, tuple[Press, ...]], p.Message],
          presses_sent: bool = False, due: Callable[[], int | None] = lambda: None) -> T:
    """The stations watched with no game (the roll call, between an evening's
    games), the two told apart by their ends: each message the peer sends is
    ``taken`` (None: the channel closed), then fed to ``monitor`` (its
    keyboard's station keys); the monitor is stepped and its debounced
    presses handed to ``stepped``; what the peer draws (``shown``) is sent as
    ``message`` when it changed (or a press came: ``presses_sent``) and at
    least every ``VIEW_REFRESH_US``. Either end returns ``Over``; a signal
    ends it with ``gone``. It sleeps on the link until something can change
    (a signal wakes it: ``Link.wake``): a message, a source's delivery (the
    relay wakes the link), and with a monitor its next change
    (``InputMonitor.next_change_us``), the next refresh, or the caller's
    ``due`` moment (the roll call's linger ending); a watch that stepped every
    10 ms woke 100 times a second with nobody pressing."""
    link.relay.woken = None if monitor is None else link.wake
    link.relay.target = monitor
    sent: Any = None
    sent_us: int | None = None
    timeout_s: float | None = None if monitor is None else 0.0  # the first look at once
    try:
        while True:
            if signals.received() is not None:
                return gone
            for incoming in waiting(link, timeout_s):
                over = taken(incoming)
                if over is not None:
                    return over.result
                if monitor is not None and incoming is not None:
                    feed_monitor(monitor, incoming)
            if monitor is None:
                continue
            t = box_now_us()
            presses = tuple(out for out in monitor.step(t) if isinstance(out, Press))
            over = stepped(t, presses)
            if over is not None:
                return over.result
            now = shown(monitor)
            if (presses_sent and presses) or now != sent or sent_us is None or t - sent_us >= VIEW_REFRESH_US:
                link.send(message(now, presses))
                sent, sent_us = now, t
            moments = [sent_us + VIEW_REFRESH_US, *(m for m in (monitor.next_change_us(), due()) if m is not None)]
            timeout_s = max(0, min(moments) - box_now_us()) / 1e6
    finally:
        link.relay.target = None
        link.relay.woken = None


def station_monitor(profile: profile_mod.Profile, source: Source | None) -> InputMonitor:
    """The profile's stations debounced with no game (the roll call's, the
    evening's between games), from the levels its inputs rest at now."""
    monitor = InputMonitor([(st.name, list(st.inputs)) for st in profile.stations], profile.debounce,
                           list(profile.host))
    if source is not None:
        monitor.debouncer.start_all(source.levels(), box_now_us())
    return monitor


def feed_monitor(monitor: InputMonitor, message: p.Message) -> None:
    """The screen's keyboard stations, as the roll call and the evening read them."""
    if isinstance(message, p.EdgeInput):
        monitor.edge(message.edge, message.precision_us)
    elif isinstance(message, p.PressInput):
        monitor.press(message.press)


def waiting(link: Link, timeout_s: float | None) -> Iterator[p.Message | None]:
    """What the screen sent, one at a time: whatever waits, else what comes within
    ``timeout_s`` (None: until something comes or ``Link.wake``; a message None: it closed).
    Taken as it is looked at: what follows a message the caller stops at (a ``Play``,
    the roll call's end) stays for the next."""
    first = link.next(timeout_s)
    if first is False:
        return
    yield first
    while first is not None:
        more = link.next(0)
        if more is False:
            return
        yield more
        if more is None:
            return


def new_game(link: Link) -> p.Start:
    """The new game this process journals (the screen's first message)."""
    message = link.next(None)
    while message is False:  # woken by a signal: the game taken over closes on it
        message = link.next(None)
    if not isinstance(message, p.Start):
        raise BuzzerBoxError("the screen sent no game to start: a new game's deciding process needs its game")
    return message


def skipped(missing: list[str]) -> bool:
    """The roll call is over: the log says who never answered."""
    if missing:
        log.warning("roll call skipped by the host; not heard from: %s", ", ".join(missing))
    else:
        log.info("roll call: every station answered")
    return True


class Peers:
    """More viewers on a Unix socket (``--viewer-socket``: the phones' server, a
    second screen, ``buzzerbox bench``, a test), only this user's: listened on
    from before the roll call. A peer says what it is in its first message
    (``Hello``; none: a viewer). Before the game exists a peer's messages wait
    with the screen's (``Link.waits``: the roll call takes a rename from the
    host page) and the roll call's views go to the peers that follow the pages;
    once it exists each peer is the game's viewer, and a peer connecting later
    is attached at once."""

    def __init__(self, path: str, link: Link, requests: Callable[[p.Message], p.Answered]) -> None:
        self.path, self.link, self.requests = path, link, requests
        self.game: DecidingGame | None = None
        self._lock = threading.Lock()
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # left by a deciding process that was killed
        old = os.umask(0o077)
        try:
            self.server.bind(path)
        finally:
            os.umask(old)
        self.server.listen(4)
        threading.Thread(target=self._accept, name="buzzerbox-viewers", daemon=True).start()

    def _accept(self) -> None:
        n = 0
        while True:
            try:
                conn, _addr = self.server.accept()
            except OSError:
                return
            n += 1
            with self._lock:
                if self.game is not None:
                    self.game.attach(conn, f"viewer-{n}")
                    continue
                peer = Link(conn, f"viewer-{n}", lobby=self.link)
                peer.requests = self.requests
                self.link.peers.append(peer)

    def start(self, game: DecidingGame) -> None:
        """The game exists: every peer connected before it is its viewer, in the role it said."""
        with self._lock:
            self.game = game
            waiting, self.link.peers = self.link.peers, []
            for peer in waiting:
                if peer.closed.is_set():  # it went away in the lobby: its socket is done with
                    peer.outbox.close()
                    shut(peer.sock)
                    continue
                peer.joins(game)

    def detach(self) -> None:
        """The evening's game is over: a peer connecting from now on waits for the next (``Link.waits``)."""
        with self._lock:
            self.game = None

    def close(self, last: p.Message | None = None) -> None:
        """No more peers (the socket's file removed); those that never saw a game are told ``last``."""
        with contextlib.suppress(OSError):
            self.server.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (closing alone does not)
        self.server.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        self.release(last)

    def release(self, last: p.Message | None = None) -> None:
        """The peers waiting for a game are told ``last`` and let go (an evening's game that never began:
        its phones' server connects again for the next, its league peer is done); still listened on."""
        with self._lock:
            waiting, self.link.peers = self.link.peers, []
        for peer in waiting:
            if last is not None:
                peer.outbox.put(last)
            peer.outbox.close()
            shut(peer.sock)  # after what it was told: a follower waiting for more learns it is over now


def shut(sock: socket.socket) -> None:
    """A peer's socket done with: its reader and writer woken (``shutdown``), then closed."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()


if __name__ == "__main__":
    sys.exit(main())
