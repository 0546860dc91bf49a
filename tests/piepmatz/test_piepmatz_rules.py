"""One test per Piepmatz rule and per decision we took (README.md lists them)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import Action, BuzzerBoxError, GameSettings, RuleError
from games.piepmatz.cards import SPECIES, Bird, bird_deck, feeder_deck
from games.piepmatz.engine import (
    OptionError,
    Phase,
    PiepmatzEngine,
    plan_chain,
)
from tests.piepmatz.helpers import (
    HANDS,
    act,
    collect,
    finish_turn,
    game,
    give_seeds,
    hand_ids,
    ids,
    kinds,
    put_pest,
    queue,
)

P0_HAND = HANDS[0]
P1_HAND = HANDS[1]

# ---------------------------------------------------------------- setup and options


def test_two_players_play_without_the_last_species() -> None:
    engine = PiepmatzEngine(GameSettings(2, seed=1))
    species = {card_id.split("-")[0] for card_id, _ in engine.locations() if "-" in card_id}
    assert "bullfinch" not in species
    assert engine.total_birds == 60
    assert PiepmatzEngine(GameSettings(3, seed=1)).total_birds == 72


def test_removed_species_option_keeps_all_six_or_removes_another() -> None:
    assert PiepmatzEngine(GameSettings(2, 1, {"removed_species": None})).total_birds == 72
    engine = PiepmatzEngine(GameSettings(2, 1, {"removed_species": "sparrow"}))
    assert not any(card_id.startswith("sparrow") for card_id, _ in engine.locations())


@pytest.mark.parametrize(("players", "perches"), [(2, 2), (3, 2), (4, 3)])
def test_perches_default_by_player_count(players: int, perches: int) -> None:
    engine = PiepmatzEngine(GameSettings(players, seed=3))
    assert len(engine.public_view()["perches"]) == perches


def test_perches_option_gives_three_perches_to_two_players() -> None:
    engine = PiepmatzEngine(GameSettings(2, 3, {"perches": 3}))
    assert len(engine.public_view()["perches"]) == 3


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"perches": 4}, "'perches'"),
        ({"perches": True}, "'perches'"),
        ({"crows": -1}, "'crows'"),
        ({"squirrels": 13}, "'squirrels'"),
        ({"pair_points": "5"}, "'pair_points'"),
        ({"seed_cards": [1, 1, 1]}, "'seed_cards'"),
        ({"seed_cards": [10, 8]}, "'seed_cards'"),
        ({"majority": "most"}, "'majority'"),
        ({"removed_species": "owl"}, "'removed_species'"),
        ({"bird_deck_top": ["owl-m1"]}, "'bird_deck_top'"),
        ({"bird_deck_top": ["sparrow-m1", "sparrow-m1"]}, "'bird_deck_top'"),
        ({"bird_deck_top": ["bullfinch-m1"]}, "'bird_deck_top'"),
        ({"feeder_deck_top": ["crow-07"]}, "'feeder_deck_top'"),
        ({"colour": "red"}, "'colour'"),
    ],
)
def test_bad_option_is_one_line_naming_it(options: dict[str, object], named: str) -> None:
    with pytest.raises(OptionError) as caught:
        PiepmatzEngine(GameSettings(2, 0, options))
    message = str(caught.value)
    assert named in message and "\n" not in message
    assert isinstance(caught.value, BuzzerBoxError)


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(OptionError, match="2-4 players"):
        PiepmatzEngine(GameSettings(players))


def test_setup_deals_perches_offer_hands_and_a_row_of_four_seed_cards() -> None:
    engine = game(players=3)
    view = engine.public_view()
    assert [p["bird"]["id"] for p in view["perches"]] == ["blackbird-m3", "chaffinch-m6"]
    assert [b["id"] for b in view["offer"]] == ["sparrow-m1", "sparrow-m2", "sparrow-m3"]
    assert view["hand_sizes"] == [4, 4, 4]
    assert hand_ids(engine, 0) == list(P0_HAND)
    assert [c["id"] for c in view["row"]] == ["egg1-01", "egg2-01", "egg3-01", "egg1-02"]
    assert view["pests"] == [None] * 4
    assert view["phase"] == "play" and view["turn"] == 0


def test_pests_drawn_while_setting_up_the_row_are_replaced() -> None:
    engine = game(row=("crow-01", "egg1-01", "squirrel-01", "egg2-01", "egg3-01", "egg1-02"))
    assert ids(engine.row) == ["egg1-01", "egg2-01", "egg3-01", "egg1-02"]
    assert engine.pests == [None] * 4
    assert {"crow-01", "squirrel-01"} <= set(ids(engine.feeder_pile))


def test_deck_counts_match_the_rules_file() -> None:
    assert len(bird_deck()) == 72 and len(SPECIES) == 6
    deck = feeder_deck()
    assert len(deck) == 36
    assert sum(1 for c in deck if c.kind.value == "crow") == 6
    assert sum(1 for c in deck if c.kind.value == "squirrel") == 6
    assert [sum(1 for c in deck if c.eggs == n) for n in (1, 2, 3)] == [10, 8, 6]


# ---------------------------------------------------------------- step 2a: greater


def test_greater_takes_the_seed_card_at_the_difference_and_the_perched_bird() -> None:
    # the review's example: a 3 at the feeder, the queue adds up to 5: position 2
    engine = game(feeder=("egg2-02",))
    events = act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert kinds(events) == ["played", "seed", "perch_change"]
    assert ids(engine.seeds[0]) == ["egg2-01"]
    assert ids(engine.collections[0]) == ["blackbird-m3"]
    assert engine.perches[0].id == "blackbird-f5" and engine.queues[0] == []
    assert engine.row[1] is None  # refilled only in step 3
    finish_turn(engine)
    assert ids(engine.row) == ["egg1-01", "egg2-02", "egg3-01", "egg1-02"]


def test_difference_of_five_or_more_takes_the_top_of_the_feeder_pile() -> None:
    engine = game(
        perches=("blackbird-m1", "chaffinch-m6"),
        hands=(("sparrow-f6", *P0_HAND[1:]), ("chaffinch-f6", "blackbird-f1", "sparrow-f1", "sparrow-f2")),
        feeder=("egg3-02",),
    )
    act(engine, 0, "play", card="sparrow-f6", perch=0)
    assert ids(engine.seeds[0]) == ["egg3-02"]
    assert ids(engine.row) == list(("egg1-01", "egg2-01", "egg3-01", "egg1-02"))


def test_difference_five_with_an_empty_feeder_pile_gives_no_seed() -> None:
    engine = game(
        perches=("blackbird-m1", "chaffinch-m6"),
        hands=(("sparrow-f6", *P0_HAND[1:]), ("blackbird-f1", "sparrow-f1", "sparrow-f2", "sparrow-f3")),
        seed_cards=[4, 0, 0], crows=0, squirrels=0, row=("egg1-01", "egg1-02", "egg1-03", "egg1-04"),
    )
    events = act(engine, 0, "play", card="sparrow-f6", perch=0)
    assert "nothing_at" in kinds(events) and engine.seeds[0] == []
    assert ids(engine.collections[0]) == ["blackbird-m1"]


def test_chain_repeats_while_the_sum_still_exceeds_and_ties_move_the_earliest_up() -> None:
    engine = game(perches=("blackbird-m1", "chaffinch-m6"), hands=(("sparrow-f2", *P0_HAND[1:]), P1_HAND))
    queue(engine, 0, ["greenfinch-f2", "yellowhammer-f2"])
    assert [s.diff for s in plan_chain(engine.perches[0], [*engine.queues[0], engine.hands[0][0]])] == [5, 2]
    events = act(engine, 0, "play", card="sparrow-f2", perch=0)
    changes = [e.data for e in events if e.kind == "perch_change"]
    # 2+2+2 beats 1 by 5 (pile top); the 2 that queued first moves up; 2+2 beats it by 2
    assert [(c["taken"], c["moved_up"]) for c in changes] == [
        ("blackbird-m1", "greenfinch-f2"),
        ("greenfinch-f2", "yellowhammer-f2"),
    ]
    assert ids(engine.collections[0]) == ["blackbird-m1", "greenfinch-f2"]
    assert engine.perches[0].id == "yellowhammer-f2" and ids(engine.queues[0]) == ["sparrow-f2"]
    assert "egg2-01" in ids(engine.seeds[0])  # position 2 paid the second step


def test_chain_hitting_an_already_emptied_position_gives_nothing() -> None:
    engine = game(perches=("blackbird-m4", "chaffinch-m6"), hands=(("sparrow-f1", *P0_HAND[1:]), P1_HAND))
    queue(engine, 0, ["greenfinch-f2", "yellowhammer-f2"])
    events = act(engine, 0, "play", card="sparrow-f1", perch=0)
    # 5 beats 4 by 1; then 2+1 beats the moved-up 2 by 1 again: position 1 is already empty
    assert [e.data.get("diff") for e in events if e.kind in ("seed", "nothing_at")] == [1, 1]
    assert kinds(events).count("nothing_at") == 1
    assert ids(engine.seeds[0]) == ["egg1-01"]
    assert len(engine.collections[0]) == 2


def test_play_preview_lists_the_chain_a_phone_can_show() -> None:
    engine = game()
    move = next(
        m for m in engine.legal_moves(0) if m.args == {"card": "blackbird-f5", "perch": 0}
    )
    assert move.preview == {"sum": 5, "perched": 3, "diffs": [2], "birds": ["blackbird-m3"]}


# ---------------------------------------------------------------- pests


def test_at_a_squirrels_position_the_player_takes_the_seed_card_then_loses_two() -> None:
    """The player takes the seed card where a squirrel lies, then the squirrel
    steals two of their seed cards at random (the new one among them)."""
    engine = game()
    give_seeds(engine, 0, ["egg3-02", "egg1-03", "egg2-02"])
    put_pest(engine, 2, "squirrel-01")
    events = act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert kinds(events)[:4] == ["played", "seed", "strike", "seeds_lost"]
    assert engine.row[1] is None  # taken (the row refills at the end of the turn)
    stolen = next(e.data["cards"] for e in events if e.kind == "seeds_lost")
    assert len(stolen) == 2 and len(engine.seeds[0]) == 2
    assert set(ids(engine.seeds[0])) | set(stolen) == {"egg3-02", "egg1-03", "egg2-02", "egg2-01"}
    assert engine.pests[1] is None
    assert {"squirrel-01", *stolen} <= set(ids(engine.feeder_discard))
    assert ids(engine.collections[0]) == ["blackbird-m3"]  # the perched bird is still won


def test_rules_1_let_the_pest_strike_instead_and_the_seed_card_stayed() -> None:
    """Old journals replay under rules 1: the pest struck instead of the seed card."""
    engine = game(rules_version=1)
    give_seeds(engine, 0, ["egg3-02", "egg1-03", "egg2-02"])
    put_pest(engine, 2, "squirrel-01")
    events = act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert "seed" not in kinds(events) and "strike" in kinds(events)
    assert len(engine.seeds[0]) == 1
    assert engine.row[1] is not None and engine.row[1].id == "egg2-01"  # the seed stayed


def test_squirrel_with_fewer_than_two_seed_cards_takes_what_there_is() -> None:
    engine = game()
    give_seeds(engine, 0, ["egg3-02"])
    put_pest(engine, 2, "squirrel-01")
    act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert engine.seeds[0] == []


def test_squirrel_choice_of_seed_cards_is_seeded() -> None:
    lost = []
    for _ in range(2):
        engine = game(seed=7)
        give_seeds(engine, 0, ["egg3-02", "egg1-03", "egg2-02", "egg1-04"])
        put_pest(engine, 2, "squirrel-01")
        act(engine, 0, "play", card="blackbird-f5", perch=0)
        lost.append(ids(engine.seeds[0]))
    assert lost[0] == lost[1]


def test_crow_waits_for_the_players_choice_among_tied_largest_species() -> None:
    engine = game()
    collect(engine, 0, ["sparrow-f4", "sparrow-f5", "greenfinch-f5", "greenfinch-f6", "yellowhammer-f6"])
    put_pest(engine, 2, "crow-01")
    events = act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert engine.phase is Phase.CROW and kinds(events) == ["played", "seed", "strike"]
    assert ids(engine.seeds[0]) == ["egg2-01"]  # the seed card is taken before the crow strikes
    choices = {m.args["card"] for m in engine.legal_moves(0)}
    assert choices == {"sparrow-f4", "sparrow-f5", "greenfinch-f5", "greenfinch-f6"}
    assert engine.public_view()["crow_choice"]
    with pytest.raises(RuleError, match="largest species"):
        act(engine, 0, "crow", card="yellowhammer-f6")
    events = act(engine, 0, "crow", card="greenfinch-f6")
    assert kinds(events)[:2] == ["bird_lost", "perch_change"]  # then the chain goes on
    assert "greenfinch-f6" not in ids(engine.collections[0])
    assert ids(engine.bird_discard) == ["greenfinch-f6"]
    assert "blackbird-m3" in ids(engine.collections[0])
    assert engine.phase is Phase.TAKE


def test_crow_with_one_bird_in_the_largest_species_takes_it_without_asking() -> None:
    engine = game()
    collect(engine, 0, ["sparrow-f4"])
    put_pest(engine, 2, "crow-01")
    act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert ids(engine.bird_discard) == ["sparrow-f4"]
    assert ids(engine.collections[0]) == ["blackbird-m3"]  # the strike comes before the perched bird
    assert ids(engine.seeds[0]) == ["egg2-01"]


def test_crow_with_an_empty_collection_strikes_at_nothing() -> None:
    engine = game()
    put_pest(engine, 2, "crow-01")
    events = act(engine, 0, "play", card="blackbird-f5", perch=0)
    assert "strike" in kinds(events) and engine.bird_discard == []
    assert ids(engine.feeder_discard) == ["crow-01"]


def test_pests_revealed_in_refill_lie_beside_the_row_from_the_feeder_outward() -> None:
    engine = game(feeder=("crow-01", "squirrel-01", "egg2-02"))
    act(engine, 0, "play", card="blackbird-f5", perch=0)  # takes position 2
    events = finish_turn(engine)
    assert [(e.data["position"], e.data["card"]) for e in events if e.kind == "pest"] == [
        (1, "crow-01"),
        (2, "squirrel-01"),
    ]
    assert ids(engine.row)[1] == "egg2-02"


def test_a_pest_with_all_four_places_covered_is_discarded() -> None:
    engine = game(feeder=("crow-05", "crow-06", "egg2-02"))
    for position, pest in ((2, "crow-01"), (3, "squirrel-01"), (4, "squirrel-02")):
        put_pest(engine, position, pest)
    act(engine, 0, "play", card="yellowhammer-m4", perch=0)  # 4 beats 3 by 1: row position 1
    events = finish_turn(engine)
    assert ids(engine.pests) == ["crow-05", "crow-01", "squirrel-01", "squirrel-02"]
    assert "pest_discarded" in kinds(events) and ids(engine.feeder_discard) == ["crow-06"]
    assert ids(engine.row)[0] == "egg2-02"


# ---------------------------------------------------------------- step 2b: not greater


def test_not_greater_lays_a_hand_card_no_higher_than_the_played_bird() -> None:
    engine = game()
    events = act(engine, 0, "play", card="yellowhammer-m4", perch=1)  # 4 vs 6
    assert kinds(events) == ["played"] and engine.phase is Phase.LAY
    assert {m.args["card"] for m in engine.legal_moves(0)} == {"chaffinch-f2", "greenfinch-m1"}
    with pytest.raises(RuleError, match="value <= 4"):
        act(engine, 0, "lay", card="blackbird-f5")
    act(engine, 0, "lay", card="chaffinch-f2")
    assert ids(engine.collections[0]) == ["chaffinch-f2"]
    assert engine.phase is Phase.TAKE and len(engine.hands[0]) == 2


def test_an_equal_sum_is_not_greater() -> None:
    engine = game(hands=(("sparrow-f6", "greenfinch-m1", "chaffinch-f2", "blackbird-f5"), P1_HAND))
    act(engine, 0, "play", card="sparrow-f6", perch=1)  # 6 vs 6
    assert engine.phase is Phase.LAY and engine.seeds[0] == [] and engine.collections[0] == []


def test_not_greater_with_one_candidate_lays_it_without_asking() -> None:
    engine = game(hands=(("greenfinch-m2", "greenfinch-m1", "chaffinch-f5", "blackbird-f5"), P1_HAND))
    events = act(engine, 0, "play", card="greenfinch-m2", perch=1)
    assert "laid" in kinds(events) and ids(engine.collections[0]) == ["greenfinch-m1"]


def test_not_greater_with_no_low_enough_card_lays_nothing() -> None:
    engine = game(hands=(("greenfinch-m1", "sparrow-f5", "chaffinch-f5", "blackbird-f5"), P1_HAND))
    events = act(engine, 0, "play", card="greenfinch-m1", perch=1)
    assert "no_lay" in kinds(events) and engine.collections[0] == []
    assert engine.phase is Phase.TAKE


# ---------------------------------------------------------------- step 3: refill


def test_hand_refills_to_four_from_the_offer_which_refills_from_the_bird_pile() -> None:
    engine = game(pile=("sparrow-m5", "sparrow-m6"))
    act(engine, 0, "play", card="yellowhammer-m4", perch=1)
    act(engine, 0, "lay", card="chaffinch-f2")
    assert engine.phase is Phase.TAKE and engine.legal_actions(0) == ["take"]
    with pytest.raises(RuleError, match="not in the offer"):
        act(engine, 0, "take", card="sparrow-m5")
    act(engine, 0, "take", card="sparrow-m2")
    assert ids(engine.offer) == ["sparrow-m1", "sparrow-m3", "sparrow-m5"]
    act(engine, 0, "take", card="sparrow-m5")  # the new card can be chosen at once
    assert len(engine.hands[0]) == 4 and ids(engine.offer) == ["sparrow-m1", "sparrow-m3", "sparrow-m6"]
    assert engine.current == 1 and engine.phase is Phase.PLAY


def test_feeder_running_out_mid_refill_fills_what_it_can_and_triggers_the_end() -> None:
    engine = game(
        perches=("blackbird-m1", "chaffinch-m6"),
        hands=(("sparrow-f1", *P0_HAND[1:]), ("chaffinch-f6", "blackbird-f1", "sparrow-f4", "sparrow-f5")),
        seed_cards=[5, 0, 0], crows=0, squirrels=0,
        row=("egg1-01", "egg1-02", "egg1-03", "egg1-04"), feeder=("egg1-05",),
    )
    queue(engine, 0, ["greenfinch-f1", "yellowhammer-f1"])
    act(engine, 0, "play", card="sparrow-f1", perch=0)  # 3 beats 1 by 2, then 2 beats 1 by 1
    assert ids(engine.seeds[0]) == ["egg1-02", "egg1-01"]
    events = finish_turn(engine)
    assert "end_triggered" in kinds(events)
    assert engine.row[0] is not None and engine.row[0].id == "egg1-05" and engine.row[1] is None
    assert engine.public_view()["last_round"] and engine.public_view()["end_reason"] == "feeder_empty"


def test_feeder_empty_with_a_gap_left_triggers_the_end_and_leaves_the_gap() -> None:
    engine = game(
        seed_cards=[4, 0, 0], crows=0, squirrels=0, row=("egg1-01", "egg1-02", "egg1-03", "egg1-04"),
    )
    act(engine, 0, "play", card="blackbird-f5", perch=0)
    events = finish_turn(engine)
    assert "end_triggered" in kinds(events) and engine.row[1] is None


# ---------------------------------------------------------------- the end


def _trigger_end_at(players: int, trigger_seat: int) -> PiepmatzEngine:
    """A game whose feeder runs out in seat ``trigger_seat``'s first turn."""
    engine = game(
        players=players,
        seed_cards=[4, 0, 0], crows=0, squirrels=0, row=("egg1-01", "egg1-02", "egg1-03", "egg1-04"),
        perches=("blackbird-m6", "chaffinch-m6"),
    )
    for _ in range(trigger_seat):  # quiet turns: 1 against 6, lay what is forced
        seat = engine.current
        low = min(engine.hands[seat], key=lambda b: b.value)
        act(engine, seat, "play", card=low.id, perch=engine.current % 2)
        if engine.phase is Phase.LAY:
            act(engine, seat, "lay", card=engine.legal_moves(seat)[0].args["card"])
        finish_turn(engine)
        assert engine.end_reason is None
    seat = engine.current
    high = engine.hands[seat][0]
    need = 7 - sum(b.value for b in engine.queues[0]) - high.value  # beat the 6 by 1
    if need > 0:
        queue(engine, 0, [f"sparrow-f{need}"])
    act(engine, seat, "play", card=high.id, perch=0)
    finish_turn(engine)
    assert engine.end_reason is not None
    return engine


