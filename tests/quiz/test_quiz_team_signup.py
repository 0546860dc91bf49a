"""Team sign-up: in a team quiz's lobby a player joins a team (and may name
it) with the engine's ``team`` move, journaled like any other; once the first
question is armed the teams stand and the move is refused. The host may name
a team at any time until the quiz is over (a journaled host action), and a
team nobody plays in is left off the boards once the lobby is over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.box import journal as journal_mod
from controller.box.journal import JournalWriter
from controller.box.press import Press
from controller.box.runtime import Box, box_from_journal
from games import registry
from games.base import HOST_TEAM_NAME, Action, RuleError
from games.i18n import reason_text
from games.panels import TYPED
from games.quiz.engine import MAX_TEAM_NAME, QuizEngine
from tests.journal.conftest import run

SPEC = registry.get("quiz")
S = 1_000_000
#: what a name the TV could not show whole and on one line is refused with
NAME_RULE = (f"a team's name is 1 to {MAX_TEAM_NAME} letters, digits or signs, with no line breaks: "
             "type another name")


def teams_quiz(players: int = 4, **options: object) -> QuizEngine:
    engine = SPEC.new_engine(SPEC.settings(players, 1, rules="teams", **options))
    assert isinstance(engine, QuizEngine)
    return engine


def refusal(engine: QuizEngine, action: Action) -> str:
    with pytest.raises(RuleError) as caught:
        engine.handle(action)
    return reason_text(caught.value.reason, caught.value.arguments)


def test_a_player_joins_another_team_and_names_it_and_its_points_are_that_team_s() -> None:
    engine = teams_quiz()  # pairs: [0, 0, 1, 1]
    assert engine.legal_moves(3) == [{"kind": "team", "args": {"team": 0}},
                                     {"kind": "team", "args": {"team": 1, "name": TYPED}}]  # the name typed on the phone
    events = engine.handle(Action("team", S, 3, {"team": 0, "name": "  Owls "}))
    assert [(e.kind, e.player, e.data) for e in events if e.kind == "team"] == [
        ("team", 3, {"team": 0, "teams": [0, 0, 1, 0], "name": "Owls"})]
    view = engine.public_view()
    assert view["teams"] == [0, 0, 1, 0] and view["team_names"] == ["Owls", ""]
    assert [m["args"] for m in engine.legal_moves(3)] == [{"team": 1}, {"team": 0, "name": TYPED}]
    engine.handle(Action("arm", 2 * S, None))
    engine.handle(Action("buzz", int(2.5 * S), 3))
    engine.tick(3 * S)
    engine.handle(Action("correct", 4 * S, None))
    rows = {tuple(r["stations"]): r["score"] for r in engine.standings()}
    assert rows == {(0, 1, 3): 1, (2,): 0}  # Dan's point is his new team's


def test_once_the_first_question_is_armed_the_teams_stand() -> None:
    engine = teams_quiz()
    engine.handle(Action("arm", S, None))
    assert engine.legal_moves(0) == []
    assert refusal(engine, Action("team", 2 * S, 0, {"team": 1})) == (
        "the teams are set once the first question is asked: stay in your team")
    assert engine.public_view()["teams"] == [0, 0, 1, 1]


def test_bad_team_moves_are_refused_in_one_line_and_change_nothing() -> None:
    engine = teams_quiz()
    assert refusal(engine, Action("team", S, 0, {"team": 2})) == "no such team: pick one of the 2 teams"
    assert refusal(engine, Action("team", S, 0, {"team": 1, "name": "x" * (MAX_TEAM_NAME + 1)})) == NAME_RULE
    assert refusal(engine, Action("team", S, 0, {"team": 1, "name": "   "})) == NAME_RULE
    for drawn_wrong in ("Owls\nWIN", "Owls\x1b[2J", "\u202eslwO"):  # a line break, an escape, a bidi override
        assert refusal(engine, Action("team", S, 0, {"team": 1, "name": drawn_wrong})) == NAME_RULE
    assert engine.public_view()["teams"] == [0, 0, 1, 1] and engine.public_view()["team_names"] == []
    solo = SPEC.new_engine(SPEC.settings(3, 1))
    assert isinstance(solo, QuizEngine) and not hasattr(solo, "legal_moves")  # no phone seats without teams
    assert refusal(solo, Action("team", S, 0, {"team": 1})) == "this quiz has no teams: everyone plays for themselves"


def test_a_team_move_is_journaled_and_the_results_read_it_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "signup.jsonl"
    box = Box(SPEC, SPEC.settings(4, 1, rules="teams", questions=1), station_names=["Anna", "Ben", "Cleo", "Dan"])
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    box.apply_action(Action("team", S, 1, {"team": 1, "name": "Foxes"}))  # Ben joins Cleo and Dan
    box.host("arm", 2 * S)
    box.apply_action(Action("team", int(2.1 * S), 0, {"team": 1}))  # too late: refused, on record
    box.apply_press(Press(1, "bell", int(2.3 * S)))
    box.step(int(2.5 * S))
    box.host("correct", 3 * S)
    box._write({"type": "end", "t_us": 4 * S})
    box.journal.close()
    assert any(e.kind == "rejected" and e.player == 0 for e in box.event_log)

    code, out, err = run(capsys, "results", str(path), "--json")
    assert code == 0, err
    teams = json.loads(out)["standings"]["teams"]
    assert [(t["place"], t["name"], t["members"], t["points"]) for t in teams] == [
        (1, "Foxes", [1, 2, 3], 1), (2, "Team 1", [0], 0)]
    code, text, _err = run(capsys, "results", str(path))
    assert "  1. Foxes, sky blue (Ben, Cleo, Dan): 1 point" in text and "Winner: Foxes with 1 point" in text


# -- the host names a team -------------------------------------------------------------------

def test_the_host_names_teams_in_the_lobby_and_later_and_a_replay_and_the_results_say_the_same(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "named.jsonl"
    box = Box(SPEC, SPEC.settings(4, 1, rules="teams", questions=2), station_names=["Anna", "Ben", "Cleo", "Dan"])
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    box.apply_action(Action(HOST_TEAM_NAME, S, None, {"team": 1, "name": " Foxes "}))  # in the lobby
    box.host("arm", 2 * S)
    box.apply_action(Action(HOST_TEAM_NAME, int(2.1 * S), None, {"team": 0, "name": "Owls"}))  # once play began
    box.apply_press(Press(2, "bell", int(2.3 * S)))
    box.step(int(2.5 * S))
    box.host("correct", 3 * S)
    box.apply_action(Action(HOST_TEAM_NAME, int(3.5 * S), None, {"team": 1, "name": "Foxes 2"}))  # renamed again
    box._write({"type": "end", "t_us": 4 * S})
    box.journal.close()
    assert [(e.kind, e.data) for e in box.event_log if e.kind == "team_named"] == [
        ("team_named", {"team": 1, "name": "Foxes"}), ("team_named", {"team": 0, "name": "Owls"}),
        ("team_named", {"team": 1, "name": "Foxes 2"})]
    assert box.engine.public_view()["team_names"] == ["Owls", "Foxes 2"]
    assert box.engine.public_view()["teams"] == [0, 0, 1, 1]  # nobody moved: a name is not a team change
    assert box_from_journal(journal_mod.read(path)).engine.public_view()["team_names"] == ["Owls", "Foxes 2"]

    code, out, err = run(capsys, "results", str(path), "--json")
    assert code == 0, err
    teams = json.loads(out)["standings"]["teams"]
    assert [(t["place"], t["name"], t["members"], t["points"]) for t in teams] == [
        (1, "Foxes 2", [2, 3], 1), (2, "Owls", [0, 1], 0)]
    code, text, _err = run(capsys, "results", str(path))
    assert "  1. Foxes 2, sky blue (Cleo, Dan): 1 point" in text and "  2. Owls, orange (Anna, Ben): 0 points" in text


def test_a_bad_team_name_from_the_host_is_refused_in_one_line_and_changes_nothing() -> None:
    engine = teams_quiz()

    def named(team: object, name: object) -> str:
        return refusal(engine, Action(HOST_TEAM_NAME, S, None, {"team": team, "name": name}))

    for drawn_wrong in ("", "   ", "x" * (MAX_TEAM_NAME + 1), "Owls\nWIN", "Owls\x1b[2J", "\u202eslwO", 7):
        assert named(0, drawn_wrong) == NAME_RULE
    assert named(2, "Owls") == "no such team: pick one of the 2 teams"
    assert named(True, "Owls") == "no such team: pick one of the 2 teams"
    assert engine.public_view()["team_names"] == []
    assert engine.handle(Action(HOST_TEAM_NAME, S, None, {"team": 0, "name": "x" * MAX_TEAM_NAME}))  # the longest
    solo = SPEC.new_engine(SPEC.settings(3, 1))
    assert HOST_TEAM_NAME not in solo.legal_actions(None)
    assert refusal(solo, Action(HOST_TEAM_NAME, S, None, {"team": 0, "name": "Owls"})) == (
        "this quiz has no teams: everyone plays for themselves")
    over = teams_quiz(questions=1)
    over.handle(Action("arm", S, None))
    over.handle(Action("next", 2 * S, None))
    assert over.finished and HOST_TEAM_NAME not in over.legal_actions(None)
    assert refusal(over, Action(HOST_TEAM_NAME, 3 * S, None, {"team": 0, "name": "Owls"})) == (
        "the quiz is over: its teams keep their names")


# -- a team nobody plays in --------------------------------------------------------------------

def drawn_texts(view: dict[str, object], names: list[str], size: tuple[int, int] = (1280, 720)) -> list[str]:
    """Every text the quiz's TV screen draws for ``view``."""
    import pygame

    from games.scenes import scene_for
    from games.toolkit import theme
    from games.toolkit.scene import freeze

    pygame.font.init()
    theme.DRAWN = []
    try:
        scene_for("quiz").draw(pygame.Surface(size), freeze(view), [{"name": n, "status": "idle"} for n in names], 0)
        return [shown for _asked, shown, *_rest in theme.DRAWN]
    finally:
        theme.DRAWN = None


