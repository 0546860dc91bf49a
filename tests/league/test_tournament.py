"""Three simulated boxes, a real Mosquitto, the hub: the broker stopped and
restarted mid-tournament, the hub restarted, and the standings at the end
equal those computed from the three rooms' journals alone."""

from __future__ import annotations

import ssl
from collections.abc import Callable
from pathlib import Path

import pytest

from controller.league import messages
from controller.league.commands import box_link, room_folder
from controller.league.hub import Hub
from controller.league.link import BoxLink
from controller.league.outbox import RoomFolder
from controller.league.pages import HubService
from controller.league.simulated import play_next
from controller.league.standings import effective, table
from controller.league.tournament import Tournament, load
from tests.league.conftest import WAIT_S, Mosquitto

pytestmark = pytest.mark.runtime("mosquitto")


def wait_for(hub: Hub, what: Callable[[], bool], why: str) -> None:
    with hub.changed:
        assert hub.changed.wait_for(what, WAIT_S), why


def connected(link: BoxLink) -> None:
    assert link.conn.connected.wait(WAIT_S), f"room {link.room} never connected"


def start_hub(t: Tournament, ledger: Path) -> HubService:
    return HubService(t, ledger, port=0, bind="127.0.0.1", reconnect_s=(1, 1)).start()


def play_round(folders: dict[str, RoomFolder], links: dict[str, BoxLink], seed: int) -> int:
    """Each room plays its next match, its live views through its publisher; then publishes what it has."""
    played = 0
    for room, folder in folders.items():
        link = links[room]
        match = folder.next_match()
        if match is None:
            continue
        link.playing(match.id)
        play_next(folder, seed + played, watch=link.watch)
        link.playing(None)
        link.publish_results()
        played += 1
    return played


def test_standings_survive_a_broker_restart_and_a_hub_restart(broker: Mosquitto, tmp_path: Path) -> None:
    t = load(tmp_path / "cup.toml")
    assert len(t.matches) == 15  # six teams, each pair once: five rounds of three matches
    folders = {room.id: room_folder(t, room.id, tmp_path / "journals") for room in t.rooms}
    links = {room: box_link(t, folder, reconnect_s=(1, 1)).start() for room, folder in folders.items()}
    ledger = tmp_path / "hub.jsonl"
    service = start_hub(t, ledger)
    try:
        for link in links.values():
            connected(link)
        assert service.conn.subscribed.wait(WAIT_S)
        hub = service.hub

        assert play_round(folders, links, seed=1) == 3
        wait_for(hub, lambda: len(hub.results) == 3, "the first round's results never reached the hub")
        assert hub.counts["live"] > 0  # the rooms' live views came through

        broker.stop()  # the broker goes away mid-tournament: the boxes play on
        assert play_round(folders, links, seed=10) == 3
        assert len(hub.results) == 3  # nothing could reach it
        broker.start()  # back: every box sends its journals' results again
        wait_for(hub, lambda: len(hub.results) == 6, "the results played without a broker never arrived")

        service.stop()  # the hub goes away; one more round is played meanwhile
        assert play_round(folders, links, seed=20) == 3
        service = start_hub(t, ledger)  # its ledger has six; the broker's retained results bring the rest
        hub = service.hub
        assert len(hub.results) == 6
        wait_for(hub, lambda: len(hub.results) == 9, "the retained results never reached the restarted hub")

        while play_round(folders, links, seed=30 + len(hub.results)):
            pass
        wait_for(hub, lambda: len(hub.results) == 15, "the last rounds' results never arrived")
        wait_for(hub, lambda: hub.counts["duplicate"] > 0, "a result sent again was never seen again")

        # the standings are what the three journals say, each match counted once
        from_journals = {r.match: r for folder in folders.values() for r in folder.results()}
        assert len(from_journals) == 15
        expected = table(t, effective(from_journals, {}, t))
        assert [row.to_json() for row in hub.standings()] == [row.to_json() for row in expected]
        assert sum(row.played for row in expected) == 30
        assert sum(1 for r in hub.ledger.records if r["type"] == "result") == 15  # never twice in the ledger
        for match_id, r in hub.results.items():
            assert r.journal_sum == from_journals[match_id].journal_sum
    finally:
        service.stop()
        for link in links.values():
            link.stop()