def test_the_round_is_played_to_its_end_after_the_trigger() -> None:
    engine = _trigger_end_at(players=3, trigger_seat=0)
    assert engine.phase is Phase.PLAY and engine.current == 1
    for seat in (1, 2):
        move = engine.legal_moves(seat)[0]
        act(engine, seat, move.kind, **move.args)
        while engine.current == seat and engine.phase is not Phase.FINAL:
            move = engine.legal_moves(seat)[0]
            act(engine, seat, move.kind, **move.args)
        if seat == 1:  # the triggering round is not over yet: player 2 still plays
            assert engine.phase is Phase.PLAY and engine.current == 2
    assert engine.phase is Phase.FINAL and engine.public_view()["status"] == ["turn"] * 3


def test_trigger_in_the_last_seats_turn_goes_straight_to_the_final_cards() -> None:
    engine = _trigger_end_at(players=2, trigger_seat=1)
    assert engine.phase is Phase.FINAL


def test_final_cards_every_player_lays_two_then_the_game_is_scored() -> None:
    engine = _trigger_end_at(players=2, trigger_seat=1)
    hand0 = hand_ids(engine, 0)
    with pytest.raises(RuleError, match="exactly 2"):
        act(engine, 0, "final", cards=hand0[:1])
    with pytest.raises(RuleError, match="exactly 2"):
        act(engine, 0, "final", cards=[hand0[0], hand0[0]])
    before = engine.public_view()
    events = act(engine, 0, "final", cards=hand0[:2])
    assert [(e.kind, e.data) for e in events] == [("final_chosen", {})]  # no card named
    assert len(engine.hands[0]) == 2 and not set(hand0[:2]) & set(ids(engine.collections[0]))
    view = engine.public_view()
    assert view["status"] == ["idle", "turn"] and view["final_chosen"] == [0]
    assert view["collections"] == before["collections"] and view["scores"] == before["scores"]
    assert not any(card in json.dumps(view) for card in hand0[:2])  # face down on the shared screen
    assert [b["id"] for b in engine.private_view(0)["final_chosen"]] == hand0[:2]  # the own phone shows them
    assert engine.private_view(1)["final_chosen"] == []
    with pytest.raises(RuleError, match="waiting for the others"):
        act(engine, 0, "final", cards=hand0[2:])
    hand1 = hand_ids(engine, 1)[:2]
    events = act(engine, 1, "final", cards=hand1)
    assert kinds(events) == ["final_chosen", "final_revealed", "game_over"] and engine.finished
    assert next(e for e in events if e.kind == "final_revealed").data["cards"] == [hand0[:2], hand1]
    assert set(hand0[:2]) <= set(ids(engine.collections[0])) and set(hand1) <= set(ids(engine.collections[1]))
    assert engine.summary()["winners"] == engine.winners != []
    with pytest.raises(RuleError, match="over"):
        act(engine, 1, "play", card="x", perch=0)


