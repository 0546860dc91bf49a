"""The screen's process keeps no ``Box`` of a live game (issue 47): `play`
and the menu, as they run by default (the game decided in a process of its
own), start a game with its session header and draw the views they are sent;
how the game went comes in the deciding process's ``Ended``. This test's
process is the screen's (``play`` and the menu run in it), the deciding
process is a child: a ``Box`` built here is one the screen built."""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.apps.results import results_of
from controller.box import journal as journal_mod
from controller.box import profile as profile_mod
from controller.box import session
from controller.box.results.quiz import CSV_SUFFIX, JSON_SUFFIX, STANDINGS_SUFFIX, to_json
from controller.box.runtime import Box, box_from_journal
from controller.box.views import first_snapshot
from controller.cli import CommandFailed, main
from controller.screen.menu import EveningGame, Menu
from games.registry import get
from tests.display.kiosk import Frame, Kiosk, Script, Steps, menu_args
from tests.display.test_game_end_confirm import MENU_HINT, asked, back_to_menu_and_quit
from tests.display.test_menu_evening_night import PACK, first_question_won_by, until


@pytest.fixture
def boxes_built(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Where each ``Box`` this process builds is built (a stack per box)."""
    built: list[str] = []
    init = Box.__init__

    def counted(self: Box, *args: Any, **kwargs: Any) -> None:
        built.append("".join(traceback.format_stack(limit=12)))
        init(self, *args, **kwargs)

    monkeypatch.setattr(Box, "__init__", counted)
    yield built


@pytest.mark.usefixtures("mock_pins")
def test_play_builds_no_box_and_says_how_the_game_went_as_its_journal_does(
        tmp_path: Path, boxes_built: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``play`` headless for half a second: no box in the screen's process,
    and the summary line and ``--json`` say what the journal says."""
    path = tmp_path / "r.jsonl"
    assert main(["play", "reaction", "--headless", "--players", "3", "--seed", "7", "--seconds", "0.5",
                 "--journal", str(path), "--json"]) == 0
    assert boxes_built == [], boxes_built[0]
    out, err = capsys.readouterr()
    played = box_from_journal(journal_mod.read(path))
    assert session.summary_line(session.played_of(played), "time") in err
    assert json.loads(out)["scores"] == played.summary()["scores"]


def a_quiz_won(frame: Frame) -> Steps:
    """From the menu: a quiz started, its first question won by Player 1, nobody ringing on the
    second (the quiz is over): its final results."""
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_UP]  # from the game row up round to Start
    frame = yield from first_question_won_by(1, frame)
    frame = yield [pygame.K_n]  # no one rang: the quiz is over
    return (yield from until(frame, lambda f: asked(f, "Final results")))


def a_quiz_won_then_over() -> Script:
    """The menu's host: ``a_quiz_won``, back to the menu, quit."""
    frame = yield []
    frame = yield from a_quiz_won(frame)
    yield from back_to_menu_and_quit(frame, escapes=1)


@pytest.mark.usefixtures("mock_pins")
@pytest.mark.parametrize("game", ["reaction", "quiz"])
def test_play_stopped_by_ctrl_c_says_how_the_game_went_from_its_deciding_process_not_its_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str],
        capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, game: str) -> None:
    """Ctrl+C in ``play`` once the game shows: the screen asks the deciding
    process to stop and takes how the game went from its ``Ended``; it does
    not replay the closed journal (a second owner of the result, seconds on
    a long evening) unless that process died without saying. A quiz's
    results are written beside the journal at the stop too, by the deciding
    process from the game it decided, and ``play`` names them."""
    from controller.screen.loop import Presenter

    react = Presenter.react_view

    def ctrl_c_at_the_first_view(self: Presenter, *args: Any, **kwargs: Any) -> None:
        react(self, *args, **kwargs)
        raise KeyboardInterrupt  # as the signal raises it in the screen's process

    monkeypatch.setattr(Presenter, "react_view", ctrl_c_at_the_first_view)
    path = tmp_path / "r.jsonl"
    with pytest.raises(SystemExit) as stopped:
        main(["play", game, "--headless", "--players", "3", "--seed", "7", "--journal", str(path), "--json"])
    assert stopped.value.code == 130
    assert boxes_built == [], boxes_built[0]
    out, err = capsys.readouterr()
    played = box_from_journal(journal_mod.read(path))
    assert json.loads(path.read_text(encoding="utf-8").splitlines()[-1])["type"] == "end"
    assert session.summary_line(session.played_of(played), "stopped") in err
    assert json.loads(out)["scores"] == played.summary()["scores"]
    assert "read back from its journal" not in caplog.text
    written = [Path(f"{path}{suffix}") for suffix in (CSV_SUFFIX, STANDINGS_SUFFIX, JSON_SUFFIX)]
    assert [line for line in err.splitlines() if line.startswith("results: ")] == (
        [f"results: {w}" for w in written] if game == "quiz" else [])
    if game == "quiz":
        assert json.loads(written[2].read_text(encoding="utf-8")) == to_json(results_of(str(path)))


@pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")
def test_the_menus_game_with_people_builds_no_box_and_is_listed_as_its_journal_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str]) -> None:
    """A quiz from the menu, won on its first question and ended on its second:
    the menu builds no box of it (its results beside the journal are written
    by the deciding process), and the "This evening" row lists it as its journal has it."""
    from controller.apps.menu import evening_game

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs, journals = tmp_path / "packs", tmp_path / "journals"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    listed: list[EveningGame] = []
    played_game = Menu.played_game

    def listing(menu: Menu, game: EveningGame) -> None:
        listed.append(game)
        played_game(menu, game)

    monkeypatch.setattr(Menu, "played_game", listing)

    kiosk = Kiosk(monkeypatch, a_quiz_won_then_over())
    assert main(menu_args(tmp_path, "--players", "3")) == 0
    assert kiosk.stuck is None, kiosk.stuck
    assert boxes_built == [], boxes_built[0]  # its results too are written by the deciding process
    (journal,) = journals.glob("*.jsonl")
    assert json.loads(Path(f"{journal}{JSON_SUFFIX}").read_text(encoding="utf-8")) == to_json(results_of(str(journal)))
    record = box_from_journal(journal_mod.read(journal))
    expected = evening_game(session.played_of(record), str(journal))
    assert len(listed) == 1 and listed[0].winners == expected.winners == ("Player 1",)
    assert (listed[0].standings, listed[0].finished) == (expected.standings, True)


