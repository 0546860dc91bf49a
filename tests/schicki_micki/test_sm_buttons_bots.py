"""Station buttons, the game spec, and whole bot games through the engine."""

from __future__ import annotations

from collections import Counter

import pytest

from controller.box.press import Press
from controller.box.simulate import simulate
from games.base import Action, GameEvent
from games.registry import get
from games.schicki_micki import SPEC
from games.schicki_micki.bots import new_bots
from games.schicki_micki.situation import ROWS


def button_map(press: Press, station_kind: str) -> Action | None:
    """A debounced press through the game's button map, as the box sends it."""
    return SPEC.buttons.action(press.station, press.input, station_kind, press.t_us, press.precision_us)


@pytest.mark.parametrize(
    ("station_kind", "name", "kind", "args"),
    [
        ("full", "bell", "knock", {}),
        ("full", "scarf", "call", {"accessory": "scarf"}),
        ("full", "worm", "call", {"accessory": "worm"}),
        ("full", "blue", "blue", {}),
        ("full", "red", "red", {}),
        ("compact", "bell", "knock", {}),
        ("compact", "call", "call", {}),
        ("compact", "red", "red", {}),
    ],
)
def test_button_map(station_kind: str, name: str, kind: str, args: dict[str, str]) -> None:
    action = button_map(Press(4, name, 123_456, precision_us=250), station_kind)
    assert action == Action(kind, 123_456, 4, args, 250)


@pytest.mark.parametrize(("station_kind", "name"), [("full", "call"), ("compact", "hat"), ("full", "start")])
def test_inputs_a_station_kind_does_not_have_map_to_nothing(station_kind: str, name: str) -> None:
    assert button_map(Press(0, name, 1), station_kind) is None


def test_spec_is_registered_and_maps_scenario_steps() -> None:
    assert get("schicki-micki") is SPEC
    assert (SPEC.min_players, SPEC.max_players, SPEC.scenario_options) == (2, 7, ("deck", "won"))
    assert SPEC.scenario_step({"turn": True}, 5) == Action("turn", 5)
    card = {"closeup": "hat", "color": "red"}
    assert SPEC.scenario_step({"show": card}, 7) == Action("show_card", 7, args={"card": card})
    assert SPEC.scenario_step({"pace": None}, 0) == Action("pace", 0, args={"turn_interval_us": None})
    assert SPEC.scenario_step({"tick": 5}, 5) is None


def test_bots_are_seeded_per_player() -> None:
    settings = SPEC.settings(5, seed=9)
    view = {"phase": "showing", "table": [
        {"umbrella": "red", "hat": "blue", "scarf": "yellow", "beak": "green", "tail": "pink", "worm": "purple", "worms": 1},
        {"closeup": "hat", "color": "blue"},
    ]}
    show = [GameEvent("show", 1_000_000)]
    plans = [[bot.observe(view, show, 1_000_000) for _ in range(20)] for bot in new_bots(settings)]
    again = [[bot.observe(view, show, 1_000_000) for _ in range(20)] for bot in new_bots(settings)]
    assert plans == again
    presses = [p for player in plans for plan in player for p in plan]
    assert len({tuple(map(str, player)) for player in plans}) == 5  # players differ
    times = [p.t_us - 1_000_000 for p in presses]
    assert all(250_000 <= t <= 1_400_000 for t in times)
    assert Counter(p.input for p in presses).most_common(1)[0][0] == "hat"  # mostly right
    assert sum(len(plan) == 0 for player in plans for plan in player) > 0  # sometimes nothing


@pytest.mark.parametrize("seed", range(6))
def test_whole_bot_games_end_with_cards_conserved(seed: int) -> None:
    """Bots press through simulated bouncing switches, debounce and the button map."""
    s = simulate(SPEC, 5, seed).box.summary()
    assert s["finished"] and s["winners"]
    assert s["deck"] + len(s["table"]) + sum(s["won"]) == s["total_cards"] == 64
    assert max(s["scores"]) == s["scores"][s["winners"][0]]
    assert s["outcomes"] and any(o["change"] > 0 for o in s["outcomes"])


def test_situation_frequencies_over_simulated_games() -> None:
    """The deck is tuned so every situation turns up often (printed with -s)."""
    games = 30
    totals: Counter[str] = Counter()
    without: Counter[str] = Counter()
    for seed in range(games):
        situations = simulate(SPEC, 5, 1000 + seed).box.summary()["situations"]
        totals.update(situations)
        without.update(row for row in ROWS if situations[row] == 0)
    per_game = {row: totals[row] / games for row in ROWS}
    print(f"situations per game after each turned card ({games} games, 5 bots): {per_game}; "
          f"games without: {dict(without)}")
    assert per_game["one_pair"] >= 8
    assert per_game["several_pairs"] >= 5
    assert per_game["two_worms"] >= 4
    assert per_game["identical"] >= 0.7  # a fair shuffle: see deck.py for the make-up
    assert without["identical"] <= games // 2
    assert without["two_worms"] == 0 and without["one_pair"] == 0 and without["several_pairs"] == 0


def test_numbered_buttons_play_as_a_compact_station() -> None:
    """The keyboard and the header profiles name buttons a, b, c."""
    call = button_map(Press(0, "a", 5), "full")
    assert call is not None and call.kind == "call" and not call.args
    assert button_map(Press(1, "b", 6), "compact").kind == "blue"
    assert button_map(Press(1, "c", 7), "compact").kind == "red"
    assert button_map(Press(1, "d", 8), "compact") is None


def test_the_game_ends_after_the_last_cards_window() -> None:
    """The rulebook: after the last card one last chance, then the game is over,
    even when that window sent cards back under the deck."""
    after_last = 0
    for seed in range(12):
        box = simulate(SPEC, 5, 2000 + seed).box
        shows = [e for e in box.event_log if e.kind == "show"]
        lasts = [i for i, e in enumerate(shows) if e.data["last"]]
        assert box.engine.finished and len(lasts) <= 1 and (not lasts or lasts[0] == len(shows) - 1)
        after_last += box.summary()["deck"] > 0 and box.summary()["reason"] == "the last card's final window closed"
    assert after_last >= 1  # some last windows did send cards back, and the game still ended
