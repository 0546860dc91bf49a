"""How Schicki Micki words the station strip: what its scene draws on the
HDMI screen and the phones' pages say (``GameSpec.strip_wording``). No
pygame: the phones' server words its pages with it and draws nothing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Strip, View
from games.i18n import _, ngettext, pgettext


def reaction_short(kind: str, accessory: str | None = None) -> str:
    """What a player did, short enough for a strip cell: "knock", "red pawn", "hat!"
    (the scene's ``reaction_words`` says it whole)."""
    if kind == "call":
        return _("{accessory}!").format(accessory=_(accessory)) if accessory else _("call")
    return {"knock": _("knock"), "blue": _("blue pawn"), "red": _("red pawn")}.get(kind, kind)


def early(outcome: Mapping[str, Any]) -> bool:
    """A press stamped before the card was on screen: the rules drop it
    (README, Window); the screen says so rather than "no effect"."""
    return outcome.get("result") == "ignored" and int(outcome.get("reaction_us", 0)) < 0


def outcome_words(outcome: Mapping[str, Any], cell: bool = False) -> str:
    """What a reaction earned: '+3 cards', 'returns 1', 'nothing', 'too early'
    (``cell``: as short as a strip cell of four stations takes it whole)."""
    result, change = outcome.get("result"), int(outcome.get("change", 0))
    if early(outcome):
        return _("too early")
    if result in ("all", "one"):
        if change <= 0:
            return _("owed 1 card")
        return ngettext("+{n} card", "+{n} cards", change).format(n=change)
    if result == "return":
        if change < 0:
            return _("returns 1")
        return pgettext("strip cell", "none to return") if cell else _("had none to return")
    if result == "ignored":
        return _("no effect")
    return _("nothing")


def worded_strip(view: View, strip: Strip) -> Strip:
    """Cells say what each player did this window and what it earned."""
    status = list(view.get("status", ()))
    reacted = {int(r["player"]): r for r in view.get("reactions", ())}
    res = view.get("last_resolution") or {}
    outcomes = {int(o["player"]): o for o in res.get("outcomes", ())}
    out = []
    for i, cell in enumerate(strip):
        st = status[i] if i < len(status) else "idle"
        label: str | None = None
        fill = cell.get("status", "idle")
        if st == "reacted" and i in reacted:
            label, fill = reaction_short(str(reacted[i]["reaction"]), reacted[i].get("accessory")), "queued"
            if reacted[i].get("already_acted"):  # a later press the rules ignore (short: the cell is narrow)
                label += pgettext("strip cell", " · again")
        elif st in ("won", "returned", "nothing", "ignored") and i in outcomes:
            label = outcome_words(outcomes[i], cell=True)
            fill = {"won": "won", "returned": "locked"}.get(st, "idle")
        elif st == "winner":
            label, fill = _("WINNER"), "won"
        elif st == "done":
            label = _("cards")
        if cell.get("status") in ("stuck", "disconnected"):
            fill = cell["status"]
        out.append({**cell, "status": fill, "label": label})
    return out
