"""Every game's phone page fits a 360×740 phone in each of the box's
languages, in every phase a phone shows (issue 48: Pictomania's page was
382 px wide). One server per game and language, one browser for all: each
game is played to its end by actions (a seat's first legal move, else the
host's next step), and after each the phones are measured once they have
drawn what the box published; then the pages the server's end leaves,
and the seat picker. Pictomania's own phases (dealt by the host,
rung on the stations, revealed) are in test_phones_pictomania.py."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from benchmarks import one_process
from controller.box.timeline import box_now_us
from games.base import Action
from games.i18n import set_language
from games.quiz import PACKS_DIR
from tests.fits import LONG_NAMES
from tests.web.conftest import READY_MS, OneProcessServed
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


def _drawn(s: OneProcessServed, pages: list[Any]) -> None:
    """Wait until every phone has drawn the latest snapshot the box published."""
    version = s.server.publisher.latest.version
    for page in pages:
        page.wait_for_function("v => (window.__drawn || 0) >= v", arg=version, timeout=READY_MS)


def _kind_args(move: Any) -> tuple[str, dict[str, Any]]:
    seen = move if isinstance(move, dict) else move.to_json()  # as a phone is offered it
    return str(seen["kind"]), dict(seen.get("args") or {})


def _next(s: OneProcessServed, players: int) -> bool:
    """One step of the game: a seat's first move (teams stay as dealt), else the host's next step;
    none while a bell window is open. False when nothing changed (the game waits for time)."""
    box = s.box
    t = box_now_us() + box.time_offset_us
    if box.engine.public_view().get("phase") == "bell":
        return False  # a bell is rung on the stations: the phones show the window until it closes
    for seat in range(players):
        moves = [_kind_args(m) for m in box.engine.legal_moves(seat)]
        moves = [(k, a) for k, a in moves if k != "team"]
        if moves:
            kind, args = moves[0]
            return bool(box.apply_action(Action(kind, t, seat, args)))
    return bool(box.host(box.host_kind("step"), t))


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_phone_page_fits_a_small_phone_in_every_phase(served_one_process: Any, phone: Any, game: str,
                                                         language: str) -> None:
    # On the one-process harness: the test walks each game through every phase by the engine's own legal
    # moves and waits for each snapshot by the publisher's version, which only a box and server in this
    # process show; the pages' layout is the same whoever serves them (the split design's pages in the
    # box's language: test_phones_quiz_teams, test_phones_pictomania)
    name, players, options = GAMES[game]
    set_language(language)
    try:
        if name == "quiz":
            options = {**options, "pack": str(PACKS_DIR / f"{language}-general.csv")}
        s: OneProcessServed = served_one_process(name, players, LONG_NAMES[:players], **options)
        pages = [phone() for _ in range(players)]
        for seat, page in enumerate(pages):
            page.add_init_script(DRAWN)
            page.goto(s.server.seat_url(seat))
            expect(page.locator("#status.good")).to_be_visible()  # welcomed: its seat's page is drawn
        picker = phone()  # the seat picker a scanned join code opens: every seat by its (longest) name
        picker.goto(s.server.join_url())
        expect(picker.locator(".pick button")).to_have_count(players)
        assert_fits_the_phone(picker)
        phases: list[str] = []
        for _move in range(MOVES):
            with s.box.lock:
                phase = str(s.box.engine.public_view().get("phase"))
                over = s.box.engine.finished
                before = s.server.publisher.latest.version
            _drawn(s, pages)
            for page in pages:
                assert_fits_the_phone(page)
            if phase not in phases:
                phases.append(phase)
                pages[0].screenshot(path=str(SCREENS / f"phone-{game}-{phase}-{language}.png"), full_page=True)
            if over:
                break
            with s.box.lock:
                if s.server.publisher.latest.version == before:  # still the phase measured: its move now
                    _next(s, players)
            # a move, or the time it waited for; a window that closed while the pages were measured was
            # published already (the box publishes inside its step): that new phase is measured first
            s.wait(lambda b=before: s.server.publisher.latest.version > b)
        else:
            raise AssertionError(f"{game} did not end within {MOVES} moves (phases: {phases})")
        assert PHASES[game] <= set(phases), f"{game} went through {phases}"
        s.stop()
        one_process.stop_companion(s.game)  # the game and its server close: the pages say it is over, with the scores
        for page in pages:
            page.wait_for_function("() => window.__ended === true", timeout=READY_MS)
            assert_fits_the_phone(page)
        pages[0].screenshot(path=str(SCREENS / f"phone-{game}-ended-{language}.png"), full_page=True)
    finally:
        set_language("en")
