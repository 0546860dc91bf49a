"""A host's evening through the whole ``buzzerbox menu`` loop (issue 51):
a quiz played from the menu to its end is listed on the "This evening" row
as finished, who won, and Enter shows its results again; a second
one the host ends early (Esc, Esc) is listed as ended early, where it
stopped and the scores then, and Enter on that row carries it on at that
question with those scores; played to its end then, it is listed once, as
finished.

Keyboard stations, a host's own two-question pack, the games decided in
their own process (the split design, as the box runs them); keys pressed on
what the screen shows (tests/display/kiosk.py), in en/cs/pl."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import journal_format
from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Frame, Kiosk, Reached, Script, Steps, key, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

SHOTS = Path(os.environ.get("BUZZERBOX_SHOTS", "/tmp/buzzerbox-shots"))
PACK = "question,answer\n1 + 1?,2\n2 + 2?,4\n"


def player(n: int) -> str:
    return _("Player {n}").format(n=n)


def at_question(n: int) -> Any:
    return lambda frame: _("Question {n} of {total}").format(n=n, total=2) in said(frame)


def until(frame: Frame, wanted: Any) -> Steps:
    """Looks at each frame until ``wanted`` holds; that frame."""
    while not wanted(frame):
        frame = yield []
    return frame


def again_until(frame: Frame, keys: list[Any], wanted: Any) -> Steps:
    """``keys`` pressed, and again now and then until ``wanted`` holds (a key the deciding process
    refused, come before it took the game over, is pressed again; one more of these changes nothing)."""
    k = 0
    while not wanted(frame):
        frame = yield keys if k % 50 == 0 else []
        k += 1
    return frame


def bell(n: int) -> list[Any]:
    """Station ``n``'s key pressed and let go (a key held down is a stuck bell on the strip)."""
    code = pygame.K_1 + n - 1
    return [key(code), pygame.event.Event(pygame.KEYUP, key=code, mod=0, unicode="", scancode=0)]


def first_question_won_by(n: int, frame: Frame) -> Steps:
    """From the menu (Start highlighted or the game row): a quiz started, player ``n``
    answers the first question right, the second is on the screen."""
    frame = yield [pygame.K_RETURN]  # Start
    frame = yield from until(frame, at_question(1))
    frame = yield from again_until(frame, [pygame.K_SPACE], lambda f: asked(f, "BUZZ!"))  # armed
    frame = yield from again_until(frame, bell(n), lambda f: asked(f, "FIRST"))  # on the strip: the box took it
    frame = yield [pygame.K_c]  # right
    frame = yield from until(frame, lambda f: f"{player(n)} 1" in said(f))
    frame = yield [pygame.K_n]  # the host's next: the answer first
    frame = yield from until(frame, lambda f: _("Answer: {answer}").format(answer="2") in said(f))
    frame = yield [pygame.K_n]  # then the next question
    return (yield from until(frame, at_question(2)))


def played_to_the_end(frame: Frame) -> Steps:
    """From the last question: on to the final results, then the host's next back to the menu
    (the first shows the last answer, the next goes back)."""
    frame = yield [pygame.K_n]  # no one rang: the quiz is over
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
    return (yield from again_until(frame, [pygame.K_n], lambda f: asked(f, MENU_HINT)))


def evening_row(frame: Frame, state: str) -> Steps:
    """Up the menu's rows to "This evening" showing a game in ``state``."""
    while not panel_of(frame).startswith(f"{_('This evening')}: {_(state)} · "):
        frame = yield [pygame.K_UP]
        frame = yield []  # the panel of that row drawn
    return frame


def shot(name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    pygame.image.save(pygame.display.get_surface(), str(SHOTS / f"{name}.png"))


def evening(seen: dict[str, Any], language: str) -> Script:
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield from played_to_the_end(frame)
    frame = yield [Reached("the first game played to its end")]
    frame = yield from evening_row(frame, "Finished")
    seen["finished row"] = panel_of(frame)
    shot(f"evening-night-{language}-finished")
    frame = yield [pygame.K_RETURN]  # its results again
    frame = yield from until(frame, lambda f: asked(f, "Esc or Enter: back to the menu"))
    seen["results"] = ([wanted for wanted, *_r in frame], said(frame))
    frame = yield [pygame.K_ESCAPE]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_DOWN, Reached("its results shown again")]  # the row after "This evening": Start
    frame = yield from first_question_won_by(2, frame)
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # meant: ended early
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the second game ended early")]
    frame = yield from evening_row(frame, "Ended early")
    seen["stopped row"] = panel_of(frame)
    shot(f"evening-night-{language}-stopped")
    frame = yield [pygame.K_RIGHT]  # the other game of the evening
    frame = yield []
    seen["other"] = panel_of(frame)
    frame = yield [pygame.K_LEFT]
    frame = yield from evening_row(frame, "Ended early")
    frame = yield [pygame.K_RETURN]  # carried on
    frame = yield from until(frame, lambda f: at_question(2)(f) and not asked(f, MENU_HINT))
    seen["carried on"] = said(frame)
    frame = yield [Reached("the second game carried on")]
    frame = yield from played_to_the_end(frame)
    frame = yield from evening_row(frame, "Finished")
    seen["last row"] = panel_of(frame)
    shot(f"evening-night-{language}-last")
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_evening_row_lists_each_game_with_its_state_and_opens_or_carries_it_on(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals, packs = tmp_path / "journals", tmp_path / "packs"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")  # the host's own pack: the menu's first choice
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, evening(seen, language))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "3")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    quiz = _("Quiz buzzer")
    finished, stopped = seen["finished row"], seen["stopped row"]
    assert quiz in finished and _("{winner} won").format(winner=player(1)) in finished, finished
    assert _("Enter: its results on the screen") in finished, finished
    titles, results = seen["results"]
    assert _("Final results") in titles and player(1) in results, seen["results"]
    assert quiz in stopped and _("Stopped at question {n} of {total}").format(n=2, total=2) in stopped, stopped
    assert _("Scores when it stopped: {standings}").format(standings=f"{player(2)} 1") in stopped, stopped
    assert _("Enter: carry on where it stopped") in stopped, stopped
    assert seen["other"].startswith(f"{_('This evening')}: {_('Finished')} · "), seen["other"]  # ← →: the first game
    assert f"{player(2)} 1" in seen["carried on"], seen["carried on"]  # the score kept, at the question it stopped
    last = seen["last row"]
    assert _("{winner} won").format(winner=player(2)) in last, last
    assert _("Other games (← →): {n}").format(n=1) in last, last  # two games: the carried-on one listed once
    ends = sorted(sum(isinstance(r, journal_format.EndRecord) for r in journal_format.load(path).records)
                  for path in journals.glob("*.jsonl"))
    assert ends == [1, 2], ends  # two journals: the first game's, and the second's carried on in its own
