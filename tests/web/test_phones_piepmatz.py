"""Piepmatz's phone page in a real (headless) Chromium: two phones play a
short game to the end (4 seed cards and no pests: the first seed won ends
it), each showing only its own hand and, at its turn, its moves as taps on
its cards or on the offer; the first move is held by the page's switch and
played by the seat's own station button, as a table with one phone passed
round plays."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import Served
from tests.web.phones import SCREENS, card_labels

SHORT = {"seed_cards": [2, 1, 1], "crows": 0, "squirrels": 0}
ENABLED = ".w-hand .card.legal:not([disabled]), .w-buttons button:not([disabled])"


def _labels(s: Served, seat: int) -> list[str]:
    """The seat's hand as the deciding process dealt it, as its cards are labelled."""
    sex = {"m": "♂", "f": "♀"}
    return [f"{b['value']}{sex[b['sex']]} {b['species']}" for b in s.seat(seat)["private"]["hand"]]


def _state(s: Served) -> tuple[Any, ...]:
    """What a move changes: the turn, the phase, the hands' sizes, who laid their final cards."""
    public = s.public
    return (public.get("turns"), public["phase"], tuple(len(s.seat(n)["private"]["hand"]) for n in (0, 1)),
            tuple(public["final_chosen"]))


def _tap_a_move(page: Any) -> None:
    """The seat's move: a legal card (and, if it offers several, the first
    that wins birds) or the first button (the offer)."""
    page.wait_for_selector(ENABLED)
    legal = page.locator(".w-hand .card.legal:not([disabled])")
    if legal.count():
        legal.first.click()
        choices = page.locator(".card-actions button")
        if choices.count():
            winning = page.locator(".card-actions button", has_text="wins")
            (winning.first if winning.count() else choices.first).click()
        return
    page.locator(".w-buttons button:not([disabled])").first.click()


def test_two_phones_play_a_short_game_to_the_end_one_move_confirmed_at_the_station(served: Any, phone: Any) -> None:
    s: Served = served("piepmatz", 2, pages=True, **SHORT)
    pages = [phone(), phone()]
    for seat, page in enumerate(pages):
        s.take_seat(page, seat)
        expect(page.locator(".w-hand .card")).to_have_count(4)
    for seat, page in enumerate(pages):
        assert card_labels(page) == _labels(s, seat)
    for card in _labels(s, 1):  # every card exists once: seat 1's hand shows nowhere on seat 0's phone
        assert card not in pages[0].inner_text("main")
    expect(pages[1].locator(".w-note").first).to_contain_text("Player 1's turn")
    expect(pages[0].locator(".w-hand .card.legal")).to_have_count(4)
    # each card wears its species' colour from the big screen (no two species alike by accident)
    from games.piepmatz.cards import SPECIES_COLORS

    species = [str(b["species"]) for b in s.seat(0)["private"]["hand"]]
    shown = pages[0].locator(".w-hand .card").evaluate_all("cards => cards.map(c => getComputedStyle(c).backgroundColor)")
    assert shown == ["rgb({}, {}, {})".format(*SPECIES_COLORS[k]) for k in species]

    # a card that cannot be played now is plainly apart: faded, grey and dashed (not its turn: all four)
    dim = pages[1].locator(".w-hand .card:disabled")
    expect(dim).to_have_count(4)
    look = dim.first.evaluate("c => { const s = getComputedStyle(c); return [s.opacity, s.filter, s.borderTopStyle]; }")
    assert float(look[0]) <= 0.35 and "grayscale" in look[1] and look[2] == "dashed"
    pages[1].screenshot(path=str(SCREENS / "phone-piepmatz-waiting.png"))

    # one phone passed round: the switch on, a tap only holds the move; the seat's station bell plays it
    first = pages[0]
    first.locator("#hold-box").check()
    first.locator(".w-hand .card.legal").first.click()
    first.locator(".card-actions button").first.click()
    s.wait(lambda: s.public["awaiting_confirm"] == [0])
    expect(first.locator(".w-note.tone-turn", has_text="Held")).to_be_visible()
    s.wait(lambda: s.seat(0)["private"]["proposed"] is not None)
    held = s.seat(0)["private"]["proposed"]
    bird = next(b for b in s.seat(0)["private"]["hand"] if b["id"] == held["args"]["card"])
    from games.piepmatz.phone import bird_label

    expect(first.locator(".w-note.tone-turn", has_text="Held")).to_contain_text(  # it says which move is held
        f"Held: {bird_label(bird)} behind perch {int(held['args']['perch']) + 1}.")
    assert s.public["turns"] == 0 and len(s.seat(0)["private"]["hand"]) == 4  # nothing played yet
    first.screenshot(path=str(SCREENS / "phone-piepmatz-held.png"))
    s.press(1)  # another station's bell plays nothing for seat 1: its phone says it has no move waiting
    expect(pages[1].locator("#status")).to_contain_text("no move waiting")  # the box has decided it
    assert s.public["awaiting_confirm"] == [0] and len(s.seat(0)["private"]["hand"]) == 4
    s.press(0)  # the seat's own station plays the held move
    s.wait(lambda: s.public["awaiting_confirm"] == [] and len(s.seat(0)["private"]["hand"]) < 4)
    first.locator("#hold-box").uncheck()

    shot = False
    for _step in range(40):
        if s.view.finished:
            break
        seat = next(n for n in (0, 1) if s.seat(n)["private"]["your_turn"])
        before = _state(s)
        if not shot and s.public["phase"] == "play" and seat == 1:
            pages[1].wait_for_selector(ENABLED)
            pages[1].locator(".w-hand .card.legal").first.click()
            pages[1].screenshot(path=str(SCREENS / "phone-piepmatz.png"))
            pages[1].locator(".w-hand .card.legal").first.click()  # closes the choices again
            shot = True
        _tap_a_move(pages[seat])
        s.wait(lambda b=before: _state(s) != b)  # type: ignore[misc]
    assert s.view.finished, "the short game did not end within 40 moves"
    assert shot
    winners = s.public["winners"]
    for seat, page in enumerate(pages):
        expect(page.locator(".w-note").first).to_contain_text("Game over")
        if seat in winners:
            expect(page.locator(".w-note").first).to_contain_text("you won")
