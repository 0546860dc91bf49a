"""An all-play question offers as many choices as the stations have answer
buttons: the box reads them off the wiring profile (header-4: a and b;
header-4-full: a to d), the engine hears only the number. A question with
more choices keeps its first ones when its answer is among them, else it is
left out, and the start says so in one line."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.box import profile as profile_mod
from controller.box import session
from controller.box.runtime import Box
from controller.box.sources.gpio import GpioSource, mock_factory
from games import registry
from games.base import STATION_CHOICES, Action, OptionError
from games.quiz import PACKS_DIR

PACK = str(PACKS_DIR / "en-general.csv")
SPEC = registry.get("quiz")
ALL_PLAY = {"pack": PACK, "rules": "all-play", "answer_time_us": 10_000_000}


def drive(factory, prof: profile_mod.Profile, station: int, name: str, t_us: int) -> None:
    """One clean press of a station's input (the host is station -1) on the mock pins."""
    number = {v: k for k, v in prof.input_pins().items()}[(station, name)]
    pin = factory.pin(number)
    pin.drive(0, t_us)
    pin.drive(1, t_us + 80_000)


def test_two_button_stations_answer_a_or_b_of_the_first_question_on_the_mock_pins() -> None:
    prof = profile_mod.load("header-4")  # a and b on every station
    settings = session.game_settings(SPEC, 4, 1, ALL_PLAY, prof)
    box = Box(SPEC, settings, prof.station_kinds(), debounce=prof.debounce)
    factory = mock_factory()
    source = GpioSource(prof, factory)
    source.start(box)
    try:
        box.debouncer.start_all(source.levels(), 0)
        drive(factory, prof, -1, "arm", 1_000)
        box.step(200_000)
        view = box.engine.public_view()
        assert view["phase"] == "all_play"
        assert view["ask"]["choices"] == ["Venus", "Mars"]  # of Venus, Mars, Jupiter, Saturn: the screen shows two
        assert view["all_play"]["choices"] == 2
        assert [m["preview"] for m in box.engine.legal_moves(0)] == [{"A": "Venus"}, {"B": "Mars"}]  # phones too
        for station, button in enumerate(["b", "a", "b", "b"]):
            drive(factory, prof, station, button, 500_000 + station * 100_000)
        box.step(1_200_000)
        reveal = box.engine.public_view()["all_play"]
        assert reveal["open"] is False and reveal["distribution"] == [1, 3]
    finally:
        source.stop()


def test_four_button_stations_get_four_choices() -> None:
    prof = profile_mod.load("header-4-full")  # a, b, c, d
    settings = session.game_settings(SPEC, 4, 1, ALL_PLAY, prof)
    assert settings.options[STATION_CHOICES] == 4
    engine = SPEC.new_engine(settings)
    engine.handle(Action("arm", 1_000))
    assert engine.public_view()["ask"]["choices"] == ["Venus", "Mars", "Jupiter", "Saturn"]


def test_keyboard_stations_set_no_limit() -> None:
    assert session.wiring_options(SPEC, None, 4) == {}
    settings = session.game_settings(SPEC, 4, 1, ALL_PLAY, None)
    assert len(settings.options["pack_questions"][0]["choices"]) == 4


def test_questions_with_more_choices_than_buttons_are_said_once_at_the_start(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="games.quiz"):
        settings = session.game_settings(SPEC, 4, 1, ALL_PLAY, profile_mod.load("header-4"))
    asked = settings.options["pack_questions"]
    assert [q["text"][:20] for q in asked] == ["Which planet is know", "True or false: botan", "Which instrument has",
                                               "Which country gave t"]
    assert all(len(q["choices"]) == 2 for q in asked)  # the journal keeps what was asked
    lines = [r.getMessage() for r in caplog.records if r.name == "games.quiz"]
    assert len(lines) == 1
    assert "first 2 choices: 'Which planet is known as the Red Planet?'" in lines[0]
    assert "left out of all-play, their answer is not among the first 2: 'What is the capital city of Australia?'" in lines[0]


def test_bell_only_stations_cannot_play_an_all_play_round() -> None:
    with pytest.raises(OptionError, match="these stations have 0"):
        session.game_settings(SPEC, 7, 1, ALL_PLAY, profile_mod.load("header-7-bells"))
    session.game_settings(SPEC, 7, 1, {"pack": PACK}, profile_mod.load("header-7-bells"))  # a buzzer quiz plays