def test_a_box_may_publish_only_under_its_own_room(broker: Mosquitto, tmp_path: Path) -> None:
    t = load(tmp_path / "cup.toml")
    link = box_link(t, room_folder(t, "a", tmp_path / "journals"), reconnect_s=(1, 1)).start()
    service = start_hub(t, tmp_path / "hub.jsonl")
    try:
        connected(link)
        assert service.conn.subscribed.wait(WAIT_S)
        forged = messages.status_payload("b", True, "m1", 1)
        info = link.conn.client.publish(messages.room_topic(t.id, "b", "status"), forged, qos=1)
        info.wait_for_publish(WAIT_S)
        own = link.conn.client.publish(messages.room_topic(t.id, "a", "status"),
                                       messages.status_payload("a", True, "m2", 2), qos=1, retain=True)
        own.wait_for_publish(WAIT_S)
        assert link.conn.denied == 1  # the broker's ACL said no to room b's topic
        hub = service.hub
        wait_for(hub, lambda: hub.rooms["a"].status is not None and hub.rooms["a"].status.match == "m2",
                 "room a's own status never arrived")
        assert hub.rooms["b"].status is None
    finally:
        service.stop()
        link.stop()


def test_a_rooms_password_cannot_score_another_rooms_match(broker: Mosquitto, tmp_path: Path) -> None:
    """The attack: room a's password publishes a 9:0 for hall b's match on room a's own topic (the ACL lets it);
    the hub refuses it, counts hall b's real result, and refuses the broker's retained copy after a rebuild."""
    from controller.league.messages import Result

    t = load(tmp_path / "cup.toml")
    folder_b = room_folder(t, "b", tmp_path / "journals")
    link_a = box_link(t, room_folder(t, "a", tmp_path / "journals"), reconnect_s=(1, 1)).start()
    service = start_hub(t, tmp_path / "hub.jsonl")
    try:
        connected(link_a)
        assert service.conn.subscribed.wait(WAIT_S)
        hall_b = folder_b.next_match()
        assert hall_b is not None and hall_b.room == "b"
        fake = Result("a", hall_b.id, 1, "quiz", hall_b.teams, (9, 0), True, "ee" * 8, 40)
        info = link_a.conn.client.publish(messages.result_topic(t.id, "a", hall_b.id), messages.encode(fake.to_json()),
                                          qos=1, retain=True)
        info.wait_for_publish(WAIT_S)
        assert link_a.conn.denied == 0  # the broker let room a write under its own room
        hub = service.hub
        wait_for(hub, lambda: hub.counts["refused"] == 1, "the fake never reached the hub")
        assert hall_b.id not in hub.results and all(row.played == 0 for row in hub.standings())

        link_b = box_link(t, folder_b, reconnect_s=(1, 1)).start()
        try:
            connected(link_b)
            play_next(folder_b, 5)
            link_b.publish_results()
            wait_for(hub, lambda: hall_b.id in hub.results, "hall b's real result never arrived")
        finally:
            link_b.stop()
        real = folder_b.results()[0]
        assert hub.results[hall_b.id].journal_sum == real.journal_sum and hub.results[hall_b.id].room == "b"

        service.stop()  # a rebuild: a new ledger, everything from the broker's retained messages
        service = start_hub(t, tmp_path / "rebuilt.jsonl")
        hub = service.hub
        wait_for(hub, lambda: hall_b.id in hub.results and hub.counts["refused"] == 1,
                 "the rebuilt hub never had the retained results")
        assert hub.results[hall_b.id].scores == real.scores != (9, 0)
    finally:
        service.stop()
        link_a.stop()


