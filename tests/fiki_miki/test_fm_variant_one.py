"""Variant I as the players notice it: stacks, the threshold, the bell race, bans."""

from __future__ import annotations

import pytest

from games.base import Action, Engine, RuleError
from games.fiki_miki.engine import FikiMikiEngine
from tests.fiki_miki.table import card, engine, hand, kinds, play, ring, snapshot

S = 1_000_000
# two players, two cards each: seat 0 [apple 6, leaf 1], seat 1 [apple 4, star 2]
TWO = [card("apple", 6), card("leaf", 1), card("apple", 4), card("star", 2), card("leaf", 3), card("star", 1)]


def ten_on_apples(seed: int = 1) -> FikiMikiEngine:
    """Seat 0 plays apple 6 at 0 s, seat 1 apple 4 at 2.5 s: the apple stack holds 10."""
    e = engine(TWO, players=2, hand_size=2, seed=seed)
    play(e, 0, 0, 0)
    e.tick(2 * S)
    play(e, 1, 2, 2_500_000)
    return e


def test_engine_satisfies_the_protocol() -> None:
    assert isinstance(engine(TWO, players=2, hand_size=2), Engine)


def test_a_card_lands_on_its_stack_the_player_draws_and_the_next_waits_for_the_bell() -> None:
    e = engine(TWO, players=2, hand_size=2)
    assert e.public_view()["turn"] == 0
    events = play(e, 0, 0, 0)
    assert kinds(events) == ["played", "drew", "bell_open"]
    view = e.public_view()
    apples = next(s for s in view["stacks"] if s["kind"] == "apple")
    assert apples["pictures"] == 6 and [c["id"] for c in apples["cards"]] == [0]
    assert hand(e, 0) == [1, 4]  # drew the top of the pile
    assert view["pile"] == 1 and view["phase"] == "bell"
    with pytest.raises(RuleError, match="bell is open"):
        play(e, 1, 2, 1 * S)
    assert kinds(e.tick(2 * S)) == ["turn"]
    assert e.public_view()["turn"] == 1 and e.legal_actions(1) == ["play", "ring"]


def test_first_ringer_takes_the_stack_and_the_margin_is_shown() -> None:
    e = ten_on_apples()
    ring(e, 1, 2_800_000)
    ring(e, 0, 2_850_000)
    events = e.tick(3 * S)
    winner = next(ev for ev in events if ev.kind == "winner")
    assert winner.player == 1 and winner.data["cards"] == 2 and winner.data["margin_us"] == 50_000
    view = e.public_view()
    assert view["collected"] == [0, 2] and view["scores"] == [0, 2]
    assert next(s for s in view["stacks"] if s["kind"] == "apple")["cards"] == []
    assert view["last_race"]["decided_by"] == "stamp"
    assert e.private_view(0)["last_ring"]["result"] == "slower"


def test_an_earlier_stamp_wins_even_when_it_arrives_second() -> None:
    e = ten_on_apples()
    ring(e, 0, 2_850_000)
    ring(e, 1, 2_800_000)  # delivered late, stamped first
    e.tick(3 * S)
    assert e.public_view()["collected"] == [0, 2]


def test_a_tie_is_drawn_fairly_with_the_seed_never_by_seat() -> None:
    winners = []
    for seed in range(30):
        e = ten_on_apples(seed=seed)
        ring(e, 1, 2_800_500, precision_us=1_000)  # within a millisecond: cannot be told apart
        ring(e, 0, 2_800_000, precision_us=1_000)
        event = next(ev for ev in e.tick(3 * S) if ev.kind == "winner")
        assert event.data["decided_by"] == "draw" and event.data["tied"] == [0, 1]
        assert e.summary()["ties"] == 1
        winners.append(event.player)
    assert 0 in winners and 1 in winners  # both seats win some draws
    again = engine(TWO, players=2, hand_size=2, seed=7)
    play(again, 0, 0, 0)
    again.tick(2 * S)
    play(again, 1, 2, 2_500_000)
    ring(again, 0, 2_800_000, precision_us=1_000)
    ring(again, 1, 2_800_500, precision_us=1_000)
    assert next(ev for ev in again.tick(3 * S) if ev.kind == "winner").player == winners[7]


def test_a_wrong_ring_costs_the_next_turn() -> None:
    e = engine(TWO, players=2, hand_size=2)
    play(e, 0, 0, 0)  # apple stack: 6
    events = ring(e, 1, 500_000)
    assert kinds(events) == ["wrong"] and "6 pictures" in events[0].data["why"]
    assert e.public_view()["status"][1] == "banned"
    events = e.tick(2 * S)
    assert kinds(events) == ["skipped", "turn"] and events[0].player == 1 and events[1].player == 0
    assert e.public_view()["banned"] == [1]  # the turn is lost; the bell stays closed for the round after it
    play(e, 0, 1, 2_500_000)
    with pytest.raises(RuleError, match="own turn after the lost one"):
        ring(e, 1, 3 * S)
    events = e.tick(4_500_000)
    assert [(ev.kind, ev.player) for ev in events] == [("ban_over", 1), ("turn", 1)]
    assert e.public_view()["banned"] == [] and "ring" in e.legal_actions(1)


