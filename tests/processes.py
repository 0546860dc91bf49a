"""Child processes in tests: wait for the line that says a child is ready
(never for a timer), then act on it."""

from __future__ import annotations

import os
import select
import socket
import subprocess
import time

#: how long any wait in the tests may last before it is called a hang: far beyond
#: any step on the busiest machine (CI: 2 cores, a CPU hog on each, Chromium and
#: the box's processes beside), never a measure of speed. Every wait ends as soon
#: as what it waits for comes, so a generous bound costs a passing test nothing.
HANG_S = 180.0


def wait_for_line(proc: subprocess.Popen[str], text: str, stream: str = "stderr", give_up_s: float = HANG_S) -> str:
    """Read ``proc``'s ``stream`` until a line containing ``text`` came; return
    everything read so far. Fails (naming what it read) if the child ends
    first, or if it has not said it within ``give_up_s`` (a hung child, not a
    slow one: far beyond any start-up)."""
    fd = getattr(proc, stream).fileno()
    seen = b""
    give_up = time.monotonic() + give_up_s
    try:
        while text.encode() not in seen or b"\n" not in seen[seen.index(text.encode()):]:  # the whole line
            left = give_up - time.monotonic()
            assert left > 0, f"the child never said {text!r}; it said: {seen.decode(errors='replace')}"
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            assert chunk, f"the child ended (status {proc.poll()}) before saying {text!r}: {seen.decode(errors='replace')}"
            seen += chunk
    except BaseException:
        finish(proc, timeout=0)
        raise
    return seen.decode(errors="replace")


def finish(proc: subprocess.Popen[str], timeout: float = HANG_S) -> tuple[str, str]:
    """The rest of the child's output once it ends; killed (and waited for) if it does not."""
    try:
        return proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        return "", ""
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def connect_when_listening(path: str, give_up_s: float = HANG_S) -> socket.socket:
    """A Unix stream socket connected to ``path`` as soon as a server listens
    there: a child's ready line may come before it binds, and a killed one
    leaves its socket file behind (refused until the new one listens). Fails
    only if nothing listens within ``give_up_s`` (a hung child)."""
    give_up = time.monotonic() + give_up_s
    while True:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(path)
            return sock
        except (FileNotFoundError, ConnectionRefusedError) as exc:
            sock.close()
            assert time.monotonic() < give_up, f"nothing listens on {path}: {exc}"
        time.sleep(0.005)  # polling for the listener, not pacing the test
