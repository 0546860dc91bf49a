"""Engine behaviour the players and the runtime notice, beyond the scenarios."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.base import HOST_SHOWN, Action, Engine, GameSettings, RuleError
from games.schicki_micki.engine import SchickiMickiEngine

X1 = {"umbrella": "red", "hat": "blue", "scarf": "yellow", "beak": "green", "tail": "pink", "worm": "purple", "worms": 1}
Y2 = {"umbrella": "red", "hat": "blue", "scarf": "pink", "beak": "yellow", "tail": "orange", "worm": "green", "worms": 1}
F1 = {"umbrella": "orange", "hat": "pink", "scarf": "green", "beak": "purple", "tail": "blue", "worm": "yellow", "worms": 1}
F2 = {"umbrella": "purple", "hat": "orange", "scarf": "pink", "beak": "red", "tail": "yellow", "worm": "blue", "worms": 1}
HAT = {"closeup": "hat", "color": "blue"}


def engine(players: int = 3, deck: list[dict[str, Any]] | None = None, **options: Any) -> SchickiMickiEngine:
    if deck is not None:
        options["deck"] = deck
    return SchickiMickiEngine(GameSettings(players=players, seed=3, options=options))


def turn(e: SchickiMickiEngine, t: int) -> list[Any]:
    return e.handle(Action("turn", t))


def react(e: SchickiMickiEngine, player: int, kind: str, t: int, precision: int = 1, **args: Any) -> list[Any]:
    return e.handle(Action(kind, t, player, args, precision))


def test_engine_satisfies_the_protocol() -> None:
    assert isinstance(engine(), Engine)


def test_blue_grab_on_identical_cards_cannot_be_changed() -> None:
    e = engine(3, [X1, X1, F1], won=[1, 1, 1])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 1, "blue", 500_000)
    assert e.legal_actions(1) == []
    ignored = react(e, 1, "red", 600_000)
    assert [ev.kind for ev in ignored] == ["ignored"]
    assert "already acted (grabbed blue)" in ignored[0].data["why"]
    assert e.public_view()["reactions"][0]["already_acted"] is True
    react(e, 2, "red", 700_000)
    e.tick(2_000_000)
    assert e.summary()["won"] == [1, 0, 3]


def test_a_wrong_knock_is_final_even_before_a_correct_call() -> None:
    # one pair (blue hats): player 0 knocks by mistake, then calls hat first of all
    e = engine(3, [X1, HAT, F1], won=[1, 1, 1])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 0, "knock", 600_000)
    assert [ev.kind for ev in react(e, 0, "call", 700_000, accessory="hat")] == ["ignored"]
    react(e, 1, "call", 900_000, accessory="hat")
    e.tick(2_100_000)
    assert e.summary()["won"] == [0, 3, 1]


def test_a_call_may_become_a_knock_or_blue_but_not_red_or_another_call() -> None:
    e = engine(3, [X1, HAT, F1])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 0, "call", 600_000, accessory="scarf")
    assert e.legal_actions(0) == ["blue", "knock"]
    assert [ev.kind for ev in react(e, 0, "call", 650_000, accessory="hat")] == ["ignored"]
    assert [ev.kind for ev in react(e, 0, "red", 660_000)] == ["ignored"]
    assert [ev.kind for ev in react(e, 0, "blue", 700_000)] == ["reaction"]
    assert e.public_view()["reactions"][0]["reaction"] == "blue"


def test_reactions_count_by_stamp_not_arrival() -> None:
    e = engine(3, [X1, HAT, F1])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 1, "call", 900_000, accessory="hat")
    # player 1's earlier knock arrives late: it came first, so it is final and the call is void
    assert [ev.kind for ev in react(e, 1, "knock", 650_000)] == ["reaction"]
    react(e, 0, "call", 950_000, accessory="hat")
    e.tick(2_500_000)
    assert e.summary()["won"] == [2, 0, 0]


@pytest.mark.parametrize(
    ("gap_us", "precision_us", "tie_window_us", "won"),
    [
        (300, 1, 0, [2, 0, 0]),  # 0.3 ms apart, µs stamps: player 0 first
        (300, 1000, 0, [1, 1, 0]),  # stamps only good to 1 ms: a tie
        (300, 1, 500, [1, 1, 0]),  # inside the configured tie window
    ],
)
def test_ties_follow_precision_and_tie_window(gap_us: int, precision_us: int, tie_window_us: int, won: list[int]) -> None:
    e = engine(3, [X1, HAT, F1], tie_window_us=tie_window_us)
    turn(e, 0)
    turn(e, 100_000)
    react(e, 1, "call", 800_000 + gap_us, precision_us, accessory="hat")
    react(e, 0, "call", 800_000, precision_us, accessory="hat")
    e.tick(2_400_000)
    assert e.summary()["won"] == won


def test_reaction_time_counts_from_the_shown_frame() -> None:
    e = engine(3, [X1, HAT, F1])
    turn(e, 0)
    events = turn(e, 100_000)
    assert events[0].kind == "show" and events[0].data["card"] == HAT
    e.handle(Action(HOST_SHOWN, 116_000))
    with pytest.raises(RuleError, match="before the newest card was on screen"):
        react(e, 0, "call", 110_000, accessory="hat")
    react(e, 0, "call", 516_000, accessory="hat")
    e.tick(2_100_000)
    view = e.public_view()
    assert view["last_resolution"]["outcomes"][0]["reaction_us"] == 400_000
    assert view["last_resolution"]["first"] == 0 and view["last_resolution"]["ahead_us"] is None


def test_last_resolution_names_who_was_first_and_by_how_much() -> None:
    e = engine(3, [X1, HAT, F1])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 2, "call", 800_412, accessory="hat")
    react(e, 1, "call", 800_000, accessory="hat")
    e.tick(2_300_000)
    last = e.public_view()["last_resolution"]
    assert (last["first"], last["ahead_us"], last["situation"]) == (1, 412, "one_pair")


def test_auto_turns_shrink_to_the_floor_and_wait_for_the_window() -> None:
    e = engine(3, [X1, F1, F2, HAT, Y2], turn_interval_us=2_000_000, interval_shrink=0.5, min_turn_interval_us=600_000)
    shows = []
    while len(shows) < 3:
        t = e.next_deadline_us()
        assert t is not None
        shows += [ev.t_us for ev in e.tick(t) if ev.kind == "show"]
    assert shows == [2_000_000, 4_000_000, 5_000_000]  # 2 s, then 2 s * 0.5, then ...
    assert e.next_deadline_us() == 5_600_000  # ... the 0.6 s floor
    react(e, 0, "knock", 5_300_000)  # opens the window: the next turn waits
    assert e.next_deadline_us() == 6_800_000
    events = e.tick(6_800_000)
    assert [ev.kind for ev in events] == ["wrong", "round_over"]
    assert e.next_deadline_us() == 6_800_000 + 600_000


def test_handle_lets_due_time_pass_first() -> None:
    e = engine(3, [X1, HAT, F1], turn_interval_us=1_000_000, interval_shrink=1.0, min_turn_interval_us=1_000_000)
    events = e.handle(Action("turn", 500_000))
    assert [ev.kind for ev in events] == ["show"]
    # the auto turn fell due at 1.5 s; a press at 1.6 s sees it turned first
    react_events = react(e, 0, "call", 1_600_000, accessory="hat")
    assert [ev.kind for ev in react_events] == ["show", "window", "reaction"]
    assert react_events[0].t_us == 1_500_000


def test_refused_action_changes_nothing_not_even_time() -> None:
    e = engine(3, [X1, HAT, F1], turn_interval_us=1_000_000)
    before = (json.dumps(e.public_view()), json.dumps(e.summary()), e.next_deadline_us())
    with pytest.raises(RuleError, match="does not exist"):
        react(e, 0, "call", 1_500_000, accessory="hats")  # the auto turn at 1 s came first
    assert (json.dumps(e.public_view()), json.dumps(e.summary()), e.next_deadline_us()) == before
    assert [ev.kind for ev in e.tick(1_500_000)] == ["show"]


@pytest.mark.parametrize(
    ("kind", "args", "message"),
    [
        ("call", {"accessory": "hats"}, "use one of: umbrella"),
        ("dance", {}, "players may knock, call, blue, red"),
    ],
)
def test_bad_player_actions_are_refused_with_a_reason(kind: str, args: dict[str, Any], message: str) -> None:
    e = engine(3, [X1, HAT])
    turn(e, 0)
    with pytest.raises(RuleError, match=message):
        e.handle(Action(kind, 100_000, 0, args))
    with pytest.raises(RuleError, match="does not exist"):
        e.handle(Action("knock", 100_000, 5))


def test_turn_during_open_window_is_refused() -> None:
    e = engine(3, [X1, HAT, F1])
    turn(e, 0)
    react(e, 0, "knock", 100_000)
    assert "turn" not in e.legal_actions(None)
    with pytest.raises(RuleError, match="window is open"):
        turn(e, 200_000)


def test_bad_scenario_options_name_the_field() -> None:
    with pytest.raises(ValueError, match=r"deck\[1\]: hen: 'hat' is 'violet'"):
        engine(3, [X1, {**X1, "hat": "violet"}])
    with pytest.raises(ValueError, match="one whole number 0..640 per player"):
        engine(3, [X1], won=[1, 2])


def test_public_view_shows_the_table_but_never_the_deck_order() -> None:
    e = engine(4, [X1, Y2, F1, F2])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 3, "blue", 400_000)
    view = e.public_view()
    for key in ("phase", "scores", "status", "table", "deck", "pawns", "last_resolution", "result"):
        assert key in view
    assert view["phase"] == "window" and view["deck"] == 2 and view["table"] == [X1, Y2]
    assert view["status"] == ["idle", "idle", "idle", "reacted"]
    assert view["pawns"] == {"blue": [3, None, None], "red": None}
    text = json.dumps(view)
    assert json.dumps(F1) not in text and json.dumps(F2) not in text
    e.tick(1_900_000)
    view = e.public_view()
    assert view["status"] == ["idle", "idle", "idle", "won"] and view["scores"] == [0, 0, 0, 1]
    assert view["pawns"] == {"blue": [None, None, None], "red": None}


def test_players_cannot_react_between_a_resolution_and_the_next_card() -> None:
    e = engine(3, [X1, F2, F1])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 0, "knock", 400_000)
    e.tick(1_900_000)
    assert e.legal_actions(0) == []
    with pytest.raises(RuleError, match="wait for the next card"):
        react(e, 1, "blue", 2_000_000)


def test_finished_game_refuses_everything_and_reports_the_result() -> None:
    e = engine(2, [X1, HAT], won=[0, 5])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 0, "call", 500_000, accessory="hat")
    events = e.tick(2_000_000)
    assert events[-1].kind == "game_over"
    assert e.finished and e.legal_actions(None) == [] and e.legal_actions(0) == []
    assert e.summary()["winners"] == [1] and e.public_view()["result"]["scores"] == [2, 5]
    with pytest.raises(RuleError):
        turn(e, 3_000_000)


def test_show_card_takes_the_card_out_of_the_deck_or_adds_it() -> None:
    e = engine(3, [X1, F1])
    e.handle(Action("show_card", 0, args={"card": F1}))
    assert e.summary()["deck"] == 1 and e.summary()["total_cards"] == 2
    e.handle(Action("show_card", 100_000, args={"card": HAT}))
    s = e.summary()
    assert s["total_cards"] == 3 and s["table"] == [F1, HAT]
    with pytest.raises(RuleError, match="show_card card: close-up: 'color'"):
        e.handle(Action("show_card", 200_000, args={"card": {"closeup": "hat", "color": "grey"}}))


def test_a_press_before_the_frame_flipped_is_ignored_in_the_outcomes() -> None:
    e = engine(3, [X1, HAT, F1], won=[2, 2, 2])
    turn(e, 0)
    turn(e, 100_000)
    react(e, 0, "knock", 105_000)  # accepted: the flip time is not known yet
    e.handle(Action(HOST_SHOWN, 116_000))
    react(e, 1, "call", 600_000, accessory="hat")
    events = e.tick(2_000_000)
    assert [ev.kind for ev in events if ev.player == 0] == ["early", "ignored"]
    assert e.summary()["won"] == [2, 4, 2]  # the early knock costs nothing
    assert "pressed before the card was on screen" in e.summary()["outcomes"][0]["text"]


def test_a_pause_gives_the_reaction_window_and_the_pace_their_time_back():
    from games.base import HOST_RESUME, Action
    from games.registry import get

    spec = get("schicki-micki")
    engine = spec.new_engine(spec.settings(3, seed=2, turn_interval_us=3_000_000))
    engine.tick(0)
    first_turn = engine.next_deadline_us()
    engine.tick(first_turn)  # a card is shown; the next one is due 3 s later
    due = engine.next_deadline_us()
    engine.handle(Action(HOST_RESUME, first_turn + 1_000_000, None, {"paused_us": 10_000_000}))
    assert engine.next_deadline_us() == due + 10_000_000
