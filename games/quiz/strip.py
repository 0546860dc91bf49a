"""How the quiz words the station strip: what its scene draws on the HDMI
screen and the phones' pages say (``GameSpec.strip_wording``). No pygame:
the phones' server words its pages with it and draws nothing."""

from __future__ import annotations

from games.base import Strip, View
from games.i18n import _


def worded_strip(view: View, strip: Strip) -> Strip:
    """A locked station shows its lockout running out; a queued one its
    place in line (the others of a tie the host drew from are next: #2). Between questions the last question's queue is
    history: only the one who got it right stays lit."""
    if view.get("board"):  # the leaderboard: the strip keeps only faults (stuck, offline)
        return [{**c, "status": c["status"] if c.get("status") in ("stuck", "disconnected") else "idle", "label": None}
                for c in strip]
    lockouts = view.get("lockouts_us", {})
    queue = list(view.get("queue", ()))
    places = list(view.get("places") or range(2, len(queue) + 2))  # players still tied share a place
    between = view.get("phase") in ("round_over", "idle")
    results = list(view.get("results", ()))
    winner = results[-1].get("winner") if results and view.get("phase") == "round_over" else None
    out = []
    for i, cell in enumerate(strip):
        status, label = cell.get("status"), cell.get("label")
        if between:
            if status == "queued":
                status = "first" if i == winner else "idle"
            label = _("RIGHT") if i == winner else None
        elif status == "queued" and i in queue and label is None:
            label = f"#{places[queue.index(i)]}"
        out.append({**cell, "status": status, "label": label, "lockout_us": lockouts.get(str(i))})
    return out
