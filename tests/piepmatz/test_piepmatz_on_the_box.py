"""Piepmatz plugged into the box: phones play it, stations confirm, the
journal replays it and the screen never shows a hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box.runtime import Box
from controller.box.simulate import simulate
from controller.cli import main
from games.base import Action
from games.registry import available, get
from tests.piepmatz.box_checks import headless_demo, simulate_replay_resume


def test_simulated_phones_play_it_and_the_journal_replays_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = simulate_replay_resume("piepmatz", 3, 5, tmp_path, capsys)
    assert played["winners"] and max(played["scores"]) == played["scores"][played["winners"][0]]


def test_headless_demo_plays_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = headless_demo("piepmatz", 4, 900, tmp_path, capsys)
    assert "the game is over" in out and "took birds from the perch" in out


def test_the_shared_screen_never_carries_a_hand() -> None:
    session = simulate(get("piepmatz"), 2, 8, until_us=60_000_000)
    engine = session.box.engine
    hands = {card["id"] for seat in range(2) for card in engine.private_view(seat)["hand"]}
    assert hands
    text = str(engine.public_view())
    assert not [card for card in hands if f"'{card}'" in text]


def test_a_station_confirms_only_its_own_seats_waiting_move() -> None:
    spec = get("piepmatz")
    box = Box(spec, spec.settings(2, 1))
    move = box.engine.private_view(0)["legal_moves"][0]
    box.apply_action(Action("propose", 1_000, 0, {"move": {"kind": move["kind"], "args": move["args"]}}))
    assert box.engine.public_view()["awaiting_confirm"] == [0]
    assert box.engine.public_view()["turns"] == 0  # proposed, not played
    events = box.apply_action(spec.buttons.action(1, "bell", "full", 2_000))  # the wrong station
    assert [e.kind for e in events] == ["rejected"]
    events = box.apply_action(spec.buttons.action(0, "bell", "full", 3_000))
    assert "played" in [e.kind for e in events] and box.engine.public_view()["awaiting_confirm"] == []


def test_the_menu_says_it_needs_phones_and_offers_its_options() -> None:
    spec = get("piepmatz")
    assert "piepmatz" in available() and spec.phones_needed()
    assert spec.settings(2).options["crows"] == spec.options["crows"].default
    with pytest.raises(SystemExit, match="option 'crows' is 99: give a value between 0 and 12"):
        main(["simulate", "piepmatz", "--players", "2", "--option", "crows=99"])


def test_junk_proposals_are_refused_in_one_line_and_change_nothing() -> None:
    import random

    spec = get("piepmatz")
    box = Box(spec, spec.settings(3, 2))
    rng = random.Random(11)
    junk: list[object] = [None, 5, "play", [], {}, {"kind": "play"}, {"kind": "play", "args": 5},
                          {"kind": "play", "args": {"card": "sparrow-m9", "perch": 0}},
                          {"kind": "take", "args": {"card": []}}, {"args": {"perch": True}}]
    before = box.engine.public_view()
    for k in range(200):
        move = rng.choice(junk)
        seat = rng.choice([None, 0, 1, 2, 7, -1, "x", True])
        args: dict[str, object] = {"move": move} if seat is None or rng.random() < 0.5 else {"move": move, "seat": seat}
        player = rng.choice([None, 0, 1, 2])
        events = box.apply_action(Action("propose", 1_000 + k, player, args))
        assert [e.kind for e in events] == ["rejected"] and "\n" not in str(events[0].data["why"])
    assert box.engine.public_view() == before


def test_the_final_lay_stays_face_down_on_the_screen_and_the_open_stream_until_all_have_chosen() -> None:
    """The final-lay scenario up to player 1's choice: the shared screen's view,
    the scoreboard stream (no login) and player 2's phone name neither card, and
    no score moves; player 1's own phone shows the two cards it laid."""
    import json

    from controller.box.scenario import build_box, run
    from controller.box.views import Publisher
    data = json.loads((Path(__file__).parent / "scenarios" / "piepmatz_final_lay_face_down_then_together.json").read_text())
    chosen = data["steps"][-2]["final"]
    box = build_box(data)
    publisher = Publisher(box)
    for step in data["steps"][:-1]:
        action = box.spec.scenario_step(step, step["t_us"])
        assert action is not None
        box.step(step["t_us"])
        box.apply_action(action)
    snap = publisher.publish()
    view = box.engine.public_view()
    assert view["phase"] == "final" and view["final_chosen"] == [0]
    for shown in (json.dumps(view), snap.board, snap.seats[1]):
        assert not any(card in shown for card in chosen)
    assert all(card in snap.seats[0] for card in chosen)
    assert view["scores"] == [2, 1]  # the laid cards score only when turned up
    assert run(data)["scores"] == [4, 3]
