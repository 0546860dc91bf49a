"""What the host page asks of the menu (``StartNext``, ``SetOption``,
``HostRenamed``) just as the menu hands a game to its evening's deciding
process reaches the menu's game channel after ``Play``: the game's screen
sets it aside for the menu and goes on (it is not the game's end, and the
evening's live process is never waited for as if it had died)."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.screen import viewer
from controller.screen.loop import Presenter
from controller.screen.screen import Screen
from games.registry import get
from games.scenes import scene_for


@pytest.fixture(autouse=True)
def dummy_screen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield


class LiveProcess:
    """The evening's deciding process, which outlives the game: waiting for it would freeze the menu."""

    def wait(self, timeout: float | None = None) -> int:
        raise AssertionError("the menu waited for the evening's live deciding process: its window froze")

    def poll(self) -> None:
        return None


class Evening:
    """An evening as ``run_split`` uses it: ``take`` hands over the channel whose other end the test holds."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.asked: list[p.Message] = []

    def take(self, game: Any, resume: bool) -> tuple[Any, socket.socket]:
        return LiveProcess(), self.sock


def test_a_start_asked_just_after_play_waits_for_the_menu_and_the_game_ends_as_it_ends(tmp_path: Path) -> None:
    spec = get("quiz")
    mine, theirs = socket.socketpair()
    evening = Evening(mine)
    game = viewer.SplitGame(tmp_path / "j.jsonl", None, spec, spec.settings(2), True, None, [],
                            new_game=p.NewGame("quiz", 2, 0, {}), evening=evening)  # type: ignore[arg-type]
    # the host double-tapped "Start it now": the second came after the menu's Play; then the game ended unbegun
    for message in (p.StartNext(), p.HostRenamed(0, "Eva"), p.Ended(p.NOT_BEGUN)):
        channel.send(theirs, message)
    try:
        over = viewer.run_split(game, Presenter(Screen.open(headless=True), scene_for("quiz")), None, 30)
    finally:
        mine.close()
        theirs.close()
    assert over.ended.reason == p.NOT_BEGUN
    assert evening.asked == [p.StartNext(), p.HostRenamed(0, "Eva")]  # the menu acts on them between games


def test_a_new_game_without_what_it_journals_cannot_be_made(tmp_path: Path) -> None:
    """A new game's deciding process is started ``--new`` and waits for its ``Start``, made of
    ``new_game``: one without it would wait for ever. Before, such a SplitGame was made and
    its deciding process was sent nothing."""
    spec = get("quiz")
    with pytest.raises(ValueError):
        viewer.SplitGame(tmp_path / "j.jsonl", None, spec, spec.settings(2), True, None, [])
    resumed = viewer.SplitGame(tmp_path / "j.jsonl", None, spec, spec.settings(2), False, None, [])
    assert resumed.new_game is None  # a resumed game's header is in its journal already
