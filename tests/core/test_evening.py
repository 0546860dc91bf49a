"""The menu's evening in one deciding process (``--evening``): the inputs
and lamps opened once, the stations' presses sent to the menu between the
games, each game taken over on a ``Play`` and decided as ``play``'s is.
The test is the menu: it talks to the process over the channel. Each wait
ends on what the process says, never on time (``HANG_S`` bounds a failure)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.box import profile as profile_mod
from controller.box import session
from controller.box.timeline import box_now_us
from games.registry import get, package_of
from tests.core.test_split import ENV, ROOT, has_winner, press, ready_pid, until
from tests.processes import HANG_S, Lines, running

QUIZ = f"quiz={package_of('quiz')}"


def header(players: int, profile: profile_mod.Profile | None = None, seed: int = 1) -> p.NewGame:
    """A new quiz, as the menu hands it over (the deciding process builds its session header)."""
    spec = get("quiz")
    return session.new_game(spec, session.game_settings(spec, players, seed, {}, profile))


@contextlib.contextmanager
def evening(*extra: str) -> Iterator[tuple[subprocess.Popen[str], socket.socket, Lines]]:
    """An evening's deciding process, started as the menu starts it; it and all it started killed at the end."""
    mine, theirs = socket.socketpair()
    try:
        with running([sys.executable, "-m", "controller.box.process", "--fd", str(theirs.fileno()), "--evening",
                      *extra], ENV, ROOT, stdout=None, pass_fds=[theirs.fileno()]) as (proc, err):
            theirs.close()
            yield proc, mine, err
    finally:
        mine.close()
        theirs.close()


def ended_in_journal(path: Path) -> list[str]:
    return [json.loads(x)["type"] for x in path.read_text().splitlines() if x.endswith("}")]


def test_an_evening_decides_two_keyboard_games_in_one_process_and_a_quit_ends_it(tmp_path: Path) -> None:
    """Keyboard stations: two games in a row, each taken over on its ``Play``,
    journaled and closed, by the same process; a quit between them exits 0."""
    with evening() as (proc, sock, err):
        opened = until(sock, lambda m: isinstance(m, (p.Opened, p.Refused)))
        assert opened == p.Opened("")
        seen = 0
        for n, winner in ((1, 1), (2, 0)):
            journal = tmp_path / f"q{n}.jsonl"
            channel.send(sock, p.Play(str(journal), header(2, seed=n), QUIZ))
            seen, line = err.wait_for(lambda x: x.startswith("deciding process "), seen)
            seen += 1
            assert ready_pid(line) == proc.pid  # the evening's one process decides each game
            first = until(sock, lambda m: isinstance(m, p.View))
            channel.send(sock, p.HostKey("arm", box_now_us() + first.offset_us))
            until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
            press(sock, winner)
            until(sock, lambda m, w=winner: isinstance(m, p.View) and m.public.get("winner") == w)
            channel.send(sock, p.Stop("menu"))
            ended = until(sock, lambda m: isinstance(m, p.Ended))
            assert ended.reason == "menu" and ended.summary["winner"] == winner
            assert ended_in_journal(journal)[-1] == "end" and "press" in ended_in_journal(journal)
        assert proc.poll() is None  # between the games it waits for the next
        channel.send(sock, p.Stop("quit"))
        assert proc.wait(HANG_S) == 0
    assert len([x for x in err.lines if x.startswith("deciding process ")]) == 2


def fifo_edges(fifo: Path) -> tuple[int, Callable[[int, str, int, int], None]]:
    """The feed's writer and a way to put one edge on a header-4 input (its station and name)."""
    pins = {v: k for k, v in profile_mod.load("header-4").input_pins().items()}
    writer = os.open(fifo, os.O_WRONLY)

    def edge(station: int, name: str, level: int, t_us: int) -> None:
        os.write(writer, f"{pins[(station, name)]} {level} {t_us}\n".encode())

    return writer, edge


