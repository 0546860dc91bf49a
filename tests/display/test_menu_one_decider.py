"""The menu's evening in the split design as the box runs it (``buzzerbox
menu`` on header-4's GPIO stations, driven by a kernel-like feed; the
whole menu loop, tests/display/kiosk.py): one deciding process holds the
stations from the menu to the last game. The host's button starts a game
from the menu, skips its roll call and arms the question, a station's bell
wins it, and two games in a row are decided by the same process; the
menu's process (this test's) opens no input and no lamp."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import profile as profile_mod
from controller.box.timeline import box_now_us
from controller.cli import main
from controller.screen import evening as evening_mod
from controller.screen import viewer
from controller.system import signals
from games.i18n import _, _load, current_language
from tests.display.kiosk import Frame, Kiosk, Reached, Script, Steps
from tests.display.test_first_run import LANGUAGE_QUESTION, WIRING_QUESTION, shows, step, up
from tests.display.test_game_end_confirm import MENU_HINT, asked
from tests.display.test_menu_evening_night import PACK, at_question, until
from tests.display.test_menu_refusal import said
from tests.processes import written_elsewhere

pytestmark = pytest.mark.usefixtures("drawing_in_a_language", "mock_pins")


#: how long a tap holds its button down, and leaves it up after (the profiles' debounce is 10 ms)
TAP_S = 0.03


class Feed:
    """A profile's inputs (header-4's) driven through the deciding process's feed FIFO (opened at the
    first edge: the deciding process reads it from before the menu's first frame)."""

    def __init__(self, fifo: Path, profile: str = "header-4") -> None:
        self.fifo = fifo
        self.pins = {v: k for k, v in profile_mod.load(profile).input_pins().items()}
        self.fd: int | None = None

    def tap(self, station: int, name: str) -> None:
        """A press and its release, each stamped as it is written (the feed's writer's promise), the
        button held down ``TAP_S`` and left up as long after it, as a finger does: past the debounce, so
        the same button's next tap counts. (A release stamped ahead was refused as from the box's
        future: the button stayed down, and its next tap was no press.)"""
        if self.fd is None:
            self.fd = os.open(self.fifo, os.O_WRONLY)
        pin = self.pins[(station, name)]
        for level in (0, 1):
            os.write(self.fd, f"{pin} {level} {box_now_us()}\n".encode())
            time.sleep(TAP_S)  # (how long a finger holds it, and lets it be: the tap's own length)

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)


def a_game_on_the_stations(feed: Feed, frame: Frame) -> Steps:
    """From the menu: the host's button starts the game (the game row), skips the roll call and
    arms the first question; station 2's bell wins it; Esc twice back to the menu."""
    feed.tap(-1, "arm")  # the menu's rows, from what the deciding process sends
    frame = yield from until(frame, lambda f: asked(f, "Every station: press your button once"))
    feed.tap(-1, "arm")  # the roll call, on the deciding process's inputs: go on without the rest
    frame = yield from until(frame, at_question(1))
    feed.tap(-1, "arm")
    frame = yield from until(frame, lambda f: asked(f, "BUZZ!"))
    feed.tap(1, "bell")
    frame = yield from until(frame, lambda f: asked(f, "FIRST"))
    frame = yield [pygame.K_ESCAPE]
    frame = yield [pygame.K_ESCAPE]
    return (yield from until(frame, lambda f: asked(f, MENU_HINT)))


def host(feed: Feed) -> Script:
    frame = yield []
    frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
    frame = yield from a_game_on_the_stations(feed, frame)
    frame = yield [Reached("the first game")]
    frame = yield from a_game_on_the_stations(feed, frame)
    frame = yield [pygame.K_ESCAPE]
    yield [pygame.K_ESCAPE]


