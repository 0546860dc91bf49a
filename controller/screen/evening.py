"""The menu's end of its evening's deciding process (docs/processes.md):
one ``python -m controller.box.process --evening`` for the whole evening.
It holds the profile's inputs and lamps from the menu to the last game;
between games the menu's rows are driven by what it sends (``Between``),
and each game with people is handed to it (``Play``, through
``viewer.run_split``). The menu's process opens no input.

It owns what the evening writes besides the journals: the players' names,
the packs folder and the first start's choices (the language, the wiring);
it speaks the box's language, which the menu tells it when the host changes
it (``SetLanguage``: no restart, the inputs stay open; it tells its phones'
server in turn, whose phones keep their seats).
The menu asks it (``ask``: ``SaveNames``, a pack uploaded from the host
page, ``SaveSetup``) on a channel of requests of its own, answered
in order whatever the menu or a game is doing.

A deciding process that dies between games is started again (one line on
stderr, the menu says it); one that dies in a game is started again by the
game's own restart, on the journal, and stays the evening's."""

from __future__ import annotations

import contextlib
import logging
import select
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Protocol

from controller import channel
from controller import protocol as p
from controller.box.press import Edge, InputNotice, Press, Watermark
from controller.screen.deciding_start import StationsSink, first_message, refusal, spawn_deciding
from games.base import BuzzerBoxError, GameSpec
from games.i18n import N_, _, current_language
from games.registry import package_of, register_args

log = logging.getLogger("buzzerbox.menu")

#: the answer to a request the evening's deciding process could not take (it was being started again)
NOT_ASKED = N_("the deciding process is starting again: try once more in a moment")
#: said on stderr and in the menu when the evening's deciding process died between games
EVENING_RESTARTED = N_("the deciding process stopped (it exited {code}): started again, the stations are read again")


class GameToTake(Protocol):
    """What of a game the evening's process is handed (``viewer.SplitGame``)."""

    journal: Path
    spec: GameSpec
    new: bool
    new_game: p.NewGame | None
    screen_args: list[str]
    roll_call: bool
    carry_on: bool
    web: bool
    bots: p.Bots | None


class EveningRefused(BuzzerBoxError):
    """The evening's deciding process could not open the profile's inputs (its one line)."""