def test_bird_supply_running_out_triggers_the_end() -> None:
    engine = game(players=2)
    engine.bird_discard += engine.bird_pile  # as if the birds were all used up
    engine.bird_pile.clear()
    act(engine, 0, "play", card="yellowhammer-m4", perch=1)
    act(engine, 0, "lay", card="chaffinch-f2")
    finish_turn(engine)  # two of the three offer cards: still a choice
    assert engine.end_reason is None and len(engine.hands[0]) == 4 and len(engine.offer) == 1
    # 3 against 3, the one card <= 3 is laid, the last offer card is taken: the hand stays short
    events = act(engine, 1, "play", card="greenfinch-f3", perch=0)
    assert kinds(events).count("laid") == 1 and "took_offer" in kinds(events)
    assert "end_triggered" in kinds(events) and engine.public_view()["end_reason"] == "birds_empty"
    assert engine.phase is Phase.FINAL  # player 1 closed the round


def test_a_player_with_an_empty_hand_passes() -> None:
    engine = game(players=3)
    engine.bird_discard += engine.hands[1]  # player 1 has run out of birds
    engine.hands[1].clear()
    act(engine, 0, "play", card="blackbird-f5", perch=0)
    events = finish_turn(engine)
    assert [(e.kind, e.player) for e in events][-2:] == [("pass", 1), ("turn", 2)]
    assert engine.current == 2 and engine.phase is Phase.PLAY


