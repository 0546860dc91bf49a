"""The deciding process (docs/processes.md): owns the sources, the debounce,
the roll call, the box and its engine, the lights and the journal, at
real-time priority, and publishes what it decided to its viewers after the
lamp is lit.

``play`` and the menu (the screen's process) start it with ``python -m
controller.box.process`` and one end of a socketpair. A new game's first
message is its session header; this process opens the inputs and lamps,
runs the roll call on them (``--roll-call``: the screen draws what it is
sent), then writes the journal, header first (the screen's process never
opens an input nor writes a journal); a deciding process that died
is started again on the same file and carries on where the journal ends. Nothing here imports pygame or aiohttp: a frame
being drawn or a page being served never holds this process's interpreter.

When its screen dies the game goes on (lamps, journal) and a new screen
process is started (``controller.screen.viewer``), which shows the current view.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import logging
import os
import select
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from controller import channel, signals
from controller import protocol as p
from controller.box import profile as profile_mod
from controller.box import session
from controller.box.deciding import Decider, ask_realtime
from controller.box.inputs import PRESS_FLASH_US
from controller.box.lights import LightDirector
from controller.box.monitor import InputMonitor, RollCall
from controller.box.press import Press
from controller.box.runtime import HORIZON_POLICIES, HORIZON_WATERMARKS, RENAMED, Box
from controller.box.sources.base import Source
from controller.box.timeline import box_now_us
from controller.box.views import Pages, Publisher, snapshot_message, view_of
from controller.channel import ChannelError, EncodedPages, Outbox, VersionMismatch
from games import registry
from games.base import BuzzerBoxError, EventKind, GameEvent
from games.i18n import LANGUAGES, N_, PSEUDO, _, current_language, set_language

log = logging.getLogger("buzzerbox.decider")

#: a view is published at least this often while the strip changes without an event (a press's flash)
VIEW_EVERY_US = 33_000
#: and at least this often while nothing changes
VIEW_REFRESH_US = 1_000_000
#: how often this process's threads take turns at the interpreter (Python's default: 5 ms; see ``main``)
SWITCH_INTERVAL_S = 0.0005
#: how long the roll call lingers once every station answered (the last tick is seen)
ROLL_CALL_LINGER_US = 800_000
#: how often the roll call looks at its inputs and at what the screen sent
ROLL_CALL_STEP_S = 0.01
#: the first line this process writes on stderr, with its pid, in the box's language: a test waits for it
READY_LINE = N_("deciding process {pid}: {priority}")


@dataclass
class Viewer:
    """One viewer's socket, its outbox and the thread reading what it sends."""

    sock: socket.socket
    outbox: Outbox
    name: str
    process: subprocess.Popen[bytes] | None = None  # a screen this process started
    #: it serves the phones (``--web``): its views carry the pages' snapshot, private hands and all
    companion: bool = False
    gone: threading.Event = field(default_factory=threading.Event)


