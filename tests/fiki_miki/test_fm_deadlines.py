"""Fiki Miki fires its deadlines through ``fire_due``: one late tick gives the
same events, with the same stamps, as many small ones (tests/deadlines.py)."""

from tests.deadlines import one_late_tick_test

test_one_late_tick_gives_what_many_small_ones_give = one_late_tick_test("fiki-miki")
