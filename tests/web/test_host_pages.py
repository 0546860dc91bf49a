"""The host remote in a real (headless) Chromium: it pauses and resumes a
quiz (the HDMI screen says so), corrects a score, renames a player (the
HDMI strip shows the new name at once) and ends the game. (A game switch in
the menu keeping a joined phone joined: tests/web/test_menu_phones_evening.py.)"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.processes import HANG_S
from tests.web.conftest import Served
from tests.web.phones import SCREENS


def log_in(page: Any, s: Served) -> None:
    page.goto(s.server.host_url())
    page.fill("#pin", s.server.pin)
    page.click("#enter")
    page.wait_for_selector("#remote:not(.hidden)")


def test_the_host_pauses_corrects_renames_and_ends_a_quiz(served: Any, phone: Any) -> None:
    # the answer's countdown runs in real time while the pages are driven: as long as a hang guard, so a
    # busy machine never sees it run out mid-test (it stands still while paused, whatever its length)
    s: Served = served("quiz", 3, verbose=True, answer_time_us=int(HANG_S * 1_000_000))
    host, board = phone(), phone()
    board.goto(s.server.board_url())
    log_in(host, s)
    host.click("button[data-action='arm']")
    s.wait(lambda: s.public["phase"] == "armed")
    s.press(2)
    s.wait(lambda: s.public["phase"] == "answering")

    host.click("button[data-action='pause']")
    s.wait(lambda: s.view.host_paused)  # what the HDMI screen is sent: it says so
    expect(host.locator("#phase")).to_have_text("Paused")
    expect(host.locator("#buttons button")).to_have_count(0)  # nothing to judge while paused
    expect(board.locator("#phase")).to_have_text("Paused")
    s.screenshot(str(SCREENS / "companion-hdmi-paused.png"))
    left = s.public["answer_left_us"]
    s.press(0)  # a bell during the pause does nothing
    # once the deciding process has taken the bell and said it ignored it (a pause of the test's proved
    # nothing on a busy machine), nothing came of it
    s.wait(lambda: s.log("pressed while the game is paused"))
    assert s.public["answer_left_us"] == left  # the answer timer stands still
    assert s.public["queue"] == []
    host.click("button[data-action='continue']")
    s.wait(lambda: not s.view.host_paused)
    host.wait_for_selector("button[data-action='correct']")
    assert s.public["queue"] == []

    host.click(".player[data-seat='0'] button[data-adjust='1']")  # a point the judgement missed
    s.wait(lambda: s.public["scores"] == [1, 0, 0])
    expect(board.locator("tr[data-seat='0'] td.score")).to_have_text("1")
    expect(host.locator(".player[data-seat='0'] .score")).to_have_text("1")

    host.fill(".player[data-seat='1'] input.name", "Magdalena")
    host.click(".player[data-seat='1'] button[data-rename='1']")
    s.wait(lambda: s.view.strip[1]["name"] == "Magdalena")  # what the HDMI strip draws
    expect(board.locator("tr[data-seat='1'] td").first).to_contain_text("Magdalena")
    host.screenshot(path=str(SCREENS / "companion-host-remote.png"), full_page=True)
    s.screenshot(str(SCREENS / "companion-hdmi-renamed.png"))

    host.click("button[data-action='end']")  # the first tap only asks
    expect(host.locator("button[data-action='end']")).to_contain_text("Tap again")
    assert s.ended is None
    host.click("button[data-action='end']")
    assert s.proc.wait(HANG_S) == 0  # play ends as at Esc: the game closed, back to the menu
    assert s.ended is not None and s.ended.reason == "menu"


def test_a_pin_sent_before_the_page_is_ready_logs_in_once_it_is(served: Any, phone: Any) -> None:
    """A host who types the PIN and presses Enter before the page's texts came
    (a slow phone, a busy box) is logged in once they come. The form was
    submitted natively: the page reloaded, the PIN was gone and nothing said
    why (a CI run on a busy machine logged in a test's page this way)."""
    s: Served = served("quiz", 3)
    host = phone()
    held: list[Any] = []
    released: list[bool] = []

    def texts(route: Any) -> None:  # the page's texts wait until the test lets them through
        if released:
            route.continue_()
        else:
            held.append(route)

    host.route("**/messages.json", texts)
    host.goto(s.server.host_url())
    while not held:  # the page asked for them (each call lets Playwright hand the request over)
        host.wait_for_timeout(20)
    host.fill("#pin", s.server.pin)
    host.press("#pin", "Enter")  # before the page is ready
    released.append(True)
    for route in held:
        route.continue_()
    expect(host.locator("#remote")).to_be_visible()
    expect(host.locator("#login")).to_be_hidden()


def test_after_the_box_restarts_with_a_new_pin_the_host_page_asks_for_it(served: Any, phone: Any) -> None:
    """The box restarted (a power cut, then ``play --web`` again on the same
    port, with a new PIN): the page reconnects, its old PIN is refused, and it
    shows the PIN field again instead of dead buttons."""
    s: Served = served("quiz", 3)
    host = phone()
    log_in(host, s)
    old = s.server.pin
    s.power_cut()  # every process gone at once: the page hears nothing but its socket dying
    again: Served = served("quiz", 3, port=s.server.port)
    while again.server.pin == old:  # a new PIN is drawn at each start: the same one again is one in a million
        again.power_cut()
        again = served("quiz", 3, port=s.server.port)
    expect(host.locator("#status")).to_contain_text("Wrong PIN")
    expect(host.locator("#login")).to_be_visible()
    expect(host.locator("#remote")).to_be_hidden()
    assert host.evaluate("sessionStorage.getItem('pin')") is None
    host.fill("#pin", again.server.pin)
    host.click("#enter")
    host.click("button[data-action='arm']")
    again.wait(lambda: again.public["phase"] == "armed")
    # a host is in: the PIN is off the big screen (the panel the screen draws, as the phones' server says it)
    again.wait(lambda: again.view.phones is not None and again.view.phones.pin is None)
    host.click("button[data-action='show_pin']")  # a co-host needs it
    expect(host.locator("#status")).to_contain_text("for a minute")
    again.wait(lambda: again.view.phones is not None and again.view.phones.pin == again.server.pin)
