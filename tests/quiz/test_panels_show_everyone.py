"""Every panel shows everyone who pressed or is on a team, at both sizes, in
en/cs/pl (the fit checks of tests/fits.py): quiz bowl's team panel keeps the
answering team (it used to be pushed out by "next in line: nobody" and the
first team's members), and the queue of sixteen stations lists every
presser (a long queue one line each, the rest named on its last line)."""

from __future__ import annotations

from pathlib import Path

import pytest

from games.base import Action
from games.i18n import _, set_language
from games.quiz.scene import QuizScene, team_label
from games.toolkit.scene import freeze
from tests.fits import LONG_NAMES, LONG_TEAMS, measured, unfit_texts
from tests.quiz.test_quiz_bowl import act, bowl, buzz
from tests.quiz.test_quiz_rounds import SPEC, assert_drawn_whole_screen

SIZES = [(1280, 720), (1920, 1080)]


@pytest.fixture(params=["en", "cs", "pl"])
def language(request: pytest.FixtureRequest) -> object:
    set_language(request.param)
    yield request.param
    set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
def test_the_bowl_team_panel_keeps_the_answering_team(language: str, size: tuple[int, int], tmp_path: Path) -> None:
    e = bowl(team_names=LONG_TEAMS[:2])
    act(e, "arm", 0)
    buzz(e, 3, 1_000_000)  # the second team's player answers
    view = e.public_view()
    assert view["phase"] == "answering" and view["queue"] == []
    drawn = assert_drawn_whole_screen(view, 4, size, tmp_path / f"bowl-{language}-{size[1]}.png",
                                      may_cut=frozenset(LONG_NAMES))
    shown = [text for text, *_r in drawn]
    assert LONG_TEAMS[0] in shown and LONG_TEAMS[1] in shown, shown


@pytest.mark.parametrize(("pressers", "teams"), [(3, None), (4, None), (3, 4)], ids=["3", "4", "3-teams of 4"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
def test_the_queue_of_sixteen_stations_lists_every_presser(language: str, size: tuple[int, int], pressers: int,
                                                          teams: int | None) -> None:
    e = SPEC.new_engine(SPEC.settings(16, 7, pack="en-general", **({"team_size": teams} if teams else {})))
    e.handle(Action("arm", 0, None))
    order = [(5 + 7 * k) % 16 for k in range(pressers)]
    for k, station in enumerate(order):
        e.handle(Action("buzz", 1_000_000 + k * 30_000, station))
    e.tick(2_000_000)
    view = e.public_view()
    assert view["phase"] == "answering" and view["queue"] == order[1:]
    names = [LONG_NAMES[i % len(LONG_NAMES)] for i in range(16)]
    strip = [{"name": name, "status": "idle"} for name in names]
    drawn, smallest = measured(lambda surface: QuizScene().draw(surface, freeze(view), strip, 3), size, 16)
    # a 24-letter name may end in "…" beside a margin; nothing spills, overlaps or is too small
    wrong = unfit_texts([d for d in drawn if not any(name in d[0] for name in names)], smallest, size)
    assert not wrong, wrong
    said = " ".join(shown for _t, shown, *_r in drawn)  # as read on the screen (a row may take two lines)
    missing = [f"{place}. {names[station]}" for place, station in enumerate(order[1:], start=2)
               if f"{place}. {names[station]}" not in said and f"{place}. {names[station][:8]}" not in said]
    assert not missing, f"not in the queue: {missing}"
    labels = [team_label(freeze(view), t) for t in view.get("teams_shown", ())] if teams else []
    assert all(label in said for label in labels), (labels, said)


@pytest.mark.parametrize("stations", [4, 8, 16])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
def test_the_team_quiz_instruction_is_whole_beside_the_teams(language: str, size: tuple[int, int], stations: int) -> None:
    """"…gdy ekran zrobi się zie…": beside the teams' panel it takes two lines, never cut."""
    e = SPEC.new_engine(SPEC.settings(stations, 7, pack="en-general", team_size=2))
    view = e.public_view()
    strip = [{"name": LONG_NAMES[i % len(LONG_NAMES)], "status": "idle"} for i in range(stations)]
    drawn, smallest = measured(lambda surface: QuizScene().draw(surface, freeze(view), strip, 3), size, stations)
    assert unfit_texts(drawn, smallest, size) == []
    said = " ".join(shown for _t, shown, *_r in drawn)
    assert _("Listen to the question, buzz when the screen turns green") in said, said
