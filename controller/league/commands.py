"""``buzzerbox league ...`` and ``play --league FILE --room R``.

``play`` itself knows nothing of tournaments: ``in_league`` wraps it, choosing
the room's next match (game, options, stations, journal) before it starts,
and starting the league's peer of its deciding process
(``controller.league.follow``, a process of its own in a session of its
own): it sends the game's public board to the hall's scoreboard, says the
broker out of reach on the game's screen, and publishes the results when
the game ends, a screen killed mid-match or not. The results come from the
journals, and again on every reconnect.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.apps.common import UsageError
from controller.box.session import journal_dir
from games.i18n import N_, _, ngettext

if TYPE_CHECKING:  # the league's modules load when a league command runs, not with every command line
    from controller.league.outbox import RoomFolder
    from controller.league.tournament import Match, Tournament

log = logging.getLogger("buzzerbox.league")


def room_folder(t: Tournament, room: str, base: Path | None = None) -> RoomFolder:
    """The room's journals: ``<journal folder>/league/<tournament>/<room>``."""
    from controller.league.outbox import RoomFolder

    t.room(room)  # a room the file does not have: one line naming the rooms
    return RoomFolder(t, room, (base or journal_dir()) / "league" / t.id / room)


def box_link(t: Tournament, folder: RoomFolder, **kw: Any) -> Any:
    from controller.league.link import BoxLink
    from controller.league.tournament import read_secret

    return BoxLink(t, folder, read_secret(t.room(folder.room).password_file, folder.room), **kw)


# -- play --league --------------------------------------------------------------------------
def add_box_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--league", metavar="FILE", help=_("play this room's next match of a tournament file "
                                                      "(publishes its live view and result: docs/league.md)"))
    p.add_argument("--room", help=_("with --league: the room this box serves"))


def in_league(cmd: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``cmd`` (``play``) as it is, or, with ``--league``, playing the room's next match."""
    def run(args: argparse.Namespace) -> int:
        if getattr(args, "league", None) is None:
            if getattr(args, "game", "") is None and getattr(args, "resume", None):
                args.game = journaled_game(args.resume)  # `play --resume JOURNAL`: the journal names its game
            if getattr(args, "game", "") is None:
                raise UsageError(_("play needs a GAME (or --league FILE --room R)"))
            return cmd(args)
        if not args.room:
            raise UsageError(_("--league needs --room R: the room this box serves"))
        from controller.league.tournament import load, match_settings

        t = load(args.league)
        folder = room_folder(t, args.room)
        crashed = folder.unfinished()
        match = folder.match(crashed[-1].match) if crashed else folder.next_match()
        if match is None and playoff_ahead(t, folder):
            match = await_draw(t, folder)
        if match is None:
            return all_played(t, folder, args.room)
        players, options = match_settings(t, match)
        args.game = match.game
        if args.players is None:
            args.players = players
        if crashed:  # a match cut off by a crash or power cut: carried on in its own journal
            args.resume = str(crashed[-1].path)
            print(_("{room}: match {match} did not end: resuming it from {journal}").format(
                room=args.room, match=match.id, journal=args.resume), file=sys.stderr)
        else:
            args.option = [*(f"{k}={json.dumps(v)}" for k, v in options.items()), *args.option]
            args.journal = str(folder.new_journal(match))
        from controller.peer import private_socket

        private = args.viewer_socket is None
        if private:  # the deciding process takes its peer here
            args.viewer_socket = str(private_socket())
        follower = start_follower(args.league, args.room, match.id, journal_dir(), args.viewer_socket,
                                  private=private)  # the journal folder room_folder took above
        print(_("{room}: match {match}: {teams}").format(
            room=args.room, match=match.id, teams=_(" v ").join(t.team(x).name for x in match.teams)), file=sys.stderr)
        try:
            return cmd(args)
        finally:
            follower_done(follower, args.room)
    return run


#: how long ``play`` waits for the league's peer at its end (it publishes the results, waiting for the broker
#: at most ``follow.BROKER_WAIT_S``): past it the peer is ended (a fail-safe: it ends by itself)
FOLLOWER_END_S = 60.0
#: the league's peer's exit status when the broker could not be reached for the results (stdout's last line: why)
FOLLOWER_UNREACHABLE = 3


def start_follower(league: str, room: str, match: str, journals: Path, socket_path: str, *,
                   private: bool = False, beside: bool = False) -> subprocess.Popen[str]:
    """The league's peer of the match's deciding process (``controller.league.follow``), in a session
    of its own: a screen killed mid-match does not take it along. The deciding process takes it on its
    viewer socket, ``socket_path`` (``private``: in a folder made for it, removed by the peer at its end;
    ``beside``: the menu's own link speaks for the room)."""
    from controller.system import signals
    from games.i18n import current_language

    command = [sys.executable, "-m", "controller.league.follow", "--league", str(league), "--room", room,
               "--match", match, "--journals", str(journals), "--socket", socket_path,
               "--lang", current_language(), "--log-level", str(logging.getLogger().getEffectiveLevel()),
               "--while-parent", "--starter", str(os.getpid()), *(["--private"] if private else []), *(["--beside"] if beside else [])]
    # beside the menu's own link, which sends the result too: the menu does not wait for the broker at a match's end
    command += ["--broker-wait-s", "0"] if beside else []
    with signals.blocked_for_child():  # a stop sent as it starts waits for its handlers
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                                start_new_session=True)


