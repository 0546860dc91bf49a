"""The keys on a quiz's final results, through the whole ``buzzerbox menu`` loop in the
split design (tests/display/kiosk.py): a slip on the last question is taken back with
Undo there, as docs/quiz.md promises, and the game goes on; Esc, Enter and Space go
back to the menu. (Any host key went back: `u` wrote the results with the slip in them.)

And the deciding process closes a finished game only once its results have been on show
``results_s`` since it last ended: an undo there makes it unfinished again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller import protocol as p
from controller.box.press import Press
from controller.box.process import DecidingGame
from controller.box.runtime import Box
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import Presenter, draw_box
from controller.screen.screen import Screen
from controller.screen.viewer import _Watching
from games import registry
from games.i18n import _, set_language
from games.quiz import PACKS_DIR
from games.quiz.packs import MAX_ANSWER_CHARS
from games.scenes import scene_for
from tests.display.kiosk import (
    Frame,
    Reached,
    Script,
    Steps,
    in_the_menu,
    key,
    results_kept,
    sent_to_decider,
)
from tests.display.test_game_end_confirm import (
    MENU_HINT,
    asked,
    back_to_menu_and_quit,
    end_game_and_quit,
)
from tests.display.test_menu_evening_night import (
    PACK,
    again_until,
    at_question,
    bell,
    first_question_won_by,
    until,
)
from tests.display.test_menu_one_decider import Feed, menu_on_the_feed
from tests.display.test_menu_refusal import said
from tests.fits import LONG_NAMES, measured, unfit

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def last_question_judged_right(frame: Frame) -> Steps:
    """From the menu: the two-question quiz, player 1 right on the first, player 2 judged right
    on the last (by mistake, or as it was): the final results, the frame that shows them."""
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_UP]  # from the game row up round to Start
    frame = yield from first_question_won_by(1, frame)
    frame = yield from again_until(frame, [pygame.K_SPACE], lambda f: asked(f, "BUZZ!"))
    frame = yield from again_until(frame, bell(2), lambda f: asked(f, "FIRST"))
    frame = yield [pygame.K_c]  # right: the quiz is over
    return (yield from until(frame, lambda f: asked(f, "Final results")))


def slip_taken_back(seen: dict[str, Any], sent: list[p.Message]) -> Script:
    """A quiz whose last question is judged right by mistake: Undo on the final results."""
    frame = yield []
    frame = yield from last_question_judged_right(frame)
    before = len(sent)
    frame = yield [pygame.K_u]
    frame = yield from until(frame, lambda f: not asked(f, "Final results"))
    seen["stops"] = [m.reason for m in sent[before:] if isinstance(m, p.Stop)]
    seen["keys"] = [m.name for m in sent[before:] if isinstance(m, p.HostKey)]
    seen["back at the question"] = at_question(2)(frame) and not asked(frame, MENU_HINT)
    frame = yield [pygame.K_w]  # wrong, as it was meant: out, and the others may buzz
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT) or asked(f, "OUT"))
    seen["taken back"] = asked(frame, "OUT") and not asked(frame, "Final results")
    yield from end_game_and_quit(frame)


def test_undo_on_the_final_results_takes_the_slip_back_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sent = sent_to_decider(monkeypatch)
    seen: dict[str, Any] = {}
    in_the_menu(tmp_path, monkeypatch, slip_taken_back(seen, sent), packs={"two.csv": PACK})
    assert seen["stops"] == [] and seen["keys"] == ["undo"], seen  # the undo went to the game: no stop
    assert seen["back at the question"] and seen["taken back"], seen


def test_a_finished_game_closes_its_results_time_after_it_last_ended() -> None:
    spec = registry.get("reaction")
    game = DecidingGame(Box(spec, spec.settings(2, seed=1)), None, None, until_us=None, results_s=10, screen_args=[])
    assert not game.results_shown(True, 1_000_000)
    assert not game.results_shown(False, 5_000_000)  # an undo on the final results: the game goes on
    assert not game.results_shown(True, 8_000_000)  # ended again
    assert not game.results_shown(True, 18_000_000)  # 10 s after its last end, not its first
    assert game.results_shown(True, 18_000_001)


NOTHING = "That key does nothing right now"
#: the final results never close by themselves in these tests: only a key or a host button closes them
KEPT_UP_S = 3600


def answer_shown(frame: Any) -> bool:
    """The last question's answer on the final results (the pack's second question: 2 + 2 = 4)."""
    return _("Answer to question {n}: {answer}").format(n=2, answer="4") in said(frame)


def last_answer_on_the_final_results(keys: list[int], seen: dict[str, Any], sent: list[p.Message]) -> Script:
    """The last question judged right: the quiz is over. ``keys[0]`` on the final results shows its
    answer, then ``keys[1]`` goes back to the menu (and nothing is said to do nothing)."""
    frame = yield []
    frame = yield from last_question_judged_right(frame)
    seen["hint"] = said(frame)
    before = len(sent)
    frame = yield [keys[0]]
    frame = yield from until(frame, lambda f: answer_shown(f) or asked(f, NOTHING) or asked(f, MENU_HINT))
    seen["answer"] = answer_shown(frame) and asked(frame, "Final results") and not asked(frame, NOTHING)
    if not seen["answer"]:
        yield from back_to_menu_and_quit(frame, escapes=0 if asked(frame, MENU_HINT) else 1)
        return
    frame = yield [keys[1]]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT) or asked(f, NOTHING))
    seen["back"] = asked(frame, MENU_HINT)
    seen["stops"] = [m.reason for m in sent[before:] if isinstance(m, p.Stop)]
    yield from back_to_menu_and_quit(frame, escapes=0 if seen["back"] else 1)


@pytest.mark.parametrize("keys", [[pygame.K_n, pygame.K_n], [pygame.K_v, pygame.K_RETURN],
                                  [pygame.K_PAGEDOWN, pygame.K_PAGEDOWN]], ids=["n", "v", "clicker"])
def test_the_last_answer_is_shown_on_the_final_results_and_a_step_goes_back(
        keys: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host's n (next: the answer first, then on), v (the answer), and a presenter clicker's
    next (Page Down: no Esc on it) on the final results: the last answer shows there, and the next
    step goes back to the menu, as the results' line says. (n, v and Page Down did nothing, and a
    clicker waited 10 s for the results to close by themselves.)"""
    sent = sent_to_decider(monkeypatch)
    seen: dict[str, Any] = {}
    # the results up until a key closes them (by themselves, after 10 s, they went back without the fix)
    in_the_menu(tmp_path, monkeypatch, last_answer_on_the_final_results(keys, seen, sent),
                packs={"two.csv": PACK}, results_s=KEPT_UP_S)
    assert seen["answer"], seen
    assert "Esc / Enter / page down / right arrow: back to the menu" in seen["hint"], seen["hint"]
    assert seen["back"], seen
    # Enter leaves as the screen's own stop; a step forward is the deciding process's (it closes the results)
    assert seen["stops"] == ([p.EndReason.FINISHED] if keys[1] == pygame.K_RETURN else []), seen


