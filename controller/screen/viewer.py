"""The screen's side of the split design (docs/processes.md): draws the views
the deciding process publishes and sends the keyboard's input back as
stamped inputs. It never decides: a frame drawn here, however long, does
not hold the process that decides.

``play``, the menu and a league's matches run it in their own process
(``people_game`` → ``run_split``): it starts the deciding process (the
menu hands the game to its evening's one instead, ``screen.evening``),
watches it, and starts it again from the journal if it dies (the screen
says so in one line). A screen started by a deciding process whose first
screen died runs ``main`` here.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import math
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pygame

from controller import channel
from controller import protocol as p
from controller.box.deciding import LIVE_WINDOW
from controller.box.journal_writer import unsaved_line
from controller.box.press import Edge, InputNotice, Press, Watermark
from controller.box.runtime import HORIZON_WATERMARKS
from controller.box.timeline import box_now_us
from controller.peer import ViewedGame
from controller.screen import live
from controller.screen.deciding_start import spawn_deciding
from controller.screen.keyboard import BOX_KEYS, KeyboardSource
from controller.screen.loop import (
    BACK_HINT,
    QUIT,
    Presenter,
    goes_back,
    key_of,
    key_word,
    keyboard_help,
)
from controller.screen.sound import Sound
from controller.system import signals, terminal
from games.base import Action, BuzzerBoxError, EventKind, GameSettings, GameSpec
from games.i18n import LANGUAGES, N_, PSEUDO, _, current_language, set_language
from games.registry import get, package_of, register, register_args
from games.scenes import scene_for
from games.toolkit.scene import freeze
from games.toolkit.theme import Color

if TYPE_CHECKING:
    from controller.box.views import Snapshot
    from controller.screen.evening import EveningLink
    from controller.screen.menu import RollCallScene

log = logging.getLogger("buzzerbox.screen")

#: what the terminal says when the deciding process is gone (one line)
DECIDER_GONE = N_("the deciding process stopped: starting it again from the journal")
#: what the screen says from then until the next one shows the game
RESTARTING = N_("restarting: every press is kept")
#: the deaths that end the game rather than start it again (its journal kept for --resume)
DIED_TOO_OFTEN = N_("the deciding process died {count} times within {seconds} s (the last: {how}; out of memory?): "
                    "the game stops here, its journal keeps every press for --resume")

#: a deciding process started again that exits before it shows the game, saying no reason (an
#: unhandled error, a MemoryError), is tried again: at most this many in a row, then the game ends
TAKE_TRIES = 3
#: this many deaths within ``DEATHS_WINDOW_S`` (the monotonic clock) end the game (the OOM killer again and again)
DEATHS_LIMIT = 5
DEATHS_WINDOW_S = 120.0
#: the wait before starting the next one from the second death within the window on, doubled for each
#: death more, at most ``RESTART_WAIT_MAX_S`` (tests set it to 0: no sleep)
RESTART_WAIT_S = 0.5
RESTART_WAIT_MAX_S = 8.0


#: how long a stop waits for the deciding process's ``Ended`` (it sends it as its close ends: a journal's
#: end, lamps off, an evening's inputs delivered up to the close, ``CLOSE_WAIT_S``); a process that
#: exits without it is not waited for this long (its channel closes); one whose close is slower (a card
#: refusing records is retried for a grace, a loaded box) is waited for all the same, its Ended read as it exits
ENDED_WAIT_S = 10.0

#: what the channel's reader thread puts in: a message, a peer of another version, or None (the channel closed)
Inbox = queue.Queue[p.Message | channel.VersionMismatch | None]



class SplitError(BuzzerBoxError):
    """The deciding process would not start (it said why on its own line)."""


class GameRefused(SplitError):
    """The deciding process would not take the game (its one line: a journal
    another process writes, a carry-on it cannot take over); an evening's
    process goes on between games, ready for the next."""


class DecidingLink(ViewedGame):
    """The screen's end of the channel to the deciding process: the newest
    ``View`` it published (what the presenter draws, ``view``, at the game's
    time ``offset_us`` from the box clock), and the way inputs go to it (the
    keyboard's edges, the phones' server's actions), stamped where they
    happened. To the phones' server it is the game it serves
    (``web.server.ServedGame``): the seats' names and the pause come from the
    newest view, what phones do goes to the deciding process."""

    def __init__(self, spec: GameSpec, settings: GameSettings, sock: socket.socket | None = None) -> None:
        """``sock``: the channel to the deciding process (None until it runs: what is sent meanwhile is dropped)."""
        self.spec = spec
        self.settings = settings
        self.sock = sock
        self.lock = threading.RLock()
        #: the newest view (an empty one until the deciding process's first)
        self.view: p.View = p.NO_VIEW
        self._send_lock = threading.Lock()
        #: station inputs sent while no deciding process listened (it was starting again)
        self._held: list[p.Message] = []
        #: what the channel's reader thread reads (``listen``), kept here: a stop reads the ``Ended`` from it
        self.inbox: Inbox = queue.Queue()
        self.reading: threading.Thread | None = None

    @property
    def offset_us(self) -> int:
        """Game time minus the box clock, as the newest view has it (the presenter's)."""
        return self.view.offset_us

    def update(self, view: p.View) -> None:
        with self.lock:
            self.view = view

    def send(self, message: p.Message) -> None:
        """To the deciding process; a station's input sent while none listens
        (it died: the watch loop says so) is kept for the next one."""
        with self._send_lock:
            if self.sock is not None:
                try:
                    channel.send(self.sock, message)
                    return
                except OSError:
                    pass
            if isinstance(message, p.STATION_INPUTS):
                self._held.append(message)

    def connect(self, sock: socket.socket) -> None:
        """A new deciding process's channel: the inputs kept meanwhile go to it first."""
        with self._send_lock:
            self.sock = sock
            held, self._held = self._held, []
            with contextlib.suppress(OSError):  # gone already: the watch loop says so
                for message in held:
                    channel.send(sock, message)

    def listen(self, until_view: bool = False, first: p.Message | None = None) -> Inbox:
        """A reader thread on the channel (``reader``; ``first``: a message read
        already, put in first) and the queue it fills, both kept here, so that a
        stop cut into the loop reading it still gets the deciding process's answer."""
        assert self.sock is not None, "listen on a DecidingLink connected to its deciding process"
        self.inbox = queue.Queue()
        if first is not None:
            self.inbox.put(first)
        self.reading = reader(self.sock, self.inbox, until_view)
        return self.inbox

    def ended(self, timeout_s: float = ENDED_WAIT_S) -> p.Ended | None:
        """After a ``Stop``: the deciding process's ``Ended`` (it says how the
        game went, from its live box), the views before it skipped; None if the
        channel closed first (the process died), a peer that cannot be read,
        or nothing came within ``timeout_s``."""
        inbox = self.inbox
        # asked before the queue is read: a reader that put its last word (the end) and stopped just after
        # that read would have it left behind in the old queue, and the new reader find the channel closed
        stopped = self.reading is None or not self.reading.is_alive()
        # what the reader read already, its last word (the end, or None) included
        while (message := taken(inbox)) is not NOTHING:
            if message is None or isinstance(message, (p.Ended, p.Refused, channel.VersionMismatch)):
                return message if isinstance(message, p.Ended) else None
        if self.sock is None:
            return None
        if stopped:
            inbox = self.listen()  # its reader stopped at the game's first view (``opening``): read on
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            if (message := taken(inbox, left)) is NOTHING:
                break
            if message is None or isinstance(message, (p.Ended, p.Refused, channel.VersionMismatch)):
                return message if isinstance(message, p.Ended) else None
        return None

    # an input sink, as the keyboard source and the phones' server expect
    def edge(self, edge: Edge, precision_us: int) -> None:
        self.send(p.EdgeInput(edge, precision_us))

    def press(self, press: Press) -> None:
        self.send(p.PressInput(press))

    def notice(self, notice: InputNotice) -> None:
        self.send(p.NoticeInput(notice))

    def watermark(self, mark: Watermark) -> None:
        self.send(p.WatermarkInput(mark))

    def deliver_action(self, action: Action) -> None:
        self.send(p.ActionInput(action))


@dataclass(frozen=True)
class GameOver:
    """How a game decided in a process of its own ended: that process's
    ``Ended`` (why, its summary, its timings, its unsaved records) and how
    this screen drew it (``frame_us``, ``shown``: see ``Watched``)."""

    ended: p.Ended
    frame_us: list[int] = field(default_factory=list)
    shown: list[list[int]] = field(default_factory=list)
    #: the deciding process's last view (a game played to its end: its results, as the menu shows them again)
    last: p.View = p.NO_VIEW

    @property
    def reason(self) -> p.EndReason:
        return self.ended.reason

    @property
    def played(self) -> p.Played:
        """How the game went (``people_game`` has it for every game that began)."""
        assert self.ended.played is not None, "a game that never began was not played"
        return self.ended.played

    def timings(self, names: Sequence[str]) -> dict[str, object]:
        """The figures ``names`` (``Ended``'s fields, ``frame_us``, ``shown``) by name: ``play --timings``."""
        return {name: getattr(self, name) if name in ("frame_us", "shown") else getattr(self.ended, name)
                for name in names}


@dataclass
class Watched:
    """How watching one deciding process ended: its ``Ended``, or None if it died."""

    ended: p.Ended | None
    first_version: int = 0
    views: int = 0
    #: how long each frame took to draw and flip (µs), and per decision [decided, first frame flipped after]
    frame_us: deque[int] = field(default_factory=lambda: deque(maxlen=LIVE_WINDOW))
    shown: deque[list[int]] = field(default_factory=lambda: deque(maxlen=LIVE_WINDOW))


#: what ``taken`` gives when nothing came
NOTHING: Any = object()


def taken(inbox: Inbox, timeout_s: float | None = None) -> Any:
    """The next message the reader put in ``inbox`` (waiting up to ``timeout_s``;
    None: not at all), or ``NOTHING``. Taken with signals held: a
    KeyboardInterrupt raised while the queue's lock is held would leave it
    held, and the reader's next put and this process's stop (``ended``) would
    wait on it for ever (seen once in a loaded run of the signal tests). A
    signal that came meanwhile is raised once the lock is free, and the message
    taken goes back first in the queue: the stop reads it again (it was lost,
    and when it was the deciding process's ``Ended`` the stop waited for it in vain)."""
    with signals.held():
        try:
            message = inbox.get(timeout=timeout_s) if timeout_s is not None else inbox.get_nowait()
        except queue.Empty:
            return NOTHING
        if signals.raised_when_held_ends():
            with inbox.mutex:
                inbox.queue.appendleft(message)
                inbox.not_empty.notify()
        return message


def reader(sock: socket.socket, inbox: Inbox, until_view: bool = False) -> threading.Thread:
    """A thread putting what the deciding process sends in ``inbox`` until it
    ends (``until_view``: or its first ``View``, which ``watch`` reads on from)."""

    def read() -> None:
        while True:
            try:
                message = channel.receive(sock)
            except channel.VersionMismatch as exc:  # nothing it sends can be read: said once, the game stopped
                inbox.put(exc)
                return
            except channel.ChannelError as exc:
                log.warning("the deciding process sent something that is not a message (%s)", exc)
                continue
            inbox.put(message)
            # a refusal is its last word on the game: an evening's channel is the menu's again
            if message is None or isinstance(message, (p.Ended, p.Refused)) or (
                    until_view and isinstance(message, p.View)):
                return

    thread = threading.Thread(target=read, name="buzzerbox-screen-reader", daemon=True)
    thread.start()
    return thread


#: the keys that start the game without the stations that did not answer the roll call
SKIP_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


def opening(box: DecidingLink, presenter: Presenter, keyboard: KeyboardSource | None,
            announce: Callable[[str], None] | None = None, *, begun: bool = False,
            asked: list[p.Message] | None = None) -> p.Message | None:
    """Until the deciding process shows the game: ``announce`` gets what
    inputs it opened (``Opened``), and its roll call is drawn from each
    ``RollCallView`` it sends, this screen's station keys going to it; Enter,
    space or a host key of the profile's ``[keys]`` that goes on (arm, next,
    a clicker's step) skips the rest (a typed host key), Esc or a closed window
    leaves (a ``Stop``: it answers ``Ended(NOT_BEGUN)``), from its start-up on
    unless the game ``begun`` already (a deciding process started again mid-game:
    the game's keys wait for the game). What the host page asked of the menu
    meanwhile (an evening's ``MENU_ASKS``) goes to ``asked``. Returns its first
    ``View`` (``watch`` goes on from it), its ``Ended``, or None if it died."""
    inbox = box.listen(until_view=True)
    roll = _RollCall(box, presenter, keyboard, begun)
    frame_clock = pygame.time.Clock()
    try:
        while True:
            t = box_now_us()
            roll.keys(pygame.event.get(), t)
            message = roll.read(inbox, announce)
            if message is not NOTHING:
                return message
            if roll.draw(t):
                frame_clock.tick(30)
    finally:
        if asked is not None:
            asked.extend(roll.asked)
        if keyboard is not None:
            keyboard.stop()
        if box.reading is not None:
            box.reading.join(0.5)


class _RollCall:
    """The roll call ``opening`` draws: what the deciding process last showed of it,
    and whether the host already went on (or left)."""

    def __init__(self, box: DecidingLink, presenter: Presenter, keyboard: KeyboardSource | None, begun: bool) -> None:
        self.box, self.presenter, self.keyboard, self.begun = box, presenter, keyboard, begun
        self.scene: RollCallScene | None = None
        self.shown: p.RollCallView | None = None
        self.answered = False  # the host skipped or left it: no roll call frame more (the game or the menu is next)
        #: what the host page asked of the menu meanwhile (``protocol.MENU_ASKS``): the menu takes it after the game
        self.asked: list[p.Message] = []

    def keys(self, events: list[pygame.event.Event], t: int) -> None:
        """Esc leaves (a ``Stop``), Enter or a host key that goes on skips the rest; nothing else counts yet."""
        for event in events:
            if event.type == pygame.VIDEORESIZE:
                self.presenter.screen.resized(event.size)
            leaving = event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE)
            if self.answered or (self.shown is None and not (leaving and not self.begun)):
                continue  # no roll call (or over): the game's keys wait for the game
            if leaving:
                self.box.send(p.Stop(p.EndReason.MENU))
                self.answered = True
            elif (event.type == pygame.KEYDOWN and event.key in SKIP_KEYS) or (
                    self.keyboard is not None and self.keyboard.handle(event, t) in p.SKIPS_ROLL_CALL):
                self.box.send(p.HostKey(p.SKIP_ROLL_CALL, t))  # Enter, or a host key meaning go on (a clicker's)
                self.answered = True

    def read(self, inbox: Inbox, announce: Callable[[str], None] | None) -> Any:
        """What waits from the deciding process: ``NOTHING`` while it is still in its
        roll call, else what ``opening`` returns (the game's first view, its end, None)."""
        while True:
            if (message := taken(inbox, 0.03 if self.shown is None or self.answered else None)) is NOTHING:
                return NOTHING
            if isinstance(message, channel.VersionMismatch):
                raise SplitError(str(message))
            if isinstance(message, p.Refused):  # its inputs would not open, the game not taken: one line, no game
                raise GameRefused(message.line)
            if isinstance(message, p.Between):
                continue  # an evening's stations, sent before it took the game: the menu's, not the game's
            if isinstance(message, p.Opened):
                if announce is not None:
                    announce(message.inputs)
            elif isinstance(message, p.RollCallView):
                if self.shown is None and self.keyboard is not None:
                    self.keyboard.start(self.box)  # its station keys are stations in the roll call too
                self.shown = message
                if self.scene is None:
                    from controller.screen.menu import RollCallScene

                    self.scene = RollCallScene()
            elif isinstance(message, p.MENU_ASKS):
                # the host page asked the menu just as the game was handed over (sent on the channel before
                # the deciding process read ``Play``): the menu's, taken between games, never the game's end
                self.asked.append(message)
            elif message is None or isinstance(message, (p.View, p.Ended)):
                return message  # the game's first view, its end, or None: it died
            else:
                log.warning("the deciding process sent a %s before the game began: ignored",
                            getattr(message, "TAG", type(message).__name__))

    def draw(self, t: int) -> bool:
        """The roll call as last shown, unless it is over; whether a frame was drawn."""
        if self.shown is None or self.scene is None or self.answered:
            return False
        self.scene.draw(self.presenter.screen.surface, freeze(self.shown.view), list(self.shown.strip), t)
        self.presenter.screen.flip()
        return True


def watch(box: DecidingLink, presenter: Presenter, keyboard: KeyboardSource | None, fps: int,
          first: p.Message | None = None) -> Watched:
    """Draw each newest view until the deciding process says the game ended
    (or dies); keys go to it as stamped inputs, host keys by name.
    ``first``: a message already read from the channel (a screen started again)."""
    inbox = box.listen(first=first)
    watching = _Watching(box, presenter, keyboard)
    frame_clock = pygame.time.Clock()
    if keyboard is not None:
        keyboard.add_host_keys(box.spec.host_keys)
        keyboard.add_host_keys({key: action for key, action in BOX_KEYS.items() if action in presenter.box_actions})
        presenter.help = keyboard_help(box.spec, keyboard, box.view.public)
        keyboard.start(box)
    try:
        while True:
            pumped = box_now_us()  # a key read below is stamped after this: the keys are delivered up to it
            queued = pygame.event.get()
            watching.keys(queued, box_now_us())  # every key of one read waited in the same queue: one stamp (a tie)
            if keyboard is not None and keyboard.sends_watermarks:
                box.watermark(Watermark(keyboard.name, pumped))  # the keys are the stations: decide by them
            if watching.read(inbox):
                return watching.out
            watching.draw()
            frame_clock.tick(fps)
    finally:
        if keyboard is not None:
            keyboard.stop()
        if box.reading is not None:
            box.reading.join(0.5)


def results_hint(keyboard: KeyboardSource | None) -> str:
    """What the final results say of the way back, in the reader's language: Esc and Enter (unless the
    station profile binds them to a game action), and a presenter clicker's next step (its key shows the
    last answer first if it was not shown: docs/quiz.md)."""
    if keyboard is None:
        return _(BACK_HINT)
    back = [code for code in (pygame.K_ESCAPE, pygame.K_RETURN) if keyboard.host_keys.get(code) in (None, "menu")]
    steps = [code for code, action in keyboard.host_keys.items() if action == "step" and code not in back]
    return _("{keys}: back to the menu").format(keys=" / ".join(key_word(code) for code in back + steps))


class _Watching:
    """What ``watch`` has of the game so far: the views it read, whether the last said
    the game is finished, the newest decision no frame has shown yet."""

    def __init__(self, box: DecidingLink, presenter: Presenter, keyboard: KeyboardSource | None) -> None:
        self.box, self.presenter, self.keyboard = box, presenter, keyboard
        self.out = Watched(None)
        self.finished_at_frame = False
        self.last_decided: int | None = None
        self.unshown: int | None = None  # a decision no frame has shown yet
        #: the final results say how to get back (the menu's): with the keys this keyboard binds (``results_hint``)
        self.back_hint = presenter.results_hint is not None and keyboard is not None

    def game_now(self) -> int:
        return box_now_us() + self.box.offset_us

    def keys(self, queued: list[pygame.event.Event], read_us: int) -> None:
        """Each key to the deciding process: stamped, a host key by name, Esc as a stop (asked first)."""
        box, presenter = self.box, self.presenter
        for event in queued:
            name = key_of(event, presenter, self.keyboard, read_us)
            if name in presenter.box_actions:  # the box's own (the PIN on screen): the game never sees it
                presenter.box_actions[name]()
            elif name == QUIT:
                box.send(p.Stop(p.EndReason.QUIT))
            elif name == "menu" and not self.finished_at_frame and not presenter.end_confirmed():
                pass  # the first Esc: the screen asks
            elif name == "menu" or (self.finished_at_frame and name is None and goes_back(event)):
                # (a back key the profile binds to a game action is that action there: an undo undoes)
                box.send(p.Stop(p.EndReason.MENU if name == "menu" else p.EndReason.FINISHED))
            elif name is not None:  # on the final results too: an undo takes the last judgement back, a reveal shows
                # the last answer, a step forward the game has no use for closes them (the deciding process's
                # ``host_key``); a key the game refuses there says so
                box.send(p.HostKey(name, self.game_now()))

    def read(self, inbox: Inbox) -> bool:
        """Every message waiting; True once the game ended (its ``Ended`` in ``out``) or the deciding process died."""
        while True:
            if (message := taken(inbox)) is NOTHING:
                return False
            if message is None:
                return True
            if isinstance(message, channel.VersionMismatch):
                raise SplitError(str(message))
            if isinstance(message, p.Ended):
                self.out.ended = message
                return True
            if isinstance(message, p.View):
                self.view(message)

    def view(self, message: p.View) -> None:
        """A view taken in: drawn and flipped at once if it shows something (the flip's time
        goes back as ``Shown``), its sounds and lamps played."""
        box, presenter, out = self.box, self.presenter, self.out
        box.update(message)
        out.views += 1
        out.first_version = out.first_version or message.version
        if out.views == 1:
            presenter.standing = None  # the game is back (a deciding process started again)
            # nobody at the box needs it (the deciding process says a new screen was started): a debug line,
            # which the resume benchmark times (play -vv); tests wait for what a user sees, a view
            log.debug("screen process: showing view %d", message.version)
        events = message.events
        t = self.game_now()
        if any(e.kind == EventKind.SHOW for e in events):
            presenter.draw_view(message, box.spec, t)
            flipped = presenter.screen.flip() + box.offset_us
            box.send(p.Shown(flipped))
        presenter.react_view(message, box.spec, events, t)
        self.finished_at_frame = message.finished
        if message.finished and self.back_hint:
            presenter.results_hint = results_hint(self.keyboard)
        decided = message.decided
        if decided and decided[0] != self.last_decided:
            self.last_decided = self.unshown = int(decided[0])

    def draw(self) -> None:
        """This frame of the newest view; its draw time kept, and when the newest decision was first on screen."""
        t_draw = box_now_us()
        self.presenter.draw_view(self.box.view, self.box.spec, self.game_now())
        self.presenter.screen.flip()
        flipped = box_now_us()
        self.out.frame_us.append(flipped - t_draw)
        if self.unshown is not None:
            self.out.shown.append([self.unshown, flipped + self.box.offset_us])
            self.unshown = None


# -- the screen process of play: start the deciding process and keep it running -----------


@dataclass
class SplitGame:
    """The pieces of a live game on the screen's side."""

    journal: Path
    profile: str | None
    spec: GameSpec
    settings: GameSettings
    #: a new game (its time starts when the deciding process takes it over), not a resumed one
    new: bool
    #: how long to play (a test run), from when the deciding process has taken the game over
    seconds: float | None
    screen_args: list[str]
    viewer_socket: str | None = None
    feed: str | None = None
    #: this process serves the phones' pages: the deciding process sends it their snapshots
    web: bool = False
    #: how the deciding process knows every input is in (``runtime.HORIZON_POLICIES``)
    horizon: str = HORIZON_WATERMARKS
    #: a new game: the deciding process builds its session header and journals it (this process never does)
    new_game: p.NewGame | None = None
    #: a game the host ended before its end goes on (the first deciding process resumes it past its end)
    carry_on: bool = False
    #: a new game on real stations: the deciding process runs the roll call on its inputs first
    roll_call: bool = False
    #: the menu's evening: its one deciding process takes the game (``EveningLink.take``) and outlives it
    evening: EveningLink | None = None
    #: the packs folder the deciding process saves the host page's uploads in
    packs: str | None = None
    #: simulated players play every station (``demo``, the menu's bots' games), in the deciding process
    bots: p.Bots | None = None

    def __post_init__(self) -> None:
        """A new game is started ``--new`` and waits for its ``Start``, made of ``new_game``:
        a new game without one would wait for ever, so it cannot be made."""
        if self.new and self.new_game is None:
            raise ValueError("a new SplitGame needs its new_game (what the deciding process journals)")


def start_decider(game: SplitGame, resume: bool) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """The deciding process on the journal, and the screen's end of its channel."""
    command = ["--journal", str(game.journal), "--screen", json.dumps(game.screen_args),
               *register_args(game.spec.name),
               "--lang", current_language(),  # it words the phones' and the host page's texts
               "--log-level", str(logging.getLogger().getEffectiveLevel())]  # as quiet as this command
    if game.profile:
        command += ["--profile", game.profile]
    new = game.new and not resume
    if new:
        command += ["--new"]
    if game.carry_on and not resume:
        command += ["--carry-on"]
    if game.roll_call and new:  # started again before the game began: the roll call again
        command += ["--roll-call"]
    if game.seconds is not None:
        command += ["--seconds", str(game.seconds)]
    if game.viewer_socket:
        command += ["--viewer-socket", game.viewer_socket]
    if game.feed:
        command += ["--feed", game.feed]
    if game.web:
        command += ["--web"]
    if game.horizon != HORIZON_WATERMARKS:
        command += ["--horizon", game.horizon]
    if game.packs:
        command += ["--packs-dir", game.packs]
    if game.bots is not None and not new:  # a new game's Start says so
        command += ["--bots"] + (["--board-sim"] if game.bots.board_sim else [])
    # its imports and its resume at its priority (``spawn_deciding`` lifts it): a restart is what the players wait for
    process, mine = spawn_deciding(command)
    if new:  # its first message: the game it journals (a new SplitGame has its new_game)
        assert game.new_game is not None
        with contextlib.suppress(OSError):  # gone already: the watch says so
            channel.send(mine, p.Start(game.new_game, game.bots))
    return process, mine


def show_phones(presenter: Presenter, box: DecidingLink, pin_key: bool = True) -> None:
    """The phones' panel over the game and its results, drawn from what their
    server (a process of its own) says in the newest view (nothing while a view
    says none); ``pin_key``: the box's k key asks it for the PIN on screen
    (through the deciding process)."""
    from controller.screen.phones_panel import panel_overlay

    overlay = panel_overlay(lambda: box.view.phones, lambda: box.station_names, lambda: box.host_paused)
    for scene in (presenter.scene, presenter.results):
        scene.overlays.append(overlay)
        scene.asides.append(overlay.aside)
    if pin_key:
        presenter.box_actions["show_pin"] = lambda: box.send(p.ShowPin())


class Restarts:
    """A game's deciding processes that died: how long to wait before the
    next (a box out of memory is not hammered at once again) and when to stop
    trying (``DEATHS_LIMIT`` deaths within ``DEATHS_WINDOW_S``, or as many in a
    row that died before showing the game, however far apart: the OOM killer
    ending each one as it replays a long journal; or ``TAKE_TRIES`` started
    again in a row that exited by themselves before showing the game).
    ``clock``: the monotonic clock (a test's own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.deaths: deque[float] = deque()
        #: the ones started again in a row that exited by themselves before their first view
        self.failed_takes = 0
        #: when the ones in a row that died before their first view died, whatever ended them
        self.unseen: list[float] = []

    def died(self, views: int, code: int) -> None:
        """One died after showing ``views`` views, with this exit ``code`` (a signal's: negative)."""
        now = self.clock()
        self.deaths.append(now)
        while now - self.deaths[0] >= DEATHS_WINDOW_S:
            self.deaths.popleft()
        self.failed_takes = self.failed_takes + 1 if views == 0 and code >= 0 else 0
        self.unseen = [*self.unseen, now] if views == 0 else []

    def too_many(self) -> bool:
        return len(self.deaths) >= DEATHS_LIMIT or len(self.unseen) >= DEATHS_LIMIT

    def counted(self) -> tuple[int, float]:
        """The deaths that stop the game, and the seconds they came within (``too_many``)."""
        if len(self.deaths) >= DEATHS_LIMIT:
            return len(self.deaths), DEATHS_WINDOW_S
        return len(self.unseen), math.ceil(self.unseen[-1] - self.unseen[0])

    def wait_s(self) -> float:
        """Before the next start: none after a first death, then ``RESTART_WAIT_S`` doubled each time."""
        return 0.0 if len(self.deaths) <= 1 else min(RESTART_WAIT_MAX_S, RESTART_WAIT_S * 2 ** (len(self.deaths) - 2))


def backing_off(seconds: float) -> None:
    """Wait before starting the next deciding process; a stopping signal ends
    the wait (held: the next one is started and told to close the game)."""
    until = time.monotonic() + seconds
    with signals.held(raise_after=False):
        while signals.received() is None and (left := until - time.monotonic()) > 0:
            time.sleep(min(left, 0.05))


def once(announce: Callable[[str], None] | None) -> Callable[[str], None] | None:
    """``announce``, told the first time only."""
    if announce is None:
        return None
    told: list[str] = []

    def say(inputs: str) -> None:
        if not told:
            told.append(inputs)
            announce(inputs)

    return say


def follow(box: DecidingLink, sock: socket.socket, presenter: Presenter, keyboard: KeyboardSource | None, fps: int,
           announce: Callable[[str], None] | None, resume: bool, asked: list[p.Message] | None = None) -> Watched:
    """One deciding process's part of the game on this screen: its roll call (``opening``), then
    its views (``watch``) until it ends the game or dies; ``asked``: an evening's menu asks meanwhile."""
    box.connect(sock)
    first = opening(box, presenter, keyboard, announce, begun=resume, asked=asked)
    if isinstance(first, p.View):  # the game began
        return watch(box, presenter, keyboard, fps, first)
    return Watched(first if isinstance(first, p.Ended) else None)


def run_split(game: SplitGame, presenter: Presenter, keyboard: KeyboardSource | None, fps: int,
              box: DecidingLink | None = None, announce: Callable[[str], None] | None = None) -> GameOver:
    """Play through a deciding process of its own (``opening``: its roll
    call, then ``watch``); returns how it ended (``GameOver``: its
    ``Ended``); ``announce`` is told once what inputs it opened. A deciding process that dies mid-game is said in one line and
    started again on the journal (the screen keeps showing the last view).
    A signal (Ctrl+C, SIGTERM, SIGHUP, SIGQUIT) at any moment after the game
    was handed over is a stop: the deciding process closes the game (every
    press it took journaled before its ``end``), and is waited for; before
    it journaled the game (in its roll call) the start is abandoned
    (``KeyboardInterrupt``, as before it was handed over)."""
    resume = False  # ``box``: one for the whole game (the phones' server keeps it across restarts)
    restarts = Restarts()
    said_once = once(announce)  # a deciding process started again opens the same inputs

    while True:
        process: subprocess.Popen[bytes] | None = None
        sock: socket.socket | None = None
        try:
            with signals.held(raise_after=False):
                process, sock = start_decider(game, resume) if game.evening is None else game.evening.take(game, resume)
            signals.check()  # one that came while it started: stop it as soon as it listens
            if box is None:
                box = DecidingLink(game.spec, game.settings)
            watched = follow(box, sock, presenter, keyboard, fps, said_once, resume,
                             game.evening.asked if game.evening is not None else None)
        except KeyboardInterrupt:
            if process is None or sock is None:
                raise  # not handed over yet: the caller abandons the start
            with signals.held(raise_after=False):
                stopped = stop_decider(process, sock, box)
            if game.new and not game.journal.exists():
                raise  # stopped in its roll call, before it journaled the game: the caller abandons the start
            # a stop asked for, however the game's close began (Esc's close may have been under way): the command ends
            return GameOver(replace(stopped, reason=p.EndReason.STOPPED))
        except GameRefused:
            if game.evening is None and process is not None and sock is not None:
                with signals.held(raise_after=False):
                    stop_decider(process, sock)
            raise  # an evening's process took no game: it waits for the next, its stop would end the evening
        except Exception:  # this side broke: the game is closed (journal's end, lamps off), never left running
            if process is not None and sock is not None:
                with signals.held(raise_after=False):
                    stop_decider(process, sock)
            raise
        finally:
            if sock is not None and game.evening is None:  # an evening's channel is the menu's again
                sock.close()
        # an evening's process goes on after the game; any other (or one that died) is waited for
        code = 0 if watched.ended is not None and game.evening is not None else process.wait()
        if watched.ended is not None:
            if watched.ended.unsaved:
                show_unsaved(presenter, box, watched.ended)
            return GameOver(watched.ended, list(watched.frame_us), list(watched.shown), box.view)
        # a stop from here to the back-off is held: the next one is started and closes the game
        with signals.held(raise_after=False):
            restarting(restarts, watched, code, resume, presenter, box)
        backing_off(restarts.wait_s())
        # the next one resumes from the journal; one that died before it wrote it starts the game anew
        resume = not game.new or game.journal.exists()


def restarting(restarts: Restarts, watched: Watched, code: int, resume: bool, presenter: Presenter,
               box: DecidingLink) -> None:
    """A deciding process that ended without ending the game (exit ``code``): counted,
    said in one line and "restarting" shown till the next one shows the game, or a
    ``SplitError`` when it must not be started again (it never took the game, or
    died too often)."""
    exited = watched.views == 0 and code >= 0  # by itself, before it showed the game (a refusal is GameRefused)
    if exited and not resume:
        raise SplitError(_("the deciding process stopped before the game began (exit {code}): "
                           "see the line above").format(code=code))
    restarts.died(watched.views, code)
    if exited and restarts.failed_takes >= TAKE_TRIES:  # it breaks on this journal every time
        raise SplitError(_("the deciding process could not take the game over again (exit {code}): see "
                           "the line above; the journal keeps the game for --resume").format(code=code))
    if restarts.too_many():
        how = _("exit {code}").format(code=code) if code >= 0 else signal_name(-code)
        count, seconds = restarts.counted()
        raise SplitError(_(DIED_TOO_OFTEN).format(count=count, seconds=round(seconds), how=how))
    # killed (by a signal, whenever), or it broke mid-game or as it took over: the next one resumes from the journal
    if restarts.failed_takes <= 1:  # one that breaks as it takes over, tried again: said once
        print(f"buzzerbox {terminal.command}: " + _("{problem} (it exited {code})").format(problem=_(DECIDER_GONE), code=code),
              file=sys.stderr, flush=True)
    if restarts.failed_takes == 1:
        log.warning("the deciding process exited %s before it showed the game: started again, at most %d "
                    "times in a row", code, TAKE_TRIES - 1)
    presenter.standing = _(RESTARTING)  # on every frame until the next one shows the game
    presenter.draw_view(box.view, box.spec, box_now_us() + box.offset_us)
    presenter.screen.flip()


def signal_name(number: int) -> str:
    """SIGKILL for 9 (the number itself for one Python does not name)."""
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class PhonesServer(Protocol):
    """The phones' server a game's starter holds (``web.process.PhonesProcess``): one that dies
    is started again at once, and ``trouble`` says so on the game's screen."""

    def stop(self, wait_s: float = ...) -> None: ...

    def trouble(self) -> str | None: ...


def people_game(game: SplitGame, presenter: Presenter, keyboard: KeyboardSource | None, fps: int, *,
                first_pages: Callable[[], Snapshot],
                phones: Callable[[DecidingLink, Snapshot], PhonesServer] | None = None,
                announce: Callable[[str], None] | None = None) -> GameOver:
    """The one way a game with people starts (``play``, the menu, a league's
    match): its journal handed to a deciding process of its own (``game``:
    its session header for a new one), its phones served by a process of
    their own (``phones`` starts it, showing ``first_pages()``, the game as it
    starts, until the deciding process's first snapshot: a port that is
    taken is said before the game is handed over; this screen draws what it
    says of the phones from the views, and says when it died and was started
    again; the menu's: its own server), its views
    drawn until it ends (a tournament's board is followed by the league's
    peer: controller/league/follow.py); ``announce`` is told
    what inputs the deciding process opened. This process holds no box of the
    game: how it ended and how it went (``GameOver.played``) come from the
    deciding process's ``Ended``, or from the journal for a game this screen
    stopped without waiting for that (Ctrl+C, SIGTERM)."""
    pages: PhonesServer | None = None
    played = False
    try:
        with signals.held(raise_after=False):  # a signal from here on is acted on once the deciding process runs
            view = DecidingLink(game.spec, game.settings)
            if phones is not None:
                pages = phones(view, first_pages())  # the game as it starts, till then
                show_phones(presenter, view)
                presenter.asides.append(pages.trouble)  # it died mid-game and was started again: said
        ended = run_split(game, presenter, keyboard, fps, view, announce)
        played = True
    finally:
        with signals.held(raise_after=False):
            if pages is not None:
                pages.stop() if played else pages.stop(0)  # it ends by itself on the game's end, else is ended
    if ended.reason == p.NOT_BEGUN or ended.ended.played is not None:
        return ended
    from controller.box.session import played_from_journal

    # stopped by this screen and its deciding process died (or hung) before its Ended: only the journal says
    log.warning("how the game went is read back from its journal %s (its deciding process did not say)", game.journal)
    return replace(ended, ended=replace(ended.ended, played=played_from_journal(game.journal)))


#: how long a screen says that records were not saved before it closes (a key closes it sooner)
UNSAVED_SHOWN_S = 15.0


def show_unsaved(presenter: Presenter, box: DecidingLink, ended: p.Ended) -> None:
    """The game closed with records its disk refused: the screen says how many
    and where they are (the terminal says it too) until a key, or a while."""
    kept = ended.unsaved_path
    presenter.standing = unsaved_line(ended.unsaved, None if kept is None else Path(kept).name)
    presenter.draw_view(box.view, box.spec, box_now_us() + box.offset_us)
    presenter.screen.flip()
    if presenter.screen.headless:
        return
    clock, until = pygame.time.Clock(), time.monotonic() + UNSAVED_SHOWN_S
    while time.monotonic() < until and not any(e.type in (pygame.KEYDOWN, pygame.QUIT) for e in pygame.event.get()):
        clock.tick(10)


def stop_decider(process: subprocess.Popen[bytes], sock: socket.socket, box: DecidingLink | None = None) -> p.Ended:
    """Ask the deciding process to close the game and wait until it has (it
    may have been told by the signal itself); with ``box``, its ``Ended``
    (how the game went, said by the one process that decided it), read by
    the channel's reader thread, so its writes never wait for this one.
    Only if it dies or never answers is the ``Ended`` a bare one (said in the log)."""
    with contextlib.suppress(OSError):
        channel.send(sock, p.Stop(p.EndReason.STOPPED))
    ended = None if box is None else box.ended()
    process.wait()
    if box is not None and ended is None:
        # a close slower than ``ENDED_WAIT_S`` (a card refusing records is retried for a grace, a loaded box):
        # it was waited for all the same, and its ``Ended`` (the unsaved records' count) came before its exit
        ended = box.ended()
    if box is not None:
        if ended is None:
            log.warning("the deciding process (exit %s) sent no end of the game after the stop", process.returncode)
        else:
            log.info("the deciding process closed the stopped game and said how it went")
    return ended or p.Ended(p.EndReason.STOPPED)


# -- a screen started by the deciding process -----------------------------------------------


def screen_args(game: str, *, headless: bool, fullscreen: bool | None, fps: int, players: int,
                colors: Sequence[Color] | None, volume: float, mute: bool, keyboard: bool,
                keys_are_stations: bool = False, keys: Mapping[str, str] | None = None) -> list[str]:
    """How to start a screen for this game again (the deciding process keeps it);
    ``keys``: the profile's ``[keys]`` for its keyboard."""
    args = ["--game", game, "--register", f"{game}={package_of(game)}", "--fps", str(fps), "--players", str(players), "--volume", str(volume)]
    args += ["--headless"] if headless else []
    args += ["--mute"] if mute else []
    args += ["--keyboard"] if keyboard else []
    args += ["--keys", json.dumps(dict(keys))] if keys else []
    args += ["--keys-are-stations"] if keyboard and keys_are_stations else []
    args += [] if fullscreen is None else ["--fullscreen" if fullscreen else "--window"]
    if colors is not None:
        args += ["--colors", json.dumps([list(c) for c in colors])]
    return args


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m controller.screen.viewer",
                                description="A screen for a running game (started by its deciding process).")
    p.add_argument("--fd", type=int, required=True)
    p.add_argument("--game", required=True)
    p.add_argument("--register", required=True, help="GAME=PACKAGE: where the game is imported from")
    p.add_argument("--fps", type=int, default=60)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--volume", type=float, default=1.0)
    p.add_argument("--mute", action="store_true")
    p.add_argument("--headless", action="store_true")
    p.add_argument("--keyboard", action="store_true")
    p.add_argument("--keys", default=None, help="the profile's [keys] as JSON (key name -> host action)")
    p.add_argument("--keys-are-stations", action="store_true",
                   help="no wiring profile: the keys are the stations, and the screen says how far it read them")
    p.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None)
    p.add_argument("--window", dest="fullscreen", action="store_false")
    p.add_argument("--colors", default=None)
    p.add_argument("--lang", choices=(*LANGUAGES, PSEUDO), default="en", help="the box's language")
    p.add_argument("--log-level", type=int, default=logging.INFO, help="the command's logging level")
    terminal.whole_lines()  # its lines and the deciding process's share one stderr
    signals.ended_at_once()  # only a view of the game: a stop ends it (started with them blocked)
    args = p.parse_args(argv)
    set_language(args.lang)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    name, package = args.register.split("=", 1)
    with register(name, package):
        return show(args)


def show(args: argparse.Namespace) -> int:
    spec = get(args.game)
    colors = None if args.colors is None else [tuple(c) for c in json.loads(args.colors)]
    screen = live.open_screen(args, args.headless)
    sound = live.open_sound(args, args.headless)
    sock = socket.socket(fileno=args.fd)
    presenter = Presenter(screen, scene_for(spec.name, colors), sound=sound)
    keys = json.loads(args.keys) if args.keys else None
    keyboard = KeyboardSource(args.players, sends_watermarks=args.keys_are_stations, keys=keys) if args.keyboard else None
    box = DecidingLink(spec, spec.settings(args.players), sock)
    try:
        first = channel.receive(sock)
        # the phones' panel whenever a view carries it; the k key where the phones were served already
        show_phones(presenter, box, pin_key=isinstance(first, p.View) and first.phones is not None)
        watch(box, presenter, keyboard, args.fps, first)
    except KeyboardInterrupt:
        pass
    except BuzzerBoxError as exc:  # a deciding process of another install: one line
        print(f"buzzerbox: {exc}", file=sys.stderr, flush=True)
        return 1
    finally:
        sock.close()
        sound.close() if isinstance(sound, Sound) else None
        screen.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
