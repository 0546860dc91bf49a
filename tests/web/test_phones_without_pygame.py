"""The phones' server is a process that draws nothing, so it loads no pygame
(its import took ~0.2 s and ~20 MB): it words each player's cell as the
game's scene does on the HDMI screen ("RIGHT" between the quiz's questions,
a reaction time) with the game's own wording (``GameSpec.strip_wording``),
which the scene calls too, never with the scene, which draws with pygame
(that every game's scene words its strip as its spec does is a requirement
of ``controller/apps/game_check.py``: ``strip_wording``)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from games import registry, scenes
from games.toolkit.strip_words import status_label
from tests.processes import HANG_S
from tests.web.finished import REACTION_ENDS, scripted

#: a quiz's question judged right for seat 1, then the evening's next game, a reaction round's result
QUIZ_VIEW: dict[str, Any] = {"phase": "round_over", "question": 2, "results": [{"winner": 1}], "queue": [1]}
QUIZ_STRIP = [{"name": "Ann", "status": "idle"}, {"name": "Bob", "status": "queued"}, {"name": "Cy", "status": "queued"}]
REACTION_VIEW: dict[str, Any] = {"phase": "result", "round": 3, "last": {"reaction_us": {"0": 231_456}},
                                 "false_starts": [2]}
REACTION_STRIP = [{"name": "Ann", "status": "won"}, {"name": "Bob", "status": "idle"}, {"name": "Cy", "status": "idle"}]

#: what ``python -m controller.web.process`` builds (``Phones``: its publisher, then the evening's next
#: game's, ``Phones.serve``), each given the deciding process's newest snapshot; the players' labels
#: on the scoreboard, and whether pygame was loaded
PROBE = """
import argparse, json, sys
from controller import protocol as p
from controller.box.session import starting_pages
from controller.box.views import snapshot_message
from controller.web.process import Phones
from games.registry import get

quiz_view, quiz_strip, reaction_view, reaction_strip = json.loads(sys.argv[1])

def serving(game, **options):
    spec = get(game)
    first = starting_pages(spec, spec.settings(3, seed=1, **options), None)
    return p.Serving(f"{game}=games.{game}", snapshot_message(first)), first

def labels(snap):
    return [player["label"] for player in json.loads(snap.board)["players"]]

args = argparse.Namespace(viewer_socket="unused.sock", port=0, bind="127.0.0.1", address="127.0.0.1", players=3,
                          starter=0, evening=True, between=False, kept_seats=False)
quiz, first = serving("quiz", pack="en-general")
phones = Phones(args, quiz)
said = [labels(phones.publisher.update(first, quiz_view, quiz_strip, finished=False))]
reaction, first = serving("reaction")
phones.serve(reaction)
said.append(labels(phones.publisher.update(first, reaction_view, reaction_strip, finished=False)))
print(json.dumps({"labels": said, "pygame": "pygame" in sys.modules}))
"""


def shown_labels(game: str, view: dict[str, Any], strip: list[dict[str, Any]]) -> list[str]:
    """Each cell's label as the HDMI screen's scene words it (this test's process has pygame)."""
    spec = registry.get(game)
    return [status_label(cell, spec.status_labels) for cell in scenes.scene_for(game).adjust_strip(view, strip)]


def test_the_phones_server_words_the_strip_as_the_screen_does_and_loads_no_pygame() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE, json.dumps([QUIZ_VIEW, QUIZ_STRIP, REACTION_VIEW,
                                                                    REACTION_STRIP])],
                          capture_output=True, text=True, timeout=HANG_S, check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["labels"] == [shown_labels("quiz", QUIZ_VIEW, QUIZ_STRIP),
                             shown_labels("reaction", REACTION_VIEW, REACTION_STRIP)]
    assert got["labels"] == [["", "RIGHT", ""], ["231.5 ms", "", "EARLY"]]  # worded, not the raw statuses
    assert got["pygame"] is False


#: the phones' server as it runs (``Phones``) given the deciding process's view of a finished reaction
#: game (``Phones.take``): its snapshot's players' labels, and whether pygame was loaded
FINISHED_PROBE = """
import argparse, json, sys
from dataclasses import replace
from controller import protocol as p
from controller.box.session import starting_pages
from controller.box.views import Publisher, snapshot_message, view_of
from controller.web.process import Phones
from games.registry import get
from tests.web.finished import REACTION_ENDS, scripted

box = scripted(REACTION_ENDS)
spec = get("reaction")
first = starting_pages(spec, box.settings, None)
args = argparse.Namespace(viewer_socket="unused.sock", port=0, bind="127.0.0.1", address="127.0.0.1", players=3,
                          starter=0, evening=False, between=False, kept_seats=False)
phones = Phones(args, p.Serving("reaction=games.reaction", snapshot_message(first)))
with box.lock:  # the deciding process's view, its pages built with no scene
    view = replace(view_of(box, box.now_us), companion=snapshot_message(Publisher(box).build()))
phones.take(view)
page = json.loads(phones.publisher.latest.board)
print(json.dumps({"labels": [player["label"] for player in page["players"]], "finished": view.finished,
                  "pygame": "pygame" in sys.modules}))
"""


def test_the_phones_server_words_a_finished_game_as_the_results_screen_and_loads_no_pygame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A reaction game ended on a false start: the screen draws the results screen, "WON" under
    the winner and no other word but a fault's (tests/web/test_pages_word_the_end.py), and so do
    the pages of the phones' server, which words them without pygame (not "EARLY", the last
    round's word)."""
    from tests.web.drawn import on_screen

    done = subprocess.run([sys.executable, "-c", FINISHED_PROBE], capture_output=True, text=True, timeout=HANG_S,
                          check=False)
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["finished"] is True
    assert got["labels"] == [word for _status, word in on_screen(scripted(REACTION_ENDS), monkeypatch)]
    assert got["labels"] == ["", "WON", ""]
    assert got["pygame"] is False
