"""The deciding process dying again and again (kill -9), early and late, in
``play`` as it runs by default: each one is started again and resumes from
the journal, and the HDMI screen says "restarting: every press is kept"
from the death until the game is back. ``play`` runs in this process (its
screen on SDL's dummy driver); the test kills its children and watches
through the viewer socket. Every wait is for what the processes send,
never for time; a deadline only bounds a failure."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from controller import channel
from controller import protocol as p
from controller.box.press import Edge
from controller.screen import viewer
from controller.screen.deciding_start import spawn_deciding
from controller.screen.loop import Presenter
from games.i18n import _
from tests.core.test_split import DEADLINE_S, arm_and_win, has_winner, until, wait_gone
from tests.processes import beside, connect_when_listening


@pytest.fixture(autouse=True)
def dummy_screen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield


def play(journal: Path, views_at: Path, *options: str) -> int | str | None:
    """``buzzerbox play`` of a quiz run in this process as the box runs it, on
    ``journal``, followed on ``views_at``: its exit status (returned, or exited with)."""
    from controller.cli import main

    try:
        return main(["play", *options, "quiz", "--players", "2", "--headless", "--seconds", str(DEADLINE_S * 4),
                     "--journal", str(journal), "--viewer-socket", str(views_at)])
    except SystemExit as exc:
        return exc.code


def records(journal: Path) -> list[dict[str, Any]]:
    """The journal's whole records (a killed writer's torn last line left out)."""
    return [json.loads(x) for x in journal.read_text().splitlines() if x.endswith("}")]


class Started(list[subprocess.Popen[bytes]]):
    """The deciding processes ``play`` started, in order, as its thread appends them. The host's
    thread may see one (listening, showing the game) before that thread, descheduled after the
    start on a loaded runner, appended it: ``nth`` waits for the append."""

    def __init__(self) -> None:
        super().__init__()
        self._appended = threading.Condition()

    def append(self, process: subprocess.Popen[bytes]) -> None:
        with self._appended:
            super().append(process)
            self._appended.notify_all()

    def nth(self, n: int) -> subprocess.Popen[bytes]:
        """The ``n``-th started (from 0), once ``play`` has appended it."""
        with self._appended:
            assert self._appended.wait_for(lambda: len(self) > n, DEADLINE_S), f"no deciding process #{n} started"
            return self[n]


def kill(started: list[subprocess.Popen[bytes]]) -> Callable[[], None]:
    """What a failing host does: every deciding process killed, so that ``play`` ends too."""
    def killed() -> None:
        for process in started:
            process.kill()

    return killed


#: a start of a deciding process: it, and the screen's end of its channel
Start = Callable[[], tuple[subprocess.Popen[bytes], socket.socket]]
#: what a test starts in place of one deciding process, given the real start (which it may make itself)
StandIn = Callable[[Start], tuple[subprocess.Popen[bytes], socket.socket]]

#: a deciding process as it is before its first import: given its channel, it does nothing yet
NEVER_STARTS = [sys.executable, "-c", "import time; time.sleep(3600)"]
#: a deciding process that breaks as it starts, saying no reason: an unhandled MemoryError (exit 1)
BREAKS = [sys.executable, "-c", "raise MemoryError"]


def dies_early(_real: Start) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """One killed (-9) as it starts, before it could show anything: a process that never gets as
    far as reading the journal, given the channel, and killed at once. (A real deciding process
    killed right after its start got as far as listening on a loaded runner: it is lifted to
    real-time priority at once, and ran its imports while this thread waited for a core.)"""
    process, sock = spawn_deciding([], program=NEVER_STARTS)
    os.kill(process.pid, signal.SIGKILL)
    return process, sock


def breaks(_real: Start) -> tuple[subprocess.Popen[bytes], socket.socket]:
    """One that breaks as it starts (exit 1, no reason said), its channel closed."""
    mine, theirs = socket.socketpair()
    theirs.close()
    return subprocess.Popen(BREAKS, stderr=subprocess.DEVNULL, start_new_session=True), mine


def record_starts(monkeypatch: pytest.MonkeyPatch, then: Callable[[subprocess.Popen[bytes]], None] = lambda _process: None,
                  stand_ins: Mapping[int, StandIn] = MappingProxyType({})) -> Started:
    """The deciding processes ``play`` starts, each appended as it starts and ``then`` told of it;
    the ``n``-th (from 0) is ``stand_ins[n]``'s where it has one, else the real one."""
    started = Started()
    start_decider = viewer.start_decider

    def starting(game: viewer.SplitGame, resume: bool) -> tuple[subprocess.Popen[bytes], socket.socket]:
        process, sock = stand_ins.get(len(started), lambda real: real())(partial(start_decider, game, resume))
        started.append(process)
        then(process)
        return process, sock

    monkeypatch.setattr(viewer, "start_decider", starting)
    return started


