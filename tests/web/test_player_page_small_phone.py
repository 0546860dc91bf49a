"""The player's page on a small phone (360x640), in a real (headless)
Chromium, against ``play --web``: what the exploratory testers found on it.
A phone that asked for a held seat can still choose another; a team name
the TV cannot draw is refused on the phone in one line, as on the host
page; names of 16 letters without a space fit the page and the scoreboard;
an all-play answer shows as locked in, after a reload and in a second tab too. Screenshots
under SCREENS."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from controller.box.inputs import HOST_STATION
from controller.box.views import messages
from games.glyphs import name_refusal
from games.i18n import set_language
from games.quiz import PACKS_DIR
from tests.processes import HANG_S
from tests.web.conftest import Served
from tests.web.phones import SCREENS
from tests.web.test_host_page_small_phone import small_phone  # noqa: F401 (the fixture)
from tests.web.test_host_pages import log_in
from tests.web.test_phones_quiz_teams import assert_fits_the_phone

#: names as long as the menu allows (16), some with no space to break at
NAMES = ["Žofie Přemyslová", "Maximilián Dvořá", "WWWWWWWWWWWWWWWW", "Bartoloměj Šťast", "ŠŠŠŠŠŠŠŠŠŠŠŠŠŠŠŠ",
         "Jindřich Holeček"]




def test_a_phone_that_asked_for_a_held_seat_may_choose_a_free_one(served: Any, small_phone: Any) -> None:  # noqa: F811 (the fixture)
    set_language("en")
    s: Served = served("hands", 3)
    s.take_seat(small_phone(), 0)
    asker = small_phone()
    asker.goto(s.server.join_url())
    asker.locator(".pick button[data-seat='0']").click()  # held by the first phone: asked of the host
    expect(asker.locator("#ask-code")).to_have_text(re.compile(r"^\d{4}$"))
    expect(asker.locator("#status")).to_contain_text("Asked the host.")
    # the seats stay live while the host decides (they stayed disabled until a reload)
    for seat in range(3):
        expect(asker.locator(f".pick button[data-seat='{seat}']")).to_be_enabled()
    asker.screenshot(path=str(SCREENS / "phone-asked-360.png"), full_page=True, scale="css")
    code = asker.locator("#ask-code").inner_text()
    host = small_phone()
    log_in(host, s)
    host.locator(f".takeover[data-code='{code}'] button.deny").click()  # the host keeps the seat where it is
    expect(asker.locator("#status.bad")).to_have_text(messages()["pick_denied"])
    expect(asker.locator("#ask-code")).to_have_count(0)
    asker.locator(".pick button[data-seat='0']").click()  # and may ask again
    expect(asker.locator("#ask-code")).to_have_text(re.compile(r"^\d{4}$"))
    expect(host.locator(".takeover")).to_have_count(1)
    asker.locator(".pick button[data-seat='1']").click()  # or take a free seat: the ask leaves the host page
    expect(asker.locator("#who")).to_have_text("Player 2")
    expect(asker.locator("#status.good")).to_be_visible()
    expect(host.locator(".takeover")).to_have_count(0)


def test_a_team_name_the_tv_cannot_draw_is_refused_on_the_phone_in_one_line(served: Any, small_phone: Any) -> None:  # noqa: F811 (the fixture)
    set_language("en")
    s: Served = served("quiz", 4, ["Anna", "Ben", "Cleo", "Dan"], rules="teams", pages=True)
    page = s.take_seat(small_phone(), 0)
    heading = page.locator(".w-heading h2")
    expect(heading).to_have_text("Your team: Team 1")
    field, save = page.locator(".w-text input"), page.locator(".w-text button")
    field.fill("🐦")
    save.click()
    expect(page.locator("#status")).to_have_text("The box refused: " + str(name_refusal("🐦")))
    # the name stays to be corrected, the button live again, the team unnamed
    expect(field).to_have_value("🐦")
    expect(save).to_be_enabled()
    assert s.public["team_names"] in (None, [], ["", ""])
    assert_fits_the_phone(page)
    page.screenshot(path=str(SCREENS / "phone-team-name-refused-360.png"), full_page=True, scale="css")
    field.fill("Sýkorky")
    save.click()
    expect(heading).to_have_text("Your team: Sýkorky")
    s.wait(lambda: s.public["team_names"] == ["Sýkorky", ""])


def test_names_of_16_letters_without_a_space_fit_the_page_and_the_scoreboard(served: Any, small_phone: Any) -> None:  # noqa: F811 (the fixture)
    s: Served = served("pictomania", 6, NAMES, lang="cs")
    picker = small_phone()
    picker.goto(s.server.join_url())
    expect(picker.locator(".pick button")).to_have_count(6)
    assert_fits_the_phone(picker)
    picker.screenshot(path=str(SCREENS / "phone-picker-long-names-360.png"), full_page=True, scale="css")
    page = s.take_seat(picker, 2)
    expect(page.locator("#who")).to_have_text("WWWWWWWWWWWWWWWW")
    assert_fits_the_phone(page)
    s.press(HOST_STATION, "arm")  # the host deals: the guess pad names every other player
    s.wait(lambda: s.public["phase"] == "drawing")
    expect(page.locator(".w-guesses")).to_have_count(2)  # the guess pad and the bonus token's keys
    assert_fits_the_phone(page)
    page.screenshot(path=str(SCREENS / "phone-long-names-360.png"), full_page=True, scale="css")
    board = small_phone()
    board.goto(s.server.board_url())
    expect(board.locator("#players tr")).to_have_count(6)
    expect(board.locator("#players")).to_contain_text("WWWWWWWWWWWWWWWW")
    assert_fits_the_phone(board)
    board.screenshot(path=str(SCREENS / "board-long-names-360.png"), full_page=True, scale="css")


def test_an_all_play_phone_shows_the_answer_it_locked_in_after_a_reload_and_in_a_second_tab(
        served: Any, small_phone: Any) -> None:  # noqa: F811 (the fixture)
    """The box keeps the choice locked in, in the seat's own view (it was the tab's sessionStorage: a
    second tab of the seat offered the choices again); no other seat's page has it."""
    set_language("en")
    s: Served = served("quiz", 2, rules="all-play", questions=2, pack=str(PACKS_DIR / "en-general.csv"),
                       answer_time_us=int(HANG_S * 1_000_000), pages=True)
    page, other = s.take_seat(small_phone(), 0), s.take_seat(small_phone(), 1)
    s.host("arm")
    s.wait(lambda: s.public["phase"] == "all_play")
    answers = page.locator(".w-buttons button")
    expect(answers).to_have_count(4)
    chosen = answers.nth(1).inner_text()
    answers.nth(1).click()
    locked = page.locator(".w-locked")
    expect(locked).to_have_count(1)
    expect(locked.locator(".what")).to_have_text("Your answer: locked in")
    expect(locked.locator(".choice")).to_have_text(chosen)
    expect(page.locator(".w-buttons button")).to_have_count(0)
    assert_fits_the_phone(page)
    page.screenshot(path=str(SCREENS / "phone-all-play-locked-360.png"), full_page=True, scale="css")
    page.reload()
    expect(page.locator("#status.good")).to_be_visible()
    expect(page.locator(".w-locked .choice")).to_have_text(chosen)
    s.wait(lambda: s.seat(0)["private"] == {"locked": 1})  # the box keeps it, in the seat's own page
    assert s.seat(1)["private"] == {}
    second = page.context.new_page()  # another tab of the same phone: a sessionStorage of its own
    second.goto(s.server.join_url())
    second.locator(".pick button[data-seat='0']").click()  # "yours: tap to rejoin"
    expect(second.locator("#who")).to_have_text("Player 1")
    expect(second.locator(".w-locked .choice")).to_have_text(chosen)
    expect(second.locator(".w-buttons button")).to_have_count(0)  # nothing offered again
    second.screenshot(path=str(SCREENS / "phone-all-play-locked-second-tab-360.png"), full_page=True, scale="css")
    expect(other.locator(".w-locked")).to_have_count(0)  # the phone that has not answered: its choices
    other.locator(".w-buttons button").nth(0).click()
    s.wait(lambda: s.public["phase"] != "all_play")  # both answered: the question closed
    expect(second.locator(".w-locked")).to_have_count(0)  # the lock was that question's only
    assert s.seat(0)["private"] == {}