def test_a_box_takes_only_a_schedule_change_the_organiser_signed(broker: Mosquitto, tmp_path: Path) -> None:
    from controller.league import signing
    from controller.league.link import Connection
    from controller.league.messages import Move, schedule_payload, schedule_topic, signed_body
    from controller.league.tournament import read_secret

    t = load(tmp_path / "cup.toml")
    folder = room_folder(t, "c", tmp_path / "journals")
    link = box_link(t, folder, reconnect_s=(1, 1)).start()
    conn = Connection(t.broker, t.organiser_user, read_secret(t.organiser_password_file, "organiser"), "org")
    conn.start()
    try:
        connected(link)
        assert link.conn.subscribed.wait(WAIT_S) and conn.connected.wait(WAIT_S)
        first = folder.next_match()
        assert first is not None and first.id == "m3"
        moves = [Move("m3", "a", 1), Move("m1", "c", 1)]
        body = signed_body(1, moves, t.id)

        def send(payload: bytes) -> None:
            seen = link.changes_seen
            conn.client.publish(schedule_topic(t.id), payload, qos=1, retain=True).wait_for_publish(WAIT_S)
            with link.schedule_handled:
                assert link.schedule_handled.wait_for(lambda: link.changes_seen > seen, WAIT_S)

        send(schedule_payload(body, "bm90IGEgc2lnbmF0dXJl"))  # not the organiser's signature
        forged_key = tmp_path / "forger.key"
        signing.new_key(forged_key)
        send(schedule_payload(body, signing.sign(signing.load_key(forged_key), body)))  # someone else's key
        assert link.refused_changes == 2 and folder.next_match() == first
        send(schedule_payload(body, signing.sign(signing.load_key(tmp_path / "organiser.key"), body)))
        assert link.refused_changes == 2
        moved = folder.next_match()
        assert moved is not None and moved.id == "m1"  # room c now plays m1 first, and no longer m3
        assert "m3" not in {m.id for m in folder.schedule()}
        assert room_folder(t, "c", tmp_path / "journals").next_match() == moved  # kept for the next start
    finally:
        conn.stop()
        link.stop()


