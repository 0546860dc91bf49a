"""The league's peer of a match's deciding process (docs/league.md, docs/processes.md "Peers").

``play --league`` starts ``python -m controller.league.follow`` in a session
of its own, so that a screen killed mid-match does not take it along: it
follows the game's deciding process on its viewer socket as a board
follower (``controller.peer.PeerLink``), runs the room's ``BoxLink`` (the
match being played, each new board to the hall's scoreboard, the broker
out of reach said on the game's screen as a ``PeerLine``), and when the
game's ``Ended`` comes publishes the room's results, waiting a bounded time
for the broker. It ends by itself: at the game's end, when no deciding
process listens for ``--wait-s`` (the game is over for good), or on SIGTERM
(``play`` is done: what its last deciding process still sent is read first).

Its exit status says how the results went (``play`` says the line): 0 the
broker took them, ``FOLLOWER_UNREACHABLE`` it could not be reached (stdout's last
line says why, in the box's language).
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from controller import protocol as p
from controller.league.commands import FOLLOWER_UNREACHABLE, box_link, room_folder
from controller.peer import PEER_WAIT_S, PeerLink, add_peer_args, remove_private
from controller.system import signals, terminal
from games.base import BuzzerBoxError
from games.i18n import LANGUAGES, PSEUDO, set_language

if TYPE_CHECKING:
    from controller.league.link import BoxLink
    from controller.league.tournament import Match

log = logging.getLogger("buzzerbox.league")

#: how long the results wait for the broker at the game's end (a box that reconnects sends them then)
BROKER_WAIT_S = 5.0
#: how often the wait for the broker looks whether an attempt to connect failed meanwhile
RESULTS_LOOK_S = 0.05
#: how often the broker's trouble is looked at for the screen's line
TROUBLE_EVERY_S = 0.25
#: the screens' line's source
SOURCE = "league"


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m controller.league.follow",
                                     description="The league's peer of a match's deciding process (started by "
                                                 "play --league): the hall's live view and the match's result.")
    parser.add_argument("--league", required=True, metavar="FILE", help="the tournament file")
    parser.add_argument("--room", required=True, help="the room this box serves")
    parser.add_argument("--match", required=True, help="the match being played")
    parser.add_argument("--journals", required=True, metavar="DIR", help="the box's journal folder")
    parser.add_argument("--socket", required=True, metavar="PATH", help="the deciding process's viewer socket")
    add_peer_args(parser)
    parser.add_argument("--wait-s", type=float, default=PEER_WAIT_S,
                        help="give up once no deciding process listened this long (and the parent is gone, "
                             "with --while-parent)")
    parser.add_argument("--while-parent", action="store_true",
                        help="no bound while the process that started this one lives (play: it starts the "
                             "deciding processes; a roll call may take minutes)")
    parser.add_argument("--broker-wait-s", type=float, default=BROKER_WAIT_S,
                        help="how long the results wait for the broker at the game's end")
    parser.add_argument("--beside", action="store_true",
                        help="the room's own link runs beside this one (the menu's): its status and the "
                             "organiser's messages are that link's; this one sends the live board and the results")
    parser.add_argument("--lang", choices=(*LANGUAGES, PSEUDO), default="en")
    parser.add_argument("--log-level", type=int, default=logging.INFO)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    terminal.whole_lines()  # its lines and play's share one stderr
    args = parse(argv)
    set_language(args.lang)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    from controller.league.tournament import load

    t = load(args.league)
    folder = room_folder(t, args.room, Path(args.journals))
    # play, with --while-parent: once it is gone this process is another's child (its pid, given: play may have
    # died while this one imported and loaded, and a parent read now would be the one that adopted it)
    parent = args.starter or os.getppid()
    peer = PeerLink(args.socket, p.BOARD, f"league {args.room}", wait_s=args.wait_s,
                    keep_waiting=(lambda: os.getppid() == parent) if args.while_parent else None)

    # a stopping signal (play's SIGTERM: it is done with the game) is recorded: what its deciding process
    # sent is read, then the end. play started this process with them blocked: unblocked here
    signals.install(raising=False)
    signals.wake_on_signal(peer.finish)
    if signals.received() is not None:  # it came as they were unblocked, before anyone was there to wake
        peer.finish()
    link = box_link(t, folder, room_voice=not args.beside).start()
    stop = threading.Event()
    watcher = threading.Thread(target=mind_trouble, args=(link, peer, stop), name="league-trouble", daemon=True)
    try:
        link.playing(args.match)
        watcher.start()

        worded = board_wording(t.match(args.match))

        def take(message: p.Message) -> None:
            if isinstance(message, p.View) and message.board is not None:
                link.live(worded(message))

        ended = peer.run(take)
        if ended is None and not peer.final:  # gone for good (play, told, knows: no line then)
            log.warning("league %s: match %s: the game's end was not seen; its result is sent if its journal "
                        "ended", args.room, args.match)
        stop.set()
        watcher.join()
        link.playing(None)
        reached = reach(link, args.broker_wait_s)
        link.publish_results()  # every ended journal's (acknowledged as the link stops, at most its drain)
        why = link.conn.problem()
    finally:
        stop.set()
        link.stop()
        if args.private:
            remove_private(Path(args.socket))
    # decided: play's stop, sent as it is done with the game, may come as this process exits, when
    # Python has put its handlers back to the default: ignored, the status that says how it went stays
    signals.ignored_to_the_end()
    if reached:
        return 0
    with contextlib.suppress(OSError):  # play is gone, its pipe with it
        print(why, flush=True)
    return FOLLOWER_UNREACHABLE


def board_wording(match: Match | None) -> Callable[[p.View], str]:
    """A view's board as the room's screen words each player's cell (the game's scene's labels: a
    reaction time, a lockout running out; at a finished game's end the results screen's "WON"), as
    the hall saw it when the board was followed in the screen's process: the game's own wording, the
    one its scene calls (``GameSpec.adjust_strip``), and the results screen's (``views.strip_as_drawn``),
    so no scene and no pygame here; the board as built for a game this process does not know."""
    from controller.box.views import board_as_shown

    try:
        from games import registry

        spec = registry.get(match.game) if match is not None else None
    except BuzzerBoxError:
        spec = None

    def worded(view: p.View) -> str:
        assert view.board is not None
        if spec is None:
            return view.board
        return board_as_shown(view.board, spec, spec, view.public, view.strip, finished=view.finished)

    return worded


def reach(link: BoxLink, wait_s: float) -> bool:
    """Whether the broker is connected: waited for at most ``wait_s``, until it connects or an attempt fails."""
    give_up = time.monotonic() + wait_s
    conn = link.conn
    while not conn.connected.is_set() and not conn.failed.is_set() and time.monotonic() < give_up:
        conn.connected.wait(min(RESULTS_LOOK_S, max(0.0, give_up - time.monotonic())))
    return conn.connected.is_set()


def mind_trouble(link: BoxLink, peer: PeerLink, stop: threading.Event) -> None:
    """The broker out of reach (``BoxLink.trouble``), said on the game's screen while it lasts."""
    said: str | None = None
    while not stop.wait(TROUBLE_EVERY_S):
        line = link.trouble()
        if line != said:
            peer.say(SOURCE, line)
            said = line


if __name__ == "__main__":
    sys.exit(main())
