"""What a Pictomania table is allowed to do, when, and what the box refuses."""

from __future__ import annotations

import copy

import pytest

from games.base import Action, BuzzerBoxError, Engine, GameSettings, RuleError
from games.pictomania.engine import (
    CHOOSE,
    DONE,
    GUESS,
    NEXT,
    START,
    SWAP,
    PictomaniaEngine,
    PictomaniaError,
    PictomaniaOptions,
)


def test_the_engine_meets_the_contract(table):
    assert isinstance(table().engine, Engine)


def test_every_player_gets_a_different_number_and_a_letter(table):
    for seed in range(30):
        g = table(players=6, seed=seed).start()
        secrets = [g.engine.private_view(p)["secret"] for p in range(6)]
        assert len({s["number"] for s in secrets}) == 6
        assert sorted(s["letter"] for s in secrets) == ["A", "A", "B", "B", "C", "C"]
        for s in secrets:
            card = next(c for c in g.engine.public_view()["cards"] if c["letter"] == s["letter"])
            assert card["words"][s["number"] - 1] == s["word"]


@pytest.mark.parametrize("bad", [
    {"drawer": 0, "number": 3},  # on oneself
    {"drawer": 1, "number": 8},
    {"drawer": 9, "number": 1},
    {"drawer": 1},
])
def test_impossible_guesses_are_refused_and_change_nothing(table, bad):
    g = table(players=3).start()
    before = copy.deepcopy((g.engine.public_view(), g.engine.private_view(0)))
    with pytest.raises(RuleError):
        g.send(Action(GUESS, g.t + 1, 0, bad))
    assert (g.engine.public_view(), g.engine.private_view(0)) == before


def test_a_guess_cannot_be_taken_back_or_repeated(table):
    g = table(players=4).start()
    g.guess(0, 1, 5)
    with pytest.raises(RuleError, match="already guessed player 2"):
        g.guess(0, 1, 6)
    # one guess card per number: 5 lies on player 1 already
    with pytest.raises(RuleError, match="guess card 5"):
        g.guess(0, 2, 5)
    assert g.engine.private_view(0)["guesses"] == [{"drawer": 1, "number": 5, "t_us": g.t - 2_000_000}]


def test_after_the_bell_a_player_may_neither_guess_nor_ring_again(table):
    g = table(players=3).start()
    g.bell(0)
    assert g.engine.public_view()["status"][0] == "ringing"
    with pytest.raises(RuleError, match="done"):
        g.right(0, 1)
    with pytest.raises(RuleError):
        g.bell(0)
    g.settle()
    assert g.engine.public_view()["status"] == ["done", "drawing", "drawing"]


def test_guessing_marks_the_player_as_guessing(table):
    g = table(players=3).start()
    g.right(1, 0)
    assert g.engine.public_view()["status"] == ["drawing", "guessing", "drawing"]


def test_choosing_a_bonus_token_needs_the_option(table):
    g = table(players=3, token_choice=False).start()
    with pytest.raises(RuleError, match="token_choice"):
        g.bell(0, token=1)


def test_a_held_token_choice_never_rings_and_the_bell_applies_it(table):
    """The phone's "take a lower token or none" is only held; the station's bell takes it."""
    g = table(players=3).start()
    assert [m["args"] for m in g.engine.legal_moves(1) if m["kind"] == CHOOSE] == [
        {}, {"token": 2}, {"token": 1}, {"token": 0}]
    events = g.send(Action(CHOOSE, g._at(None), 1, {"token": 0}))
    assert [e.kind for e in events] == ["token_choice"]
    assert g.engine.public_view()["status"][1] == "drawing"  # not done, not ringing
    assert g.engine.private_view(1)["token_choice"] == 0
    g.send(Action(CHOOSE, g._at(None), 2, {"token": 1}))
    g.send(Action(CHOOSE, g._at(None), 2, {}))  # changed their mind: the highest again
    g.bell(1)
    g.bell(2)
    g.settle()
    view = g.engine.public_view()
    assert view["bonus"][1] in (None, 0) and view["bonus"][2] == 3  # none for 1; the highest for 2
    assert view["bonus_left"] == [2, 1]
    with pytest.raises(RuleError, match="done"):
        g.send(Action(CHOOSE, g._at(None), 1, {"token": 2}))  # rung: too late to choose
    off = table(players=3, token_choice=False).start()
    assert not [m for m in off.engine.legal_moves(0) if m["kind"] == CHOOSE]
    with pytest.raises(RuleError, match="token_choice"):
        off.send(Action(CHOOSE, off._at(None), 0, {"token": 0}))


