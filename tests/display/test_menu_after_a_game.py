"""Back in the menu after a game (issue 51), through the whole ``buzzerbox
menu`` loop in the split design (keys on what the screen shows,
tests/display/kiosk.py), in en/cs/pl:

- the final results say how to get back, and Enter takes the host there
  (it did nothing: only a host key or the deciding process's 10 s did);
- the highlight stays on the row it was on: Start, not the "This evening"
  row the first game of the evening adds above it, so the host's next Enter
  starts a game (it showed the last one's results again).

And the hint is whole on the final results at 720p and 1080p (tests/fits.py)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller import protocol as p
from controller.box import journal as journal_mod
from controller.box.runtime import box_from_journal
from controller.cli import main
from controller.screen.keyboard import KeyboardSource
from controller.screen.live import presenter_for
from controller.screen.loop import BACK_HINT, draw_box
from controller.screen.screen import Screen
from controller.screen.viewer import results_hint
from games.i18n import _, set_language
from tests.display.kiosk import Kiosk, Reached, Script, menu_args, sent_to_decider
from tests.display.test_game_end_confirm import (
    MENU_HINT,
    asked,
    back_to_menu_and_quit,
    end_game_and_quit,
)
from tests.display.test_menu_evening_night import PACK, at_question, first_question_won_by, until
from tests.fits import measured, unfit_texts

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

SHOTS = Path(os.environ.get("BUZZERBOX_SHOTS", "/tmp/buzzerbox-shots"))
SIZES = [(1280, 720), (1920, 1080)]
#: long after the game's end: the results drawn whole, as the room sees them
LATE_US = 3_600_000_000


def host(seen: dict[str, Any], sent: list[p.Message], language: str) -> Script:
    """Up to Start, a quiz to its end, Enter on its results; Enter again in the menu."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_UP]  # from the game row up round to Start, the last row
    frame = yield from first_question_won_by(1, frame)
    frame = yield [pygame.K_n]  # no one rang: the quiz is over
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
    seen["hint"] = asked(frame, results_hint(KeyboardSource(3)))  # Esc / Enter / page down / right arrow
    pygame.image.save(pygame.display.get_surface(), str(SHOTS / f"menu-final-results-{language}.png"))
    before = len(sent)
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    seen["stops"] = [m.reason for m in sent[before:] if isinstance(m, p.Stop)]  # the screen's, not the 10 s
    frame = yield [pygame.K_RETURN, Reached("the first game played to its end")]  # Start, as before the game
    frame = yield from until(frame, lambda f: at_question(1)(f) or asked(f, "Final results"))
    seen["started"] = at_question(1)(frame)
    if seen["started"]:
        yield from end_game_and_quit(frame)
        return
    yield from back_to_menu_and_quit(frame, escapes=1)  # the old results again: back, and quit


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_enter_on_the_final_results_goes_back_to_the_menu_still_on_start(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    SHOTS.mkdir(parents=True, exist_ok=True)
    sent = sent_to_decider(monkeypatch)
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen, sent, language))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "3")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen["hint"], seen  # the final results say how to get back
    assert seen["stops"] == ["finished"], seen  # Enter went back at once
    assert seen["started"], seen  # the highlight stayed on Start: Enter started a game


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}")
def test_the_hint_under_the_final_results_is_whole(
        language: str, size: tuple[int, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "quiz.jsonl"
    assert main(["simulate", "quiz", "--players", "8", "--seed", "3", "--journal", str(path)]) == 0
    capsys.readouterr()
    set_language(language)
    box = box_from_journal(journal_mod.read(path))
    screen = Screen.open(headless=True, size=size)
    try:
        presenter = presenter_for(box.spec, screen, sound=None, colors=None)
        # the results again from the menu's row, and a game's own (with the keyboard's keys that go back)
        for hint in (BACK_HINT, results_hint(KeyboardSource(8))):
            presenter.results_hint = hint
            drawn, smallest = measured(lambda surface: draw_box(presenter, box, LATE_US, surface), size)
            assert _(hint) in [wanted for wanted, *_r in drawn]
            assert unfit_texts(drawn, smallest, size) == []
        draw_box(presenter, box, LATE_US)
        pygame.image.save(screen.surface, str(SHOTS / f"menu-final-results-hint-{language}-{size[1]}.png"))
    finally:
        screen.close()
