"""Variants II A and II B as the players notice them: following, blanks,
discards, players out, the bell for a missing kind, and the scoring."""

from __future__ import annotations

import pytest

from games.base import HOST_RESUME, Action, RuleError
from games.fiki_miki.engine import DISCARD, PLAY, Move
from tests.fiki_miki.table import BLANK, card, discard, engine, hand, kinds, play, ring, snapshot

S = 1_000_000

# three players, two cards each, three on the pile
FOLLOW_DECK = [
    card("apple", 3), card("leaf", 1),  # seat 0
    card("apple", 1), card("apple", 2),  # seat 1
    BLANK, card("star", 2),  # seat 2
    card("star", 1), card("leaf", 2), card("apple", 1),  # pile
]


def test_followers_follow_the_picture_else_a_blank_else_discard() -> None:
    e = engine(FOLLOW_DECK, players=3, hand_size=2, variant="IIA")
    assert e.public_view()["phase"] == "lead" and e.legal_actions(0) == ["play"]
    assert kinds(play(e, 0, 0, 0)) == ["led", "turn"]
    assert e.legal_moves(1) == [Move(PLAY, 2), Move(PLAY, 3)]  # both apples, nothing else
    play(e, 1, 2, 1 * S)
    before = snapshot(e)
    with pytest.raises(RuleError, match="not a legal follow"):
        discard(e, 2, 5, 2 * S)  # holds a blank: must add it
    assert snapshot(e) == before
    events = play(e, 2, 4, 2 * S)
    trick = next(ev for ev in events if ev.kind == "trick")
    assert trick.player == 0 and trick.data["cards"] == 3 and trick.data["pictures"] == 4
    assert hand(e, 0) == [1, 6] and hand(e, 1) == [3, 7] and hand(e, 2) == [5, 8]  # everyone drew
    view = e.public_view()
    assert view["scores"] == [4, 0, 0] and view["turn"] == 1 and view["phase"] == "lead"

    play(e, 1, 7, 3 * S)  # leaf 2: seat 2 has no leaf and no blank
    assert e.legal_moves(2) == [Move(DISCARD, 5), Move(DISCARD, 8)]
    events = discard(e, 2, 5, 4 * S)
    assert "card" not in events[0].data  # discards lie face down
    assert e.public_view()["discarded"] == 1
    play(e, 0, 1, 5 * S)
    assert e.public_view()["scores"] == [4, 3, 0]

    play(e, 2, 8, 6 * S)  # apple 1: seat 0 holds only a star now
    discard(e, 0, 6, 7 * S)
    events = play(e, 1, 3, 8 * S)
    over = events[-1]
    assert over.kind == "game_over" and over.data["scores"] == [4, 3, 3] and over.data["winners"] == [0]
    assert e.summary()["discarded"] == 2


def test_a_leader_left_with_only_a_blank_card_is_out() -> None:
    deck = [card("apple", 1), BLANK, card("leaf", 3), card("apple", 2), card("leaf", 1), card("star", 1)]
    e = engine(deck, players=2, hand_size=3, variant="IIA")
    with pytest.raises(RuleError, match="blank card cannot be led"):
        play(e, 0, 1, 0)
    play(e, 0, 0, 0)
    play(e, 1, 3, 1 * S)  # seat 0 takes apple 1 + apple 2
    play(e, 1, 4, 2 * S)  # seat 1 leads leaf 1; seat 0 must follow with its leaf
    assert e.legal_moves(0) == [Move(PLAY, 2)]
    events = play(e, 0, 2, 3 * S)
    out = next(ev for ev in events if ev.kind == "out")
    assert out.player == 0 and "blank" in out.data["why"]
    view = e.public_view()
    assert view["status"][0] == "out" and view["turn"] == 1
    events = play(e, 1, 5, 4 * S)  # star: the player who is out adds nothing
    assert kinds(events) == ["led", "trick", "game_over"]
    assert events[-1].data["scores"] == [3, 5]
    assert hand(e, 0) == [1]  # the blank stays in the hand, worth nothing


def test_variant_iia_has_no_bell() -> None:
    e = engine(FOLLOW_DECK, players=3, hand_size=2, variant="IIA")
    play(e, 0, 0, 0)
    with pytest.raises(RuleError, match="without the bell"):
        ring(e, 2, 100_000)
    assert "ring" not in e.legal_actions(2)


# II B: seat 0 [apple 3, leaf 1], seat 1 [star 1, leaf 2], seat 2 [star 2, blank]
BELL_DECK = [card("apple", 3), card("leaf", 1), card("star", 1), card("leaf", 2), card("star", 2), BLANK]


def test_the_first_correct_ringer_is_spared_the_discard_the_others_follow() -> None:
    e = engine([*BELL_DECK, card("apple", 1), card("apple", 2), card("star", 3)], players=3, hand_size=2, variant="IIB")
    events = play(e, 0, 0, 0)  # apple 3: neither seat 1 nor seat 2 holds an apple
    assert kinds(events) == ["led", "bell_open"] and e.public_view()["phase"] == "bell"
    with pytest.raises(RuleError, match="leader"):
        ring(e, 0, 100_000)
    ring(e, 1, 500_000)
    ring(e, 2, 700_000)
    events = e.tick(2 * S)
    assert [(ev.kind, ev.player) for ev in events] == [("winner", 1), ("turn", 2)]  # seat 1 adds nothing
    assert events[0].data["margin_us"] == 200_000
    assert e.legal_moves(2) == [Move(PLAY, 5)]  # the slower ringer adds its blank as usual
    events = play(e, 2, 5, 3 * S)
    assert kinds(events)[:2] == ["added", "trick"]
    assert e.public_view()["scores"] == [3, 0, 0] and e.public_view()["collected"] == [2, 0, 0]
    assert hand(e, 1) == [2, 3, 7]  # kept both cards and drew
    assert e.private_view(1)["last_ring"]["result"] == "spared"
    assert e.private_view(2)["last_ring"]["result"] == "slower"


