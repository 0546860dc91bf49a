"""Fiki Miki plugged into the box: cards from phones, the bell from stations,
replayed from the journal; open hands only in variant I's teaching mode."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box.simulate import simulate
from controller.screen.menu import Menu
from games.base import OptionError
from games.registry import get
from tests.piepmatz.box_checks import headless_demo, simulate_replay_resume


@pytest.mark.parametrize("variant", ["I", "IIA", "IIB"])
def test_each_variant_plays_on_phones_and_replays(variant: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = simulate_replay_resume("fiki-miki", 3, 4, tmp_path, capsys, ["--option", f"variant={variant}"])
    assert played["variant"] == variant and played["winners"]


def test_the_bell_is_a_station_press_ranked_by_its_stamp() -> None:
    session = simulate(get("fiki-miki"), 4, 3)
    box = session.box
    assert box.engine.finished
    rings = [p for p in box.press_log if p.input == "bell"]
    races = [e for e in box.event_log if e.kind == "winner"]
    assert rings and races  # the simulated bells went through the stations, and won races
    assert all(e.player is not None for e in races)


def test_headless_demo_plays_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = headless_demo("fiki-miki", 4, 600, tmp_path, capsys)
    assert "the game is over" in out and " played a card" in out  # the story in words, not event names


def test_open_hands_need_no_phones_and_only_in_variant_one() -> None:
    spec = get("fiki-miki")
    assert spec.phones_needed() and spec.phones_needed({"variant": "IIA"})
    assert not spec.phones_needed({"variant": "I", "open_hands": True})
    engine = spec.new_engine(spec.settings(3, 1, open_hands=True))
    assert len(engine.public_view()["hands"]) == 3
    assert "hands" not in spec.new_engine(spec.settings(3, 1)).public_view()
    with pytest.raises(OptionError):
        spec.settings(3, 1, variant="IIA", open_hands="yes")


def test_the_menu_lists_phone_games_and_offers_the_variants() -> None:
    games = [(name, get(name).title, get(name).min_players, get(name).max_players)
             for name in ("quiz", "fiki-miki", "piepmatz")]
    menu = Menu(games)
    names = [menu.game_label(k) for k in range(len(games))]
    assert names[0] == get("quiz").title and names[1] == "Fiki Miki (phones or open hands)" and names[2] == "Piepmatz (phones)"
    menu.key("right")  # choose Fiki Miki
    assert menu.item("variant").values == ["I", "IIA", "IIB"]
    assert menu.item("variant").names == ["I: four stacks and a bell", "II A: follow the picture",
                                          "II B: follow the picture with the bell"]
    assert menu.item("open_hands").names == ["on phones", "open on screen"]
