"""Every game's phone page fits a 360×740 phone in each of the box's
languages (issue 48: Pictomania's page was 382 px wide): two phones tap
their way through what the phones can do (the first key each time, both
seats in turn), and the page is measured after each answer. Pictomania's
own phases (dealt by the host, rung on the stations, revealed) are in
test_phones_pictomania.py; a team quiz's sign-up in test_phones_quiz_teams.py."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.i18n import set_language
from tests.web.conftest import Served
from tests.web.phones import SCREENS
from tests.web.test_phones_fiki_miki import DECK
from tests.web.test_phones_piepmatz import SHORT
from tests.web.test_phones_quiz_teams import assert_fits_the_phone

GAMES: dict[str, dict[str, Any]] = {
    "fiki-miki": {"variant": "I", "hand_size": 2, "threshold": 10, "deck": DECK, "bell_window_us": 300_000},
    "piepmatz": SHORT,
}
#: taps per phone: enough to pass the first phases, few enough for a busy CI machine
TAPS = 4


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_phone_page_fits_a_small_phone_as_it_is_played(served: Any, phone: Any, game: str, language: str) -> None:
    set_language(language)
    try:
        s: Served = served(game, 2, **GAMES[game])
        pages = [phone(), phone()]
        for seat, page in enumerate(pages):
            page.goto(s.server.seat_url(seat))
            expect(page.locator("#status.good")).to_be_visible()  # welcomed: its seat's page is drawn
            assert_fits_the_phone(page)
        for _tap in range(TAPS):
            for page in pages:
                choices = page.locator(".card-actions button:enabled")  # a card's moves, once it is chosen
                keys = choices if choices.count() else page.locator("main button:enabled")
                if not keys.count():
                    continue
                page.evaluate("document.getElementById('status').className = 'status'")
                keys.first.click()
                # an answer, a key armed for its second tap, or a card chosen (its moves offered)
                expect(page.locator("#status.good, #status.bad, button.armed, button.chosen")).not_to_have_count(0)
                assert_fits_the_phone(page)
        pages[0].screenshot(path=str(SCREENS / f"phone-{game}-{language}.png"), full_page=True)
    finally:
        set_language("en")
