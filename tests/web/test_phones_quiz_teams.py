"""Team sign-up on a phone, in a real (headless) Chromium: in a team quiz's
lobby a player's page says their team (its colour, its players) and offers
the other teams; a tap moves them, on the big screen's view and in the
engine, and a typed name names their team; once the host arms the first question the page offers no team."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from controller.timeline import box_now_us
from tests.web.conftest import Served

NAMES = ["Anna", "Ben", "Cleo", "Dan"]


def test_a_phone_joins_the_other_team_in_the_lobby_and_not_after_the_first_question(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 4, NAMES, rules="teams")  # pairs: Anna and Ben, Cleo and Dan
    page = phone()
    page.goto(s.server.seat_url(3))
    heading = page.locator(".w-heading")
    expect(heading.locator("h2")).to_have_text("Your team: Team 2")
    expect(heading.locator(".detail")).to_have_text("sky blue: Cleo, Dan")
    join = page.locator(".w-buttons button", has_text="Join Team 1")
    expect(join).to_contain_text("orange: Anna, Ben")
    join.click()
    expect(heading.locator("h2")).to_have_text("Your team: Team 1")
    expect(heading.locator(".detail")).to_have_text("orange: Anna, Ben, Dan")
    page.locator(".w-text input").fill("Owls")  # and names the team it joined
    page.locator(".w-text button").click()
    expect(heading.locator("h2")).to_have_text("Your team: Owls")
    with s.box.lock:
        assert s.box.engine.public_view()["team_names"] == ["Owls", ""]
        assert s.box.engine.public_view()["teams"] == [0, 0, 1, 0]
        assert [(e.data["team"], e.data.get("name")) for e in s.box.event_log if e.kind == "team" and e.player == 3] == [
            (0, None), (0, "Owls")]
        s.box.host("arm", box_now_us() + s.box.time_offset_us)
    expect(page.locator(".w-note")).to_have_text("Nothing to do right now: wait for your turn.")
    expect(page.locator(".w-buttons button, .w-text input")).to_have_count(0)


def test_a_typed_text_goes_only_where_a_move_leaves_room_for_it() -> None:
    from controller.web.server import typed_in
    from controller.web.views import move_key
    from games.panels import TYPED

    offered = frozenset({move_key("team", {"team": 1, "name": TYPED}), move_key("team", {"team": 0})})
    assert typed_in("team", {"team": 1, "name": "Owls"}, offered)
    assert not typed_in("team", {"team": 0, "name": "Owls"}, offered)  # another team's name: not offered
    assert not typed_in("team", {"team": "Owls"}, offered)
