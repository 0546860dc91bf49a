"""How Pictomania words the station strip: what its scene draws on the HDMI
screen and the phones' pages say (``GameSpec.strip_wording``). No pygame:
the phones' server words its pages with it and draws nothing."""

from __future__ import annotations

from games.base import Strip, View
from games.i18n import _


def worded_strip(view: View, strip: Strip) -> Strip:
    """A cell shows the bonus token its player took."""
    bonus = list(view.get("bonus", ()))
    out = []
    for i, cell in enumerate(strip):
        token = bonus[i] if i < len(bonus) else None
        label = _("DONE +{n}").format(n=token) if token and cell.get("status") == "done" else None
        out.append({**cell, "label": label} if label else dict(cell))
    return out