def host_box_on_the_final_results(buttons: list[str], seen: dict[str, Any]) -> Callable[[Feed], Script]:
    """The quiz played on the host box's own buttons and the stations' bells (header-7-bells, through
    the deciding process's feed): on the final results, ``buttons`` of the host box; what the screen
    said after the first, whether it went back to the menu after the last."""
    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        feed.tap(-1, "arm")  # the game row: the quiz
        frame = yield from until(frame, lambda f: asked(f, "Every station: press your button once"))
        feed.tap(-1, "arm")  # the roll call: go on without the rest
        for question in (1, 2):
            frame = yield from until(frame, at_question(question))
            feed.tap(-1, "arm")
            frame = yield from until(frame, lambda f: asked(f, "BUZZ!"))
            feed.tap(question - 1, "bell")
            frame = yield from until(frame, lambda f: asked(f, "FIRST"))
            feed.tap(-1, "correct")
            if question == 1:
                feed.tap(-1, "next")  # the answer
                frame = yield from until(frame, lambda f: _("Answer: {answer}").format(answer="2") in said(f))
                feed.tap(-1, "next")  # the next question
        frame = yield from until(frame, lambda f: asked(f, "Final results"))
        frame = yield [Reached("the final results")]
        feed.tap(-1, buttons[0])
        frame = yield from until(frame, lambda f: answer_shown(f) or asked(f, NOTHING) or asked(f, MENU_HINT))
        seen["first"] = "back" if asked(frame, MENU_HINT) else "answer" if answer_shown(frame) else said(frame)
        for button in buttons[1:]:
            feed.tap(-1, button)
            frame = yield from until(frame, lambda f: asked(f, MENU_HINT) or asked(f, NOTHING))
        seen["back"] = asked(frame, MENU_HINT)
        yield from back_to_menu_and_quit(frame, escapes=0 if seen["back"] else 1)

    return script


