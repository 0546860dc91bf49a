"""Serving the companion pages for one live game: the server, and its
overlay on the game's scenes (the address, the host PIN, the seats' QR codes)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from controller.runtime import Box
from controller.web.overlay import CompanionOverlay
from controller.web.server import CompanionServer
from games.i18n import _
from games.toolkit.scene import Scene


def serve(box: Box, scenes: Sequence[Scene], port: int, *, bind: str = "0.0.0.0",
          address: str | None = None) -> CompanionServer:
    """Start the server for ``box`` and show where to find it on ``scenes``."""
    server = CompanionServer(box, port=port, bind=bind, address=address)
    server.start()
    uses_seats = server.publisher.latest.uses_seats
    overlay = CompanionOverlay(lambda: server.base_url, server.seats.pin,
                               (lambda: [server.seat_url(i) for i in range(server.seats.count)]) if uses_seats else None,
                               server.joined, box.station_names)
    for scene in scenes:
        scene.overlays.append(overlay)
    print(_("companion pages: {url} (host page {host}, PIN {pin})").format(
        url=server.board_url(), host=server.host_url(), pin=server.seats.pin), file=sys.stderr)
    return server
