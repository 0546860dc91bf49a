"""A phone or host page whose link to the box is lost says so at once ("Connection lost:
reconnecting…", in the box's language) and clears it when it is connected again: a phone
gone offline (Chromium's own offline switch), and a link that stays open but goes silent
past ``Box.SILENT_MS`` (the box says "alive" every ``KEEPALIVE_S`` when nothing else
happens; the page's clock is Playwright's, moved on by the test). Before, a phone offline
for 25 s kept showing "Sent" and its stale hand, with no sign of trouble."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import WebSocketRoute, expect

from controller.web.server import KEEPALIVE_S
from games.i18n import _
from tests.web.conftest import Served
from tests.web.phones import SCREENS
from tests.web.test_host_pages import log_in
from tests.web.test_phones_fiki_miki import DECK

#: how long a page waits without a word from the box (common.js ``Box.SILENT_MS``)
SILENT_MS = 25_000

#: records each time the page says its link is lost (the word may go again before the test looks)
WATCH_LOST = """() => {
  window.lostSeen = 0;
  new MutationObserver(() => {
    const node = document.getElementById("link-lost");
    if (node && !node.classList.contains("hidden")) window.lostSeen += 1;
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def without_alive(route: WebSocketRoute, alive: list[str]) -> None:
    """The page's socket to the box, the box's "alive" held back (noted in ``alive``): the page hears
    only the game, so its silence is the test's, whenever the box's real 10 s timer fires."""
    box = route.connect_to_server()

    def from_box(message: str | bytes) -> None:
        if isinstance(message, str) and json.loads(message).get("type") == "alive":
            alive.append(message)
        else:
            route.send(message)

    box.on_message(from_box)
    route.on_message(box.send)


def fiki_miki(served: Any) -> Served:
    s: Served = served("fiki-miki", 2, variant="I", hand_size=2, threshold=10, deck=DECK, bell_window_us=300_000)
    return s


def test_a_phone_and_the_host_page_offline_say_the_link_is_lost_and_clear_it_back_online(
        served: Any, phone: Any) -> None:
    s = fiki_miki(served)
    player, host = s.take_seat(phone(), 0), phone()
    log_in(host, s)
    expect(player.locator(".w-hand .card.legal")).to_have_count(2)
    for page in (player, host):
        page.context.set_offline(True)
        lost = page.locator("#link-lost")
        expect(lost).to_be_visible()
        expect(lost).to_have_text(_("Connection lost: reconnecting…"))
    player.screenshot(path=str(SCREENS / "phone-link-lost.png"))
    for page in (player, host):
        page.context.set_offline(False)
        expect(page.locator("#link-lost")).to_be_hidden()  # connected again: the word goes
    player.locator(".w-hand .card", has_text="6 × apple").click()  # and the phone plays on the box again
    s.wait(lambda: [c["pictures"] for c in s.public["stacks"][1]["cards"]] == [6])
    expect(host.locator("#link-lost")).to_be_hidden()


def test_a_page_that_hears_nothing_from_the_box_says_the_link_is_lost_and_reconnects(
        served: Any, phone: Any) -> None:
    assert KEEPALIVE_S * 2 <= SILENT_MS / 1000  # a keepalive missed once is no lost link
    s = fiki_miki(served)
    player = phone()
    alive: list[str] = []
    player.route_web_socket(re.compile(".*"), lambda route: without_alive(route, alive))
    player.clock.install()  # the page's timers on a clock the test moves
    s.take_seat(player, 0)
    expect(player.locator(".w-hand .card.legal")).to_have_count(2)
    player.evaluate(WATCH_LOST)
    player.clock.run_for(SILENT_MS - 2_000)  # quiet for a while, short of the bound: nothing said
    assert player.evaluate("window.lostSeen") == 0
    player.clock.run_for(4_000)  # past it: the link is said lost, and a new socket opened
    player.wait_for_function("() => window.lostSeen > 0")
    player.clock.run_for(1_000)
    expect(player.locator("#link-lost")).to_be_hidden()  # the new socket is open: the word goes
    expect(player.locator(".w-hand .card.legal")).to_have_count(2)  # the seat kept, its hand still there
    for _look in range(round(KEEPALIVE_S * 30)):  # the box does say "alive" (held back from the page), by
        if alive:  # its real timer: each look lets Playwright take the socket's messages (a hang guard only)
            break
        player.wait_for_timeout(100)
    assert alive, "the box said no 'alive' on the page's socket"