def test_a_team_left_empty_in_the_lobby_is_off_the_board_the_standings_and_the_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = ["Anna", "Ben", "Cleo", "Dan", "Eva", "Filip"]
    path = tmp_path / "empty.jsonl"
    box = Box(SPEC, SPEC.settings(6, 1, rules="teams", questions=2), station_names=names)  # pairs: three teams
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    box.apply_action(Action(HOST_TEAM_NAME, S // 2, None, {"team": 2, "name": "Foxes"}))
    box.apply_action(Action("team", S, 2, {"team": 2}))  # Cleo and Dan go over to Eva and Filip's Foxes
    box.apply_action(Action("team", S, 3, {"team": 2}))
    assert box.engine.public_view()["teams_shown"] == [0, 1, 2]  # in the lobby an empty team is one to join
    box.host("arm", 2 * S)
    view = box.engine.public_view()
    assert view["teams_shown"] == [0, 2]
    on_tv = drawn_texts(view, names)
    assert "Team 1" in on_tv and "Foxes" in on_tv and "Team 2" not in on_tv  # the side panel's team scores
    assert not any(text.startswith("sky blue") for text in on_tv)  # nor its "sky blue: -" line
    box.apply_press(Press(4, "bell", int(2.3 * S)))
    box.step(int(2.5 * S))
    box.host("correct", 3 * S)
    box.host("leaderboard", int(3.5 * S))
    board = box.engine.public_view()
    assert [r["stations"] for r in board["standings"]] == [[2, 3, 4, 5], [0, 1]]
    assert "Team 2" not in drawn_texts(board, names)  # the leaderboard's podium
    box._write({"type": "end", "t_us": 4 * S})
    box.journal.close()

    code, out, err = run(capsys, "results", str(path), "--json")
    assert code == 0, err
    assert [(t["name"], t["members"]) for t in json.loads(out)["standings"]["teams"]] == [
        ("Foxes", [2, 3, 4, 5]), ("Team 1", [0, 1])]
    code, text, _err = run(capsys, "results", str(path))
    assert "Team 2" not in text and "sky blue" not in text


def test_a_team_nobody_played_in_is_no_team_of_the_qbj_match(tmp_path: Path) -> None:
    import jsonschema

    from controller.apps.qbj import SCHEMA, match_of

    e = SPEC.new_engine(SPEC.settings(4, 7, rules="bowl", teams=[0, 0, 2, 2]))  # team 2 of 3 has nobody
    e.handle(Action(HOST_TEAM_NAME, S, None, {"team": 2, "name": "Foxes"}))
    e.handle(Action("arm", 2 * S, None))
    e.handle(Action("buzz", int(2.4 * S), 2))
    e.tick(int(2.5 * S))
    match = match_of(e, ["Anna", "Ben", "Cleo", "Dan"])
    jsonschema.validate(match, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [(t["team"]["id"], t["team"]["name"], [p["name"] for p in t["team"]["players"]])
            for t in match["match_teams"]] == [("team_1", "Team 1", ["Anna", "Ben"]), ("team_3", "Foxes", ["Cleo", "Dan"])]