def follower_done(follower: subprocess.Popen[str], room: str) -> None:
    """``play`` is done with the game (its deciding process has exited): the league's peer reads what it
    sent, publishes the results and ends; the broker out of reach is said here, in one line."""
    follower.send_signal(signal.SIGTERM)
    try:
        out, _err = follower.communicate(timeout=FOLLOWER_END_S)
    except subprocess.TimeoutExpired:
        os.killpg(follower.pid, signal.SIGKILL)
        follower.wait()
        log.warning("league: the link to the hall did not end within %.0f s: ended", FOLLOWER_END_S)
        return
    if follower.returncode == FOLLOWER_UNREACHABLE:
        why = (out.strip().splitlines() or [""])[-1]
        print(_("{room}: the broker is not reachable now ({why}); the result is in the journal and is sent "
                "the next time this box connects").format(room=room, why=why), file=sys.stderr)


#: how long a box whose matches are all played waits for the broker to take what it still owes
DELIVER_WAIT_S = 20.0
#: how long the playoff's room waits, once subscribed, for the hub's retained draw (none: not drawn yet)
DRAW_WAIT_S = 5.0


def playoff_ahead(t: Tournament, folder: RoomFolder) -> bool:
    """This room hosts the playoff and the bracket it knows has no champion yet."""
    return t.playoff is not None and t.playoff.room == folder.room and "final" not in folder.bracket.decided


def await_draw(t: Tournament, folder: RoomFolder) -> Match | None:
    """The playoff's room with nothing to play: connect and take the hub's latest draw (retained, so it
    comes right after the subscription when there is one); its next match, or None when none is drawn."""
    link = box_link(t, folder).start()
    try:
        if link.conn.subscribed.wait(DELIVER_WAIT_S):
            with link.schedule_handled:
                link.schedule_handled.wait_for(lambda: folder.next_match() is not None, DRAW_WAIT_S)
        match = folder.next_match()
        if match is None:
            print(_("{room}: the playoff's next match is not drawn yet (the matches before it are not all "
                    "decided); start again once the hub shows it").format(room=folder.room), file=sys.stderr)
        return match
    finally:
        link.stop()