def test_no_guess_before_the_secrets_are_dealt_nor_after_the_round(table):
    g = table(players=3)
    with pytest.raises(RuleError):
        g.guess(0, 1, 1)
    g.start()
    g.all_ring()
    with pytest.raises(RuleError):
        g.guess(0, 1, 1)


def test_a_word_card_nobody_knows_can_be_swapped_before_the_deal(table):
    g = table(players=3)
    before = [c["theme"] for c in g.engine.public_view()["cards"]]
    g.send(Action(SWAP, 1, None, {"card": "B"}))
    after = [c["theme"] for c in g.engine.public_view()["cards"]]
    assert after[0] == before[0] and after[2] == before[2] and after[1] != before[1]
    g.start()
    with pytest.raises(RuleError, match="only when the word cards are on show"):
        g.send(Action(SWAP, g.t + 1, None, {"card": "A"}))
    with pytest.raises(RuleError, match="allow_swap"):
        table(players=3, allow_swap=False).send(Action(SWAP, 1, None, {"card": "A"}))


def _play_quiet_game(g):
    themes = []
    while not g.engine.finished:
        themes.append((g.engine.public_view()["deck"], [c["theme"] for c in g.engine.public_view()["cards"]]))
        g.start()
        g.all_ring()
        g.reveal()
        g.send(Action(NEXT, g.t + 1))
        g.t += 1
    return themes


def test_rounds_rise_through_the_four_decks_and_no_card_comes_back(table):
    themes = _play_quiet_game(table(players=3))
    assert [deck for deck, _ in themes] == [1, 2, 3, 4]
    shown = [(deck, t) for deck, ts in themes for t in ts]
    assert len(shown) == len(set(shown)) == 12


def test_the_easiest_plan_plays_deck_one_every_round_without_repeats(table):
    themes = _play_quiet_game(table(players=3, deck_plan="easiest"))
    assert [deck for deck, _ in themes] == [1, 1, 1, 1]
    shown = [t for _, ts in themes for t in ts]
    assert len(shown) == len(set(shown)) == 12


def test_totals_add_the_round_scores_and_tied_leaders_share_the_win(table):
    g = table(players=3)
    _play_quiet_game(g)
    summary = g.engine.summary()
    assert summary["finished"] and summary["rounds_played"] == 4
    assert summary["scores"] == [sum(r["scores"][p] for r in summary["rounds"]) for p in range(3)]
    # nobody guessed anything: every round everyone keeps 3 + 1 (3 players) and loses the bonus
    assert summary["scores"] == [-16, -16, -16]
    assert summary["winners"] == [0, 1, 2]
    assert g.engine.legal_actions(0) == []


