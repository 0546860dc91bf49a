"""The join code stays on the big screen only while a phone has something to
do: a team quiz played on the buzzers shows it while the teams sign up on
phones and drops it (with the room it took beside the game) once the first
question is armed; a quiz with an all-play round keeps it, since phones
answer there."""

from __future__ import annotations

from typing import Any

from controller.box.inputs import HOST_STATION
from tests.web.conftest import Served


def arm_the_first_question(s: Served) -> None:
    s.press(HOST_STATION, "arm")
    s.wait(lambda: s.public["phase"] != "idle")


def test_a_team_quiz_on_the_buzzers_drops_its_join_code_once_the_teams_stand(served: Any) -> None:
    s: Served = served("quiz", 4, team_size=2)
    # the panel the big screen draws (the phones' server describes it): the code while the teams sign up
    s.wait(lambda: s.view.phones is not None and s.view.phones.phones_wanted)
    assert s.view.phones is not None and s.view.phones.held == (False,) * 4  # every seat is free
    arm_the_first_question(s)
    s.wait(lambda: s.view.phones is not None and not s.view.phones.phones_wanted)


def test_a_quiz_with_an_all_play_round_keeps_its_join_code(served: Any, phone: Any) -> None:
    s: Served = served("quiz", 3, pack="en-general", rounds=[{"questions": 2}, {"questions": 2, "rules": "all-play"}])
    arm_the_first_question(s)
    s.take_seat(phone(), 0)  # a seat taken after the arm: the panel the server describes from now on says so
    s.wait(lambda: s.view.phones is not None and s.view.phones.held == (True, False, False))
    assert s.view.phones is not None and s.view.phones.phones_wanted