def all_played(t: Tournament, folder: RoomFolder, room: str) -> int:
    """Every match played: first the results no broker has acknowledged (played offline) go out;
    "the hub has the results" is said only when it is true."""
    owed = folder.undelivered()
    if owed:
        print(ngettext("{room}: sending {n} result the hub may not have yet ...",
                       "{room}: sending {n} results the hub may not have yet ...", len(owed)).format(
                           room=room, n=len(owed)), file=sys.stderr)
        link = box_link(t, folder).start()
        try:
            owed = link.deliver(DELIVER_WAIT_S)
            why = link.conn.problem()
        finally:
            link.stop()
        if owed:
            print(ngettext("{room}: {n} result is not delivered: {why}; it stays in its journal and goes out on "
                           "the next connect (play --league or the menu)",
                           "{room}: {n} results are not delivered: {why}; they stay in the journals and go out on "
                           "the next connect (play --league or the menu)", len(owed)).format(
                               room=room, n=len(owed), why=why), file=sys.stderr)
            return 1
    if not playoff_ahead(t, folder):  # the playoff's room said what it waits for (await_draw)
        print(_("{room}: every match of this room is played; the hub has the results").format(room=room),
              file=sys.stderr)
    return 0


def journaled_game(path: str) -> str:
    from controller.box import journal as journal_mod

    session = journal_mod.read(path).session
    if session is None:
        raise UsageError(_("{path} holds no game to resume").format(path=path))
    return session.game


class MenuRoom:
    """The kiosk menu in a tournament: with people, Start plays the room's next
    match (its game, stations and options; the host's sound and phones kept);
    once every match is played, Start plays what the menu rows say."""

    def __init__(self, t: Tournament, folder: RoomFolder, link: Any, *, league: str | None = None,
                 journals: Path | None = None, socket_path: str | None = None) -> None:
        self.t, self.folder, self.link = t, folder, link
        #: the tournament file, the journal folder and the evening's viewer socket: the league's peer of each
        #: match (None: its matches are not followed)
        self.league, self.journals, self.socket_path = league, journals, socket_path
        self.path: Path | None = None
        self.match: str | None = None

    def take(self, choice: Any) -> Any:
        """What Start plays: the room's next match. The playoff's room whose next match the hub has not
        drawn yet refuses (``OptionError``, worded in the menu's language), the draw comes on its link."""
        match = self.folder.next_match()
        if match is None and playoff_ahead(self.t, self.folder):
            from games.base import OptionError

            raise OptionError(N_("the playoff's next match is not drawn yet (the matches before it are not all "
                                 "decided): Start again once the hub shows it"))
        if match is None:
            self.path = None
            return choice
        from controller.league.tournament import match_settings

        players, options = match_settings(self.t, match)
        self.path, self.match = self.folder.new_journal(match), match.id
        self.link.playing(match.id)
        log.info("league: match %s: %s", match.id, " v ".join(match.teams))
        return dataclasses.replace(choice, game=match.game, players=players, options=options)

    def following(self, path: Path) -> subprocess.Popen[str] | None:
        """The league's peer of the match about to be played in ``path`` (its board to the hall, its
        result when it ends, a menu killed meanwhile or not); None: not the room's match."""
        if (self.path is None or self.match is None or path != self.path or self.league is None
                or self.journals is None or self.socket_path is None):
            return None
        return start_follower(self.league, self.folder.room, self.match, self.journals, self.socket_path,
                              beside=True)

    def followed(self, follower: subprocess.Popen[str]) -> None:
        """The match's game is over: its peer ends (the result is published by both links)."""
        follower_done(follower, self.folder.room)

    def done(self) -> None:
        if self.path is not None:
            self.link.playing(None)
            self.link.publish_results()
            self.path = None


