"""``process.play`` driven as ``play``'s screen drives it, over a socketpair: shown,
stopped by the host's Esc, read until its ``Ended``. The deciding side's end is shut
as the process's exit would close it, so a close without its ``Ended`` fails at once
instead of hanging."""

from __future__ import annotations

import argparse
import contextlib
import socket
import threading
from typing import Any

from controller import channel
from controller import protocol as p
from controller.box import process


def stopped_by_the_host(args: argparse.Namespace, inputs: process.Inputs, taking: process.Taking, link: process.Link,
                        mine: socket.socket, theirs: socket.socket) -> tuple[list[Any], p.Ended]:
    """What ``process.play`` returned (in a list: empty if it raised) and the ``Ended`` it sent,
    after the game was shown and the host stopped it; both sockets closed afterwards."""
    out: list[Any] = []

    def decide() -> None:
        try:
            out.append(process.play(args, link, inputs, taking, "normal priority"))
        finally:
            inputs.close()
            link.close()
            with contextlib.suppress(OSError):  # as the process's exit closes it
                theirs.shutdown(socket.SHUT_RDWR)

    thread = threading.Thread(target=decide, daemon=True)
    thread.start()
    try:
        while not isinstance(channel.receive(mine), p.View):  # the game is taken over and shown
            pass
        channel.send(mine, p.Stop("menu"))  # the host's Esc
        while not isinstance(message := channel.receive(mine), p.Ended):
            assert message is not None, "the deciding side closed without its Ended"
        thread.join()
    finally:
        mine.close()
        theirs.close()
    return out, message