def after_each_frame(monkeypatch: pytest.MonkeyPatch, then: Callable[[Presenter, p.View], None]) -> None:
    """Each frame the screen draws, then ``then`` told of it."""
    draw = Presenter.draw_view

    def drawn(self: Presenter, shown: p.View, spec: Any, now_us: int, surface: Any = None, frozen: bool = False) -> None:
        draw(self, shown, spec, now_us, surface, frozen)
        then(self, shown)

    monkeypatch.setattr(Presenter, "draw_view", drawn)


def won_then_killed(views_at: Path, journal: Path, started: Started, gone: bool) -> None:
    """Through the viewer socket, the game armed and won; then the first deciding process
    killed (-9) mid-game, the winner lit (``gone``: and waited for until it is gone, so that
    its socket takes no connect more)."""
    sock = connect_when_listening(str(views_at), DEADLINE_S)
    try:
        arm_and_win(sock, journal)
        first = started.nth(0)
        os.kill(first.pid, signal.SIGKILL)
        if gone:
            wait_gone([first.pid])
    finally:
        sock.close()


def card_full_then_won(sock: socket.socket, journal: Path, decider: int) -> None:
    """Through the viewer socket, once the game shows: the card filled (the deciding
    process ``decider`` may not grow any file past the journal's size), the game armed
    and won; back once a view says the journal's trouble and the winner."""
    import resource

    from tests.core.test_split import press

    until(sock, lambda m: isinstance(m, p.View))
    size = journal.stat().st_size
    resource.prlimit(decider, resource.RLIMIT_FSIZE, (size, size))  # the card is full
    channel.send(sock, p.HostKey("arm", 0))
    until(sock, lambda m: isinstance(m, p.View) and m.public.get("phase") == "armed")
    press(sock, 1)
    until(sock, lambda m: isinstance(m, p.View) and m.journal is not None and has_winner(m))


def frame_line(presenter: Presenter, shown: p.View) -> str | None:
    """The line a frame shows: the results' once the game is finished, else the scene's."""
    return (presenter.results if shown.finished else presenter.scene).message


