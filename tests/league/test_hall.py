"""The hall screen in Chromium at 1920x1080: what a hall reads at 10 m
(standings, each room's card with its question, first buzz and margin, a
clock, each card's age, a grey card for a room not heard from, the broker
lost), pushed (a new result appears without a reload), names clipped."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller.league import messages
from controller.league.broker import write_broker_files
from controller.league.commands import room_folder
from controller.league.pages import HubService, now_ms
from controller.league.simulated import play_next
from controller.league.tournament import Tournament, load
from games.i18n import set_language
from tests.league.conftest import TEAMS
from tests.web.conftest import READY_MS, browser  # noqa: F401 (the fixture)

WIDE_TEAM = "W" * 64  # the longest team name the file takes, of the widest letter
WIDE_ROOM = "Hall " + "W" * 195  # the longest room name


@pytest.fixture
def hall(tmp_path: Path, league_file: Callable[..., Path], silent_port: int) -> Iterator[tuple[Tournament, HubService]]:
    path = league_file(silent_port)
    text = path.read_text().replace('name = "Owls"', f'name = "{WIDE_TEAM}"').replace(
        'name = "Hall A"', f'name = "{WIDE_ROOM}"')
    path.write_text(text)
    t = load(path)
    write_broker_files(t, tmp_path / "broker")
    service = HubService(t, tmp_path / "hub.jsonl", port=0, bind="127.0.0.1").start()  # no broker answers
    try:
        yield t, service
    finally:
        service.stop()
        set_language("en")


def live_view(t: Tournament, tmp_path: Path) -> bytes:
    """Room a's public view as its box publishes it, mid-match: a question with a first bell and its margin."""
    folder = room_folder(t, "a", tmp_path / "journals")
    boards: list[dict[str, Any]] = []

    def watch(box: Any) -> None:
        from controller.box.views import Publisher

        publisher = Publisher(box)
        publisher.listeners.append(lambda snap: boards.append(json.loads(snap.board)))
        box.on_events.append(publisher.on_events)

    match = play_next(folder, 2, watch=watch, crash_after_s=60)
    assert match is not None
    board = next(b for b in reversed(boards) if b.get("margins_us") and b.get("phase") == "answering")
    first = int(next(iter(board["margins_us"])))
    board["margins_us"][str(1 - first)] = 12_345  # the other bell 12.3 ms behind
    return messages.live_payload("a", match.id, 1, json.dumps(board))


def test_the_hall_screen_reads_across_a_hall_and_is_pushed(hall: tuple[Tournament, HubService], tmp_path: Path,
                                                           browser: Any) -> None:  # noqa: F811 (the fixture)
    from playwright.sync_api import expect

    t, service = hall
    hub = service.hub
    hub.take(messages.room_topic("cup", "a", "status"), messages.status_payload("a", True, "m1", 1))
    hub.take(messages.room_topic("cup", "a", "live"), live_view(t, tmp_path))
    hub.clock = lambda: now_ms() - 100_000  # room b was last heard 100 s ago
    hub.take(messages.room_topic("cup", "b", "status"), messages.status_payload("b", True, None, 1))
    hub.clock = now_ms
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.set_default_timeout(READY_MS)
    try:
        page.goto(f"http://127.0.0.1:{service.port}/")
        rooms = page.locator(".room")
        expect(rooms).to_have_count(3)
        a, b, c = rooms.nth(0), rooms.nth(1), rooms.nth(2)
        expect(a).to_contain_text("Question ")
        expect(a.locator(".first")).to_contain_text("First: ")
        expect(a.locator(".by")).to_have_text("by 12.3 ms")
        expect(a.locator(".age")).to_contain_text("updated ")
        expect(a).not_to_have_class("room stale")
        expect(b).to_have_class("room stale")  # not heard for 100 s: greyed, its age said
        expect(b.locator(".age")).to_contain_text("updated 1")
        expect(c.locator(".age")).to_have_text("not heard yet")
        expect(page.locator("#banner")).to_contain_text("The hub has lost the broker")
        expect(page.locator("#clock")).to_have_text(re.compile(r"^\d\d:\d\d:\d\d$"))
        assert page.locator("#standings tr").count() == 1 + len(TEAMS)
        # big type: the standings' rows at least 35 px (about 4 cm on a 55-inch TV)
        assert page.evaluate("parseFloat(getComputedStyle(document.querySelector('#standings td')).fontSize)") >= 35
        # names as long as the file takes are clipped to the layout, never stretching it
        assert page.evaluate("document.documentElement.scrollWidth") == 1920
        assert page.evaluate("document.documentElement.scrollHeight") == 1080
        version = page.evaluate("document.body.dataset.version")

        folder = room_folder(t, "b", tmp_path / "journals")
        play_next(folder, 7)
        (result,) = folder.results()
        hub.take(messages.result_topic("cup", "b", result.match), messages.encode(result.to_json()))
        expect(page.locator("body")).not_to_have_attribute("data-version", version)  # pushed, no reload
        assert sum(int(x) for x in page.locator("#standings td:nth-child(3)").all_inner_texts()) == 2
    finally:
        ctx.close()


def test_the_hall_screen_shows_the_playoff_bracket(tmp_path: Path, league_file: Callable[..., Path],
                                                   browser: Any, silent_port: int) -> None:  # noqa: F811 (the fixture)
    """Once the round robin is over the bracket stands above the table: the semi-finals' teams (seeded
    1 v 4, 2 v 3), a drawn one marked 'decider needed', the final's teams as where they come from;
    pushed as results come, and hidden before the draw."""
    from playwright.sync_api import expect

    path = league_file(silent_port)
    path.write_text(path.read_text() + '\n[playoffs]\nteams = 4\nroom = "a"\n')
    t = load(path)
    write_broker_files(t, tmp_path / "broker")
    service = HubService(t, tmp_path / "hub.jsonl", port=0, bind="127.0.0.1").start()  # no broker answers
    hub = service.hub

    def send(room: str, match: str, teams: tuple[str, ...], scores: tuple[int, int], k: int) -> None:
        r = messages.Result(room, match, 1, "quiz", teams, scores, True, f"{k:016x}", 3)
        assert hub.take(messages.result_topic("cup", room, match), messages.encode(r.to_json())) == "taken"

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.set_default_timeout(READY_MS)
    try:
        page.goto(f"http://127.0.0.1:{service.port}/")
        expect(page.locator("#standings tr")).to_have_count(1 + len(TEAMS))
        expect(page.locator("#bracket")).to_be_hidden()  # no playoff drawn yet
        for k, m in enumerate(t.matches):
            send(m.room, m.id, m.teams, (k % 4, k % 3), k)
        top = [row.name for row in hub.standings()]
        ties = page.locator("#bracket .tie")
        expect(ties).to_have_count(3)
        expect(ties.nth(0)).to_contain_text(top[0])
        expect(ties.nth(0)).to_contain_text(top[3])
        expect(ties.nth(1)).to_contain_text(top[1])
        expect(ties.nth(2)).to_contain_text("winner of sf1")
        sf1 = hub.bracket()[0]
        assert sf1.teams is not None
        send("a", "sf1", sf1.teams, (3, 3), 99)
        expect(ties.nth(0)).to_contain_text("a draw: decider needed")
        assert page.evaluate("document.documentElement.scrollHeight") == 1080  # the table still fits
    finally:
        ctx.close()
        service.stop()
