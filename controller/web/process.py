"""The phones' server in a process of its own (docs/processes.md): a peer of
the deciding process on its viewer socket, like a screen, ``bench`` or the
league's link. It says it is the phones' server (``Hello``), serves the
pages' snapshots the deciding process sends, and sends what phones and the
host page do back as stamped inputs. It never decides and opens no input;
the packs the host page uploads and the names it types go to the deciding
process, which owns them.

``play --web`` starts it (``start``) before the game is handed over, in
the channel's protocol over its pipes: the game it serves (``Serving``) on
its stdin, its answer on its stdout: ``Listening`` (where, the PIN, the
port), or ``Refused`` (a port that is taken: the one line ``play`` says, and
no game begins). It does not die with the
screen: a screen killed and started again draws the panel this process
describes in the views (``PhonesPanel``: the address, the seats' QR code,
the PIN while the room may see it), and the phones keep their sockets. A
deciding process started again is connected to again, told the seats'
codes (``Seats``) and the panel (``PeerLink``'s greeting). One that dies is
started again by its starter at once (``PhonesProcess.keep``), on the same
port (``--kept-seats``): the deciding process hands it back the seats the
one before sent, and it lets no phone in before it holds them, so the
phones reconnect by themselves to the seats they held. It ends once the
game's ``Ended`` came, on SIGTERM, or when the deciding process is gone for
good: its starter (``play``, which starts each deciding process) gone and
none listening for ``peer.PEER_WAIT_S``.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import logging
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller import channel
from controller import protocol as p
from controller.box.press import InputNotice
from controller.box.views import RelayedPublisher, Snapshot, snapshot_from, snapshot_message
from controller.pack_store import Saved
from controller.peer import PEER_WAIT_S, PeerLink, ViewedGame, add_peer_args, remove_private
from controller.system import signals, terminal
from controller.web import WebError
from games.base import Action, BuzzerBoxError, GameSettings, GameSpec
from games.i18n import LANGUAGES, N_, PSEUDO, _, current_language, set_language
from games.registry import get, known, package_of, register, register_args

if TYPE_CHECKING:
    from controller.web.server import CompanionServer

log = logging.getLogger("buzzerbox.web")

#: how often the panel is looked at (the PIN's minute on screen ends by itself, a seat is taken)
LOOK_S = 0.1
#: how long the host page's upload waits for the deciding process's answer (a pack is checked in about a second)
ANSWER_WAIT_S = 30.0
#: how long ``play`` waits for this process to listen (or to say why it cannot)
START_WAIT_S = 30.0
#: how long ``play`` waits for it to end by itself after the game's end before it is killed
END_WAIT_S = 10.0
#: what the host page reads when no deciding process listens (it is being started again)
NOT_ASKED = N_("the deciding process is starting again: try once more in a moment")
#: said on the terminal and the screens when the phones' server died and its starter started it again
PHONES_RESTARTED = N_("the phones' server stopped (it exited {code}): started again; phones reconnect by themselves")
#: its starter could not read its answer (another install's server, or something else wrote on its stdout)
GARBLED = N_("the phones' server answered its start with something that is no answer of this install: check "
             "that `buzzerbox` and the box's files come from one install, then start the command again")
#: the signal its starter sends a phones' server once the game's deciding process has exited (``PhonesProcess.stop``)
FINISH = signal.SIGUSR1
#: what a phones' server answers that was not handed the game it serves on its stdin
NOT_HANDED = N_("the phones' server was not handed the game to serve: start the command again")


class PhonesLink(ViewedGame):
    """What the phones' server serves (``server.ServedGame``): the seats' names and
    the pause as the newest view has them; what phones do goes to the deciding
    process through ``peer`` (dropped while none listens: a phone's move then
    is lost, as a press is while the box is off)."""

    def __init__(self, spec: GameSpec, settings: GameSettings, peer: PeerLink) -> None:
        self.spec = spec
        self.settings = settings
        self.peer = peer
        self.lock = threading.RLock()
        self.view: p.View = p.NO_VIEW
        self._ask_lock = threading.Lock()
        self._hold_lock = threading.Lock()
        self._held: list[p.Message] = []
        #: the deciding process's answers to this process's requests, in order
        self.answers: queue.Queue[p.Answered] = queue.Queue()

    def deliver_action(self, action: Action) -> None:
        self.peer.send(p.ActionInput(action))

    def host_key(self, name: str, t_us: int) -> None:
        """The host page's game button (stamped on the box's clock): to the deciding process as a host key
        by name (game time), decided there as the screen's keys (``DecidingGame.host_key``: on the final
        results "next" reveals the last answer, then goes back)."""
        self.send_or_hold(p.HostKey(name, t_us + self.view.offset_us))

    def notice(self, notice: InputNotice) -> None:
        self.send_or_hold(p.NoticeInput(notice))

    def send_or_hold(self, message: p.Message) -> None:
        """The host page's buttons and renames: kept while no deciding process listens (it
        is starting, or being started again) and sent to the next first (``held``)."""
        if not self.peer.send(message):
            with self._hold_lock:
                self._held.append(message)

    def held(self) -> list[p.Message]:
        """What waited for a deciding process, taken (it goes to the one connected now)."""
        with self._hold_lock:
            held, self._held = self._held, []
        return held

    def hold_again(self, messages: Sequence[p.Message]) -> None:
        """A greeting that could not be sent (the deciding process went as it was greeted): what
        waited in it waits again, first (the seats and the panel are told anew at the next greeting)."""
        again = [m for m in messages if not isinstance(m, (p.Hello, p.Seats, p.Panel, p.PeerLine))]
        with self._hold_lock:
            self._held[:0] = again

    def flush(self) -> None:
        """What waited, sent now that a deciding process listens (kept again if it went meanwhile)."""
        for message in self.held():
            self.send_or_hold(message)

    def ask(self, message: p.Message) -> p.Answered:
        """A request to the session's owner, answered in order (one at a time; it waits
        for a deciding process that is starting)."""
        with self._ask_lock:
            while not self.answers.empty():
                self.answers.get_nowait()  # a late answer to an asker that gave up
            if not self.peer.connected.wait(ANSWER_WAIT_S) or not self.peer.send(message):
                return p.Answered(False, (_(NOT_ASKED),))
            try:
                return self.answers.get(timeout=ANSWER_WAIT_S)
            except queue.Empty:
                return p.Answered(False, (_(NOT_ASKED),))

    def upload(self, name: str, data: bytes) -> Saved:
        """A pack from the host page, checked and saved by the deciding process (it owns the packs folder)."""
        answer = self.ask(p.UploadPack(name, base64.b64encode(data).decode()))
        return Saved(None if answer.saved is None else Path(answer.saved), answer.lines)


def panel_of(server: CompanionServer) -> p.PhonesPanel:
    """What the big screen says of the phones now (``phones_panel.panel_overlay`` draws it): the PIN only
    while the room may see it."""
    latest = server.publisher.latest
    return p.PhonesPanel(server.base_url, server.join_url() if latest.uses_seats else None, tuple(server.held()),
                         latest.phones_wanted, server.seats.pin if server.pin_wanted() else None)


class Phones:
    """This process's server and its link to the deciding process (a ``PeerLink``
    of the phones' server's role, across the deciding process's restarts)."""

    def __init__(self, args: argparse.Namespace, serving: p.Serving) -> None:
        from controller.web.server import CompanionServer

        spec = get(serving.register.split("=", 1)[0])
        first = snapshot_from(serving.pages)
        starter = args.starter
        #: the menu's whole evening (``--evening``): across games, between them the host page's lobby
        self.evening = bool(getattr(args, "evening", False))
        self.peer = PeerLink(args.viewer_socket, p.PHONES, "the phones' server",
                             keep_waiting=lambda: os.getppid() == starter, greeting=self.greeting,
                             idle_s=None if self.evening else PEER_WAIT_S, ungreeted=self.ungreeted)
        self.link = PhonesLink(spec, spec.settings(args.players), self.peer)
        self.publisher = RelayedPublisher(self.link, first)
        # the strip worded as the big screen's scene words it: the game's own wording, the scene's
        # (``GameSpec.adjust_strip``), with no scene here (it draws with pygame; this process draws nothing)
        self.publisher.scene = spec
        #: the menu's next game and its options, as the menu last sent them (``NextGame``)
        self.next: dict[str, Any] | None = None
        evening = self.evening
        self.server = CompanionServer(self.link, port=args.port, bind=args.bind, address=args.address,
                                      publisher=self.publisher, end_game=self.end_game, upload=self.link.upload,
                                      on_rename=self.renamed if evening else None,
                                      on_option=self.option if evening else None, awaits_seats=args.kept_seats)
        self.server.on_start = self.start_next if evening else None
        self.server.on_secrets = self.keep
        self.server.on_settled = self.listening
        self._panel: p.PhonesPanel | None = None
        self._told = False  # its starter was told where it serves (``listening``)
        self._told_lock = threading.Lock()
        self.stopping = threading.Event()
        #: the newest view with the pages' snapshot since the last game ended: a ``Serving`` that comes after
        #: it (an outbox writes the view before other messages) serves it at once
        self.fresh: p.View | None = None
        if evening and getattr(args, "between", False):  # started again between games: no game is starting
            self.publisher.closed(first, self.next_game)
            self.publisher.starting = False

    # -- the menu's evening: the host page's lobby between games ---------------------------------
    def next_game(self) -> dict[str, Any] | None:
        """The menu's next game as it last said it (the host page between games), startable from there;
        None (``null`` on the page, as outside the menu) while the menu has not said it yet."""
        return {**self.next, "startable": True} if self.next else None

    def renamed(self, seat: int, name: str) -> None:
        """A name typed on the host page: the menu's next games (a running game takes its own notice)."""
        self.link.send_or_hold(p.HostRenamed(seat, name))

    def option(self, key: str, value: Any) -> bool:
        """An option for the menu's next game, if the host page offers it: the menu sets it and says the
        next game again (``NextGame``)."""
        rows = [row for row in (self.next or {}).get("options", ()) if row.get("key") == key]
        if not rows or not any(choice[0] == value and type(choice[0]) is type(value) for choice in rows[0]["choices"]):
            return False
        rows[0]["value"] = value  # shown at once; the menu's next word on it follows
        return self.peer.send(p.SetOption(key, value))

    def start_next(self) -> bool:
        """The host page's "start" between games: the menu starts its next game (False: nobody to ask now)."""
        return not self.publisher.live and self.peer.send(p.StartNext())

    def serve(self, serving: p.Serving) -> None:
        """The evening's next game: served from now on (its pages as it starts until its first snapshot),
        on the same port, PIN and seats' codes (joined phones keep their seats). A game this process
        does not know (``registry.known``: it was started with every game a menu may play) is refused
        in one line, and the pages stay as they were."""
        try:
            spec = get(known(serving.register))
        except BuzzerBoxError as exc:
            log.warning("%s", exc)
            return
        first = snapshot_from(serving.pages)
        with self.link.lock:
            self.link.spec, self.link.settings = spec, spec.settings(len(first.seats))
            self.link.view = p.NO_VIEW
            self.publisher = RelayedPublisher(self.link, first)
            self.publisher.scene = spec  # its strip worded as its scene words it (no scene, no pygame)
            self.server.swap(self.link, self.publisher)
            fresh = self.fresh
            if fresh is not None and fresh.companion is not None:  # its first snapshot came before (views go first)
                self.publisher.update(snapshot_from(fresh.companion), fresh.public, fresh.strip,
                                      finished=fresh.finished)

    def speak(self, message: p.SetLanguage) -> None:
        """The box's language changed (the menu's, through the deciding process): the pages' own texts
        and this process's lines speak it from now on, the pages are published again in it (their
        game's words come in it with the deciding process's next snapshot). Phones keep their seats."""
        if message.language == current_language():
            return
        if message.language not in (*LANGUAGES, PSEUDO):
            log.warning("asked for the language %r, which the box does not speak: kept %s", message.language[:20],
                        current_language())
            return
        set_language(message.language)
        with self.link.lock:
            self.publisher.publish()

    def between(self, ended: p.Ended) -> None:
        """The evening's game ended: its pages of the closed game (no move offered), with the menu's next game."""
        final = snapshot_from(ended.pages) if ended.pages is not None else self.publisher.latest
        self.fresh = None
        with self.link.lock:
            self.publisher.closed(final, self.next_game)
            if self.publisher.live:
                self.server.detach()
            self.publisher.starting, self.publisher.roll_call = False, None  # a game left in its roll call too
            self.publisher.publish()
        self.peer.connections = 0  # the next game's connection is no deciding process started again

    def end_game(self) -> None:
        """The host page's "end": the same ``Stop`` as the screen's Esc."""
        self.peer.send(p.Stop(p.EndReason.MENU))

    def keep(self, secrets: dict[str, Any]) -> None:
        """The seats' codes and the PIN changed: the deciding process keeps them (the server's thread)."""
        self.peer.send(p.Seats(secrets))

    def greeting(self) -> list[p.Message]:
        """What a deciding process (a new one too) is told after the hello: the seats' codes and the
        panel, once this server holds its seats (one started again waits for those handed back)."""
        told: list[p.Message] = []
        if self.server.settled:
            self._panel = panel_of(self.server)
            told = [p.Seats(self.server.secrets()), p.Panel(self._panel)]
        return [*told, *self.link.held()]

    def listening(self) -> None:
        """Its starter is told where it serves, once, when it holds its seats (one started again: those
        the deciding process handed back, so the PIN said is the one the room knows)."""
        with self._told_lock:
            if self._told:
                return
            self._told = True
        answer(p.Listening(self.server.board_url(), self.server.host_url(), self.server.seats.pin, self.server.port))

    def ungreeted(self, greeting: Sequence[p.Message]) -> None:
        """The greeting was not sent (the deciding process went meanwhile): what waited waits again."""
        self.link.hold_again(greeting)

    def run(self) -> int:
        """Follow the deciding process (and each one started again) until the game's end; in the
        menu's evening (``--evening``) game after game, until the menu is gone."""
        looking = threading.Thread(target=self.look_at_panel, name="buzzerbox-phones-panel", daemon=True)
        looking.start()
        try:
            while True:
                ended = self.peer.run(self.take)
                if ended is None or not self.evening:
                    break
                log.info("the game ended (%s): the phones' server waits for the evening's next", ended.reason)
                self.between(ended)
        finally:
            self.stopping.set()
            looking.join()
        if ended is not None:
            log.info("the game ended (%s): the phones' server ends", ended.reason)
        return 0

    def take(self, message: p.Message) -> None:
        self.link.flush()  # held while it connected: a deciding process listens now
        if isinstance(message, p.View):
            self.link.view = message
            if message.companion is not None:
                self.fresh = message
                with self.link.lock:
                    self.publisher.update(snapshot_from(message.companion), message.public, message.strip,
                                          finished=message.finished)
        elif isinstance(message, p.RollCallView):
            self.publisher.calling(message.view)
        elif isinstance(message, p.ShowPin):
            self.server.box_key_pin()
        elif isinstance(message, p.Answered):
            self.link.answers.put(message)
        elif isinstance(message, p.Seats):  # handed back after the hello: a server started again takes them
            self.server.settle(message.seats or None)
        elif isinstance(message, p.Serving):
            self.serve(message)
        elif isinstance(message, p.SetLanguage):
            self.speak(message)
        elif isinstance(message, p.NextGame):
            self.next = dict(message.next)
            if not self.publisher.live:
                with self.link.lock:
                    self.publisher.publish()

    def look_at_panel(self) -> None:
        """The panel changed (a seat taken, the PIN's minute on screen over): the screens are told."""
        while not self.stopping.wait(LOOK_S):
            if not self.server.settled:  # one started again: not before it holds the seats (and the PIN)
                continue
            panel = panel_of(self.server)
            if panel != self._panel and self.peer.send(p.Panel(panel)):
                self._panel = panel