class DecidingGame:
    """A live box decided here and watched by viewers."""

    def __init__(self, box: Box, source: Source | None, lights: LightDirector | None, *,
                 until_us: int | None, results_s: float, screen_args: Sequence[str],
                 companion: Publisher | None = None) -> None:
        self.box = box
        self.source = source
        self.lights = lights
        self.until_us = until_us
        self.results_s = results_s
        self.screen_args = list(screen_args)
        self.viewers: list[Viewer] = []
        self.version = 0
        self.stop_reason: str | None = None
        self.wake = threading.Event()
        self.awaiting_show = False
        self._last_view: tuple[Any, Any] | None = None
        self._last_view_us = 0
        #: when the views were last built, whether a step since can have changed them, whether the last
        #: look found them standing still, when the next press's flash on the strip ends (``publish``)
        self._looked_us = 0
        self._unseen = True
        self._still = False
        self._flash_ends_us: int | None = None
        #: the phones' server's seats' codes, PIN and port, as its screen last sent them: handed only to
        #: a screen started again (its private socketpair), so the phones it serves keep their seats
        self.phones_secrets: dict[str, Any] | None = None
        #: builds the phones' snapshots (``--web``): after the lamp, never inside the decision
        self.companion = companion
        self.decider = Decider(box, self.game_now, self.light, after=self.publish, rehearse=self.rehearse_light)

    def game_now(self) -> int:
        return box_now_us() + self.box.time_offset_us

    def light(self) -> int | None:
        """The lamps from the stations' statuses now; when the first went on (None: none did)."""
        if self.lights is None:
            return None
        return self.lights.update(self.box.statuses(), self.box.spec.status_light, clock=self.game_now)

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
        return view_of(self.box, t_us, version=self.version, public=public, strip=strip, decided=decided)

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
        until one look finds it standing still, then not until it changes."""
        if stirred or (self._flash_ends_us is not None and self.box.now_us >= self._flash_ends_us):
            self._unseen = True
        since = t_us - self._last_view_us
        if not events and (since < VIEW_EVERY_US or (not self._unseen and since < VIEW_REFRESH_US and (
                self._still or t_us - self._looked_us < VIEW_EVERY_US))):
            return
        with self.box.lock:
            public = self.box.engine.public_view()
            strip = self.box.strip(public)
            same = (public, strip) == self._last_view
            # a view that changed may count down from now; one that a look for time's sake alone found as it
            # was sent (VIEW_EVERY_US ago at least) does not, until it changes
            self._still = same and (self._still or not self._unseen)
            self._looked_us, self._unseen, self._flash_ends_us = t_us, False, self._flash_end()
            if not events and same and since < VIEW_REFRESH_US:
                return
            self._last_view, self._last_view_us = (public, strip), t_us
            self.version += 1
            view = self.view(t_us, public, strip)  # the views are asked for once per publish
            pages = self.pages(events, public, strip) if events else None
        if any(e.kind == EventKind.SHOW for e in events):
            self.awaiting_show = True
            if not self.live_viewers():  # nobody to flip it: shown now, the game goes on
                self.answer_show(t_us)
        for viewer in self.live_viewers():
            viewer.outbox.publish(view, events, self.encoded(pages) if pages and viewer.companion else None)
        if events:
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

    def answer_show(self, t_us: int) -> None:
        self.awaiting_show = False
        self.decider.submit(lambda: self.box.shown(t_us))

    def live_viewers(self) -> list[Viewer]:
        return [v for v in self.viewers if not v.gone.is_set() and not v.outbox.closed]

    # -- inputs in ----------------------------------------------------------------------
    def attach(self, sock: socket.socket, name: str, process: subprocess.Popen[bytes] | None = None,
               companion: bool = False, secrets: dict[str, Any] | None = None) -> Viewer:
        """A viewer from now on: it gets the current view at once (and, if it
        serves the phones, their snapshot, and ``secrets``: the seats of a
        screen that died), and its inputs are read. That view is its first
        message: it is handed over before the viewer is listed for the next."""
        companion = companion and self.companion is not None
        viewer = Viewer(sock, Outbox(sock, name), name, process, companion=companion)
        with self.box.lock:
            self.version += 1
            view = self.view(self.game_now())
            pages = self.pages([]) if viewer.companion else None
            if viewer.companion:
                view = dataclasses.replace(view, seats=secrets)
            viewer.outbox.publish(view, [], None if pages is None else self.encoded(pages))
            self.viewers.append(viewer)
        threading.Thread(target=self._read, args=(viewer,), name=f"buzzerbox-read-{name}", daemon=True).start()
        return viewer

    def _read(self, viewer: Viewer) -> None:
        try:
            while True:
                try:
                    message = channel.receive(viewer.sock)
                except VersionMismatch as exc:  # another install's screen: it is told by its own reader
                    print(f"buzzerbox: {exc}", file=sys.stderr, flush=True)
                    break
                except ChannelError as exc:
                    log.warning("%s sent something that is not a message (%s): ignored", viewer.name, exc)
                    continue
                if message is None:
                    break
                if isinstance(message, p.Seats):  # only the screen serving the phones keeps them here
                    if viewer.companion:
                        self.phones_secrets = message.seats
                    continue
                self.take(message)
        finally:
            viewer.gone.set()
            self.wake.set()

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
        elif isinstance(message, p.ActionInput):
            box.deliver_action(message.action)
        elif isinstance(message, p.HostKey):
            name, t_us = message.name, message.t_us
            self.decider.submit(lambda: box.host_button(name, t_us))
        elif isinstance(message, p.Shown):
            self.awaiting_show = False
            t_shown = message.t_us
            self.decider.submit(lambda: box.shown(t_shown))
        elif isinstance(message, p.Stop):
            self.stop_reason = message.reason
            self.wake.set()
        else:
            log.warning("a viewer sent a %s message, which only the deciding process sends: ignored", message.TAG)

    # -- the screen ---------------------------------------------------------------------
    def start_screen(self) -> Viewer:
        """A new screen process (the last one died): it draws the current view."""
        mine, theirs = socket.socketpair()
        secrets = self.phones_secrets if self.companion is not None else None
        web = ["--web"] if secrets is not None else []  # it serves the phones again, with their seats
        with signals.blocked_for_child():  # a signal while it starts waits for its handlers
            process = subprocess.Popen([sys.executable, "-m", "controller.screen.viewer", "--fd", str(theirs.fileno()),
                                        *self.screen_args, *web, "--lang", current_language(),
                                        "--log-level", str(logging.getLogger().getEffectiveLevel())],
                                       pass_fds=[theirs.fileno()])
        theirs.close()
        log.warning("a new screen process %d shows the game", process.pid)
        return self.attach(mine, f"screen-{process.pid}", process, companion=bool(web), secrets=secrets)

    # -- the game -----------------------------------------------------------------------
    def run(self) -> str:
        """Decide until the game ends (and its results were shown), time is up,
        a viewer asks to stop, Ctrl+C or SIGTERM; returns why it ended."""
        box = self.box
        self.decider.start()
        finished_at: int | None = None
        try:
            while True:
                self.wake.wait(0.1)
                self.wake.clear()
                if self.decider.error is not None:
                    raise self.decider.error
                if self.stop_reason is not None:
                    return self.stop_reason
                if signals.received() is not None:  # SIGTERM, Ctrl+C, SIGHUP, SIGQUIT: closed as a stop
                    return "stopped"
                now = self.game_now()
                with box.lock:
                    finished = box.engine.finished
                if finished and finished_at is None:
                    finished_at = now
                if finished_at is not None and now - finished_at > self.results_s * 1_000_000:
                    return "finished"
                if self.until_us is not None and now >= self.until_us:
                    return "time"
                self._mind_the_screen(now)
        finally:
            self.decider.stop()

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

    def close(self, reason: str) -> None:
        """Lamps off, sources stopped, the journal's end written, the viewers told."""
        box = self.box
        try:
            if self.lights is not None:
                self.lights.all_off()
        finally:
            try:
                if self.source is not None:
                    self.source.stop()
            finally:
                box.end(max(self.game_now(), box.now_us))  # every press taken is journaled before the end
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
            played=session.played_of(box))
        for viewer in self.viewers:
            viewer.outbox.put(ended)
            viewer.outbox.close()
        for viewer in self.viewers:
            if viewer.process is not None:
                viewer.process.wait()


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m controller.box.process",
                                description="The deciding process of a live game (started by play and the menu).")
    p.add_argument("--fd", type=int, required=True, help="the channel socket to the screen process")
    p.add_argument("--journal", required=True, help="the game's journal (header written): taken over here")
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
    p.add_argument("--results-s", type=float, default=10.0)
    p.add_argument("--viewer-socket", default=None, help="also take viewers on this Unix socket")
    p.add_argument("--feed", default=None, help="a FIFO of synthetic edges (controller/box/feed.py)")
    p.add_argument("--register", default=None, help="GAME=PACKAGE: where the game is imported from")
    p.add_argument("--screen", default="[]", help="JSON list: the arguments of a new screen process")
    p.add_argument("--web", action="store_true",
                   help="the screen serves the phones' pages: build their snapshots and send them to it")
    p.add_argument("--lang", choices=(*LANGUAGES, PSEUDO), default="en",
                   help="the box's language: the phones' pages, the host page and a new screen speak it")
    p.add_argument("--log-level", type=int, default=logging.INFO,
                   help="the command's logging level: a box at a terminal says only problems, as a service more")
    p.add_argument("--horizon", choices=HORIZON_POLICIES, default=HORIZON_WATERMARKS,
                   help="how the box knows every input is in: the sources' watermarks (default), or the "
                        "old fixed delay (benchmarks/realtime.py compares them)")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    # a stopping signal (SIGTERM, SIGINT, SIGHUP, SIGQUIT) is recorded, never raised: the game loop
    # closes the game on it. The screen started this process with them blocked, so one sent during
    # the imports above waited; it arrives here (controller/signals.py)
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
    if args.register:
        name, package = args.register.split("=", 1)
        with registry.register(name, package):
            return decide(args, sock, priority)
    return decide(args, sock, priority)