# ---------------------------------------------------------------- scoring


def _scored(
    collections: list[list[str]], seeds: list[list[str]] | None = None, **options: Any
) -> list[dict[str, int]]:
    engine = game(players=len(collections), **options)
    for player, cards in enumerate(collections):
        collect(engine, player, cards)
    for player, cards in enumerate(seeds or []):
        give_seeds(engine, player, cards)
    parts: list[dict[str, int]] = engine.public_view()["score_parts"]
    return parts


def test_a_pair_scores_five_and_a_near_pair_nothing() -> None:
    parts = _scored([["sparrow-m4", "sparrow-f4", "greenfinch-m5", "greenfinch-f6"], []])
    assert parts[0]["pairs"] == 5 and parts[0]["pair_count"] == 1


def test_pair_points_option() -> None:
    parts = _scored([["sparrow-m4", "sparrow-f4"], []], pair_points=3)
    assert parts[0]["pairs"] == 3


def test_each_egg_scores_one() -> None:
    parts = _scored([[], []], [["egg3-02", "egg2-02", "egg1-03"], ["egg1-04"]])
    assert [p["eggs"] for p in parts] == [6, 1]


def test_only_the_species_leader_scores_its_unpaired_birds() -> None:
    parts = _scored(
        [["sparrow-m4", "sparrow-f4", "sparrow-m5"], ["sparrow-f6", "sparrow-f5"]]
    )
    # player 0 leads sparrows 3 to 2: one sparrow not in a pair scores; player 1 nothing
    assert [p["majority"] for p in parts] == [1, 0]


