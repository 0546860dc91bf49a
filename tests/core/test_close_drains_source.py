"""``play``'s game closes as it always did: its inputs are stopped before the
journal's ``end``, so what a source hands over as it stops (the GPIO
reader reads the kernel's pipe to its end) is journaled. The evening's
change kept the inputs open past the end and stopped them only after,
when nothing reached the box any more: a press made as the host stopped
the game was lost. The test is ``play``'s screen: it talks to
``process.play`` over a socketpair; each wait ends on what it says."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from controller.box import process, session
from controller.box import profile as profile_mod
from controller.box.press import Press
from controller.box.sources.base import InputSink, Source
from controller.box.timeline import box_now_us
from games.registry import get
from tests.core.played_over_a_socket import stopped_by_the_host


class Draining(Source):
    """A source holding one press it hands over as it stops (as a reader that reads its pipe to the end)."""

    name = "gpio"

    def __init__(self) -> None:
        self.sink: InputSink | None = None

    def start(self, sink: InputSink) -> None:
        self.sink = sink

    def stop(self) -> None:
        if self.sink is not None:
            # stamped as it stops: a stamp 1 ms back fell before the session began when the game closed
            # within a millisecond of its start, and the box rightly refused it as stale
            self.sink.press(Press(1, "bell", box_now_us()))
            self.sink = None


def test_plays_game_journals_the_press_its_source_hands_over_as_it_stops(tmp_path: Path) -> None:
    profile = profile_mod.load("header-4")
    spec = get("quiz")
    settings = session.game_settings(spec, 4, 1, {}, profile)
    journal = tmp_path / "q.jsonl"
    args = process.parse(["--fd", "0", "--journal", str(journal), "--new", "--profile", "header-4"])
    mine, theirs = socket.socketpair()
    link = process.Link(theirs)
    source = Draining()
    source.start(link.relay)  # as ``Inputs.open`` starts it
    inputs = process.Inputs(profile, source, None)
    taking = process.Taking(str(journal), session.new_game(spec, settings))
    out, _ended = stopped_by_the_host(args, inputs, taking, link, mine, theirs)
    assert out == ["menu"]
    kinds = [json.loads(line)["type"] for line in journal.read_text(encoding="utf-8").splitlines()]
    assert kinds[-1] == "end"
    assert "press" in kinds, kinds  # handed over as the source stopped, before the end: journaled
