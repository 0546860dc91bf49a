"""Two things the exploratory testers found in the quiz (docs/quiz.md):

- On the final results the last question's answer can still be revealed (the host's `n` or `v`,
  a clicker's next), and nothing else of the game opens again: no judgement, no scoring. Once it
  is out (or there is none), a step forward closes the results: the deciding process ends the game
  as Enter does (it said "That key does nothing right now", and the results stayed 10 s).
- After a tie's fair draw (`p`), the other tied player is next in line, as its tile says: the view
  puts them first in the queue, in 2nd place, and says the turn was drawn (``tie_pick``), so the
  screen says so instead of "0.000 ms ahead"."""

from __future__ import annotations

from controller import protocol as p
from controller.box.press import Press
from controller.box.process import DecidingGame
from controller.box.runtime import Box
from games.base import EventKind
from games.quiz import PACKS_DIR
from games.quiz.strip import worded_strip
from games.registry import get

SPEC = get("quiz")
PACK = str(PACKS_DIR / "en-general.csv")


def finished_quiz(questions: int = 2) -> Box:
    """A quiz of ``questions`` questions, each won right by station 1: it ended on the last judgement."""
    box = Box(SPEC, SPEC.settings(3, 1, pack=PACK, answer_time_us=10_000_000, questions=questions))
    t = 1_000_000
    for _question in range(questions):
        box.host_button("arm", t)
        box.apply_press(Press(1, "bell", t + 500_000))
        box.step(t + 600_000)
        box.host("correct", t + 700_000)
        if not box.engine.finished:
            box.host_button("next", t + 800_000)  # the answer
            box.host_button("next", t + 900_000)  # the next question
        t += 1_000_000
    assert box.engine.finished
    return box


def test_the_last_answer_is_revealed_on_the_final_results_and_scoring_stays_closed() -> None:
    for key in ("next", "reveal", "step"):  # the host's n, v, a clicker's next
        box = finished_quiz()
        view = box.engine.public_view()
        assert view["answer"] is None and box.engine.legal_actions(None) == ["reveal", "undo"]
        events = box.host_button(key, 9_000_000)
        assert [e.kind for e in events] == ["reveal"], (key, events)
        view = box.engine.public_view()
        assert view["finished"] and view["answer"] and view["scores"] == [0, 2, 0], view
        assert box.engine.legal_actions(None) == ["undo"]  # the last judgement may still be taken back; nothing else
        for kind in ("correct", "wrong", "arm", "next", "reveal"):
            assert [e.kind for e in box.host(kind, 9_500_000)] == [EventKind.REJECTED], kind
        assert box.engine.public_view()["scores"] == [0, 2, 0] and box.engine.outcome() is not None


def test_a_step_forward_on_the_final_results_shows_the_answer_then_closes_them() -> None:
    for key in ("step", "next"):  # a clicker's next, the host's n
        box = finished_quiz()
        game = DecidingGame(box, None, None, until_us=None, results_s=10, screen_args=[])
        assert not game.results_shown(True, 9_000_000)
        assert [e.kind for e in game.host_key(key, 9_100_000)] == ["reveal"] and game.stop_reason is None
        assert not game.results_shown(True, 19_000_000)  # the reveal shows the results anew: 10 s from it
        assert game.host_key(key, 19_100_000) == [] and game.stop_reason == p.EndReason.FINISHED, key
        assert box.engine.public_view()["scores"] == [0, 2, 0]


def test_arm_on_the_final_results_closes_them_and_undo_still_goes_to_the_game() -> None:
    box = finished_quiz()
    game = DecidingGame(box, None, None, until_us=None, results_s=10, screen_args=[])
    assert [e.kind for e in game.host_key("undo", 9_000_000)] == ["undo"]  # a key the game takes: to the game
    assert not box.engine.finished and game.stop_reason is None
    box.host("correct", 9_500_000)
    assert game.host_key("arm", 9_600_000) == [] and game.stop_reason == p.EndReason.FINISHED  # space: back


def test_a_key_the_game_refuses_on_the_final_results_still_says_so() -> None:
    box = finished_quiz()
    game = DecidingGame(box, None, None, until_us=None, results_s=10, screen_args=[])
    assert [e.kind for e in game.host_key("wrong", 9_000_000)] == [EventKind.REJECTED]
    assert game.stop_reason is None


