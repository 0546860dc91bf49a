"""The host page reads a quiz of rounds: the round now and the plan of every
round (its title, questions, preset as the menu names it), beside the question and its answer."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import Served
from tests.web.phones import SCREENS

ROUNDS = [{"title": "Warm-up", "questions": 2}, {"title": "Science", "rules": "penalty", "categories": ["Science"],
                                                  "questions": 2}, {"title": "Tossups", "rules": "bowl", "questions": 2}]


def test_the_host_page_shows_the_round_now_and_every_round_s_plan(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3, pack="en-general", rounds=ROUNDS)
    host = phone()
    host.goto(s.server.host_url())
    host.fill("#pin", s.server.pin)
    host.click("#enter")
    host.wait_for_selector("#remote:not(.hidden) button[data-action='arm']")
    expect(host.locator("#cue .cue-round")).to_have_text(
        "Round 1 of 3: 1. Warm-up (2 · classic) · 2. Science (2 · wrong: minus a point) · "
        "3. Tossups (2 · quiz bowl: tossups and bonuses)")
    host.screenshot(path=str(SCREENS / "host-rounds.png"))
    host.click("button[data-action='next']")
    s.wait(lambda: s.public["question"] == 2)
    host.click("button[data-action='next']")
    s.wait(lambda: s.public["question"] == 3)
    expect(host.locator("#cue .cue-round")).to_contain_text("Round 2 of 3")
    s.stop()