async def closed_pages(port: int, pin: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The scoreboard's and the host page's state once they say no game runs (the host page with the
    menu's next game)."""
    import aiohttp

    from tests.web.test_split_phones import reply

    async with aiohttp.ClientSession() as client:
        board = await client.ws_connect(f"http://localhost:{port}/ws/board")
        await board.send_json({"type": "hello"})
        state = await reply(board, lambda m: m["type"] == "state" and not m["live"])
        host = await client.ws_connect(f"http://localhost:{port}/ws/host")
        await host.send_json({"type": "hello", "pin": pin})
        host_state = await reply(host, lambda m: m["type"] == "host" and not m["live"] and m.get("next"))
        await board.close()
        await host.close()
    return state, host_state


def a_quiz_won_then_over_and_its_pages(capsys: pytest.CaptureFixture[str],
                                        between: list[tuple[dict[str, Any], dict[str, Any]]]) -> Script:
    """``a_quiz_won_then_over``, the phones' pages looked at once the menu is back."""
    import asyncio
    import re

    from tests.web.test_split_phones import port_in

    frame = yield []
    frame = yield from a_quiz_won(frame)
    frame = yield [pygame.K_ESCAPE]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    [line] = [x for x in capsys.readouterr().err.splitlines() if "PIN" in x]  # the phones' server's line
    pin = re.search(r"PIN (\d{6})\)", line)
    assert pin is not None, line
    between.append(asyncio.run(closed_pages(port_in(line), pin.group(1))))
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


@pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")
def test_the_menus_phones_show_the_closed_games_scores_from_its_deciding_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str],
        capsys: pytest.CaptureFixture[str]) -> None:
    """A quiz from the menu with its phones' pages (``--web``), won on its
    first question and over on its second: once the menu is back, the
    pages (the evening's phones' server, a process of its own) say no game
    runs and show its final scores and the menu's next game, from the
    deciding process's pages of the closed game (in its ``Ended``), not
    from a replay of its journal in the menu's process."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs, journals = tmp_path / "packs", tmp_path / "journals"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    between: list[tuple[dict[str, Any], dict[str, Any]]] = []
    kiosk = Kiosk(monkeypatch, a_quiz_won_then_over_and_its_pages(capsys, between))
    assert main(menu_args(tmp_path, "--players", "3", "--web", "0")) == 0
    assert kiosk.stuck is None, kiosk.stuck
    assert boxes_built == [], boxes_built[0]  # nothing replayed in the menu's process for the pages
    (journal,) = journals.glob("*.jsonl")
    scores = box_from_journal(journal_mod.read(journal)).summary()["scores"]
    assert len(between) == 1, between
    board, host_page = between[0]
    assert board["live"] is False and host_page["live"] is False and host_page["buttons"] == []
    assert [player["score"] for player in board["players"]] == scores and scores[0] > 0
    assert host_page["next"] is not None  # the menu's next game, as the host page shows it between games


@pytest.mark.parametrize("game", ["reaction", "quiz", "piepmatz", "pictomania"])
@pytest.mark.parametrize("profile", [None, "header-4"])
def test_the_screens_header_and_first_pages_are_a_boxs(game: str, profile: str | None) -> None:
    """What the screen sends to start a game (its session header) and what its
    phones show before the first snapshot are what a box of the game journals and shows."""
    from controller.box.views import GameAtStart

    spec = get(game)
    prof = profile_mod.load(profile) if profile is not None else None
    players = len(prof.stations) if prof is not None else 3
    settings = session.game_settings(spec, players, 11, {}, prof)
    for names in (None, ["Ana", "Bára", "Cyril", "Dana"][:players]):
        box = session.new_box(spec, settings, prof, None, station_names=names)
        assert session.people_header(spec, settings, prof, names) == box.header(
            mode="play", profile=None if prof is None else prof.name)
        assert first_snapshot(GameAtStart.new(spec, settings, box.station_names)) == first_snapshot(box)


@pytest.mark.usefixtures("mock_pins")
def test_play_resume_reads_the_journal_without_a_box(tmp_path: Path, boxes_built: list[str]) -> None:
    """``play --resume`` of a game that ran out of time, with its phones' pages:
    what the screen needs before the game (its settings, names, the pages as
    the journal left it) is read without a box; the deciding process replays
    the journal and carries the game on (a second end after the first)."""
    path = tmp_path / "r.jsonl"
    assert main(["play", "reaction", "--headless", "--players", "3", "--seed", "7", "--seconds", "0.5",
                 "--journal", str(path)]) == 0
    boxes_built.clear()
    assert main(["play", "reaction", "--headless", "--resume", str(path), "--seconds", "0.5", "--web", "0"]) == 0
    assert boxes_built == [], boxes_built[0]
    kinds = [json.loads(line)["type"] for line in path.read_text(encoding="utf-8").splitlines()]
    assert kinds.count("end") == 2 and kinds[-1] == "end", kinds


@pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")
def test_the_menus_carry_on_builds_no_box(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          boxes_built: list[str]) -> None:
    """A quiz from the menu ended early by the host, then carried on from the
    "This evening" row where it stopped: the menu reads it without a box (its
    deciding process replays the journal and takes the game or refuses it)."""
    from tests.display.test_carry_on import menu_evening

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    journals = tmp_path / "journals"
    seen: dict[str, Any] = {"journals": journals}
    kiosk = Kiosk(monkeypatch, menu_evening(seen))
    assert main(menu_args(tmp_path, "--players", "4")) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert seen["stopped"] in seen["after"], seen  # on where it stopped
    menus = [stack for stack in boxes_built if "in stopped_at" not in stack]  # not the script's own look
    assert menus == [], menus[0]


def a_quiz_won_then_its_results_again(seen: dict[str, Any]) -> Script:
    """The menu's host: a quiz won by Player 1 and over, back to the menu,
    Enter on its "This evening" row (its results again), back, quit."""
    from tests.display.test_menu_panel import panel_of

    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield [pygame.K_UP]
    frame = yield from first_question_won_by(1, frame)
    frame = yield [pygame.K_n]
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
    frame = yield [pygame.K_ESCAPE]
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    while not panel_of(frame).startswith("This evening: Finished · "):
        frame = yield [pygame.K_DOWN]
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: asked(f, "Final results"))
    seen["results"] = " ".join(str(text) for text, *_r in frame)
    yield from back_to_menu_and_quit(frame, escapes=1)


@pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")
def test_the_menus_results_row_draws_the_last_view_and_builds_no_box(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str]) -> None:
    """Enter on a finished game's "This evening" row shows its final results
    again (who won, the scores) from the deciding process's last view of it:
    the menu does not replay its journal."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    packs = tmp_path / "packs"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    seen: dict[str, Any] = {}
    kiosk = Kiosk(monkeypatch, a_quiz_won_then_its_results_again(seen))
    assert main(menu_args(tmp_path, "--players", "3")) == 0
    assert kiosk.stuck is None, (kiosk.stuck, seen)
    assert boxes_built == [], boxes_built[0]
    assert "Player 1" in seen["results"], seen


def test_the_usb_copy_tells_a_bowl_match_by_its_header_and_builds_no_box(
        tmp_path: Path, boxes_built: list[str]) -> None:
    """"Copy results to USB stick": a quiz bowl match's QBJ file is made in a
    process of its own (``results --qbj``), the same file; the menu's process
    tells a bowl journal by its header and replays none."""
    from controller.apps import usb_copy
    from controller.apps.results import write_qbj
    from tests.display.test_menu_usb_copy import evening, stick

    journals = evening(tmp_path)
    at = stick(tmp_path)
    expected = tmp_path / "expected.qbj"
    assert write_qbj(str(journals / "quiz-20261205-201500.jsonl"), str(expected)) == 0
    boxes_built.clear()
    copied = usb_copy.copy_results(journals, [tmp_path / "media"])
    assert copied.ok, copied.lines
    assert boxes_built == [], boxes_built[0]
    qbj = at / usb_copy.RESULTS_FOLDER / "quiz-20261205-201500.qbj"
    assert qbj.read_bytes() == expected.read_bytes()


