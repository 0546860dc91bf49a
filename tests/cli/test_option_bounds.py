"""A number option out of its range is refused as ``buzzerbox play`` starts, in
one line naming the option and the range, exit code nonzero, no traceback:
``--option questions=0`` started a quiz of no questions. The range is written
once, in the game's option table (``games.base.Option``), and said whole:
a range open above said "between 0 and -"."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from games.base import OptionError
from games.i18n import format_number
from games.registry import available, get
from tests.cli.test_bad_input import one_line_ending


@pytest.mark.parametrize(("argv", "says"), [
    (["play", "quiz", "--option", "questions=0"], "option 'questions' is 0: give a value of 1 or more"),
    (["play", "quiz", "--option", "questions=-3"], "option 'questions' is -3: give a value of 1 or more"),
    (["play", "reaction", "--option", "rounds=-1"], "option 'rounds' is -1: give a value of 0 or more"),
    (["play", "schicki-micki", "--option", "interval_shrink=1.5"],
     "option 'interval_shrink' is 1.5: give a value between 0 and 1"),
])
def test_a_number_out_of_its_range_is_one_line_and_no_game(argv: list[str], says: str, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    status, err = one_line_ending(lambda: main([*argv, "--headless", "--seconds", "1"]), capsys)
    assert status != 0 and "Traceback" not in err, err
    assert err.strip().splitlines() == [f"buzzerbox play: {says}"], err
    assert not list(tmp_path.glob("data/buzzerbox/journals/*.jsonl")), "a refused start left a journal"


def bounded() -> list[tuple[str, str]]:
    """Every number option of every registered game with a bound."""
    return [(game, name) for game in available() for name, option in get(game).options.items()
            if not option.internal and (option.low is not None or option.high is not None)]


@pytest.mark.parametrize(("game", "name"), bounded())
def test_every_bound_is_said_whole(game: str, name: str) -> None:
    option = get(game).options[name]
    step = 1 if option.type is int else 0.5
    for bound, wrong in ((option.low, (option.low or 0) - step), (option.high, (option.high or 0) + step)):
        if bound is None:
            continue
        with pytest.raises(OptionError) as refused:
            option.check(name, wrong)  # what every game's settings ask of each option given
        said = str(refused.value)
        assert said.startswith(f"option {name!r} is ") and " and -" not in said, said
        assert format_number(bound, 0 if float(bound).is_integer() else 3) in said, said
