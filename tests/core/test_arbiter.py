"""Ranking by source stamps: ties, precision, chains of near-ties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.arbitration import Arbiter, ArbiterOptions, rank_by_time


def rank(stamps, precision=1, window=0):
    items = list(enumerate(stamps))
    groups = rank_by_time(items, lambda i: i[1], lambda i: precision, window)
    return [sorted(i for i, _ in g) for g in groups]


def test_one_microsecond_is_enough_at_one_microsecond_precision():
    assert rank([1001, 1000, 1002]) == [[1], [0], [2]]


def test_coarse_precision_makes_close_presses_a_tie():
    assert rank([1000, 1400, 3000], precision=1000) == [[0, 1], [2]]


def test_a_chain_of_near_ties_is_one_tie():
    # each 600 µs behind the previous at 1 ms precision: no neighbour can be
    # put ahead of the next, so no order is claimed among them
    assert rank([0, 600, 1200, 1800], precision=1000) == [[0, 1, 2, 3]]
    assert rank([0, 600, 2700], precision=1000) == [[0, 1], [2]]


def test_mixed_precisions_never_order_a_pair_finer_than_its_coarser_stamp():
    items = [("a", 0, 1), ("b", 1200, 1), ("c", 600, 1000)]  # c is stamped to 1 ms
    groups = rank_by_time(items, lambda i: i[1], lambda i: i[2])
    assert [[i[0] for i in g] for g in groups] == [["a", "c", "b"]]


@given(st.lists(st.integers(0, 10_000), min_size=1, max_size=12), st.integers(1, 2000))
def test_ranking_keeps_everyone_in_time_order(stamps, precision):
    groups = rank_by_time(list(enumerate(stamps)), lambda i: i[1], lambda i: precision)
    flat = [t for g in groups for _, t in g]
    assert flat == sorted(stamps)
    assert sum(len(g) for g in groups) == len(stamps)
    for earlier, later in zip(groups, groups[1:], strict=False):
        assert later[0][1] - earlier[-1][1] >= precision  # ordered groups are told apart


def test_queue_window_keeps_stragglers_out():
    a = Arbiter(3, ArbiterOptions(queue_window_us=5_000))
    a.arm(0)
    assert a.press(0, 100) == "counted"
    assert a.press(1, 4_000) == "counted"
    assert a.press(2, 6_000) == "late"
    assert a.result().queue == [1]