def answer(message: p.Message) -> None:
    """Its answer to its starter (``Listening`` or ``Refused``): the one thing written on its stdout."""
    with contextlib.suppress(BrokenPipeError, ValueError):  # its starter gone: nobody to tell
        sys.stdout.buffer.write(channel.encode(message))
        sys.stdout.buffer.flush()


def handed(fd: int) -> p.Serving | None:
    """The game to serve, as its starter wrote it on its stdin (None: nothing readable came;
    another install's message is said in one line)."""
    try:
        serving = channel.read_from(fd, START_WAIT_S)
    except channel.VersionMismatch as exc:
        answer(p.Refused(str(exc)))
        return None
    except channel.ChannelError:
        serving = None
    if not isinstance(serving, p.Serving) or "=" not in serving.register:
        answer(p.Refused(_(NOT_HANDED)))
        return None
    return serving


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m controller.web.process",
                                     description="The phones' server of a game (started by play): a peer of its "
                                                 "deciding process. The game it serves comes on stdin (Serving), "
                                                 "its answer goes on stdout (Listening or Refused), framed as the "
                                                 "channel frames its messages.")
    parser.add_argument("--viewer-socket", required=True, help="the deciding process's viewer socket")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--bind", default="0.0.0.0")
    parser.add_argument("--address", default=None)
    parser.add_argument("--register", action="append", required=True,
                        help="GAME=PACKAGE: where a game is imported from (repeated: every game beside games/ "
                             "a Serving may name)")
    parser.add_argument("--players", type=int, required=True)
    add_peer_args(parser)
    parser.add_argument("--evening", action="store_true",
                        help="the menu's evening: serve game after game (each the deciding process's Serving), "
                             "the host page's lobby between them, until the menu is gone")
    parser.add_argument("--between", action="store_true",
                        help="with --evening: started between games (the menu started it again)")
    parser.add_argument("--kept-seats", action="store_true",
                        help="serve the seats the deciding process kept (it hands them back after the hello): "
                             "no phone is let in, and the answer waits, until they came (started again)")
    parser.add_argument("--lang", choices=(*LANGUAGES, PSEUDO), default="en", help="the box's language")
    parser.add_argument("--log-level", type=int, default=logging.INFO)
    terminal.whole_lines()
    args = parser.parse_args(argv)
    args.starter = args.starter or os.getppid()
    set_language(args.lang)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    serving = handed(sys.stdin.fileno())
    if serving is None:
        return 1
    with contextlib.ExitStack() as games:  # the games it knows: a Serving names one of them (``registry.known``)
        for pair in args.register:
            games.enter_context(register(*pair.split("=", 1)))
        phones = Phones(args, serving)
        for number in (signal.SIGTERM, signal.SIGHUP):  # as Ctrl+C: the server stopped, the phones told
            signal.signal(number, signal.default_int_handler)
        # its starter is done with the game (``PhonesProcess.stop``): what its deciding process still sends, then
        # the end; no more waiting for one to listen (a game stopped as it began closed before this connected)
        signal.signal(FINISH, lambda _number, _frame: phones.peer.finish())
        try:
            phones.server.start()
        except WebError as exc:
            answer(p.Refused(str(exc)))
            return 1
        except KeyboardInterrupt:
            return 0
        with phones.link.lock:
            phones.publisher.publish()
        if phones.server.settled:  # its own seats: where it serves is said now (one started again: once it holds them)
            phones.listening()
        try:
            return phones.run()
        except KeyboardInterrupt:
            return 0
        finally:
            # it only closes now (the game's end came, or a stop): its starter's stop, sent as it is done with
            # the game, may come during this close; ignored, the close goes on (every page told, its socket closed)
            signals.ignored_to_the_end(FINISH)
            phones.peer.finish()
            phones.server.stop()
            if args.private:  # play removes it too, unless it died first
                remove_private(Path(args.viewer_socket))