def test_tied_species_leaders_all_score() -> None:
    parts = _scored([["greenfinch-m4", "greenfinch-m5"], ["greenfinch-f6", "greenfinch-f1"]])
    assert [p["majority"] for p in parts] == [2, 2]


def test_majority_all_option_counts_paired_birds_too() -> None:
    parts = _scored([["sparrow-m4", "sparrow-f4", "sparrow-m5"], []], majority="all")
    assert parts[0]["majority"] == 3 and parts[0]["total"] == 8


def _grab(engine: PiepmatzEngine, card_id: str) -> str:
    for pile in (engine.bird_pile, engine.offer, engine.bird_discard):
        for bird in pile:
            if bird.id == card_id:
                pile.remove(bird)
                return card_id
    raise AssertionError(f"{card_id} is not free")


def test_a_tied_total_shares_the_win() -> None:
    engine = _trigger_end_at(players=2, trigger_seat=1)
    wanted = (("sparrow-m4", "greenfinch-m5"), ("yellowhammer-f5", "chaffinch-f4"))
    for player in (0, 1):  # empty everything they had, then hand them two cards each
        engine.bird_discard += engine.hands[player] + engine.collections[player]
        engine.feeder_discard += engine.seeds[player]
        engine.hands[player].clear()
        engine.collections[player].clear()
        engine.seeds[player].clear()
        for card_id in wanted[player]:
            _grab(engine, card_id)
    for player in (0, 1):
        engine.hands[player] += [Bird.from_id(c) for c in wanted[player]]
    act(engine, 0, "final", cards=list(wanted[0]))
    act(engine, 1, "final", cards=list(wanted[1]))
    assert engine.summary()["scores"] == [2, 2]  # two species led by one bird each
    assert engine.winners == [0, 1] and engine.public_view()["status"] == ["won", "won"]


