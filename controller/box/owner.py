"""What the deciding process owns for the session besides the game
(docs/processes.md): the players' names file, the packs folder and the
first start's choices (the language, the wiring). The menu asks
(``SaveNames``, ``UploadPack``, ``SaveSetup``) on a channel of requests of its
own; each is checked and written here and answered (``Answered``) on this
process's thread for them, so a pack being checked (most of a second)
never holds a decision or the game's channel."""

from __future__ import annotations

import base64
import binascii
import logging
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

from controller import channel
from controller import protocol as p
from controller.box import session
from controller.box.profile import Profile
from controller.pack_store import NO_PACKS_FOLDER, save_pack
from games.i18n import _

log = logging.getLogger("buzzerbox.owner")

#: more names than any box has stations: refused, not written
MAX_NAMES = 64


def answer(message: p.Message, profile: Profile | None, packs: Path | None) -> p.Answered:
    """One request checked, written, and what the host is to read of it."""
    if isinstance(message, p.SaveNames):
        if len(message.names) > MAX_NAMES:
            return p.Answered(False, (_("{n} names sent; a box has at most {most} players").format(
                n=len(message.names), most=MAX_NAMES),))
        problem = session.save_names(profile, message.names)
        return p.Answered(problem is None, () if problem is None else (problem,))
    if isinstance(message, p.SaveSetup):
        problem = session.save_setup(message.language, message.profile)
        return p.Answered(problem is None, () if problem is None else (problem,))
    if isinstance(message, p.UploadPack):
        if packs is None:
            return p.Answered(False, (_(NO_PACKS_FOLDER),))
        try:
            data = base64.b64decode(message.data, validate=True)
        except (binascii.Error, ValueError):
            return p.Answered(False, (_("{name}: the file came damaged; upload it again").format(
                name=message.name[:80]),))
        saved = save_pack(packs, message.name, data)
        if saved.path is not None:
            log.info("pack %s saved in %s", saved.path.name, packs)
        return p.Answered(saved.path is not None, saved.lines, None if saved.path is None else saved.path.name)
    log.warning("a %s message on the channel of requests: not a request, refused", message.TAG)
    return p.Answered(False)


def serve(sock: socket.socket, requests: Iterator[p.Message], profile: Profile | None,
          packs: Path | None) -> threading.Thread:
    """Answer the menu's ``requests`` (read off ``sock``) on ``sock``, in order, until it closes its end."""

    def run() -> None:
        with sock:
            for message in requests:
                try:
                    channel.send(sock, answer(message, profile, packs))
                except OSError:  # the menu went away meanwhile
                    return

    thread = threading.Thread(target=run, name="buzzerbox-requests", daemon=True)
    thread.start()
    return thread