def decide(args: argparse.Namespace, sock: socket.socket, priority: str) -> int:
    """Take the inputs and the game over, tell the screen, decide until it ends, close it."""
    try:
        game = open_game(args, sock)
    except BuzzerBoxError as exc:  # the screen says it, in one line (or this process, if it is gone)
        try:
            channel.send(sock, p.Refused(str(exc)))
        except OSError:
            print(f"buzzerbox: {exc}", file=sys.stderr)
        return 1
    if game is None:  # the host left the roll call: no game, no journal
        with contextlib.suppress(OSError):
            channel.send(sock, p.Ended(p.NOT_BEGUN))
        return 0
    print(_(READY_LINE).format(pid=os.getpid(), priority=priority), file=sys.stderr, flush=True)
    listener = listen(game, args.viewer_socket) if args.viewer_socket else None
    reason = "stopped"
    try:
        reason = game.run()
    finally:
        if listener is not None:
            listener.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(args.viewer_socket)
        game.close(reason)
    return 0


def open_game(args: argparse.Namespace, sock: socket.socket) -> DecidingGame | None:
    """The inputs and lamps opened (the screen is told what they are), the
    roll call (``--roll-call``), then the journaled game taken over and
    connected to them; None when the host left the roll call."""
    profile = profile_mod.load(args.profile) if args.profile else None
    header = new_game(sock) if args.new else None
    relay = session.Relay()  # the roll call's monitor first, then the game's box
    kept: list[p.Message] = []  # what the screen sent in the roll call for the game
    source = session.open_inputs(profile, relay, args.feed) if profile is not None else None
    lights = None
    try:
        lights = LightDirector(session.open_lights(profile, source)) if profile is not None else None
        with contextlib.suppress(OSError):  # gone already: its reader says so
            channel.send(sock, p.Opened(source.describe() if source is not None else ""))
        if (header is not None and args.roll_call and profile is not None and source is not None
                and not roll_call(sock, profile, source, relay, kept=kept)):
            raise RollCallLeft
        if header is not None:  # the journal is written here, from the header the screen sent: its time starts now
            box = session.journaled_box(header, profile, args.journal)
        else:
            box, _journal = session.resumed_box(args.journal, carry_on=args.carry_on)
    except BaseException as exc:
        if lights is not None:
            lights.all_off()
        if source is not None:
            source.stop()
        if isinstance(exc, RollCallLeft):
            return None
        raise
    box.horizon_policy = args.horizon
    relay.target = box
    if source is not None and profile is not None:
        session.connect(box, source, profile)
    box.measure_report_delay(box_now_us)
    box.bound_logs()
    until = None if args.seconds is None else box_now_us() + box.time_offset_us + int(args.seconds * 1_000_000)
    companion = None
    if args.web:  # the pages' snapshots are JSON text built here: no aiohttp, no pygame
        with box.lock:
            companion = Publisher(box)
    game = DecidingGame(box, source, lights, until_us=until, results_s=args.results_s,
                        screen_args=json.loads(args.screen), companion=companion)
    hand_over(game, kept)
    game.attach(sock, "screen", companion=True)
    return game


