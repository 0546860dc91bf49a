"""An ended game can be carried on: ``play --resume`` on a game the host
ended with Esc, Esc (in the menu) goes on where it stopped, the scores and the question
kept, journaled after the first end (the next end closes it again). It used
to answer "this game has ended: nothing to resume". A game played to its
end is not carried on (one line).

Through ``buzzerbox menu`` then ``buzzerbox play --resume``, in the split design, keys pressed on
what the screen shows (tests/display/kiosk.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import journal_format
from controller.box.runtime import box_from_journal
from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, end_game_and_quit
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def said_question(frame: list[Any], n: int) -> bool:
    """The screen says it is at question ``n`` (of however many the pack has)."""
    head = _("Question {n} of {total}").format(n=n, total="\x00").split("\x00")[0]
    return head in said(frame)


def stopped_at(journals: Path) -> str:
    """'Question N of M' where the game in the folder's one journal stopped, as its replay has it
    (keys in flight when the host ended it count: the journal is the game of record)."""
    [journal] = journals.glob("*.jsonl")
    view = box_from_journal(journal_format.load(journal)).engine.public_view()
    return _("Question {n} of {total}").format(n=view["question"], total=view["questions_total"])


def question_on(frame: list[Any]) -> bool:
    """The first question's card is on the screen (its choices, or its number: the box's
    language's own pack may start with a question without choices)."""
    return any(wanted.startswith("A: ") for wanted, *_r in frame) or said_question(frame, 1)


def first_question() -> Any:
    """From the menu: Start the first game, until its first question is on the screen (that frame)."""
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    frame = yield [pygame.K_RETURN]  # Start
    while not question_on(frame):
        frame = yield []
    return frame


def first_night(seen: dict[str, Any]) -> Script:
    """From the menu: player 1 answers the first question right, then the host ends the game and quits."""
    frame = yield from first_question()
    k = 0
    while not asked(frame, "BUZZ!"):  # arm (again if the first came before the card was shown: refused)
        frame = yield [pygame.K_SPACE] if k % 50 == 0 else []
        k += 1
    frame = yield [pygame.K_1]
    k = 0
    while f"{_('Player {n}').format(n=1)} 1" not in said(frame):  # right: a point (again if the press was not in yet)
        frame = yield [pygame.K_c] if k % 50 == 49 else []
        k += 1
    k = 0
    while not any(said_question(frame, n) for n in (2, 3)):  # the next question (a second n in flight may
        frame = yield [pygame.K_n] if k % 50 == 0 else []  # take it to the third: the journal says which)
        k += 1
    seen["before"] = said(frame)
    yield from end_game_and_quit(frame)


def carried_on(seen: dict[str, Any]) -> Script:
    frame = yield []
    while _("Player {n}").format(n=4) not in said(frame) or not any("·" in wanted for wanted, *_r in frame):
        frame = yield []  # the game's view is on the screen
    seen["after"] = said(frame)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_a_game_ended_by_the_host_carries_on_where_it_stopped(language: str, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals = tmp_path / "journals"
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, first_night(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    [journal] = journals.glob("*.jsonl")
    assert journal_format.load(journal).ended
    stopped = stopped_at(journals)
    kiosk = Kiosk(monkeypatch, carried_on(seen))
    assert main(["--lang", language, "play", "quiz", "--window", "--resume", str(journal)]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert stopped in seen["after"], (stopped, seen)
    assert f"{_('Player {n}').format(n=1)} 1" in seen["before"], seen["before"]
    assert f"{_('Player {n}').format(n=1)} 1" in seen["after"], seen["after"]  # the point kept, on the strip
    records = journal_format.load(journal).records
    ends = [k for k, r in enumerate(records) if isinstance(r, journal_format.EndRecord)]
    assert len(ends) == 2 and ends[-1] == len(records) - 1, ends  # carried on after the first end, closed again


def menu_evening(seen: dict[str, Any]) -> Script:
    """The first night's game ended early, then carried on from the menu's "This evening" row."""
    yield from first_night_in_menu(seen)


def first_night_in_menu(seen: dict[str, Any]) -> Any:
    steps = first_night(seen)
    keys = next(steps)
    while True:  # the first night up to the menu again (its last Esc, Esc are the quit: not sent)
        frame = yield keys
        if "before" in seen and asked(frame, MENU_HINT):
            break
        keys = steps.send(frame)
    while not panel_of(frame).startswith(f"{_('This evening')}: {_('Ended early')} · "):
        frame = yield [pygame.K_DOWN]
    seen["row"] = panel_of(frame)
    seen["stopped"] = stopped_at(seen["journals"])
    frame = yield [pygame.K_RETURN]
    while seen["stopped"] not in said(frame) or asked(frame, MENU_HINT):
        frame = yield []
    seen["after"] = said(frame)
    yield from end_game_and_quit(frame)


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_menu_carries_on_a_game_ended_early(language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals = tmp_path / "journals"
    seen: dict[str, Any] = {"journals": journals}
    kiosk = Kiosk(monkeypatch, menu_evening(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert _("Quiz buzzer") in seen["row"] , seen["row"]
    assert f"{_('Player {n}').format(n=1)} 1" in seen["after"], seen["after"]  # the point kept
    [journal] = journals.glob("*.jsonl")  # the same game, the same journal: carried on, ended again
    assert sum(isinstance(r, journal_format.EndRecord) for r in journal_format.load(journal).records) == 2
