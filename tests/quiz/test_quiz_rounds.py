"""A quiz as rounds: each round with its own preset, timer, points and
questions (categories from the pack), its card on the screen before it, the
leaderboard after it; the default stays one round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.cli import main
from controller.screen.menu import Menu
from controller.screen.screen import Screen
from games import registry
from games.base import Action, GameEvent, OptionError
from games.i18n import set_language
from games.quiz import PACKS_DIR
from games.quiz.packs import load_pack
from games.quiz.scene import QuizScene
from games.toolkit.scene import freeze
from tests.cli.test_bad_input import one_line_ending
from tests.fits import LONG_NAMES, LONG_TEAMS, Drawn, measured, unfit_texts

PACK = str(PACKS_DIR / "en-general.csv")
SPEC = registry.get("quiz")
ROUNDS = [{"title": "Warm-up", "questions": 2},
          {"title": "Science", "rules": "penalty", "categories": ["Science"], "questions": 2,
           "answer_time_us": 5_000_000, "points_correct": 3}]


def play_question(engine, t: int, station: int, verdict: str) -> tuple[int, list[GameEvent]]:
    """Arm, one press, judged, next: the events of one question."""
    events = engine.handle(Action("arm", t))
    events += engine.handle(Action("buzz", t + 100_000, station))
    events += engine.tick(t + 200_000)
    events += engine.handle(Action(verdict, t + 300_000))
    if verdict == "wrong" and not engine.finished and engine.public_view()["phase"] == "armed":
        events += engine.handle(Action("reset", t + 350_000))
    if not engine.finished:
        events += engine.handle(Action("next", t + 400_000))
    return t + 1_000_000, events


def test_each_round_asks_its_own_questions_under_its_own_rules() -> None:
    settings = SPEC.settings(3, 1, pack=PACK, rounds=ROUNDS)
    asked = settings.options["pack_questions"]
    assert [q["round"] for q in asked] == [1, 1, 2, 2]
    assert all(q["category"] == "Science" for q in asked[2:])
    assert len({q["text"] for q in asked}) == 4  # none asked twice
    engine = SPEC.new_engine(settings)
    view = engine.public_view()
    assert view["round_intro"] and view["round"]["title"] == "Warm-up" and len(view["rounds"]) == 2
    t, events = 1_000_000, []
    for station, verdict in ((1, "wrong"), (0, "correct"), (1, "wrong"), (2, "correct")):
        t, more = play_question(engine, t, station, verdict)
        events += more
    starts = [e for e in events if e.kind == "round_start"]
    assert [(e.data["number"], e.data["title"], e.data["rules"]) for e in starts] == [
        (1, "Warm-up", "classic"), (2, "Science", "penalty")]
    wrongs = [e.data["points"] for e in events if e.kind == "wrong"]
    assert wrongs == [0, -1]  # free in the warm-up, a point in the penalty round
    assert [e.data["points"] for e in events if e.kind == "correct"] == [asked[1]["points"], 3 * asked[3]["points"]]
    assert [e.data["round"] for e in events if e.kind == "question"] == [1, 1, 2, 2]
    boards = [e.data["final"] for e in events if e.kind == "podium"]
    assert boards == [False, True]  # the leaderboard after the first round, the final one at the end
    assert engine.finished and engine.summary()["scores"] == [asked[1]["points"], -1, 3 * asked[3]["points"]]


def test_the_round_s_timer_runs_only_in_its_round() -> None:
    engine = SPEC.new_engine(SPEC.settings(2, 1, pack=PACK, rounds=ROUNDS))
    engine.handle(Action("arm", 1_000_000))
    engine.handle(Action("buzz", 1_100_000, 0))
    engine.tick(1_200_000)
    assert engine.public_view()["answer_left_us"] is None  # the warm-up has no timer
    engine.handle(Action("correct", 2_000_000))
    engine.handle(Action("next", 2_100_000))
    engine.handle(Action("next", 2_200_000))  # question 2 skipped: round 2
    engine.handle(Action("arm", 3_000_000))
    engine.handle(Action("buzz", 3_100_000, 1))
    events = engine.tick(3_200_000) + engine.tick(8_200_001)
    assert [e.kind for e in events if e.kind in ("winner", "time_up", "wrong")] == ["winner", "time_up", "wrong"]


def test_the_default_stays_one_round() -> None:
    engine = SPEC.new_engine(SPEC.settings(3, 1, pack=PACK))
    view = engine.public_view()
    assert len(view["rounds"]) == 1 and not view["round_intro"]
    events = engine.handle(Action("arm", 1_000_000))
    assert "round_start" not in [e.kind for e in events]
    assert [e.data.get("round") for e in events if e.kind == "question"] == [None]  # as before rounds


@pytest.mark.parametrize(("rounds", "fragment"), [
    ([{"questions": 2, "teams": 2}], "round 1 has teams; a round may set title, rules"),
    ([{"rules": "teams", "questions": 2}], "a round may use classic, sit-out, penalty, second-chance"),
    ([{"title": "no count"}], "round 1 needs its number of questions"),
    ([], "rounds must list the rounds"),
    (5, "option 'rounds' is 5: give a list"),
])
def test_a_bad_round_is_one_line_that_says_what_a_round_may_be(rounds: list, fragment: str) -> None:
    with pytest.raises(ValueError) as err:
        SPEC.new_engine(SPEC.settings(3, 1, rounds=rounds))
    message = str(err.value)
    assert fragment in message and "\n" not in message and "['" not in message  # no Python list


#: a bad round typed with --option, and the one line each language says about it
SAID = {
    "en": "buzzerbox simulate: quiz: round 1 has teams; a round may set title, rules",
    "cs": "buzzerbox simulate: kvíz: kolo 1 má teams; kolo smí nastavit title, rules",
    "pl": "buzzerbox simulate: kwiz: runda 1 ma teams; runda może ustawić title, rules",
}


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_bad_round_typed_with_option_is_one_line_in_the_box_s_language(lang: str, capsys) -> None:
    argv = ["--lang", lang, "simulate", "quiz", "--players", "3", "--option", 'rounds=[{"questions": 2, "teams": 2}]']
    try:
        status, err = one_line_ending(lambda: main(argv), capsys)
    finally:
        set_language("en")
    assert status == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(SAID[lang])


def test_a_round_without_questions_left_is_refused_before_the_night() -> None:
    science = sum(q.category == "Science" for q in load_pack(PACK).questions)
    rounds = [{"categories": ["Science"], "questions": science}, {"categories": ["Science"], "questions": 1}]
    with pytest.raises(OptionError, match="round 2 has no question left"):
        SPEC.settings(3, 1, pack=PACK, rounds=rounds)
    with pytest.raises(OptionError, match="round 1: categories Astrology not in the pack"):
        SPEC.settings(3, 1, pack=PACK, rounds=[{"categories": ["Astrology"]}])


def test_unknown_options_are_named_for_a_person_not_as_a_python_list() -> None:
    from games.base import GameSettings

    with pytest.raises(OptionError) as err:
        SPEC.new_engine(GameSettings(3, 1, {"roundz": 2}))
    assert "unknown option 'roundz' for quiz (did you mean rounds?); the options are " in str(err.value)
    assert "['" not in str(err.value)


def test_the_menu_offers_rounds_and_they_reach_the_quiz() -> None:
    menu = Menu([("quiz", "Quiz buzzer", 2, 16)], 3)
    menu.selected = [it.key for it in menu.items].index("rounds")
    assert next(it for it in menu.view()["items"] if it["key"] == "rounds")["value"] == "one round"
    menu.key("right")
    assert next(it for it in menu.view()["items"] if it["key"] == "rounds")["value"] == "2 rounds of 10"
    choice = menu.choice()
    engine = SPEC.new_engine(SPEC.settings(choice.players, 1, **choice.options))
    assert [(r["first"], r["questions"]) for r in engine.public_view()["rounds"]] == [(1, 10), (11, 10)]


def test_results_count_each_round_s_points(tmp_path: Path, capsys) -> None:
    from controller.cli import main

    path = tmp_path / "rounds.jsonl"
    assert main(["simulate", "quiz", "--pack", PACK, "--players", "3", "--option",
                 "rounds=" + json.dumps([{"questions": 6}, {"questions": 6, "rules": "penalty"}]),
                 "--journal", str(path)]) == 0
    capsys.readouterr()
    assert main(["results", str(path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    table = shown["standings"]
    assert [r["questions"] for r in table["rounds"]] == [list(range(1, 7)), list(range(7, 13))]
    for p in table["players"]:
        assert sum(p["rounds"]) == p["points"] == shown["scores"][p["station"]]


def assert_drawn_whole_screen(view: dict[str, Any], players: int, size: tuple[int, int], shot: Path,
                              names: list[str] = LONG_NAMES, may_cut: frozenset[str] = frozenset()) -> Drawn:
    """The quiz scene draws ``view`` for ``players`` idle stations (the longest
    names a profile allows) on a ``size`` screen, saved as ``shot``, every text of
    its picture whole, at least the minimum size and clear of the others (tests/fits.py),
    but the texts of ``may_cut``, which may end in an ellipsis. Returns those texts."""
    strip = [{"name": names[i % len(names)], "status": "idle"} for i in range(players)]

    def draw(surface: pygame.Surface) -> None:
        QuizScene().draw(surface, freeze(view), strip, 3)

    drawn, smallest = measured(draw, size, players)
    wrong = unfit_texts([d for d in drawn if d[0] not in may_cut], smallest, size)
    screen = Screen.open(headless=True, size=size)
    draw(screen.surface)
    screen.save(shot)
    assert not wrong, f"{shot.name}: " + "; ".join(wrong)
    return drawn


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_round_card_is_drawn(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    set_language(lang)
    try:
        engine = SPEC.new_engine(SPEC.settings(8, 1, pack=PACK, rounds=ROUNDS))
        engine.handle(Action("next", 1))
        engine.handle(Action("next", 2))  # to round 2's card
        view = engine.public_view()
        assert view["round_intro"] and view["round"]["number"] == 2
        assert_drawn_whole_screen(view, 8, size, tmp_path / f"round-card-{lang}-{size[0]}.png")
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_players_podium_names_its_three_whole(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    """Eight players of the longest names a profile allows: the podium's three
    whole (shrunk, then on up to three lines), and every other text, the
    reaction table's eight names too (the table keeps the columns they leave room for)."""
    set_language(lang)
    try:
        engine = SPEC.new_engine(SPEC.settings(8, 1, pack=PACK, questions=7))
        t = 1_000_000
        for station in (0, 0, 0, 2, 2, 6):  # places 1, 2, 3
            t, _events = play_question(engine, t, station, "correct")
        engine.handle(Action("leaderboard", t))
        view = engine.public_view()
        assert view["board"]
        drawn = assert_drawn_whole_screen(view, 8, size, tmp_path / f"players-board-{lang}-{size[0]}.png")
        on_podium = [(asked, shown) for asked, shown, ink, _r, _s in drawn if ink.right <= size[0] * 45 // 100]
        assert all(shown == asked for asked, shown in on_podium), on_podium
        said = " ".join(shown for _a, shown in on_podium).split()
        for station in (0, 2, 6):
            assert set(LONG_NAMES[station].split()) <= set(said), (LONG_NAMES[station], said)
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_podium_name_breaks_a_word_wider_than_its_block_at_the_hyphen(tmp_path: Path, lang: str,
                                                                         size: tuple[int, int]) -> None:
    """Double surnames wider than a podium block even in the smallest type
    ("Wiśniewska-Łę": 211 px of 30 at 720 p, a block 175) on the podium:
    each name whole on three lines, its surname broken after the hyphen. (A
    part still wider than the block's slot stays a limit: "Mazurkiewicz-" is
    202 px at 720 p, a slot 195.)"""
    set_language(lang)
    try:
        engine = SPEC.new_engine(SPEC.settings(8, 1, pack=PACK, questions=7))
        t = 1_000_000
        for station in (5, 5, 5, 1, 1, 4):  # Małgorzata Wiśniewska-Łę, Bartłomiej Szczęsny-Woźń, Magdaléna Weissová-Hůlka
            t, _events = play_question(engine, t, station, "correct")
        engine.handle(Action("leaderboard", t))
        drawn = assert_drawn_whole_screen(engine.public_view(), 8, size, tmp_path / f"hyphens-board-{lang}-{size[0]}.png")
        lines = {shown for _a, shown, *_r in drawn}
        assert {"Małgorzata", "Wiśniewska-", "Łę", "Bartłomiej", "Szczęsny-", "Woźń", "Magdaléna", "Weissová-", "Hůlka"} <= lines
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_leaderboard_names_the_teams(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    set_language(lang)
    try:
        engine = SPEC.new_engine(SPEC.settings(8, 1, pack=PACK, rules="teams", team_names=LONG_TEAMS))
        play_question(engine, 1_000_000, 2, "correct")
        engine.handle(Action("leaderboard", 3_000_000))
        view = engine.public_view()
        assert view["board"] and view["team_names"] == LONG_TEAMS
        drawn = assert_drawn_whole_screen(view, 8, size, tmp_path / f"teams-board-{lang}-{size[0]}.png")
        said = " ".join(shown for _a, shown, *_r in drawn).split()
        assert all(set(team.split()) <= set(said) for team in LONG_TEAMS), said  # both teams named, whole
    finally:
        set_language("en")
