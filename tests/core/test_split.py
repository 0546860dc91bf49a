"""The split design: the box decides in a process of its own, the screen
watches it. Each test waits for what the processes say (their ready lines,
the views, the journal's records), never for time; a deadline only bounds
a failure."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.box import session
from controller.box.press import Edge
from controller.box.process import SWITCH_INTERVAL_S
from controller.box.timeline import box_now_us
from games.registry import get
from tests.processes import HANG_S, Lines, connect_when_listening, running

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
#: bounds a failure only: every wait below ends as soon as what it waits for happens
DEADLINE_S = HANG_S


def ready_pid(line: str) -> int:
    return int(line.split()[2].rstrip(":"))


def views(sock: socket.socket) -> Iterator[p.Message]:
    while True:
        message = channel.receive(sock)
        if message is None:
            return
        yield message


def until(sock: socket.socket, test: Callable[[Any], bool]) -> Any:
    """The first message that passes ``test``; fails if none came within
    DEADLINE_S in all (a hang guard: views keep coming while the game runs, so
    a per-read timeout alone never fired and a missing winner hung the run)."""
    give_up = time.monotonic() + DEADLINE_S
    sock.settimeout(DEADLINE_S)
    seen = []
    for message in views(sock):
        if test(message):
            return message
        seen.append(message.TAG)
        assert time.monotonic() < give_up, f"no such message in {DEADLINE_S} s; saw {seen[-5:]}"
    raise AssertionError("the deciding process went away first")


def has_winner(message: p.Message) -> bool:
    return isinstance(message, p.View) and message.public.get("winner") == 1


def press(sock: socket.socket, station: int, stamp_us: int | None = None) -> None:
    """A keyboard station's press as the screen sends it, stamped now (the sources' clock), or at
    ``stamp_us``. However long a loaded machine holds it, it is played as if in time unless the
    game decided something since its stamp (late evidence); stamped ahead, it would be refused
    as from the future past a few ms (``inputs.BOX_CLOCK_SLACK_US``)."""
    edge = Edge(station, "bell", 0, box_now_us() if stamp_us is None else stamp_us)
    channel.send(sock, p.EdgeInput(edge, 1))


def journal_has(path: Path, kind: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not any(json.loads(x).get("type") == kind for x in path.read_text().splitlines() if x.endswith("}")):
        assert time.monotonic() < deadline, path.read_text()
        time.sleep(0.02)  # the journal's writer thread puts it in the file (docs/journal.md: within 50 ms)


def connect(path: Path) -> socket.socket:
    """The viewer socket, once the deciding process listens on it (its ready line comes before)."""
    return connect_when_listening(str(path), DEADLINE_S)


def test_the_deciding_process_decides_without_pygame_or_aiohttp(tmp_path: Path) -> None:
    """The test is the screen: it hands over a journal, sends stamped keys,
    and sees the winner's view published with its lamp's time, and the
    process says it ran with its own switch interval. Its press is
    late: stamped just after the arming, sent once the box has judged past
    that stamp; nothing was decided meanwhile, so it still wins."""
    path = tmp_path / "q.jsonl"
    spec = get("quiz")
    box = session.new_box(spec, spec.settings(2, 1), None, None)
    mine, theirs = socket.socketpair()
    with running([sys.executable, "-m", "controller.box.process", "--fd", str(theirs.fileno()), "--journal",
                  str(path), "--new"], ENV, ROOT, stdout=None, pass_fds=[theirs.fileno()]) as (proc, err), mine:
        theirs.close()
        channel.send(mine, p.Start(session.new_game(spec, box.settings)))  # it writes the journal
        _i, line = err.wait_for(lambda x: x.startswith("deciding process "))
        assert ready_pid(line) == proc.pid and ("SCHED_FIFO" in line or "nice" in line)
        first = until(mine, lambda m: isinstance(m, p.View))
        armed_at = box_now_us() + first.offset_us
        channel.send(mine, p.HostKey("arm", armed_at))
        # a view's step judged up to its time less the guard: once past the press's stamp, the press is late
        until(mine, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed"
              and m.t_us - m.guard_us > armed_at + 1)
        press(mine, 1, armed_at + 1 - first.offset_us)
        won = until(mine, has_winner)
        decided, lit = won.decided
        assert decided <= lit  # the lamp was lit before the view went out
        channel.send(mine, p.Stop("menu"))
        ended = until(mine, lambda m: isinstance(m, p.Ended))
        assert ended.reason == "menu" and ended.loaded == {"pygame": False, "aiohttp": False}
        # its edge reader gets the interpreter within half a millisecond of the deciding thread's turn
        assert ended.switch_interval_us == round(SWITCH_INTERVAL_S * 1e6) < 5_000  # not Python's default 5 ms
        assert ended.summary["winner"] == 1
        assert proc.wait(DEADLINE_S) == 0
    records = [json.loads(x) for x in path.read_text().splitlines()]
    assert [r["type"] for r in records][-1] == "end" and any(r["type"] == "press" for r in records)


def test_the_deciding_process_says_its_start_line_in_the_box_language(tmp_path: Path) -> None:
    """A Polish box's deciding process, started with ``--lang pl`` as the
    screen starts it, says its pid and priority in Polish."""
    spec = get("quiz")
    box = session.new_box(spec, spec.settings(2, 1), None, None)
    mine, theirs = socket.socketpair()
    with running([sys.executable, "-m", "controller.box.process", "--fd", str(theirs.fileno()), "--journal",
                  str(tmp_path / "q.jsonl"), "--new", "--lang", "pl"], ENV, ROOT, stdout=None,
                 pass_fds=[theirs.fileno()]) as (proc, err), mine:
        theirs.close()
        channel.send(mine, p.Start(session.new_game(spec, box.settings)))
        _i, line = err.wait_for(lambda x: x.startswith("proces decyzyjny "))
        assert ready_pid(line) == proc.pid
        assert "priorytet czasu rzeczywistego (SCHED_FIFO" in line or "niedozwolony" in line, line
        assert "real-time priority" not in line and "not allowed" not in line
        channel.send(mine, p.Stop("menu"))
        until(mine, lambda m: isinstance(m, p.Ended))
        assert proc.wait(DEADLINE_S) == 0


@pytest.fixture
def playing(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], Lines, Path, Path]]:
    """``play`` (split, the default) with keyboard stations, headless, and a viewer socket for the test."""
    journal, sock = tmp_path / "q.jsonl", tmp_path / "views.sock"
    with running([sys.executable, "-m", "controller", "play", "--json", "quiz", "--players", "2", "--headless",
                  "--journal", str(journal), "--viewer-socket", str(sock)], ENV, ROOT,
                 stdout=subprocess.PIPE) as (proc, err):
        yield proc, err, journal, sock


def test_the_screen_killed_the_game_goes_on_and_a_new_screen_shows_it(playing) -> None:
    proc, err, journal, path = playing
    err.wait_for(lambda x: x.startswith("deciding process "))
    sock = connect(path)
    try:
        before = until(sock, lambda m: isinstance(m, p.View))  # the game is shown
        proc.send_signal(signal.SIGKILL)  # the screen process dies
        proc.wait()
        at, _line = err.wait_for(lambda x: "the screen process went away: the game goes on" in x)
        channel.send(sock, p.HostKey("arm", 0))
        armed = until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
        press(sock, 1)
        won = until(sock, has_winner)  # decided with no first screen: the lamp, the journal
        journal_has(journal, "press")
        err.wait_for(lambda x: "a new screen process" in x and "shows the game" in x, after=at)
        assert won.version > armed.version > before.version
        channel.send(sock, p.Stop("menu"))
        ended = until(sock, lambda m: isinstance(m, p.Ended))
        assert ended.summary["winner"] == 1
        assert list(views(sock)) == []  # then it exits (its new screen first)
        # a screen showing its first view is no line at the box (the tests waited for it: #47)
        assert not [x for x in err.lines if "showing view" in x], err.lines
    finally:
        sock.close()
    assert json.loads(journal.read_text().splitlines()[-1])["type"] == "end"


def arm_and_win(sock: socket.socket, journal: Path) -> None:
    """The host arms, station 1 presses and wins, and the journal holds the press."""
    until(sock, lambda m: isinstance(m, p.View))
    channel.send(sock, p.HostKey("arm", 0))
    until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
    press(sock, 1)
    until(sock, has_winner)
    journal_has(journal, "press")


def test_the_deciding_process_killed_the_screen_says_so_and_it_resumes_from_the_journal(playing) -> None:
    proc, err, journal, path = playing
    _i, line = err.wait_for(lambda x: x.startswith("deciding process "))
    first = ready_pid(line)
    sock = connect(path)
    try:
        arm_and_win(sock, journal)
        os.kill(first, signal.SIGKILL)
        assert list(views(sock)) == []  # gone
    finally:
        sock.close()
    at, said = err.wait_for(lambda x: "the deciding process stopped: starting it again from the journal" in x)
    _i, line = err.wait_for(lambda x: x.startswith("deciding process "), after=at)
    assert ready_pid(line) != first
    sock = connect(path)
    try:
        resumed = until(sock, lambda m: isinstance(m, p.View))
        assert resumed.public.get("winner") == 1  # the state came back from the journal
        channel.send(sock, p.Stop("menu"))
        until(sock, lambda m: isinstance(m, p.Ended))
    finally:
        sock.close()
    assert proc.wait(DEADLINE_S) == 0, "\n".join(err.lines)
    err.join()  # every line it said
    assert proc.stdout is not None
    out = proc.stdout.read()  # not communicate(): its stderr is ``err``'s to read (it closed it under the reader)
    assert json.loads(out)["winner"] == 1
    assert sum("deciding process stopped" in x for x in err.lines) == 1  # said in one line
    assert json.loads(journal.read_text().splitlines()[-1])["type"] == "end"


# -- the kiosk: its unit restarts a menu that died, and the menu resumes the game ------------------

UNIT = ROOT / "wiring" / "kiosk" / "buzzerbox.service"
#: Restart= values under which systemd starts a service again after its main process was killed by SIGKILL
RESTARTS_AFTER_SIGKILL = ("always", "on-failure", "on-abnormal", "on-abort")


def unit_setting(name: str, default: str) -> str:
    """One ``Name=value`` of the kiosk's systemd unit (systemd's default when it has none)."""
    values = [line.split("=", 1)[1].strip() for line in UNIT.read_text().splitlines() if line.startswith(f"{name}=")]
    return values[-1] if values else default


def wait_gone(pids: list[int]) -> None:
    """Until every process in ``pids`` has ended (a pidfd is readable once its process has): not ours to wait for."""
    for pid in pids:
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            ready, _w, _x = select.select([fd], [], [], DEADLINE_S)
            assert ready, f"process {pid} still runs {DEADLINE_S} s after the unit's stop"
        finally:
            os.close(fd)


def kiosk_menu(journal_dir: Path, sock: Path) -> contextlib.AbstractContextManager[tuple[subprocess.Popen[str], Lines]]:
    """The kiosk's ``buzzerbox menu`` with keyboard stations (SDL's dummy screen), in a session of its own:
    its process group stands for the unit's control group."""
    return running([sys.executable, "-m", "controller", "menu", "--players", "2", "--journal-dir", str(journal_dir),
                    "--viewer-socket", str(sock)], ENV, ROOT)


