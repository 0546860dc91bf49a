"""The scoreboard (/board) on a TV or a projector, in headless Chromium at
1280x720 and 1920x1080: every text is at least 1/24 of the screen's height
(the HDMI picture's smallest type), and nothing runs off the side; on a
phone it keeps the phone's sizes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Served
from tests.web.phones import SCREENS

#: the size of every element holding text of its own, and how wide the page is against the window
MEASURE = """() => {
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (own && el.getClientRects().length) out.push([el.tagName + "." + el.className, el.textContent.trim(),
                                                     parseFloat(getComputedStyle(el).fontSize)]);
  }
  return {texts: out, wide: document.documentElement.scrollWidth, window: innerWidth};
}"""


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_scoreboard_on_a_tv_is_read_from_the_sofa(served: Any, browser: Any, size: tuple[int, int]) -> None:
    s: Served = served("quiz", 6)
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = ctx.new_page()
        page.set_default_timeout(8000)
        page.goto(s.server.board_url())
        page.wait_for_selector("tr[data-seat='5']")
        seen = page.evaluate(MEASURE)
        page.screenshot(path=str(SCREENS / f"companion-board-{size[0]}.png"))
    finally:
        ctx.close()
    assert {"TD.", "TD.score", "H1."} <= {tag for tag, _text, _px in seen["texts"]}
    small = [(tag, text, px) for tag, text, px in seen["texts"] if px < size[1] / 24 - 0.5]
    assert not small, small  # at 1280x720 it was 22 px: too small across a room
    assert seen["wide"] <= seen["window"]


def test_the_scoreboard_on_a_phone_keeps_the_phones_sizes(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3)
    page = phone()
    page.goto(s.server.board_url())
    page.wait_for_selector("tr[data-seat='2']")
    seen = page.evaluate(MEASURE)
    sizes = {tag: px for tag, _text, px in seen["texts"]}
    assert sizes["TD."] == 22 and sizes["H1."] == 22  # a phone held upright: the stylesheet's own sizes
    assert seen["wide"] <= seen["window"]
