"""How the reaction duel words the station strip: what its scene draws on
the HDMI screen and the phones' pages say (``GameSpec.strip_wording``). No
pygame: the phones' server words its pages with it and draws nothing."""

from __future__ import annotations

from games.arbitration import fmt_ms
from games.base import Strip, View
from games.i18n import _


def worded_strip(view: View, strip: Strip) -> Strip:
    """Cells say what happened to each player this round: their reaction
    time, or "false start"."""
    last = view.get("last") or {}
    times = last.get("reaction_us", {}) if view.get("phase") == "result" else {}
    false = set(view.get("false_starts", ()))
    out = []
    for i, cell in enumerate(strip):
        label = None
        if i in false:
            label = _("EARLY")
        elif str(i) in times:
            label = fmt_ms(times[str(i)], 1)
        elif view.get("phase") == "go" and i in view.get("pressed", ()):
            label = _("pressed")
        out.append({**cell, "label": label})
    return out
