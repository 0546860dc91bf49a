"""The menu's row labels are whole in every language ("Sada otá…", "Zestaw
py…" beside a long pack title): the label keeps what it needs, the value is
cut in its row (the panel beside says it in full).

Through the whole ``buzzerbox menu`` loop (tests/display/kiosk.py): the host
walks down every row of the quiz at 720p and 1080p."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from controller.screen import screen as screen_mod
from controller.screen.menu import Menu
from games.i18n import _
from games.registry import available, get
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


def labels() -> set[str]:
    """Every row label the menu shows for the quiz, in the language of the moment."""
    games = [(name, get(name).title, get(name).min_players, get(name).max_players) for name in available()
             if get(name).scene]
    return {it.title() for it in Menu(games).items if it.key != "start"}


def host(seen: dict[str, Any]) -> Script:
    frame = yield []
    while not asked(frame, MENU_HINT):
        frame = yield []
    names = labels()
    cut: set[str] = set()
    for _row in range(40):  # down every row (and round again)
        cut |= {wanted for wanted, shown, *_r in frame if wanted in names and shown != wanted}
        seen.setdefault("seen", set()).update(wanted for wanted, *_r in frame if wanted in names)
        frame = yield [pygame.K_DOWN]
    seen["cut"] = cut
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_every_menu_label_is_whole(language: str, size: tuple[int, int], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(screen_mod, "HEADLESS_SIZE", size)
    packs = tmp_path / "packs"
    packs.mkdir()  # a host's own pack with a long title, as a Czech host made it from Excel
    (packs / "vecer.csv").write_text("# title: Hospodský kvíz u Zlatého tygra, jaro\nquestion,answer\n"
                                     + "".join(f"Otázka {k}?,Odpověď {k}\n" for k in range(21)), encoding="utf-8")
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, host(seen))
    assert main(["--lang", language, *menu_args(tmp_path, "--profile", "header-4")]) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert _("Question pack") in seen["seen"], seen["seen"]
    assert seen["cut"] == set(), seen["cut"]
