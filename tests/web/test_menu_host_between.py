"""Between the menu's games the host page shows the between-games state:
the closed game's last question card (its answer, the next question) goes
with the game. And in the menu its packs part says the menu's pack row
offers an uploaded pack (``play`` says otherwise: test_host_page_small_phone).

``buzzerbox menu --web 0`` in this process as the kiosk runs it (keys on
what its screen shows, tests/display/kiosk.py; the games decided in their
own process), the host page in headless Chromium on a 360x640 phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from games.i18n import _
from tests.display.kiosk import Frame, Reached, Script, Steps, in_the_menu
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import PACK, first_question_won_by, until
from tests.web.phones import SCREENS
from tests.web.test_host_page_small_phone import small_phone  # noqa: F401 (the fixture)
from tests.web.test_phones_quiz_teams import assert_fits_the_phone
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def ended_early(frame: Frame, host: Any) -> Steps:
    """The game ended early (Esc, Esc), the menu back: the host page says no game runs."""
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # meant: ended early
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the menu back")]
    expect(host.locator("#note")).to_have_text(_("No game running: choose the next one in the menu on the big screen."))
    return frame


def evening(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], language: str) -> Script:
    """A quiz started from the menu, the host page logged in at its second question; the host ends it
    early (Esc, Esc) and the menu is back."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)  # the second question on the big screen
    frame = yield [Reached("the second question")]
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    host_logged_in(host, port_in(line), line)
    cue = host.locator("#cue")
    expect(cue).to_contain_text(_("Question {number}").format(number=2))  # the host reads it with its answer
    expect(cue.locator(".cue-answer strong")).to_have_text("4")
    expect(host.locator("#packs-note")).to_have_text(_(
        "Add a pack file (.csv, .json, .xlsx or .ods) to the box's packs folder: it is checked first, then the "
        "menu's pack row offers it."))
    host.screenshot(path=str(SCREENS / f"host-menu-in-game-{language}.png"))
    seen["in game"] = True
    frame = yield from ended_early(frame, host)
    host.screenshot(path=str(SCREENS / f"host-menu-between-{language}.png"))
    expect(cue).to_be_hidden()  # no question is asked between games: the closed game's card went with it
    expect(host.locator("#first")).to_be_hidden()
    expect(host.locator("#result")).to_be_hidden()
    assert_fits_the_phone(host)
    seen["between"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["cs"])
def test_between_the_menu_s_games_the_host_page_keeps_no_question_card(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        small_phone: Any) -> None:  # noqa: F811 (the fixture)
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, evening(seen, small_phone(), capsys, language), language=language,
                packs={"two.csv": PACK}, web=True, seen=seen)
    assert seen.get("in game") and seen.get("between"), seen
