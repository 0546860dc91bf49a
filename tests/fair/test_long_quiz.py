"""A long quiz stays flat: each judgement keeps one question's worth of undo
state, and the view carries what the screen shows, not the whole evening."""

from __future__ import annotations

import pickle

import pytest

from games import registry
from games.base import Action, RuleError
from games.quiz.engine import UNDO_DEPTH, VIEW_RESULTS


def play(engine, questions: int, t: int = 0) -> int:
    for q in range(questions):
        engine.handle(Action("arm", t))
        engine.handle(Action("buzz", t + 100, q % 3))
        engine.tick(t + 10_000)
        engine.handle(Action("correct", t + 20_000))
        engine.handle(Action("next", t + 30_000))
        t += 100_000
    return t


def undo_bytes(engine) -> int:
    return len(pickle.dumps(list(engine._undo)))


def test_undo_and_view_do_not_grow_with_the_game():
    spec = registry.get("quiz")
    engine = spec.new_engine(spec.settings(3, seed=1))
    t = play(engine, 100)
    undo_100, view_100 = undo_bytes(engine), len(repr(engine.public_view()))
    play(engine, 900, t)
    assert undo_bytes(engine) <= undo_100 * 1.2  # 10x the questions, the same undo
    assert len(repr(engine.public_view())) <= view_100 * 1.2
    view = engine.public_view()
    assert len(view["results"]) == VIEW_RESULTS and view["questions_done"] == 1000
    assert len(engine.summary()["results"]) == 1000  # the record keeps every question


def test_undo_restores_scores_and_results_as_far_as_its_depth():
    spec = registry.get("quiz")
    engine = spec.new_engine(spec.settings(3, seed=1))
    t = play(engine, UNDO_DEPTH + 5)
    engine.handle(Action("arm", t))
    engine.handle(Action("buzz", t + 100, 2))
    engine.tick(t + 10_000)
    before = engine.summary()
    engine.handle(Action("correct", t + 20_000))
    assert engine.summary()["scores"] != before["scores"]
    engine.handle(Action("undo", t + 30_000))
    after = engine.summary()
    assert after["scores"] == before["scores"] and after["results"] == before["results"]
    assert after["phase"] == "answering" and after["answering"] == 2
    assert len(engine._undo) <= UNDO_DEPTH  # the stack stays bounded however long the game
    with pytest.raises(RuleError):  # the earlier questions' judgements are final (docs/quiz.md)
        engine.handle(Action("undo", t + 50_000))