def tap(edge: Callable[[int, str, int, int], None], station: int, name: str) -> None:
    """A press and its release, as a finger makes them (the release well past the debounce)."""
    t = box_now_us()
    edge(station, name, 0, t)
    edge(station, name, 1, t + 60_000)


def pressed(station: int, name: str) -> Callable[[Any], bool]:
    return lambda m: isinstance(m, p.Between) and any(x.station == station and x.input == name for x in m.presses)


def test_an_evening_on_gpio_sends_the_stations_between_games_and_decides_both_games(tmp_path: Path) -> None:
    """header-4's GPIO pins, driven by a kernel-like feed, opened once for
    the evening: between games the stations' and the host's presses reach
    the menu (``Between``), and two games in a row are decided on the same
    inputs by the same process, each by the readers' watermarks."""
    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    profile = profile_mod.load("header-4")
    with evening("--profile", "header-4", "--feed", str(fifo)) as (proc, sock, err):
        opened = until(sock, lambda m: isinstance(m, (p.Opened, p.Refused)))
        assert isinstance(opened, p.Opened) and opened.inputs.startswith("gpio"), opened
        writer, edge = fifo_edges(fifo)
        try:
            seen = 0
            for n, winner in ((1, 0), (2, 2)):
                until(sock, lambda m: isinstance(m, p.Between))  # the stations are the menu's from now on
                tap(edge, winner, "bell")  # a station's bell in the menu
                strip = until(sock, pressed(winner, "bell")).strip
                assert [s["name"] for s in strip] == [st.name for st in profile.stations]
                tap(edge, -1, "arm")  # the host's button drives the menu too
                until(sock, pressed(-1, "arm"))
                journal = tmp_path / f"q{n}.jsonl"
                channel.send(sock, p.Play(str(journal), header(4, profile, seed=n), QUIZ))
                seen, line = err.wait_for(lambda x: x.startswith("deciding process "), seen)
                seen += 1
                assert ready_pid(line) == proc.pid
                until(sock, lambda m: isinstance(m, p.View))
                tap(edge, -1, "arm")
                until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
                tap(edge, winner, "bell")
                won = until(sock, lambda m: isinstance(m, p.View) and m.public.get("winner") is not None)
                assert won.public["winner"] == winner
                channel.send(sock, p.Stop("menu"))
                ended = until(sock, lambda m: isinstance(m, p.Ended))
                assert ended.reason == "menu" and ended.decided_by == {"gpio": "watermarks"}
                assert ended_in_journal(journal)[-1] == "end"
            until(sock, lambda m: isinstance(m, p.Between))
            tap(edge, 3, "bell")  # after the last game the stations still reach the menu
            until(sock, pressed(3, "bell"))
            sock.close()  # the menu went away between games: the evening is over
            assert proc.wait(HANG_S) == 0
        finally:
            os.close(writer)