def test_legal_moves_list_concrete_guesses_for_the_phone(table):
    g = table(players=3).start()
    moves = g.engine.legal_moves(0)
    guesses = [m["args"] for m in moves if m["kind"] == GUESS]
    assert {a["drawer"] for a in guesses} == {1, 2}
    assert len(guesses) == 14
    g.guess(0, 1, 4)
    guesses = [m["args"] for m in g.engine.legal_moves(0) if m["kind"] == GUESS]
    assert guesses == [{"drawer": 2, "number": k} for k in (1, 2, 3, 5, 6, 7)]
    assert {"kind": DONE, "args": {}} in g.engine.legal_moves(0)
    # the rulebook's choice: a lower token (3, 2, 1 left: 2 or 1) or none
    assert [m["args"] for m in g.engine.legal_moves(0) if m["kind"] == DONE] == [
        {}, {"token": 2}, {"token": 1}, {"token": 0}]
    for move in g.engine.legal_moves(1):  # every listed move is accepted
        if move["kind"] == GUESS:
            probe = copy.deepcopy(g.engine)
            probe.handle(Action(move["kind"], g.t + 1, 1, move["args"]))
    g.bell(0)
    assert [m["kind"] for m in g.engine.legal_moves(0)] == ["admit_wrong"]
    assert "start" not in g.engine.legal_actions(None)


def test_host_moves_follow_the_phases(table):
    g = table(players=3)
    assert {m["kind"] for m in g.engine.legal_moves(None)} == {SWAP, START}
    g.start()
    g.all_ring()
    assert "reveal" in g.engine.legal_actions(None)


@pytest.mark.parametrize("options, named", [
    ({"harsher": "yes"}, "harsher"),
    ({"tie_window_us": -1}, "tie_window_us"),
    ({"deck_plan": "hardest"}, "deck_plan"),
    ({"scoring_tokens": [1, 2, 3, 4, 5]}, "scoring_tokens"),
    ({"scoring_tokens": [4, 3]}, "scoring_tokens"),
    ({"bonus_tokens": {"4": [3, 2, 1]}}, "bonus_tokens[4]"),
    ({"bonus_tokens": {"9": [1]}}, "bonus_tokens"),
    ({"words": 5}, "words"),
    ({"language": 5}, "words"),  # a journal of before the word list was "words"
    ({"colour": "red"}, "colour"),
])
def test_a_bad_option_is_refused_in_one_line_naming_it(options, named):
    with pytest.raises(BuzzerBoxError) as err:
        PictomaniaOptions.from_mapping(options)
    assert named in str(err.value) and "\n" not in str(err.value)


def test_player_count_and_short_decks_are_refused_in_one_line(cards):
    with pytest.raises(PictomaniaError, match="3-6 players"):
        PictomaniaEngine(GameSettings(players=2), cards)
    short = {d: list(cs)[:3] for d, cs in cards.items()}
    with pytest.raises(PictomaniaError, match="deck 1 has 3 word cards"):
        PictomaniaEngine(GameSettings(players=3, options={"deck_plan": "easiest"}), short)


def test_options_round_trip_through_json():
    opts = PictomaniaOptions.from_mapping({"harsher": True, "bonus_tokens": {"3": [5, 4, 0]}})
    assert PictomaniaOptions.from_mapping(opts.to_json()) == opts


def test_a_refused_action_leaves_due_bell_tokens_for_the_next_tick(table):
    g = table(players=3).start()
    g.bell(0)
    late = g.t + 1_000_000  # the settle window has closed by then
    with pytest.raises(RuleError):
        g.guess(1, 1, 3, at=late)  # on oneself: refused
    assert g.engine.public_view()["status"][0] == "ringing"
    events = g.engine.tick(late)
    assert [(e.kind, e.player, e.data["token"]) for e in events] == [("bonus", 0, 3)]


@pytest.mark.parametrize(("language", "says"), [("cs", "vlastní kresbu nikdo nehádá"), ("pl", "nikt nie zgaduje własnego")])
def test_a_refusal_a_phone_shows_is_in_the_players_language(table, language, says):
    from games.i18n import set_language

    g = table(players=3).start()
    set_language(language)
    try:
        with pytest.raises(RuleError) as refused:  # the engine gives an id; the viewer words it
            g.guess(1, 1, 3)
        assert says in refused.value.text()
        g.right(2, 0)
        with pytest.raises(RuleError) as refused:
            g.right(2, 0)
        assert {"cs": "už hádal hráče 1", "pl": "już typował gracza 1"}[language] in refused.value.text()
    finally:
        set_language("en")
