"""Quiz rules as a host and players would notice them."""

from __future__ import annotations

import pytest

from games import registry
from games.base import Action, RuleError


def quiz(players: int = 4, **options):
    spec = registry.get("quiz")
    return spec.new_engine(spec.settings(players, **options))


def buzz(engine, station, t):
    return engine.handle(Action("buzz", t, station))


def host(engine, kind, t, **args):
    return engine.handle(Action(kind, t, None, args))


def test_correct_answer_scores_and_ends_the_round():
    e = quiz()
    host(e, "arm", 0)
    buzz(e, 2, 1000)
    events = buzz(e, 1, 1500) + e.tick(10_000)  # announced once no later press can tie: before 1's press
    winners = [ev for ev in events if ev.kind == "winner"]
    assert len(winners) == 1 and winners[0].player == 2
    host(e, "correct", 20_000)
    view = e.public_view()
    assert view["scores"] == [0, 0, 1, 0]
    assert view["phase"] == "round_over"


def test_wrong_answer_passes_to_next_in_line_then_rearms():
    e = quiz(points_wrong=1)
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    buzz(e, 3, 2000)
    e.tick(10_000)
    host(e, "wrong", 20_000)
    view = e.public_view()
    assert view["answering"] == 3 and view["scores"][0] == -1
    assert view["status"][0] == "out"
    host(e, "wrong", 30_000)
    assert e.public_view()["phase"] == "armed"  # nobody left in line: the rest may buzz again
    buzz(e, 0, 40_000)  # out for this question
    buzz(e, 1, 41_000)
    e.tick(50_000)
    assert e.public_view()["answering"] == 1


def test_after_wrong_rearm_setting_reopens_for_everyone_else():
    e = quiz(after_wrong="rearm")
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    buzz(e, 1, 2000)
    e.tick(10_000)
    host(e, "wrong", 20_000)
    assert e.public_view()["phase"] == "armed"
    assert e.public_view()["answering"] is None


def test_undo_restores_score_and_turn():
    e = quiz()
    host(e, "arm", 0)
    buzz(e, 1, 1000)
    buzz(e, 2, 1100)
    e.tick(10_000)
    host(e, "wrong", 20_000)
    assert e.public_view()["answering"] == 2
    host(e, "undo", 21_000)
    view = e.public_view()
    assert view["answering"] == 1 and view["status"][1] == "first"
    with pytest.raises(RuleError):
        host(e, "undo", 22_000)  # nothing more to undo


def test_team_mode_scores_the_team_and_a_team_answers_once():
    e = quiz(4, teams=[0, 0, 1, 1])
    host(e, "arm", 0)
    buzz(e, 1, 1000)
    buzz(e, 0, 1200)  # team-mate: not queued
    buzz(e, 3, 1300)
    e.tick(10_000)
    assert e.summary()["queue"] == [3]
    host(e, "correct", 20_000)
    assert e.public_view()["scores"] == [1, 1, 0, 0]
    assert e.public_view()["team_scores"] == [1, 0]


def test_answer_timer_warns_then_counts_as_wrong():
    e = quiz(answer_time_us=5_000_000)
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    e.tick(10_000)
    kinds = []
    for t in range(100_000, 6_000_000, 100_000):
        kinds += [ev.kind for ev in e.tick(t)]
    assert kinds.count("timer_warning") == 3
    assert "time_up" in kinds
    assert e.public_view()["status"][0] == "out"


def test_host_cannot_judge_before_anyone_buzzed():
    e = quiz()
    host(e, "arm", 0)
    with pytest.raises(RuleError, match="cannot correct"):
        host(e, "correct", 1000)


def test_tie_is_shown_and_the_host_picks():
    e = quiz()
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    buzz(e, 2, 1000)
    e.tick(10_000)
    assert e.public_view()["phase"] == "tie"
    host(e, "pick", 11_000, player=2)
    assert e.public_view()["answering"] == 2


def test_tie_window_widens_what_counts_as_a_tie():
    e = quiz(tie_window_us=500)
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    buzz(e, 1, 1400)
    e.tick(10_000)
    assert e.summary()["ties"] == [[0, 1]]


def test_coarse_precision_source_cannot_claim_a_fine_order():
    e = quiz()
    host(e, "arm", 0)
    e.handle(Action("buzz", 10_000, 0, precision_us=1000))  # e.g. a keyboard or RPi.GPIO
    e.handle(Action("buzz", 10_400, 1, precision_us=1))
    e.tick(20_000)
    assert e.summary()["ties"] == [[0, 1]]


def test_questions_option_ends_the_game():
    e = quiz(questions=1)
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    e.tick(10_000)
    events = host(e, "correct", 20_000)
    assert e.finished and "game_over" in [ev.kind for ev in events]


def test_a_wrong_answer_stays_on_record_margins_from_the_very_first_press():
    e = quiz(3)
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    buzz(e, 1, 1500)
    buzz(e, 2, 1800)
    e.tick(10_000)
    host(e, "wrong", 20_000)
    out = e.summary()
    assert out["winner"] == 0 and out["answering"] == 1
    assert out["queue"] == [1, 2] and out["margins_us"] == [500, 800]
    assert e.public_view()["queue"] == [2]  # on screen: who is still in line


def test_undo_of_a_judgement_gives_back_the_answer_time_left():
    e = quiz(2, answer_time_us=5_000_000)
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    e.tick(3_000)  # decided 1 µs after the press (nothing later can tie): 5 s to answer
    host(e, "wrong", 2_001_001)  # judged with 3 s left
    events = host(e, "undo", 7_000_000)  # long after the original deadline
    assert [ev.kind for ev in events] == ["undo"]
    view = e.public_view()
    assert view["answering"] == 0 and view["answer_left_us"] == 3_000_000


def test_teams_must_name_a_team_for_every_station():
    spec = registry.get("quiz")
    for bad in ([0, -1], [0], 5, [0, "a"]):
        with pytest.raises(ValueError, match="one team number"):
            spec.new_engine(spec.settings(2, teams=bad))


def test_rearming_clears_the_answer_timer_from_the_screen():
    e = quiz(2, answer_time_us=5_000_000, after_wrong="rearm")
    host(e, "arm", 0)
    buzz(e, 0, 1000)
    e.tick(10_000)
    host(e, "wrong", 20_000)
    assert e.public_view()["phase"] == "armed" and e.public_view()["answer_left_us"] is None


def test_a_tie_can_be_broken_by_a_fair_seeded_draw():
    picks = set()
    for seed in range(12):
        e = registry.get("quiz").new_engine(registry.get("quiz").settings(4, seed))
        host(e, "arm", 0)
        buzz(e, 1, 1000)
        buzz(e, 3, 1000)
        e.tick(10_000)
        host(e, "pick", 11_000)
        picks.add(e.public_view()["answering"])
    assert picks == {1, 3}  # either tied station can get it, nobody else
