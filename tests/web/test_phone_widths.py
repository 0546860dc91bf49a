"""Every game's phone page fits a 360×740 phone in each of the box's
languages, in every phase a phone shows (issue 48: Pictomania's page was
382 px wide). One ``play --web`` per game and language, on a profile's
stations named as long as a profile allows, one browser for all: each game
is played to its end by actions (a seat's first move its phone is offered,
else the host's next step), and after each the phones are measured once
they have drawn what the box published; then the pages the server's end
leaves, and the seat picker. Pictomania's own phases (dealt by the host,
rung on the stations, revealed) are in test_phones_pictomania.py. Fiki
Miki's three variants are played in test_phone_widths_fiki_miki.py: a file
of their own, so that the suite's workers (``--dist loadfile``) share
these long cases."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.quiz import PACKS_DIR
from tests.fits import LONG_NAMES
from tests.web.conftest import READY_MS, Served
from tests.web.phones import SCREENS
from tests.web.test_phones_fiki_miki import DECK
from tests.web.test_phones_piepmatz import SHORT
from tests.web.test_phones_quiz_teams import assert_fits_the_phone

FIKI = {"hand_size": 2, "threshold": 10, "deck": DECK, "bell_window_us": 300_000}
#: each game with phone pages, set up to pass every phase a phone shows in a few moves
GAMES: dict[str, tuple[str, int, dict[str, Any]]] = {
    "fiki-miki-I": ("fiki-miki", 2, {"variant": "I", **FIKI}),
    "fiki-miki-IIA": ("fiki-miki", 2, {"variant": "IIA", **FIKI}),
    "fiki-miki-IIB": ("fiki-miki", 2, {"variant": "IIB", **FIKI}),
    "piepmatz": ("piepmatz", 2, SHORT),
    # teams sign up on the phones, then an all-play question is answered on them
    "quiz": ("quiz", 4, {"rules": "teams", "rounds": [{"questions": 2, "rules": "all-play"}]}),
}
#: the phases each game must be seen in on the phones (the quiz: the teams' sign-up, its question, its end);
#: a bell window ("bell") is measured too whenever a frame shows it, but is not required: it closes by time
PHASES = {"fiki-miki-I": {"play", "over"}, "fiki-miki-IIA": {"lead", "follow", "over"},
          "fiki-miki-IIB": {"lead", "follow", "over"}, "piepmatz": {"play", "take", "final", "over"},
          "quiz": {"idle", "all_play", "round_over"}}
#: moves in a game at most: a guard against a game that does not end, far above what these take
MOVES = 60

#: the page notes the version of each seat message once it has drawn it (after the page's own handler)
DRAWN = """(() => {
  const Real = window.WebSocket;
  window.WebSocket = function (...args) {
    const ws = new Real(...args);
    ws.addEventListener("message", (ev) => {
      let m; try { m = JSON.parse(ev.data); } catch (e) { return; }
      if (m.type === "seat") setTimeout(() => { window.__drawn = m.version; }, 0);
      if (m.type === "ended") setTimeout(() => { window.__ended = true; }, 0);
    });
    return ws;
  };
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3, prototype: Real.prototype});
})();"""


def _drawn(s: Served, pages: list[Any]) -> None:
    """Wait until every phone has drawn the latest pages the box published."""
    version = s.pages_version
    for page in pages:
        page.wait_for_function("v => (window.__drawn || 0) >= v", arg=version, timeout=READY_MS)


def _next(s: Served, players: int) -> None:
    """One step of the game: a seat's first move its phone is offered (teams stay as dealt), sent as
    the phones' server sends a tap; else the host's next step; none while a bell window is open (a
    bell is rung on the stations: the phones show the window until it closes by time)."""
    if s.seat(0)["phase"] == "bell":
        return
    for seat in range(players):
        moves = [m for m in s.seat(seat)["moves"] if m["kind"] != "team"]
        if moves:
            s.move(seat, moves[0]["kind"], moves[0]["args"])
            return
    s.host("step")


#: the box's languages, each game played in each
LANGUAGES = ["en", "cs", "pl"]
#: the games played in test_phone_widths_fiki_miki.py
FIKI_MIKI = sorted(game for game in GAMES if GAMES[game][0] == "fiki-miki")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(set(GAMES) - set(FIKI_MIKI)))
def test_the_phone_page_fits_a_small_phone_in_every_phase(served: Any, phone: Any, game: str, language: str) -> None:
    fits_in_every_phase(served, phone, game, language)


def fits_in_every_phase(served: Any, phone: Any, game: str, language: str) -> None:
    """``game`` played to its end in ``language``, its phones measured in each phase, then ended."""
    # ``play --web`` in the box's language on a profile's stations, named as long as a profile allows
    name, players, options = GAMES[game]
    if name == "quiz":
        options = {**options, "pack": str(PACKS_DIR / f"{language}-general.csv")}
    s: Served = served(name, players, stations=LONG_NAMES[:players], lang=language, pages=True, **options)
    pages = [phone() for _ in range(players)]
    for seat, page in enumerate(pages):
        page.add_init_script(DRAWN)
        s.take_seat(page, seat)
        expect(page.locator("#status.good")).to_be_visible()  # welcomed: its seat's page is drawn
    picker = phone()  # the seat picker a scanned join code opens: every seat by its (longest) name
    picker.goto(s.server.join_url())
    expect(picker.locator(".pick button")).to_have_count(players)
    assert_fits_the_phone(picker)
    phases: list[str] = []
    for _move in range(MOVES):
        before = s.pages_version
        seen = s.seat(0)  # the pages as published: their phase, the game over
        phase, over = str(seen["phase"]), bool(seen["finished"])
        _drawn(s, pages)
        for page in pages:
            assert_fits_the_phone(page)
        if phase not in phases:
            phases.append(phase)
            pages[0].screenshot(path=str(SCREENS / f"phone-{game}-{phase}-{language}.png"), full_page=True)
        if over:
            break
        if s.pages_version == before:  # still the phase measured: its move now
            _next(s, players)
        # a move, or the time it waited for; a window that closed while the pages were measured was
        # published already (the box publishes inside its step): that new phase is measured first
        s.wait(lambda b=before: s.pages_version > b)  # type: ignore[misc]
    else:
        raise AssertionError(f"{game} did not end within {MOVES} moves (phases: {phases})")
    assert PHASES[game] <= set(phases), f"{game} went through {phases}"
    s.stop()  # the game and its server close: the pages say it is over, with the scores
    for page in pages:
        page.wait_for_function("() => window.__ended === true", timeout=READY_MS)
        assert_fits_the_phone(page)
    pages[0].screenshot(path=str(SCREENS / f"phone-{game}-ended-{language}.png"), full_page=True)
