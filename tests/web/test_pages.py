"""The companion pages in a real (headless) Chromium: phones join by the one
QR code the HDMI screen shows (the seat picker), keep their seat with a
secret of their own, see only their own hand and play it; a held seat
changes phone only with the host's approval; the HDMI
scene follows; the host page arms and judges a quiz question behind its PIN;
the scoreboard follows."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from controller.box.runtime import Box
from controller.box.session import game_settings
from controller.web.seats import seat_url
from games import registry
from tests.web.conftest import Served
from tests.web.phones import SCREENS


def questions(pack: str) -> list[dict[str, Any]]:
    """The questions of a quiz of ``pack`` as ``served`` deals them (seed 7, 3 players): what the host page reads."""
    spec = registry.get("quiz")
    return list(Box(spec, game_settings(spec, 3, 7, {"pack": pack}, None)).engine.pack)  # type: ignore[attr-defined]


def chips(page: Any) -> list[int]:
    return [int(t) for t in page.locator("#private .chip").all_inner_texts()]


def test_two_phones_join_by_the_one_qr_code_pick_their_seats_see_only_their_own_hand_and_play(
        served: Any, phone: Any) -> None:
    s: Served = served("hands", 2)
    s.wait(lambda: s.view.phones is not None)  # the phones' server described its panel
    panel = s.view.phones  # what the HDMI screen's corner panel draws, as the deciding process sends it
    assert panel is not None and panel.join_url is not None
    # its one QR code holds the picker of the server that serves here, no seat's secret
    assert panel.join_url == f"{panel.base_url}/play" and panel.base_url.endswith(f":{s.server.port}")
    assert "#" not in panel.join_url and "token" not in panel.join_url
    url = s.server.join_url()  # the same picker, on loopback

    a, b = phone(), phone()
    for page, seat in ((a, 0), (b, 1)):
        page.goto(url)
        page.locator(f".pick button[data-seat='{seat}']").click()
        page.wait_for_selector("#private .chip")
        assert "token" not in page.url and "#" not in page.url  # the secret is kept by the page, never shown
    hands = [chips(a), chips(b)]
    assert hands[0] and hands[1] and not set(hands[0]) & set(hands[1])
    for card in hands[1]:  # seat 1's cards appear nowhere on seat 0's phone
        assert str(card) not in a.inner_text("body")
    assert b.locator("#moves button").count() == 0  # not seat 1's turn
    s.wait(lambda: s.view.phones is not None and s.view.phones.held == (True, True))  # the panel says both held
    a.reload()  # a reload keeps the seat with the tab's kept secret
    a.wait_for_selector("#private .chip")
    assert chips(a) == hands[0]
    a.close()  # the tab is gone (the phone's browser closed it); the player scans again
    a = a.context.new_page()
    a.goto(url)
    expect(a.locator(".pick button[data-seat='0']")).to_contain_text("yours")
    a.locator(".pick button[data-seat='0']").click()  # this phone's own seat back, no host needed
    a.wait_for_selector("#private .chip")
    assert chips(a) == hands[0]

    a.locator("#moves button").first.click()
    played = hands[0][0]
    s.wait(lambda: list(s.public["played"]) == [played])  # decided, in the view the HDMI screen draws
    expect(a.locator("#moves button")).to_have_count(0)
    b.wait_for_selector("#moves button")
    assert chips(a) == hands[0][1:]
    a.screenshot(path=str(SCREENS / "companion-player.png"))


def test_taking_over_a_held_seat_needs_the_host_and_the_old_phone_shows_nothing_of_the_hand(
        served: Any, phone: Any) -> None:
    s: Served = served("hands", 2)
    owner, thief, host = phone(), phone(), phone()
    owner.goto(s.server.join_url())
    owner.locator(".pick button[data-seat='0']").click()
    owner.wait_for_selector("#private .chip")
    hand = chips(owner)
    thief.goto(s.server.join_url())
    expect(thief.locator(".pick button[data-seat='0']")).to_contain_text("ask the host")
    thief.screenshot(path=str(SCREENS / "companion-picker.png"))
    thief.locator(".pick button[data-seat='0']").click()
    expect(thief.locator("#status")).to_contain_text("Asked the host")
    assert not thief.locator("#private .chip").count()  # nothing until the host agrees
    host.goto(s.server.host_url())
    host.fill("#pin", s.server.pin)
    host.locator("#enter").click()
    expect(host.locator(".takeover")).to_contain_text("Player 1")
    code = thief.locator("#ask-code").inner_text()  # the asking phone's code, large, is the one on the host page
    assert len(code) == 4 and host.locator(".takeover").get_attribute("data-code") == code
    expect(host.locator(".takeover")).to_contain_text(code)
    thief.screenshot(path=str(SCREENS / "companion-asked.png"))
    host.screenshot(path=str(SCREENS / "companion-host-takeover.png"), full_page=True)
    host.locator(".takeover button.deny").click()
    expect(thief.locator("#status")).to_contain_text("kept that seat")
    assert chips(owner) == hand
    thief.locator(".pick button[data-seat='0']").click()  # asks again; this time the host gives it
    expect(host.locator(".takeover")).to_have_count(1)
    host.locator(".takeover button.approve").click()
    thief.wait_for_selector("#private .chip")
    assert chips(thief) == hand
    expect(owner.locator("#status")).to_contain_text("no longer holds the seat")
    expect(owner.locator("#private .chip")).to_have_count(0)  # nothing of the hand stays
    for card in hand:
        assert str(card) not in owner.inner_text("main")
    expect(owner.locator(".pick button")).to_have_count(2)  # back on the picker
    owner.screenshot(path=str(SCREENS / "companion-lost-seat.png"))


def test_the_host_page_arms_and_judges_a_quiz_question_and_the_scoreboard_follows(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3, pack="en-general")
    first, second = questions("en-general")[:2]
    host, board = phone(), phone()
    board.goto(s.server.board_url())
    board.wait_for_selector("tr[data-seat='2']")
    host.goto(s.server.host_url())
    host.fill("#pin", "000000" if s.server.pin != "000000" else "111111")
    host.click("#enter")
    host.wait_for_selector(".status.bad")
    assert "Wrong PIN" in host.inner_text("#status")
    assert host.locator("#remote").is_hidden()

    host.fill("#pin", s.server.pin)
    host.click("#enter")
    host.wait_for_selector("#remote:not(.hidden) button[data-action='arm']")
    # the host reads the answer from the start, and the next question ahead
    expect(host.locator("#cue .cue-text")).to_have_text(first["text"])
    expect(host.locator("#cue .cue-answer strong")).to_have_text(first["answer"])
    expect(host.locator("#cue .cue-next")).to_contain_text(second["text"])
    assert first["answer"] not in board.inner_text("body")  # the scoreboard is public: no answer there
    expect(host.locator("#buttons button[data-action='correct']")).to_have_count(0)  # nothing to judge yet
    host.click("button[data-action='arm']")
    s.wait(lambda: s.public["phase"] == "armed")

    rang = s.press(1)  # station 2 rings its bell
    s.press(2, t_us=rang + 40_000)  # station 3, 40 ms later
    s.wait(lambda: s.public["phase"] == "answering")
    host.wait_for_selector("button[data-action='correct']")
    # the first bell, big on the host page: who, by how much, and the reaction time from arming (game time)
    armed, bell_us = s.public["armed_at_us"], rang + s.view.offset_us
    expect(host.locator("#first .name")).to_have_text("Player 2")
    expect(host.locator("#first .margin")).to_have_text("ahead by 0.040 s")
    expect(host.locator("#first .reaction")).to_have_text(f"reaction {(bell_us - armed) / 1e6:.3f} s")
    assert float(host.locator("#first .name").evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 36
    expect(host.locator("#buttons button[data-action='arm']")).to_have_count(0)  # armed already
    board.wait_for_selector("tr.first[data-seat='1']")
    host.screenshot(path=str(SCREENS / "companion-host.png"))
    host.click("button[data-action='correct']")
    s.wait(lambda: s.public["scores"][1] == 1)
    expect(board.locator("tr[data-seat='1'] td.score")).to_have_text("1")
    expect(host.locator("#phase")).to_have_text("Round over")
    board.screenshot(path=str(SCREENS / "companion-board.png"))

    host.click("button[data-action='next']")  # with a pack, next shows the answer first
    s.wait(lambda: s.public["revealed"])
    host.click("button[data-action='next']")
    s.wait(lambda: s.public["phase"] == "idle")
    expect(host.locator("#cue .cue-text")).to_have_text(second["text"])
    s.screenshot(str(SCREENS / "companion-hdmi-host.png"))
    s.stop()


#: counts the sockets a page opens and keeps the newest (in the page: no event to wait for)
COUNT_SOCKETS = ("window.socketsOpened = 0; const Opened = window.WebSocket;"
                 "window.WebSocket = class extends Opened {"
                 " constructor(...args) { super(...args); window.socketsOpened += 1; window.newestSocket = this; } };")


def test_a_phone_whose_connection_drops_takes_its_seat_back_and_plays_on(served: Any, phone: Any) -> None:
    """A sleeping phone loses its socket; the page reconnects by itself, says
    hello with its token again and continues its message numbers. The drop is
    the network's: the page's socket runs through Playwright's route, which
    the test cuts at both ends (as the Wi-Fi going does), and the phones'
    server of ``play --web`` sees it go."""
    s: Served = served("hands", 2)
    a = phone()
    a.clock.install()  # its timers also run when the test says (a reconnect is a timer)
    a.add_init_script(COUNT_SOCKETS)
    links: list[tuple[Any, Any]] = []  # each socket the page opened: (its page's end, its server's end)
    a.route_web_socket("**/ws/seat", lambda ws: links.append((ws, ws.connect_to_server())))
    s.take_seat(a, 0)
    a.wait_for_selector("#moves button")
    s.wait(lambda: s.view.phones is not None and s.view.phones.held == (True, False))
    expect(a.locator("#status")).to_have_text("Seat 1")  # welcomed
    opened = a.evaluate("window.socketsOpened")
    for page_end, server_end in links:  # the Wi-Fi drops it (as a phone going to sleep does)
        server_end.close(code=1001)
        page_end.close(code=1001)
    a.wait_for_function("n => window.socketsOpened > n", arg=opened)  # it connects again by itself
    expect(a.locator("#status")).to_have_text("Seat 1")  # welcomed again: its token taken, no refusal
    s.wait(lambda: s.view.phones is not None and s.view.phones.held == (True, False))
    a.locator("#moves button").first.click()
    s.wait(lambda: len(s.public["played"]) == 1)

    kept = a.evaluate("JSON.parse(sessionStorage.getItem('buzzerbox-seat'))")
    b = phone()  # the same seat opened on a second phone (its own address): the first one steps back and says so
    b.goto(seat_url(s.server.base_url, 0, kept["token"]))
    expect(a.locator("#status")).to_contain_text("another phone")
    b.wait_for_selector("#private .chip")
    opened = a.evaluate("window.socketsOpened")
    a.clock.run_for(10_000)  # longer than any reconnect back-off: a pause proved nothing on a busy machine
    assert a.evaluate("window.socketsOpened") == opened  # the first page does not reconnect and take it back
    assert a.evaluate("window.newestSocket.readyState") == 3  # its socket closed: the second's is left
    s.wait(lambda: s.view.phones is not None and s.view.phones.held == (True, False))
    expect(b.locator("#status")).not_to_contain_text("another phone")
