"""Piepmatz's phone page: your hand, whose turn it is, and at your turn the
moves as taps on your cards (play a bird behind a perch, lay one into your
collection, the last two cards) or on the offer and the crow's choice.

A table with one phone passed round turns the page's switch on: a tap then
only holds the move (``propose``) and the seat's own station button plays it
(``confirm``), so the box knows the right player signed it (docs/companion.md).
Built from ``PhoneTable`` only: nothing of another seat can reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.i18n import N_, _, ngettext
from games.panels import (
    Buttons,
    Facts,
    Hand,
    Heading,
    Note,
    PanelButton,
    PanelCard,
    PanelMove,
    PhonePanel,
    PhoneTable,
    Widget,
    css_color,
)
from games.piepmatz.cards import SEX_SIGNS, SPECIES_COLORS
from games.piepmatz.engine import PROPOSE

#: the species as the cards name them, marked for the catalogue (shown as _(species))
SPECIES_WORDS = (N_("blackbird"), N_("chaffinch"), N_("yellowhammer"), N_("greenfinch"), N_("sparrow"),
                 N_("bullfinch"))


def bird_label(bird: Mapping[str, Any]) -> str:
    return f"{int(bird.get('value', 0))}{SEX_SIGNS.get(str(bird.get('sex')), '')} {_(str(bird.get('species', '')))}"


def _play_detail(preview: Mapping[str, Any]) -> str:
    total, perched = int(preview.get("sum", 0)), int(preview.get("perched", 0))
    won = len(preview.get("birds") or ())
    if won:
        return ngettext("{sum} against {perched}: wins {n} bird", "{sum} against {perched}: wins {n} birds",
                        won).format(sum=total, perched=perched, n=won)
    return _("{sum} against {perched}: not greater, lay a card").format(sum=total, perched=perched)


def _turn_note(t: PhoneTable) -> Note:
    phase = str(t.public.get("phase"))
    if phase == "over":
        winners = [int(w) for w in t.public.get("winners") or ()]
        if t.seat in winners:
            return Note(_("Game over: you won!"), "good")
        return Note(_("Game over: {names} won").format(names=", ".join(t.name(w) for w in winners)))
    if t.private.get("your_turn"):
        played = t.public.get("played") or {}
        text = {
            "play": _("Your turn: play a bird behind a perch"),
            "crow": _("The crow strikes: give up one bird of your largest species"),
            "lay": _("Lay a card of value {v} or less into your collection").format(v=played.get("value", "?")),
            "take": _("Refill your hand: take a bird from the offer"),
            "final": _("Last two cards: choose two to lay face down; all are turned up together"),
        }.get(phase, _("Your turn"))
        return Note(text, "turn")
    if phase == "final":
        chosen = [bird_label(b) for b in t.private.get("final_chosen") or ()]
        if chosen:
            return Note(_("You laid {cards} face down; they are turned up when everyone has chosen").format(
                cards=", ".join(chosen)))
        return Note(_("Waiting for the others to lay their last cards"))
    turn = t.public.get("turn")
    return Note(_("{name}'s turn").format(name=t.name(int(turn))) if isinstance(turn, int) else _("Wait"))


def _card_actions(t: PhoneTable, bird: Mapping[str, Any], names: Mapping[str, str]) -> tuple[PanelButton, ...]:
    out: list[PanelButton] = []
    for m in t.moves:
        kind, args = str(m.get("kind")), dict(m.get("args") or {})
        if kind == "play" and args.get("card") == bird["id"]:
            out.append(PanelButton(_("Behind perch {n}").format(n=int(args["perch"]) + 1), PanelMove(kind, args),
                                   _play_detail(m.get("preview") or {})))
        elif kind == "lay" and args.get("card") == bird["id"]:
            out.append(PanelButton(_("Lay into your collection"), PanelMove(kind, args)))
        elif kind == "final" and bird["id"] in (args.get("cards") or ()):
            other = next(c for c in args["cards"] if c != bird["id"]) if len(args["cards"]) > 1 else bird["id"]
            out.append(PanelButton(_("Lay with {bird}").format(bird=names.get(str(other), str(other))),
                                   PanelMove(kind, args)))
    return tuple(out)


def _held_words(t: PhoneTable, move: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The move held for the station in words ("Robin 5 behind perch 2"):
    the player presses the button knowing what it plays."""
    kind, args = str(move.get("kind")), dict(move.get("args") or {})
    seen = dict(names)
    for b in t.public.get("offer") or ():
        seen.setdefault(str(b["id"]), bird_label(b))
    for collection in t.public.get("collections") or ():
        for b in collection:
            seen.setdefault(str(b["id"]), bird_label(b))
    bird = seen.get(str(args.get("card")), str(args.get("card", "")))
    if kind == "play":
        return _("{bird} behind perch {n}").format(bird=bird, n=int(args.get("perch", 0)) + 1)
    if kind == "lay":
        return _("lay {bird} into your collection").format(bird=bird)
    if kind == "take":
        return _("take {bird}").format(bird=bird)
    if kind == "crow":
        return _("give up {bird}").format(bird=bird)
    return " + ".join(seen.get(str(c), str(c)) for c in args.get("cards") or ())


def panel(t: PhoneTable) -> PhonePanel:
    """One seat's Piepmatz page."""
    view = t.public
    phase = str(view.get("phase"))
    scores = list(view.get("scores") or [])
    widgets: list[Widget] = [Heading(_("Round {n}").format(n=view.get("round", 1)),
                                     _("Your score: {n}").format(n=scores[t.seat]) if t.seat < len(scores) else "")]
    widgets.append(_turn_note(t))
    proposed = t.private.get("proposed")
    hand = list(t.private.get("hand") or ())
    names = {str(b["id"]): bird_label(b) for b in hand}
    if isinstance(proposed, Mapping):
        widgets.append(Note(_("Held: {move}. Press your station's button to play it, or choose again").format(
            move=_held_words(t, proposed, names)), "turn"))
    cards = []
    for bird in hand:
        actions = _card_actions(t, bird, names)
        rgb = SPECIES_COLORS.get(str(bird.get("species", "")))
        cards.append(PanelCard(bird_label(bird), mark=str(bird.get("species", "")), legal=bool(actions),
                               actions=actions, color=css_color(rgb) if rgb else ""))
    widgets.append(Hand(_("Your hand"), tuple(cards), empty=_("No cards left")))
    takes = [PanelButton(_("Take {bird}").format(bird=bird_label(b)), PanelMove("take", {"card": b["id"]}))
             for b in view.get("offer") or () if t.has("take", card=b["id"])]
    if takes:
        widgets.append(Buttons(_("The offer"), tuple(takes)))
    mine = {str(b["id"]): b for b in (view.get("collections") or [[]] * (t.seat + 1))[t.seat]}
    crows = [PanelButton(_("Give up {bird}").format(bird=bird_label(mine[str(m["args"]["card"])])),
                         PanelMove("crow", dict(m["args"])))
             for m in t.moves if m.get("kind") == "crow" and str((m.get("args") or {}).get("card")) in mine]
    if crows:
        widgets.append(Buttons(_("The crow takes one"), tuple(crows)))
    perches = tuple((_("Perch {n}").format(n=i + 1),
                     _("{bird} · queue {sum}").format(bird=bird_label(p["bird"]), sum=p.get("sum", 0)))
                    for i, p in enumerate(view.get("perches") or ()))
    if perches and phase != "over":
        widgets.append(Facts(_("The feeder"), perches))
    return PhonePanel(tuple(widgets), hold=PROPOSE, hold_label=_("Confirm with my station's button"))
