"""An audio question's clip on the pages: the scoreboard says the clip is
playing while it plays, paused while a buzz is answered, and nothing once
the question is over (Chromium, the live game on a thread)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from games.quiz import PACKS_DIR
from tests.web.conftest import Served
from tests.web.phones import SCREENS


def test_the_scoreboard_says_the_clip_is_playing_then_paused_on_a_buzz_then_nothing(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3, pack=str(PACKS_DIR / "en-music.csv"))
    board = phone()
    board.goto(s.server.board_url())
    board.wait_for_selector("tr[data-seat='2']")
    expect(board.locator("#clip")).to_be_hidden()  # shown, not armed: no tune yet
    s.host("arm")
    expect(board.locator("#clip")).to_have_text("♪ Clip playing")
    board.screenshot(path=str(SCREENS / "companion-board-clip.png"))
    s.press(1)
    expect(board.locator("#clip")).to_have_text("♪ Clip paused")
    s.host("correct")
    expect(board.locator("#clip")).to_be_hidden()
