"""A box's side without a broker: a crashed match resumed by ``play --league``,
a match played again numbered next (``league replay``, or its journal moved
aside by hand), ``play --resume JOURNAL`` as docs/league.md gives it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from controller.box import journal as journal_mod
from controller.league.broker import write_broker_files
from controller.league.commands import room_folder
from controller.league.messages import Bracket
from controller.league.outbox import RoomFolder
from controller.league.simulated import play_next
from controller.league.tournament import Tournament, load
from tests.league.conftest import PLAYOFF, play_round_robin


@pytest.fixture
def cup(league_file: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, silent_port: int) -> Tournament:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    t = load(league_file(silent_port))  # nothing listens there
    write_broker_files(t, tmp_path / "broker")
    return t


def journals(tmp_path: Path) -> Path:
    return tmp_path / "data" / "buzzerbox" / "journals"


def semi_finals_drawn(t: Tournament, tmp_path: Path) -> RoomFolder:
    """Room a (the playoff's) with its round robin played and the hub's draw taken: owls v moles, foxes v bees."""
    folder = room_folder(t, "a", journals(tmp_path))
    play_round_robin(folder)
    folder.take_bracket(Bracket({"sf1": ("owls", "moles"), "sf2": ("foxes", "bees")}, frozenset()))
    return folder


def test_play_in_a_league_resumes_a_match_a_crash_cut_off(cup: Tournament, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    folder = room_folder(cup, "a", journals(tmp_path))
    crashed = play_next(folder, 4, crash_after_s=20)
    assert crashed is not None and crashed.id == "m1"
    journal = folder.folder / "m1-1.jsonl"
    before = len(journal_mod.read(journal).records)
    assert main(["play", "--league", str(cup.path), "--room", "a", "--headless", "--seconds", "0.2"]) == 0
    said = capsys.readouterr().err
    assert f"a: match m1 did not end: resuming it from {journal}" in said
    resumed = journal_mod.read(journal)
    assert resumed.ended and len(resumed.records) > before  # carried on in its own journal
    assert not (folder.folder / "m1-2.jsonl").exists()
    assert [r.match for r in folder.results()] == ["m1"]
    next_match = folder.next_match()
    assert next_match is not None and next_match.id != "m1"


def test_play_in_a_league_resumes_a_playoff_decider_a_crash_cut_off(cup: Tournament, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A drawn semi-final is played again as its decider (seq 2); the box dies in it: the next
    `play --league` carries the decider on in its own journal, not a third play from the start."""
    from controller.cli import main

    cup.path.write_text(cup.path.read_text() + PLAYOFF)
    t = load(cup.path)
    folder = semi_finals_drawn(t, tmp_path)
    assert play_next(folder, 1) is not None  # seed 1: owls and moles draw 2:2
    drawn = [r for r in folder.results() if r.match == "sf1"]
    assert [(r.seq, r.scores) for r in drawn] == [(1, (2, 2))], "seed 1 no longer draws: pick a seed that does"
    decider = play_next(folder, 2, crash_after_s=20)
    assert decider is not None and decider.id == "sf1"
    journal = folder.folder / "sf1-2.jsonl"
    assert [(p.match, p.seq) for p in folder.unfinished()] == [("sf1", 2)]
    assert main(["play", "--league", str(t.path), "--room", "a", "--headless", "--seconds", "0.2"]) == 0
    assert f"a: match sf1 did not end: resuming it from {journal}" in capsys.readouterr().err
    assert journal_mod.read(journal).ended
    assert not (folder.folder / "sf1-3.jsonl").exists()
    assert [r.seq for r in folder.results() if r.match == "sf1"] == [1, 2]  # the decider's result is the next seq


def test_a_match_played_again_gets_the_next_seq(cup: Tournament, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    from controller.cli import main

    folder = room_folder(cup, "a", journals(tmp_path))
    play_next(folder, 1)
    assert main(["league", "replay", str(cup.path), "--room", "a", "--match", "m1",
                 "--journal-dir", str(journals(tmp_path))]) == 0
    assert "match m1 is played again next in room a" in capsys.readouterr().out
    again = folder.next_match()
    assert again is not None and again.id == "m1"
    play_next(folder, 2)
    assert [(r.match, r.seq) for r in folder.results()] == [("m1", 2)]  # the hub takes it over seq 1
    assert (folder.folder / "replaced" / "m1-1.jsonl").is_file()

    # the organiser moved the journal aside by hand instead: still the next seq, never 1 again
    for f in folder.folder.glob("m1-2.jsonl*"):
        f.unlink()
    play_next(folder, 3)
    assert [(r.match, r.seq) for r in folder.results()] == [("m1", 3)]
    from controller.cli import CommandFailed

    with pytest.raises(CommandFailed, match="^buzzerbox league replay: room a plays no match m2$"):
        main(["league", "replay", str(cup.path), "--room", "a", "--match", "m2", "--journal-dir", str(journals(tmp_path))])


def test_play_resume_journal_as_the_docs_say(cup: Tournament, tmp_path: Path) -> None:
    from controller.cli import main

    folder = room_folder(cup, "b", journals(tmp_path))
    play_next(folder, 5, crash_after_s=15)
    journal = folder.folder / "m2-1.jsonl"
    assert main(["play", "--resume", str(journal), "--headless", "--seconds", "0.2"]) == 0
    assert journal_mod.read(journal).ended


def test_a_rehearsal_plays_the_whole_tournament_with_simulated_boxes(
        cup: Tournament, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`buzzerbox league rehearse cup.toml`: its own broker and hub, every match played, the standings recounted;
    the day's journals and passwords untouched."""
    from controller.cli import main
    from tests import runtimes

    runtimes.require("mosquitto")
    secrets_before = sorted(p.name for p in (tmp_path / "secrets").iterdir())
    assert main(["league", "rehearse", str(cup.path), "--port", "0"]) == 0
    out = capsys.readouterr()
    assert "rehearsal: 15 of 15 matches played in 3 rooms; the hub counted 15" in out.out
    assert "rehearsal: the hub's standings equal a recount from the journals" in out.out
    assert len([line for line in out.out.splitlines() if line[:3].strip().isdigit()]) == 6  # the table: six teams
    assert "rehearsal: round 5: 3 matches played" in out.err
    assert not journals(tmp_path).exists()  # nothing in the box's own journal folder
    assert sorted(p.name for p in (tmp_path / "secrets").iterdir()) == secrets_before


def test_a_rehearsal_plays_the_playoff_to_its_champion(cup: Tournament, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """With a [playoffs] section the rehearsal goes on after the round robin: the hub's draw, both
    semi-finals, the final, every draw replayed as its decider, and the champion said."""
    import re

    from controller.cli import main
    from tests import runtimes

    runtimes.require("mosquitto")
    cup.path.write_text(cup.path.read_text() + PLAYOFF)
    assert main(["league", "rehearse", str(cup.path), "--port", "0", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "rehearsal: 15 of 15 matches played in 3 rooms; the hub counted 15" in out
    table = [line.split()[1] for line in out.splitlines() if line[:3].strip().isdigit()]
    lines = re.findall(r"^rehearsal: playoff (\w+): (\w+) v (\w+) (\d+):(\d+)( \(after \d+ deciders?\))?$", out, re.M)
    assert [x[0] for x in lines] == ["sf1", "sf2", "final"], out
    sf1, sf2, final = lines
    assert (sf1[1:3], sf2[1:3]) == ((table[0], table[3]), (table[1], table[2]))  # seeded 1 v 4, 2 v 3
    winners = [x[1] if int(x[3]) > int(x[4]) else x[2] for x in lines]
    assert all(x[3] != x[4] for x in lines)  # no draw stands
    assert final[1:3] == (winners[0], winners[1])
    assert any(x[5] for x in lines), "seed 4 no longer draws a playoff match: pick a seed whose rehearsal does"
    assert f"rehearsal: the champion is {winners[2]}" in out


def test_a_drawn_playoff_match_decided_by_one_tiebreak_question(cup: Tournament, tmp_path: Path) -> None:
    """`decider = "question"` in [playoffs]: a drawn semi-final is not played again whole; the box plays one
    tiebreak question as its decider, and its result (the next seq) is what the hub takes for the match."""
    from controller.league.tournament import problems

    base = cup.path.read_text()
    cup.path.write_text(base + PLAYOFF + 'decider = "overtime"\n')
    assert problems(cup.path)[1] == ['playoffs.decider: must be "match" (a drawn match played again) or "question" '
                                     '(one tiebreak question)']
    cup.path.write_text(base + PLAYOFF + 'game = "reaction"\ndecider = "question"\n')
    assert problems(cup.path)[1] == ['playoffs.decider: "question" needs the quiz (the playoff plays reaction): '
                                     'use "match"']
    cup.path.write_text(base + PLAYOFF + 'decider = "question"\n')
    folder = semi_finals_drawn(load(cup.path), tmp_path)
    first = folder.next_match()
    assert first is not None and first.id == "sf1" and "questions" not in first.options  # the match, whole
    play_next(folder, 1)  # seed 1: owls and moles draw 2:2 over the demo's four questions
    (drawn,) = [r for r in folder.results() if r.match == "sf1"]
    assert drawn.scores == (2, 2) and len(drawn.questions) == 4, "seed 1 no longer draws: pick a seed that does"
    decider = folder.next_match()
    assert decider is not None and decider.id == "sf1" and decider.options["questions"] == 1
    seed = 2
    while (match := folder.next_match()) is not None and match.id == "sf1":  # a drawn tiebreak: another one
        play_next(folder, seed)
        seed += 1
    tiebreaks = [r for r in folder.results() if r.match == "sf1"][1:]
    assert tiebreaks and all(len(r.questions) == 1 for r in tiebreaks)  # one question each
    assert [r.seq for r in tiebreaks] == list(range(2, 2 + len(tiebreaks)))  # reported as the match's next seq
    assert len(set(tiebreaks[-1].scores)) == 2  # the last one decided it
