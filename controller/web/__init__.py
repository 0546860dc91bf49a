"""The companion pages: private hands on players' phones, a host remote and a
live scoreboard, served from the box on the LAN (``--web``).

The server is an input source like the buttons: it puts what phones send
into the box's inbox, stamped on the box clock when it arrives, and reads
only the views the loop publishes after each step. It never touches the
engine. See docs/companion.md.

Nothing here is imported unless ``--web`` asks for it (aiohttp stays out of
a box that does not serve pages).
"""

import socket

from games.base import BuzzerBoxError

#: the port the pages are served on when ``--web`` gives none
DEFAULT_PORT = 8080


class WebError(BuzzerBoxError):
    """The pages cannot be served (a port that is taken): one line, no game. Here, not beside the
    server, so a starter of the phones' server (``web.process.PhonesProcess``) imports no aiohttp."""


def lan_address() -> str:
    """The box's address on the LAN (the interface a packet out would use;
    nothing is sent). 127.0.0.1 where there is no network. Here, not beside the server, so the
    menu's first-run walk-through (which shows the phones' address) imports no aiohttp."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"
