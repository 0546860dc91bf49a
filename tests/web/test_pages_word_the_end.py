"""At a game's end the HDMI screen draws the results screen (a game without
an end screen of its own: ``own_results``), whose strip says "WON" under the
winners and clears every other word of the game's ("EARLY", a reaction time,
"NO CARDS"). The phones' pages (host page and scoreboard) and the board the
league's follower sends the hall say what that strip says, not the game's
words of its last round: they word it with the same code
(games/toolkit/results_words.py), pygame-free. (The hall's page itself shows
each room's names and scores, no labels.)
A game with its own end screen (Viva Topo's "WINS") keeps its own words on
the screen, and so on the pages.

The screen's words are read where it draws them: the strip ``draw_strip``
gets from the presenter's frame of the finished game."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from controller.box.runtime import Box
from controller.box.views import Publisher, RelayedPublisher, view_of
from controller.league.follow import board_wording
from controller.league.tournament import Match
from games import registry
from games.scenes import scene_for
from tests.web.drawn import on_screen
from tests.web.finished import REACTION_ENDS, played, scripted


def labels(page: str) -> list[str]:
    return [str(player["label"]) for player in json.loads(page)["players"]]


def on_pages(box: Box) -> dict[str, list[str]]:
    """Each player's label on the pages and the hall's board, where each is worded: the phones'
    server (the deciding process's snapshot relabelled with the game's spec, no scene), a
    server beside the game in one process, and the league's follower (its board, with the spec)."""
    spec = box.spec
    with box.lock:
        deciding = Publisher(box)  # the deciding process's pages: built with no scene
        snap = deciding.build()
        view = view_of(box, box.now_us)
        local = Publisher(box)
        local.scene = spec
        beside = local.build()
    phones = RelayedPublisher(box, snap)
    phones.scene = spec  # as controller/web/process.py sets it
    served = phones.update(snap, view.public, view.strip, finished=view.finished)
    hall = board_wording(Match("m1", "hall", ("a", "b"), spec.name))(replace(view, board=snap.board))
    return {"phones' host page": labels(served.host), "phones' scoreboard": labels(served.board),
            "one process's scoreboard": labels(beside.board), "hall's board": labels(hall)}


def agree(shown: Sequence[tuple[str, str]], pages: dict[str, list[str]]) -> None:
    words = [word for _status, word in shown]
    for where, said in pages.items():
        assert said == words, f"{where} says {said}, the screen {words}"


def test_a_finished_reaction_game_says_won_not_early_on_the_pages_and_the_halls_board(
        monkeypatch: pytest.MonkeyPatch) -> None:
    box = scripted(REACTION_ENDS)
    assert box.engine.finished and box.engine.public_view()["false_starts"] == [2]  # the game's own word: EARLY
    shown = on_screen(box, monkeypatch)
    assert shown == [("idle", ""), ("won", "WON"), ("idle", "")]  # the results screen's strip
    pages = on_pages(box)
    agree(shown, pages)
    assert "EARLY" not in str(pages)


@pytest.mark.parametrize("game", registry.available())
def test_every_finished_game_says_on_the_pages_what_the_screen_says(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game played to its end by its bots: the pages and the hall's board say what the
    screen's strip says under the end screen drawn, the results screen's or the game's own
    (Viva Topo's "WINS" stays: its scene draws its own; on main's files reaction's and
    Pictomania's pages said their last round's words, "QUEUED", "DONE +1")."""
    box = played(game)
    shown = on_screen(box, monkeypatch)
    if not scene_for(game).own_results:
        assert {status for status, _word in shown} <= {"won", "idle", "stuck", "disconnected"}
    agree(shown, on_pages(box))


class OwnEndScene:
    """A scene drawing an end screen of its own, wording each cell its own way."""

    own_results = True

    def adjust_strip(self, view: Any, strip: Any) -> Any:
        return [{**cell, "label": f"own {i}"} for i, cell in enumerate(strip)]


def test_the_pages_follow_the_scenes_own_end_screen_not_the_specs() -> None:
    """Whether a finished game's strip is the results screen's is the scene's to say (its
    ``own_results``), the scene the pages word the strip with: a scene with its own end screen keeps
    its words though its spec (reaction's) has none (on the old code the spec decided: "WON")."""
    box = scripted(REACTION_ENDS)
    assert box.engine.finished and not box.spec.own_results
    with box.lock:
        pages = Publisher(box)
        pages.scene = OwnEndScene()
        snap = pages.build()
    assert labels(snap.board) == ["own 0", "own 1", "own 2"]