def test_the_engine_offers_no_more_choices_than_the_stations_have() -> None:
    """Questions given in the settings (a scenario, a journal) are cut at the opening."""
    question = {"text": "Red planet?", "answer": "Mars", "choices": ["Venus", "Mars", "Jupiter", "Saturn"]}
    engine = SPEC.new_engine(SPEC.settings(3, 1, rules="all-play", station_choices=2, pack_questions=[question]))
    events = engine.handle(Action("arm", 1_000))
    assert [e.data["choices"] for e in events if e.kind == "all_play_open"] == [2]
    assert engine.public_view()["ask"]["choices"] == ["Venus", "Mars"]


def test_a_whole_quiz_all_play_takes_the_quiz_s_own_choices() -> None:
    engine = SPEC.new_engine(SPEC.settings(3, 1, **ALL_PLAY, choices=2))
    events = engine.handle(Action("arm", 1_000))
    assert [e.data["choices"] for e in events if e.kind == "all_play_open"] == [2]
    assert engine.public_view()["ask"]["choices"] == ["Venus", "Mars"]
    assert engine.handle(SPEC.buttons.action(0, "c", "full", 500_000)) == []  # no third choice: nothing locked
    with pytest.raises(OptionError, match="give a value between 2 and 6"):
        SPEC.settings(3, 1, **ALL_PLAY, choices=9)


def test_the_quiz_s_choices_hold_for_each_all_play_round_without_its_own() -> None:
    rounds = [{"rules": "all-play", "questions": 2}, {"rules": "all-play", "questions": 1, "choices": 4}]
    settings = SPEC.settings(3, 1, pack=PACK, rounds=rounds, choices=2)
    asked = settings.options["pack_questions"]
    assert [(q["round"], len(q["choices"])) for q in asked] == [(1, 2), (1, 2), (2, 4)]
    engine = SPEC.new_engine(settings)
    assert engine.round_options[0].most_choices == 2 and engine.round_options[1].most_choices == 4


def board_profile(tmp_path: Path, blue: str) -> profile_mod.Profile:
    """An input board profile of two stations: Red with a, b, c on its shift-register channels, Blue with ``blue``."""
    path = tmp_path / "board-quiz.toml"
    path.write_text('source = "board"\n'
                    '[[stations]]\nname = "Red"\ninputs = { bell = 0, a = 32, b = 33, c = 34 }\n'
                    f'[[stations]]\nname = "Blue"\ninputs = {{ bell = 1, {blue} }}\n', encoding="utf-8")
    return profile_mod.load(str(path))


def test_an_input_board_profile_s_buttons_count_the_same_way(tmp_path: Path) -> None:
    """The RP2040 board's profile names a station's inputs as the header's does."""
    prof = board_profile(tmp_path, "a = 40, b = 41, c = 42")
    assert session.wiring_options(SPEC, prof, 2) == {STATION_CHOICES: 3}
    gap = board_profile(tmp_path, "a = 40, c = 42")
    assert session.wiring_options(SPEC, gap, 2) == {STATION_CHOICES: 1}  # no b: Blue can answer A only
    with pytest.raises(OptionError, match="these stations have 1"):
        session.game_settings(SPEC, 2, 1, ALL_PLAY, gap)


def test_the_start_names_each_question_once_and_only_those_the_rounds_reached(caplog: pytest.LogCaptureFixture) -> None:
    rounds = [{"rules": "all-play", "questions": 2}, {"rules": "all-play", "questions": 1}]
    with caplog.at_level(logging.WARNING, logger="games.quiz"):
        settings = session.game_settings(SPEC, 4, 1, {"pack": PACK, "rounds": rounds}, profile_mod.load("header-4"))
    assert [q["text"][:14] for q in settings.options["pack_questions"]] == [
        "Which planet i", "True or false:", "Which instrume"]
    (line,) = [r.getMessage() for r in caplog.records if r.name == "games.quiz"]
    assert line.count("capital city of Australia") == 1 and line.count("largest ocean") == 1  # both rounds passed them
    assert "Statue of Liberty" not in line and "smallest prime" not in line  # never reached: not asked, not named


def test_a_round_s_own_choices_win_in_a_whole_quiz_all_play() -> None:
    """The quiz's choices=2 holds only for rounds without their own: the
    whole quiz was cut to 2 before any round chose."""
    rounds = [{"questions": 2, "choices": 4}, {"questions": 1}]
    settings = session.game_settings(SPEC, 4, 1, {**ALL_PLAY, "choices": 2, "rounds": rounds},
                                  profile_mod.load("header-4-full"))
    assert [(q["round"], len(q["choices"])) for q in settings.options["pack_questions"]] == [(1, 4), (1, 4), (2, 2)]


