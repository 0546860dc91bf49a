"""Every game declares its options one way: ``GameSpec.options`` (``Option``),
ranges written once, which the engine itself enforces; one name for the tie
window; and the contract's ``fire_due`` fires every deadline at its own time."""

from __future__ import annotations

import pytest

from games.base import TIE_WINDOW, BuzzerBoxError, GameEvent, GameSettings, OptionError, fire_due
from games.quiz.engine import QuizOptions
from games.registry import available, get

#: the games whose engines read their options (the quiz keeps its own, this session)
GAMES = ["reaction", "schicki-micki", "viva-topo", "piepmatz", "fiki-miki", "pictomania"]


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_option_has_a_default_the_engine_takes(game: str) -> None:
    spec = get(game)
    engine = spec.new_engine(spec.settings(spec.min_players + 1, 3))
    assert not engine.finished


@pytest.mark.parametrize("game", GAMES)
def test_the_engine_refuses_what_the_option_table_refuses(game: str) -> None:
    """The range in the table is the one the engine applies: a value one past it is
    refused by the engine even when the spec's own check is bypassed."""
    spec = get(game)
    bounded = {name: option for name, option in spec.options.items()
               if option.type is int and option.high is not None and option.default is not None}
    for name, option in bounded.items():
        settings = GameSettings(spec.min_players + 1, 3, {**spec.default_options, name: int(option.high) + 1})
        with pytest.raises((BuzzerBoxError, ValueError), match=name):
            spec.new_engine(settings)


def test_the_tie_window_has_one_name_in_every_game() -> None:
    named = {game: [name for name in get(game).options if "tie" in name] for game in GAMES}
    assert {game: names for game, names in named.items() if names} == {
        "reaction": [TIE_WINDOW], "schicki-micki": [TIE_WINDOW], "fiki-miki": [TIE_WINDOW], "pictomania": [TIE_WINDOW]}


def test_fire_due_fires_each_deadline_at_its_own_time_and_those_a_firing_sets() -> None:
    deadlines = [100, 250]
    fired: list[int] = []

    def fire(due: int) -> list[GameEvent]:
        fired.append(due)
        deadlines.remove(due)
        if due == 100:
            deadlines.append(180)  # set by the first firing, due before the tick
        return [GameEvent("fired", due)]

    events = fire_due(lambda: min(deadlines, default=None), fire, 300)
    assert fired == [100, 180, 250] and [e.t_us for e in events] == fired
    assert fire_due(lambda: min(deadlines, default=None), fire, 1_000) == []


@pytest.mark.parametrize("game", available())
def test_every_engine_refuses_an_unknown_option_with_the_contracts_option_error(game: str) -> None:
    """The engine itself reads its options through the spec's table (``checked_options``):
    settings that bypass the spec's own check are refused the same way by every game."""
    spec = get(game)
    settings = GameSettings(spec.min_players + 1, 3, {**spec.default_options, "no_such_option": 1})
    with pytest.raises(OptionError, match="no_such_option"):
        spec.new_engine(settings)


@pytest.mark.parametrize("game", available())
def test_every_engine_refuses_a_declared_option_of_the_wrong_type(game: str) -> None:
    spec = get(game)
    typed = {name: option for name, option in spec.options.items() if option.type is not object}
    assert typed, f"{game} declares no typed option"
    for name, option in typed.items():
        types = option.type if isinstance(option.type, tuple) else (option.type,)
        wrong = [] if str in types else "text"
        settings = GameSettings(spec.min_players + 1, 3, {**spec.default_options, name: wrong})
        with pytest.raises(OptionError, match=name):
            spec.new_engine(settings)


def test_the_quiz_engine_knows_the_options_its_spec_declares_and_no_other() -> None:
    """One list of the quiz's option names (games/quiz/options.py): ``QuizOptions`` only
    holds the values the engine plays for those not given."""
    assert set(QuizOptions.__dataclass_fields__) == set(get("quiz").options)


def test_a_game_offering_an_option_under_a_menu_row_s_name_is_refused_in_one_line() -> None:
    """The start menu lists a game's options with choices as rows keyed by their names: one named
    as a row of the menu's own (Pictomania's word list was "language") stood for that row."""
    from dataclasses import replace

    from games.base import MENU_ROWS, Option
    from tests.toy.tally import SPEC

    listed = Option(None, str, label="Words", choices=((None, "as the box"), ("en", "English")))
    for name in sorted(MENU_ROWS) + ["category_2"]:
        with pytest.raises(ValueError) as refused:
            replace(SPEC, options={**SPEC.options, name: listed})
        said = str(refused.value)
        assert said.splitlines() == [said] and f"option {name!r}" in said and "give it another name" in said, said
    # an option the menu does not list is no row (Viva Topo's "start" position); every game passes
    assert replace(SPEC, options={**SPEC.options, "start": Option(None, dict)}).options["start"].default is None
    from games.registry import packages

    assert available() == list(packages())  # every registered game declares itself without a clash