def test_a_wrong_ring_during_the_ban_is_refused_and_costs_nothing_more() -> None:
    # three players: seat 2 rings wrong, then seat 1 brings the apples to 10
    deck = [card("apple", 6), card("leaf", 1), card("apple", 4), card("star", 2), card("leaf", 2), card("star", 1), card("leaf", 3)]
    e = engine(deck, players=3, hand_size=2)
    play(e, 0, 0, 0)
    ring(e, 2, 500_000)
    with pytest.raises(RuleError, match="may not ring"):
        ring(e, 2, 700_000)  # a second wrong ring during the ban
    assert "ring" not in e.legal_actions(2)
    e.tick(2 * S)
    play(e, 1, 2, 2_500_000)  # apples: 10, but seat 2 is banned
    before = snapshot(e)
    with pytest.raises(RuleError, match="may not ring"):
        ring(e, 2, 2_600_000)
    assert snapshot(e) == before
    ring(e, 0, 2_700_000)
    events = e.tick(3 * S)
    assert [(ev.kind, ev.player) for ev in events] == [("winner", 0), ("skipped", 2), ("turn", 0)]
    assert e.public_view()["collected"] == [2, 0, 0]
    assert e.summary()["wrong_rings"] == 1  # the refused ring was not counted again


def test_a_wrong_ring_in_ones_own_turn_costs_the_following_turn() -> None:
    e = engine(TWO, players=2, hand_size=2)
    play(e, 0, 0, 0)
    e.tick(2 * S)  # seat 1's turn has started
    ring(e, 1, 2_100_000)
    play(e, 1, 3, 2_200_000)  # it still plays this turn
    events = e.tick(4_200_000)
    assert [(ev.kind, ev.player) for ev in events] == [("turn", 0)]
    assert e.public_view()["banned"] == [1]  # the ban runs past the lost turn
    play(e, 0, 1, 4_300_000)
    events = e.tick(6_300_000)
    assert [(ev.kind, ev.player) for ev in events] == [("skipped", 1), ("turn", 0)]
    assert e.public_view()["banned"] == [1]  # and the round after the lost turn
    play(e, 0, 4, 6_400_000)
    events = e.tick(8_400_000)
    assert [(ev.kind, ev.player) for ev in events] == [("ban_over", 1), ("turn", 1)]
    assert e.public_view()["banned"] == []


def test_the_bell_is_about_the_stack_the_newest_card_landed_on() -> None:
    e = ten_on_apples()  # nobody rings: the apple stack stays at 10
    e.tick(4_500_000)
    play(e, 0, 1, 5 * S)  # leaf 1 lands
    assert kinds(ring(e, 1, 5_500_000)) == ["wrong"]


def test_a_ring_after_the_window_still_takes_an_unrung_stack() -> None:
    e = ten_on_apples()
    e.tick(4_500_000)  # window closed, nobody rang, seat 0 to play
    assert e.public_view()["phase"] == "play"
    ring(e, 1, 5 * S)
    assert e.public_view()["phase"] == "bell"
    with pytest.raises(RuleError, match="bell is open"):
        play(e, 0, 1, 5_050_000)
    events = e.tick(5_100_000)
    assert kinds(events) == ["winner"]  # no new turn: seat 0's turn goes on
    assert e.public_view()["turn"] == 0 and e.public_view()["phase"] == "play"


def test_a_ring_stamped_inside_a_decided_race_is_late_evidence_only() -> None:
    e = ten_on_apples()
    ring(e, 0, 2_850_000)
    e.tick(3 * S)  # decided: seat 0 takes the stack
    events = ring(e, 1, 2_800_000)  # arrives now, stamped before seat 0's ring
    assert kinds(events) == ["late"] and events[0].data["would_have_won"] is True
    assert e.public_view()["collected"] == [2, 0] and e.public_view()["banned"] == []


def test_the_deck_runs_out_hands_play_down_and_the_most_cards_win() -> None:
    deck = [card("star", 1), card("star", 1), card("apple", 2)]
    e = engine(deck, players=2, hand_size=1, threshold=2)
    play(e, 0, 0, 0)  # draws the last card
    assert e.public_view()["pile"] == 0
    e.tick(2 * S)
    events = play(e, 1, 1, 2_500_000)  # stars: 2; no card left to draw
    assert "drew" not in kinds(events) and hand(e, 1) == []
    ring(e, 0, 2_700_000)
    events = e.tick(2_800_000)
    assert [(ev.kind, ev.player) for ev in events] == [("winner", 0), ("turn", 0)]  # seat 1 has no card: passed over
    play(e, 0, 2, 3 * S)
    assert not e.finished  # the last card's bell window is still open
    events = e.tick(5 * S)
    assert kinds(events) == ["game_over"] and e.finished
    assert events[0].data == {"scores": [2, 0], "winners": [0], "reason": "all hands are empty"}
    assert e.legal_actions(0) == [] and e.legal_actions(None) == []
    with pytest.raises(RuleError, match="over"):
        ring(e, 1, 6 * S)