class RollCallLeft(Exception):
    """The host left the roll call (Esc, a closed window, the screen gone, a stop): the game never begins."""


def roll_call(sock: socket.socket, profile: profile_mod.Profile, source: Source, relay: session.Relay, *,
              linger_us: int = ROLL_CALL_LINGER_US, kept: list[p.Message] | None = None) -> bool:
    """Before a new game on real stations every station presses once, on the
    inputs this process owns: the screen draws each ``RollCallView`` sent
    (and forwards its keyboard's station keys); its skip key, or the host's
    arm button, starts without the rest. True: the game goes on (after a
    moment more once everyone answered, so the last tick is seen); False:
    the host left it (Esc, a closed window, a stop), nothing journaled.
    ``kept`` gets what the screen forwards meanwhile for the game (``FOR_THE_GAME``),
    in order, stamped as it came: its box takes it once it exists."""
    monitor = InputMonitor([(st.name, list(st.inputs)) for st in profile.stations], profile.debounce,
                           list(profile.host))
    monitor.debouncer.start_all(source.levels(), box_now_us())
    call = RollCall(profile.roll_call())
    relay.target = monitor
    sent: tuple[Any, Any] | None = None
    sent_us = complete_at = None
    try:
        while True:
            if signals.received() is not None:
                return False
            readable, _w, _x = select.select([sock], [], [], ROLL_CALL_STEP_S)
            if readable:
                try:
                    message = channel.receive(sock)
                except VersionMismatch as exc:
                    print(f"buzzerbox: {exc}", file=sys.stderr, flush=True)
                    return False
                except ChannelError as exc:
                    log.warning("the screen sent something that is not a message (%s): ignored", exc)
                    continue
                if message is None or isinstance(message, p.Stop):
                    return False
                if isinstance(message, p.HostKey) and message.name == p.SKIP_ROLL_CALL:
                    return skipped(call.missing)
                if isinstance(message, p.EdgeInput):  # the screen's keyboard stations
                    monitor.edge(message.edge, message.precision_us)
                elif isinstance(message, p.PressInput):
                    monitor.press(message.press)
                elif isinstance(message, FOR_THE_GAME) and kept is not None:
                    kept.append(message)
                if isinstance(message, p.NoticeInput) and message.notice.kind == RENAMED:
                    call.rename(message.notice.station, message.notice.input)  # named so on screen at once
            t = box_now_us()
            for out in monitor.step(t):
                if isinstance(out, Press):
                    if out.station < 0 and out.input in p.SKIPS_ROLL_CALL:
                        return skipped(call.missing)
                    call.press(out.station)
            if call.done and complete_at is None:
                complete_at = t
            if complete_at is not None and t - complete_at >= linger_us:
                return skipped([])
            shown = (call.view(), call.strip(monitor.strip()))
            if shown != sent or sent_us is None or t - sent_us >= VIEW_REFRESH_US:
                channel.send(sock, p.RollCallView(*shown))
                sent, sent_us = shown, t
    except OSError:  # the screen went away
        return False
    finally:
        relay.target = None