def in_league_menu(cmd: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """``cmd`` (``menu``) as it is, or, with ``--league``, serving a tournament's room."""
    def run(args: argparse.Namespace) -> int:
        if getattr(args, "league", None) is None:
            return cmd(args)
        if not args.room:
            raise UsageError(_("--league needs --room R: the room this box serves"))
        from controller.league.tournament import load
        from controller.peer import given_or_private

        t = load(args.league)
        folder = room_folder(t, args.room, Path(args.journal_dir))
        with given_or_private(args):  # the evening's deciding process takes each match's peer here
            link = box_link(t, folder).start()
            args.league_room = MenuRoom(t, folder, link, league=args.league, journals=Path(args.journal_dir),
                                        socket_path=args.viewer_socket)
            try:
                return cmd(args)
            finally:
                link.stop()
    return run


# -- buzzerbox league ... ------------------------------------------------------------------
def cmd_check(args: argparse.Namespace) -> int:
    from controller.league.tournament import problems, summary

    tournament, found = problems(args.file)
    if tournament is None:
        for line in found:
            print(f"{args.file}: {line}")
        return 1
    print(summary(tournament))
    return 0


def cmd_keygen(args: argparse.Namespace) -> int:
    from controller.league import signing

    public = signing.new_key(Path(args.out))
    print(_("private key: {path} (keep it on the organiser's laptop only)").format(path=args.out), file=sys.stderr)
    print(f'public_key = "{public}"')
    return 0


def cmd_reschedule(args: argparse.Namespace) -> int:
    """Move matches (signed), publish the change retained: every box and the hub take it."""
    from controller.league import messages, signing
    from controller.league.link import Connection
    from controller.league.tournament import load, read_secret

    t = load(args.file)
    key = signing.load_key(Path(args.key))
    if signing.public_of(key) != t.organiser_key:
        raise UsageError(_("{key} is not the organiser's key the tournament file names").format(key=args.key))
    moves = []
    for text in args.move:
        match_id, _sep, rest = text.partition("=")
        room, _sep, slot = rest.partition(":")
        m = t.match(match_id)
        if m is None or not room or room not in {r.id for r in t.rooms} or (slot and not slot.isdigit()):
            raise UsageError(_("--move wants MATCH=ROOM[:SLOT] with a match and a room of the file, got {text!r}")
                             .format(text=text))
        moves.append(messages.Move(match_id, room, int(slot) if slot else m.slot))
    body = messages.signed_body(args.revision, moves, t.id)
    conn = Connection(t.broker, t.organiser_user, read_secret(t.organiser_password_file, t.organiser_user),
                      f"buzzerbox-{t.id}-organiser")
    conn.start()
    if not conn.connected.wait(args.timeout):
        conn.stop(0)
        raise UsageError(_("the broker {host}:{port} did not answer within {s} s").format(
            host=t.broker.host, port=t.broker.port, s=args.timeout))
    info = conn.client.publish(messages.schedule_topic(t.id),
                               messages.schedule_payload(body, signing.sign(key, body)), qos=1, retain=True)
    info.wait_for_publish(args.timeout)
    conn.stop()
    print(_("schedule revision {n} published ({k} moves)").format(n=args.revision, k=len(moves)))
    return 0


def cmd_broker_config(args: argparse.Namespace) -> int:
    from controller.league.broker import write_broker_files
    from controller.league.tournament import load

    t = load(args.file)
    for path in write_broker_files(t, Path(args.out), port=args.port):
        print(path)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """A match to be played again: its journals set aside; the next play takes it with the next seq."""
    from controller.league.tournament import load

    t = load(args.file)
    folder = room_folder(t, args.room, Path(args.journal_dir) if args.journal_dir else None)
    if t.match(args.match) is None or args.match not in {m.id for m in folder.schedule()}:
        raise UsageError(_("room {room} plays no match {match}").format(room=args.room, match=args.match))
    moved = folder.replay(args.match)
    if not moved:
        raise UsageError(_("match {match} has no ended journal in room {room}: nothing to play again").format(
            match=args.match, room=args.room))
    print(_("match {match} is played again next in room {room} (the old journal kept in {folder}); its result "
            "replaces the old one").format(match=args.match, room=args.room, folder=moved[0].parent))
    return 0


def cmd_rehearse(args: argparse.Namespace) -> int:
    from controller.league.rehearse import rehearse
    from controller.league.tournament import load

    t = load(args.file)
    stay = threading.Event()  # SIGTERM and Ctrl+C raise KeyboardInterrupt (controller.system.signals): never set in a handler
    if not args.stay:
        stay.set()
    try:
        return rehearse(t, args.port, args.bind, args.seed, args.pace, stay)
    except KeyboardInterrupt:
        return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from controller.league.pages import serve_forever
    from controller.league.tournament import load

    t = load(args.file)
    # SIGTERM (exit 0) and Ctrl+C (130) raise KeyboardInterrupt in here (controller.system.signals, as every command):
    # serve_forever stops the hub in full whatever it was doing; an Event set in a handler could deadlock
    serve_forever(t, Path(args.ledger) if args.ledger else None, args.port, args.bind, threading.Event())
    return 0


def add_league_commands(sub: Any) -> None:
    league = sub.add_parser("league", help=_("a tournament across boxes: check the file, serve the scoreboard, "
                                             "sign schedule changes (docs/league.md)"))
    actions = league.add_subparsers(dest="league_command", required=True, metavar="ACTION")
    p = actions.add_parser("check", help=_("check a tournament file: one line per problem, or OK and a summary"))
    p.add_argument("file", help=_("the tournament file (.toml)"))
    p.set_defaults(func=cmd_check)
    p = actions.add_parser("serve", help=_("the hub: subscribe, keep the standings, serve the scoreboard and "
                                           "the organiser's page"))
    p.add_argument("file", help=_("the tournament file (.toml)"))
    p.add_argument("--port", type=int, default=8090, help=_("the pages' port (default %(default)s)"))
    p.add_argument("--bind", default="0.0.0.0", help=_("the address to listen on (default %(default)s)"))
    p.add_argument("--ledger", help=_("the hub's journal (default: beside the tournament file)"))
    p.set_defaults(func=cmd_serve)
    p = actions.add_parser("keygen", help=_("make the organiser's signing key; prints the line for the file"))
    p.add_argument("--out", required=True, help=_("where the private key goes (must not exist)"))
    p.set_defaults(func=cmd_keygen)
    p = actions.add_parser("reschedule", help=_("move matches to another room or slot, signed, to every box"))
    p.add_argument("file", help=_("the tournament file (.toml)"))
    p.add_argument("--key", required=True, help=_("the organiser's private key (league keygen)"))
    p.add_argument("--revision", type=int, required=True,
                   help=_("this change's number, higher than the last; it lists every move so far"))
    p.add_argument("--move", action="append", default=[], metavar="MATCH=ROOM[:SLOT]", help=_("a match's new place"))
    p.add_argument("--timeout", type=float, default=10.0, help=_("seconds to wait for the broker"))
    p.set_defaults(func=cmd_reschedule)
    p = actions.add_parser("replay", help=_("on a box: have a match played again (the next play takes it, "
                                            "its result numbered next and replacing the old one)"))
    p.add_argument("file", help=_("the tournament file (.toml)"))
    p.add_argument("--room", required=True, help=_("the room this box serves"))
    p.add_argument("--match", required=True, help=_("the match to play again"))
    p.add_argument("--journal-dir", default=None, help=_("the journal folder (default: the box's)"))
    p.set_defaults(func=cmd_replay)
    p = actions.add_parser("rehearse", help=_("play the whole tournament with simulated boxes on this machine "
                                              "(its own broker and hub), before the day"))
    p.add_argument("file", help=_("the tournament file (.toml)"))
    p.add_argument("--port", type=int, default=8090, help=_("the pages' port (default %(default)s)"))
    p.add_argument("--bind", default="127.0.0.1", help=_("the address to listen on (default %(default)s)"))
    p.add_argument("--seed", type=int, default=1, help=_("the simulated players' seed"))
    p.add_argument("--pace", type=float, default=0.0, help=_("with --stay: seconds between rounds, to watch"))
    p.add_argument("--stay", action="store_true", help=_("keep the pages up after the last round, until Ctrl+C"))
    p.set_defaults(func=cmd_rehearse)
    p = actions.add_parser("broker-config", help=_("write the broker's config, ACL and password files for "
                                                   "this tournament, and each box's password file"))
    p.add_argument("file", help=_("the tournament file (.toml)"))
    p.add_argument("--out", required=True, help=_("a folder for the files"))
    p.add_argument("--port", type=int, default=None, help=_("the broker's port (default: the file's)"))
    p.set_defaults(func=cmd_broker_config)


__all__ = ["add_box_args", "add_league_commands", "in_league", "in_league_menu"]