def tied(pick: dict[str, int] | None = None) -> Box:
    """Stations 0 and 1 pressed at the same microsecond, station 2 a second later; the host drew (or picked)."""
    box = Box(SPEC, SPEC.settings(3, 1, pack=PACK, answer_time_us=10_000_000))
    box.host_button("arm", 1_000_000)
    box.apply_press(Press(0, "bell", 2_000_000))
    box.apply_press(Press(1, "bell", 2_000_000))
    box.apply_press(Press(2, "bell", 2_300_000))
    box.step(2_400_000)
    assert box.engine.public_view()["phase"] == "tie"
    box.host("pick", 2_500_000, **(pick or {}))
    return box


def test_after_a_tie_s_draw_the_other_tied_player_is_next_in_line_and_the_turn_says_drawn() -> None:
    box = tied()
    view = box.engine.public_view()
    drawn = view["answering"]
    other = 1 - drawn
    assert view["phase"] == "answering" and view["tie_pick"] == "drawn"
    assert view["queue"] == [other, 2] and view["places"] == [2, 3], view
    labels = [c.get("label") for c in worded_strip(view, box.strip())]
    assert labels[other] == "#2" and labels[2] == "#3", labels
    box.host("wrong", 3_000_000)  # and so it is: the other tied player answers next, by the race's order
    view = box.engine.public_view()
    assert view["answering"] == other and view["tie_pick"] is None and view["queue"] == [2] and view["places"] == [2]


def test_a_player_the_host_chose_from_a_tie_is_said_chosen() -> None:
    view = tied({"player": 1}).engine.public_view()
    assert view["answering"] == 1 and view["tie_pick"] == "chosen" and view["queue"] == [0, 2]


def test_three_tied_share_second_place_behind_the_drawn_one() -> None:
    box = Box(SPEC, SPEC.settings(4, 1, pack=PACK, answer_time_us=10_000_000))
    box.host_button("arm", 1_000_000)
    for station in (0, 1, 2):
        box.apply_press(Press(station, "bell", 2_000_000))
    box.apply_press(Press(3, "bell", 2_300_000))
    box.step(2_400_000)
    box.host("pick", 2_500_000)
    view = box.engine.public_view()
    assert sorted(view["queue"][:2]) == sorted({0, 1, 2} - {view["answering"]}) and view["places"] == [2, 2, 4]
    box.host("wrong", 3_000_000)  # the two left still tie: drawn again
    assert box.engine.public_view()["phase"] == "tie"


def delayed(box: Box) -> DecidingGame:
    """``box``'s deciding game with a source of stated delay: a host key waits for the horizon."""
    box.follow_source("board", watermarks=False)
    box.latency_guard_us = 5_000
    return DecidingGame(box, None, None, until_us=None, results_s=10, screen_args=[])


def decided(game: DecidingGame, t_us: int) -> list[str]:
    """One step of the deciding thread at ``t_us``: the box's step, then its events handed on (``publish``)."""
    events = game.box.step(t_us)
    game.publish(events, t_us)
    return [str(e.kind) for e in events]


def test_a_held_key_the_game_refuses_on_the_final_results_does_not_time_them_anew() -> None:
    game = delayed(finished_quiz())
    t = 20_000_000
    assert not game.results_shown(True, t)
    assert game.host_key("wrong", t + 9_000_000) == []  # held for the horizon
    assert not game.results_shown(True, t + 9_050_000)  # (the process looks every 0.1 s)
    assert decided(game, t + 9_100_000) == [EventKind.REJECTED]  # ... and refused
    assert not game.results_shown(True, t + 9_150_000)
    assert game.results_shown(True, t + 10_000_001)  # 10 s from the end still, not from the key


def test_a_held_reveal_on_the_final_results_times_them_anew_once_delivered() -> None:
    game = delayed(finished_quiz())
    t = 20_000_000
    assert not game.results_shown(True, t)
    assert game.host_key("next", t + 9_000_000) == []  # held for the horizon
    assert not game.results_shown(True, t + 9_050_000)
    assert decided(game, t + 9_100_000) == ["reveal"]
    assert not game.results_shown(True, t + 9_100_000)
    assert not game.results_shown(True, t + 19_100_000)  # the answer is read: 10 s from its reveal
    assert game.results_shown(True, t + 19_100_001)


def test_a_quick_double_next_on_the_final_results_reveals_then_leaves() -> None:
    """A clicker's double press: the first reveals the answer (held for the horizon), the second
    closes the results as Enter does, never "That key does nothing right now"."""
    game = delayed(finished_quiz())
    assert game.host_key("next", 30_000_000) == [] and game.stop_reason is None
    assert game.host_key("next", 30_001_000) == [] and game.stop_reason == p.EndReason.FINISHED
    assert [str(e.kind) for e in game.box.close_out(30_002_000)] == ["reveal"]  # the first still delivered
