"""Serving the companion pages: the server, and its overlay on the game's
scenes (the address, the host PIN, the seats' QR codes, "paused").

A server in the screen's own process: the menu keeps one for its
simulated players' games (``MenuCompanion``): each re-binds it. Games with
people have theirs in a process of its own (``web.process``: ``play
--web``'s, the menu's evening's), and the screen draws its panel from the
views (``overlay.panel_overlay``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller.box.runtime import Box
from controller.box.views import Publisher
from controller.web.overlay import CompanionOverlay
from controller.web.seats import Seats
from controller.web.server import CompanionServer, ServedGame, Upload, end_by_escape
from games.i18n import _
from games.toolkit.scene import Scene


def show_on(server: CompanionServer, scenes: Sequence[Scene]) -> CompanionOverlay:
    """The server's panel over ``scenes`` (the game's and its results): it
    reads the server's box as it is now, so renames and pauses show at once."""
    uses_seats = server.publisher.latest.uses_seats
    overlay = CompanionOverlay(lambda: server.base_url, lambda: server.seats.pin,
                               server.join_url if uses_seats else None,
                               server.held, lambda: server.box.station_names, lambda: server.box.host_paused,
                               server.pin_wanted, lambda: server.publisher.latest.phones_wanted)
    for scene in scenes:
        scene.overlays.append(overlay)
        scene.asides.append(overlay.aside)
    if scenes:  # the game's scene words the strip: the pages say what the screen says
        with server.box.lock:
            server.publisher.scene = scenes[0]
            server.publisher.publish()
    return overlay


def serve(box: ServedGame, scenes: Sequence[Scene], port: int, *, bind: str = "0.0.0.0",
          address: str | None = None, on_rename: Callable[[int, str], None] | None = None,
          on_option: Callable[[str, Any], bool] | None = None,
          next_game: Callable[[], Mapping[str, Any]] | None = None,
          publisher: Publisher | None = None, end_game: Callable[[], None] = end_by_escape,
          secrets: Mapping[str, Any] | None = None, upload: Upload | None = None) -> CompanionServer:
    """Start the server for ``box`` and show where to find it on ``scenes``
    (``secrets``: a crashed server's seats' codes and PIN, kept for its phones;
    ``upload``: who checks and saves the host page's uploaded packs)."""
    server = CompanionServer(box, port=port, bind=bind, address=address, on_rename=on_rename,
                             on_option=on_option, next_game=next_game, publisher=publisher, end_game=end_game,
                             seats=None if secrets is None else Seats.restored(secrets["seats"]),
                             upload=upload)
    if secrets is not None:
        server.restore(secrets)
    server.start()
    show_on(server, scenes)
    print(_("companion pages: {url} (host page {host}, PIN {pin})").format(
        url=server.board_url(), host=server.host_url(), pin=server.seats.pin), file=sys.stderr)
    return server


class MenuCompanion:
    """One server for the menu's simulated players' games: started with the
    first that wants it, moved to each next, stopped when the menu ends (or
    the evening's phones' server, a process of its own, takes the port)."""

    def __init__(self, port: int, *, bind: str = "0.0.0.0", address: str | None = None,
                 on_rename: Callable[[int, str], None] | None = None,
                 next_game: Callable[[], Mapping[str, Any]] | None = None,
                 on_option: Callable[[str, Any], bool] | None = None, upload: Upload | None = None,
                 before: Callable[[], None] | None = None) -> None:
        """``next_game``/``on_option``: the menu's next game and its options,
        which the host page shows and sets (they apply when that game starts);
        ``upload``: who checks and saves the packs uploaded from the host page
        (the evening's deciding process, which owns the packs folder);
        ``before``: called before it serves a game (the evening's phones' server lets the port go)."""
        self.before = before
        self.upload = upload
        self.port = port
        self.bind = bind
        self.address = address
        self.on_rename = on_rename
        self.next_game = next_game
        self.on_option = on_option
        self.server: CompanionServer | None = None

    def game(self, box: Box, scenes: Sequence[Scene]) -> CompanionServer:
        """Serve ``box`` now (the first game starts the server; the next ones
        keep its port, PIN and seats' codes)."""
        if self.before is not None:
            self.before()
        if self.server is None:
            self.server = serve(box, scenes, self.port, bind=self.bind, address=self.address,
                                on_rename=self.on_rename, on_option=self.on_option, next_game=self.next_game,
                                upload=self.upload)
        else:
            self.server.rebind(box)
            show_on(self.server, scenes)
        return self.server

    def between(self) -> None:
        """The game closed, the menu is back: the pages say so."""
        if self.server is not None:
            self.server.detach()

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
