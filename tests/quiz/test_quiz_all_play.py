"""The all-play round: everyone answers multiple choice on their station's
buttons (or a phone), the first pick is locked in, a right answer scores by
its speed from the question's opening (Kahoot: P · (1 − t/T / 2)), the
reveal shows how the room answered, the results name each player's pick."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.apps.results import all_play_lines
from controller.box.results.quiz import QuizNight
from controller.box.results.quiz_record import Results
from games import registry
from games.base import Action, GameEvent, OptionError, RuleError
from games.i18n import _, set_language
from games.quiz import PACKS_DIR
from games.quiz.allplay_scoring import speed_points
from tests.quiz.test_quiz_rounds import assert_drawn_whole_screen

PACK = str(PACKS_DIR / "en-general.csv")
SPEC = registry.get("quiz")
T = 10_000_000  # the round's answer time
ALL_PLAY = [{"rules": "all-play", "questions": 2, "answer_time_us": T}]


def new_quiz(players: int = 3, rounds: list | None = None):
    return SPEC.new_engine(SPEC.settings(players, 1, pack=PACK, rounds=rounds or ALL_PLAY))


def press(engine, station: int, button: str, t_us: int, precision_us: int = 1) -> list[GameEvent]:
    action = SPEC.buttons.action(station, button, "compact", t_us, precision_us)
    return [] if action is None else engine.handle(action)


def test_speed_points_follow_the_kahoot_formula() -> None:
    assert speed_points(1000, 0, T) == 1000  # at the opening: everything
    assert speed_points(1000, T, T) == 500  # at the last moment: half
    assert speed_points(1000, T // 2, T) == 750
    assert speed_points(1000, 2 * T, T) == 500  # never under half
    assert speed_points(1000, 1_000_000, 20_000_000) == 975
    assert speed_points(1000, 500_000, 20_000_000) == 1000  # the first half second: all of it, as Kahoot
    assert speed_points(1000, 500_001, 20_000_000) == 987  # then the formula: 987.49...
    assert speed_points(1, 5_000_000, T) == 1  # 0.75 rounds to 1
    assert speed_points(3, T, T) == 2  # 1.5 rounds half up


def test_the_first_pick_is_locked_in_and_everyone_in_ends_the_question() -> None:
    engine = new_quiz()
    engine.handle(Action("arm", 1_000_000))
    assert engine.public_view()["phase"] == "all_play"
    press(engine, 0, "b", 1_500_000)  # Mars, right, 0.5 s in: all the points (the first half second)
    press(engine, 0, "a", 1_600_000)  # changed its mind: too late, locked in
    press(engine, 1, "a", 3_000_000)  # wrong
    assert press(engine, 2, "bell", 4_000_000) == []  # the bell picks nothing
    events = press(engine, 2, "b", 6_000_000)  # right, 5 s in: the last one in ends it
    reveal = next(e for e in events if e.kind == "all_play_reveal")
    assert reveal.data["right"] == 1 and reveal.data["distribution"] == [1, 2, 0, 0]
    by_player = {row["player"]: row for row in reveal.data["answers"]}
    assert by_player[0]["choice"] == 1 and by_player[0]["reaction_us"] == 500_000
    assert [by_player[s]["points"] for s in range(3)] == [1000, 0, 750]
    view = engine.public_view()
    assert view["phase"] == "round_over" and view["scores"] == [1000, 0, 750]
    assert view["answer"] == "Mars" and view["all_play"]["points"] == [1000, 0, 750]
    assert view["correct"] == [1, 0, 1] and view["wrong"] == [0, 1, 0]


@pytest.mark.parametrize("rules_version", [4, 3])
def test_the_host_s_reveal_closes_an_open_question_before_the_answer_is_out(rules_version: int) -> None:
    """Two of three have picked; the host reveals (the host remote's next, a clicker's step): the
    question closes as its timer's end would, scored as it stood, and the third's pick after it
    counts nothing. (Rules 3, kept for their journals, showed the answer with the question still
    open: the third picked Mars after seeing it and scored.)"""
    engine = SPEC.new_engine(SPEC.settings(3, 1, pack=PACK, rounds=ALL_PLAY, rules_version=rules_version))
    engine.handle(Action("arm", 1_000_000))
    press(engine, 0, "b", 1_500_000)  # Mars, right
    press(engine, 1, "a", 3_000_000)  # wrong
    assert "reveal" in engine.legal_actions(None)
    events = engine.handle(Action("reveal", 4_000_000))
    late = press(engine, 2, "b", 5_000_000)  # right, after the answer was shown
    view = engine.public_view()
    assert view["answer"] == "Mars"
    if rules_version == 3:
        assert any(e.kind == "locked_in" for e in late) and view["scores"][2] > 0
        return
    assert [e.kind for e in events][0] == "all_play_reveal" and late == []
    assert view["phase"] == "round_over" and view["scores"][2] == 0 and view["scores"][0] > 0
    with pytest.raises(RuleError):
        engine.handle(Action("answer", 5_100_000, 2, {"choice": 1}))  # a phone's pick: refused


def test_the_timer_ends_the_question_at_its_own_time_however_late_the_tick() -> None:
    def played(ticks: list[int]) -> list[tuple[str, int]]:
        engine = new_quiz()
        engine.handle(Action("arm", 1_000_000))
        press(engine, 1, "c", 2_000_000)  # a wrong answer; the others never answer
        events: list[GameEvent] = []
        for t in ticks:
            events += engine.tick(t)
        assert engine.public_view()["scores"] == [0, 0, 0]
        return [(e.kind, e.t_us) for e in events]

    one_late_tick = played([30_000_000])
    many = played(list(range(2_100_000, 30_000_000, 100_000)))
    assert one_late_tick == many
    assert ("time_up", 11_000_000) in one_late_tick and ("all_play_reveal", 11_000_000) in one_late_tick
    assert [t for kind, t in one_late_tick if kind == "timer_warning"] == [8_000_000, 9_000_000, 10_000_000]


def test_a_press_stamped_after_the_time_is_up_counts_nothing() -> None:
    engine = new_quiz()
    engine.handle(Action("arm", 1_000_000))
    events = press(engine, 0, "b", 11_000_001)
    assert ("time_up", 11_000_000) in [(e.kind, e.t_us) for e in events]  # the question closed first
    assert "locked_in" not in [e.kind for e in events]
    assert engine.public_view()["all_play"]["answers"] == [] and engine.public_view()["scores"] == [0, 0, 0]


def test_the_screen_s_view_says_who_locked_in_never_what() -> None:
    seen = []
    for choice in ("a", "b", "c", "d"):
        engine = new_quiz()
        engine.handle(Action("arm", 1_000_000))
        press(engine, 0, choice, 2_000_000)
        view = engine.public_view()
        assert view["all_play"]["locked"] == [True, False, False] and view["answer"] is None
        seen.append(json.dumps(view, sort_keys=True))
    assert len(set(seen)) == 1  # nothing in it depends on the pick


def test_a_phone_answers_with_the_moves_it_is_offered_and_refusals_are_message_ids() -> None:
    engine = new_quiz()
    assert engine.legal_moves(0) == []  # nothing open yet
    with pytest.raises(RuleError) as refused:
        engine.handle(Action("answer", 500_000, 0, {"choice": 0}))
    assert refused.value.reason.startswith("no all-play question is open")
    engine.handle(Action("arm", 1_000_000))
    offered = engine.legal_moves(0)
    assert [(m["kind"], m["args"]) for m in offered] == [("answer", {"choice": k}) for k in range(4)]
    assert offered[1]["preview"] == {"B": "Mars"}  # the phone's button says the choice
    with pytest.raises(RuleError) as refused:
        engine.handle(Action("answer", 1_100_000, 0, {"choice": 7}))
    assert refused.value.reason == "choose one of the question's {count} choices"
    engine.handle(Action("answer", 1_200_000, 0, {"choice": 1}, 50_000))  # a phone's coarse stamp
    assert engine.legal_moves(0) == []
    with pytest.raises(RuleError) as refused:
        engine.handle(Action("answer", 1_300_000, 0, {"choice": 2}))
    assert refused.value.reason == "your answer is locked in already"
    press(engine, 1, "a", 1_400_000)
    events = press(engine, 2, "b", 1_500_000)
    row = next(e for e in events if e.kind == "all_play_reveal").data["answers"][0]
    assert row["player"] == 0 and row["precision_us"] == 50_000 and row["reaction_us"] == 200_000


def test_only_a_quiz_with_an_all_play_round_takes_phone_seats() -> None:
    from controller.box.views import has_seats, host_cue

    buzzers_only = SPEC.new_engine(SPEC.settings(3, 1, pack=PACK))
    assert not has_seats(buzzers_only)  # no join code on the screen, as before
    with_all_play = new_quiz()
    assert has_seats(with_all_play)
    cue = host_cue(with_all_play, True)  # the host still reads the answer ahead
    assert cue is not None and cue["question"]["answer"] == "Mars"


def test_two_button_stations_get_two_choice_questions() -> None:
    settings = SPEC.settings(3, 1, pack=PACK, rounds=[{"rules": "all-play", "choices": 2}])
    asked = settings.options["pack_questions"]
    assert asked and all(len(q["choices"]) == 2 for q in asked)
    engine = SPEC.new_engine(settings)
    engine.handle(Action("arm", 1_000_000))
    assert press(engine, 0, "c", 1_500_000) == []  # no third choice: nothing locked
    assert engine.public_view()["all_play"]["locked"] == [False, False, False]
    with pytest.raises(ValueError, match="choices .* must be 2 to 6"):
        SPEC.new_engine(SPEC.settings(3, 1, pack=PACK, rounds=[{"rules": "all-play", "choices": 9}]))


def test_an_open_question_cannot_be_asked_to_all() -> None:
    with pytest.raises(OptionError, match="choose a pack that has some"):  # the host's own questions: no choices
        SPEC.settings(3, 1, rules="all-play", questions=2)
    open_one = [{"text": "Who wrote Hamlet?", "answer": "Shakespeare"}]
    engine = SPEC.new_engine(SPEC.settings(3, 1, rules="all-play", pack_questions=open_one))
    with pytest.raises(RuleError) as refused:
        engine.handle(Action("arm", 1_000_000))
    assert "needs choices" in refused.value.reason
    assert engine.public_view()["phase"] == "idle"


def test_a_pack_without_multiple_choice_is_refused_for_an_all_play_quiz(tmp_path: Path) -> None:
    pack = tmp_path / "open.csv"
    pack.write_text("question,answer\nWho wrote Hamlet?,Shakespeare\n", encoding="utf-8")
    with pytest.raises(OptionError, match="no multiple-choice question"):
        SPEC.settings(3, 1, rules="all-play", pack=str(pack))


def test_a_buzzer_round_then_an_all_play_round() -> None:
    engine = new_quiz(3, [{"questions": 1}, {"rules": "all-play", "questions": 1, "answer_time_us": T}])
    engine.handle(Action("arm", 1_000_000))
    press(engine, 2, "a", 1_100_000)  # a buzzer round: any button buzzes
    engine.tick(1_200_000)
    assert engine.public_view()["answering"] == 2
    engine.handle(Action("correct", 1_500_000))
    engine.handle(Action("next", 2_000_000))
    engine.handle(Action("arm", 3_000_000))
    assert engine.public_view()["phase"] == "all_play"


def test_results_give_each_player_s_pick_time_from_the_opening_and_points() -> None:
    engine = new_quiz()
    events = engine.handle(Action("arm", 1_000_000))
    events += press(engine, 0, "b", 1_500_000)
    events += press(engine, 1, "a", 3_000_000)
    events += engine.tick(20_000_000)
    night = QuizNight(3, None)
    night.take(events)
    q = night.finish()[0]
    assert [(b.station, b.t_us - (b.armed_us or 0)) for b in q.buzzes] == [(0, 500_000), (1, 2_000_000)]
    assert [(j.station, j.verdict, j.points) for j in q.judgements] == [(0, "correct", 1000), (1, "wrong", 0)]
    assert q.scores == [1000, 0, 0]
    record = Results("j", ["Ann", "Bob", "Cy"], [0, 1, 2], 1, [q], q.scores, False, {}, [])
    lines = all_play_lines(record, q)
    assert lines[0].strip() == "answers: A 1, B 1, C 0, D 0"
    assert "Ann: B, correct, 500.000 ms ± 0.001 ms, +1000" in lines[1]


@pytest.mark.parametrize("lang", ["en", "cs", "pl"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_answering_and_reveal_screens_are_drawn_whole(tmp_path: Path, lang: str, size: tuple[int, int],
                                                         drawing_in_a_language: None) -> None:
    """Eight stations of the longest names a profile allows, some right, some
    wrong, some silent: every text whole, none below the minimum size, none over another."""
    set_language(lang)
    engine = new_quiz(8)
    engine.handle(Action("arm", 1_000_000))
    right = engine.public_view()["all_play"]["choices"]
    press(engine, 0, "b", 1_500_000)
    press(engine, 3, "a", 2_500_000)
    press(engine, 5, "b", 7_250_000)
    answering = assert_drawn_whole_screen(engine.public_view(), 8, size, tmp_path / f"allplay-answering-{lang}-{size[0]}.png")
    assert not any(" · " in text and text[:1] in "ABCD" for _a, text, *_r in answering)  # no pick shown while open
    engine.tick(20_000_000)
    view = engine.public_view()
    assert right and view["all_play"]["right"] is not None
    reveal = [text for _a, text, *_r in
              assert_drawn_whole_screen(view, 8, size, tmp_path / f"allplay-reveal-{lang}-{size[0]}.png")]
    assert sum(text.startswith("+") for text in reveal) == 2  # every right answer's points
    assert _("wrong: {choice}").format(choice="A") in reveal  # and the wrong pick said so
    assert any(text.startswith("B: ") for text in reveal)  # the bars name the choices
    assert reveal.count(_("no answer")) == 5


def test_a_station_s_lamp_says_its_answer_is_in_and_then_whether_it_was_right() -> None:
    engine = new_quiz()
    engine.handle(Action("arm", 1_000_000))
    press(engine, 0, "b", 1_500_000)
    assert engine.public_view()["status"] == ["answered", "idle", "idle"]
    assert SPEC.status_light("answered") == "on" and SPEC.status_light("idle") == "off"
    press(engine, 1, "a", 2_000_000)
    engine.tick(20_000_000)
    assert engine.public_view()["status"] == ["right", "missed", "idle"]
    assert [SPEC.status_light(s) for s in ("right", "missed")] == ["on", "off"]


def test_random_presses_answers_and_host_keys_never_break_an_all_play_round() -> None:
    """Seeded fuzz: any button, any phone answer (bad ones too), any host key at
    any time; only RuleErrors refuse, and the scores are the reveals' points."""
    import random

    rng = random.Random(34)
    scored = 0
    for _game in range(30):
        engine = new_quiz(4, [{"rules": "all-play", "answer_time_us": rng.choice([1_000_000, T])}])
        t, revealed = 0, 0
        for _step in range(200):
            t += rng.randint(0, 400_000)
            pick = rng.random()
            events = engine.tick(t)  # the box fires what is due before it hands on an action
            revealed += sum(row["points"] for e in events if e.kind == "all_play_reveal" for row in e.data["answers"])
            try:
                if pick < 0.5:
                    events = press(engine, rng.randrange(4), rng.choice(["bell", "a", "b", "c", "d", "e", "f"]), t)
                elif pick < 0.7:
                    args = {"choice": rng.choice([0, 1, 3, 5, -1, "b", None, True])}
                    events = engine.handle(Action("answer", t, rng.randrange(4), args))
                elif pick < 0.9:
                    events = engine.handle(Action(rng.choice(["arm", "next", "reveal", "leaderboard", "undo", "wrong"]), t))
                else:
                    events = engine.tick(t)
            except RuleError:
                continue
            revealed += sum(row["points"] for e in events if e.kind == "all_play_reveal" for row in e.data["answers"])
            if engine.finished:
                break
        assert sum(engine.public_view()["team_scores"]) == revealed
        scored += revealed
    assert scored > 0  # the fuzz got as far as right answers