def menu_on_the_feed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: Callable[[Feed], Script],
                     fresh: bool = True, first_run: bool = False, profile: str | None = "header-4",
                     exits: int = 0) -> Path:
    """``buzzerbox menu`` on ``profile``'s stations, the whole menu loop, its
    keys and feed driven by ``script``; it exits ``exits`` (0: a SIGTERM too, a stop
    asked for). The folder of its journals (``fresh``: a game cut off in it is not carried on;
    ``first_run``: as a box starts, the walk-through shown if it is due; ``profile`` None: none
    on the command line, the wiring the walk-through chose, driven as header-4)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if first_run:
        monkeypatch.delenv("BUZZERBOX_FIRST_RUN", raising=False)
    else:
        monkeypatch.setenv("BUZZERBOX_FIRST_RUN", "off")
    packs, journals, fifo = tmp_path / "packs", tmp_path / "journals", tmp_path / "edges"
    packs.mkdir()
    (packs / "two.csv").write_text(PACK, encoding="utf-8")
    os.mkfifo(fifo)
    feed = Feed(fifo, profile or "header-4")
    try:
        kiosk = Kiosk(monkeypatch, script(feed))
        try:
            code = main(["menu", *(["--profile", profile] if profile else []), "--feed", str(fifo), "--window",
                         *(["--fresh"] if fresh else []), "--journal-dir", str(journals), "--packs-dir", str(packs),
                         "--media-root", str(tmp_path / "media")])
        except SystemExit as exc:
            code = exc.code
        assert code == exits
    finally:
        feed.close()
    assert kiosk.stuck is None, kiosk.stuck
    return journals


def starts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the evening's deciding processes the menu starts, in order."""
    started: list[int] = []
    start = evening_mod.EveningLink.start

    def recorded(link: evening_mod.EveningLink) -> str:
        inputs = start(link)
        assert link.process is not None
        started.append(link.process.pid)
        return inputs

    monkeypatch.setattr(evening_mod.EveningLink, "start", recorded)
    return started


def takes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids of the deciding processes the menu's games are handed to, in order."""
    taken: list[int] = []
    take = evening_mod.EveningLink.take

    def took(link: evening_mod.EveningLink, game: viewer.SplitGame, resume: bool) -> Any:
        process, sock = take(link, game, resume)
        taken.append(process.pid)
        return process, sock

    monkeypatch.setattr(evening_mod.EveningLink, "take", took)
    return taken


def no_input_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu's process (this test's) fails the test if it opens an input or a lamp, or
    starts a deciding process of a game's own."""
    from controller.box import session, sources

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the menu's process opened an input or a lamp")

    monkeypatch.setattr(sources, "open_source", refused)
    monkeypatch.setattr(session, "open_inputs", refused)
    monkeypatch.setattr(session, "open_lights", refused)
    monkeypatch.setattr(viewer, "start_decider", refused)


