"""A message names a game as GAME=PACKAGE (an evening's ``Play``, the phones'
server's ``Serving``): the reading process plays it only if it knows that
game from that package already (``games/``, or registered as it started),
and never imports a package a peer names (``registry.known``)."""

from __future__ import annotations

import pytest

from games import registry
from games.base import UnknownGameError


def test_a_game_this_process_knows_is_named_by_its_package() -> None:
    assert registry.known("quiz=games.quiz") == "quiz"
    with registry.register("hands", "tests.web.hands"):  # registered as a process started (--register)
        assert registry.known("hands=tests.web.hands") == "hands"


@pytest.mark.parametrize("pair", ["quiz=os", "hands=tests.web.hands", "quiz", "=games.quiz", "evil=games.quiz"])
def test_any_other_package_is_refused_in_one_line_and_imports_nothing(pair: str) -> None:
    with pytest.raises(UnknownGameError) as refused:
        registry.known(pair)
    line = str(refused.value)
    assert "\n" not in line and "same install" in line, line
    assert registry.packages().get("quiz") == "games.quiz" and "evil" not in registry.packages()


def test_a_started_process_is_told_every_game_registered_beside_games() -> None:
    assert registry.register_args("quiz") == ["--register", "quiz=games.quiz"]
    with registry.register("hands", "tests.web.hands"):
        assert registry.register_args("quiz") == ["--register", "quiz=games.quiz", "--register", "hands=tests.web.hands"]
        assert registry.register_args("hands") == ["--register", "hands=tests.web.hands"]


def test_the_phones_server_refuses_a_serving_of_a_game_it_does_not_know(caplog: pytest.LogCaptureFixture) -> None:
    """The evening's phones' server told to serve a game from a package it was not started with
    (``Serving``) says so in one line of its log and serves on what it served: nothing imported,
    its games as they were (it used to register and import whatever the message named)."""
    import contextlib
    import logging

    from controller import protocol as p
    from controller.web.process import Phones

    class Server:  # what of the server ``serve`` may touch before it knows the game (the old one's stack)
        registered = contextlib.ExitStack()

    try:
        with caplog.at_level(logging.WARNING, logger="buzzerbox.web"):
            Phones.serve(Server(), p.Serving("quiz=tests.core.imported_by_a_message", {}))  # type: ignore[arg-type]
    finally:
        Server.registered.close()
    [line] = [r.getMessage() for r in caplog.records if r.name == "buzzerbox.web"]
    assert "tests.core.imported_by_a_message" in line and "\n" not in line
    assert registry.packages()["quiz"] == "games.quiz"