def test_a_stop_between_games_leaves_the_lamps_off_and_the_inputs_closed(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The evening's process (its ``decide``, here on a thread, its lamps on
    mock pins this test reads): a game's winner lamp lit, then the game
    ended and a stop between games: the process ends with 0, every lamp
    off and the inputs stopped."""
    from gpiozero.pins.mock import MockFactory

    from controller.box import process
    from controller.box.lights import GpioLights

    lamps: list[GpioLights] = []

    def lights(profile: profile_mod.Profile | None, source: Any = None) -> GpioLights:
        assert profile is not None
        lamps.append(GpioLights.from_profile(profile, pin_factory=MockFactory()))
        close = lamps[-1].close

        def closed() -> None:  # what the lamps show as their pins are released
            lit_at_close.extend(led.is_lit for led in lamps[0].leds.values())
            close()

        lamps[-1].close = closed  # type: ignore[method-assign]
        return lamps[-1]

    lit_at_close: list[bool] = []
    stopped: list[bool] = []
    monkeypatch.setattr(session, "open_lights", lights)
    opened = session.open_inputs

    def inputs(*args: Any, **kwargs: Any) -> Any:
        source = opened(*args, **kwargs)
        stop = source.stop
        source.stop = lambda: (stopped.append(True), stop())[1]  # type: ignore[method-assign]
        return source

    monkeypatch.setattr(session, "open_inputs", inputs)
    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    args = process.parse(["--fd", "0", "--evening", "--profile", "header-4", "--feed", str(fifo), "--results-s", "0"])
    mine, theirs = socket.socketpair()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(process.decide(args, theirs, "test")), daemon=True)
    thread.start()
    writer, edge = fifo_edges(fifo)
    try:
        until(mine, lambda m: isinstance(m, p.Opened))
        profile = profile_mod.load("header-4")
        channel.send(mine, p.Play(str(tmp_path / "q.jsonl"), header(4, profile), QUIZ))
        until(mine, lambda m: isinstance(m, p.View))
        tap(edge, -1, "arm")
        until(mine, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
        tap(edge, 1, "bell")
        until(mine, has_winner)
        pins = [led.pin for led in lamps[0].leds.values()]
        assert any(any(state.state for state in pin.states) for pin in pins)  # a lamp was lit in the game
        channel.send(mine, p.Stop("menu"))
        until(mine, lambda m: isinstance(m, p.Ended))
        assert not stopped  # the evening's next game reads the same inputs
        channel.send(mine, p.Stop("quit"))
        thread.join(HANG_S)
        assert result == [0]
        assert stopped and lit_at_close and not any(lit_at_close)
        assert all(led.closed for led in lamps[0].leds.values())  # released: the blinker's thread ended with them
        assert len(lamps) == 1  # opened once
    finally:
        os.close(writer)
        mine.close()
        thread.join(HANG_S)
        theirs.close()


def test_evening_and_journal_are_one_or_the_other() -> None:
    """A deciding process is given a game's journal, or the evening's games one by one."""
    from controller.box import process

    with pytest.raises(SystemExit):
        process.parse(["--fd", "3"])
    assert process.parse(["--fd", "3", "--evening"]).journal is None
    assert isinstance(process.parse(["--fd", "3", "--journal", "j"]), argparse.Namespace)


def test_an_evening_games_close_journals_a_press_still_on_its_way_from_the_feed(tmp_path: Path) -> None:
    """A station's press on its way in the feed's pipe as the host stops the
    game (half its line read by the reader): the evening keeps the inputs
    open, so nothing drains them; the close waits until the feed says it
    delivered up to the close, and the press is journaled before the end.
    The rest of the line is written once the process says it waits for it."""
    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    profile = profile_mod.load("header-4")
    pins = {v: k for k, v in profile.input_pins().items()}
    journal = tmp_path / "q.jsonl"
    with evening("--profile", "header-4", "--feed", str(fifo), "--log-level", "10") as (proc, sock, err):
        until(sock, lambda m: isinstance(m, p.Opened))
        writer = os.open(fifo, os.O_WRONLY)
        try:
            until(sock, lambda m: isinstance(m, p.Between))
            channel.send(sock, p.Play(str(journal), header(4, profile), QUIZ))
            until(sock, lambda m: isinstance(m, p.View))
            os.write(writer, f"{pins[(2, 'bell')]} 0 {box_now_us()}".encode())  # its newline not yet written
            channel.send(sock, p.Stop("menu"))
            err.wait_for(lambda x: "waiting for the gpio inputs to deliver up to its close" in x)
            os.write(writer, b"\n")
            ended = until(sock, lambda m: isinstance(m, p.Ended))
            assert ended.reason == "menu"
        finally:
            os.close(writer)
        channel.send(sock, p.Stop("quit"))
        assert proc.wait(HANG_S) == 0
    records = [json.loads(x) for x in journal.read_text().splitlines() if x.endswith("}")]
    assert records[-1]["type"] == "end"
    assert [r["station"] for r in records if r["type"] == "press"] == [2], records


def test_between_games_a_press_lights_its_lamp_while_the_menu_asks_and_not_after(tmp_path: Path,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The first start's test press (``PressLamps``): the evening's process,
    which holds the lamps (on mock pins this test reads), lights a station's
    lamp on its press, a keyboard station's key and a GPIO bell alike, before
    the menu hears of the press; asked to stop, every lamp goes dark and a
    press lights none."""
    from gpiozero.pins.mock import MockFactory

    from controller.box import process
    from controller.box.lights import GpioLights

    lamps: list[GpioLights] = []

    def lights(profile: profile_mod.Profile | None, source: Any = None) -> GpioLights:
        assert profile is not None
        lamps.append(GpioLights.from_profile(profile, pin_factory=MockFactory()))
        return lamps[-1]

    monkeypatch.setattr(session, "open_lights", lights)
    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    args = process.parse(["--fd", "0", "--evening", "--profile", "header-4", "--feed", str(fifo)])
    mine, theirs = socket.socketpair()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(process.decide(args, theirs, "test")), daemon=True)
    thread.start()
    writer, edge = fifo_edges(fifo)

    def lit() -> set[int]:
        return {station for (station, _inp), led in lamps[0].leds.items() if led.is_lit}

    try:
        until(mine, lambda m: isinstance(m, p.Opened))
        press(mine, 0, box_now_us())  # before the menu asks: no lamp
        until(mine, pressed(0, "bell"))
        assert lit() == set()
        channel.send(mine, p.PressLamps(True))
        press(mine, 1, box_now_us())  # a keyboard station's key (after the ask, on the same channel)
        until(mine, pressed(1, "bell"))
        assert lit() == {1}
        tap(edge, 3, "bell")  # a GPIO station's bell
        until(mine, pressed(3, "bell"))
        assert lit() == {1, 3}
        channel.send(mine, p.PressLamps(False))
        press(mine, 2, box_now_us())
        until(mine, pressed(2, "bell"))
        assert lit() == set()
        channel.send(mine, p.Stop("quit"))
        thread.join(HANG_S)
        assert result == [0]
    finally:
        os.close(writer)
        mine.close()
        thread.join(HANG_S)
        theirs.close()