def test_a_resumed_games_first_pages_are_its_newest_checkpoints_read_without_a_box(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str]) -> None:
    """The phones' pages of a journaled quiz before its deciding process's
    first snapshot show the game as its newest checkpoint left it (points
    scored), not as it started, and no box is built for them."""
    monkeypatch.setattr(Box, "checkpoint_every", 5)
    monkeypatch.setattr(Box, "checkpoint_in_child", False)
    path = tmp_path / "q.jsonl"
    assert main(["simulate", "quiz", "--players", "3", "--seed", "3", "--journal", str(path)]) == 0
    assert '"type":"checkpoint"' in path.read_text(encoding="utf-8")
    boxes_built.clear()
    journaled = session.resumable(path, carry_on=True)
    assert boxes_built == [], boxes_built[0]
    scores = [player["score"] for player in json.loads(journaled.pages.board)["players"]]
    assert len(scores) == 3 and sum(scores) > 0, scores
    assert journaled.station_names == ("Player 1", "Player 2", "Player 3")


@pytest.mark.usefixtures("mock_pins")
def test_play_resume_of_a_game_played_to_its_end_is_refused_in_one_line_without_a_box(
        tmp_path: Path, boxes_built: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``play --resume`` of a quiz played to its end: its deciding process
    refuses it as it reads it, and ``play`` says so in the one line it said
    before (exit 1, no traceback, the journal as it was); no box here."""
    path = tmp_path / "q.jsonl"
    assert main(["simulate", "quiz", "--players", "3", "--seed", "3", "--journal", str(path)]) == 0
    before = path.read_bytes()
    capsys.readouterr()
    boxes_built.clear()
    with pytest.raises(CommandFailed) as refused:
        main(["play", "quiz", "--headless", "--resume", str(path)])
    assert refused.value.code == 1
    assert boxes_built == [], boxes_built[0]
    err = capsys.readouterr().err
    refusal = (f"buzzerbox play: {path}: this game was played to its end: nothing to carry on; "
               "'buzzerbox replay' shows it, a new game starts a new journal")
    assert refusal in err.splitlines() and "Traceback" not in err, err
    assert path.read_bytes() == before


@pytest.mark.usefixtures("mock_pins")
def test_the_windowed_demo_is_decided_in_a_deciding_process_and_replays_to_its_scores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, boxes_built: list[str],
        capsys: pytest.CaptureFixture[str]) -> None:
    """``demo`` in a window (SDL's dummy driver) starts its game as ``play``
    does: a deciding process (a child, ``controller.box.process``) in which
    the simulated players are an input source; this process builds no box.
    The bots' presses are journaled, and ``replay`` of the journal comes to
    the scores the demo printed. The window is closed once the journal has
    presses (readiness, not a timer)."""
    import contextlib
    import subprocess
    import threading
    import time

    from tests.processes import HANG_S

    monkeypatch.setenv("DISPLAY", ":0")  # a desktop to open the window on (the dummy driver draws it)
    commands: list[list[str]] = []
    popen = subprocess.Popen

    def recorded(argv: Any, *args: Any, **kwargs: Any) -> Any:
        commands.append(list(argv))
        return popen(argv, *args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", recorded)
    path = tmp_path / "demo.jsonl"
    stop = threading.Event()

    def close_after_presses() -> None:
        give_up = time.monotonic() + HANG_S  # a hang only: the assertions below then fail
        while not stop.is_set() and time.monotonic() < give_up:
            if path.exists() and path.read_text(encoding="utf-8").count('"type":"press"') >= 4:
                break
            stop.wait(0.05)
        pygame.event.post(pygame.event.Event(pygame.QUIT))  # the window closed: the game ends

    closer = threading.Thread(target=close_after_presses)
    closer.start()
    try:
        assert main(["demo", "reaction", "--window", "--players", "3", "--seed", "5", "--journal", str(path),
                     "--json"]) == 0
    finally:
        stop.set()
        closer.join()
        with contextlib.suppress(pygame.error):  # a QUIT the run did not take must not end the next test's
            pygame.event.clear(pygame.QUIT)
    assert boxes_built == [], boxes_built[0]
    assert any(argv[1:3] == ["-m", "controller.box.process"] for argv in commands), commands
    shown = json.loads(capsys.readouterr().out)
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert records[0]["mode"] == "demo" and records[-1]["type"] == "end"
    assert sum(r["type"] == "press" for r in records) >= 4
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["scores"] == shown["scores"]
