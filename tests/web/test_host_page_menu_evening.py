"""The host page through a menu evening on a 360 px phone (``buzzerbox menu --web 0`` as the kiosk
runs it, tests/display/kiosk.py; the page in headless Chromium), as an exploratory tester drove it:

- no script error on the page all evening: the phones' server said the menu's next game as ``{}``
  until the menu first said it (the first game's end), and the page threw "m.next.options is not
  iterable" there, drawing neither the evening nor the seats for that message;
- a score of two digits and a minus ("-11") on one line (it read "-1" over "1"), and each of the next
  game's option lists as wide as its longest choice ("t…" for "tak");
- a refused upload's red word goes when the host dismisses it, and when the next game starts (it
  stayed up through the whole next quiz);
- between games the header is the page's own (the closed game's title and phase stayed above "No game
  running"), and no empty grey bar sits at the top (the status with nothing to say)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from games.i18n import _
from tests.display.kiosk import Reached, Script, in_the_menu
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import PACK, first_question_won_by, until
from tests.web.phones import SCREENS
from tests.web.test_host_page_small_phone import small_phone  # noqa: F401 (the fixture)
from tests.web.test_menu_host_between import ended_early
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

BROKEN = b"question,answer\nWhat?,\n,nobody asked\n"

#: each score's text on the host page and how many lines it takes
SCORE_LINES = """() => [...document.querySelectorAll("#scores .score")].map((el) => {
  const r = document.createRange(); r.selectNodeContents(el);
  return [el.textContent, new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size];
})"""

#: each of the next game's option lists: its width, the width its longest choice asks for, and its row's
SELECT_WIDTHS = """() => [...document.querySelectorAll("#next select")].map((el) => {
  const free = el.cloneNode(true);
  free.style.cssText = "position:absolute;left:0;top:0;width:auto;max-width:none;min-width:0;flex:none";
  el.parentNode.appendChild(free);
  const wants = free.getBoundingClientRect().width;
  free.remove();
  return [el.getAttribute("data-option"), el.getBoundingClientRect().width, wants,
          el.parentNode.getBoundingClientRect().width];
})"""


def upload_refused(host: Any) -> None:
    """A broken pack sent from the host page: refused, said in red with the checker's lines."""
    host.set_input_files("#pack-file", files=[{"name": "broken.csv", "mimeType": "text/csv", "buffer": BROKEN}])
    host.click("#pack-send")
    status = host.locator("#status")
    expect(status).to_contain_text(_("The pack was not saved: fix each problem below and upload it again."))
    expect(status).to_have_class("status bad")
    expect(host.locator("#pack-lines li").first).to_be_visible()


def gone(host: Any) -> None:
    """What the upload said is gone: no status bar at all, no checker's lines."""
    expect(host.locator("#status")).to_be_hidden()
    expect(host.locator("#pack-lines li")).to_have_count(0)


def on_one_line(host: Any) -> None:
    lines = host.evaluate(SCORE_LINES)
    assert lines and all(n == 1 for _text, n in lines), lines


def evening(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], language: str) -> Script:
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield [Reached("the second question")]
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    host_logged_in(host, port_in(line), line)
    gone(host)  # logged in, nothing to say: no empty bar over the page
    score = host.locator("#scores .player[data-seat='1'] .score")
    for points in range(-1, -12, -1):  # the host takes 11 points from player 2: "-11"
        host.click("#scores .player[data-seat='1'] .adjust[data-adjust='-1']")
        expect(score).to_have_text(str(points))
    on_one_line(host)
    upload_refused(host)
    host.click("#status button.dismiss")  # the host dismisses it
    gone(host)
    seen["in game"] = True
    frame = yield from ended_early(frame, host)
    expect(host.locator("#title")).to_have_text(_("Host remote"))  # not the closed quiz's title
    expect(host.locator("#phase")).to_have_text("")  # nor its last phase
    expect(host.locator("#evening .evening-game")).to_have_count(1)
    expect(host.locator("#next select").first).to_be_visible()
    on_one_line(host)
    widths = host.evaluate(SELECT_WIDTHS)
    # as wide as its longest choice, or the whole row (a choice longer than the phone is cut there only)
    assert widths and all(width >= min(wants, row) - 0.5 for _key, width, wants, row in widths), widths
    upload_refused(host)
    host.screenshot(path=str(SCREENS / f"host-menu-evening-between-{language}.png"), full_page=True)
    seen["between"] = True
    host.click("#next-start")  # the next game starts from the host page
    frame = yield from until(frame, lambda f: not asked(f, MENU_HINT))
    gone(host)  # the refusal went with the evening before the game
    expect(host.locator("#title")).not_to_have_text(_("Host remote"))  # the game's own title again
    seen["next game"] = True
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def test_the_host_page_through_a_menu_evening_on_a_small_phone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        small_phone: Any) -> None:  # noqa: F811 (the fixture)
    """In Polish, as the tester's evening ran (its longer words wrap and cut first)."""
    seen: dict[str, Any] = {}
    host = small_phone()
    errors: list[str] = []
    host.on("pageerror", lambda error: errors.append(str(error)))
    in_the_menu(tmp_path, monkeypatch, evening(seen, host, capsys, "pl"), language="pl", packs={"two.csv": PACK},
                web=True, seen=seen)
    assert seen.get("in game") and seen.get("between") and seen.get("next game"), seen
    assert not errors, errors  # "m.next.options is not iterable" as the first game closed
