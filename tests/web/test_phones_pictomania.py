"""Pictomania's phone page in a real (headless) Chromium: three phones join,
each sees only its own secret, guesses on the others' drawings from its
pad; two station bells take the bonus tokens in the order of their stamps
(delivered the other way round), no phone can say "done" for its bell; the reveal on
the HDMI scene (dummy driver) lists the guesses in the order they came."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from controller.box.inputs import BOX_CLOCK_SLACK_US, HOST_STATION
from controller.box.timeline import box_now_us
from games.toolkit import theme
from tests.web.conftest import Served
from tests.web.phones import SCREENS


def _guess(page: Any, drawer_name: str, number: int) -> None:
    row = page.locator(".guess-row", has=page.locator(".who", has_text=drawer_name))
    row.locator("button.choice", has_text=str(number)).click()


#: how far apart the two right guesses come (game µs): well apart, the box orders arrivals no finer than
#: its tie window (the order of two guesses apart is the order they came)
APART_US = 100_000
#: each move the page sends (in the page: which moves a tap sent, none missed)
SENT_MOVES = """(() => {
  window.__moves = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    try { const m = JSON.parse(data); if (m.type === "move") window.__moves.push(m); } catch (e) {}
    return send.call(this, data);
  };
})();"""


def test_three_phones_guess_bells_take_the_bonus_and_the_reveal_keeps_guess_order(
        served: Any, phone: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    s: Served = served("pictomania", 3, pages=True)
    pages = [phone(), phone(), phone()]
    pages[0].add_init_script(SENT_MOVES)
    for seat, page in enumerate(pages):
        s.take_seat(page, seat)
        expect(page.locator(".w-note").first).to_contain_text("the host deals")
    s.press(HOST_STATION, "arm")  # the host deals the secrets
    s.wait(lambda: s.public["phase"] == "drawing" and s.pages_version > 0)
    s.wait(lambda: s.seat(0)["phase"] == "drawing")
    secrets = [s.seat(p)["private"]["secret"] for p in range(3)]  # as the deciding process dealt them
    for seat, page in enumerate(pages):
        mine = secrets[seat]
        expect(page.locator(".w-heading h2", has_text="Your word")).to_have_text(f"Your word: {mine['letter']}{mine['number']}")
        expect(page.locator(".w-heading .detail")).to_have_text(mine["word"])
        text = page.inner_text("main")
        for other in (secrets[o] for o in range(3) if o != seat):
            assert other["word"] not in text  # only its own secret
        pad = page.locator(".w-guesses").first  # (the second: which token the bell takes)
        expect(pad.locator(".guess-row")).to_have_count(2)  # one pad per other player, none for oneself
        expect(page.locator("#title")).to_have_text("Pictomania")  # headed by the game: there is no hand
        assert f"Player {seat + 1}" not in pad.inner_text()

    right = secrets[0]["number"]
    _guess(pages[1], "Player 1", right)  # seat 1 is right about seat 0's drawing, first
    s.wait(lambda: sum(s.public["guesses_made"]) == 1)
    first = s.seat(1)["private"]["guesses"][0]["t_us"]
    s.wait(lambda: s.now_us() >= first + APART_US)  # the box's clock, not the test's: the next guess comes later
    _guess(pages[2], "Player 1", right)  # seat 2 is right too, second
    s.wait(lambda: sum(s.public["guesses_made"]) == 2)
    _guess(pages[0], "Player 2", secrets[1]["number"] % 7 + 1)  # seat 0 is wrong about seat 1's: the black sheep
    s.wait(lambda: sum(s.public["guesses_made"]) == 3)
    expect(pages[1].locator(".guess-row", has=pages[1].locator(".who", has_text="Player 1"))
           .locator("button.choice.chosen")).to_have_text(str(right))
    expect(pages[1].locator(".w-facts").first).to_contain_text("Your guesses so far")
    pages[1].screenshot(path=str(SCREENS / "phone-pictomania.png"), full_page=True)

    admit = pages[0].locator("button.style-danger")
    sent = pages[0].evaluate("window.__moves.length")  # the moves the page sent so far
    admit.click()  # "I drew the wrong word" cannot be taken back: one tap only asks again
    expect(admit).to_contain_text("Tap again")
    # a later move on the same socket (the token its bell takes, as it was): had the tap sent anything,
    # it would be among the moves sent since, before this one (a pause proved nothing on a busy machine)
    token_pad = pages[0].locator(".guess-row", has=pages[0].locator(".who", has_text="0: none"))
    version = s.pages_version
    token_pad.locator("button.choice", has_text="max").click()
    pages[0].wait_for_function("n => window.__moves.length > n", arg=sent)
    moves = pages[0].evaluate("window.__moves")
    assert [m["kind"] for m in moves[sent:]] == ["choose_token"], moves[sent:]  # the token's alone: no admission
    s.wait(lambda: s.pages_version > version)  # the deciding process took it
    assert not s.seat(0)["private"]["admitted"]

    # the bells: seat 2 stamped first but delivered second, 20 ms later; handed over in one write with
    # the first stamped just ahead of now (within the box's slack), so the box holds it till then and
    # both are in before it decides either; it plays them in the order of their stamps
    rung = box_now_us() + BOX_CLOCK_SLACK_US // 2
    s.presses([(0, "bell", rung), (2, "bell", rung - 20_000)])
    s.wait(lambda: s.public["bonus"][0] is not None and s.public["bonus"][2] is not None)
    assert (s.public["bonus"][2], s.public["bonus"][0]) == (3, 2)
    expect(pages[2].locator(".w-note.tone-good")).to_contain_text("you took the bonus token 3")
    expect(pages[1].locator("button", has_text="Done")).to_have_count(0)  # the bell stays on the station
    s.press(1)
    s.wait(lambda: s.public["phase"] == "review")

    s.press(HOST_STATION, "arm")  # reveal
    s.wait(lambda: s.public["phase"] == "revealed")
    pile = s.public["reveal"]["drawers"][0]["guesses"]
    assert [(g["guesser"], g["correct"], g["token"], g["tie"]) for g in pile] == [(1, True, 3, False), (2, True, 1, False)]
    expect(pages[1].locator(".w-facts").last).to_contain_text("Round 1")
    monkeypatch.setattr(theme, "DRAWN", [])
    s.screenshot(str(SCREENS / "phone-pictomania-hdmi-reveal.png"))  # the reveal as play's screen draws it
    drawn = [asked for asked, *_rest in theme.DRAWN]
    # the reveal draws the right guessers as chips, in the order the guesses came
    first_drawer = drawn.index(next(t for t in drawn if t.startswith("Player 1 drew")))
    row = drawn[drawn.index("guessed:", first_drawer) + 1:][:4]
    assert row == ["Player 2", "+3", "Player 3", "+1"], row
    assert any(text.startswith("black sheep: Player 1") for text in drawn)


def test_a_phone_holds_no_token_for_its_bell_without_ringing_and_the_bell_applies_it(served: Any, phone: Any) -> None:
    """The rulebook's "take a lower token or none", chosen on the phone: it
    rings nothing (the bell stays on the station); the station's bell takes it."""
    s: Served = served("pictomania", 3)
    page = s.take_seat(phone(), 1)
    s.press(HOST_STATION, "arm")  # the host deals the secrets
    s.wait(lambda: s.public["phase"] == "drawing")
    row = page.locator(".guess-row", has=page.locator(".who", has_text="0: none"))
    expect(row.locator("button.choice.chosen")).to_have_text("max")
    row.locator("button.choice", has_text="0").click()
    expect(row.locator("button.choice.chosen")).to_have_text("0")  # the seat's view: the deciding process took it
    assert s.public["status"][1] == "drawing"  # nothing rang
    page.screenshot(path=str(SCREENS / "phone-pictomania-token.png"), full_page=True)
    s.press(1)  # the station's bell
    s.wait(lambda: s.public["status"][1] != "drawing")
    assert s.public["bonus"][1] in (None, 0) and s.public["bonus_left"] == [3, 2, 1]  # it took none
    expect(page.locator(".w-note.tone-good")).to_contain_text("Done: waiting for the others")


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_page_fits_a_360_px_phone_in_every_phase(served: Any, phone: Any, language: str) -> None:
    """Issue 48: the guess pad's 7 and the "max" token key ran past a 360 px
    phone (the page was 382 px wide). Every phase, in each of the box's languages."""
    from tests.web.test_phones_quiz_teams import assert_fits_the_phone

    s: Served = served("pictomania", 3, lang=language)
    page = s.take_seat(phone(), 0)
    expect(page.locator(".w-note").first).to_be_visible()
    assert_fits_the_phone(page)  # waiting for the host to deal
    s.press(HOST_STATION, "arm")
    s.wait(lambda: s.public["phase"] == "drawing")
    expect(page.locator(".w-guesses")).to_have_count(2)  # the guess pad and the bonus token's keys
    assert_fits_the_phone(page)
    page.screenshot(path=str(SCREENS / f"phone-pictomania-drawing-{language}.png"), full_page=True)
    for seat in range(3):  # each bell taken before the next: one stamped before a decision is late evidence
        s.press(seat)
        s.wait(lambda seat=seat: s.public["status"][seat] != "drawing")  # type: ignore[misc]
    s.wait(lambda: s.public["phase"] == "review")
    expect(page.locator(".w-guesses")).to_have_count(0)
    assert_fits_the_phone(page)
    s.press(HOST_STATION, "arm")
    s.wait(lambda: s.public["phase"] == "revealed")
    expect(page.locator(".w-facts").last).to_be_visible()
    assert_fits_the_phone(page)
