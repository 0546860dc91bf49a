"""Every game speaks the box's vocabulary: each status it shows is a common
one or one its GameSpec declares, so the lights and the strip know what to
do with it instead of guessing."""

from __future__ import annotations

import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from games import registry
from games.base import COMMON_STATUS_LIGHTS


@pytest.mark.parametrize("name", registry.available())
def test_every_status_a_game_shows_is_declared(name: str) -> None:
    spec = registry.get(name)
    seen: set[str] = set()
    for players in (spec.min_players, min(4, spec.max_players)):
        settings = spec.settings(players, 3, **spec.demo_options)
        box = Box(spec, settings)
        session = Session(box, spec.new_bots(settings), spec.new_host(settings), 3)
        box.on_events.append(lambda events, box=box: seen.update(box.engine.public_view().get("status", [])))
        session.run_virtual(600_000_000)
    assert seen, "the game showed no status at all"
    undeclared = seen - set(COMMON_STATUS_LIGHTS) - set(spec.status_lights) - set(spec.status_labels)
    assert not undeclared, f"{name} shows statuses its spec does not declare: {sorted(undeclared)}"


@pytest.mark.parametrize(
    ("option", "said"),
    [("interval_shrink=2", "option 'interval_shrink' is 2: give a value between 0 and 1"),
     ("turn_interval_us=soon", "option 'turn_interval_us' is 'soon': give a whole number or null"),
     ("tie_window_us=true", "option 'tie_window_us' is True: give a whole number")],
)
def test_a_declared_option_out_of_type_or_range_is_said_in_one_line(option: str, said: str) -> None:
    from controller.cli import main

    with pytest.raises(SystemExit) as stop:
        main(["simulate", "schicki-micki", "--players", "3", "--option", option])
    assert str(stop.value) == f"buzzerbox simulate: {said}"
