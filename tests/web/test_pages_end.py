"""When the game ends and the server stops, every page says so ("game
over, thanks" and the final scores) instead of "reconnecting" for ever; a
Piepmatz move held for the station is named; unplayable cards are dimmed.
Headless Chromium against a live game on loopback."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import Served
from tests.web.phones import SCREENS


def test_phones_host_and_board_say_game_over_with_the_final_scores_when_the_server_stops(
        served: Any, phone: Any) -> None:
    s: Served = served("hands", 2)
    player, host, board = phone(), phone(), phone()
    sockets: dict[Any, list[Any]] = {page: [] for page in (player, host, board)}
    for page in (player, host, board):
        page.clock.install()  # the pages' timers run when the test says (a reconnect is a timer)
        page.on("websocket", lambda ws, kept=sockets[page]: kept.append(ws))
    s.take_seat(player, 0)
    player.wait_for_selector("#private .chip")
    host.goto(s.server.host_url())
    host.fill("#pin", s.server.pin)
    host.locator("#enter").click()
    expect(host.locator("#remote")).to_be_visible()
    board.goto(s.server.board_url())
    board.wait_for_selector("tr[data-seat='1']")
    s.stop()  # the game closed: the phones' server says its last word and stops
    for page in (player, host):
        expect(page.locator(".thanks")).to_have_text("Game over: thank you for playing!")
        expect(page.locator(".fact.final")).to_have_count(2)
        expect(page.locator(".fact.final").first).to_contain_text("Player")
    expect(player.locator("#private .chip")).to_have_count(0)  # nothing of the hand stays
    expect(board.locator("#phase")).to_have_text("Game over: thank you for playing!")
    for page in (player, host, board):
        opened = len(sockets[page])
        if not sockets[page][-1].is_closed():
            sockets[page][-1].wait_for_event("close")
        page.clock.run_for(10_000)  # longer than any reconnect back-off
        assert len(sockets[page]) == opened  # no new socket: the page does not try again
        assert "reconnecting" not in page.inner_text("body")
    player.screenshot(path=str(SCREENS / "companion-ended.png"))
