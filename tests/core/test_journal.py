"""The journal rebuilds the same game, survives a torn last line, and resumes."""

from __future__ import annotations

import json

import pytest

from controller.box import journal
from controller.box.runtime import box_from_journal
from controller.cli import main


@pytest.mark.parametrize("game", ["quiz", "reaction"])
def test_simulate_journal_replays_to_identical_json(tmp_path, capsys, game):
    path = tmp_path / "game.jsonl"
    assert main(["simulate", game, "--players", "4", "--seed", "3", "--json", "--journal", str(path)]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert main(["replay", str(path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed == simulated
    assert simulated["finished"] is True


def test_same_seed_same_game_other_seed_other_game(capsys):
    outs = []
    for seed in (4, 4, 5):
        main(["simulate", "quiz", "--players", "3", "--seed", str(seed), "--json"])
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    assert outs[0] != outs[2]


def test_journal_holds_every_press_with_its_stamp(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    main(["simulate", "reaction", "--players", "2", "--seed", "1", "--journal", str(path)])
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["type"] == "session" and lines[0]["game"] == "reaction"
    presses = [x for x in lines if x["type"] == "press"]
    assert presses and all(isinstance(p["t_us"], int) for p in presses)
    assert lines[-1]["type"] == "end"


def test_torn_last_line_is_tolerated_and_resume_finishes_the_game(tmp_path, capsys):
    path = tmp_path / "cut.jsonl"
    main(["simulate", "quiz", "--players", "3", "--seed", "9", "--journal", str(path)])
    capsys.readouterr()
    lines = path.read_text().splitlines(keepends=True)
    keep = len(lines) // 2
    torn = lines[keep][: len(lines[keep]) // 2]  # the power went mid-write
    path.write_text("".join(lines[:keep]) + torn)

    j = journal.read(path)
    assert j.torn_tail and len(j.records) == keep - 1
    box = box_from_journal(j)
    assert not box.engine.finished

    assert main(["resume", str(path), "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert resumed["finished"] is True
    # the file was repaired and continued: it replays to the resumed state
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == resumed


def test_damaged_middle_line_is_an_error_naming_it(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"type":"session","version":1,"game":"quiz","settings":{"players":2}}\nnot json\n{"type":"tick","t_us":5}\n')
    with pytest.raises(journal.JournalError, match="line 2"):
        journal.read(path)


def test_simulate_refuses_to_overwrite_a_journal(tmp_path):
    path = tmp_path / "x.jsonl"
    path.write_text("keep me\n")
    with pytest.raises(SystemExit, match="resume"):
        main(["simulate", "quiz", "--players", "2", "--journal", str(path)])
    assert path.read_text() == "keep me\n"


def test_disputes_show_who_was_first_and_by_how_much(tmp_path, capsys):
    from controller.box.journal import JournalWriter
    from controller.box.press import Press
    from controller.box.runtime import Box
    from games import registry

    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3), station_names=["Ann", "Ben", "Cy"])
    box.journal = JournalWriter.create(tmp_path / "q.jsonl", box.header())
    box.host("arm", 0)
    box.apply_press(Press(1, "bell", 1_000_000))
    box.apply_press(Press(0, "bell", 1_000_412))
    box.step(2_000_000)
    box.journal.close()
    assert main(["replay", str(tmp_path / "q.jsonl"), "--disputes"]) == 0
    out = capsys.readouterr().out
    # Ben is announced as soon as no later press could tie (1 µs after his stamp), before Ann's press
    assert "FIRST  Ben" in out and "+0.412 ms behind Ben, who was first" in out
    assert out.index("press  Ben") < out.index("press  Ann")


def test_disputes_say_how_far_behind_a_press_after_the_decision_was(tmp_path, capsys):
    """A press long after the winner was announced is not in the winner's queue
    (that settled first); the dispute view still says how far behind it was."""
    from controller.box.journal import JournalWriter
    from controller.box.press import Press
    from controller.box.runtime import Box
    from games import registry

    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3), station_names=["Ann", "Ben", "Cy"])
    box.journal = JournalWriter.create(tmp_path / "q.jsonl", box.header())
    box.host("arm", 0)
    box.apply_press(Press(1, "bell", 1_000_000))
    box.step(1_500_000)  # Ben is announced first
    box.apply_press(Press(2, "bell", 1_587_250))
    box.step(2_000_000)
    box.journal.close()
    assert main(["replay", str(tmp_path / "q.jsonl"), "--disputes"]) == 0
    out = capsys.readouterr().out
    assert "press  Cy bell" in out and "+587.250 ms behind Ben, who was first" in out


def test_a_record_cut_before_its_newline_resumes_into_a_replayable_file(tmp_path, capsys):
    path = tmp_path / "nl.jsonl"
    main(["simulate", "quiz", "--players", "3", "--seed", "4", "--journal", str(path)])
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:30]).rstrip("\n"))  # whole record, newline lost
    capsys.readouterr()
    assert main(["resume", str(path), "--json"]) == 0
    resumed = json.loads(capsys.readouterr().out)
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == resumed


def test_replay_keeps_the_profiles_debounce(tmp_path):
    from controller.box.debounce import DebounceConfig
    from controller.box.journal import JournalWriter
    from controller.box.runtime import Box
    from games import registry

    spec = registry.get("quiz")
    config = DebounceConfig(bounce_us=30_000, glitch_us=5_000, active_level=1)
    box = Box(spec, spec.settings(2), debounce=config)
    box.journal = JournalWriter.create(tmp_path / "d.jsonl", box.header())
    box.journal.close()
    assert box_from_journal(journal.read(tmp_path / "d.jsonl")).debouncer.config == config


def test_resume_refuses_a_live_journal_without_touching_it(tmp_path):
    path = tmp_path / "live.jsonl"
    path.write_text('{"type":"session","version":1,"mode":"play","game":"quiz","settings":{"players":2}}\n{"type":"pre')
    before = path.read_bytes()
    with pytest.raises(SystemExit, match="play GAME --profile P --resume"):
        main(["resume", str(path)])
    assert path.read_bytes() == before
