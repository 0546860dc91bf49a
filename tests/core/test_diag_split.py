"""``buzzerbox diag`` on a wiring profile reads the inputs through a deciding
process of its own (``python -m controller.box.process --diag``): the
command's process (the screen's, pygame) draws the rows it is sent and
opens no input, so it never holds a GPIO line or the board's port beside
the process that decides the games. Inputs that will not open there are
one line and a failure, never a traceback. Each wait ends on what the
processes say or draw; ``DEADLINE_S`` only bounds a failure."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
import pytest

from controller.box import profile as profile_mod
from controller.box.timeline import box_now_us
from controller.screen.diag import DiagScene
from tests.core.test_roll_call_split import DEADLINE_S, ENV
from tests.core.test_split import ROOT

#: what only a process that opens the inputs imports (the sources import them as they open the pins, the port)
INPUT_MODULES = ("gpiozero", "lgpio", "serial")
#: runs ``buzzerbox diag`` with the arguments it is given, then prints which of INPUT_MODULES it imported
DIAG_THEN_MODULES = f"""
import sys
from controller.cli import main
try:
    code = main(["diag", *sys.argv[1:]])
except SystemExit as exc:
    code = exc.code
print("imported:", " ".join(m for m in {INPUT_MODULES!r} if m in sys.modules) or "none")
sys.exit(code)
"""


@pytest.fixture
def screen_opens_no_input(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process is diag's screen: a source or a lamp it opened fails the test; mock pins, a dummy window."""
    from controller.box import session, sources

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("diag's own process opened an input or a lamp")

    monkeypatch.setattr(sources, "open_source", refused)
    monkeypatch.setattr(session, "open_inputs", refused)
    monkeypatch.setattr(session, "open_lights", refused)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("controller.screen.screen.has_display", lambda: True)  # a window: Esc leaves diag
    yield


def holders(path: Path) -> dict[int, int]:
    """The processes that have ``path`` open, and how many times each (their /proc fd links)."""
    out: dict[int, int] = {}
    real = os.path.realpath(path)
    for fds in Path("/proc").glob("[0-9]*/fd"):
        with contextlib.suppress(OSError):  # another user's process, or gone
            if n := sum(1 for fd in fds.iterdir() if link(fd) == real):
                out[int(fds.parent.name)] = n
    return out


def link(fd: Path) -> str | None:
    """What an open file descriptor points at (None: closed meanwhile, as the one listing its folder is)."""
    try:
        return os.readlink(fd)
    except OSError:
        return None


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_a_press_shows_in_diag_with_its_stamp_and_only_diags_deciding_process_opened_the_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        screen_opens_no_input: None) -> None:
    """header-4's GPIO pins, driven by a kernel-like feed: the FIFO is read by
    the deciding process diag started (its child), never by diag's own; a
    press on station 3's bell shows in diag's table, its row saying one press
    at the very µs it was stamped. Esc on the window then leaves, exit 0."""
    from controller.cli import main

    fifo = tmp_path / "edges"
    os.mkfifo(fifo)
    pin = {v: k for k, v in profile_mod.load("header-4").input_pins().items()}[(2, "bell")]
    stamped: list[int] = []
    readers: dict[int, int] = {}  # who had the feed open as it was written to, and how many times
    parents: dict[int, int] = {}
    shown: list[dict[str, Any]] = []
    drawing = threading.Event()  # the table is on screen: the deciding process watches the stations
    draw = DiagScene.draw

    def drawn(self: DiagScene, surface: Any, view: Any, strip: Any, now_us: int) -> None:
        draw(self, surface, view, strip, now_us)
        rows = [r for r in view["inputs"] if (r["station"], r["input"]) == (2, "bell")]
        if rows:
            drawing.set()
        if stamped and rows and rows[0]["last_press_us"] == stamped[0] and not shown:
            shown.append(dict(rows[0]))
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))

    monkeypatch.setattr(DiagScene, "draw", drawn)
    failed: list[BaseException] = []

    def station() -> None:
        try:
            writer = os.open(fifo, os.O_WRONLY)  # returns once the process that reads the inputs opened the feed
            try:
                readers.update(holders(fifo))
                parents.update({pid: parent_of(pid) for pid in readers})
                assert drawing.wait(DEADLINE_S)
                t = box_now_us()
                stamped.append(t)
                os.write(writer, f"{pin} 0 {t}\n{pin} 1 {t + 60_000}\n".encode())
            finally:
                os.close(writer)
        except BaseException as exc:  # noqa: BLE001 (said by the test)
            failed.append(exc)

    feeder = threading.Thread(target=station, daemon=True)
    feeder.start()
    code = main(["diag", "--profile", "header-4", "--feed", str(fifo), "--seconds", str(DEADLINE_S)])
    feeder.join(DEADLINE_S)
    assert not failed and code == 0
    assert "diag: header-4 via gpio" in capsys.readouterr().err  # the sources' line, as before
    assert shown, "the press never showed in diag's table"
    assert shown[0]["presses"] == 1 and shown[0]["last_press_us"] == stamped[0] and shown[0]["flag"] == ""
    assert readers.pop(os.getpid()) == 1  # this process holds the writer only
    assert readers and all(parents[pid] == os.getpid() for pid in readers)  # the reader: diag's deciding process


