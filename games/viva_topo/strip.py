"""How Viva Topo! words the station strip: what its scene draws on the HDMI
screen and the phones' pages say (``GameSpec.strip_wording``). No pygame:
the phones' server words its pages with it and draws nothing."""

from __future__ import annotations

from games.base import Strip, View
from games.i18n import _


def worded_strip(view: View, strip: Strip) -> Strip:
    """A cell says whose turn it is, which mouse won, who has no mice left."""
    status = list(view.get("status", ()))
    over = view.get("phase") == "over"
    out = []
    for i, cell in enumerate(strip):
        label = None
        if i < len(status):
            label = {"turn": _("TURN"), "won": _("WINS"), "out": _("no mice")}.get(str(status[i]))
        out.append({**cell, "label": label, **({"pressed": False} if over else {})})  # a press after the end does nothing
    return out