def test_one_deciding_process_holds_the_stations_for_the_menu_and_two_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """... and builds each game's session header from the typed game the menu hands over
    (``NewGame``) on its own profile: the menu's process builds none (it used to, sent as a dict)."""
    from dataclasses import asdict

    from controller.box import session

    def built_here(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the menu's process built the journal's session header")

    monkeypatch.setattr(session, "people_header", built_here)
    no_input_here(monkeypatch)
    taken = takes(monkeypatch)
    journals = menu_on_the_feed(tmp_path, monkeypatch, host)
    assert len(taken) == 2 and taken[0] == taken[1], taken  # both games: the evening's one process
    played = sorted(journals.glob("*.jsonl"))
    assert len(played) == 2
    profile = profile_mod.load("header-4")
    for journal in played:
        records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
        kinds = [record["type"] for record in records]
        assert kinds[0] == "session" and kinds[-1] == "end" and "press" in kinds, kinds  # the bell, journaled
        header = records[0]
        assert (header["profile"], header["mode"], header["stations"], header["debounce"]) == (
            "header-4", "play", profile.station_kinds()[:4], asdict(profile.debounce))


def test_the_deciding_process_killed_between_games_is_started_again_and_the_menu_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """The evening's deciding process killed (-9) while the menu is shown:
    the menu starts another on the same wiring, says so in one line (on
    stderr and on the screen), and the stations drive the menu and the next
    game through the new one."""
    started = starts(monkeypatch)
    restarted = _(evening_mod.EVENING_RESTARTED).format(code=-signal.SIGKILL)

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        feed.tap(0, "bell")  # the feed's writer open: the FIFO's pipe outlives the reader that dies
        os.kill(started[0], signal.SIGKILL)
        frame = yield from until(frame, lambda f: restarted in said(f))  # the new one reads the same pipe
        frame = yield from a_game_on_the_stations(feed, frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    journals = menu_on_the_feed(tmp_path, monkeypatch, script)
    assert len(started) == 2 and started[0] != started[1]
    err = capfd.readouterr().err
    assert err.count(restarted) == 1, err
    assert len(list(journals.glob("*.jsonl"))) == 1


def test_the_evenings_deciding_process_killed_in_a_game_resumes_it_and_decides_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """Killed (-9) in a menu's game: the game's restart starts the next
    evening process on the journal, the screen says it is restarting until
    the game is back, the stations decide it, and the menu's next game is
    decided by that same process."""
    started = starts(monkeypatch)
    taken = takes(monkeypatch)

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        feed.tap(-1, "arm")
        frame = yield from until(frame, lambda f: asked(f, "Every station: press your button once"))
        feed.tap(-1, "arm")
        frame = yield from until(frame, at_question(1))
        os.kill(started[0], signal.SIGKILL)  # mid-game (the feed's writer open: its pipe outlives the reader)
        frame = yield from until(frame, lambda f: asked(f, viewer.RESTARTING))
        frame = yield from until(frame, lambda f: not asked(f, viewer.RESTARTING) and at_question(1)(f))
        feed.tap(-1, "arm")
        frame = yield from until(frame, lambda f: asked(f, "BUZZ!"))
        feed.tap(1, "bell")
        frame = yield from until(frame, lambda f: asked(f, "FIRST"))
        frame = yield [pygame.K_ESCAPE]
        frame = yield [pygame.K_ESCAPE]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        frame = yield [Reached("the first game, resumed")]
        frame = yield from a_game_on_the_stations(feed, frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    journals = menu_on_the_feed(tmp_path, monkeypatch, script)
    assert len(started) == 2 and taken == [started[0], started[1], started[1]], (started, taken)
    err = capfd.readouterr().err
    assert err.count(_(viewer.DECIDER_GONE)) == 1, err
    assert f"buzzerbox menu: {_(viewer.DECIDER_GONE)}" in err, err  # the menu's line, not play's
    assert _(evening_mod.EVENING_RESTARTED).split("(")[0] not in err  # one line: the game's, not the menu's too
    for journal in journals.glob("*.jsonl"):
        kinds = [json.loads(line)["type"] for line in journal.read_text(encoding="utf-8").splitlines()]
        assert kinds[-1] == "end" and "press" in kinds, kinds


def test_sigterm_to_the_menu_alone_in_a_roll_call_ends_the_evening_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM to the menu alone (the kiosk's ``KillMode=mixed`` stop) while
    the deciding process runs a game's roll call: the menu asks it to stop
    and waits for it. That stop leaves the roll call, and it must end the
    evening too: the process had gone back between games and the menu
    waited for it for ever (systemd's stop timed out into a SIGKILL)."""
    from tests.processes import HANG_S

    stop_decider = viewer.stop_decider
    hung: list[int] = []

    def bounded(process: Any, sock: Any, *link: Any) -> Any:  # a hang is this test's failure, not the test run's
        wait = process.wait

        def wait_bounded(timeout: float | None = None) -> int:
            try:
                return int(wait(HANG_S if timeout is None else timeout))
            except subprocess.TimeoutExpired:
                hung.append(process.pid)
                process.kill()
                return int(wait())

        process.wait = wait_bounded
        return stop_decider(process, sock, *link)

    monkeypatch.setattr(viewer, "stop_decider", bounded)
    # the SIGTERM stays this process's 'received' after the menu (the command line reads it): forgotten after
    # the test, or an in-process deciding loop of a later test would take it as its own stop
    monkeypatch.setattr(signals._state, "received", signals._state.received)
    monkeypatch.setattr(signals._state, "raised", signals._state.raised)

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        feed.tap(-1, "arm")
        frame = yield from until(frame, lambda f: asked(f, "Every station: press your button once"))
        os.kill(os.getpid(), signal.SIGTERM)  # the menu's process alone, as systemd's stop sends it
        yield []

    journals = menu_on_the_feed(tmp_path, monkeypatch, script)
    assert hung == [], "the menu waited for the evening's deciding process, which went back between games"
    assert list(journals.glob("*.jsonl")) == []  # left in its roll call: nothing journaled


def test_the_evenings_deciding_process_killed_in_a_roll_call_is_said_once_and_calls_it_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """Killed (-9) in a game's roll call: the game's restart says it in its one
    line and the next evening process calls the roll again; the menu's line
    for a death between games is not said too (two lines for one death)."""
    started = starts(monkeypatch)
    roll_call = "Every station: press your button once"

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        feed.tap(-1, "arm")
        frame = yield from until(frame, lambda f: asked(f, roll_call))
        os.kill(started[0], signal.SIGKILL)  # in the roll call (the feed's writer open: its pipe outlives it)
        frame = yield from until(frame, lambda f: asked(f, viewer.RESTARTING))
        frame = yield from until(frame, lambda f: asked(f, roll_call))  # called again by the next one
        feed.tap(-1, "arm")
        frame = yield from until(frame, at_question(1))
        frame = yield [pygame.K_ESCAPE]
        frame = yield [pygame.K_ESCAPE]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    journals = menu_on_the_feed(tmp_path, monkeypatch, script)
    assert len(started) == 2
    err = capfd.readouterr().err
    assert err.count(_(viewer.DECIDER_GONE)) == 1, err
    assert _(evening_mod.EVENING_RESTARTED).split("(")[0] not in err, err  # one line for one death
    assert len(list(journals.glob("*.jsonl"))) == 1


def test_a_game_the_evenings_process_refuses_is_said_in_the_menu_and_the_evening_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game cut off mid-game is carried on as the menu starts, but another
    process takes its journal's lock after the menu looked (this test holds
    it): the evening's process refuses the game. The menu says why in its one
    line and stays, its evening's process still running: the next game is
    decided by that same process, and the menu exits 0."""
    import fcntl

    from controller.box import session
    from games.registry import get

    journals = tmp_path / "journals"
    journals.mkdir()
    profile = profile_mod.load("header-4")
    spec = get("quiz")
    cut_off = journals / "quiz.jsonl"
    box = session.new_box(spec, session.game_settings(spec, 4, 1, {}, profile), profile, cut_off)
    assert box.journal is not None
    box.journal.close()  # no end: a game the power cut off
    held: list[int] = []
    resumable = session.resumable

    def then_locked(*args: Any, **kwargs: Any) -> Any:
        out = resumable(*args, **kwargs)  # the menu's look finds it free ...
        fd = os.open(cut_off, os.O_RDONLY)
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # ... and another process writes it before it is taken
        held.append(fd)
        return out

    monkeypatch.setattr(session, "resumable", then_locked)
    started = starts(monkeypatch)

    def refused_then_a_game(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT) and "is being written by" in said(f))
        frame = yield [Reached("the refusal")]
        frame = yield from a_game_on_the_stations(feed, frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    try:
        menu_on_the_feed(tmp_path, monkeypatch, refused_then_a_game, fresh=False)
    finally:
        for fd in held:
            os.close(fd)
    assert len(held) == 1 and len(started) == 1, started  # one evening process, never stopped by the refusal
    played = [j for j in journals.glob("*.jsonl") if j != cut_off]
    assert len(played) == 1
    kinds = [json.loads(line)["type"] for line in played[0].read_text(encoding="utf-8").splitlines()]
    assert kinds[-1] == "end" and "press" in kinds, kinds


def walked_through(feed: Feed, frame: Frame, language: str | None = None) -> Steps:
    """The walk-through from its first step on header-4 (the wiring it offers
    first), in ``language`` if given: its test press by three stations' bells
    on the feed and the second station's keyboard key, each ticked off; then
    to the menu."""
    frame = yield from until(frame, lambda f: asked(f, LANGUAGE_QUESTION))
    while language is not None and current_language() != language:
        frame = yield [pygame.K_DOWN]
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: asked(f, WIRING_QUESTION) and "wiring/header-4.toml" in said(f))
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: shows(f, step(3)))
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: shows(f, step(4)) and said(f).count(_("press!")) == 4)
    for k, station in enumerate((0, 1, 2, 3)):
        if station == 1:  # a keyboard station's key, read by the deciding process too
            frame = yield [pygame.K_2]
            frame = yield [up(pygame.K_2)]
        else:
            feed.tap(station, "bell")
        frame = yield from until(frame, lambda f, k=k: said(f).count(_("HERE")) == k + 1)
    frame = yield from until(frame, lambda f: _("Every station works! Enter: next step.") in said(f))
    frame = yield [pygame.K_RETURN]
    frame = yield from until(frame, lambda f: asked(f, "Phones join here"))
    frame = yield [pygame.K_RETURN]
    return (yield from until(frame, lambda f: asked(f, MENU_HINT)))


def test_the_first_starts_test_press_reads_the_stations_through_the_evenings_deciding_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A box's first start on header-4 (no marker, no journal): the
    walk-through's test press is pressed on the deciding process's inputs
    (the menu's process opens none), and that same process then serves the
    menu and decides its game."""
    no_input_here(monkeypatch)
    started, taken = starts(monkeypatch), takes(monkeypatch)

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from walked_through(feed, frame)
        frame = yield from a_game_on_the_stations(feed, frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    names_file = tmp_path / "data" / "buzzerbox" / "players.json"
    with written_elsewhere(names_file) as tried:  # the names step's names: the deciding process keeps them
        journals = menu_on_the_feed(tmp_path, monkeypatch, script, first_run=True)
    assert len(started) == 1 and taken == started, (started, taken)
    assert len(list(journals.glob("*.jsonl"))) == 1
    saved = json.loads((tmp_path / "data" / "buzzerbox" / "first-run.json").read_text(encoding="utf-8"))
    assert saved["profile"] == "header-4"
    assert tried == [], tried
    assert "header-4" in json.loads(names_file.read_text(encoding="utf-8")), names_file.read_text(encoding="utf-8")


def set_up_again_then_a_game(tmp_path: Path, language: str | None = None) -> Callable[[Feed], Script]:
    """A box set up before: from the menu, "Set up again" walked through
    (in ``language`` if given), back to the game's row (its words may be
    another language's now: as many rows up as down) and a game on the
    stations; Esc, Esc."""
    from tests.display.test_menu_panel import panel_of

    (tmp_path / "data" / "buzzerbox").mkdir(parents=True)
    (tmp_path / "data" / "buzzerbox" / "first-run.json").write_text('{"done": true}', encoding="utf-8")

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        down = 0
        while not panel_of(frame).startswith(_("Set up again") + ":"):
            frame, down = (yield [pygame.K_DOWN]), down + 1
        frame = yield [pygame.K_RETURN]
        frame = yield from walked_through(feed, frame, language)
        for _row in range(down):  # the host's button starts the game from its row
            frame = yield [pygame.K_UP]
        frame = yield from a_game_on_the_stations(feed, frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    return script


def test_set_up_again_tests_the_stations_on_the_evenings_deciding_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The menu's "Set up again" on the same wiring: its test press reads the
    stations through the evening's deciding process, which goes on holding
    them for the menu and its next game (never one opened in the menu's process)."""
    no_input_here(monkeypatch)
    started, taken = starts(monkeypatch), takes(monkeypatch)
    journals = menu_on_the_feed(tmp_path, monkeypatch, set_up_again_then_a_game(tmp_path), first_run=True)
    assert len(started) == 1 and taken == started, (started, taken)  # the same wiring: the same process
    assert len(list(journals.glob("*.jsonl"))) == 1


def test_the_walk_throughs_language_and_wiring_are_kept_by_the_evenings_deciding_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Set up again" in Polish on header-4: the first start's marker, with
    the language and the wiring the menu starts with next time, is written by
    the evening's deciding process, which owns them as it owns the names
    (``SaveSetup``); the menu's process may not write it meanwhile. Before,
    the menu's process wrote it itself."""
    marker = tmp_path / "data" / "buzzerbox" / "first-run.json"
    script = set_up_again_then_a_game(tmp_path, "pl")  # set up before: a marker with no choices
    with written_elsewhere(marker, marker.with_suffix(".tmp")) as tried:
        menu_on_the_feed(tmp_path, monkeypatch, script, first_run=True)
    assert tried == [], tried
    assert json.loads(marker.read_text(encoding="utf-8")) == {"done": True, "language": "pl", "profile": "header-4"}


def starts_in(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """The evening's deciding processes the menu starts, in order: each one's pid and the language it speaks."""
    from tests.core.test_evening import language_of

    started: list[tuple[int, str]] = []
    start = evening_mod.EveningLink.start

    def recorded(link: evening_mod.EveningLink) -> str:
        inputs = start(link)
        assert link.process is not None
        started.append((link.process.pid, language_of(link.process.pid)))
        return inputs

    monkeypatch.setattr(evening_mod.EveningLink, "start", recorded)
    return started


def decided_in_czech(pid: int, err: str) -> bool:
    """The deciding process ``pid`` said its start line in Czech as it took a game."""
    from controller.box.process import READY_LINE

    return _load("cs").gettext(READY_LINE).split("{priority}")[0].format(pid=pid) in err


def test_set_up_again_in_czech_tells_the_evenings_process_czech(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """"Set up again" on the same wiring with Czech chosen: the test press
    and the next game are on the evening's one process, told Czech (it words
    the phones' and host pages): it decides the game in Czech. It was stopped
    and another started in Czech (the inputs closed and opened again)."""
    started, taken = starts_in(monkeypatch), takes(monkeypatch)
    menu_on_the_feed(tmp_path, monkeypatch, set_up_again_then_a_game(tmp_path, "cs"), first_run=True)
    assert [language for _pid, language in started] == ["en"], started
    assert taken == [started[0][0]], (started, taken)
    err = capfd.readouterr().err
    assert decided_in_czech(taken[0], err), err


def test_the_language_row_changed_before_a_game_is_told_to_the_evenings_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """The menu's Language row turned to Czech, then a game: the evening's one
    process decides it, speaking Czech (``SetLanguage``). It was stopped and
    another started in Czech, its inputs closed and opened again."""
    from tests.display.test_menu_panel import panel_of

    started, taken = starts_in(monkeypatch), takes(monkeypatch)

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        down = 0
        while not panel_of(frame).startswith(_("Language") + ":"):
            frame, down = (yield [pygame.K_DOWN]), down + 1
        while current_language() != "cs":
            frame = yield [pygame.K_RIGHT]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))  # drawn in Czech
        for _row in range(down):  # back to the game's row
            frame = yield [pygame.K_UP]
        frame = yield from a_game_on_the_stations(feed, frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    menu_on_the_feed(tmp_path, monkeypatch, script)
    assert [language for _pid, language in started] == ["en"], started
    assert taken == [started[0][0]], (started, taken)
    err = capfd.readouterr().err
    assert decided_in_czech(taken[0], err), err


def a_game_whose_card_fills(feed: Feed, frame: Frame, decider: int, journals: Path) -> Steps:
    """From the menu: a game on the stations whose card fills once it began (the evening's process
    ``decider`` may not grow any file past the journal's size); its question armed and won."""
    import resource

    feed.tap(-1, "arm")
    frame = yield from until(frame, lambda f: asked(f, "Every station: press your button once"))
    feed.tap(-1, "arm")
    frame = yield from until(frame, at_question(1))
    [journal] = journals.glob("*.jsonl")
    size = journal.stat().st_size
    resource.prlimit(decider, resource.RLIMIT_FSIZE, (size, size))  # the card is full
    feed.tap(-1, "arm")
    frame = yield from until(frame, lambda f: asked(f, "BUZZ!"))
    feed.tap(1, "bell")
    return (yield from until(frame, lambda f: asked(f, "FIRST")))


def said_unsaved(caplog: pytest.LogCaptureFixture, journals: Path) -> tuple[Path, int]:
    """The menu's one error for the game's records the card refused: it names the journal, how many
    (at least the arming, the press and the end) and the file they wait in, in full. The journal, how many."""
    import logging

    from controller.box.journal_writer import unsaved_line

    [journal] = journals.glob("*.jsonl")
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR and "the disk refused" in r.getMessage()]
    assert len(errors) == 1, errors
    n = int(errors[0].split("last ")[1].split()[0])
    assert n >= 3 and errors[0] == f"{journal}: {unsaved_line(n, f'{journal}.unsaved')}", errors
    assert (journals / f"{journal.name}.unsaved").exists()
    return journal, n


def test_a_game_that_closed_with_records_the_card_refused_says_so_on_the_menu_and_in_the_log(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The card fills mid-game (the evening's process may not grow any file
    past the journal's size) and the host ends the game: back on the menu, its
    rows say how many records the card refused and where they wait (it was
    only on the game's screen, for 15 s) until the next game, and the log
    says it as an error."""
    import logging

    from controller.box.journal_writer import unsaved_line

    started = starts(monkeypatch)
    journals = tmp_path / "journals"
    seen: dict[str, str] = {}

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        frame = yield from a_game_whose_card_fills(feed, frame, started[-1], journals)
        frame = yield [pygame.K_ESCAPE]
        frame = yield [pygame.K_ESCAPE]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT) and "the disk refused" in said(f))
        seen["menu"] = said(frame)
        feed.tap(-1, "arm")  # the next game: its roll call, then Esc (no game began)
        frame = yield from until(frame, lambda f: asked(f, "Every station: press your button once"))
        frame = yield [pygame.K_ESCAPE]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        seen["menu after the next"] = said(frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    with caplog.at_level(logging.INFO):
        menu_on_the_feed(tmp_path, monkeypatch, script)
    journal, n = said_unsaved(caplog, journals)
    assert unsaved_line(n, f"{journal.name}.unsaved") in seen["menu"], seen["menu"]  # the menu: the file, whole
    assert "the disk refused" not in seen["menu after the next"]  # said until the next game


def test_a_sigterm_in_a_game_with_records_the_card_refused_exits_1_and_says_how_many(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    """SIGTERM to the menu alone (the kiosk's stop) in a game whose card
    filled: the evening's process closes the game, and the menu says in its
    log, as an error, how many records the card refused and where they wait,
    and exits 1 with that one line, as ``play`` does (it exited 0, the
    normal end of a stop asked for, with records missing from the journal)."""
    import logging

    from controller.box.journal_writer import unsaved_line


    started = starts(monkeypatch)
    journals = tmp_path / "journals"
    monkeypatch.setattr(signals._state, "received", signals._state.received)
    monkeypatch.setattr(signals._state, "raised", signals._state.raised)

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        frame = yield from a_game_whose_card_fills(feed, frame, started[-1], journals)
        os.kill(os.getpid(), signal.SIGTERM)  # the menu's process alone, as systemd's stop sends it
        yield []

    with caplog.at_level(logging.INFO):
        menu_on_the_feed(tmp_path, monkeypatch, script, exits=1)
    journal, n = said_unsaved(caplog, journals)
    err = capsys.readouterr().err
    line = f"buzzerbox menu: {journal}: {unsaved_line(n, f'{journal}.unsaved')}"
    assert err.splitlines().count(line) == 1 and "Traceback" not in err, err


def test_a_process_killed_in_the_test_press_that_will_not_open_again_leaves_keyboard_stations(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The first start's test press on header-4: its deciding process is
    killed (-9) and the one started again cannot open the inputs (from now on
    real pins, which are not here). The test press is skipped in one line and
    the menu opens on keyboard stations, as when the wiring never opened (it
    was handed the dead process and its first frame failed)."""
    import logging

    started, evenings = starts(monkeypatch), []
    on = evening_mod.EveningProcess.on

    def recorded(deciding: evening_mod.EveningProcess, profile: str | None) -> evening_mod.EveningLink:
        evenings.append(deciding)
        return on(deciding, profile)

    monkeypatch.setattr(evening_mod.EveningProcess, "on", recorded)
    seen: dict[str, str] = {}

    def script(feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, LANGUAGE_QUESTION))
        frame = yield [pygame.K_RETURN]
        frame = yield from until(frame, lambda f: asked(f, WIRING_QUESTION))
        while "wiring/header-4.toml" not in said(frame):  # the note under the rows is the chosen row's
            frame = yield [pygame.K_DOWN]
        frame = yield [pygame.K_RETURN]
        frame = yield from until(frame, lambda f: shows(f, step(3)))
        frame = yield [pygame.K_RETURN]
        frame = yield from until(frame, lambda f: shows(f, step(4)) and said(f).count(_("press!")) == 4)
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")
        deciding = evenings[-1]
        assert deciding.link is not None
        deciding.feed = deciding.link.feed = None
        os.kill(started[-1], signal.SIGKILL)
        frame = yield from until(frame, lambda f: asked(f, "Phones join here"))  # the test press skipped
        frame = yield [pygame.K_RETURN]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        seen["menu"] = said(frame)
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    with caplog.at_level(logging.INFO):
        menu_on_the_feed(tmp_path, monkeypatch, script, first_run=True, profile=None)
    assert _("Player {n}").format(n=1) in seen["menu"], seen["menu"]  # keyboard stations for now
    skipped = [r.getMessage() for r in caplog.records if "test press skipped" in r.getMessage()]
    assert len(skipped) == 1 and "no-such-factory" in skipped[0], skipped


def test_the_menus_simulated_players_game_is_decided_by_the_evenings_process_and_lights_its_lamps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"Who plays: demo bots" from the menu on header-4: the game is handed to
    the evening's deciding process (``Play`` with ``Bots``), which journals the
    bots' presses and lights the winners' lamps as in any game (the menu played
    it in its own process with the lamps dark); the menu opens no lamp."""
    from tests.core.test_evening import LAMP_SPY
    from tests.display.test_menu_refusal import row_is

    site, lamps = tmp_path / "site", tmp_path / "lamps"
    site.mkdir()
    (site / "sitecustomize.py").write_text(LAMP_SPY, encoding="utf-8")
    lamps.touch()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("BUZZERBOX_LAMP_SPY", str(lamps))
    no_input_here(monkeypatch)
    taken, started = takes(monkeypatch), starts(monkeypatch)

    def lit() -> set[tuple[int, int]]:
        """(pid, station) of every lamp a process turned on."""
        return {(int(pid), int(station)) for pid, station, _input, mode in
                (line.split() for line in lamps.read_text(encoding="utf-8").splitlines()) if mode == "on"}

    def script(_feed: Feed) -> Script:
        frame = yield []
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        while not row_is(frame, "Who plays"):
            frame = yield [pygame.K_DOWN]
        while not row_is(frame, "Who plays", "demo bots"):
            frame = yield [pygame.K_RIGHT]
        frame = yield [pygame.K_RETURN]  # Start (Enter starts from any row)
        frame = yield from until(frame, lambda _f: bool(lit()))  # a bot won something: its lamp, from the process
        frame = yield [pygame.K_ESCAPE]
        frame = yield [pygame.K_ESCAPE]
        frame = yield from until(frame, lambda f: asked(f, MENU_HINT))
        frame = yield [pygame.K_ESCAPE]
        yield [pygame.K_ESCAPE]

    journals = menu_on_the_feed(tmp_path, monkeypatch, script)
    assert len(taken) == 1 and taken == started[:1], (taken, started)  # the evening's one process decided it
    assert {pid for pid, _station in lit()} == {taken[0]}
    (journal,) = journals.glob("*.jsonl")
    records = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    assert records[0]["mode"] == "demo" and records[-1]["type"] == "end"
    assert any(r["type"] == "press" for r in records), "the bots' presses are journaled"