def test_three_deaths_in_a_row_early_and_late_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The first deciding process is killed mid-game (late), the next two as
    they start, before they could show anything (early), the fourth after
    it showed the game (late again); the fifth carries on and the host stops
    the game: exit 0, the winner kept, one ``end``."""
    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"
    seen: list[tuple[str, Any]] = []  # what the screen did, in order: ("start", n), ("view", v), ("frame", message)
    update = viewer.DecidingLink.update

    def viewed(self: viewer.DecidingLink, view: p.View) -> None:
        update(self, view)
        seen.append(("view", view.version))

    # the second and third die early
    started = record_starts(monkeypatch, lambda _process: seen.append(("start", len(started))),
                            stand_ins={1: dies_early, 2: dies_early})
    monkeypatch.setattr(viewer.DecidingLink, "update", viewed)
    after_each_frame(monkeypatch, lambda presenter, shown: seen.append(("frame", frame_line(presenter, shown))))

    def host() -> None:
        won_then_killed(views_at, journal, started, gone=True)  # late: mid-game, the winner lit
        for late in (True, False):  # the fourth is killed once it showed the game; the fifth plays on
            sock = connect_when_listening(str(views_at), DEADLINE_S)  # the next one that listens
            try:
                resumed = until(sock, lambda m: isinstance(m, p.View))
                assert has_winner(resumed), resumed  # the game came back from the journal
                if late:
                    fourth = started.nth(3)
                    assert len(started) == 4  # the second and third showed nothing
                    os.kill(fourth.pid, signal.SIGKILL)
                    wait_gone([fourth.pid])
                    continue
                channel.send(sock, p.Stop("menu"))
                until(sock, lambda m: isinstance(m, p.Ended))
            finally:
                sock.close()

    with beside(host, kill(started)):
        code = play(journal, views_at, "--json")
    out, err = capsys.readouterr()
    assert code == 0 and json.loads(out)["winner"] == 1, err
    assert len(started) == 5 and [p.returncode for p in started] == [-9] * 4 + [0]
    assert err.count(_(viewer.DECIDER_GONE)) == 4, err  # each death said in one line
    assert "stopped before the game began" not in err
    written = records(journal)
    assert [r["type"] for r in written].count("end") == 1 and written[-1]["type"] == "end"
    assert sum(r["type"] == "press" for r in written) == 1  # the one press, kept once

    # the screen: from each death until the next one's first view, every frame says it is restarting
    restarting = _(viewer.RESTARTING)
    starts = [i for i, (what, _n) in enumerate(seen) if what == "start"]
    for before, at in zip(starts, starts[1:], strict=False):
        frames_before = [m for what, m in seen[before:at] if what == "frame"]
        assert frames_before and frames_before[-1] == restarting  # said at once, before the next one starts
    for at in starts[1:]:
        back = next(i for i in range(at, len(seen)) if seen[i][0] == "view")  # the game shown again
        between = [m for what, m in seen[at:back] if what == "frame"]
        assert all(m == restarting for m in between), between
    last_view = max(i for i, (what, _n) in enumerate(seen) if what == "view")
    assert all(m != restarting for what, m in seen[last_view:] if what == "frame")  # the game is back: said no more


def test_a_press_while_no_deciding_process_listens_goes_to_the_next_one() -> None:
    """The screen's keyboard stations while the deciding process starts again:
    their presses are kept and the next one gets them first."""
    from games.registry import get

    spec = get("quiz")
    view = viewer.DecidingLink(spec, spec.settings(2))
    dead, _peer = socket.socketpair()
    dead.close()
    view.sock = dead
    pressed = Edge(1, "bell", 0, 123)
    view.edge(pressed, 1)  # the old channel is closed: kept
    view.send(p.HostKey("arm", 0))  # a host key is not replayed later
    mine, theirs = socket.socketpair()
    try:
        view.connect(mine)
        theirs.settimeout(DEADLINE_S)
        first = channel.receive(theirs)
        assert first is not None and isinstance(first, p.EdgeInput) and first.edge == pressed
        view.send(p.Stop("menu"))
        assert channel.receive(theirs) == p.Stop("menu")
    finally:
        mine.close()
        theirs.close()
        _peer.close()


def test_a_stop_with_records_the_card_refused_exits_1_and_says_how_many(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The card fills mid-game (the deciding process may not grow any file past
    the journal's size) and is still full at the stop: ``play`` exits 1 with
    one line that says how many records the disk refused and where they
    wait, the screen says the same line, the ``ended`` message carries the
    count, and ``journal check`` names the gap."""
    from controller.box.journal_writer import unsaved_line
    from controller.cli import main

    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"
    started = record_starts(monkeypatch)
    messages: list[str | None] = []
    after_each_frame(monkeypatch, lambda presenter, shown: messages.append(frame_line(presenter, shown)))
    seen: dict[str, Any] = {}

    def host() -> None:
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            card_full_then_won(sock, journal, started.nth(0).pid)
        finally:
            channel.send(sock, p.Stop("menu"))
            seen["ended"] = until(sock, lambda m: isinstance(m, p.Ended))
            sock.close()

    with beside(host, kill(started)):
        code = play(journal, views_at)
    ended = seen["ended"]
    unsaved = ended.unsaved
    assert unsaved >= 3 and ended.unsaved_path == str(journal) + ".unsaved"  # the arming, the press, the end ...
    err = capsys.readouterr().err
    line = f"buzzerbox play: {journal}: {unsaved_line(unsaved, ended.unsaved_path)}\n"
    assert code == 1 and line in err and "Traceback" not in err, err
    assert messages[-1] == unsaved_line(unsaved, journal.name + ".unsaved")  # the screen's last frame says it
    assert main(["journal", "check", str(journal)]) == 1
    said = capsys.readouterr()
    assert said.out.startswith(f"INCOMPLETE {journal}") or f"INCOMPLETE {journal}" in said.err, said
    assert f"the disk refused the last {unsaved} records" in said.err, said.err