# ---------------------------------------------------------------- turn order and views


def test_out_of_turn_and_wrong_step_are_refused_and_change_nothing() -> None:
    engine = game()
    before = json.dumps([engine.public_view(), engine.private_view(0), engine.private_view(1)])
    with pytest.raises(RuleError, match="player 1's turn"):
        act(engine, 1, "play", card="blackbird-f1", perch=0)
    with pytest.raises(RuleError, match="now: playing a bird behind a perch"):
        act(engine, 0, "take", card="sparrow-m1")
    with pytest.raises(RuleError, match="not in your hand"):
        act(engine, 0, "play", card="blackbird-f1", perch=0)
    with pytest.raises(RuleError, match="perch 2 does not exist"):
        act(engine, 0, "play", card="blackbird-f5", perch=2)
    with pytest.raises(RuleError, match="no player 6"):
        act(engine, 5, "play", card="blackbird-f5", perch=0)
    with pytest.raises(RuleError, match="unknown action"):
        act(engine, 0, "bell")
    after = json.dumps([engine.public_view(), engine.private_view(0), engine.private_view(1)])
    assert after == before


def test_host_shown_and_resume_change_nothing() -> None:
    engine = game()
    before = engine.public_view()
    assert engine.handle(Action("shown", 5, None)) == []
    assert engine.handle(Action("resume", 6, None, {"paused_us": 3})) == []
    assert engine.public_view() == before
    assert engine.next_deadline_us() is None and engine.tick(10**9) == []
    with pytest.raises(RuleError, match="host action"):
        engine.handle(Action("play", 7, None, {"card": "blackbird-f5", "perch": 0}))