def test_a_classic_round_in_an_all_play_quiz_keeps_every_choice() -> None:
    rounds = [{"rules": "classic", "questions": 1}, {"questions": 1}]
    settings = SPEC.settings(3, 1, **ALL_PLAY, choices=2, rounds=rounds)
    asked = settings.options["pack_questions"]
    assert asked[0]["choices"] == ["Venus", "Mars", "Jupiter", "Saturn"]  # read aloud with its four
    assert len(asked[1]["choices"]) == 2


@pytest.mark.parametrize("cut", [{"rounds": [{"questions": 1}]}, {"questions": 1}], ids=["a round of 1", "questions=1"])
def test_a_whole_quiz_all_play_names_only_the_questions_it_asks(cut: dict, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="games.quiz"):
        settings = session.game_settings(SPEC, 4, 1, {**ALL_PLAY, **cut}, profile_mod.load("header-4"))
    assert [q["text"] for q in settings.options["pack_questions"]] == ["Which planet is known as the Red Planet?"]
    (line,) = [r.getMessage() for r in caplog.records if r.name == "games.quiz"]
    assert "Red Planet" in line
    assert "capital city of Australia" not in line and "left out" not in line  # past the one asked: not named


def test_answers_past_the_buttons_are_refused_for_the_buttons_not_for_missing_choices() -> None:
    """Geography's answers are C and D (Canberra, Pacific): two buttons reach none."""
    with pytest.raises(OptionError) as refused:
        session.game_settings(SPEC, 4, 1, {**ALL_PLAY, "categories": ["Geography"]}, profile_mod.load("header-4"))
    line = str(refused.value)
    assert "these stations have 2 answer buttons" in line and "past the first 2 choices" in line
    assert "more answer buttons" in line and "has no multiple-choice question" not in line
    session.game_settings(SPEC, 4, 1, {**ALL_PLAY, "categories": ["Geography"]}, profile_mod.load("header-4-full"))


def test_answers_past_the_quiz_s_choices_name_the_option() -> None:
    with pytest.raises(OptionError, match=r"the quiz offers 2 choices \(option 'choices'\).*past them"):
        SPEC.settings(4, 1, **ALL_PLAY, categories=["Geography"], choices=2)


def test_a_round_whose_answers_lie_past_the_buttons_says_so() -> None:
    rounds = [{"questions": 1}, {"rules": "all-play", "categories": ["Geography"]}]
    with pytest.raises(OptionError, match="round 2: these stations have 2 answer buttons.*past the first 2 choices"):
        session.game_settings(SPEC, 4, 1, {"pack": PACK, "rounds": rounds}, profile_mod.load("header-4"))
    with pytest.raises(OptionError, match="round 2 offers 2 choices.*past them"):
        SPEC.settings(4, 1, pack=PACK, rounds=[rounds[0], {**rounds[1], "choices": 2}])


@pytest.mark.parametrize(("language", "said"), [("cs", "mají 2 tlačítka"), ("pl", "mają 2 przyciski")])
def test_the_buttons_refusal_is_worded_in_the_host_s_language(language: str, said: str) -> None:
    from games.i18n import set_language

    with pytest.raises(OptionError) as refused:
        session.game_settings(SPEC, 4, 1, {**ALL_PLAY, "categories": ["Geography"]}, profile_mod.load("header-4"))
    set_language(language)
    try:
        assert said in str(refused.value)
    finally:
        set_language("en")


@pytest.mark.parametrize("prof", [None, "header-4"], ids=["keyboard stations", "a profile"])
def test_station_choices_given_by_hand_is_refused_in_one_line(prof: str | None) -> None:
    """The box counts the buttons; a hand-given count was kept on keyboard
    stations and silently overridden on a profile."""
    wiring = None if prof is None else profile_mod.load(prof)
    with pytest.raises(OptionError, match=r"'station_choices' is the box's own.*leave it out.*option 'choices'"):
        session.game_settings(SPEC, 4, 1, {**ALL_PLAY, STATION_CHOICES: 2}, wiring)


def test_play_refuses_a_hand_given_station_choices(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from controller.cli import main

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))  # were it to start, its journal would go there
    with pytest.raises(SystemExit) as stop:
        main(["play", "quiz", "--headless", "--seconds", "0.1", "--option", "rules=all-play",
              "--option", f"pack={PACK}", "--option", "station_choices=2"])
    err = capsys.readouterr().err.strip().splitlines()
    assert stop.value.code == 2 and len(err) == 1 and "'station_choices' is the box's own" in err[0]
