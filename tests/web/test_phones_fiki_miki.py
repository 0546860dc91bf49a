"""Fiki Miki's phone page in a real (headless) Chromium: two phones join by
the URLs their seats' QR codes hold, each sees only its own hand (the cards
it may play marked), plays from it; the bell at a mock station takes the
stack and each phone tells its player how their ring went."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import Served
from tests.web.phones import SCREENS, card_labels

#: seat 0 holds apple 6 and leaf 1, seat 1 apple 4 and star 2 (hands dealt in blocks from the top)
DECK = [{"kind": "apple", "pictures": 6}, {"kind": "leaf", "pictures": 1},
        {"kind": "apple", "pictures": 4}, {"kind": "star", "pictures": 2},
        {"kind": "mushroom", "pictures": 1}, {"kind": "star", "pictures": 1}]


def test_two_phones_see_only_their_hands_play_and_the_station_bell_takes_the_stack(served: Any, phone: Any) -> None:
    s: Served = served("fiki-miki", 2, variant="I", hand_size=2, threshold=10, deck=DECK, bell_window_us=300_000)
    a, b = s.take_seat(phone(), 0), s.take_seat(phone(), 1)
    expect(a.locator(".w-hand .card")).to_have_count(2)
    expect(b.locator(".w-hand .card")).to_have_count(2)
    assert card_labels(a) == ["6 × apple", "1 × leaf"]
    assert card_labels(b) == ["4 × apple", "2 × star"]
    assert "star" not in a.inner_text("main") and "leaf" not in b.inner_text("main")  # nothing of the other hand
    expect(a.locator(".w-hand .card.legal")).to_have_count(2)  # seat 0's turn: both cards playable
    expect(b.locator(".w-hand .card.legal")).to_have_count(0)
    expect(b.locator(".w-note.tone-plain").first).to_contain_text("Player 1's turn")
    a.screenshot(path=str(SCREENS / "phone-fiki-miki.png"))

    a.locator(".w-hand .card", has_text="6 × apple").click()  # one move on that card: played at once
    s.wait(lambda: [c["pictures"] for c in s.public["stacks"][1]["cards"]] == [6])
    expect(b.locator(".w-hand .card.legal")).to_have_count(2)  # the bell window passed: seat 1's turn
    b.locator(".w-hand .card", has_text="4 × apple").click()
    s.wait(lambda: s.public["landed"] == "apple"
           and sum(c["pictures"] for c in s.public["stacks"][1]["cards"]) == 10)

    s.press(1)  # seat 1's station bell: the apple stack holds 10
    s.wait(lambda: s.public["collected"] == [0, 2])
    expect(b.locator(".w-note.tone-good")).to_contain_text("You took the apple stack (2 cards)")
    expect(b.locator(".w-facts")).to_contain_text("2")
    b.screenshot(path=str(SCREENS / "phone-fiki-miki-ring.png"))
    assert "You took" not in a.inner_text("main")  # the other phone was told nothing of a ring it did not make
