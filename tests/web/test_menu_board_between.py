"""Between the menu's games the scoreboard (``/board``) is as the host page is there: the closed
game's final scores stay, none of its words of a moment do (its phase, "#2", the "FIRST" of the
last bell and its margins, the "WON" of its results): the board read "Answering", "#2" and
"First" beside Player 2 all evening after the host had ended the quiz on that bell.

``buzzerbox menu --web 0`` in this process as the kiosk runs it (tests/display/kiosk.py; the games
decided in their own process, the pages served by the evening's phones' server), the scoreboard
in headless Chromium on a 360x640 phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller.box.views import messages
from games.i18n import _
from tests.display.kiosk import Reached, Script, in_the_menu
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import again_until, bell, first_question_won_by, until
from tests.web.phones import SCREENS
from tests.web.test_host_page_small_phone import small_phone  # noqa: F401 (the fixture)
from tests.web.test_menu_host_final_results import KEPT_UP_S, PACK, final_results
from tests.web.test_phones_quiz_teams import assert_fits_the_phone
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def between_games(board: Any, scores: list[str]) -> None:
    """The scoreboard between the menu's games: no game's words, the closed game's final scores."""
    expect(board.locator("#phase")).to_have_text(_("No game running"))
    expect(board.locator("#question")).to_have_text("")
    expect(board.locator("#players .margin")).to_have_count(0)  # no "First", "+0.1 s" nor "WON"
    expect(board.locator("#players tr.first")).to_have_count(0)
    expect(board.locator("#players .score")).to_have_text(scores)  # how the closed game ended stays


def ended_on_a_bell(seen: dict[str, Any], board: Any, capsys: pytest.CaptureFixture[str], language: str) -> Script:
    """The quiz's second question armed, Player 2's bell answering on the board; the host ends the
    game there (Esc, Esc): back in the menu, the board keeps the scores and says no game runs."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield [Reached("the second question")]
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    board.goto(f"http://localhost:{port_in(line)}/board")
    expect(board.locator("#question")).to_have_text("#2")
    frame = yield from again_until(frame, [pygame.K_SPACE], lambda f: asked(f, "BUZZ!"))
    frame = yield from again_until(frame, bell(2), lambda f: asked(f, "FIRST"))
    frame = yield [Reached("Player 2 answering")]
    expect(board.locator("tr[data-seat='1'] .margin")).to_have_text(messages()["first"])  # in the game: its words
    expect(board.locator("#phase")).not_to_have_text(_("No game running"))
    scores = board.locator("#players .score").all_text_contents()
    assert scores == ["1", "0", "0"], scores
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # meant: ended early
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the menu back")]
    between_games(board, scores)
    board.screenshot(path=str(SCREENS / f"board-menu-between-{language}.png"))
    assert_fits_the_phone(board)
    seen["between"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def after_the_results(seen: dict[str, Any], board: Any, host: Any, capsys: pytest.CaptureFixture[str],
                      language: str) -> Script:
    """The quiz played to its end, 1-1 (both "WON" on the board), the results closed (Enter): back in
    the menu, the board keeps the final scores, without its "WON" and "Game over"."""
    frame = yield []
    frame = yield from final_results(host, capsys, frame)
    board.goto(host.url.replace("/host", "/board"))
    expect(board.locator("#players .margin")).to_have_text([messages()["won"]] * 2)  # on the results: the winners
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the menu back")]
    between_games(board, ["1", "1", "0"])
    seen["between"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize(("how", "language"), [("ended early", "en"), ("ended early", "pl"), ("played out", "en")])
def test_between_the_menu_s_games_the_board_keeps_the_final_scores_and_no_word_of_the_closed_game(
        how: str, language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], small_phone: Any) -> None:  # noqa: F811 (the fixture)
    seen: dict[str, Any] = {}
    script = (ended_on_a_bell(seen, small_phone(), capsys, language) if how == "ended early"
              else after_the_results(seen, small_phone(), small_phone(), capsys, language))
    in_the_menu(tmp_path, monkeypatch, script, language=language, packs={"two.csv": PACK}, web=True, results_s=KEPT_UP_S)
    assert seen.get("between"), (how, seen)