@pytest.mark.parametrize("language", ["en", "cs"])
def test_a_sigterm_with_records_the_card_refused_exits_1_and_says_how_many_in_the_boxs_language(
        tmp_path: Path, language: str) -> None:
    """``buzzerbox play`` as the box runs it, the card filled mid-game (its
    deciding process may not grow any file past the journal's size), then
    stopped by SIGTERM (systemd's stop, not the host's key): it exits 1
    with the one line, in the box's language, that says how many records
    the disk refused and where they wait; no traceback."""
    import re
    import sys

    from controller.box.journal_writer import unsaved_line
    from controller.box.process import READY_LINE
    from games.i18n import current_language, set_language
    from tests.core.test_split import ENV, ROOT
    from tests.processes import running

    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"
    was = current_language()
    set_language(language)
    try:
        ready = _(READY_LINE).split("{pid}")[0]
        said = [f"buzzerbox play: {journal}: {unsaved_line(n, f'{journal}.unsaved')}" for n in range(1, 100)]
    finally:
        set_language(was)
    with running([sys.executable, "-m", "controller", "--lang", language, "play", "quiz", "--players", "2",
                  "--headless", "--seconds", str(DEADLINE_S * 4), "--journal", str(journal),
                  "--viewer-socket", str(views_at)], ENV, ROOT) as (proc, err):
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            _i, line = err.wait_for(lambda x: x.startswith(ready))
            decider = int(re.findall(r"\d+", line.removeprefix(ready))[0])
            card_full_then_won(sock, journal, decider)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(DEADLINE_S) == 1, "\n".join(err.lines)
        finally:
            sock.close()
    lines = "\n".join(err.lines)
    assert len([x for x in err.lines if x in said]) == 1 and "Traceback" not in lines, lines
    assert (tmp_path / "q.jsonl.unsaved").exists()


