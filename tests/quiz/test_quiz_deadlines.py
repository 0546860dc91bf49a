"""The quiz fires each deadline at its own time (``fire_due``): one late tick
gives the same events, with the same stamps, as a tick every millisecond."""

from __future__ import annotations

from games import registry
from games.base import Action
from tests.deadlines import late_and_small_ticks

SPEC = registry.get("quiz")


def run(step_us: int) -> list[tuple[str, int, int | None]]:
    engine = SPEC.new_engine(SPEC.settings(3, 1, answer_time_us=5_000_000, buzz_window_us=4_000_000))
    events = engine.handle(Action("arm", 1_000_000)) + engine.handle(Action("buzz", 1_200_000, 2))
    t = 1_200_000
    while t < 7_000_000:  # the press decided, three warnings, time up, re-armed, the buzz window closes
        t = min(t + step_us, 7_000_000)
        events += engine.tick(t)
    events += engine.tick(12_000_000)
    return [(e.kind, e.t_us, e.player) for e in events]


def test_one_late_tick_gives_what_many_small_ones_give() -> None:
    fine = run(1_000)
    kinds = [k for k, _t, _p in fine]
    assert kinds.count("timer_warning") == 3 and "time_up" in kinds and kinds[-1] == "round_over"
    assert run(10_000_000) == fine
    assert run(700_000) == fine


def test_a_bot_quiz_replayed_with_one_late_tick_is_the_one_ticked_often() -> None:
    late, small = late_and_small_ticks("quiz", seed=7)
    assert len(late) > 20 and late == small


def test_skipping_the_last_question_ends_its_buzz_window_and_its_all_play_timer_with_the_game() -> None:
    """The game is over: the skipped question never ends a second time, nor scores an answer after the end."""
    from pathlib import Path

    armed = SPEC.new_engine(SPEC.settings(3, 1, questions=1, buzz_window_us=5_000_000))
    armed.handle(Action("arm", 0))
    assert [e.kind for e in armed.handle(Action("next", 1_000_000))] == ["next", "game_over", "podium"]
    assert armed.tick(10_000_000) == []
    pack = str(Path(__file__).parent / "packs" / "three-rounds.csv")
    everyone = SPEC.new_engine(SPEC.settings(3, 1, pack=pack, rules="all-play"))
    everyone.handle(Action("arm", 0))
    everyone.handle(Action("next", 1_000_000))
    assert everyone.handle(Action("buzz", 2_000_000, 0, {"choice": 1})) == []
    assert everyone.tick(30_000_000) == []
    for engine in (armed, everyone):
        assert engine.finished and [r["result"] for r in engine.round.results] == ["skipped"]
        assert engine.public_view()["scores"] == [0, 0, 0]
