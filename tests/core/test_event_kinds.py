"""The event kinds the box itself branches on are one enum (games.base.EventKind),
each its own string: journals, views and the channel keep the words they always
had, so journals written before the enum still replay."""

from __future__ import annotations

import json
from pathlib import Path

from controller.box import journal as journal_mod
from controller.box.press import InputNotice, Press
from controller.box.runtime import HOST_PAUSED, HOST_STATION, Box, box_from_journal
from controller.box.simulate import Session
from games import registry
from games.base import Action, EventKind, GameEvent


def test_a_kind_is_its_string_wherever_it_is_written() -> None:
    assert EventKind.SHOW == "show" and f"{EventKind.SHOW}" == str(EventKind.SHOW) == "show"
    assert json.dumps(GameEvent(EventKind.SHOW, 1).to_json()) == '{"kind": "show", "t_us": 1}'
    assert {"show": "a frame"}[EventKind.SHOW] == "a frame"  # tables keyed by the strings still answer


def test_the_games_and_the_runtime_say_their_own_kinds_with_the_enum() -> None:
    spec = registry.get("reaction")
    settings = spec.settings(2, seed=3)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), 3)
    shows: list[GameEvent] = []
    while len(shows) < 3 and (due := session.next_time_us()) is not None:
        shows += [e for e in session.step(due) if e.kind == "show"]
    assert shows and all(e.kind is EventKind.SHOW for e in shows)
    refused = box.apply_action(Action("no_such_move", 60_000_001))
    assert refused[-1].kind is EventKind.REJECTED  # after the rounds that fell due by its stamp
    assert [e.kind for e in refused].count(EventKind.REJECTED) == 1


def test_a_journal_keeps_the_words_and_one_written_with_strings_replays(tmp_path: Path) -> None:
    spec = registry.get("quiz")
    path = tmp_path / "q.jsonl"
    box = Box(spec, spec.settings(3, seed=1), station_names=["Ann", "Bob", "Cy"])
    box.journal = journal_mod.JournalWriter.create(path, box.header(mode="play"))
    box.press(Press(HOST_STATION, "arm", 0))
    box.step(0)
    box.notice(InputNotice(HOST_STATION, "host", HOST_PAUSED, 1_000_000))
    box.step(1_000_000)
    assert box.host_paused
    box.journal.close()
    text = path.read_text()
    assert '"host_paused"' in text and "EventKind" not in text  # the word, as journals always had it
    again = box_from_journal(journal_mod.read(path))  # read back: plain strings, as from an old journal
    assert again.engine.summary() == box.engine.summary()
