"""Pictomania plugged into the box: guesses from phones, the bell from
stations (ranked by stamps for the bonus tokens), the host deals and reveals;
the journal replays it and the screen keeps the secrets until the reveal."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.box.simulate import simulate
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
    session = simulate(get("pictomania"), 3, 5, options={"bot_pace": "table"}, until_us=30_000_000)
    engine = session.box.engine
    assert engine.public_view()["phase"] == "drawing"
    secrets = [engine.private_view(p)["secret"] for p in range(3)]
    view = engine.public_view()
    assert view["reveal"] is None
    assert "secret" not in str(view) and all(f"'{s['letter']}{s['number']}'" not in str(view) for s in secrets)


def test_headless_demo_plays_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = headless_demo("pictomania", 4, 900, tmp_path, capsys)
    assert "the game is over" in out and "the guesses are revealed" in out


def test_options_come_from_the_engine_and_the_word_lists() -> None:
    spec = get("pictomania")
    assert spec.phones_needed()
    assert {v for v, _ in spec.options["words"].choices} >= {"en", "cs"}
    engine = spec.new_engine(spec.settings(3, 1, words="cs"))
    assert engine.options.words == "cs"


@pytest.mark.parametrize("players", [3, 6])
def test_the_headless_demo_scores_a_reveal_within_15_seconds(players: int, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = headless_demo("pictomania", players, 15, tmp_path, capsys)
    assert out.count("the guesses are revealed") >= 1 and out.count(" won a bonus") >= players
    assert any(int(score) != 0 for score in out.split("scores: ")[1].splitlines()[0].replace(",", "").split()[2::3])


def test_a_journal_of_rules_1_with_the_retired_settle_option_still_replays(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Journals written before the box's horizon decided the bell race carry
    ``bell_settle_us``, ``bell_tie_us`` and ``guess_tie_us`` (and the scoring tokens
    of the day, no ``rules_version``): they replay under rules 2, the oldest the
    engine keeps, with a note that says so."""
    import dataclasses
    import json

    from controller.cli import main
    from games.rules_version import RULES_OPTION

    path = tmp_path / "old.jsonl"
    spec = get("pictomania")
    old = dataclasses.replace(spec, rules_version=1,
                              options={k: v for k, v in spec.options.items() if k != RULES_OPTION})
    played = simulate(old, 3, 4, str(path), {"bell_settle_us": 50_000, "bell_tie_us": 0, "guess_tie_us": 30_000,
                                             "scoring_tokens": [4, 3, 3, 2, 2]})
    header = json.loads(path.read_text().splitlines()[0])
    assert header["rules"] == 1 and header["settings"]["options"]["bell_settle_us"] == 50_000
    assert main(["replay", str(path), "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["scores"] == played.box.summary()["scores"]
    assert "played under Pictomania rules 1; this box replays rules 2" in captured.err


def test_a_bell_delivered_late_inside_the_box_guard_still_takes_the_better_token() -> None:
    """No settle window of the game's own: the box hands bells over in stamp order up
    to its horizon, so a bell stamped first but reported 10 ms late (a 20 ms guard)
    still takes the highest token, and the race is decided once the horizon passes."""
    from controller.box.press import Edge
    from controller.box.runtime import Box

    spec = get("pictomania")
    box = Box(spec, spec.settings(3, 1), latency_guard_us=20_000)
    box.host("start", 0)  # the host deals: everyone draws
    box.step(50_000)
    assert box.engine.public_view()["phase"] == "drawing"
    box.edge(Edge(1, "bell", 0, 100_000), 1)  # station 2's bell, reported at once
    events = []
    for now in range(100_000, 110_000, 500):
        events += box.step(now)
    box.edge(Edge(0, "bell", 0, 99_000), 1)  # station 1 rang first, reported 10 ms late
    for now in range(110_000, 200_000, 500):
        events += box.step(now)
    bonus = {e.player: e.data["token"] for e in events if e.kind == "bonus"}
    assert bonus == {0: 3, 1: 2}
    decided = min(e.t_us for e in events if e.kind == "bonus")
    assert decided < 100_000 + 1_000  # at the stamps (plus their precision), not 50 ms later
