"""``play`` on real stations as it starts by default (the split design): the
deciding process owns the inputs and the lamps and runs the roll call on
them; the screen's process (this test's, running ``play`` in-process) only
draws the roll call it is sent and opens no input of its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import profile as profile_mod
from controller.box.timeline import box_now_us
from controller.screen import viewer
from controller.screen.menu import RollCallScene

ENV = {"GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
#: bounds a failure only: every wait below ends as soon as what it waits for happens
DEADLINE_S = 60


@pytest.fixture
def screen_opens_no_input(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process is the screen's: any source or lamp it opened fails the test."""
    from controller.box import session, sources

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the screen's process opened an input or a lamp")

    monkeypatch.setattr(sources, "open_source", refused)
    monkeypatch.setattr(session, "open_inputs", refused)
    monkeypatch.setattr(session, "open_lights", refused)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    # a window, as on the box's screen (the roll call is skipped headless), drawn by SDL's dummy driver
    monkeypatch.setattr("controller.screen.screen.has_display", lambda: True)
    yield


def roll_calls(monkeypatch: pytest.MonkeyPatch, then: Any) -> list[list[str]]:
    """Who the roll call's screen said was missing, frame by frame; ``then(frames)`` after each frame."""
    seen: list[list[str]] = []
    draw = RollCallScene.draw

    def drawn(self: RollCallScene, surface: Any, view: Any, strip: Any, now_us: int) -> None:
        draw(self, surface, view, strip, now_us)
        seen.append(list(view["missing"]))
        then(seen)

    monkeypatch.setattr(RollCallScene, "draw", drawn)
    return seen


