"""The menu lists the evening's finished games (issue 51): a "This evening"
row, newest first, each as its name, when it ended and who won; the panel
beside it gives the standings, the journal's path and how to read its
results. A finished quiz's journal read as the menu reads it after a game
(``box_from_journal``), drawn at both sizes in en/cs/pl, looked at."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.apps.menu import evening_game
from controller.box import journal as journal_mod
from controller.box.runtime import box_from_journal
from controller.box.session import played_of
from controller.box.views import view_of
from controller.cli import main
from controller.screen.live import presenter_for
from controller.screen.loop import run_results
from controller.screen.menu import EveningGame, Menu, MenuScene
from controller.screen.screen import Screen
from games.i18n import _, set_language
from games.registry import available, get
from games.toolkit import theme
from games.toolkit.scene import freeze
from tests.display.kiosk import Kiosk, Script
from tests.display.test_game_end_confirm import asked
from tests.display.test_menu_panel import panel_of
from tests.display.test_menu_refusal import said
from tests.fits import overlaps, spills

GAMES = [(game, get(game).title, get(game).min_players, get(game).max_players) for game in available()]
SHOTS = Path(os.environ.get("BUZZERBOX_SHOTS", "/tmp/buzzerbox-shots"))

pytestmark = pytest.mark.usefixtures("drawing_in_a_language")


def played(tmp_path: Path, name: str, seed: int) -> Path:
    path = tmp_path / f"{name}-{seed}.jsonl"
    assert main(["simulate", name, "--players", "3", "--seed", str(seed), "--journal", str(path)]) == 0
    return path


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_evening_row_lists_each_finished_game_with_its_winner_standings_and_journal(
        language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = played(tmp_path, "quiz", 3), played(tmp_path, "reaction", 4)
    capsys.readouterr()
    set_language(language)
    menu = Menu(GAMES)
    assert "evening" not in [it.key for it in menu.items]  # nothing played yet: no row
    boxes = {}
    for path in (first, second):
        boxes[path] = box_from_journal(journal_mod.read(path))
        assert boxes[path].engine.finished
        menu.played_game(evening_game(played_of(boxes[path]), str(path)))
    row = menu.item("evening")
    assert row.values == [str(second), str(first)]  # newest first, shown first
    menu.selected = [it.key for it in menu.items].index("evening")
    for path in (second, first):
        box = boxes[path]
        outcome = box.engine.outcome()
        assert outcome is not None
        winner = ", ".join(box.station_names[p] for p in outcome.winners)
        said = " ".join(menu.detail())
        assert _(box.spec.title) in said and winner in said
        assert _("Journal: {name} in {folder}").format(name=path.name, folder=path.parent) in said
        best = max(outcome.scores)
        assert f"{winner.split(', ')[0]} {best}" in said  # the standings, the winner first
        for size in ((1920, 1080), (1280, 720)):
            theme.DRAWN = []
            surface = pygame.Surface(size)
            MenuScene().draw(surface, freeze(menu.view()), [], 0)
            drawn = list(theme.DRAWN)
            assert winner in panel_of(drawn) and path.name in panel_of(drawn)
            assert _(box.spec.title) in panel_of(drawn, rows=True)
            ours = [d for d in drawn if d[0] in menu.detail() or d[0].startswith(_(box.spec.title))]
            assert ours and not [why for asked, _s, ink, box_, screen in ours if (why := spills(asked, ink, box_, screen))]
            assert not overlaps(drawn)
            SHOTS.mkdir(parents=True, exist_ok=True)
            pygame.image.save(surface, str(SHOTS / f"menu-evening-{language}-{size[1]}-{path.stem}.png"))
        menu.key("right")
    menu.played_game(evening_game(played_of(boxes[first]), str(first)))  # the same game again: once, first
    assert menu.item("evening").values == [str(first), str(second)]


def back_from_results(seen: dict[str, Any]) -> Script:
    frame = yield []
    while not asked(frame, "Esc or Enter: back to the menu"):
        frame = yield []
    seen["titles"] = [wanted for wanted, *_r in frame]
    seen["said"] = said(frame)
    yield [pygame.K_ESCAPE]


@pytest.mark.usefixtures("mock_pins")
@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_enter_on_the_evening_row_shows_the_games_results_until_esc(
        language: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Enter on a finished game in the "This evening" row hands the menu's
    loop its journal; the loop draws that game's results screen again (as
    the box drew it at the game's end, with who won) until Esc."""
    journal = played(tmp_path, "quiz", 3)
    capsys.readouterr()
    set_language(language)
    box = box_from_journal(journal_mod.read(journal))
    menu = Menu(GAMES)
    menu.played_game(evening_game(played_of(box), str(journal)))
    menu.selected = [it.key for it in menu.items].index("evening")
    assert _("Enter: its results on the screen") in menu.detail()
    choice = menu.key("select")
    assert choice is not None and choice.results == str(journal) and not menu.started
    outcome = box.engine.outcome()
    assert outcome is not None
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, back_from_results(seen))
    screen = Screen.open(headless=True, size=(1280, 720))
    try:
        with box.lock:
            final = view_of(box, box.now_us)
        run_results(presenter_for(box.spec, screen, sound=None, colors=None), final, box.spec)
        SHOTS.mkdir(parents=True, exist_ok=True)
        pygame.image.save(screen.surface, str(SHOTS / f"menu-evening-results-{language}-720.png"))
    finally:
        screen.close()
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert _("Final results") in seen["titles"], seen["titles"]
    assert all(box.station_names[p] in seen["said"] for p in outcome.winners), seen["said"]


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_each_games_state_and_name_are_whole_in_the_evening_row(language: str) -> None:
    """The row says a game's state first and its name whole (the time is in the panel beside),
    for every game, finished or ended early, at both sizes."""
    set_language(language)
    for game, title, *_rest in GAMES:
        for finished in (True, False):
            menu = Menu(GAMES)
            menu.played_game(EveningGame(f"/journals/{game}.jsonl", title, "21:03", finished))
            menu.selected = [it.key for it in menu.items].index("evening")
            label = menu.evening[0].label()
            assert label.startswith(_("Finished") if finished else _("Ended early")) and _(title) in label
            for size in ((1920, 1080), (1280, 720)):
                theme.DRAWN = []
                MenuScene().draw(pygame.Surface(size), freeze(menu.view()), [], 0)
                row = [(asked, shown) for asked, shown, *_r in theme.DRAWN if label in asked]
                assert row and all(asked == shown for asked, shown in row), (size, row)
                assert panel_of(list(theme.DRAWN)).startswith(f"{_('This evening')}: {label}, 21:03")