# -- the starter's side (``play``, the menu) -----------------------------------------------------


class PhonesProcess:
    """The phones' server as ``play`` (and the menu) holds it: started in a session of its own,
    listening before the game is handed over; one that dies (killed, crashed: not by itself
    after the game) is said in one line and started again at once, on the same port with the
    same seats (``keep``); ended by itself after the game (killed if it does not)."""

    def __init__(self, viewer_socket: str, serving: p.Serving, players: int, *, bind: str = "0.0.0.0",
                 address: str | None = None, private: bool = False, evening: bool = False) -> None:
        self.viewer_socket, self.serving, self.players = viewer_socket, serving, players
        self.bind, self.address, self.private, self.evening = bind, address, private, evening
        #: the port it serves on (the first one's: one started again keeps the address the phones have)
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        #: where it serves, as the terminal says it (``play``'s and the menu's line)
        self.line = ""
        #: how many times it died and was (or could not be) started again; ``gone``: the last could not be
        self.restarts = 0
        self.gone = False
        self._said: str | None = None
        self._stopping = False
        self._launching: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._keeper: threading.Thread | None = None

    @classmethod
    def start(cls, viewer_socket: str, port: int, spec: GameSpec, players: int, first: Snapshot, *,
              bind: str = "0.0.0.0", address: str | None = None, private: bool = False,
              evening: bool = False, between: bool = False) -> PhonesProcess:
        """Serving on ``port`` (0: any) the game as it starts (``first``) until the deciding process's first
        snapshot; a port that is taken is a ``WebError`` (one line, no game). ``evening``: the menu's,
        for the whole evening (``between``: started between games), on the seats the evening's deciding
        process kept (it listens all evening)."""
        phones = cls(viewer_socket, p.Serving(f"{spec.name}={package_of(spec.name)}", snapshot_message(first)),
                     players, bind=bind, address=address, private=private, evening=evening)
        phones.process = phones.launch(port, kept_seats=evening, between=between)
        phones._keeper = threading.Thread(target=phones.keep, name="buzzerbox-phones-keeper", daemon=True)
        phones._keeper.start()
        return phones

    def serves(self, spec: GameSpec, players: int, first: Snapshot) -> None:
        """The menu's next game with phones (told to the running server by the deciding process): one
        started again shows it as it starts until it is told more."""
        with self._lock:
            self.serving = p.Serving(f"{spec.name}={package_of(spec.name)}", snapshot_message(first))
            self.players = players

    def trouble(self) -> str | None:
        """The line the screens say of it while it lasts: it died and was started again (or could not be)."""
        return self._said

    def launch(self, port: int, *, kept_seats: bool, between: bool = False) -> subprocess.Popen[bytes]:
        """One server, listening on ``port`` once it answered (``line`` says where); ``kept_seats``: it serves
        the seats the deciding process kept (its answer waits for them). A refusal (a port taken), no
        answer or one that is none is a ``WebError``: one line, the process killed."""
        with self._lock:
            serving, players = self.serving, self.players
        command = [sys.executable, "-m", "controller.web.process", "--viewer-socket", self.viewer_socket,
                   "--port", str(port), "--bind", self.bind, "--players", str(players),
                   *register_args(serving.register.partition("=")[0]),
                   "--starter", str(os.getpid()), "--lang", current_language(),
                   "--log-level", str(logging.getLogger().getEffectiveLevel())]
        command += ["--address", self.address] if self.address else []
        command += ["--private"] if self.private else []
        command += ["--evening"] if self.evening else []
        command += ["--between"] if between else []
        command += ["--kept-seats"] if kept_seats else []
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        assert process.stdin is not None and process.stdout is not None
        with self._lock:
            stopping, self._launching = self._stopping, process
        try:
            if stopping:  # its starter is done with it meanwhile: not started after all
                raise WebError(_("the phones' server did not start: see the line above"))
            with contextlib.suppress(BrokenPipeError):
                process.stdin.write(channel.encode(serving))
                process.stdin.close()
            said = self.answered(process.stdout.fileno(), START_WAIT_S + (PEER_WAIT_S if kept_seats else 0))
        except BaseException:
            self.kill(process)
            raise
        finally:
            with self._lock:
                self._launching = None
        if not isinstance(said, p.Listening):
            self.kill(process)
            raise WebError(said.line)
        self.port = said.port
        self.line = _("companion pages: {url} (host page {host}, PIN {pin})").format(
            url=said.url, host=said.host, pin=said.pin)
        return process

    @staticmethod
    def answered(fd: int, wait_s: float) -> p.Listening | p.Refused:
        """The server's answer on its stdout (``fd``) within ``wait_s``: none, or one that is not an
        answer, is a ``Refused`` with the one line that says so."""
        try:
            said = channel.read_from(fd, wait_s)
        except channel.VersionMismatch as exc:
            return p.Refused(str(exc))
        except channel.ChannelError:
            return p.Refused(_(GARBLED))
        if said is None:
            return p.Refused(_("the phones' server did not start: see the line above"))
        return said if isinstance(said, (p.Listening, p.Refused)) else p.Refused(_(GARBLED))

    def keep(self) -> None:
        """(its own thread, while the server is held) A server that died but not by itself after the game
        (exit 0) is said in one line on the terminal and the screens, and started again at once on the
        same port, serving the seats the deciding process kept: the phones reconnect to theirs. One
        that cannot be started again is said so; nothing serves the phones from then on."""
        while True:
            with self._lock:
                process = self.process
            assert process is not None
            code = process.wait()
            with self._lock:
                if self._stopping or code == 0:
                    return
            try:
                again = self.launch(self.port, kept_seats=True, between=self.evening)
            except WebError as exc:
                if not self._stopping:
                    print(f"buzzerbox {terminal.command}: {exc}", file=sys.stderr, flush=True)
                with self._lock:
                    self.restarts, self.gone, self._said = self.restarts + 1, True, str(exc)
                return
            with self._lock:
                stopping = self._stopping
                if not stopping:
                    self.process = again
            if process.stdout is not None:
                process.stdout.close()
            if stopping:  # stopped as it started: it ends too
                self.kill(again)
                return
            said = _(PHONES_RESTARTED).format(code=code)
            print(f"buzzerbox {terminal.command}: {said}", file=sys.stderr, flush=True)
            print(self.line, file=sys.stderr, flush=True)  # the same address and PIN
            with self._lock:  # said on the screens (and the menu's rows) once the terminal has both lines
                self.restarts, self._said = self.restarts + 1, said

    @staticmethod
    def kill(process: subprocess.Popen[bytes]) -> None:
        """Killed with every process of its session, waited for, its stdout closed."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if process.stdout is not None:
            process.stdout.close()

    def stop(self, wait_s: float = END_WAIT_S) -> None:
        """After the game (its deciding process has exited): it ends by itself once the game's end
        came, or at once if none will (told so: ``FINISH``; a game stopped as it began closed before
        the server connected, and ``play`` waited 10 s for it), waited for ``wait_s``; asked
        (SIGTERM), then killed, if not. It is not started again from now on."""
        with self._lock:
            self._stopping = True
            process, launching = self.process, self._launching
        if launching is not None:  # being started again: never mind
            with contextlib.suppress(ProcessLookupError):
                os.killpg(launching.pid, signal.SIGKILL)
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, FINISH)  # (it answered Listening: its handler is in)
            try:
                process.wait(wait_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
                try:
                    process.wait(END_WAIT_S)
                except subprocess.TimeoutExpired:
                    self.kill(process)
        if self._keeper is not None and self._keeper is not threading.current_thread():
            self._keeper.join(END_WAIT_S)
        if process is not None and process.stdout is not None:
            process.stdout.close()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BuzzerBoxError as exc:
        print(f"buzzerbox: {exc}", file=sys.stderr)
        sys.exit(1)
