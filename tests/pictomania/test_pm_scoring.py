"""Every scoring rule of a Pictomania round, played through the engine.

Four players unless said otherwise: each holds scoring tokens 3, 2, 1 and the
bonus tokens are 3, 2, 2, 1 (three players: 3, 1 and 3, 2, 1; README.md has the
table)."""

from __future__ import annotations

from games.base import Action
from games.pictomania.engine import ADMIT, Phase

SECOND_GAP = 1_000_000

def test_correct_guesses_earn_the_drawers_tokens_in_guess_order(table):
    g = table(players=4).start()
    g.right(2, 0)
    g.wrong(1, 0)
    g.right(3, 0)
    g.all_ring()
    reveal = g.reveal()
    pile = reveal["drawers"][0]["guesses"]
    assert [(x["guesser"], x["correct"], x["token"]) for x in pile] == [
        (2, True, 3), (1, False, 0), (3, True, 2)]
    assert reveal["earned"][2] == 3 and reveal["earned"][3] == 2
    # the drawer kept the 1: one player did not guess them right
    assert reveal["drawers"][0]["kept"] == [1]
    assert reveal["kept"][0] == 1


def test_round_score_is_tokens_plus_bonus_minus_kept(table):
    g = table(players=4).start()
    for drawer in range(4):
        for guesser in range(4):
            if guesser != drawer and not (drawer == 0 and guesser == 1):
                g.right(guesser, drawer)
    g.all_ring()  # players ring 0, 1, 2, 3: bonus 3, 2, 2, 1
    reveal = g.reveal()
    assert reveal["bonus"] == [3, 2, 2, 1]
    for p in range(4):
        assert reveal["scores"][p] == reveal["earned"][p] + reveal["bonus_score"][p] - reveal["kept"][p]
    # player 1 skipped drawer 0: drawer 0 keeps its last token, the 1; player 1 earned less
    assert reveal["kept"] == [1, 0, 0, 0]
    assert g.engine.totals == reveal["scores"]


def test_nobody_guessed_the_drawer_loses_the_bonus(table):
    g = table(players=4).start()
    g.right(0, 1)
    g.right(0, 2)
    g.right(1, 2)
    g.right(2, 1)
    g.right(3, 1)
    g.right(3, 2)
    g.right(1, 0)
    g.right(2, 0)
    # nobody guesses 3 (and nobody guesses wrong, so no black sheep)
    g.all_ring()
    reveal = g.reveal()
    assert reveal["black_sheep"] is None
    assert reveal["bonus"][3] == 1
    assert reveal["bonus_score"][3] == 0
    assert reveal["drawers"][3]["kept"] == [3, 2, 1]
    # player 3 was third on drawers 1 and 2 (1 + 1), kept all 6 of its own
    assert reveal["earned"][3] == 2
    assert reveal["scores"][3] == 2 + 0 - 6
    assert reveal["bonus_score"][0] == 3  # the others were guessed: bonus counts


def test_the_single_player_with_most_wrong_guesses_is_the_black_sheep(table):
    g = table(players=4).start()
    g.wrong(1, 0)
    g.wrong(1, 2)
    g.wrong(2, 0)
    g.right(3, 0)
    g.right(0, 1)
    g.right(0, 2)
    g.right(0, 3)
    g.bell(1)  # the black sheep rings first and takes the 3
    g.all_ring()
    reveal = g.reveal()
    assert reveal["wrong_guesses"] == [0, 2, 1, 0]
    assert reveal["black_sheep"] == 1
    assert reveal["bonus"][1] == 3
    assert reveal["bonus_score"][1] == -3
    # player 1 was guessed (by 0), so only the sheep rule applies: -3, kept 2 + 1 (two did not guess)
    assert reveal["scores"][1] == 0 - 3 - 3


def test_a_tie_for_most_wrong_guesses_makes_no_black_sheep(table):
    g = table(players=4).start()
    g.wrong(1, 0)
    g.wrong(2, 0)
    g.right(3, 0)
    g.right(0, 1)
    g.right(0, 2)
    g.right(0, 3)
    g.all_ring()
    reveal = g.reveal()
    assert reveal["wrong_guesses"] == [0, 1, 1, 0]
    assert reveal["black_sheep"] is None
    assert reveal["black_sheep_tied"] == [1, 2]
    assert all(b >= 0 for b in reveal["bonus_score"])


