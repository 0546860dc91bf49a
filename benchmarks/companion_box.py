"""The phones' server on a box decided in this process: the one-process
baseline's (benchmarks/one_process.py), and the harness of the pages' tests
and the attack benchmarks, which drive a ``Box`` on their own thread without
a second process. ``buzzerbox`` never serves a box of its own process: its
phones' server is a process of its own (``controller/web/process.py``) and
reads the snapshots the deciding process builds (``RelayedPublisher``).

Here the snapshots are built in this process (a ``Publisher`` on the box's
events), the host page's "end" posts the screen's Esc (``end_by_escape``),
and ``show_on`` draws the server's panel over the game's scenes, read from
the server as it is now.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller.box.runtime import Box
from controller.box.views import Publisher
from controller.screen.phones_panel import CompanionOverlay
from controller.web.server import CompanionServer
from games.i18n import _
from games.toolkit.scene import Scene


def end_by_escape() -> None:
    """End the running game as the host's Esc key does: the frame loop closes
    it (journal's end, lights off). Posting an event is the one thing pygame
    lets another thread do."""
    import pygame

    # confirmed: the page asked already (two taps), the screen does not ask again
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=0,
                                         confirmed=True))


def box_server(box: Box, *, next_game: Callable[[], Mapping[str, Any]] | None = None,
               end_game: Callable[[], None] = end_by_escape, **options: Any) -> CompanionServer:
    """A server (not started) for ``box``: its snapshots built here on the
    box's events, as the deciding process builds them; ``options``: the
    server's own (port, bind, address, limits ...)."""
    publisher = Publisher(box, next_game)
    box.on_events.append(publisher.on_events)
    return CompanionServer(box, publisher=publisher, end_game=end_game, **options)


def show_on(server: CompanionServer, scenes: Sequence[Scene]) -> CompanionOverlay:
    """The server's panel over ``scenes`` (the game's and its results): it
    reads the server's box as it is now, so renames and pauses show at once."""
    box = server.box
    uses_seats = server.publisher.latest.uses_seats
    overlay = CompanionOverlay(lambda: server.base_url, lambda: server.seats.pin,
                               server.join_url if uses_seats else None,
                               server.held, lambda: box.station_names, lambda: box.host_paused,
                               server.pin_wanted, lambda: server.publisher.latest.phones_wanted)
    for scene in scenes:
        scene.overlays.append(overlay)
        scene.asides.append(overlay.aside)
    if scenes:  # the game's scene words the strip: the pages say what the screen says
        with box.lock:
            server.publisher.scene = scenes[0]
            server.publisher.publish()
    return overlay


def serve(box: Box, scenes: Sequence[Scene], port: int, *, bind: str = "0.0.0.0",
          address: str | None = None) -> CompanionServer:
    """Start the server for ``box`` and show where to find it on ``scenes``."""
    server = box_server(box, port=port, bind=bind, address=address)
    server.start()
    show_on(server, scenes)
    print(_("companion pages: {url} (host page {host}, PIN {pin})").format(
        url=server.board_url(), host=server.host_url(), pin=server.seats.pin), file=sys.stderr)
    return server
