"""``buzzerbox league rehearse FILE``: the whole tournament played by simulated
boxes on this machine, before the day: its own Mosquitto on a loopback port
(the file's rooms, teams, schedule and games; none of its broker, passwords
or journals touched), the hub with its pages, and one simulated box per room
playing its matches round by round through the league's own publisher. At
the end it holds the hub's standings against a recount from the journals."""

from __future__ import annotations

import dataclasses
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from controller.apps.common import UsageError
from controller.league.bracket import Tie, champion
from controller.league.broker import write_broker_files
from controller.league.link import BoxLink
from controller.league.outbox import RoomFolder
from controller.league.pages import HubService
from controller.league.simulated import play_next
from controller.league.standings import effective, table
from controller.league.tournament import Broker, Tournament, read_secret
from games.i18n import _, ngettext

#: a fail-safe for a machine that cannot start a broker or deliver a result, never a measure
WAIT_S = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rehearsal_of(t: Tournament, folder: Path) -> Tournament:
    """The tournament with its own broker and accounts: loopback, no TLS, passwords in ``folder``."""
    rooms = tuple(dataclasses.replace(r, password_file=folder / f"{r.user}.password") for r in t.rooms)
    return dataclasses.replace(
        t, broker=Broker("127.0.0.1", free_port()), rooms=rooms,
        hub_password_file=folder / f"{t.hub_user}.password",
        organiser_password_file=folder / f"{t.organiser_user}.password")


def start_broker(t: Tournament, folder: Path) -> subprocess.Popen[bytes]:
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(mosquitto).is_file():
        raise UsageError(_("a rehearsal runs its own Mosquitto: install it (sudo apt-get install mosquitto)"))
    write_broker_files(t, folder, port=t.broker.port)
    conf = folder / "mosquitto.conf"
    text = conf.read_text().replace(f"listener {t.broker.port}", f"listener {t.broker.port} 127.0.0.1")
    if os.geteuid() == 0:  # as root Mosquitto would drop to its own user, who cannot read a private temp folder
        text += "user root\n"
    conf.write_text(text)
    proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + WAIT_S
    while True:  # ready when it accepts (a readiness wait, bounded)
        try:
            socket.create_connection(("127.0.0.1", t.broker.port), timeout=1).close()
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                proc.wait()
                raise UsageError(_("Mosquitto did not start for the rehearsal")) from None
            time.sleep(0.05)


def next_drawn(link: BoxLink) -> bool:
    """The playoff's room has played all it knows: wait for the hub's next draw (its results counted, the
    bracket published retained). True: a match to play (the next round, or a decider); False: the champion
    is known (or the hub drew nothing within the fail-safe)."""
    folder = link.folder
    if "final" in folder.bracket.decided:
        return False
    with link.schedule_handled:
        link.schedule_handled.wait_for(lambda: folder.next_match() is not None or "final" in folder.bracket.decided,
                                       WAIT_S)
    return folder.next_match() is not None


def say_playoff(t: Tournament, bracket: Sequence[Tie], played: Sequence[str]) -> str | None:
    """Each playoff match as it ended (with its deciders) and the champion; the champion's id."""
    for tie in bracket:
        teams = _(" v ").join(t.team(x).name for x in tie.teams) if tie.teams else _("not drawn yet")
        scores = ":".join(str(s) for s in tie.scores) if tie.scores else "-"
        deciders = played.count(tie.id) - 1
        line = _("rehearsal: playoff {match}: {teams} {scores}").format(match=tie.id, teams=teams, scores=scores)
        if deciders > 0:
            line += " " + ngettext("(after {n} decider)", "(after {n} deciders)", deciders).format(n=deciders)
        print(line)
    winner = champion(bracket)
    if bracket:
        print(_("rehearsal: the champion is {team}").format(team=t.team(winner).name) if winner else
              _("rehearsal: the playoff has no champion: a match was not decided"))
    return winner