def test_an_unguessed_black_sheep_still_counts_the_bonus_negative(table):
    g = table(players=4).start()
    g.wrong(3, 0)
    g.wrong(3, 1)
    g.right(0, 1)
    g.right(0, 2)
    g.right(1, 0)
    g.all_ring()  # player 3 rings last: bonus 1
    reveal = g.reveal()
    assert reveal["black_sheep"] == 3
    assert reveal["bonus_score"][3] == -1


def test_an_admitted_wrong_drawing_pays_nobody_and_its_bonus_is_returned(table):
    g = table(players=4).start()
    g.right(1, 0)  # right by luck: still no token
    g.wrong(2, 0)  # wrong on the admitted drawer: not held against player 2
    g.wrong(2, 3)  # ... but this one is
    g.wrong(3, 1)
    g.wrong(3, 2)
    g.right(0, 1)  # the admitting player's own guesses still score
    g.right(1, 2)
    g.send(Action(ADMIT, g.t + 1, 0))
    g.all_ring()
    reveal = g.reveal()
    drawer0 = reveal["drawers"][0]
    assert drawer0["admitted"] is True
    assert [x["token"] for x in drawer0["guesses"]] == [0, 0]
    assert drawer0["kept"] == [3, 2, 1]
    assert reveal["bonus_score"][0] == 0 and reveal["bonus"][0] == 3
    assert reveal["earned"][0] == 3
    assert reveal["scores"][0] == 3 + 0 - 6
    # without the admission player 2 would tie 3 on two wrong guesses: now 3 is the sheep
    assert reveal["wrong_guesses"] == [0, 0, 1, 2]
    assert reveal["black_sheep"] == 3


def test_the_host_can_admit_for_a_player_after_everyone_is_done(table):
    g = table(players=3).start()
    g.right(1, 0)
    g.all_ring()
    assert g.engine.phase is Phase.REVIEW
    g.send(Action(ADMIT, g.t + 1, None, {"player": 0}))
    assert g.reveal()["drawers"][0]["guesses"][0]["token"] == 0


def test_harsher_game_ends_when_the_last_bonus_token_is_taken(table):
    g = table(players=3, harsher=True).start()
    assert g.engine.public_view()["bonus_left"] == [3, 2]
    g.right(0, 1)
    g.right(1, 0)
    g.bell(0)
    g.bell(1)
    g.settle()
    view = g.engine.public_view()
    assert view["phase"] == "review"
    assert view["status"] == ["done", "done", "out"]
    assert view["bonus"] == [3, 2, None]
    reveal = g.reveal()
    assert reveal["bonus_score"][2] == 0
    assert reveal["kept"][2] == 3 + 1  # nobody guessed player 2 in time


def test_players_finishing_together_on_the_bell_share_the_better_token(table):
    g = table(players=3).start()
    for d in range(3):
        for p in range(3):
            if p != d:
                g.right(p, d)
    t = g.t + SECOND_GAP
    g.bell(2, at=t, precision=100)
    g.bell(0, at=t + 60, precision=100)  # 60 µs apart: closer than the stamps can tell
    g.bell(1, at=t + 5_000)
    g.settle()
    view = g.engine.public_view()
    assert view["bonus"] == [3, 1, 3]
    assert view["bonus_tie"] == [True, False, True]


def test_two_bells_of_one_board_5_us_apart_take_the_tokens_in_order_despite_the_mapping_error(table):
    """Two bells stamped by one board's timer are compared at that timer's
    precision; the error of mapping it onto the box clock (here 500 µs) only
    matters against a press stamped by another clock."""
    g = table(players=3).start()
    t = g.t + SECOND_GAP
    board = "board:1a2b/0"
    g.send(Action("done", t + 5, 0, {}, precision_us=500, clock=board, clock_precision_us=2))
    g.send(Action("done", t, 1, {}, precision_us=500, clock=board, clock_precision_us=2))
    g.send(Action("done", t + 10_000, 2, {}, precision_us=100))
    g.settle()
    assert g.engine.public_view()["bonus"] == [2, 3, 1]
    assert g.engine.public_view()["bonus_tie"] == [False, False, False]


def test_a_board_bell_and_a_gpio_bell_5_us_apart_share_the_better_token(table):
    g = table(players=3).start()
    t = g.t + SECOND_GAP
    g.send(Action("done", t, 0, {}, precision_us=500, clock="board:1a2b/0", clock_precision_us=2))
    g.send(Action("done", t + 5, 1, {}, precision_us=100))  # the box's own clock: the mapping error applies
    g.send(Action("done", t + 10_000, 2, {}, precision_us=100))
    g.settle()
    assert g.engine.public_view()["bonus_tie"] == [True, True, False]


