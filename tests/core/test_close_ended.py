"""The game's ``Ended`` reaches ``play`` whatever was queued before it as the
game closed. A view that could not be encoded once took the outbox down as if
the screen had gone (said at INFO only), and the ``Ended`` behind it went
nowhere: the deciding process exited 0, and ``play`` never heard how many
records the disk refused. The test is ``play``'s screen: it talks to
``process.play`` over a socketpair; the deciding side's end is shut as the
process's exit would close it."""

from __future__ import annotations

import dataclasses
import logging
import socket
from pathlib import Path

import pytest

from controller import protocol as p
from controller.box import process, session
from games.registry import get
from tests.core.played_over_a_socket import stopped_by_the_host


def test_the_ended_goes_after_a_last_view_that_cannot_be_encoded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    spec = get("quiz")
    journal = tmp_path / "q.jsonl"
    args = process.parse(["--fd", "0", "--journal", str(journal), "--new"])
    taking = process.Taking(str(journal), session.new_game(spec, session.game_settings(spec, 2, 1, {}, None)))
    close = process.DecidingGame.close

    def closing(game: process.DecidingGame, reason: p.EndReason, link: process.Link | None = None,
                keep_inputs: bool = False) -> None:
        for viewer in game.viewers:  # the game's last view, built as the game changed under it
            viewer.outbox.publish(dataclasses.replace(p.NO_VIEW, version=10**6, public={"clock": object()}), [])
        close(game, reason, link, keep_inputs)

    monkeypatch.setattr(process.DecidingGame, "close", closing)
    mine, theirs = socket.socketpair()
    link = process.Link(theirs)
    with caplog.at_level(logging.WARNING, logger="buzzerbox.channel"):
        out, ended = stopped_by_the_host(args, process.Inputs(None, None, None), taking, link, mine, theirs)
    assert out == ["menu"] and ended.reason == "menu"
    assert any("could not be encoded" in r.getMessage() for r in caplog.records), caplog.records