def test_the_kiosk_menu_killed_mid_game_is_started_again_and_shows_the_game_where_it_was(tmp_path: Path) -> None:
    """The kiosk's menu draws the game its child, the deciding process, decides. Killed with -9, systemd
    does what the unit says: it ends what is left of the unit (``KillMode=``) and starts the menu again
    (``Restart=``). What is left is killed, not stopped, so the journal has no end: the new menu resumes
    the game from it and shows it where it was (the winner lit), and the game goes on."""
    assert unit_setting("Restart", "no") in RESTARTS_AFTER_SIGKILL
    kill_mode = unit_setting("KillMode", "control-group")
    assert kill_mode in ("mixed", "control-group"), f"KillMode={kill_mode} leaves the game's processes beside a new menu"
    folder, path = tmp_path / "journals", tmp_path / "views.sock"
    folder.mkdir()
    spec = get("quiz")
    box = session.new_box(spec, spec.settings(2, 1), None, folder / "quiz.jsonl")  # a game with people, cut off
    assert box.journal is not None
    box.journal.close()
    with contextlib.ExitStack() as menus:  # every menu and all it started killed after
        menu, err = menus.enter_context(kiosk_menu(folder, path))
        _i, line = err.wait_for(lambda x: x.startswith("deciding process "))
        sock = connect(path)
        try:
            arm_and_win(sock, folder / "quiz.jsonl")
            menu.send_signal(signal.SIGKILL)  # the menu dies
            menu.wait()
            # systemd: the main process is gone, so the unit stops; KillMode says how the rest ends
            os.killpg(menu.pid, signal.SIGKILL if kill_mode == "mixed" else signal.SIGTERM)
            err.join()
            left = [ready_pid(line)] + [int(m.group(1)) for x in err.lines
                                        if (m := re.search(r"a new screen process (\d+)", x))]
            wait_gone(left)
        finally:
            sock.close()
        records = [json.loads(x) for x in (folder / "quiz.jsonl").read_text().splitlines() if x.endswith("}")]
        assert records[-1]["type"] != "end", "the game was closed, not cut off: a new menu would not resume it"
        menu, err = menus.enter_context(kiosk_menu(folder, path))  # Restart=: the unit starts again
        err.wait_for(lambda x: "(it was cut off)" in x)
        err.wait_for(lambda x: x.startswith("deciding process "))
        sock = connect(path)
        try:
            resumed = until(sock, lambda m: isinstance(m, p.View))
            assert resumed.public.get("winner") == 1  # where it was
            channel.send(sock, p.HostKey("next", 0))
            until(sock, lambda m: isinstance(m, p.View) and m.public.get("winner") is None)  # and it goes on
            channel.send(sock, p.Stop("menu"))
            until(sock, lambda m: isinstance(m, p.Ended))
        finally:
            sock.close()
        menu.send_signal(signal.SIGTERM)  # back in the menu: the unit is stopped
        assert menu.wait(DEADLINE_S) == 0, "\n".join(err.lines)