def test_between_keyboard_games_the_process_sleeps_on_the_channel_until_a_message(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Keyboard stations have nothing to step between games: the evening's
    process waits on the channel until the menu says something (it used to
    wake every 10 ms for nothing, all evening), and the menu's quit ends it."""
    from controller.box import process

    waits: list[float | None] = []
    look = process.Link.next

    def recorded(link: process.Link, timeout_s: float | None) -> Any:
        waits.append(timeout_s)
        return look(link, timeout_s)

    monkeypatch.setattr(process.Link, "next", recorded)
    args = process.parse(["--fd", "0", "--evening"])
    mine, theirs = socket.socketpair()
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(process.decide(args, theirs, "test")), daemon=True)
    thread.start()
    try:
        assert until(mine, lambda m: isinstance(m, (p.Opened, p.Refused))) == p.Opened("")
        channel.send(mine, p.Stop("quit"))
        thread.join(HANG_S)
        assert result == [0]
        assert waits and all(w is None or w == 0 for w in waits), waits  # a wait for a message, or a look
    finally:
        mine.close()
        thread.join(HANG_S)
        theirs.close()


def test_a_sigterm_between_keyboard_games_ends_the_evening_that_sleeps_on_the_channel() -> None:
    """The evening's process waits on the channel between keyboard games; a
    SIGTERM to it alone (systemd's stop) still ends it, with 0."""
    import signal

    with evening() as (proc, sock, _err):
        assert until(sock, lambda m: isinstance(m, (p.Opened, p.Refused))) == p.Opened("")
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(HANG_S) == 0


