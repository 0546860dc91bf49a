"""Serving the companion pages: the server, and its overlay on the game's
scenes (the address, the host PIN, the seats' QR codes, "paused").

``play --web`` serves one game (``serve``); the menu keeps one server for
its whole session (``MenuCompanion``): each game re-binds it, so phones
scan once per evening, not once per game.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from controller.runtime import Box
from controller.web.overlay import CompanionOverlay
from controller.web.server import CompanionServer, end_by_escape
from controller.web.views import Publisher, RelayedPublisher, Snapshot, snapshot_from
from games.i18n import _
from games.toolkit.scene import Scene


def show_on(server: CompanionServer, scenes: Sequence[Scene]) -> CompanionOverlay:
    """The server's panel over ``scenes`` (the game's and its results): it
    reads the server's box as it is now, so renames and pauses show at once."""
    uses_seats = server.publisher.latest.uses_seats
    overlay = CompanionOverlay(lambda: server.base_url, lambda: server.seats.pin,
                               server.join_url if uses_seats else None,
                               server.joined, lambda: server.box.station_names, lambda: server.box.host_paused,
                               server.pin_wanted)
    for scene in scenes:
        scene.overlays.append(overlay)
        scene.asides.append(overlay.aside)
    if scenes:  # the game's scene words the strip: the pages say what the screen says
        with server.box.lock:
            server.publisher.scene = scenes[0]
            server.publisher.publish()
    return overlay


def serve(box: Box, scenes: Sequence[Scene], port: int, *, bind: str = "0.0.0.0",
          address: str | None = None, on_rename: Callable[[int, str], None] | None = None,
          on_option: Callable[[str, Any], bool] | None = None,
          next_game: Callable[[], Mapping[str, Any]] | None = None,
          publisher: Publisher | None = None, end_game: Callable[[], None] = end_by_escape,
          packs_folder: Path | None = None) -> CompanionServer:
    """Start the server for ``box`` and show where to find it on ``scenes``
    (``packs_folder``: where the host page's uploaded packs go)."""
    server = CompanionServer(box, port=port, bind=bind, address=address, on_rename=on_rename,
                             on_option=on_option, next_game=next_game, publisher=publisher, end_game=end_game,
                             packs_folder=packs_folder)
    server.start()
    show_on(server, scenes)
    print(_("companion pages: {url} (host page {host}, PIN {pin})").format(
        url=server.board_url(), host=server.host_url(), pin=server.seats.pin), file=sys.stderr)
    return server


class MenuCompanion:
    """One server for the menu's whole session: started with the first game
    that wants it, moved to each next game, stopped when the menu ends."""

    def __init__(self, port: int, *, bind: str = "0.0.0.0", address: str | None = None,
                 on_rename: Callable[[int, str], None] | None = None,
                 next_game: Callable[[], Mapping[str, Any]] | None = None,
                 on_option: Callable[[str, Any], bool] | None = None, packs_folder: Path | None = None) -> None:
        """``next_game``/``on_option``: the menu's next game and its options,
        which the host page shows and sets (they apply when that game starts);
        ``packs_folder``: where packs uploaded from the host page go."""
        self.packs_folder = packs_folder
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
        if self.server is None:
            self.server = serve(box, scenes, self.port, bind=self.bind, address=self.address,
                                on_rename=self.on_rename, on_option=self.on_option, next_game=self.next_game,
                                packs_folder=self.packs_folder)
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


class RelayedCompanion:
    """The phones' server in the screen's process (the split design,
    docs/processes.md): the deciding process sends each snapshot it built
    after the lamp was lit (a view's ``companion``); the server checks what
    phones and host pages send (seat codes, the PIN, the moves offered) and
    hands it to ``box`` (a ``viewer.ViewBox``), which sends it on to the
    deciding process as stamped inputs. The seats' codes and the PIN never
    leave this process."""

    def __init__(self, port: int, *, on_rename: Callable[[int, str], None] | None = None) -> None:
        self.port = port
        self.on_rename = on_rename
        self.server: CompanionServer | None = None
        self.publisher: RelayedPublisher | None = None

    def start(self, box: Any, scenes: Sequence[Scene], first: Snapshot,
              end_game: Callable[[], None]) -> CompanionServer:
        """Serve now, before the game is handed over (a port that is taken is
        said before anything began): ``first`` is the game as it starts,
        no move taken until the deciding process's first snapshot comes."""
        self.publisher = RelayedPublisher(box, first)
        self.server = serve(box, scenes, self.port, on_rename=self.on_rename, publisher=self.publisher,
                            end_game=end_game)
        return self.server

    def update(self, snapshot: dict[str, Any], view: Mapping[str, Any], strip: Sequence[Mapping[str, Any]]) -> None:
        """The deciding process's newest snapshot to the pages."""
        if self.publisher is not None:
            self.publisher.update(snapshot_from(snapshot), view, strip)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None