def test_play_in_a_league_plays_the_rooms_next_match_and_publishes_it(
        broker: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    t = load(tmp_path / "cup.toml")
    service = start_hub(t, tmp_path / "hub.jsonl")
    try:
        assert service.conn.subscribed.wait(WAIT_S)
        argv = ["play", "--league", str(tmp_path / "cup.toml"), "--room", "b", "--headless", "--seconds", "0.2"]
        assert main(argv) == 0
        said = capsys.readouterr().err
        assert "b: match m2: " in said
        journal = tmp_path / "data" / "buzzerbox" / "journals" / "league" / "cup" / "b" / "m2-1.jsonl"
        assert journal.is_file() and journal.with_name("m2-1.jsonl.league.json").is_file()
        hub = service.hub
        wait_for(hub, lambda: "m2" in hub.results, "play --league never published its result")
        assert hub.results["m2"].finished is False  # stopped after 0.2 s: the organiser sees it unfinished
        m2 = t.match("m2")
        assert m2 is not None and hub.match_state(m2) == "unfinished"
        assert main(argv) == 0  # the next start takes the room's next match
        assert "b: match m5: " in capsys.readouterr().err
    finally:
        service.stop()


def test_play_in_a_league_shows_the_hall_the_game_as_the_deciding_process_plays_it(
        broker: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --league`` in the default (split) design: the hall's scoreboard
    gets the room's live board from the deciding process's pages, and follows
    the game (the host arms: the hall sees it armed)."""
    import threading

    from controller import channel
    from controller import protocol as p
    from controller.cli import main
    from tests.core.test_split import until
    from tests.processes import connect_when_listening

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    t = load(tmp_path / "cup.toml")
    service = start_hub(t, tmp_path / "hub.jsonl")
    hub, views_at = service.hub, tmp_path / "views.sock"
    seen: dict[str, object] = {}

    def board() -> dict[str, object]:
        live = hub.rooms["b"].live
        return dict(live.board) if live is not None else {}

    def host() -> None:
        sock = connect_when_listening(str(views_at), WAIT_S)
        try:
            wait_for(hub, lambda: board().get("live") is True, "the hall never got the deciding process's board")
            seen["first"] = board()
            channel.send(sock, p.HostKey("arm", 0))
            wait_for(hub, lambda: board().get("phase") == "armed", "the hall never saw the game armed")
        except BaseException as exc:  # noqa: BLE001 (the main thread fails the test with it)
            seen["error"] = exc
        finally:
            channel.send(sock, p.Stop("menu"))
            until(sock, lambda m: isinstance(m, p.Ended))
            sock.close()

    try:
        assert service.conn.subscribed.wait(WAIT_S)
        thread = threading.Thread(target=host)
        thread.start()
        try:
            assert main(["play", "--league", str(tmp_path / "cup.toml"), "--room", "b", "--headless",
                         "--seconds", str(WAIT_S * 4), "--viewer-socket", str(views_at)]) == 0
        finally:
            thread.join(WAIT_S)
        if "error" in seen:
            raise seen["error"]  # type: ignore[misc]
    finally:
        service.stop()
    first = seen["first"]
    assert isinstance(first, dict) and first["game"] == "quiz" and first["phase"] != "armed"


def test_the_menus_match_shows_the_hall_the_game_and_sends_its_result(
        broker: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kiosk menu in a tournament (``menu --league``), its match decided
    in a process of its own as every game with people is: Start plays the
    room's next match, the hall's scoreboard follows it (the host arms: the
    hall sees it armed), and once it is over the hub has its result."""
    import threading

    import pygame

    from controller import channel
    from controller import protocol as p
    from controller.cli import main
    from tests.core.test_split import until
    from tests.display import kiosk
    from tests.processes import connect_when_listening

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    t = load(tmp_path / "cup.toml")
    service = start_hub(t, tmp_path / "hub.jsonl")
    hub, views_at, stopped = service.hub, tmp_path / "views.sock", threading.Event()
    seen: dict[str, object] = {}

    def board() -> dict[str, object]:
        live = hub.rooms["b"].live
        return dict(live.board) if live is not None else {}

    def host_at_the_kiosk() -> kiosk.Script:
        yield []
        yield [pygame.K_RETURN]  # Start: the room's next match
        while not stopped.is_set():
            yield []
        while True:  # back in the menu: Esc asks, Esc again leaves
            yield [pygame.K_ESCAPE]

    def host_remote() -> None:
        try:
            sock = connect_when_listening(str(views_at), WAIT_S)
            try:
                until(sock, lambda m: isinstance(m, p.View))
                channel.send(sock, p.HostKey("arm", 0))
                wait_for(hub, lambda: board().get("phase") == "armed", "the hall never saw the match armed")
            finally:
                channel.send(sock, p.Stop("menu"))
                until(sock, lambda m: isinstance(m, p.Ended))
                sock.close()
        except BaseException as exc:  # noqa: BLE001 (the main thread fails the test with it)
            seen["error"] = exc
        finally:
            stopped.set()

    try:
        assert service.conn.subscribed.wait(WAIT_S)
        person = kiosk.Kiosk(monkeypatch, host_at_the_kiosk())
        remote = threading.Thread(target=host_remote)
        remote.start()
        try:
            assert main(kiosk.menu_args(tmp_path, "--league", str(tmp_path / "cup.toml"), "--room", "b",
                                        "--viewer-socket", str(views_at))) == 0
        finally:
            stopped.set()
            remote.join(WAIT_S)
        if "error" in seen:
            raise seen["error"]  # type: ignore[misc]
        assert person.stuck is None, person.stuck
        wait_for(hub, lambda: "m2" in hub.results, "the menu never sent its match's result")
    finally:
        service.stop()


def test_play_in_a_league_without_a_broker_keeps_the_result_for_later(
        league_file: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], silent_port: int) -> None:
    from controller.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = league_file(silent_port)  # nothing listens there
    from controller.league.broker import write_broker_files

    write_broker_files(load(path), tmp_path / "broker")
    assert main(["play", "--league", str(path), "--room", "a", "--headless", "--seconds", "0.1"]) == 0
    said = capsys.readouterr().err
    assert "the broker is not reachable now (nothing answers at 127.0.0.1:" in said
    assert "is the broker running, on that port?); the result is in the journal" in said
    folder = room_folder(load(path), "a", tmp_path / "data" / "buzzerbox" / "journals")
    assert [r.match for r in folder.results()] == ["m1"]  # what the next connect sends


def own_ca_and_certificate(folder: Path) -> Path:
    """A CA for the day and the broker's certificate for 127.0.0.1 (docs/league.md does it with openssl)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    def name(text: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])

    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = (x509.CertificateBuilder().subject_name(name("cup CA")).issuer_name(name("cup CA"))
          .public_key(ca_key.public_key()).serial_number(1).not_valid_before(now - datetime.timedelta(hours=1))
          .not_valid_after(now + datetime.timedelta(days=1))
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(ca_key, hashes.SHA256()))
    cert = (x509.CertificateBuilder().subject_name(name("127.0.0.1")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(2).not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False).sign(ca_key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "server.crt").write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    (folder / "server.key").write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                          serialization.NoEncryption()))
    ca_file = folder.parent / "ca.crt"
    ca_file.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    return ca_file


def test_a_box_talks_tls_to_a_broker_with_its_own_certificate(league_file: Callable[..., Path], tmp_path: Path) -> None:
    from tests import runtimes
    from tests.league.conftest import started_broker

    runtimes.require("mosquitto")
    own_ca_and_certificate(tmp_path / "broker")

    def with_tls(port: int) -> Tournament:
        path = league_file(port)
        path.write_text(path.read_text().replace('port = ', 'tls_ca = "ca.crt"\nport = ', 1))
        return load(path)

    broker, t = started_broker(tmp_path / "broker", with_tls)
    port, link = broker.port, None
    try:
        assert t.broker.tls_ca == tmp_path / "ca.crt"
        link = box_link(t, room_folder(t, "a", tmp_path / "journals"), reconnect_s=(1, 1))
        link.start()
        connected(link)  # the broker's certificate held against the day's CA, then the password
        info = link.conn.client.publish(messages.room_topic(t.id, "a", "status"),
                                        messages.status_payload("a", True, None, 1), qos=1)
        info.wait_for_publish(WAIT_S)
        assert info.is_published() and link.conn.denied == 0
        assert "certfile" in (tmp_path / "broker" / "mosquitto.conf").read_text()

        other = tmp_path / "elsewhere"  # a box given another CA: the broker is not the one it trusts
        from dataclasses import replace

        from controller.league.link import Connection

        stranger = Connection(replace(t.broker, tls_ca=own_ca_and_certificate(other / "broker")), "box-a", "x", "s")
        with pytest.raises(ssl.SSLCertVerificationError):
            stranger.client.connect(t.broker.host, port)
        stranger = Connection(replace(t.broker, tls_ca=other / "ca.crt"), "box-a", "x", "s2", reconnect_s=(1, 1))
        stranger.start()  # as a box runs it: it says why it cannot connect
        try:
            assert stranger.failed.wait(WAIT_S)
            assert stranger.problem().startswith("TLS: the broker at 127.0.0.1:") and "certificate" in stranger.problem()
        finally:
            stranger.stop(0)
    finally:
        if link is not None:
            link.stop()
        broker.stop()


def test_a_box_with_results_it_played_offline_delivers_them_before_it_says_all_played(
        broker: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    t = load(tmp_path / "cup.toml")
    folder = room_folder(t, "a", tmp_path / "data" / "buzzerbox" / "journals")
    while play_next(folder, 3):  # the broker was down for the room's whole day: nothing went out
        pass
    assert len(folder.undelivered()) == 5
    service = start_hub(t, tmp_path / "hub.jsonl")
    try:
        assert service.conn.subscribed.wait(WAIT_S)
        assert main(["play", "--league", str(tmp_path / "cup.toml"), "--room", "a", "--headless"]) == 0
        said = capsys.readouterr().err
        assert "a: sending 5 results the hub may not have yet" in said
        assert said.rstrip().endswith("a: every match of this room is played; the hub has the results")
        hub = service.hub
        wait_for(hub, lambda: len(hub.results) == 5, "the results the box owed never reached the hub")
        assert folder.undelivered() == []  # the broker acknowledged each: the next start owes nothing
        assert main(["play", "--league", str(tmp_path / "cup.toml"), "--room", "a", "--headless"]) == 0
        assert "sending" not in capsys.readouterr().err
    finally:
        service.stop()


def test_a_clean_exit_says_offline_and_a_box_that_cannot_connect_says_why(
        broker: Mosquitto, tmp_path: Path, caplog: pytest.LogCaptureFixture, silent_port: int) -> None:
    from dataclasses import replace

    from controller.league.link import Connection

    t = load(tmp_path / "cup.toml")
    service = start_hub(t, tmp_path / "hub.jsonl")
    link = box_link(t, room_folder(t, "a", tmp_path / "journals"), reconnect_s=(1, 1)).start()
    try:
        assert service.conn.subscribed.wait(WAIT_S)
        connected(link)
        hub = service.hub
        wait_for(hub, lambda: hub.rooms["a"].status is not None and hub.rooms["a"].status.online, "never online")
        link.stop()  # the box closes cleanly: no will is sent, so it says so itself
        wait_for(hub, lambda: hub.rooms["a"].status is not None and not hub.rooms["a"].status.online,
                 "a box that exited cleanly stayed online")
    finally:
        service.stop()

    wrong_password = Connection(t.broker, "box-a", "not-the-password", "wrong", reconnect_s=(1, 1))
    nobody = Connection(replace(t.broker, port=silent_port), "box-a", "x", "nobody", reconnect_s=(1, 1))
    for conn in (wrong_password, nobody):
        conn.start()
    try:
        assert wrong_password.failed.wait(WAIT_S) and nobody.failed.wait(WAIT_S)
        assert "refused the connection" in wrong_password.problem() and "password" in wrong_password.problem()
        assert "nothing answers at 127.0.0.1:" in nobody.problem()
        assert sum("cannot connect: nothing answers" in r.getMessage() for r in caplog.records) == 1
    finally:
        wrong_password.stop(0)
        nobody.stop(0)


def test_a_box_that_cannot_connect_says_why_on_its_screen(
        broker: Mosquitto, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --league`` in the default (split) design with the room's password
    wrong: the game's screen says, on every frame once the broker refused it,
    that the results wait in the journal and why (the password), never the
    password itself; in Czech and Polish too. The game is played all the same."""
    import threading
    from typing import Any

    from controller import channel
    from controller import protocol as p
    from controller.cli import main
    from controller.screen.loop import Presenter
    from games.i18n import set_language
    from tests.core.test_split import until
    from tests.processes import connect_when_listening

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    (tmp_path / "secrets" / "box-b.password").write_text("not-the-password\n")
    views_at = tmp_path / "views.sock"
    lines: list[str | None] = []
    said, seen = threading.Event(), {}  # type: ignore[var-annotated]
    draw = Presenter.draw_view

    def drawn(self: Presenter, shown: p.View, spec: Any, now_us: int, surface: Any = None, frozen: bool = False) -> None:
        draw(self, shown, spec, now_us, surface, frozen)
        line = (self.results if shown.finished else self.scene).message
        lines.append(line)
        if line and "refused the connection" in line:
            said.set()

    def host() -> None:
        sock = connect_when_listening(str(views_at), WAIT_S)
        try:
            seen["said"] = said.wait(WAIT_S)
        finally:
            channel.send(sock, p.Stop("menu"))
            until(sock, lambda m: isinstance(m, p.Ended))
            sock.close()

    monkeypatch.setattr(Presenter, "draw_view", drawn)
    thread = threading.Thread(target=host)
    thread.start()
    try:
        assert main(["play", "--league", str(tmp_path / "cup.toml"), "--room", "b", "--headless",
                     "--seconds", str(WAIT_S * 4), "--viewer-socket", str(views_at)]) == 0
    finally:
        thread.join(WAIT_S)
    assert seen["said"], f"the screen never said why the box could not connect: {set(lines)}"
    first = lines.index(next(line for line in lines if line and "refused the connection" in line))
    shown = lines[first:]
    assert all(line == shown[0] for line in shown[:-1]), set(shown)  # said on every frame while it lasts
    assert shown[0] is not None and shown[0].startswith("Tournament offline: the broker refused the "
                                                        "connection: "), shown[0]
    assert shown[0].endswith(f"wrong user or password (127.0.0.1:{broker.port}; check the user and password file)")
    assert "not-the-password" not in shown[0]  # nothing secret on the room's screen

    # the same trouble, worded in the language of the moment
    t = load(tmp_path / "cup.toml")
    link = box_link(t, room_folder(t, "b", tmp_path / "journals"), reconnect_s=(1, 1)).start()
    try:
        assert link.conn.failed.wait(WAIT_S)
        for language, words in (("cs", "odmítl spojení: špatný uživatel nebo heslo"),
                                ("pl", "odrzucił połączenie: błędny użytkownik lub hasło")):
            set_language(language)
            line = link.trouble()
            assert line is not None and words in line and "Tournament" not in line, line
    finally:
        set_language("en")
        link.stop()


def test_a_second_hub_on_another_machine_is_refused_in_one_line(broker: Mosquitto, tmp_path: Path) -> None:
    """Two ``league serve`` processes on one broker and tournament, each with a
    ledger of its own (as two laptops would be): the one that came second
    sees the first's live claim and exits in one line; once the first stops
    cleanly, a hub starts there and serves."""
    import os
    import subprocess
    import sys

    from tests.processes import finish

    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "BUZZERBOX_LANG": "en",
           "PYTHONPATH": str(Path(__file__).resolve().parents[2])}

    def serve(ledger: str) -> list[str]:
        return [sys.executable, "-m", "controller", "league", "serve", str(tmp_path / "cup.toml"), "--port",
                "0", "--bind", "127.0.0.1", "--ledger", str(tmp_path / ledger)]

    first = subprocess.Popen(serve("first.jsonl"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    try:
        assert first.stderr is not None
        assert "league hub: scoreboard http://127.0.0.1:" in first.stderr.readline()  # after the broker's answer
        second = subprocess.run(serve("second.jsonl"), env=env, capture_output=True, text=True, timeout=WAIT_S * 4)
        assert second.returncode != 0, second.stderr
        assert "another hub already serves tournament cup on the broker 127.0.0.1:" in second.stderr, second.stderr
        assert len(second.stderr.strip().splitlines()) == 1 and "Traceback" not in second.stderr
    finally:
        first.terminate()  # a clean stop: its claim goes
        finish(first)  # waited for (killed if it hangs), its pipe closed
    assert first.returncode == 0  # SIGTERM: a clean exit
    again = subprocess.Popen(serve("second.jsonl"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             text=True)
    try:
        assert again.stderr is not None
        assert "league hub: scoreboard http://127.0.0.1:" in again.stderr.readline()
    finally:
        again.terminate()
        finish(again)  # waited for (killed if it hangs), its pipe closed
