"""The one-process baseline that benchmarks/realtime.py plays beside the
shipped design (issue 46: the shipped design ahead of it in the same run):
``python -m benchmarks.one_process play`` takes ``play``'s options and
decides a fed game beside its frames, as ``play --one-process`` did before
it left the product (issue 47)."""

from __future__ import annotations

import errno
import os
import signal
import sys
import time
from pathlib import Path

from controller.apps import benchkit as bk
from controller.box import profile as profile_mod
from controller.box.session import box_of_record
from controller.box.timeline import box_now_us
from tests.processes import HANG_S, running

ROOT = Path(__file__).resolve().parents[2]
PROFILE = "header-4"
HOLD_US = 20_000  # a host key or a bell held this long: well past the glitch filter


def open_feed(fifo: Path) -> int:
    """The FIFO opened for writing once the box's feed thread has it open for reading."""
    give_up = time.monotonic() + HANG_S
    while True:
        try:
            return os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:
            assert exc.errno == errno.ENXIO and time.monotonic() < give_up, exc  # ENXIO: no reader yet
        time.sleep(0.005)  # polling for the reader, not pacing the test


def edge(fd: int, pin: int, level: int) -> None:
    """One edge, stamped as written (as the benchmark's feeder stamps)."""
    os.write(fd, f"{pin} {level} {box_now_us()}\n".encode("ascii"))


def hold(us: int) -> None:
    """A finger on a button: this long on the box's clock."""
    end = box_now_us() + us
    while box_now_us() < end:
        time.sleep(0.001)


def test_the_baseline_decides_a_fed_press_beside_its_frames_and_journals_it(tmp_path: Path) -> None:
    """The realtime benchmark's command line, the feeder's edges stamped as
    written: the third station's press wins, in the journal the baseline
    wrote, and a stop closes the game as any game is closed (exit 0)."""
    fifo, journal = tmp_path / "feed", tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    bells, host = bk.bell_and_host_pins(profile_mod.load(PROFILE))
    argv = [sys.executable, "-m", "benchmarks.one_process", "-v", "play", "quiz", "--profile", PROFILE, "--mute",
            "--no-roll-call", "--headless", "--lang", "en", "--journal", str(journal), "--feed", str(fifo),
            "--seconds", str(2 * HANG_S)]
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with running(argv, env, ROOT) as (proc, err):
        err.wait_for(lambda line: line.startswith("deciding process ") and "one process" in line)
        fd = open_feed(fifo)
        try:
            edge(fd, host["arm"], 0)
            hold(HOLD_US)
            edge(fd, host["arm"], 1)
            hold(HOLD_US)
            edge(fd, bells[2], 0)  # the third station's bell, held until the box says who was first
            err.wait_for(lambda line: "was first" in line)
            edge(fd, bells[2], 1)
        finally:
            os.close(fd)
        proc.send_signal(signal.SIGTERM)  # the host stops the game: closed as any game is, exit 0
        assert proc.wait(HANG_S) == 0, "\n".join(err.lines)
    winners = [e for e in box_of_record(journal).event_log if e.kind == "winner"]
    assert [e.player for e in winners] == [2], winners
