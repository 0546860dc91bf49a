"""Three simulated boxes, a real Mosquitto, the hub: the broker stopped and
restarted mid-tournament, the hub restarted, and the standings at the end
equal those computed from the three rooms' journals alone."""

from __future__ import annotations

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
