"""The keys on a quiz's final results, through the whole ``buzzerbox menu`` loop in the
split design (tests/display/kiosk.py): a slip on the last question is taken back with
Undo there, as docs/quiz.md promises, and the game goes on; Esc, Enter and Space go
back to the menu. (Any host key went back: `u` wrote the results with the slip in them.)

And the deciding process closes a finished game only once its results have been on show
``results_s`` since it last ended: an undo there makes it unfinished again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller import protocol as p
from controller.box.process import DecidingGame
from controller.box.runtime import Box
from controller.cli import main
from games import registry
from tests.display.kiosk import Kiosk, Script, menu_args, sent_to_decider
from tests.display.test_game_end_confirm import MENU_HINT, asked, end_game_and_quit
from tests.display.test_menu_evening_night import (
    PACK,
    again_until,
    at_question,
    bell,
    first_question_won_by,
    until,
)

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def slip_taken_back(seen: dict[str, Any], sent: list[p.Message]) -> Script:
    """A quiz whose last question is judged right by mistake: Undo on the final results."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_UP]  # from the game row up round to Start
    frame = yield from first_question_won_by(1, frame)
    frame = yield from again_until(frame, [pygame.K_SPACE], lambda f: asked(f, "BUZZ!"))
    frame = yield from again_until(frame, bell(2), lambda f: asked(f, "FIRST"))
    frame = yield [pygame.K_c]  # right, by mistake: the quiz is over
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
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
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    sent = sent_to_decider(monkeypatch)
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, slip_taken_back(seen, sent))
    assert main(["--lang", "en", *menu_args(tmp_path, "--players", "3")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
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