@pytest.mark.parametrize(("lang", "said"), [("cs", "nejdřív tu hru ukončete"), ("pl", "najpierw zakończ tamtą grę")])
def test_a_journal_another_process_writes_is_refused_in_the_boxs_language(
        tmp_path: Path, lang: str, said: str) -> None:
    """The menu carries on a game cut off, but another process holds its
    journal: the evening's process refuses it in one line, which the menu
    shows as it is, so it is said in the box's language, not in English."""
    import fcntl

    cut_off = tmp_path / "quiz.jsonl"
    spec = get("quiz")
    box = session.new_box(spec, session.game_settings(spec, 2, 1, {}, None), None, cut_off)
    assert box.journal is not None
    box.journal.close()  # no end: a game the power cut off
    held = os.open(cut_off, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another process writes it
        with evening("--lang", lang) as (proc, sock, _err):
            assert until(sock, lambda m: isinstance(m, (p.Opened, p.Refused))) == p.Opened("")
            channel.send(sock, p.Play(str(cut_off), None, QUIZ))
            refused = until(sock, lambda m: isinstance(m, p.Refused))
            assert said in refused.line and str(cut_off) in refused.line, refused.line
            assert "is being written" not in refused.line and "\n" not in refused.line
            channel.send(sock, p.Stop("quit"))
            assert proc.wait(HANG_S) == 0
    finally:
        os.close(held)


# the menu's end of the evening's process (controller/screen/evening.py): started again as the menu needs it

LAMP_SPY = '''"""The evening's deciding process (this test's): every lamp it sets written to a file, with its pid."""
import os
if os.environ.get("BUZZERBOX_LAMP_SPY"):
    from controller.box import session
    from controller.box.lights import RecordingLights

    class Spy(RecordingLights):
        def set(self, station, input, mode):
            with open(os.environ["BUZZERBOX_LAMP_SPY"], "a", encoding="utf-8") as out:
                out.write(f"{os.getpid()} {station} {input} {mode}\\n")
            super().set(station, input, mode)

    def open_lights(profile, source=None):
        return Spy([(i, "bell") for i in range(len(profile.stations))])

    session.open_lights = open_lights
'''


@contextlib.contextmanager
def evening_on_header_4(tmp_path: Path) -> Iterator[Any]:
    """The menu's ``EveningProcess`` on header-4's stations, driven through a feed FIFO; stopped at the end."""
    from controller.screen.evening import EveningProcess

    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    deciding = EveningProcess(feed=str(fifo))
    try:
        yield deciding
    finally:
        deciding.stop()


def language_of(pid: int) -> str:
    """The language a deciding process was started in (its ``--lang``: the phones' and host pages speak it)."""
    argv = Path(f"/proc/{pid}/cmdline").read_text(encoding="utf-8").split("\0")
    return argv[argv.index("--lang") + 1]


def test_the_same_wiring_in_another_language_keeps_the_evenings_process_and_it_speaks_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    """"Set up again" on the same wiring with Czech chosen: the menu asks for
    the evening's process on header-4 again and gets the same one, told the
    language (``SetLanguage``): its inputs stay open, and the game it decides
    next says its start line in Czech. It used to be stopped and another
    started in Czech (the stations read again, the phones' server's seats lost)."""
    from controller.box.process import READY_LINE
    from games.i18n import _load, current_language, set_language

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    was = current_language()
    with evening_on_header_4(tmp_path) as deciding:
        link = deciding.on("header-4")
        assert link.process is not None and language_of(link.process.pid) == "en"
        pid = link.process.pid
        set_language("cs")
        try:
            assert deciding.on("header-4") is link and link.alive() and link.process.pid == pid
            assert link.sock is not None
            channel.send(link.sock, p.Play(str(tmp_path / "q.jsonl"), header(4, profile_mod.load("header-4")), QUIZ))
            until(link.sock, lambda m: isinstance(m, p.View))
            channel.send(link.sock, p.Stop(p.EndReason.MENU))
            until(link.sock, lambda m: isinstance(m, p.Ended))
        finally:
            set_language(was)
    err = capfd.readouterr().err
    assert _load("cs").gettext(READY_LINE).split("{priority}")[0].format(pid=pid) in err, err


def test_a_process_killed_in_the_test_press_is_started_again_and_its_presses_light_their_lamps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk-through's test press asks that a press lights its lamp; the
    evening's process is killed (-9) meanwhile and started again on its next
    look: a press on the new one lights its lamp too (it used to stay dark)."""
    import select
    import signal

    from controller.box.press import Press
    from controller.screen.evening import EveningStations

    site, lamps = tmp_path / "site", tmp_path / "lamps"
    site.mkdir()
    (site / "sitecustomize.py").write_text(LAMP_SPY, encoding="utf-8")
    lamps.touch()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("BUZZERBOX_LAMP_SPY", str(lamps))
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")

    def seen(stations: EveningStations, station: int) -> None:
        """The menu's rows hear of ``station``'s press (its lamp is lit before: the process lights it first)."""
        while True:
            sock = stations.link.sock
            assert sock is not None
            readable, _w, _x = select.select([sock], [], [], HANG_S)
            assert readable, f"station {station}'s press never came"
            if any(x.station == station for x in stations.step(box_now_us())):
                return

    def lit(pid: int) -> set[int]:
        return {int(s) for p_, s, _i, mode in (x.split() for x in lamps.read_text().splitlines())
                if int(p_) == pid and mode == "on"}

    with evening_on_header_4(tmp_path) as deciding:
        link = deciding.on("header-4")  # as the test press asks for it
        stations = EveningStations(link, box_now_us())
        link.press_lamps(True)
        stations.press(Press(0, "bell", box_now_us()))  # a keyboard station's key, through the process
        seen(stations, 0)
        assert link.process is not None
        first = link.process.pid
        assert lit(first) == {0}
        os.kill(first, signal.SIGKILL)
        link.process.wait()
        stations.step(box_now_us())  # its next look: started again
        assert link.alive() and link.process is not None and link.process.pid != first
        stations.press(Press(1, "bell", box_now_us()))
        seen(stations, 1)
        assert lit(link.process.pid) == {1}, lamps.read_text()


def test_a_process_that_died_and_will_not_start_again_is_refused_not_handed_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The test press's process dies and its inputs will not open again (the
    test press is skipped): the menu asking for it gets ``EveningRefused`` (its
    keyboard stations, as designed), never the dead link (a menu whose first
    frame failed)."""
    import signal

    from controller.screen.evening import EveningRefused, EveningStations

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    with evening_on_header_4(tmp_path) as deciding:
        link = deciding.on("header-4")
        stations = EveningStations(link, box_now_us())
        monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "no-such-factory")  # from now on real pins, which are not here
        link.feed = deciding.feed = None
        assert link.process is not None
        os.kill(link.process.pid, signal.SIGKILL)
        link.process.wait()
        with pytest.raises(EveningRefused):
            stations.step(box_now_us())  # the walk-through: its test press skipped
        with pytest.raises(EveningRefused, match="no-such-factory"):
            deciding.on("header-4")  # the menu: keyboard stations
        assert deciding.link is None