def test_a_presenter_clicker_steps_the_quiz_and_puts_the_pause_card_up_in_the_deciding_process(playing) -> None:
    """``play`` as it starts by default: the screen sends a clicker's keys by name (Page Down:
    step, B: blank) and the deciding process steps the game and pauses it."""
    _proc, err, journal, path = playing
    err.wait_for(lambda x: x.startswith("deciding process "))
    sock = connect(path)
    try:
        until(sock, lambda m: isinstance(m, p.View))
        channel.send(sock, p.HostKey("step", 0))  # the waiting question: armed
        until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
        channel.send(sock, p.HostKey("blank", 0))
        until(sock, lambda m: isinstance(m, p.View) and m.host_paused)
        channel.send(sock, p.HostKey("blank", 0))
        until(sock, lambda m: isinstance(m, p.View) and not m.host_paused)
        press(sock, 1)
        until(sock, has_winner)
        channel.send(sock, p.Stop("menu"))
        until(sock, lambda m: isinstance(m, p.Ended))
    finally:
        sock.close()
    kinds = [json.loads(x).get("kind") for x in journal.read_text().splitlines() if x.endswith("}")]
    assert "host_paused" in kinds and "host_continued" in kinds  # the pause is journaled: a replay pauses too


def test_a_fed_gpio_game_is_decided_by_its_readers_watermarks(tmp_path: Path) -> None:
    """``play`` as it starts by default, on header-4's GPIO pins driven by a
    kernel-like feed: the deciding process asks the edge reader how far it has
    delivered instead of waiting a stated delay. The audit's contest (the
    first presser's contact open for 947 µs, the runner-up 35 µs behind) names
    the first presser, and no source ever stalled."""
    from controller.box import profile as profile_mod

    journal, sock_path, fifo = tmp_path / "q.jsonl", tmp_path / "views.sock", tmp_path / "edges"
    os.mkfifo(fifo)
    pins = {v: k for k, v in profile_mod.load("header-4").input_pins().items()}
    with running([sys.executable, "-m", "controller", "play", "quiz", "--profile", "header-4", "--headless",
                  "--no-roll-call", "--feed", str(fifo), "--journal", str(journal), "--viewer-socket", str(sock_path)],
                 ENV, ROOT, stdout=subprocess.PIPE) as (proc, err):
        err.wait_for(lambda x: x.startswith("deciding process "))
        sock = connect(sock_path)
        writer = os.open(fifo, os.O_WRONLY)
        try:
            def edge(station: int, name: str, level: int, t_us: int) -> None:
                os.write(writer, f"{pins[(station, name)]} {level} {t_us}\n".encode())

            until(sock, lambda m: isinstance(m, p.View))
            armed_at = box_now_us()
            edge(-1, "arm", 0, armed_at)
            edge(-1, "arm", 1, armed_at + 60_000)
            until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
            t0 = box_now_us()
            for station, level, t_us in ((0, 0, t0), (1, 0, t0 + 35), (0, 1, t0 + 50), (0, 0, t0 + 997)):
                edge(station, "bell", level, t_us)
            won = until(sock, lambda m: isinstance(m, p.View) and m.public.get("winner") is not None)
            assert won.public["winner"] == 0
            channel.send(sock, p.Stop("menu"))
            ended = until(sock, lambda m: isinstance(m, p.Ended))
            assert ended.decided_by == {"gpio": "watermarks"}
            assert ended.stalls == 0
        finally:
            os.close(writer)
            sock.close()
        assert proc.wait(DEADLINE_S) == 0
    assert not [x for x in err.lines if "stopped reporting" in x or "has not said how far" in x]