def diag_in_a_process(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """``buzzerbox diag ARGS`` in a process of its own, which then says what input modules it imported."""
    return subprocess.run([sys.executable, "-c", DIAG_THEN_MODULES, *args], env={**os.environ, **env}, cwd=ROOT,
                          capture_output=True, text=True, timeout=DEADLINE_S)


def test_diags_own_process_imports_no_input_source() -> None:
    """Run as a host runs it (headless, a short look): the source's line is
    said as before, and the command's process imported no pin or serial
    library: only its deciding process did, opening the pins."""
    done = diag_in_a_process("--profile", "header-4", "--headless", "--seconds", "0.2", env=ENV)
    assert done.returncode == 0, done.stderr
    assert "diag: header-4 via gpio" in done.stderr
    assert done.stdout.splitlines()[-1] == "imported: none"


def test_inputs_that_will_not_open_are_one_line_and_a_failure() -> None:
    """The deciding process cannot open header-4's pins (no GPIO here: a pin
    library that cannot load): diag says so in one line, names the fix,
    exits 1, shows no traceback, and its own process never tried the pins."""
    done = diag_in_a_process("--profile", "header-4", "--headless", "--seconds", "5",
                             env={**ENV, "GPIOZERO_PIN_FACTORY": "no-such-pins"})
    lines = [x for x in done.stderr.splitlines() if x.strip()]
    assert done.returncode == 1
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("buzzerbox diag: cannot open the gpio inputs of header-4")
    assert done.stdout.splitlines()[-1] == "imported: none"


def test_diags_deciding_process_killed_is_one_line_and_a_failure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        screen_opens_no_input: None) -> None:
    """The process reading the inputs dies (killed -9) while diag shows its
    table: diag says so in one line, with how it ended, and exits 1 (no
    traceback, no table frozen on rows nobody reads any more)."""
    import signal

    from controller.cli import CommandFailed, main
    from controller.screen import diag_link

    links: list[diag_link.DiagLink] = []
    start = diag_link.DiagLink.start

    def started(self: diag_link.DiagLink) -> str:
        links.append(self)
        return start(self)

    monkeypatch.setattr(diag_link.DiagLink, "start", started)
    draw = DiagScene.draw

    def drawn(self: DiagScene, surface: Any, view: Any, strip: Any, now_us: int) -> None:
        draw(self, surface, view, strip, now_us)
        process = links[0].process
        if view["inputs"] and process is not None and process.returncode is None:  # its table is on screen: killed
            os.kill(process.pid, signal.SIGKILL)
            process.wait()

    monkeypatch.setattr(DiagScene, "draw", drawn)
    with pytest.raises(CommandFailed) as failed:
        main(["diag", "--profile", "header-4", "--seconds", str(DEADLINE_S)])
    assert failed.value.code == 1
    err = [x for x in capsys.readouterr().err.splitlines() if x.startswith("buzzerbox diag: ")]
    assert err == ["buzzerbox diag: the deciding process reading the inputs stopped (it exited -9): start diag again"]


#: a deciding process stuck on a port that hangs: it never sends its first message (signals blocked: only a kill ends it)
NEVER_ANSWERS = [sys.executable, "-c", "import signal\nwhile True: signal.pause()"]
#: one whose inputs opened but that never exits when told to stop (its close stuck in the kernel)
NEVER_STOPS = [sys.executable, "-c", """
import signal, socket, sys
from controller import channel, protocol as p
channel.send(socket.socket(fileno=int(sys.argv[sys.argv.index("--fd") + 1])), p.Opened("a stuck port"))
while True: signal.pause()
"""]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Every process started meanwhile, to see how it ended."""
    out: list[subprocess.Popen[bytes]] = []

    class Recorded(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            out.append(self)

    monkeypatch.setattr(subprocess, "Popen", Recorded)
    return out


def test_a_deciding_process_that_never_opens_the_inputs_is_killed_with_one_line(
        started: list[subprocess.Popen[bytes]]) -> None:
    """A deciding process hung opening a stuck USB port would hang diag with no line: after the bound
    it is killed and diag fails with one line saying so. Before, diag waited for it for ever."""
    from controller.screen.deciding_start import NO_ANSWER
    from controller.screen.diag_link import DiagLink
    from games.base import BuzzerBoxError
    from games.i18n import _

    link = DiagLink("gpio", wait_s=0.2, program=NEVER_ANSWERS)
    with pytest.raises(BuzzerBoxError) as refused:
        link.start()
    assert str(refused.value) == _(NO_ANSWER).format(seconds=0.2)
    (process,) = started
    assert process.returncode == -9  # killed, not left behind


def test_a_deciding_process_that_never_exits_is_killed_with_one_line(
        started: list[subprocess.Popen[bytes]], caplog: pytest.LogCaptureFixture) -> None:
    """diag's stop waits for its deciding process to exit, at most the bound: one that never does is
    killed with one line. Before, diag's stop waited for ever."""
    import logging

    from controller.screen.deciding_start import NOT_STOPPED
    from controller.screen.diag_link import DiagLink
    from games.i18n import _

    link = DiagLink("gpio", wait_s=DEADLINE_S, program=NEVER_STOPS)  # its start: as long as its imports take
    assert link.start() == "a stuck port"
    link.wait_s = 0.2  # its stop: the bound under test (it never exits, however the scheduler treats it)
    with caplog.at_level(logging.WARNING, logger="buzzerbox.screen"):
        link.stop()
    (process,) = started
    assert process.returncode == -9
    assert [r.getMessage() for r in caplog.records] == [_(NOT_STOPPED).format(seconds=0.2)]