def test_a_signal_while_the_evenings_process_opens_stops_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stop (SIGTERM, raised in the menu as ``KeyboardInterrupt``) while the
    menu waits for the evening's process to open its inputs: the process is
    stopped and waited for, not left running unowned (the menu's own stop
    would not know it)."""
    from controller.screen import evening as evening_mod

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    started: list[subprocess.Popen[bytes]] = []
    popen = subprocess.Popen

    def recorded(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        started.append(popen(*args, **kwargs))
        return started[-1]

    def interrupted(_sock: socket.socket) -> Any:
        raise KeyboardInterrupt  # the menu's signal handler, as it waits

    monkeypatch.setattr(evening_mod.subprocess, "Popen", recorded)
    monkeypatch.setattr(evening_mod.channel, "receive", interrupted)
    try:
        with evening_on_header_4(tmp_path) as deciding, pytest.raises(KeyboardInterrupt):
            deciding.on("header-4")
        assert len(started) == 1 and started[0].poll() is not None  # ended before the menu's stop returned
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()


@pytest.mark.parametrize("then", ["leaves", "plays"])
def test_a_name_typed_on_the_host_page_in_the_roll_call_reaches_the_menu_after_the_game(tmp_path: Path,
                                                                                     then: str) -> None:
    """The phones' server renames a player while the roll call runs (the
    game's notice and the menu's ``HostRenamed``); the host then leaves the
    roll call, or skips it and stops the game: after the game's ``Ended`` the
    menu hears the new name (its names and names file take it), as it does
    for a name typed in the game."""
    from controller.box.press import InputNotice
    from controller.box.runtime import RENAMED
    from tests.processes import connect_when_listening

    fifo, views_at = tmp_path / "edges", tmp_path / "views.sock"
    os.mkfifo(fifo)
    profile = profile_mod.load("header-4")
    with evening("--profile", "header-4", "--feed", str(fifo), "--viewer-socket", str(views_at)) as (_proc, sock, _err):
        writer = os.open(fifo, os.O_RDWR)  # the feed stays open (no edge comes)
        phones = connect_when_listening(str(views_at))
        try:
            until(sock, lambda m: isinstance(m, p.Between))
            channel.send(phones, p.Hello(p.PHONES, "phones"))
            channel.send(sock, p.Play(str(tmp_path / "q.jsonl"), header(4, profile), QUIZ, roll_call=True))
            until(sock, lambda m: isinstance(m, p.RollCallView))
            # the server's two messages for one name (the menu's first: the roll call naming Eva says both came)
            channel.send(phones, p.HostRenamed(0, "Eva"))
            channel.send(phones, p.NoticeInput(InputNotice(0, "Eva", RENAMED, box_now_us())))
            until(sock, lambda m: isinstance(m, p.RollCallView) and "Eva" in json.dumps([m.view, m.strip], default=str))
            if then == "plays":  # the roll call skipped: the game begins, and is stopped
                channel.send(sock, p.HostKey(p.SKIP_ROLL_CALL, box_now_us()))
                until(sock, lambda m: isinstance(m, p.View))
            channel.send(sock, p.Stop("menu"))  # leaving the roll call: the game never begins
            assert until(sock, lambda m: isinstance(m, p.Ended)).reason == (p.NOT_BEGUN if then == "leaves" else "menu")
            sock.settimeout(HANG_S)
            assert channel.receive(sock) == p.HostRenamed(0, "Eva")  # before the stations go to the menu again
        finally:
            phones.close()
            os.close(writer)


def test_a_play_naming_a_package_the_process_does_not_know_is_refused_and_imports_nothing(tmp_path: Path) -> None:
    """A ``Play`` whose GAME=PACKAGE (or its screen's ``--register``) is not a
    game the evening's process was started knowing (``games/``, its
    ``--register``) is refused in one line naming it, and that package is
    never imported (it used to be: a peer made the process run its code);
    the evening goes on to its next game."""
    from tests.core.imported_by_a_message import MARK

    with evening() as (proc, sock, err):
        assert until(sock, lambda m: isinstance(m, (p.Opened, p.Refused))) == p.Opened("")
        foreign = tmp_path / "foreign.jsonl"
        channel.send(sock, p.Play(str(foreign), header(2), "quiz=tests.core.imported_by_a_message"))
        refused = until(sock, lambda m: isinstance(m, p.Refused))
        assert "\n" not in refused.line and "tests.core.imported_by_a_message" in refused.line, refused
        # a game it knows, but a screen to start again that would import another package: refused too
        channel.send(sock, p.Play(str(foreign), header(2), QUIZ, ("--register", "quiz=tests.core.imported_by_a_message")))
        refused = until(sock, lambda m: isinstance(m, p.Refused))
        assert "tests.core.imported_by_a_message" in refused.line, refused
        journal = tmp_path / "q.jsonl"
        channel.send(sock, p.Play(str(journal), header(2), QUIZ))  # the next game, one it knows
        until(sock, lambda m: isinstance(m, p.View))
        channel.send(sock, p.Stop(p.EndReason.MENU))
        assert until(sock, lambda m: isinstance(m, p.Ended)).reason == p.EndReason.MENU
        channel.send(sock, p.Stop(p.EndReason.QUIT))
        assert proc.wait(HANG_S) == 0
    assert not any(MARK in line for line in err.lines), err.lines
    assert not foreign.exists() and ended_in_journal(journal)[-1] == "end"