#: what the screen forwards during the roll call for the game (a player renamed on the host page, the
#: phones' seats): dropped, the rename never reached the game's screen and a screen started again mid-game
#: did not know the seats taken meanwhile
FOR_THE_GAME = (p.NoticeInput, p.ActionInput, p.Seats)


def hand_over(game: DecidingGame, kept: list[p.Message]) -> None:
    """What the screen sent during the roll call for the game, to its box: in order,
    before anything it sends from now on (its reader is not started yet)."""
    for message in kept:
        if isinstance(message, p.Seats):
            if game.companion is not None:
                game.phones_secrets = message.seats
        else:
            game.take(message)


def new_game(sock: socket.socket) -> dict[str, Any]:
    """The session header of the new game this process journals (the screen's first message)."""
    try:
        message = channel.receive(sock)
    except ChannelError as exc:
        raise BuzzerBoxError(f"the screen sent no game to start ({exc})") from None
    header = message.header if isinstance(message, p.Start) else None
    if not header:
        raise BuzzerBoxError("the screen sent no game to start: a new game's deciding process needs its header")
    return header


def skipped(missing: list[str]) -> bool:
    """The roll call is over: the log says who never answered."""
    if missing:
        log.warning("roll call skipped by the host; not heard from: %s", ", ".join(missing))
    else:
        log.info("roll call: every station answered")
    return True


def listen(game: DecidingGame, path: str) -> socket.socket:
    """More viewers on a Unix socket (a second screen, ``buzzerbox bench``): only this user may connect."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # left by a deciding process that was killed
    old = os.umask(0o077)
    try:
        server.bind(path)
    finally:
        os.umask(old)
    server.listen(4)

    def accept() -> None:
        n = 0
        while True:
            try:
                conn, _addr = server.accept()
            except OSError:
                return
            n += 1
            game.attach(conn, f"viewer-{n}")

    threading.Thread(target=accept, name="buzzerbox-viewers", daemon=True).start()
    return server


if __name__ == "__main__":
    sys.exit(main())