def test_the_deciding_process_writes_the_journal_the_screens_process_none(tmp_path: Path, monkeypatch) -> None:
    """``play`` as it starts by default: the game's journal, header first, is
    written by the deciding process alone; the screen's process (this one
    here) never creates one, yet the game is journaled to its end."""
    from controller.box.journal_writer import JournalWriter
    from controller.cli import main

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the screen's process wrote a journal")

    monkeypatch.setattr(JournalWriter, "create", refused)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    path = tmp_path / "r.jsonl"
    assert main(["play", "reaction", "--players", "2", "--headless", "--seconds", "0.5", "--journal", str(path)]) == 0
    records = [json.loads(x) for x in path.read_text().splitlines()]
    assert records[0]["type"] == "session" and records[0]["game"] == "reaction"
    assert records[-1]["type"] == "end"


def test_play_resume_leaves_the_journal_to_the_deciding_process(tmp_path: Path, monkeypatch) -> None:
    """``play --resume`` of a game cut off mid-game: the screen's process
    (this one) only reads the journal; the deciding process resumes it
    (its lock, its records) and closes it with its end."""
    from controller.box import journal as journal_mod
    from controller.cli import main

    path = tmp_path / "cut.jsonl"
    spec = get("reaction")
    box = session.new_box(spec, spec.settings(2, 3), None, path)  # the power went before its end
    assert box.journal is not None
    box.journal.close()

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the screen's process opened the journal to append")

    monkeypatch.setattr(journal_mod, "resume", refused)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    assert main(["play", "reaction", "--players", "2", "--headless", "--seconds", "0.5", "--resume", str(path)]) == 0
    records = [json.loads(x) for x in path.read_text().splitlines()]
    assert records[0]["type"] == "session" and records[-1]["type"] == "end"