def test_a_sigterm_whose_close_outlasts_the_wait_for_its_ended_still_exits_1_with_the_unsaved_count(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The card fills mid-game, then a SIGTERM: the deciding process's close
    retries the refused records for a grace before it gives up on them, and on
    a loaded box that close outlasts the screen's wait for its ``Ended``
    (``ENDED_WAIT_S``): here the first wait is over before it came. ``play``
    waits for the process's exit all the same, and the ``Ended`` came before
    it: read then, it still exits 1 with the one line saying how many records
    the disk refused (it exited 0 without a word: seen on a loaded runner)."""
    from controller.box.journal_writer import unsaved_line
    from controller.system import signals

    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"
    started = record_starts(monkeypatch)
    # the SIGTERM stays this process's 'received' after play: forgotten after the test
    monkeypatch.setattr(signals._state, "received", signals._state.received)
    monkeypatch.setattr(signals._state, "raised", signals._state.raised)
    ended = viewer.DecidingLink.ended
    waits: list[bool] = []  # per wait for the Ended: whether the deciding process was still running at it

    def first_over_too_soon(self: viewer.DecidingLink, timeout_s: float = viewer.ENDED_WAIT_S) -> p.Ended | None:
        """The first wait ends before the ``Ended`` came (what a close slower than ``ENDED_WAIT_S`` does)."""
        waits.append(started.nth(0).poll() is None)
        return None if len(waits) == 1 else ended(self, timeout_s)

    monkeypatch.setattr(viewer.DecidingLink, "ended", first_over_too_soon)

    def host() -> None:
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            card_full_then_won(sock, journal, started.nth(0).pid)
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None), "play's handlers not installed"
            os.kill(os.getpid(), signal.SIGTERM)  # systemd's stop, to play alone
        finally:
            sock.close()

    with beside(host, kill(started)):
        code = play(journal, views_at)
    err = capsys.readouterr().err
    kept = tmp_path / "q.jsonl.unsaved"
    said = [x for x in err.splitlines() if x.startswith(f"buzzerbox play: {journal}: ")]
    assert code == 1 and len(said) == 1 and "Traceback" not in err, err
    unsaved = len(kept.read_text().splitlines())
    assert unsaved >= 2 and said[0].endswith(unsaved_line(unsaved, kept)), err  # the press, the end ...
    assert waits[0] and len(waits) == 2, waits  # the first wait was over while it still closed the game


def test_the_end_read_as_the_reader_stops_is_not_left_in_its_queue(monkeypatch: pytest.MonkeyPatch) -> None:
    """The wait for the deciding process's ``Ended`` finds the reader's queue
    empty; just then the reader puts the ``Ended`` in and stops (its last
    word), and the channel closes (the process exited): the wait takes the
    ``Ended`` from that queue, not a closed channel from a new reader."""
    from games.registry import get

    spec = get("quiz")
    link = viewer.DecidingLink(spec, spec.settings(2))
    mine, theirs = socket.socketpair()
    link.connect(mine)
    link.listen()
    reading = link.reading
    assert reading is not None
    take = viewer.taken
    came: list[bool] = []

    def then_it_comes(inbox: viewer.Inbox, timeout_s: float | None = None) -> Any:
        """Its first look finds nothing; the end comes, and the reader stops, before the next look."""
        message = take(inbox, timeout_s)
        if message is viewer.NOTHING and not came:
            came.append(True)
            channel.send(theirs, p.Ended(p.EndReason.STOPPED, unsaved=3))
            theirs.close()  # the process exited
            reading.join(DEADLINE_S)
            assert not reading.is_alive(), "the reader did not stop at the end"
        return message

    monkeypatch.setattr(viewer, "taken", then_it_comes)
    try:
        ended = link.ended(DEADLINE_S)
    finally:
        mine.close()
    assert came and ended is not None and ended.unsaved == 3, ended


@pytest.mark.parametrize("then", ["takes", "refuses"])
def test_one_started_again_that_breaks_before_it_shows_the_game_is_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture, then: str) -> None:
    """The first deciding process is killed mid-game; the next two break as
    they start (exit 1, no reason said): they are tried again, said once,
    and the fourth takes the game over (the host stops it: exit 0, the
    winner kept) or refuses it for a reason it says (the journal is locked
    by another process): that is one line and exit 1, with no more tries."""
    import fcntl

    monkeypatch.setattr(viewer, "RESTART_WAIT_S", 0.0)
    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"
    locks: list[int] = []

    def locked_first(real: Start) -> tuple[subprocess.Popen[bytes], socket.socket]:
        """Another process writes the journal now; then the real one."""
        locks.append(os.open(journal, os.O_RDONLY))
        fcntl.flock(locks[0], fcntl.LOCK_EX | fcntl.LOCK_NB)
        return real()

    started = record_starts(monkeypatch, stand_ins={1: breaks, 2: breaks} | ({3: locked_first} if then == "refuses" else {}))

    def host() -> None:
        won_then_killed(views_at, journal, started, gone=True)
        if then == "refuses":
            return
        sock = connect_when_listening(str(views_at), DEADLINE_S)
        try:
            assert has_winner(until(sock, lambda m: isinstance(m, p.View)))  # back from the journal
            channel.send(sock, p.Stop("menu"))
            until(sock, lambda m: isinstance(m, p.Ended))
        finally:
            sock.close()

    try:
        with beside(host, kill(started)):
            code = play(journal, views_at, "--json")
    finally:
        for fd in locks:
            os.close(fd)
    out, err = capsys.readouterr()
    assert len(started) == 4 and [p.returncode for p in started[:3]] == [-9, 1, 1], err
    assert err.count(_(viewer.DECIDER_GONE)) == 2, err  # the kill, then the first that broke: said once
    assert len([r for r in caplog.records if "before it showed the game" in r.getMessage()]) == 1
    assert "could not take the game over again" not in err and "Traceback" not in err, err
    written = records(journal)
    if then == "takes":
        assert code == 0 and json.loads(out)["winner"] == 1, err
        assert [r["type"] for r in written].count("end") == 1
        return
    assert code == 1 and started[3].returncode == 1, err
    assert err.count(f"{journal} is being written by another buzzerbox (pid {os.getpid()})") == 1, err
    assert "end" not in [r["type"] for r in written]  # kept for --resume


def test_killed_again_and_again_the_game_stops_with_its_journal_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The OOM killer's way: every deciding process started again is killed
    at once (-9). Each next start waits longer than the last (a back-off),
    and the fifth death stops the game: one line, exit 1, the journal left
    open for ``--resume`` (no ``end``), the press in it."""
    monkeypatch.setattr(viewer, "DEATHS_WINDOW_S", 1e9)  # every death within the window, however slow the run
    waits: list[float] = []
    monkeypatch.setattr(viewer, "backing_off", waits.append)  # what it would wait, without waiting
    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"

    def at_once(process: subprocess.Popen[bytes]) -> None:
        if len(started) > 1:
            os.kill(process.pid, signal.SIGKILL)
        assert len(started) <= viewer.DEATHS_LIMIT, "started again for ever"

    started = record_starts(monkeypatch, at_once)

    with beside(lambda: won_then_killed(views_at, journal, started, gone=False), kill(started)):
        code = play(journal, views_at)
    err = capsys.readouterr().err
    line = _(viewer.DIED_TOO_OFTEN).format(count=viewer.DEATHS_LIMIT, seconds=round(1e9), how="SIGKILL")
    assert code == 1 and f"buzzerbox play: {line}\n" in err and "Traceback" not in err, err
    assert len(started) == viewer.DEATHS_LIMIT and all(p.returncode == -9 for p in started)
    assert err.count(_(viewer.DECIDER_GONE)) == viewer.DEATHS_LIMIT - 1, err
    assert waits == [0.0, 0.5, 1.0, 2.0]  # none after the first death, then longer each time
    written = records(journal)
    assert "end" not in [r["type"] for r in written] and sum(r["type"] == "press" for r in written) == 1


def test_deaths_spread_out_never_stop_the_game_and_the_wait_has_a_ceiling(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deaths further apart than the window never add up to the limit (a long
    evening may lose its deciding process now and then); close together they
    do, each wait longer, up to a ceiling."""
    now = [0.0]
    restarts = viewer.Restarts(lambda: now[0])
    for _i in range(50):
        now[0] += viewer.DEATHS_WINDOW_S / (viewer.DEATHS_LIMIT - 2)
        restarts.died(views=1, code=-9)
        assert not restarts.too_many()
    restarts = viewer.Restarts(lambda: now[0])
    waits = []
    while not restarts.too_many():
        now[0] += 0.01
        restarts.died(views=1, code=-9)
        waits.append(restarts.wait_s())
    assert len(waits) == viewer.DEATHS_LIMIT and waits == sorted(waits) and waits[0] == 0 < waits[1]
    monkeypatch.setattr(viewer, "DEATHS_LIMIT", 100)  # a limit past the ceiling: the waits stop growing
    for _i in range(20):
        restarts.died(views=1, code=-9)
    assert restarts.wait_s() == viewer.RESTART_WAIT_MAX_S


def test_deaths_before_the_first_view_far_apart_are_not_restarted_for_ever() -> None:
    """The OOM killer ends each deciding process started again while it replays a long evening's
    journal (SIGKILL, no view yet). A resume takes ~30 s on the Pi, so 5 deaths never fall within
    the window: the game still stops once that many in a row died before showing it."""
    now = [0.0]
    restarts = viewer.Restarts(clock=lambda: now[0])
    for _death in range(viewer.DEATHS_LIMIT):
        assert not restarts.too_many()
        now[0] += restarts.wait_s() + 30.0  # the back-off, then 30 s of replay until the kill
        restarts.died(views=0, code=-9)
    assert restarts.too_many(), "died before any view again and again, and it is still started again"
    count, seconds = restarts.counted()
    assert count == viewer.DEATHS_LIMIT and viewer.DEATHS_WINDOW_S < seconds <= now[0]
    restarts.died(views=3, code=-9)  # one that showed the game: the run in a row is broken
    assert len(restarts.unseen) == 0


def test_a_sigterm_as_the_screen_says_it_restarts_still_closes_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The deciding process dies mid-game; a SIGTERM arrives while the screen
    draws "restarting" (between the death and the next start): the next one
    is started and closes the game (the journal's ``end``, the press kept),
    not left open with the command gone."""
    journal, views_at = tmp_path / "q.jsonl", tmp_path / "views.sock"
    sent: list[bool] = []

    def stop_while_restarting(presenter: Presenter, _shown: p.View) -> None:
        if presenter.standing == _(viewer.RESTARTING) and not sent:
            assert signal.getsignal(signal.SIGTERM) not in (signal.SIG_DFL, None), "play's handlers not installed"
            sent.append(True)
            os.kill(os.getpid(), signal.SIGTERM)  # the stop, as the screen says it restarts

    started = record_starts(monkeypatch)
    after_each_frame(monkeypatch, stop_while_restarting)

    try:
        with beside(lambda: won_then_killed(views_at, journal, started, gone=False), kill(started)):
            play(journal, views_at)  # its status is the command line's (tests/cli); the journal is this test's
    finally:
        for process in started:
            if process.poll() is None:
                process.kill()
                process.wait()
    err = capsys.readouterr().err
    assert sent and len(started) == 2 and "stopped (Ctrl+C or SIGTERM)" in err, err
    written = records(journal)
    assert [r["type"] for r in written].count("end") == 1 and written[-1]["type"] == "end", err
    assert sum(r["type"] == "press" for r in written) == 1
