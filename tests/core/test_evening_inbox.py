"""What the menu sends right behind an evening's ``Play`` is the game's: the
keyboard stations' presses a screen held while no deciding process listened
(``DecidingLink.connect`` sends them at once), the phones' seats, a key. The
evening's process took every message waiting when it looked and dropped
those behind the ``Play``. The test is the menu's end of the channel; it
looks only once both messages wait (no race with the reader thread)."""

from __future__ import annotations

import socket

from controller import channel
from controller import protocol as p
from controller.box import process
from controller.box.press import Edge


def test_what_follows_a_play_in_the_channel_waits_for_the_game() -> None:
    mine, theirs = socket.socketpair()
    link = process.Link(theirs)
    try:
        play = p.Play("/tmp/game.jsonl", None, "quiz=games.quiz")
        held = p.EdgeInput(Edge(1, "bell", 0, 1_000), 1)  # a keyboard station's press held meanwhile
        channel.send(mine, play)
        channel.send(mine, held)
        mine.close()  # after them, the channel's end: all three are in the inbox once None is
        while link.inbox.qsize() < 3:
            link.closed.wait()
        assert process.between(link, process.Inputs(None, None, None)) == play
        assert link.next(0) == held  # for the game (its attach hands what waits to it first)
    finally:
        link.close()
        theirs.close()