def rehearse(t: Tournament, port: int, bind: str, seed: int, pace_s: float, stay: threading.Event | None) -> int:
    with tempfile.TemporaryDirectory(prefix="buzzerbox-rehearsal-") as name:
        folder = Path(name)
        r = rehearsal_of(t, folder / "broker")
        broker = start_broker(r, folder / "broker")
        service = None
        links = []
        try:
            service = HubService(r, folder / "hub.jsonl", port, bind, reconnect_s=(1, 1)).start()
            password = (folder / "broker" / f"{r.organiser_user}.password").read_text().strip()
            print(_("rehearsal: hall screen http://{bind}:{port}/ , organiser http://{bind}:{port}/organiser "
                    "(user {user}, password {password}, for this rehearsal only)").format(
                        bind=bind, port=service.port, user=r.organiser_user, password=password), file=sys.stderr)
            folders = {room.id: RoomFolder(r, room.id, folder / "journals" / room.id) for room in r.rooms}
            links = [BoxLink(r, f, read_secret(room.password_file, room.user), reconnect_s=(1, 1)).start()
                     for room, f in zip(r.rooms, folders.values(), strict=True)]
            played: list[tuple[str, int]] = []  # (match, seq) of every journal played, deciders included
            rounds = 0
            playoff_room = next((link for link, f in zip(links, folders.values(), strict=True)
                                 if t.playoff is not None and t.playoff.room == f.room), None)
            while True:
                round_played = 0
                for link, room_folder_ in zip(links, folders.values(), strict=True):
                    match = room_folder_.next_match()
                    if match is None:
                        continue
                    link.playing(match.id)
                    play_next(room_folder_, seed + len(played), watch=link.watch)
                    link.playing(None)
                    link.publish_results()
                    played.append((match.id, max(p.seq for p in room_folder_.played() if p.match == match.id)))
                    round_played += 1
                if not round_played and not (playoff_room is not None and next_drawn(playoff_room)):
                    break
                if not round_played:
                    continue
                rounds += 1
                print(ngettext("rehearsal: round {n}: {k} match played", "rehearsal: round {n}: {k} matches played",
                               round_played).format(n=rounds, k=round_played), file=sys.stderr)
                if pace_s and stay is not None and stay.wait(pace_s):
                    break
            hub = service.hub
            with hub.changed:
                hub.changed.wait_for(lambda: all(m in hub.results and hub.results[m].seq >= seq
                                                 for m, seq in played), WAIT_S)
            recount = table(r, effective({x.match: x for f in folders.values() for x in f.results()}, {}, r))
            same = [row.to_json() for row in hub.standings()] == [row.to_json() for row in recount]
            group = {m.id for m in r.matches}
            counted = sum(1 for m in hub.results if m in group)
            print(ngettext("rehearsal: {n} of {m} match played in {rooms} rooms; the hub counted {k}",
                           "rehearsal: {n} of {m} matches played in {rooms} rooms; the hub counted {k}",
                           len(r.matches)).format(
                n=len({m for m, _seq in played if m in group}), m=len(r.matches), rooms=len(r.rooms), k=counted))
            for row in hub.standings():
                print(f"{row.rank:3d}  {row.name[:40]:40s} {row.played:3d} {row.points:4d} {row.difference:+5d}")
            print(_("rehearsal: the hub's standings equal a recount from the journals") if same else
                  _("rehearsal: the hub's standings DIFFER from a recount from the journals"))
            champion = say_playoff(r, hub.bracket(), [m for m, _seq in played])
            if stay is not None and not stay.is_set():
                print(_("rehearsal: the pages stay up until Ctrl+C"), file=sys.stderr)
                while not stay.wait(1.0):
                    pass
            return 0 if same and counted == len(group) and (r.playoff is None or champion) else 1
        finally:
            for link in links:
                link.stop()
            if service is not None:
                service.stop()
            broker.terminate()
            broker.wait(WAIT_S)
