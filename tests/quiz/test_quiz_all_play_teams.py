"""All-play with teams: a team scores the mean of its members' points, so
uneven teams (normal with the phone sign-up) compete on how well they answer,
not on how many they are; ``team_points=sum`` adds them, and the round card
says which. Each member is credited its share, so the results add up."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from controller.box.results.quiz import QuizNight
from games import registry
from games.base import Action, GameEvent
from games.i18n import set_language
from games.quiz import PACKS_DIR
from games.quiz.allplay_scoring import team_credits
from games.quiz.scene import round_rules
from tests.quiz.test_quiz_rounds import assert_drawn_whole_screen

PACK = str(PACKS_DIR / "en-general.csv")
SPEC = registry.get("quiz")
T = 20_000_000
#: the all-play round first (its card opens the night), then a classic one
ROUNDS = [{"title": "Everyone", "rules": "all-play", "questions": 2, "answer_time_us": T}, {"questions": 1}]
THREE_AND_TWO = [0, 0, 0, 1, 1]


def night(**options: Any) -> Any:  # noqa: ANN401 - the quiz engine
    return SPEC.new_engine(SPEC.settings(5, 1, pack=PACK, rounds=ROUNDS, teams=THREE_AND_TWO, **options))


def everyone_right_after_2_s(engine: Any) -> list[GameEvent]:
    """Everyone picks the right choice (Mars, B) 2 s after the opening: 950 each."""
    events = engine.handle(Action("arm", 1_000_000))
    for station in range(5):
        action = SPEC.buttons.action(station, "b", "compact", 3_000_000, 1)
        assert action is not None
        events += engine.handle(action)
    return events


def test_a_team_of_three_and_a_team_of_two_giving_the_same_answers_score_the_same() -> None:
    engine = night()
    everyone_right_after_2_s(engine)
    assert engine.public_view()["team_scores"] == [950, 950]  # the mean, not 2,850 against 1,900
    summed = night(team_points="sum")
    everyone_right_after_2_s(summed)
    assert summed.public_view()["team_scores"] == [2850, 1900]


def test_a_member_who_does_not_answer_counts_as_nothing_in_the_mean_and_the_results_add_up() -> None:
    engine = night()
    events = engine.handle(Action("arm", 1_000_000))
    for station, t in ((0, 1_200_000), (1, 11_000_000), (3, 3_000_000)):  # 2 and 4 do not answer
        action = SPEC.buttons.action(station, "b", "compact", t, 1)
        assert action is not None
        events += engine.handle(action)
    events += engine.tick(1_000_000 + T)
    # team 0: (1000 + 750 + 0) / 3 = 583.3; team 1: (950 + 0) / 2 = 475
    assert engine.public_view()["team_scores"] == [583, 475]
    reveal = next(e for e in events if e.kind == "all_play_reveal")
    by_player = {row["player"]: row for row in reveal.data["answers"]}
    assert [by_player[s]["points"] for s in (0, 1, 3)] == [1000, 750, 950]  # each player's own, as shown
    assert sum(by_player[s]["credit"] for s in (0, 1)) == 583 and by_player[3]["credit"] == 475
    record = QuizNight(5, THREE_AND_TWO)
    record.take(events)
    assert record.finish()[-1].scores == engine.public_view()["scores"]  # results add the credits up


@pytest.mark.parametrize(("scored", "teams"), [
    ({0: 1000, 1: 1, 2: 2}, [0, 0, 0]), ({0: 7, 1: 7, 3: 1}, [0, 0, 1, 1]), ({0: 999, 1: 998}, [0, 0, 0, 1])])
def test_the_members_credits_add_up_to_the_team_s_mean_rounded_half_up(scored: dict[int, int], teams: list[int]) -> None:
    credits = team_credits(scored, teams, mean=True)
    for team in set(teams):
        members = [s for s, t in enumerate(teams) if t == team]
        total = sum(scored.get(s, 0) for s in members)
        assert sum(credits[s] for s in members) == (2 * total + len(members)) // (2 * len(members))
    assert all(credits[s] == 0 for s in range(len(teams)) if s not in scored)  # no answer, no credit


def test_a_journal_of_rules_2_replays_all_play_as_it_was_played_summed_without_the_half_second() -> None:
    engine = night(rules_version=2)
    everyone_right_after_2_s(engine)
    assert engine.public_view()["team_scores"] == [2850, 1900]
    solo = SPEC.new_engine(SPEC.settings(3, 1, pack=PACK, rounds=ROUNDS, rules_version=2))
    solo.handle(Action("arm", 1_000_000))
    action = SPEC.buttons.action(0, "b", "compact", 1_400_000, 1)
    assert action is not None
    solo.handle(action)
    solo.tick(1_000_000 + T)
    assert solo.public_view()["scores"][0] == 990  # 0.4 s in: the formula, as rules 2 scored it


@pytest.mark.parametrize(("options", "said"), [({}, "a team scores its members' mean"),
                                               ({"team_points": "sum"}, "a team scores its members' sum")])
def test_the_round_card_says_how_a_team_s_points_are_made(options: dict[str, Any], said: str) -> None:
    view = night(**options).public_view()
    assert view["round_intro"] and said in round_rules(view["round"])
    solo = SPEC.new_engine(SPEC.settings(3, 1, pack=PACK, rounds=ROUNDS)).public_view()
    assert not any("a team" in line for line in round_rules(solo["round"]))  # no teams, nothing to say


def test_team_points_other_than_mean_or_sum_is_one_line() -> None:
    from games.base import OptionError

    with pytest.raises(OptionError) as refused:
        night(team_points="median")
    assert "team_points must be 'mean'" in str(refused.value) and "\n" not in str(refused.value)


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_team_round_card_is_drawn(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    set_language(lang)
    try:
        view = night().public_view()
        assert_drawn_whole_screen(view, 5, size, tmp_path / f"allplay-team-card-{lang}-{size[0]}.png")
    finally:
        set_language("en")
