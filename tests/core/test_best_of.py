"""Who won, by score: the games' one rule (``games.base.best_of``)."""

from games.base import best_of


def test_the_top_score_wins_and_a_shared_top_is_shared() -> None:
    assert best_of([3, 1, 3]) == (0, 2)
    assert best_of([0, 2, -1]) == (1,)


def test_nobody_wins_with_a_top_of_nothing_even_beside_a_penalty() -> None:
    """A penalty quiz where nobody was right and one player lost a point: the players on 0 scored
    nothing and win nothing (they were crowned before), as when everyone is on 0 or all lost one."""
    assert best_of([0, 0, -1]) == ()
    assert best_of([-1, -2]) == ()
    assert best_of([0, 0, 0]) == ()
    assert best_of([]) == ()
