"""Team sign-up: in a team quiz's lobby a player joins a team (and may name
it) with the engine's ``team`` move, journaled like any other; once the first
question is armed the teams stand and the move is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.journal import JournalWriter
from controller.press import Press
from controller.runtime import Box
from games import registry
from games.base import Action, RuleError
from games.i18n import reason_text
from games.panels import TYPED
from games.quiz.engine import MAX_TEAM_NAME, QuizEngine
from tests.journal.conftest import run

SPEC = registry.get("quiz")
S = 1_000_000


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
    assert refusal(engine, Action("team", S, 0, {"team": 1, "name": "x" * (MAX_TEAM_NAME + 1)})) == (
        f"a team's name is 1 to {MAX_TEAM_NAME} characters")
    assert refusal(engine, Action("team", S, 0, {"team": 1, "name": "   "})) == (
        f"a team's name is 1 to {MAX_TEAM_NAME} characters")
    for drawn_wrong in ("Owls\nWIN", "Owls\x1b[2J", "\u202eslwO"):  # a line break, an escape, a bidi override
        assert refusal(engine, Action("team", S, 0, {"team": 1, "name": drawn_wrong})) == (
            f"a team's name is 1 to {MAX_TEAM_NAME} characters")
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
