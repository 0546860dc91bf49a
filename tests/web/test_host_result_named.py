"""Who won, as the host page and the menu's evening say it, is who the big screen's final results
crown: a team quiz's winning team (the host page said "Cleo, Dan won", the stations of the team
the podium named "Team 2"), and nobody when nobody scored (a quiz where every question went
unanswered had "Player 1, Player 2, Player 3 won" on the host page and the menu's row).

Against the processes users run: ``play --web`` (``served``) for the team quiz, ``buzzerbox menu
--web 0`` in this process as the kiosk runs it for the quiz nobody scored in, its host page in
headless Chromium on a 360x640 phone."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller.apps.menu import evening_game
from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.session import played_of
from controller.box.views import Publisher, messages
from games import registry
from games.i18n import _
from tests.display.kiosk import Reached, Script, in_the_menu
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import again_until, at_question, evening_row, until
from tests.display.test_menu_panel import panel_of
from tests.web.conftest import Served
from tests.web.phones import SCREENS
from tests.web.test_host_page_small_phone import small_phone  # noqa: F401 (the fixture)
from tests.web.test_host_pages import log_in
from tests.web.test_menu_host_final_results import KEPT_UP_S, PACK
from tests.web.test_phones_quiz_teams import assert_fits_the_phone
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

NAMES = ["Anna", "Ben", "Cleo", "Dan"]  # teams of two: Anna and Ben, Cleo and Dan


def one_question(players: int, right: int | None, **options: Any) -> Box:
    """A quiz of one question: armed, ``right``'s station first and right (None: nobody rang, next)."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(players, 1, questions=1, **options), station_names=NAMES[:players])
    box.step(1_000_000)
    box.host("arm", 1_000_000)
    if right is not None:
        box.apply_press(Press(right, "bell", 1_500_000))
        box.step(1_600_000)
        box.host("correct", 2_000_000)
    else:
        box.step(2_000_000)
        box.host("next", 2_000_000)
    assert box.engine.finished
    return box


def said_by_the_deciding_side(box: Box) -> tuple[list[str], tuple[str, ...], list[str], list[int]]:
    """Who won as the host page is told it, as the menu's evening row is, its first line, and the
    stations the final results crown."""
    from games.toolkit.results_words import ranking, won_stations

    with box.lock:
        host = Publisher(box).pages().host
    played = played_of(box)
    crowned = sorted(won_stations(ranking(box.engine.public_view())))
    return host["won_by"], played.won_by, evening_game(played, "/journals/quiz.jsonl").facts(), crowned


def test_a_team_quiz_is_won_by_its_team_and_a_quiz_nobody_scored_in_by_nobody() -> None:
    won_by, row, facts, crowned = said_by_the_deciding_side(one_question(4, 2, rules="teams"))
    assert won_by == ["Team 2"] and row == ("Team 2",), (won_by, row)
    assert facts[0] == _("{winner} won").format(winner="Team 2"), facts
    assert crowned == [2, 3]  # the podium crowns the team's block, both its stations
    won_by, row, facts, crowned = said_by_the_deciding_side(one_question(3, None))
    assert won_by == [] and row == () and crowned == [], (won_by, row, crowned)
    assert facts[0] == _("No winner"), facts
    won_by, row, facts, crowned = said_by_the_deciding_side(one_question(3, 1))  # a win alone: as before
    assert won_by == ["Ben"] and facts[0] == _("{winner} won").format(winner="Ben") and crowned == [1]


def test_the_host_page_names_the_team_that_won_a_team_quiz(served: Any, small_phone: Any) -> None:  # noqa: F811
    s: Served = served("quiz", 4, NAMES, rules="teams", questions=1)
    host = small_phone()
    log_in(host, s)
    s.host("arm")
    s.wait_view(lambda v: v.get("phase") == "armed")
    s.press(3)  # Dan, of the second team
    s.wait_view(lambda v: v.get("phase") == "answering")
    s.host("correct")
    s.wait_view(lambda v: bool(v.get("finished")))
    expect(host.locator("#result .name")).to_have_text(messages()["result_won"].format(winner="Team 2"))
    assert_fits_the_phone(host)
    host.screenshot(path=str(SCREENS / "host-result-team.png"))


def nobody_scored(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], language: str) -> Script:
    """The menu's two-question quiz, no bell on either: the final results crown nobody, the host page
    says no winner, and so does the menu's row of the game back in the menu."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_RETURN]  # Start
    frame = yield from until(frame, at_question(1))
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    host_logged_in(host, port_in(line), line)
    frame = yield [pygame.K_n]  # nobody rang: the next question
    frame = yield from until(frame, at_question(2))
    frame = yield [pygame.K_n]  # nobody again: the quiz is over
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
    frame = yield [Reached("the final results")]
    pygame.image.save(pygame.display.get_surface(), str(SCREENS / f"final-results-nobody-scored-{language}.png"))
    expect(host.locator("#result .name")).to_have_text(messages()["result_none"])
    frame = yield from again_until(frame, [pygame.K_n], lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the menu back")]
    games = host.locator("#evening .evening-game")
    expect(games).to_have_count(1)
    expect(games.locator(".hint").first).to_have_text(_("No winner"))
    frame = yield from evening_row(frame, "Finished")
    seen["row"] = panel_of(frame)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def test_a_quiz_nobody_scored_in_is_won_by_nobody_on_the_host_page_and_the_menu_s_row(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        small_phone: Any) -> None:  # noqa: F811 (the fixture)
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, nobody_scored(seen, small_phone(), capsys, "en"), language="en",
                packs={"two.csv": PACK}, web=True, results_s=KEPT_UP_S)
    row = seen["row"]
    assert _("No winner") in row and _("{winner} won").format(winner="").strip() not in row, row
