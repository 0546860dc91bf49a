"""At a game's end the scoreboard (``/board``) marks who won the game, as
the big screen crowns them ("WON"), not the last question's first bell:
a quiz that Player 2 won 2-1 had Player 3, right on the last question,
in the scoreboard's big gold row saying "First", and Player 2 unmarked;
a 1-1 tie marked only the last one right. The board's state names the
game's winners (``winners``, the engine's ``outcome``) and the page marks
them once the game is ``finished``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest
from playwright.sync_api import expect

from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.views import Publisher, RelayedPublisher, view_of
from games import registry
from tests.web.conftest import Served
from tests.web.phones import SCREENS


def quiz_right(answers: Sequence[int]) -> Box:
    """A quiz of 3 players, one question per answer: each armed, ``answers``'s station first and right."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3, 1, questions=len(answers)))
    t = 0
    for station in answers:
        t += 1_000_000
        box.step(t)
        box.host("arm", t)
        t += 500_000
        box.step(t)
        box.apply_press(Press(station, "bell", t))
        t += 500_000
        box.step(t)
        box.host("correct", t)
        for kind in ("reveal", "next"):  # the next question, unless it was the last
            t += 500_000
            box.step(t)
            if kind in box.engine.legal_actions(None):
                box.host(kind, t)
    return box


def boards(box: Box) -> list[dict[str, Any]]:
    """The board's state as the deciding process builds it, and as the phones' server relays it."""
    with box.lock:
        snap = Publisher(box).build()
        view = view_of(box, box.now_us)
    phones = RelayedPublisher(box, snap)
    phones.scene = box.spec
    served = phones.update(snap, view.public, view.strip, finished=view.finished)
    return [json.loads(snap.board), json.loads(served.board)]


@pytest.mark.parametrize(("answers", "winners"), [([1, 1, 2], [1]), ([1, 2], [1, 2])])
def test_a_finished_quiz_s_board_names_its_winners_not_only_the_last_first(answers: list[int], winners: list[int]) -> None:
    box = quiz_right(answers)
    assert box.engine.finished
    for board in boards(box):
        assert board["finished"] and board["winners"] == winners, board
        assert board["first"] == answers[-1]  # the stable interface keeps its field: the last question's


def test_a_running_game_s_board_names_no_winner() -> None:
    box = quiz_right([1, 1, 2])
    spec = registry.get("quiz")
    running = Box(spec, spec.settings(3, 1, questions=3))
    assert not running.engine.finished and box.engine.finished
    for board in boards(running):
        assert board["winners"] == [], board


def test_the_scoreboard_page_marks_the_winner_at_the_game_s_end(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3, questions=3)
    board = phone()
    board.goto(s.server.board_url())
    board.wait_for_selector("tr[data-seat='2']")
    for question, station in enumerate([1, 1, 2]):
        s.host("arm")
        s.wait_view(lambda v: v.get("phase") == "armed")
        s.press(station)
        s.wait_view(lambda v: v.get("phase") == "answering")
        expect(board.locator(f"tr[data-seat='{station}']")).to_have_class("first")  # a question's first: as before
        expect(board.locator(f"tr[data-seat='{station}'] .margin")).to_have_text("First")
        s.host("correct")
        if question < 2:
            s.wait_view(lambda v: v.get("phase") == "round_over")
            s.host("next")  # the answer shown (the quiz's next reveals first)
            if not s.wait_view(lambda v, q=question: bool(v.get("revealed")) or v.get("question") == q + 2).get("revealed"):
                continue
            s.host("next")  # the next question
            s.wait_view(lambda v, q=question: v.get("question") == q + 2)
    s.wait_view(lambda v: bool(v.get("finished")))
    expect(board.locator("#phase")).to_have_text("Game over")
    expect(board.locator("tr[data-seat='1']")).to_have_class("first won")  # the winner, 2-1
    expect(board.locator("tr[data-seat='1'] .margin")).to_have_text("WON")
    expect(board.locator("tr[data-seat='2']")).to_have_class("")  # right last, not the winner: unmarked
    expect(board.locator("tr[data-seat='2'] .margin")).to_have_count(0)
    expect(board.locator("tr[data-seat='0']")).to_have_class("")
    board.screenshot(path=str(SCREENS / "companion-board-won.png"))
