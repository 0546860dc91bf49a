"""The event kinds the box itself branches on are one enum (games.base.EventKind),
each its own string: journals, views and the channel keep the words they always
had, so journals written before the enum still replay."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from controller.box import journal as journal_mod
from controller.box.clips import NO_CLIPS, ClipPlayer
from controller.box.debounce import DebounceConfig, Debouncer
from controller.box.press import InputNotice, NoticeKind, Press
from controller.box.runtime import HOST_PAUSED, HOST_STATION, Box, box_from_journal
from controller.box.simulate import Session
from games import registry
from games.base import Action, ClipCues, EventKind, GameEvent
from games.quiz.engine import QuizEvent


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


def test_the_inputs_say_their_notices_with_the_notice_enum() -> None:
    """A glitch and a stuck line are told by ``NoticeKind`` (each its word: a journal or the channel
    reads the same), not by strings each module spells again."""
    debouncer = Debouncer(DebounceConfig())
    debouncer.start_all({}, 0)
    out = debouncer.edge(0, "bell", 0, 1_000, 1) + debouncer.edge(0, "bell", 1, 1_200, 1)  # a brush: noise
    out += debouncer.poll(50_000)
    out += debouncer.edge(1, "bell", 0, 100_000, 1) + debouncer.poll(100_000 + DebounceConfig().stuck_us + 1)
    kinds = [o.kind for o in out if isinstance(o, InputNotice)]
    assert NoticeKind.GLITCH in kinds and NoticeKind.STUCK in kinds, out
    assert all(type(kind) is NoticeKind for kind in kinds) and NoticeKind.STUCK == "stuck"


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


def test_the_journals_notice_is_a_kind_of_the_enum_with_its_word_unchanged() -> None:
    assert EventKind("journal") is EventKind.JOURNAL and EventKind.JOURNAL == "journal"


def played_kinds(game: str, players: int, seed: int, **options: Any) -> list[str]:
    """Every event kind a simulated game says, in order, until it ends."""
    spec = registry.get(game)
    settings = spec.settings(players, seed=seed, **{**spec.demo_options, **options})
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
    kinds: list[str] = []
    while not box.engine.finished and (due := session.next_time_us()) is not None:
        kinds += [e.kind for e in session.step(due)]
    return kinds


@pytest.mark.parametrize("options", [{}, {"rules": "bowl"}, {"rules": "all-play", "pack": "en-general"}],
                         ids=["classic", "bowl", "all-play"])
def test_the_quiz_says_every_kind_with_an_enum_its_own_or_the_common_one(options: dict[str, Any]) -> None:
    kinds = played_kinds("quiz", 4, 2, **options)
    assert "game_over" in kinds
    assert [k for k in kinds if not isinstance(k, (EventKind, QuizEvent))] == []
    spec = registry.get("quiz")
    declared = [*spec.logged_events, *spec.event_sounds, *spec.clip_cues.shown, *spec.clip_cues.opening,
                *spec.clip_cues.pausing, *spec.clip_cues.stopping]
    assert [k for k in declared if not isinstance(k, QuizEvent)] == []  # its spec names them by the enum too


class Music:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Callable[..., None]:
        return lambda *args: self.calls.append(name)


def test_a_game_declares_which_of_its_kinds_show_open_pause_and_stop_a_clip_and_the_box_follows_them() -> None:
    """The clip player knows no game's words: a game's spec says them (``ClipCues``), the quiz's among them."""
    cues = ClipCues(shown=frozenset({"card"}), opening=frozenset({"go"}), pausing=frozenset({"hold"}),
                    stopping=frozenset({"done"}))
    music = Music()
    player = ClipPlayer(music)
    clip = {"audio": {"file": "tune.ogg"}}
    player.on_events([GameEvent("card", 0, None, clip), GameEvent("go", 1)], cues)
    assert player.state == "playing" and player.clip is not None and player.clip.file == "tune.ogg"
    player.on_events([GameEvent("hold", 2)], cues)
    assert player.state == "paused"
    player.on_events([GameEvent("go", 3, None, {"rearmed": True})], cues)
    assert player.state == "playing" and music.calls.count("play") == 1  # played on, not again from its start
    player.on_events([GameEvent(EventKind.WINNER, 4, 0)], cues)  # the common kinds still pause and stop it
    assert player.state == "paused"
    player.on_events([GameEvent(EventKind.HOST_CONTINUED, 5), GameEvent("done", 6)], cues)
    assert player.state == "stopped" and music.calls[-2:] == ["unpause", "stop"]
    # the quiz's words mean nothing to a game that does not declare them ...
    quiet = ClipPlayer(Music())
    quiet.on_events([GameEvent("question", 0, None, clip), GameEvent("armed", 1)], NO_CLIPS)
    assert quiet.clip is None and quiet.state == "stopped"
    # ... and the quiz's spec declares them
    quiz = ClipPlayer(Music())
    quiz.on_events([GameEvent("question", 0, None, clip), GameEvent("armed", 1)], registry.get("quiz").clip_cues)
    assert quiz.state == "playing"
    quiz.on_events([GameEvent("next_in_line", 2, 1)], registry.get("quiz").clip_cues)
    assert quiz.state == "paused"
    quiz.on_events([GameEvent("reveal", 3)], registry.get("quiz").clip_cues)
    assert quiz.state == "stopped"
