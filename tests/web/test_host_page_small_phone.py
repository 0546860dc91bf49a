"""The host page on a small phone (360x640, real headless Chromium) in
``play --web`` (no menu): at the game's end it says who won, not the last
question's first bell; its packs part says what an upload does where no
menu runs; and nothing on it (16-character names without a space, the pack
checker's long lines, a long file name) makes it wider than the phone."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from games.i18n import _, set_language
from games.quiz.packs import check_pack
from tests.processes import HANG_S
from tests.web.conftest import Served
from tests.web.phones import SCREENS
from tests.web.test_host_pages import log_in
from tests.web.test_phones_quiz_teams import assert_fits_the_phone

#: the longest names the menu takes (16 characters), without a space to break at
NAMES = ["WojciechWWWWWWWW", "MagdalénaWeissov", "BartłomiejSzczęs"]
#: an empty pack's checker line ends in the whole header, one "word" of 90 characters
LONG_FILE = "the-quiz-night-of-the-village-fire-brigade-2026-final-version-really-final.csv"


@pytest.fixture
def small_phone(phone: Any) -> Callable[[], Any]:
    """New pages on a 360x640 phone (the suite's small phone, shorter), each its own browser context."""
    def new_page() -> Any:
        page = phone()
        page.set_viewport_size({"width": 360, "height": 640})
        return page

    return new_page


def first_bell_then_right(s: Served, host: Any, seat: int) -> None:
    """The only question armed from the host page, ``seat``'s bell (on the page, big), judged right: the quiz is over."""
    host.click("button[data-action='arm']")
    s.wait(lambda: s.public["phase"] == "armed")
    s.press(seat)
    expect(host.locator("#first .name")).to_have_text(s.view.strip[seat]["name"])


def judged_right(s: Served, host: Any) -> None:
    host.click("button[data-action='correct']")
    s.wait(lambda: bool(s.public.get("finished")))
    expect(host.locator("#phase")).to_have_text(_("Game over"))


@pytest.mark.parametrize("language", ["en", "cs"])
def test_at_the_game_s_end_the_host_page_says_who_won_not_the_last_first_bell(
        served: Any, small_phone: Any, language: str) -> None:
    set_language(language)  # the texts this test expects: the box's language
    s: Served = served("quiz", 3, lang=language, questions=1, answer_time_us=int(HANG_S * 1_000_000))
    host = small_phone()
    log_in(host, s)
    first_bell_then_right(s, host, 2)
    expect(host.locator("#result")).to_be_hidden()
    judged_right(s, host)
    host.screenshot(path=str(SCREENS / f"host-small-end-{language}.png"))
    result = host.locator("#result")
    expect(result).to_contain_text(_("{winner} won").format(winner=_("Player {n}").format(n=3)))
    expect(result).to_be_visible()
    expect(host.locator("#first")).to_be_hidden()  # no "FIRST ... the only bell" left from the last question


def test_nothing_on_the_host_page_widens_it_past_a_small_phone(served: Any, small_phone: Any, tmp_path: Path) -> None:
    """Names of 16 letters without a space (the first bell's and the result's big type), the pack
    checker's line ending in a 90-character header, a long file's name: each breaks, the page stays 360 px."""
    set_language("pl")
    s: Served = served("quiz", 3, NAMES, lang="pl", questions=1, answer_time_us=int(HANG_S * 1_000_000))
    host = small_phone()
    log_in(host, s)
    empty = tmp_path / LONG_FILE
    empty.write_text("", encoding="utf-8")
    host.set_input_files("#pack-file", str(empty))
    host.click("#pack-send")
    [line] = [str(p) for p in check_pack(empty)]
    said = host.locator("#pack-lines li")
    expect(said).to_have_count(1)
    expect(said).to_contain_text(line.split(": ", 1)[1])  # the box shortens the name; the header line whole
    host.locator("#pack-lines").scroll_into_view_if_needed()
    host.screenshot(path=str(SCREENS / "host-small-pack-long.png"))
    assert_fits_the_phone(host)
    first_bell_then_right(s, host, 2)
    host.evaluate("window.scrollTo(0, 0)")
    host.screenshot(path=str(SCREENS / "host-small-first-long.png"))
    assert_fits_the_phone(host)
    judged_right(s, host)
    expect(host.locator("#result")).to_contain_text(NAMES[2])
    host.screenshot(path=str(SCREENS / "host-small-end-long.png"))
    assert_fits_the_phone(host)


@pytest.mark.parametrize("language", ["en", "pl"])
def test_without_the_menu_the_packs_part_says_what_an_upload_does(served: Any, small_phone: Any, tmp_path: Path,
                                                                  language: str) -> None:
    set_language(language)
    s: Served = served("quiz", 3, lang=language)
    host = small_phone()
    log_in(host, s)
    # no menu runs: the page says where the pack goes and when it can be played (not only "the menu's pack row")
    expect(host.locator("#packs-note")).to_have_text(_(
        "This game was started without the menu: a pack uploaded here is checked, then kept in the box's packs "
        "folder, and the menu's pack row offers it the next time the box runs its menu."))
    good = tmp_path / "night.csv"
    good.write_text("question,answer\nRed planet?,Mars\n", encoding="utf-8")
    host.set_input_files("#pack-file", str(good))
    host.click("#pack-send")
    expect(host.locator("#status")).to_have_text(_("Pack saved: the menu's pack row offers it the next time the "
                                                   "box runs its menu."))
    host.locator("#packs-box").scroll_into_view_if_needed()
    host.screenshot(path=str(SCREENS / f"host-small-packs-play-{language}.png"))
