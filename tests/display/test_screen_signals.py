"""Ctrl+C while the window is being made is not lost: pygame loads the
window's icon through Python inside ``set_mode`` and drops whatever that
raised, so a KeyboardInterrupt raised there used to vanish and the game ran
on until it was killed (found sending Ctrl+C to the windowed demo at random
moments)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.processes import HANG_S

ROOT = Path(__file__).resolve().parents[2]

# a fresh process: pygame loads the icon once per process, at its first window
PROBE = """
import os, signal
import pygame.pkgdata
from controller.system import signals
from controller.screen.screen import Screen

load = pygame.pkgdata.getResource
def ctrl_c_while_loading(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)  # Ctrl+C lands while pygame loads the icon
    return load(*args, **kwargs)
pygame.pkgdata.getResource = ctrl_c_while_loading
signals.install()
try:
    Screen.open(headless=True)
except KeyboardInterrupt:
    print("stopped: the window was made, then Ctrl+C acted on")
else:
    print("ran on: Ctrl+C was lost")
"""


def test_ctrl_c_while_the_window_is_made_stops_the_game() -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=HANG_S)
    assert done.stdout.strip() == "stopped: the window was made, then Ctrl+C acted on", done.stdout + done.stderr