class EveningLink(StationsSink):
    """The evening's deciding process and the menu's end of its channel."""

    def __init__(self, profile: str | None, *, feed: str | None = None, viewer_socket: str | None = None,
                 packs: Path | None = None) -> None:
        """``packs``: the packs folder, which it writes (packs uploaded from the host page)."""
        self.profile = profile
        self.packs = packs
        self.feed = feed
        self.viewer_socket = viewer_socket
        self.process: subprocess.Popen[bytes] | None = None
        self.sock: socket.socket | None = None
        #: the channel of requests (``ask``), one asker at a time
        self.requests: socket.socket | None = None
        self._asking = threading.Lock()
        #: what its inputs are, as its ``Opened`` said ("" on keyboard stations)
        self.inputs = ""
        #: the stations' newest strip and the presses not yet taken (``Between``)
        self.strip: list[dict[str, Any]] = []
        self._presses: list[Press] = []
        #: the game it was last handed: one that died taking it (its roll call too) is said by the game's restart
        self._taken: GameToTake | None = None
        #: a press lights its lamp (``press_lamps``): asked again of a process started again
        self.lamps = False
        #: the language it speaks (its phones' and host pages too): the one it was started in, or last told
        self.language = current_language()
        #: the next game's phones' pages as it starts (``views.snapshot_message``): the evening's phones'
        #: server serves them till its first snapshot (``Play.pages``)
        self.serving_pages: dict[str, Any] | None = None
        #: what the host page asked of the menu between games (``protocol.MENU_ASKS``), not taken yet
        self.asked: list[p.Message] = []

    def start(self) -> str:
        """Started, with the profile's inputs open: what they are; ``EveningRefused`` if they would not open."""
        self.language = current_language()
        asks, answers = socket.socketpair()
        args = ["--evening", "--requests-fd", str(answers.fileno()), *register_args(),
                "--lang", self.language, "--log-level", str(logging.getLogger().getEffectiveLevel())]
        args += ["--packs-dir", str(self.packs)] if self.packs is not None else []
        args += ["--profile", self.profile] if self.profile else []
        args += ["--feed", self.feed] if self.feed else []
        args += ["--viewer-socket", self.viewer_socket] if self.viewer_socket else []
        with self._asking:
            old, self.requests = self.requests, asks
        if old is not None:
            old.close()
        self.strip, self._presses = [], []
        try:
            self.process, self.sock = spawn_deciding(args, extra_fds=[answers.fileno()])
        finally:
            answers.close()
        mine = self.sock
        first = first_message(self.process, mine)
        if isinstance(first, p.Opened):
            self.inputs = first.inputs
            if self.profile:  # the stations' first strip: the menu draws its stations from its first frame
                with contextlib.suppress(channel.ChannelError):
                    between = channel.receive(mine)
                    if isinstance(between, p.Between):
                        self.strip = [dict(s) for s in between.strip]
            if self.lamps:  # a process started again mid test press: its presses light their lamps too
                self._send(p.PressLamps(True))
            return first.inputs
        self.stop()
        raise EveningRefused(refusal(first))

    def ask(self, request: p.SaveNames | p.SaveSetup | p.UploadPack) -> p.Answered:
        """``request`` checked and written by it, and its answer (any thread: one at a
        time, in order); one gone meanwhile (being started again) is a refusal saying so."""
        with self._asking:
            sock = self.requests
            try:
                if sock is None:
                    raise OSError
                channel.send(sock, request)
                answer = channel.receive(sock)
            except (OSError, channel.ChannelError):
                answer = None
            if isinstance(answer, p.Answered):
                return answer
            if sock is not None and sock is self.requests:  # what it would answer now is not this request's
                self.requests = None
                sock.close()
            return p.Answered(False, (_(NOT_ASKED),))

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None and self.sock is not None

    def poll(self) -> bool:
        """What it sent since the last look (never waits); False: it died
        (started again here, one line on stderr: ``restarted`` says it)."""
        while self.sock is not None:
            readable, _w, _x = select.select([self.sock], [], [], 0)
            if not readable:
                return True
            try:
                message = channel.receive(self.sock)
            except channel.ChannelError as exc:
                log.warning("the deciding process sent something that is not a message (%s)", exc)
                continue
            if message is None:
                break
            if isinstance(message, p.Between):
                self.strip = [dict(s) for s in message.strip]
                self._presses.extend(message.presses)
            elif isinstance(message, p.MENU_ASKS):
                self.asked.append(message)
            # anything else is a game's, come after its end (its watch had stopped reading): nothing here
        return False

    def restarted(self) -> str:
        """It died between games: started again on the same wiring; the line that says so."""
        code = self.process.wait() if self.process is not None else None
        if self.sock is not None:
            self.sock.close()
        self.sock = None
        line = _(EVENING_RESTARTED).format(code=code)
        print("buzzerbox menu: " + line, file=sys.stderr, flush=True)
        self.start()
        return line

    def presses(self, since_us: int) -> list[Press]:
        """The stations' presses it sent, made since ``since_us`` (one made while the menu was not shown is not the menu's)."""
        out = [x for x in self._presses if x.t_us >= since_us]
        self._presses = []
        return out

    def take(self, game: GameToTake, resume: bool) -> tuple[subprocess.Popen[bytes], socket.socket]:
        """``game`` handed to it (``viewer.start_decider``'s part in an evening):
        a new game with its header, else the journal's game resumed. One that
        died (in this game: ``resume``, or between games, said in one line) is
        started again first."""
        if not self.alive():
            if self.process is not None and not resume and game is not self._taken:
                self.restarted()  # it died between games while the menu was not shown
            else:  # in the game or its roll call: the game's restart said it (``viewer.DECIDER_GONE``)
                if self.process is not None:
                    self.process.wait()
                if self.sock is not None:
                    self.sock.close()
                    self.sock = None
                self.start()
        assert self.process is not None and self.sock is not None
        self._taken = game
        new = game.new and not resume
        with contextlib.suppress(OSError):  # gone already: the game's watch says so
            channel.send(self.sock, p.Play(str(game.journal), game.new_game if new else None,
                                           f"{game.spec.name}={package_of(game.spec.name)}",
                                           tuple(game.screen_args), roll_call=game.roll_call and new,
                                           carry_on=game.carry_on and not resume, web=game.web,
                                           pages=self.serving_pages if game.web else None, bots=game.bots))
        return self.process, self.sock

    def speak(self, language: str) -> None:
        """The box's language from now on (the host changed it): the process speaks it, its phones' server
        too (through it); neither is started again. A process started again is started in it."""
        if language != self.language:
            self.language = language
            self._send(p.SetLanguage(language))

    def tell(self, message: p.NextGame) -> None:
        """The menu's next game, for the host page between games (through it to the phones' server)."""
        self._send(message)

    def press_lamps(self, on: bool) -> None:
        """From now on a station's press lights its lamp (``on``), or every lamp goes dark (the test press)."""
        self.lamps = on
        self._send(p.PressLamps(on))


    def stop(self) -> None:
        """The evening is over: it closes its inputs (lamps off) and exits; waited for."""
        with self._asking:
            if self.requests is not None:
                self.requests.close()
                self.requests = None
        if self.sock is not None:
            with contextlib.suppress(OSError):
                channel.send(self.sock, p.Stop(p.EndReason.QUIT))
            self.sock.close()
            self.sock = None
        if self.process is not None:
            self.process.wait()
            self.process = None


