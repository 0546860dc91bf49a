"""Reaction fires its deadlines through ``fire_due``, each at its own time: one
late tick gives the same events, with the same stamps, as many small ones
(a seeded bot game's actions replayed both ways, virtual time)."""

from __future__ import annotations

import pytest

from tests.deadlines import late_and_small_ticks


@pytest.mark.parametrize("seed", [1, 7])
def test_one_late_tick_gives_what_many_small_ones_give(seed: int) -> None:
    late, small = late_and_small_ticks("reaction", seed=seed)
    assert len(late) > 20 and late == small
