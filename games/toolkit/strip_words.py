"""What a strip cell says, in words: shared by the HDMI screen's scenes and
the companion pages' views, which the deciding process builds without
pygame (docs/processes.md). A game's own wording of its cells is its
``GameSpec.strip_wording`` (pygame-free too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Strip as Strip
from games.base import View as View
from games.i18n import N_, _, format_number


def status_label(cell: Mapping[str, Any], labels: Mapping[str, str] | None = None) -> str:
    """What a strip cell says under the name: the scene's own ``label``, the
    input layer's faults, else the game's word for the status (``labels``)."""
    status = str(cell.get("status", "idle"))
    if cell.get("label") is not None and status not in ("stuck", "disconnected"):
        return str(cell["label"])
    if status == "locked":
        left = cell.get("lockout_us")
        return _("LOCKED {seconds} s").format(seconds=format_number(left / 1_000_000, 1)) if left else _("LOCKED")
    if status == "stuck":
        # the inputs by the words the host reads ("zvonek", not the wiring's "bell"); a button's letter stays
        stuck = ",".join(_(name) if name in INPUT_WORDS else name for name in cell.get("stuck", ()))
        return _("STUCK {inputs}").format(inputs=stuck) if stuck else _("STUCK")
    if status == "disconnected":
        return _("OFFLINE")
    if labels and status in labels:
        return _(labels[status])
    if status == "idle":
        return _("pressed") if cell.get("pressed") else ""
    return _(COMMON_STATUS_WORDS[status]) if status in COMMON_STATUS_WORDS else status.upper()


#: the inputs with a word of their own in the catalogue (the games' ``inputs``); the buttons' letters
#: (a, b, c, d) are said as they are printed on the buttons
INPUT_WORDS = frozenset({N_("bell"), N_("blue"), N_("red"), N_("call"), N_("next"), N_("prev"), N_("ok")})

#: what the strip says for the common statuses (a game names its own in ``GameSpec.status_labels``)
COMMON_STATUS_WORDS: dict[str, str] = {
    "first": N_("FIRST"), "queued": N_("QUEUED"), "out": N_("OUT"), "turn": N_("TURN"), "won": N_("WON"),
}
