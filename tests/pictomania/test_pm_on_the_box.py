"""Pictomania plugged into the box: guesses from phones, the bell from
stations (ranked by stamps for the bonus tokens), the host deals and reveals;
the journal replays it and the screen keeps the secrets until the reveal."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.simulate import simulate
from games.registry import get
from tests.piepmatz.box_checks import headless_demo, simulate_replay_resume


def test_simulated_phones_and_host_play_four_rounds_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    played = simulate_replay_resume("pictomania", 4, 2, tmp_path, capsys)
    assert played["rounds_played"] == 4 and played["winners"]


def test_bells_are_station_presses_and_an_earlier_bell_takes_a_higher_token() -> None:
    box = simulate(get("pictomania"), 5, 3).box
    bells = [p for p in box.press_log if p.input == "bell"]
    assert len(bells) >= 5
    rounds: list[list[tuple[int, int]]] = []  # per round: (bell stamp, token taken)
    for event in box.event_log:
        if event.kind == "show":
            rounds.append([])
        elif event.kind == "bonus" and event.data.get("token"):
            assert event.player is not None
            stamp = max(p.t_us for p in bells if p.station == event.player and p.t_us <= event.t_us)
            rounds[-1].append((stamp, int(event.data["token"])))
    assert len(rounds) == 4 and all(rounds)
    for taken in rounds:
        tokens = [token for _, token in sorted(taken)]
        assert tokens == sorted(tokens, reverse=True)


def test_no_secret_word_on_the_screen_before_the_reveal() -> None:
    session = simulate(get("pictomania"), 3, 5, until_us=30_000_000)
    engine = session.box.engine
    assert engine.public_view()["phase"] == "drawing"
    secrets = [engine.private_view(p)["secret"] for p in range(3)]
    view = engine.public_view()
    assert view["reveal"] is None
    assert "secret" not in str(view) and all(f"'{s['letter']}{s['number']}'" not in str(view) for s in secrets)


def test_headless_demo_plays_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = headless_demo("pictomania", 4, 900, tmp_path, capsys)
    assert "ended: finished" in out and "reveal" in out


def test_options_come_from_the_engine_and_the_word_lists() -> None:
    spec = get("pictomania")
    assert spec.phones_needed()
    assert {v for v, _ in spec.options["language"].choices} >= {"en", "cs"}
    engine = spec.new_engine(spec.settings(3, 1, language="cs"))
    assert engine.options.language == "cs"
