"""The join code stays on the big screen only while a phone has something to
do: a team quiz played on the buzzers shows it while the teams sign up on
phones and drops it (with the room it took beside the game) once the first
question is armed; a quiz with an all-play round keeps it, since phones
answer there."""

from __future__ import annotations

from typing import Any

from controller.box.inputs import HOST_STATION
from controller.box.press import Press
from controller.box.timeline import box_now_us
from controller.web.overlay import CompanionOverlay
from tests.web.conftest import Served


def overlay_of(s: Served) -> CompanionOverlay:
    [overlay] = [o for o in s.game.presenter.scene.overlays if isinstance(o, CompanionOverlay)]
    return overlay


def arm_the_first_question(s: Served) -> None:
    s.box.press(Press(HOST_STATION, "arm", box_now_us()))
    s.wait(lambda: s.box.engine.public_view()["phase"] != "idle")


def test_a_team_quiz_on_the_buzzers_drops_its_join_code_once_the_teams_stand(served: Any) -> None:
    s: Served = served("quiz", 4, team_size=2)
    overlay = overlay_of(s)
    s.wait(lambda: overlay.waiting() == (0, 1, 2, 3))  # the teams sign up: every seat is free
    s.wait(lambda: overlay.aside(s.game.presenter.screen.surface, s.game.presenter.screen.surface.get_rect()) > 0)
    arm_the_first_question(s)
    s.wait(lambda: not s.server.publisher.latest.phones_wanted)
    assert overlay.waiting() == ()  # no free seat named, no code for them
    assert s.server.publisher.latest.uses_seats  # a phone that signed up keeps its page


def test_a_quiz_with_an_all_play_round_keeps_its_join_code(served: Any) -> None:
    s: Served = served("quiz", 3, pack="en-general", rounds=[{"questions": 2}, {"questions": 2, "rules": "all-play"}])
    overlay = overlay_of(s)
    arm_the_first_question(s)
    s.wait(lambda: s.server.publisher.latest.version > 1)
    assert s.server.publisher.latest.phones_wanted
    assert overlay.waiting() == (0, 1, 2)
