"""A journal replays under the rules it was played with, and says so: games
whose rules changed keep their older rules playable (``rules_version``)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from controller.box import journal as journal_mod
from controller.box.journal_writer import JournalWriter
from controller.box.runtime import Box, box_from_journal
from controller.box.scenario import check, run
from controller.box.simulate import Session
from controller.cli import main
from games.registry import get
from games.rules_version import RULES_OPTION

HOURS_4_US = 4 * 3600 * 1_000_000


def old_journal(path: Path, game: str, players: int, seed: int, version: int, **options: Any) -> dict[str, Any]:
    """A bot game played under rules ``version`` and journaled as a box of that
    day wrote it: the header names the version, the settings carry no
    ``rules_version`` option. Returns the summary as played."""
    spec = get(game)
    settings = spec.settings(players, seed, **{**spec.demo_options, **options, RULES_OPTION: version})
    box = Box(dataclasses.replace(spec, rules_version=version), settings)
    header = box.header(mode="simulate")
    del header["settings"]["options"][RULES_OPTION]
    box.journal = JournalWriter.create(path, header, fsync=False)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
    try:
        session.run_virtual(HOURS_4_US)
        box._write({"type": "end", "t_us": session.now_us})
    finally:
        box.journal.close()
    return box.summary()


def today_makes_of(path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """What today's rules make of the journal's presses (how the box replayed
    every journal before it kept older rules)."""
    with monkeypatch.context() as patch:
        patch.setattr("controller.box.runtime.as_played", lambda spec, settings, played: settings)
        return box_from_journal(journal_mod.load(str(path))).summary()


# (game, players, seed, the rules version the journal was played under)
OLD_GAMES = [("fiki-miki", 4, 5, 1), ("piepmatz", 3, 1, 1), ("pictomania", 4, 1, 2)]


@pytest.mark.parametrize(("game", "players", "seed", "version"), OLD_GAMES, ids=[g for g, *_ in OLD_GAMES])
def test_an_old_journal_replays_under_the_rules_it_was_played_with_and_says_so(
        game: str, players: int, seed: int, version: int, tmp_path: Path,
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / f"{game}.jsonl"
    played = old_journal(path, game, players, seed, version)
    assert played["finished"]
    header = json.loads(path.read_text().splitlines()[0])
    assert header["rules"] == version and RULES_OPTION not in header["settings"]["options"]
    assert main(["replay", str(path), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["scores"] == played["scores"]
    title = get(game).title
    assert (f"played under {title} rules {version}; replayed under those rules "
            f"(new games play rules {get(game).rules_version})") in err
    # the same presses under today's rules end otherwise: the replay above applied the old ones
    assert today_makes_of(path, monkeypatch)["scores"] != played["scores"]


def test_a_journal_older_than_any_rules_the_engine_keeps_says_which_it_applies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Pictomania's rules 1 (a 50 ms bell settle) are gone: such a journal
    replays under rules 2, the oldest kept, and the note names both."""
    path = tmp_path / "pictomania.jsonl"
    old_journal(path, "pictomania", 3, 4, 2)
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first["rules"] = 1
    rewritten = tmp_path / "rules1.jsonl"
    writer = JournalWriter.create(rewritten, {k: v for k, v in first.items() if k not in ("seq", "sum", "type")},
                                  fsync=False)
    for line in lines[1:]:
        writer.write({k: v for k, v in json.loads(line).items() if k not in ("seq", "sum")})
    writer.close()
    assert main(["replay", str(rewritten), "--json"]) == 0
    err = capsys.readouterr().err
    assert "played under Pictomania rules 1; this box replays rules 2" in err


def test_a_journal_of_todays_rules_replays_without_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fiki.jsonl"
    assert main(["simulate", "fiki-miki", "--players", "3", "--seed", "2", "--json", "--journal", str(path)]) == 0
    capsys.readouterr()
    assert json.loads(path.read_text().splitlines()[0])["settings"]["options"][RULES_OPTION] == 2
    assert main(["replay", str(path), "--json"]) == 0
    assert "rules" not in capsys.readouterr().err


TESTS = Path(__file__).resolve().parents[1]
#: each rule changed by a rules version, its scenario, and the version before it
CHANGED_RULES = [("fiki_miki/scenarios/fiki_miki_ban_covers_the_round_after_the_lost_turn.json", 1),
                 ("piepmatz/scenarios/piepmatz_pest_position_gives_the_card_and_strikes.json", 1),
                 ("pictomania/scenarios/pictomania_rulebook_example_scores_six.json", 2)]


@pytest.mark.parametrize(("scenario", "before"), CHANGED_RULES, ids=[Path(s).stem for s, _ in CHANGED_RULES])
def test_each_changed_rule_has_a_scenario_citing_the_rulebook_that_the_older_rules_fail(
        scenario: str, before: int) -> None:
    data = json.loads((TESTS / scenario).read_text())
    assert data["rulebook"]["quote"] and data["rulebook"]["meaning"] and data["rulebook"]["language"] in ("pl", "cs")
    assert check(data, run(data)) == []
    older = {**data, "options": {**data.get("options", {}), RULES_OPTION: before}}
    assert check(older, run(older)) != []
