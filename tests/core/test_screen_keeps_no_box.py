"""The screen's process keeps no ``Box`` of a live game (issue 47): `play`
and the menu, as they run by default (the game decided in a process of its
own), start a game with its session header and draw the views they are sent;
how the game went comes in the deciding process's ``Ended``. This test's
process is the screen's (``play`` and the menu run in it), the deciding
process is a child: a ``Box`` built here is one the screen built."""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import journal as journal_mod
from controller.box import profile as profile_mod
from controller.box import session
from controller.box.runtime import Box, box_from_journal
from controller.box.views import first_snapshot
from controller.cli import main
from controller.screen.menu import EveningGame, Menu
from games.registry import get
from tests.display.kiosk import Kiosk, Script, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, back_to_menu_and_quit
from tests.display.test_menu_evening_night import PACK, first_question_won_by, until


@pytest.fixture
def boxes_built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Where each ``Box`` this process builds is built (a stack per box)."""
    built: list[str] = []
    init = Box.__init__

    def counted(self: Box, *args: Any, **kwargs: Any) -> None:
        built.append("".join(traceback.format_stack(limit=12)))
        init(self, *args, **kwargs)

    monkeypatch.setattr(Box, "__init__", counted)
    yield built


@pytest.mark.usefixtures("mock_pins")
def test_play_builds_no_box_and_says_how_the_game_went_as_its_journal_does(
        tmp_path: Path, boxes_built: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``play`` headless for half a second: no box in the screen's process,
    and the summary line and ``--json`` say what the journal says."""
    path = tmp_path / "r.jsonl"
    assert main(["play", "reaction", "--headless", "--players", "3", "--seed", "7", "--seconds", "0.5",
                 "--journal", str(path), "--json"]) == 0
    assert boxes_built == [], boxes_built[0]
    out, err = capsys.readouterr()
    played = box_from_journal(journal_mod.read(path))
    assert session.summary_line(session.played_of(played), "time") in err
    assert json.loads(out)["scores"] == played.summary()["scores"]


@pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")
def test_the_menus_game_with_people_builds_no_box_and_is_listed_as_its_journal_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str]) -> None:
    """A quiz from the menu, won on its first question and ended on its second:
    the menu builds no box of it (but the results file's reader of its closed
    journal), and the "This evening" row lists it as its journal has it."""
    from controller.apps.menu import evening_game

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs, journals = tmp_path / "packs", tmp_path / "journals"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    listed: list[EveningGame] = []
    played_game = Menu.played_game

    def listing(menu: Menu, game: EveningGame) -> None:
        listed.append(game)
        played_game(menu, game)

    monkeypatch.setattr(Menu, "played_game", listing)

    def host() -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        frame = yield [pygame.K_UP]  # from the game row up round to Start
        frame = yield from first_question_won_by(1, frame)
        frame = yield [pygame.K_n]  # no one rang: the quiz is over
        frame = yield from until(frame, lambda f: asked(f, "Final results"))
        yield from back_to_menu_and_quit(frame, escapes=1)

    kiosk = Kiosk(monkeypatch, host())
    assert main(menu_args(tmp_path, "--players", "3")) == 0
    assert kiosk.stuck is None, kiosk.stuck
    # the quiz's results file is written from its journal once the game is closed (``results.write_at_close``)
    live = [stack for stack in boxes_built if "in write_at_close" not in stack]
    assert live == [], live[0]
    (journal,) = journals.glob("*.jsonl")
    record = box_from_journal(journal_mod.read(journal))
    expected = evening_game(session.played_of(record), str(journal))
    assert len(listed) == 1 and listed[0].winners == expected.winners == ("Player 1",)
    assert (listed[0].standings, listed[0].finished) == (expected.standings, True)


@pytest.mark.parametrize("game", ["reaction", "quiz", "piepmatz", "pictomania"])
@pytest.mark.parametrize("profile", [None, "header-4"])
def test_the_screens_header_and_first_pages_are_a_boxs(game: str, profile: str | None) -> None:
    """What the screen sends to start a game (its session header) and what its
    phones show before the first snapshot are what a box of the game journals and shows."""
    from controller.box.views import GameAtStart

    spec = get(game)
    prof = profile_mod.load(profile) if profile is not None else None
    players = len(prof.stations) if prof is not None else 3
    settings = session.game_settings(spec, players, 11, {}, prof)
    for names in (None, ["Ana", "Bára", "Cyril", "Dana"][:players]):
        box = session.new_box(spec, settings, prof, None, station_names=names)
        assert session.people_header(spec, settings, prof, names) == box.header(
            mode="play", profile=None if prof is None else prof.name)
        assert first_snapshot(GameAtStart.new(spec, settings, box.station_names)) == first_snapshot(box)