def test_plays_out_of_turn_or_of_cards_not_held_change_nothing() -> None:
    e = engine(TWO, players=2, hand_size=2)
    before = snapshot(e)
    with pytest.raises(RuleError, match="player 1's turn"):
        play(e, 1, 2, 0)
    with pytest.raises(RuleError, match="not in player 1's hand"):
        play(e, 0, 2, 0)
    with pytest.raises(RuleError, match="no discards"):
        e.handle(Action("discard", 0, 0, {"card": 0}))
    assert snapshot(e) == before


def test_hands_stay_off_the_shared_screen_unless_open_hands_is_chosen() -> None:
    hidden = engine(TWO, players=2, hand_size=2)
    assert hidden.options.open_hands is False
    assert "hands" not in hidden.public_view()
    shown = engine(TWO, players=2, hand_size=2, open_hands=True)
    assert [[c["id"] for c in h] for h in shown.public_view()["hands"]] == [[0, 1], [2, 3]]


def test_a_ring_after_the_stack_was_taken_is_slower_not_wrong() -> None:
    e = ten_on_apples()
    ring(e, 0, 2_800_000)
    e.tick(3 * S)  # seat 0 took the apples
    events = ring(e, 1, 3_200_000)  # right about the card, but too slow
    assert kinds(events) == ["slower"]
    assert e.public_view()["banned"] == [] and e.summary()["wrong_rings"] == 0
    assert e.private_view(1)["last_ring"]["result"] == "slower"
    play(e, 0, 1, 4 * S)  # a new card lands: now a ring is judged afresh
    assert kinds(ring(e, 1, 4_100_000)) == ["wrong"]


def test_a_refusal_at_the_bell_or_on_the_phone_is_in_the_players_language() -> None:
    """Out of turn on the phone, in Czech and Polish (the phone shows "The box refused: ...")."""
    from games.i18n import set_language

    e = engine(TWO, players=2, hand_size=2)
    try:
        for language, says in (("cs", "na tahu je hráč 1, ne hráč 2"), ("pl", "ruch ma gracz 1, nie gracz 2")):
            set_language(language)
            with pytest.raises(RuleError) as refused:  # the engine gives an id; the viewer words it
                play(e, 1, 2, 0)
            assert says in refused.value.text()
    finally:
        set_language("en")


def cards_the_ringer_sits_out(ringer: int, rules_version: int) -> tuple[int, int]:
    """Four players; ``ringer`` rings wrong right after seat 0's first card.
    Returns how many cards landed while the bell was closed to them before
    their lost turn, and after it (until the bell opened to them again)."""
    deck = [card(kind, 1) for _ in range(4) for kind in ("apple", "leaf", "star", "mushroom")]
    e = engine(deck, players=4, hand_size=3, threshold=100, rules_version=rules_version)
    t = 0
    play(e, 0, hand(e, 0)[0], t)
    assert kinds(ring(e, ringer, t + 100_000)) == ["wrong"]
    before = after = 0
    lost = False
    while not e.finished and "ring" not in e.legal_actions(ringer):
        t += 2 * S
        events = e.tick(t)
        lost = lost or any(ev.kind == "skipped" and ev.player == ringer for ev in events)
        turn = e.public_view()["turn"]
        if turn is None or "ring" in e.legal_actions(ringer):
            break
        play(e, turn, hand(e, turn)[0], t)
        if "ring" not in e.legal_actions(ringer):
            after, before = (after + 1, before) if lost else (after, before + 1)
    return before, after


@pytest.mark.parametrize("ringer", [0, 1, 2, 3])
def test_a_wrong_ringer_sits_out_the_whole_round_after_the_lost_turn_wherever_they_sit(ringer: int) -> None:
    """The rulebook: the wrong ringer loses the turn and the right to ring for
    the next round. The round after the lost turn is three cards at four
    players, whichever seat rang (the cards before the lost turn depend on the
    seat: they are the ones played before it comes round)."""
    before, after = cards_the_ringer_sits_out(ringer, rules_version=2)
    assert after == 3
    assert before == (ringer - 1) % 4


@pytest.mark.parametrize("ringer", [0, 1, 2, 3])
def test_rules_1_lifted_the_ban_with_the_lost_turn(ringer: int) -> None:
    """Old journals replay under rules 1: the ban ended with the skipped turn,
    so the seat after the card's player sat out no card at all."""
    assert cards_the_ringer_sits_out(ringer, rules_version=1) == ((ringer - 1) % 4, 0)