def deciding_processes(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Each deciding process the screen starts, in order (to kill one, or to see it gone)."""
    started: list[subprocess.Popen[bytes]] = []
    start_decider = viewer.start_decider

    def starting(game: viewer.SplitGame, resume: bool) -> tuple[subprocess.Popen[bytes], Any]:
        process, sock = start_decider(game, resume)
        started.append(process)
        return process, sock

    monkeypatch.setattr(viewer, "start_decider", starting)
    return started


def journal(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_the_deciding_process_runs_the_roll_call_on_its_inputs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None) -> None:
    """Every station of header-4 presses once on the GPIO pins the deciding
    process opened (a kernel-like feed): the screen shows each answer come
    in, the game starts by itself, is journaled to its end, and exit 0."""
    from controller.cli import main

    path, fifo = tmp_path / "r.jsonl", tmp_path / "edges"
    os.mkfifo(fifo)
    pins = {v: k for k, v in profile_mod.load("header-4").input_pins().items()}
    calling = threading.Event()
    seen = roll_calls(monkeypatch, lambda frames: calling.set())
    failed: list[BaseException] = []

    def stations() -> None:  # every station presses once, after the roll call is on screen
        try:
            writer = os.open(fifo, os.O_WRONLY)  # once the deciding process opened its inputs
            try:
                assert calling.wait(DEADLINE_S)
                for station in range(4):
                    t = box_now_us()
                    os.write(writer, f"{pins[(station, 'bell')]} 0 {t}\n{pins[(station, 'bell')]} 1 {t + 60_000}\n"
                             .encode())
            finally:
                os.close(writer)
        except BaseException as exc:  # noqa: BLE001 (said by the test)
            failed.append(exc)

    feeder = threading.Thread(target=stations, daemon=True)
    feeder.start()
    code = main(["play", "reaction", "--profile", "header-4", "--feed", str(fifo), "--seconds", "0.5",
                 "--journal", str(path)])
    feeder.join(DEADLINE_S)
    assert not failed and code == 0
    names = [st.name for st in profile_mod.load("header-4").stations]
    assert seen[0] == names and seen[-1] == []  # everyone missing at first, everyone here at the end
    records = journal(path)
    assert records[0]["type"] == "session" and records[-1]["type"] == "end"
    assert not [r for r in records if r.get("type") in ("press", "edge")]  # the roll call's presses are no game's


def test_esc_in_the_roll_call_starts_no_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None) -> None:
    """Esc while the deciding process runs the roll call: no game, no
    journal, ``play`` stops as at Ctrl+C; the deciding process has closed
    its inputs and is gone."""
    from controller.cli import CommandFailed, main

    path = tmp_path / "r.jsonl"
    started = deciding_processes(monkeypatch)

    def escape(frames: list[list[str]]) -> None:
        if len(frames) == 1:  # the roll call is on screen: the host leaves it
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))

    roll_calls(monkeypatch, escape)
    with pytest.raises(CommandFailed, match="stopped"):  # as at Ctrl+C before the game began
        main(["play", "reaction", "--profile", "header-4", "--journal", str(path)])
    assert not path.exists()
    assert len(started) == 1 and started[0].wait(DEADLINE_S) == 0


def test_a_deciding_process_killed_in_the_roll_call_is_started_again_and_the_roll_call_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None,
        capsys: pytest.CaptureFixture[str]) -> None:
    """kill -9 of the deciding process twice while it runs the roll call: the
    screen says so, the next one opens the inputs and calls the roll again;
    the host's Enter starts the game without the rest, played to its end."""
    from controller.cli import main

    path = tmp_path / "r.jsonl"
    started = deciding_processes(monkeypatch)
    killed: set[int] = set()

    def kill_or_skip(frames: list[list[str]]) -> None:
        current = started[-1]
        if len(started) <= 2 and current.pid not in killed:  # the first two die mid roll call
            killed.add(current.pid)
            os.kill(current.pid, signal.SIGKILL)
        elif len(started) == 3 and current.pid not in killed:
            killed.add(current.pid)  # the third: the host starts without the stations
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))

    roll_calls(monkeypatch, kill_or_skip)
    code = main(["play", "reaction", "--profile", "header-4", "--seconds", "0.5", "--journal", str(path)])
    assert code == 0 and len(started) == 3
    assert capsys.readouterr().err.count(viewer.DECIDER_GONE) == 2
    records = journal(path)
    assert records[0]["type"] == "session" and records[-1]["type"] == "end"
    assert sum(r["type"] == "session" for r in records) == 1


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_in_the_roll_call_stops_play_with_no_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None, signum: int,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl+C (or systemd's SIGTERM) while the roll call is on screen: ``play``
    stops as it does before a game began (no journal to read back, no
    traceback); the deciding process has closed its inputs and is gone."""
    from controller.cli import CommandFailed, main

    path = tmp_path / "r.jsonl"
    started = deciding_processes(monkeypatch)

    def interrupt(frames: list[list[str]]) -> None:
        if len(frames) == 1:  # the roll call is on screen
            os.kill(os.getpid(), signum)

    roll_calls(monkeypatch, interrupt)
    argv = ["play", "reaction", "--profile", "header-4", "--journal", str(path)]
    if signum == signal.SIGINT:
        with pytest.raises(CommandFailed, match="stopped"):
            main(argv)
    else:
        assert main(argv) == 0  # systemd asked for it
    assert "no journal" not in capsys.readouterr().err
    assert not path.exists()
    assert len(started) == 1 and started[0].wait(DEADLINE_S) == 0


@pytest.mark.parametrize("key", [None, pygame.K_ESCAPE])
def test_closing_the_window_while_the_deciding_process_starts_starts_no_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None, key: int | None) -> None:
    """The window closed (or Esc) while the deciding process is still starting,
    before its roll call is on screen: it is told to stop, no roll call is
    shown, no journal, ``play`` stops as at Ctrl+C, the deciding process is gone."""
    from controller.cli import CommandFailed, main

    path = tmp_path / "r.jsonl"
    started = deciding_processes(monkeypatch)
    start_decider = viewer.start_decider

    def closed_at_once(game: viewer.SplitGame, resume: bool) -> tuple[subprocess.Popen[bytes], Any]:
        started_now = start_decider(game, resume)  # queued before the screen reads its first message
        pygame.event.post(pygame.event.Event(pygame.QUIT) if key is None else
                          pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
        return started_now

    def leave(frames: list[list[str]]) -> None:  # a roll call drawn (the key was lost): leave it, the test fails
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="", scancode=0))

    monkeypatch.setattr(viewer, "start_decider", closed_at_once)
    drawn = roll_calls(monkeypatch, leave)
    with pytest.raises(CommandFailed, match="stopped"):  # as at Ctrl+C before the game began
        main(["play", "reaction", "--profile", "header-4", "--journal", str(path)])
    assert drawn == []  # the key was heard before any roll call frame
    assert not path.exists()
    assert len(started) == 1 and started[0].wait(DEADLINE_S) == 0


@pytest.mark.parametrize(("table", "key"), [('"f5" = "next"', pygame.K_F5), ('"f6" = "arm"', pygame.K_F6),
                                            ("", pygame.K_PAGEDOWN)], ids=["next", "arm", "step"])
def test_a_clicker_host_key_skips_the_roll_call_as_enter_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None, table: str, key: int) -> None:
    """A presenter clicker in the roll call: a key the profile's ``[keys]``
    maps to next or arm (or its default next step, Page Down) starts the game
    without the stations that did not answer, played to its end; exit 0."""
    from controller.cli import main

    path, wiring = tmp_path / "r.jsonl", tmp_path / "clicker-4.toml"
    text = profile_mod.load("header-4").path.read_text(encoding="utf-8")  # type: ignore[union-attr]
    wiring.write_text(text.replace('name = "header-4"', 'name = "clicker-4"') + f"\n[keys]\n{table}\n",
                      encoding="utf-8")

    def click(frames: list[list[str]]) -> None:  # the first frame: the click; a second (it was lost): leave
        down = key if len(frames) == 1 else pygame.K_ESCAPE
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=down, mod=0, unicode="", scancode=0))

    drawn = roll_calls(monkeypatch, click)
    code = main(["play", "reaction", "--profile", str(wiring), "--seconds", "0.5", "--journal", str(path)])
    assert code == 0 and len(drawn) == 1
    records = journal(path)
    assert records[0]["type"] == "session" and records[-1]["type"] == "end"


def test_a_board_follower_hears_the_roll_call_and_stays_connected_through_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, screen_opens_no_input: None) -> None:
    """The league's peer (a board follower) takes a deciding process silent for
    ``PEER_WAIT_S`` for gone: a roll call longer than that (30 s in the product)
    sends it the roll call's views too, so it neither reconnects nor warns."""
    from controller import peer as peer_mod
    from controller import protocol as p
    from controller.cli import CommandFailed, main
    from controller.peer import PeerLink

    monkeypatch.setattr(peer_mod, "PEER_WAIT_S", 3.0)  # the roll call's views come every second
    views_at = tmp_path / "views.sock"
    link = PeerLink(views_at, p.BOARD, "league b", wait_s=0.5, keep_waiting=lambda: True)
    heard: list[p.Message] = []
    follower = threading.Thread(target=lambda: link.run(heard.append))
    follower.start()

    def then(_frames: list[list[str]]) -> None:
        # the roll call goes on (nobody presses) past PEER_WAIT_S of the follower's, or until it reconnected
        if link.connections >= 2 or sum(isinstance(m, p.RollCallView) for m in heard) >= 6:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="",
                                                 scancode=0))

    roll_calls(monkeypatch, then)
    try:
        with pytest.raises(CommandFailed):
            main(["play", "reaction", "--profile", "header-4", "--viewer-socket", str(views_at),
                  "--journal", str(tmp_path / "r.jsonl")])
    finally:
        link.finish()
        follower.join(DEADLINE_S)
    assert link.connections == 1, f"the follower reconnected {link.connections - 1} time(s) in one roll call"
