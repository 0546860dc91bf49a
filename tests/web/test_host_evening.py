"""The phones' host page lists the evening's games too (issue 51), as the
menu's "This evening" row does: each with its state, newest first, who won
a finished one, where an ended one stopped and the scores then.

``buzzerbox menu --web 0`` in this process as the kiosk runs it (keys on
what its screen shows, tests/display/kiosk.py; the games decided in their
own process), the host page in headless Chromium logged in with the PIN the
menu's server printed, in the box's language (en/cs/pl)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest
from playwright.sync_api import expect

from controller.box import journal as journal_mod
from controller.box.runtime import box_from_journal
from controller.cli import main
from games.i18n import _
from tests.display.kiosk import Kiosk, Reached, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import (
    PACK,
    first_question_won_by,
    played_to_the_end,
    player,
    until,
)
from tests.web.test_phones_quiz_teams import assert_fits_the_phone
from tests.web.test_split_language import host_logged_in
from tests.web.test_split_phones import port_in

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")

SHOTS = Path(os.environ.get("BUZZERBOX_SHOTS", "/tmp/buzzerbox-shots"))


def evening(seen: dict[str, Any], host: Any, capsys: pytest.CaptureFixture[str], language: str,
            journals: Path) -> Script:
    """A quiz played to its end, the host page logged in; a second one ended early."""
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from first_question_won_by(1, frame)
    frame = yield from played_to_the_end(frame)
    frame = yield [Reached("the first game played to its end")]
    # the menu's server, started with the first game: its line in the box's language, with its port and PIN
    [line] = [said for said in capsys.readouterr().err.splitlines() if "PIN" in said]
    host_logged_in(host, port_in(line), line)
    games = host.locator("#evening .evening-game")
    expect(games).to_have_count(1)
    expect(games.first).to_contain_text(f"{_('Finished')} · {_('Quiz buzzer')}")
    expect(games.first).to_contain_text(_("{winner} won").format(winner=player(1)))
    expect(host.locator("#evening-title")).to_have_text(_("This evening's games"))
    # between games the page shows the closed game's final scores: the deciding process's pages of it
    (journal,) = journals.glob("*.jsonl")
    scores = box_from_journal(journal_mod.read(journal)).summary()["scores"]
    expect(host.locator("#scores .player .score")).to_have_text([str(score) for score in scores])
    seen["finished"] = True
    frame = yield from first_question_won_by(2, frame)  # Start again (the game row still chosen)
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]  # meant: ended early
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [Reached("the second game ended early")]
    expect(games).to_have_count(2)  # newest first, the page told without a reload
    expect(games.first).to_contain_text(f"{_('Ended early')} · {_('Quiz buzzer')}")
    expect(games.first).to_contain_text(_("Stopped at question {n} of {total}").format(n=2, total=2))
    expect(games.first).to_contain_text(_("Scores when it stopped: {standings}").format(standings=f"{player(2)} 1"))
    expect(games.nth(1)).to_contain_text(f"{_('Finished')} · {_('Quiz buzzer')}")
    assert_fits_the_phone(host)  # the list and the next game's option rows (a long choice widened the page)
    SHOTS.mkdir(parents=True, exist_ok=True)
    host.screenshot(path=str(SHOTS / f"host-evening-{language}.png"), full_page=True)
    seen["stopped"] = True
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_host_page_lists_the_evenings_games_with_their_state(
        language: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        phone: Any) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, evening(seen, phone(), capsys, language, tmp_path / "journals"))
    assert main(["--lang", language, *menu_args(tmp_path, "--players", "3", "--web", "0")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen.get("finished") and seen.get("stopped"), seen
