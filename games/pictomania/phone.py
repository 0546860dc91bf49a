"""Pictomania's phone page: your secret (letter, number, word), a guess pad
for each other player and your guesses so far. "Done" is the station's bell
only: the bell stays on the stations, so no phone can finish for a seat or
enter its race. The phone only holds which token that bell will take (the
highest left, a lower one, or none: ``choose_token``); the bell applies it.

Built from ``PhoneTable`` only (the public view never holds a secret before
the reveal; the private view is this seat's own): nothing of another seat
can reach it.
"""

from __future__ import annotations

from games.i18n import _
from games.panels import (
    Buttons,
    Facts,
    GuessPad,
    GuessRow,
    Heading,
    Note,
    PanelButton,
    PanelChoice,
    PanelMove,
    PhonePanel,
    PhoneTable,
    Widget,
)
from games.pictomania.engine import ADMIT, CHOOSE, DRAWN, GUESS, NUMBERS


def _status_note(t: PhoneTable) -> Note:
    phase = str(t.public.get("phase"))
    statuses = list(t.public.get("status") or [])
    mine = statuses[t.seat] if t.seat < len(statuses) else ""
    if phase == "cards":
        return Note(_("Wait: the host deals the secrets"))
    if phase == "drawing":
        if mine in ("done", "ringing"):
            bonus = list(t.public.get("bonus") or [])
            token = bonus[t.seat] if t.seat < len(bonus) else None
            if mine == "done" and token:
                return Note(_("Done: you took the bonus token {n}").format(n=token), "good")
            return Note(_("Done: waiting for the others"), "good")
        return Note(_("Draw your word, guess the others', then ring your bell"), "turn")
    if phase == "review":
        return Note(_("Everyone is done: the host reveals"))
    if phase == "over":
        winners = [int(w) for w in t.public.get("winners") or ()]
        if t.seat in winners:
            return Note(_("Game over: you won!"), "good")
        return Note(_("Game over: {names} won").format(names=", ".join(t.name(w) for w in winners)))
    return Note(_("The reveal is on the big screen"))


def _guess_pad(t: PhoneTable) -> GuessPad:
    mine = {int(g["drawer"]): int(g["number"]) for g in t.private.get("guesses") or ()}
    rows = []
    for d in range(len(t.names)):
        if d == t.seat:
            continue
        choices = tuple(PanelChoice(str(k), PanelMove(GUESS, {"drawer": d, "number": k})
                                    if t.has(GUESS, drawer=d, number=k) else None, chosen=mine.get(d) == k)
                        for k in NUMBERS)
        rows.append(GuessRow(t.name(d), choices))
    return GuessPad(_("Guess the others' words"), tuple(rows))


def _token_pad(t: PhoneTable) -> GuessPad | None:
    """Which bonus token your bell will take: chosen here, applied when it rings."""
    offered = [dict(m.get("args") or {}) for m in t.moves if m.get("kind") == CHOOSE]
    if not offered:
        return None
    held = t.private.get("token_choice")
    choices = []
    for args in offered:
        cap = args.get("token")
        label = _("max") if cap is None else "0" if cap == 0 else f"≤{cap}"  # short: a pad's square keys
        choices.append(PanelChoice(label, PanelMove(CHOOSE, args), chosen=cap == held))
    return GuessPad(_("Your bell takes a bonus token"),
                    (GuessRow(_("max: the highest left, ≤: a lower one, 0: none"), tuple(choices)),))


def panel(t: PhoneTable) -> PhonePanel:
    """One seat's Pictomania page."""
    view = t.public
    secret = t.private.get("secret")
    widgets: list[Widget] = [Heading(_("Round {n}/{m}").format(n=view.get("round", 1), m=view.get("rounds", 4)))]
    if isinstance(secret, dict):
        widgets.append(Heading(_("Your word: {letter}{number}").format(letter=secret["letter"], number=secret["number"]),
                               str(secret["word"])))
    widgets.append(_status_note(t))
    if t.private.get("admitted"):
        widgets.append(Note(_("You said you drew the wrong word"), "bad"))
    if view.get("phase") == "drawing":
        widgets.append(_guess_pad(t))
        tokens = _token_pad(t)
        if tokens is not None:
            widgets.append(tokens)
    guesses = tuple((t.name(int(g["drawer"])), str(g["number"])) for g in t.private.get("guesses") or ())
    if guesses:
        widgets.append(Facts(_("Your guesses so far"), guesses))
    side = []
    if t.has(DRAWN):
        side.append(PanelButton(_("I finished drawing"), PanelMove(DRAWN), style="quiet"))
    if t.has(ADMIT):
        side.append(PanelButton(_("I drew the wrong word"), PanelMove(ADMIT), style="danger",
                                confirm=_("Tap again: your guessers score nothing for your drawing")))
    if side:
        widgets.append(Buttons("", tuple(side)))
    reveal = view.get("reveal")
    if isinstance(reveal, dict):
        scores, totals = list(reveal.get("scores") or []), list(reveal.get("totals") or [])
        widgets.append(Facts(_("Round {n}").format(n=reveal.get("round", "")),
                             tuple((t.name(p), _("{round} · total {total}").format(round=scores[p], total=totals[p]))
                                   for p in range(min(len(scores), len(totals))))))
    return PhonePanel(tuple(widgets))
