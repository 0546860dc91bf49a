"""The host page on a quiz's final results in the menu, as the screen's keys there (docs/quiz.md,
"The final results"): its "next" shows the last answer, then goes back to the menu (it showed no
button there: the host walked to the screen). Between the menu's games its player rows are names
for the next game: no word nor score of the closed game (Player 2 read "stisknuto" all evening).

``buzzerbox menu --web 0`` in this process as the kiosk runs it (tests/display/kiosk.py; the
games decided in their own process), the host page in headless Chromium on a 360x640 phone. The
results never close by themselves here (``--results-s``): only a key, or the host page, closes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from games.i18n import _
from tests.display.kiosk import Reached, Script, Steps, in_the_menu
from tests.display.test_final_results_keys import KEPT_UP_S, answer_shown
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import (
    PACK,
    again_until,
    bell,
    first_question_won_by,
    until,
)
from tests.web.phones import SCREENS
from tests.web.test_host_page_small_phone import small_phone  # noqa: F401 (the fixture)
from tests.web.test_phones_quiz_teams import assert_fits_the_phone
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

BETWEEN = "No game running: choose the next one in the menu on the big screen."


def final_results(host: Any, capsys: pytest.CaptureFixture[str], frame: Any) -> Steps:
    """From the menu: the two-question quiz, the host page logged in at the second question, player 2
    right on it: the final results on the big screen, the frame that shows them."""
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield [Reached("the second question")]
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    host_logged_in(host, port_in(line), line)
    frame = yield from again_until(frame, [pygame.K_SPACE], lambda f: asked(f, "BUZZ!"))
    frame = yield from again_until(frame, bell(2), lambda f: asked(f, "FIRST"))
    frame = yield [pygame.K_c]  # right: the quiz is over
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
    return (yield [Reached("the final results")])


def next_twice(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], language: str) -> Script:
    """On the final results the host page's next: the last answer on the big screen, then the menu."""
    frame = yield []
    frame = yield from final_results(host, capsys, frame)
    step = host.locator("#buttons button[data-action='next']")
    expect(step).to_have_text(_("Reveal"))  # the last answer is not out yet
    host.screenshot(path=str(SCREENS / f"host-final-results-{language}.png"))
    step.click()
    frame = yield from until(frame, answer_shown)
    seen["answer"] = asked(frame, "Final results")  # shown on the results: they stay
    expect(step).to_have_text(_("Back to the menu"))  # now a step forward goes back, as the screen's keys
    expect(step).to_have_class("leave")
    host.screenshot(path=str(SCREENS / f"host-final-results-back-{language}.png"))
    assert_fits_the_phone(host)
    step.click()
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the menu back")]
    expect(host.locator("#note")).to_have_text(_(BETWEEN))  # the host page is between games
    expect(host.locator("#buttons button")).to_have_count(0)
    seen["back"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def rows_between(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], language: str) -> Script:
    """The final results closed on the screen (Enter): the host page's rows are the players' names and the
    closed game's final scores, not its last words."""
    frame = yield []
    frame = yield from final_results(host, capsys, frame)
    rows = host.locator("#scores .player")
    expect(rows.nth(1).locator(".label")).not_to_have_text("")  # in the game: Player 2's word and score
    expect(rows.nth(1).locator(".score")).to_have_text("1")
    final_scores = rows.locator(".score").all_text_contents()
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the menu back")]
    expect(host.locator("#note")).to_have_text(_(BETWEEN))
    host.screenshot(path=str(SCREENS / f"host-menu-between-rows-{language}.png"))
    for seat in range(3):
        expect(rows.nth(seat).locator("input.name")).to_have_value(_("Player {n}").format(n=seat + 1))
    expect(rows.locator(".label")).to_have_text(["", "", ""])  # not the closed game's "pressed", "right" ...
    expect(rows.locator(".score")).to_have_text(final_scores)  # how the closed game ended stays readable
    expect(host.locator("#evening .evening-game")).to_have_count(1)
    assert_fits_the_phone(host)
    seen["back"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["en", "cs"])
def test_the_host_page_s_next_on_the_final_results_shows_the_answer_then_goes_back_to_the_menu(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        small_phone: Any) -> None:  # noqa: F811 (the fixture)
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, next_twice(seen, small_phone(), capsys, language), language=language,
                packs={"two.csv": PACK}, web=True, results_s=KEPT_UP_S)
    assert seen.get("answer") and seen.get("back"), seen


@pytest.mark.parametrize("language", ["cs"])
def test_between_the_menu_s_games_the_host_page_s_rows_carry_nothing_of_the_closed_game(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        small_phone: Any) -> None:  # noqa: F811 (the fixture)
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, rows_between(seen, small_phone(), capsys, language), language=language,
                packs={"two.csv": PACK}, web=True, results_s=KEPT_UP_S)
    assert seen.get("back"), seen


def test_the_host_page_s_way_back_from_the_final_results_is_named_for_where_it_goes() -> None:
    """A quiz of one question judged: its final results offer Undo and the last answer (the host's next);
    once the answer is out, next is the way back: the menu's in an evening, ``play``'s close otherwise."""
    from controller.box.press import Press
    from controller.box.runtime import Box
    from controller.box.views import LEAVE, host_buttons
    from games import registry
    from games.quiz import PACKS_DIR

    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, 1, pack=str(PACKS_DIR / "en-general.csv"), questions=1))
    box.host_button("arm", 1_000_000)
    box.apply_press(Press(1, "bell", 1_500_000))
    box.step(1_600_000)
    box.host("correct", 2_000_000)
    assert box.engine.finished
    assert [(b["name"], b["kind"]) for b in host_buttons(box)] == [("undo", "undo"), ("next", "reveal")]
    box.host_button("next", 2_100_000)  # the last answer
    assert box.leaves_results("next") and box.leaves_results("step") and not box.leaves_results("undo")
    for evening, label in ((True, "Back to the menu"), (False, "Close the results")):
        assert [(b["name"], b["kind"], b["label"]) for b in host_buttons(box, evening=evening)] == [
            ("undo", "undo", "Undo"), ("next", LEAVE, label)]
