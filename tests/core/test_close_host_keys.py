"""The close of a game: what it still takes after the deciding thread stopped."""

from typing import Any

import pytest

from controller import protocol as p
from controller.box.process import DecidingGame
from controller.box.runtime import Box
from games import registry


def test_a_host_button_the_close_still_takes_is_the_game_s_never_a_key_nobody_decides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The deciding thread stops before the close: a host button's press that ``box.end`` still delivers
    (held for the horizon) goes to the game and its journal, not to the stopped host keys (it was lost)."""
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(2, seed=1))
    game = DecidingGame(box, None, None, until_us=None, results_s=10, screen_args=[])
    assert box.results_keys is not None  # the final results' host keys while the game runs
    at_end: list[Any] = []
    monkeypatch.setattr(box, "end", lambda t_us: at_end.append(box.results_keys))
    game.close(p.EndReason.FINISHED)
    assert at_end == [None]