def test_legal_moves_list_every_card_on_every_perch_for_the_current_player_only() -> None:
    engine = game()
    moves = engine.legal_moves(0)
    assert {(m.args["card"], m.args["perch"]) for m in moves} == {
        (c, p) for c in P0_HAND for p in (0, 1)
    }
    assert engine.legal_moves(1) == [] and engine.legal_actions(1) == []
    assert engine.legal_actions(0) == ["play"]
    for move in moves:  # every listed move is accepted
        probe = game()
        act(probe, 0, move.kind, **move.args)


def test_private_view_shows_only_its_own_hand() -> None:
    engine = game()
    mine = engine.private_view(1)
    assert [b["id"] for b in mine["hand"]] == hand_ids(engine, 1)
    assert not set(hand_ids(engine, 0)) & set(json.dumps(mine).replace('"', " ").split())
    assert mine["your_turn"] is False and mine["legal_moves"] == []


@pytest.mark.parametrize(("language", "turn", "hand"), [
    ("cs", "na tahu je hráč 1, ne hráč 2", "není ve vašich kartách"),
    ("pl", "ruch ma gracz 1, nie gracz 2", "nie ma w twojej ręce"),
])
def test_refusals_a_phone_shows_are_in_the_players_language(language: str, turn: str, hand: str) -> None:
    from games.i18n import set_language

    engine = game()
    set_language(language)
    try:
        with pytest.raises(RuleError) as refused:  # the engine gives an id; the viewer words it
            act(engine, 1, "play", card="blackbird-f1", perch=0)
        assert turn in refused.value.text()
        with pytest.raises(RuleError) as refused:
            act(engine, 0, "play", card="blackbird-f1", perch=0)
        assert hand in refused.value.text()
    finally:
        set_language("en")
