"""A screen its deciding process started again (the last one died) is only a view of the game:
a stop ends it. It is started with the stopping signals blocked (``blocked_for_child``, for
children that install handlers); one that installs none kept them blocked for good, and a
``kill`` or systemd stopping the kiosk did nothing to it."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys

from controller.system import signals
from tests.core.test_split import ENV, ROOT


def test_a_screen_started_again_ends_on_sigterm() -> None:
    mine, theirs = socket.socketpair()
    screen: subprocess.Popen[bytes] | None = None
    try:
        with signals.blocked_for_child():  # as ``DecidingProcess.start_screen`` starts it
            screen = subprocess.Popen(
                [sys.executable, "-m", "controller.screen.viewer", "--fd", str(theirs.fileno()), "--game", "quiz",
                 "--register", "quiz=games.quiz", "--headless"],
                pass_fds=[theirs.fileno()], cwd=ROOT, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        theirs.close()
        screen.send_signal(signal.SIGTERM)  # at once or once it waits for its first view: the same end
        try:
            code = screen.wait(timeout=60)  # (a hang's bound: blocked, it waited for that view for ever)
        except subprocess.TimeoutExpired:
            screen.kill()
            screen.wait()
            raise AssertionError("SIGTERM did nothing to a screen started again: its signals stayed blocked") from None
        assert code == -signal.SIGTERM
    finally:
        mine.close()
        if screen is not None and screen.stderr is not None:
            screen.stderr.close()
