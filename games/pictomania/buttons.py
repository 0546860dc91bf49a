"""Station buttons for Pictomania: the bell says "done" and takes the highest
bonus token left; the bells are ranked by their source stamps once no later
press could tie. Guesses come from the phones; other buttons are ignored."""

from __future__ import annotations

from games.base import ANY, ButtonMap
from games.pictomania.engine import DONE

BUTTONS = ButtonMap({
    (ANY, "bell"): (DONE, {}),
    (ANY, ANY): None,
})
