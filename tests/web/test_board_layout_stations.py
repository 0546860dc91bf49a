"""The scoreboard (/board) on a TV or a projector fits a wiring profile's
longest station names at every TV size (test_board_layout.py measures it
so with the menu's longest names), in a file of its own so that the
suite's workers (``--dist loadfile``) share these cases."""

from __future__ import annotations

from typing import Any

import pytest

from controller.box.profile import MAX_NAME
from tests.web.conftest import Served
from tests.web.test_board_layout import BOARD_GAMES, LONGEST_NAME, fits


@pytest.mark.parametrize(("game", "players"), BOARD_GAMES)
def test_the_scoreboard_fits_a_profile_s_longest_station_names(served: Any, browser: Any, game: str,
                                                               players: int) -> None:
    """A wiring profile's station names may be longer than the menu's (``MAX_NAME``): ``play --web``
    on a profile's stations (mock GPIO pins), each named as long as a profile allows."""
    assert len(LONGEST_NAME) == MAX_NAME  # the test's long name is as long as a profile allows
    s: Served = served(game, players, stations=[LONGEST_NAME] * players)
    fits(browser, s.server.board_url(), players, LONGEST_NAME, shot=False)