def test_tied_correct_ringers_are_all_spared_and_a_blank_is_still_added() -> None:
    e = engine([*BELL_DECK, card("apple", 1), card("apple", 2), card("star", 3)], players=3, hand_size=2, variant="IIB")
    play(e, 0, 0, 0)
    ring(e, 1, 500_000, precision_us=2_000)
    ring(e, 2, 501_000, precision_us=2_000)
    events = e.tick(2 * S)
    assert sorted(ev.player for ev in events if ev.kind == "winner") == [1, 2]
    assert e.public_view()["last_race"]["tied"] == [1, 2]
    assert e.legal_moves(2) == [Move(PLAY, 5)]  # spared the discard only: the blank goes in
    events = play(e, 2, 5, 3 * S)
    assert any(ev.kind == "trick" and ev.data["cards"] == 2 for ev in events)
    assert hand(e, 1)[:2] == [2, 3]


def test_a_wrong_ring_costs_two_discards_and_an_empty_hand_ends_the_game() -> None:
    e = engine(BELL_DECK, players=3, hand_size=2, variant="IIB")
    play(e, 0, 1, 0)  # leaf 1: seat 1 holds leaf 2
    events = ring(e, 1, 500_000)
    assert kinds(events) == ["wrong"] and e.public_view()["owed_discards"] == [0, 2, 0]
    with pytest.raises(RuleError, match="already rang"):
        ring(e, 1, 600_000)
    e.tick(2 * S)
    assert e.legal_moves(1) == [Move(DISCARD, 2), Move(DISCARD, 3)]
    with pytest.raises(RuleError, match="discard 2 more"):
        play(e, 1, 3, 2_100_000)  # cannot follow before paying the penalty
    discard(e, 1, 2, 3 * S)
    assert e.public_view()["turn"] == 1
    events = discard(e, 1, 3, 4 * S)  # hand empty: seat 1 passes
    assert [(ev.kind, ev.player) for ev in events][1:] == [("passed", 1), ("turn", 2)]
    events = play(e, 2, 5, 5 * S)  # no leaf: the blank
    over = events[-1]
    assert over.kind == "game_over" and "player 2 has no cards" in over.data["reason"]
    assert over.data["hand_pictures"] == [3, 0, 2]  # pictures left in hands count
    assert over.data["scores"] == [1 + 3, 0, 2] and over.data["winners"] == [0]


def test_a_ring_after_the_window_is_refused_and_one_stamped_inside_it_is_late() -> None:
    e = engine([*BELL_DECK, card("apple", 1), card("apple", 2), card("star", 3)], players=3, hand_size=2, variant="IIB")
    play(e, 0, 0, 0)
    e.tick(2_500_000)
    events = ring(e, 2, 1_900_000)  # stamped inside the window, arrived after it closed
    assert kinds(events) == ["late"]
    with pytest.raises(RuleError, match="only while it is open"):
        ring(e, 2, 2_600_000)
    assert e.legal_moves(1) == [Move(DISCARD, 2), Move(DISCARD, 3)]


def test_in_iib_a_player_who_cannot_lead_ends_the_game() -> None:
    deck = [card("apple", 1), card("leaf", 2), BLANK, card("apple", 2), card("leaf", 1), card("star", 1)]
    e = engine(deck, players=2, hand_size=3, variant="IIB", bell_window_us=0)
    play(e, 0, 0, 0)
    play(e, 1, 3, 1 * S)  # seat 0 takes apple 1 + apple 2
    play(e, 1, 4, 2 * S)
    events = play(e, 0, 1, 3 * S)  # seat 1 takes the leaves; seat 0 must lead from [blank]
    assert [ev.kind for ev in events][-2:] == ["out", "game_over"]
    assert events[-1].data["scores"] == [3, 3 + 1]  # seat 1's star in hand counts


def test_a_hand_of_only_blank_cards_cannot_lead_from_the_first_turn() -> None:
    deck = [BLANK, BLANK, card("apple", 2), card("leaf", 1), card("apple", 1), card("leaf", 3)]
    e = engine(deck, players=3, hand_size=2, variant="IIA")
    view = e.public_view()
    assert view["out"] == [0] and view["turn"] == 1 and view["phase"] == "lead"
    play(e, 1, 2, 0)  # apple 2: seat 2 follows; seat 0 is out and adds nothing
    events = play(e, 2, 4, 1 * S)
    assert any(ev.kind == "trick" and ev.data["pictures"] == 3 for ev in events)
    assert hand(e, 0) == [0, 1]


def test_a_pause_gives_the_bell_window_its_time_back() -> None:
    e = engine([*BELL_DECK, card("apple", 1), card("apple", 2), card("star", 3)], players=3, hand_size=2, variant="IIB")
    play(e, 0, 0, 0)
    e.handle(Action(HOST_RESUME, 1 * S, None, {"paused_us": 5 * S}))
    assert e.next_deadline_us() == 7 * S
    assert kinds(ring(e, 1, 6 * S)) == ["ring"]  # still inside the window
