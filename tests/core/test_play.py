"""`buzzerbox play` opens the profile's pins, journals, and stops cleanly."""

from __future__ import annotations

import json

import pytest

from controller.box import session as box_session
from controller.box.bots import BoardSimLink
from controller.box.journal import JournalWriter
from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.cli import main
from games.registry import get
from tests.firmware.conftest import wait_until


def test_play_runs_headless_on_mock_pins_and_journals(tmp_path, capsys, mock_pins):
    path = tmp_path / "live.jsonl"
    assert main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.3", "--headless", "--journal", str(path)]) == 0
    out = capsys.readouterr()
    assert "journal" in out.err and json.loads(out.out)["phase"] == "idle"
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["mode"] == "play" and lines[0]["station_names"][0] == "Red"
    assert lines[-1]["type"] == "end"


def test_play_resume_continues_the_same_journal(tmp_path, capsys, mock_pins):
    path = tmp_path / "live.jsonl"
    main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless", "--journal", str(path)])
    writer = JournalWriter(path)  # the host armed, then the power went mid-line
    writer.write({"type": "host", "kind": "arm", "t_us": 10**12})
    writer.close()
    with path.open("a") as f:
        f.write('{"type":"press","stati')
    capsys.readouterr()
    assert main(["play", "--json", "quiz", "--profile", "header-4", "--seconds", "0.1", "--headless", "--resume", str(path)]) == 0
    assert json.loads(capsys.readouterr().out)["phase"] == "armed"  # state came back from the journal
    text = path.read_text()
    assert '{"type":"press","stati' not in text  # the torn line was cut before appending
    assert json.loads(text.splitlines()[-1])["type"] == "end"  # and the resumed game appended after it


def test_play_with_a_broken_profile_says_why(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[[stations]]\ninputs = { bell = 99 }\n")
    with pytest.raises(SystemExit, match="does not exist"):
        main(["play", "--json", "quiz", "--profile", str(bad)])


def test_diag_reads_the_profiles_own_pins(capsys, mock_pins):
    assert main(["diag", "--profile", "header-4", "--headless", "--seconds", "0.3"]) == 0
    assert "header-4 via gpio" in capsys.readouterr().err


def test_a_live_game_starts_its_own_clock_at_zero(tmp_path, monkeypatch):
    """Schicki Micki turns its first card one turn interval after the start, not
    all 64 at once because the box clock has run since boot (eleven days here, on
    a clock the test moves): the journal is made and taken over as ``play`` does
    (the screen writes it, the deciding process takes the new game over)."""
    booted = 11 * 86_400 * 1_000_000
    now = [booted]
    monkeypatch.setattr(box_session, "box_now_us", lambda: now[0])
    spec = get("schicki-micki")
    path = tmp_path / "sm.jsonl"
    made = box_session.new_box(spec, spec.settings(4, 1), None, path)
    assert made.journal is not None
    made.journal.close()
    box, _journal = box_session.resumed_box(path)
    box_session.restart_clock(box)  # decider_process.open_game, for a --new game
    assert box.journal is not None
    try:
        interval = box.engine.turn_interval_us
        turned = []
        for since_start_us in (0, 500_000, interval - 1, interval + box.latency_guard_us + 1):
            now[0] = booted + since_start_us
            box.step(now[0] + box.time_offset_us)
            turned.append(box.engine.cards_turned)
        assert turned == [0, 0, 0, 1]
    finally:
        box.journal.close()


def test_demo_through_the_simulated_board_reaches_every_player():
    """``demo --board-sim``'s wiring (simulated players -> firmware on a pty ->
    driver -> box) in virtual time: the board's clock moves a millisecond at a
    time, and only once the driver has read all the board sent (and its clock
    replies: the stamps map exactly), so every press is in time, never late."""
    spec = get("reaction")
    settings = spec.settings(4, 1, **spec.demo_options)
    box = Box(spec, settings)
    link = BoardSimLink(box, settings.players, spec.inputs, realtime=False)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 1)
    session.edge_sink, session.lookahead_us = link.edge_sink, 5_000_000
    sim, source = link.sim, link.source

    def settled() -> bool:
        return source.session.expected == sim.board.events.next and not source.session._requests

    events = []
    try:
        # the hello and the clock burst, before the game's first moment (the board answers without its time moving)
        wait_until(lambda: source.connected, "the board connected")
        assert sim.now_us == 0 and source.session.clock.best_rtt_us() == 0
        for _ms in range(7_000):
            sim.advance(1000)
            wait_until(lambda: settled() or not source.connected, "the driver reading what the board sent")
            with box.lock:
                events += session.step(sim.host_clock() + box.time_offset_us)
    finally:
        link.close()
    buzzed = [e.player for e in events if e.kind == "buzz"]
    assert sorted(buzzed) == [0, 1, 2, 3]  # every player's press crossed the board
    assert box.late_deliveries == 0  # and in time: none came as late evidence
