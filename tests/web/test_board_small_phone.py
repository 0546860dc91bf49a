"""The scoreboard's end on a 360 px phone (headless Chromium), in Polish: a winner's name stays
whole on its line and its mark ("WYGRANA") beside it or on a line of its own, never "Gracz" over
"2 WYGRANA"; every score on one line. The winner's row took the host page's first-bell type
(``.first .name``, 2.6 rem) and split the name."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from controller.box.views import messages
from games.i18n import set_language
from tests.web.conftest import Served
from tests.web.phones import SCREENS

#: each row's name, how many lines the name takes, and how many its mark and its score take
ROW_LINES = """() => [...document.querySelectorAll("#players tr")].map((row) => {
  const lines = (node) => {
    if (!node) return 0;
    const r = document.createRange(); r.selectNodeContents(node);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  };
  const cell = row.querySelector("td.name");
  return [cell.firstChild.textContent, lines(cell.firstChild), lines(cell.querySelector(".margin")),
          lines(row.querySelector("td.score"))];
})"""


@pytest.mark.parametrize("language", ["pl"])
def test_the_scoreboard_s_end_keeps_each_winner_s_name_whole_on_a_small_phone(
        served: Any, phone: Any, language: str) -> None:
    set_language(language)
    s: Served = served("quiz", 3, lang=language, questions=1)
    board = phone()
    board.goto(s.server.board_url())
    board.wait_for_selector("tr[data-seat='2']")
    s.host("arm")
    s.wait_view(lambda v: v.get("phase") == "armed")
    s.press(1)
    s.wait_view(lambda v: v.get("phase") == "answering")
    s.host("correct")
    s.wait_view(lambda v: bool(v.get("finished")))
    expect(board.locator("tr[data-seat='1'] .margin")).to_have_text(messages()["won"])
    board.screenshot(path=str(SCREENS / f"companion-board-won-360-{language}.png"))
    rows = board.evaluate(ROW_LINES)
    assert all(name == 1 and mark <= 1 and score == 1 for _name, name, mark, score in rows), rows
