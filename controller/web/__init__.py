"""The companion pages: private hands on players' phones, a host remote and a
live scoreboard, served from the box on the LAN (``--web``).

The server is an input source like the buttons: it puts what phones send
into the box's inbox, stamped on the box clock when it arrives, and reads
only the views the loop publishes after each step. It never touches the
engine. See docs/companion.md.

Nothing here is imported unless ``--web`` asks for it (aiohttp stays out of
a box that does not serve pages).
"""

from games.base import BuzzerBoxError

#: the port the pages are served on when ``--web`` gives none
DEFAULT_PORT = 8080


class WebError(BuzzerBoxError):
    """The pages cannot be served (a port that is taken): one line, no game. Here, not beside the
    server, so a starter of the phones' server (``web.process.PhonesProcess``) imports no aiohttp."""