@pytest.mark.parametrize(("buttons", "first"), [(["next", "next"], "answer"), (["arm"], "back")], ids=["next", "arm"])
def test_the_host_box_s_own_buttons_on_the_final_results_do_as_the_host_keys(
        buttons: list[str], first: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The host box's next on the final results shows the last answer, then goes back to the menu, and its
    arm goes back, as the keyboard's n and Space do (docs/quiz.md, "The final results"). (They came to
    the game as the host station's presses: its next showed the answer, then did nothing, and arm nothing.)
    The results stay up until a key or a button closes them."""
    seen: dict[str, Any] = {}
    results_kept(monkeypatch, KEPT_UP_S)
    menu_on_the_feed(tmp_path, monkeypatch, host_box_on_the_final_results(buttons, seen), profile="header-7-bells")
    assert seen["first"] == first and seen["back"], seen


class Link:
    """The deciding process's end of the screen's keys (what ``_Watching.keys`` sends)."""

    offset_us = 0

    def __init__(self) -> None:
        self.sent: list[p.Message] = []

    def send(self, message: p.Message) -> None:
        self.sent.append(message)


@pytest.mark.parametrize("code", [pygame.K_RETURN, pygame.K_SPACE])
def test_a_back_key_the_profile_binds_to_undo_undoes_on_the_final_results(code: int) -> None:
    """A station profile's ``[keys]`` binding Enter (or Space) to undo: on the final results that key
    is the undo, as everywhere in the game (it went back to the menu, the slip kept); Enter and Space
    of a keyboard that binds them to nothing of the game still go back."""
    name = pygame.key.name(code)
    for keys, wanted in (({name: "undo"}, "undo"), ({}, None)):
        keyboard = KeyboardSource(3, keys=keys)
        link = Link()
        watching = _Watching(link, Presenter(Screen.open(headless=True), scene_for("quiz", None)),  # type: ignore[arg-type]
                             keyboard)
        watching.finished_at_frame = True  # the final results are on the screen
        watching.keys([key(code)], 0)
        said = [m.name if isinstance(m, p.HostKey) else m for m in link.sent]
        if wanted is not None:
            assert said == ["undo"], (keys, link.sent)
        elif code == pygame.K_RETURN:  # unbound: back to the menu
            assert said == [p.Stop(p.EndReason.FINISHED)], link.sent
        else:  # space arms, which the deciding process takes on the final results as a step back to the menu
            assert said == ["arm"], link.sent


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_last_answer_on_the_final_results_is_drawn_whole_over_the_podium(
        language: str, size: tuple[int, int]) -> None:
    """16 players, the shipped pack's last question revealed on the final results: its answer band
    is drawn whole, and the podium and the table below it keep clear of it."""
    set_language(language)
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(16, 1, pack=str(PACKS_DIR / f"{language}-general.csv"), questions=1))
    box.host_button("arm", 1_000_000)
    box.apply_press(Press(3, "bell", 1_500_000))
    box.step(1_600_000)
    box.host("correct", 2_000_000)
    assert box.engine.finished
    box.host_button("next", 2_100_000)  # the host's n: the answer
    answer = box.engine.public_view()["answer"]
    presenter = Presenter(Screen.open(headless=True), scene_for("quiz", None))
    wanted = _("Answer to question {n}: {answer}").format(n=1, answer=answer)
    drawn, _smallest = measured(lambda surface: draw_box(presenter, box, 2_200_000, surface), size, 16)
    assert any(asked == wanted for asked, *_rest in drawn), [d[0] for d in drawn]
    assert not unfit(lambda surface: draw_box(presenter, box, 2_200_000, surface), size, 16)


#: an answer as long as a pack allows (MAX_ANSWER_CHARS), wide letters and accents
LONGEST_ANSWER = {
    "en": "Wolfgang Amadeus Mozart's Requiem in D minor, K. 626, completed by Franz Xaver Süssmayr in 1792 (WW)",
    "cs": "Přemysl Otakar II., král železný a zlatý, padl v bitvě na Moravském poli u Suchých Krut 26. 08. 1278",
    "pl": "Władysław Jagiełło, zwycięzca spod Grunwaldu w 1410 roku, założyciel dynastii Jagiellonów w Polsce W",
}


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_an_answer_as_long_as_a_pack_allows_is_drawn_whole_on_the_final_results(
        language: str, size: tuple[int, int]) -> None:
    """The last answer's band is as tall as its lines: an answer of MAX_ANSWER_CHARS is drawn whole
    (it was one line high, the answer cut with an ellipsis), and the podium's (longest) names stay below it."""
    set_language(language)
    assert len(LONGEST_ANSWER[language]) == MAX_ANSWER_CHARS
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4, 1, pack=str(PACKS_DIR / f"{language}-general.csv"), questions=1),
              station_names=LONG_NAMES[:4])
    box.host_button("arm", 1_000_000)
    box.apply_press(Press(3, "bell", 1_500_000))
    box.step(1_600_000)
    box.host("correct", 2_000_000)
    assert box.engine.finished
    box.engine.pack[0]["answer"] = LONGEST_ANSWER[language]
    box.host_button("next", 2_100_000)  # the host's n: the answer
    assert box.engine.public_view()["answer"] == LONGEST_ANSWER[language]
    presenter = Presenter(Screen.open(headless=True), scene_for("quiz", None))
    wanted = _("Answer to question {n}: {answer}").format(n=1, answer=LONGEST_ANSWER[language])
    drawn, _smallest = measured(lambda surface: draw_box(presenter, box, 2_200_000, surface), size, 4)
    start = next(k for k, d in enumerate(drawn) if wanted.startswith(d[0]) and d[0])
    band = drawn[start:start + 1]
    while " ".join(d[0] for d in band) != wanted and start + len(band) < len(drawn) \
            and wanted.startswith(" ".join(d[0] for d in drawn[start:start + len(band) + 1])):
        band = drawn[start:start + len(band) + 1]  # the band's lines, drawn one after another
    assert " ".join(asked for asked, *_rest in band) == wanted, [d[0] for d in band]
    assert all(asked == shown for asked, shown, *_rest in band), [d[:2] for d in band]  # whole, no ellipsis
    top, bottom = min(d[2].top for d in band), max(d[2].bottom for d in band)
    below = [d for d in drawn if d not in band and d[2].top >= top]
    assert below and all(d[2].top >= bottom for d in below), [(d[0], d[2]) for d in below if d[2].top < bottom]
    # the podium's and the table's names (on one line or two), under the band
    assert all(any(name.split()[0] in d[0] for d in below) for name in LONG_NAMES[:4]), [d[0] for d in below]
    assert not unfit(lambda surface: draw_box(presenter, box, 2_200_000, surface), size, 4)