class EveningProcess:
    """The evening's one deciding process as the menu and the first start's
    walk-through share it: started on a wiring when one is first needed (the
    walk-through's test press, or the menu), kept while the wiring stays,
    ended and started again on another wiring."""

    def __init__(self, *, feed: str | None = None, viewer_socket: str | None = None,
                 packs: Path | None = None) -> None:
        """``packs``: the packs folder, which its process writes (packs uploaded from the host page)."""
        self.feed = feed
        self.viewer_socket = viewer_socket
        self.packs = packs
        self.link: EveningLink | None = None

    def on(self, profile: str | None) -> EveningLink:
        """It, with ``profile``'s inputs open (None: keyboard stations), speaking the box's language now;
        ``EveningRefused``: they would not open."""
        if self.link is not None and self.link.profile == profile and self.link.process is not None:
            self.link.speak(current_language())  # told, not started again: its inputs stay open
            return self.link  # one that died meanwhile is started again by its next look (``EveningStations``)
        self.stop()
        link = EveningLink(profile, feed=self.feed, viewer_socket=self.viewer_socket, packs=self.packs)
        try:
            link.start()
        except BaseException:  # refused, or a signal while it opened: not left running unowned
            link.stop()
            raise
        self.link = link
        return link

    def stop(self) -> None:
        """It ends: its inputs closed, its lamps off."""
        if self.link is not None:
            link, self.link = self.link, None
            link.stop()


class EveningStations:
    """The menu's station rows fed by the evening's deciding process: what
    ``loop.run_menu`` reads of a monitor (its presses each frame, the strip),
    the keyboard's station keys sent to it. Made when the menu is shown:
    presses made before are not the menu's."""

    def __init__(self, link: EveningLink, shown_us: int, on_restart: Any = None) -> None:
        self.link = link
        self.since_us = shown_us
        self.on_restart = on_restart
        link.poll()
        link.presses(shown_us)  # what waited is older than the menu

    def step(self, now_us: int) -> list[Press]:
        if not self.link.poll():
            line = self.link.restarted()
            self.since_us = now_us
            if self.on_restart is not None:
                self.on_restart(line)
        return self.link.presses(self.since_us)

    def strip(self) -> list[dict[str, Any]]:
        return self.link.strip

    # the keyboard's sink: through the link
    def edge(self, edge: Edge, precision_us: int) -> None:
        self.link.edge(edge, precision_us)

    def press(self, press: Press) -> None:
        self.link.press(press)

    def notice(self, notice: InputNotice) -> None:
        pass

    def watermark(self, mark: Watermark) -> None:
        pass