def test_bells_are_ranked_by_their_stamps_not_by_when_they_arrive(table):
    g = table(players=3).start()
    t = g.t + SECOND_GAP
    g.bell(1, at=t + 10_000)
    g.bell(0, at=t)  # stamped earlier, delivered later, before the race was decided
    g.bell(2, at=t + 20_000)
    g.settle()
    assert g.engine.public_view()["bonus"] == [3, 2, 1]
    assert g.engine.public_view()["bonus_tie"] == [False, False, False]


def test_guesses_arriving_closer_than_the_phone_precision_are_a_tie(table):
    g = table(players=4).start()
    t = g.t + SECOND_GAP
    g.right(1, 0, at=t)
    g.right(2, 0, at=t + 15_000)  # 15 ms later: a tie on the phones
    g.right(3, 0, at=t + 200_000)
    g.all_ring()
    pile = g.reveal()["drawers"][0]["guesses"]
    assert [(x["guesser"], x["token"], x["tie"]) for x in pile] == [
        (1, 3, True), (2, 3, True), (3, 1, False)]


def test_token_choice_lets_a_player_take_a_lower_token_or_none(table):
    g = table(players=4).start()  # token_choice is on by default: the rulebook allows it
    g.bell(0, token=2)
    g.bell(1, token=0)
    g.all_ring()
    assert g.engine.public_view()["bonus"] == [2, None, 3, 2]


def test_learning_round_has_no_black_sheep_and_keeps_every_bonus(table):
    g = table(players=4, learning_round=True).start()
    g.wrong(1, 0)
    g.wrong(1, 2)
    g.all_ring()
    reveal = g.reveal()
    assert reveal["black_sheep"] is None
    assert reveal["bonus_score"] == reveal["bonus"]


def test_configured_token_values_are_used(table):
    g = table(players=3, scoring_tokens=[9, 5, 1, 1, 1], bonus_tokens={"3": [7, 6, 0]}).start()
    g.right(1, 0)
    g.right(2, 0)
    g.right(0, 1)
    g.all_ring()
    reveal = g.reveal()
    assert [x["token"] for x in reveal["drawers"][0]["guesses"]] == [9, 5]
    assert reveal["bonus"] == [7, 6, 0]


def test_guesses_of_a_player_left_out_by_the_harsher_game_still_count(table):
    g = table(players=3, harsher=True).start()
    g.right(2, 0)  # player 2 guesses, then the others take both bonus tokens
    g.bell(0)
    g.bell(1)
    g.settle()
    reveal = g.reveal()
    assert g.engine.public_view()["status"][2] == "out"
    assert reveal["earned"][2] == 3
    assert reveal["bonus"][2] is None


def test_an_admission_during_drawing_stays_off_the_screen_until_the_round_ends(table):
    g = table(players=3).start()
    g.send(Action(ADMIT, g.t + 1, 1))
    assert g.engine.public_view()["admitted"] == []
    assert g.engine.private_view(1)["admitted"] is True
    g.all_ring()
    assert g.engine.public_view()["admitted"] == [1]


def test_the_bell_race_is_decided_as_soon_as_no_later_press_could_tie(table):
    """No settle wait of its own (the box's horizon waits for late deliveries): the
    tokens go out once a press stamped later could no longer tie with the last."""
    g = table(players=3).start()
    t = g.t + SECOND_GAP
    g.bell(0, at=t, precision=100)
    assert g.engine.next_deadline_us() == t + 100
    assert g.engine.tick(t + 99) == []
    assert [(e.kind, e.player, e.data["token"]) for e in g.engine.tick(t + 100)] == [("bonus", 0, 3)]


def test_after_a_coarse_phone_done_a_bell_race_waits_for_that_precision(table):
    """A phone's "done" is stamped on arrival (100 ms): once one has been seen, a
    bell race stays open that long, so such a press right after a bell is a tie."""
    g = table(players=4).start()
    t = g.t + SECOND_GAP
    g.bell(0, at=t, precision=100_000, token=3)  # the phone's done
    g.settle()
    g.bell(1, at=t + 1_000_000, precision=100)
    assert g.engine.next_deadline_us() == t + 1_000_000 + 100_000
    g.bell(2, at=t + 1_050_000, precision=100_000, token=2)
    g.settle()
    view = g.engine.public_view()
    assert view["bonus_tie"][1] and view["bonus_tie"][2]
