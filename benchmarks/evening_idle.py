"""What the menu's evening deciding process costs while it waits between
games on keyboard stations (docs/processes.md): its CPU time and how often
its threads woke in ``SECONDS`` of idling, read from /proc (Linux). It
used to step an empty loop every 10 ms all evening; it now sleeps on the
channel until the menu says something. Then a SIGTERM ends it (exit 0).

    .venv/bin/python benchmarks/evening_idle.py [SECONDS]
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

from controller import channel

SECONDS = 5.0


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wakes(pid: int) -> int:
    """Voluntary context switches of all its threads: each is a sleep that ended."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status", encoding="ascii") as status:
            total += sum(int(line.split()[1]) for line in status if line.startswith("voluntary_ctxt_switches"))
    return total


def main() -> int:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else SECONDS
    mine, theirs = socket.socketpair()
    proc = subprocess.Popen([sys.executable, "-m", "controller.box.process", "--fd", str(theirs.fileno()), "--evening"],
                            pass_fds=[theirs.fileno()], stderr=subprocess.DEVNULL, start_new_session=True)
    theirs.close()
    try:
        print(f"first message: {channel.receive(mine)}")
        cpu0, woke0 = cpu_s(proc.pid), wakes(proc.pid)
        time.sleep(seconds)  # the measurement's length, not a synchronisation
        print(f"idle {seconds:.0f} s between keyboard games: cpu {cpu_s(proc.pid) - cpu0:.2f} s, "
              f"{wakes(proc.pid) - woke0} wake-ups")
        proc.send_signal(signal.SIGTERM)
        print(f"SIGTERM: exit {proc.wait(30)}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        mine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
