"""``play`` done with a game whose deciding process closed before its phones' server connected
(a stop as the game began) tells the server so (``FINISH``): it ends by itself at once. It
had waited for a deciding process to listen, and ``play`` waited 10 s for it before asking
it to stop (SIGTERM): a Ctrl+C right after ``play --web`` started took 10-20 s."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from controller.box.session import starting_pages
from controller.web import process as web_process
from games.registry import get


def test_a_phones_server_whose_game_closed_before_it_connected_ends_by_itself_when_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = get("quiz")
    settings = spec.settings(2)
    asked: list[int] = []
    killpg = os.killpg

    def recorded(pid: int, number: int) -> None:
        asked.append(number)
        killpg(pid, number)

    monkeypatch.setattr(web_process.os, "killpg", recorded)
    # no deciding process ever listens there: the game closed before the server could connect
    phones = web_process.PhonesProcess.start(str(tmp_path / "closed.sock"), 0, spec, 2,
                                             starting_pages(spec, settings, None), bind="127.0.0.1")
    server = phones.process
    assert server is not None
    phones.stop(wait_s=60)  # (a hang's bound: on the old code it waited this long, then SIGTERM)
    assert asked == [] and server.returncode == 0  # it ended by itself: never asked to stop, never killed
