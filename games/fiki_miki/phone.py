"""Fiki Miki's phone page: your hand with the cards you may play now
highlighted, whose turn it is, and what became of your last ring. The bell
itself is the station's (a phone is no stopwatch), so the page only reminds.

Built from ``PhoneTable`` (public view, this seat's private view and moves):
nothing of another seat can reach it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.fiki_miki.cards import BLANK_COLOR, KIND_COLORS
from games.i18n import _, ngettext
from games.panels import (
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


def _kind(kind: Any) -> str:
    """A picture kind in the current language (the scene marks the words)."""
    return _(str(kind)) if kind else _("blank")


def card_label(card: Mapping[str, Any]) -> str:
    if card.get("kind") is None:
        return _("blank")
    return f"{int(card.get('pictures', 0))} × {_kind(card['kind'])}"


def _action_label(kind: str, phase: str, card: Mapping[str, Any], variant: str) -> str:
    if kind == "discard":
        return _("Discard this card")
    if variant == "I":
        return _("Play onto the {kind} stack").format(kind=_kind(card.get("kind")))
    return _("Lead this card") if phase == "lead" else _("Add this card")


def _turn_note(t: PhoneTable) -> Note:
    view, seat = t.public, t.seat
    phase, turn = str(view.get("phase")), view.get("turn")
    if turn == seat:
        if any(m.get("kind") == "discard" for m in t.moves):
            owed = list(view.get("owed_discards") or [])
            if seat < len(owed) and owed[seat]:
                return Note(_("Your turn: discard a card (penalty for a wrong ring)"), "turn")
            return Note(_("Your turn: you cannot follow, discard a card"), "turn")
        text = {"play": _("Your turn: play a card"), "lead": _("Your turn: lead a picture card"),
                "follow": _("Your turn: add a card of the led kind")}.get(phase, _("Your turn"))
        return Note(text, "turn")
    if phase == "bell":
        return Note(_("The bell is open: ring at your station if it is right"))
    if isinstance(turn, int):
        return Note(_("{name}'s turn").format(name=t.name(turn)))
    return Note(_("Wait for the next card"))


def _ring_note(t: PhoneTable) -> Note | None:
    ring = t.private.get("last_ring")
    if not isinstance(ring, Mapping):
        return None
    result = ring.get("result")
    if result == "won":
        race = t.public.get("last_race") or {}
        if race.get("winner") == t.seat and race.get("stack"):
            cards = int(race.get("cards", 0))
            return Note(ngettext("Your last ring: first! You took the {kind} stack ({n} card)",
                                 "Your last ring: first! You took the {kind} stack ({n} cards)", cards)
                        .format(kind=_kind(race["stack"]), n=cards), "good")
        return Note(_("Your last ring: first! You took the stack"), "good")
    if result == "spared":
        return Note(_("Your last ring: right and in time, you are spared the discard"), "good")
    if result == "slower":
        return Note(_("Your last ring: right, but someone rang first"))
    if result == "tie_lost":
        return Note(_("Your last ring: a tie, and the draw went to another player"))
    if result == "wrong":
        if t.public.get("variant") == "I":
            return Note(_("Your last ring was wrong: you lose your next turn and may not ring until then"), "bad")
        return Note(_("Your last ring was wrong: you discard two cards at your turn"), "bad")
    return None


def panel(t: PhoneTable) -> PhonePanel:
    """One seat's Fiki Miki page."""
    view = t.public
    variant, phase = str(view.get("variant")), str(view.get("phase"))
    scores = list(view.get("scores") or [])
    widgets: list[Widget] = [Heading(_("Variant {v}").format(v=variant),
                                     _("Your score: {n}").format(n=scores[t.seat]) if t.seat < len(scores) else "")]
    if view.get("result"):
        winners = list((view.get("result") or {}).get("winners") or [])
        won = t.seat in winners
        widgets.append(Note(_("Game over: you won!") if won else _("Game over: {names} won").format(
            names=", ".join(t.name(int(w)) for w in winners)), "good" if won else "plain"))
    else:
        widgets.append(_turn_note(t))
        if t.seat in (view.get("banned") or ()):
            widgets.append(Note(_("No bell for you until your own turn after the lost one"), "bad"))
        if variant != "I" and view.get("led_kind"):
            widgets.append(Note(_("Led: {kind}").format(kind=_kind(view["led_kind"]))))
    moves_by_card: dict[int, list[str]] = {}
    for m in t.moves:
        card = (m.get("args") or {}).get("card")
        if isinstance(card, int):
            moves_by_card.setdefault(card, []).append(str(m["kind"]))
    cards = []
    for card in t.private.get("hand") or ():
        kinds = moves_by_card.get(int(card["id"]), [])
        actions = tuple(PanelButton(_action_label(k, phase, card, variant), PanelMove(k, {"card": int(card["id"])}),
                                    style="quiet" if k == "discard" else "primary") for k in kinds)
        rgb = KIND_COLORS.get(str(card.get("kind")), BLANK_COLOR)
        cards.append(PanelCard(card_label(card), mark=str(card.get("kind") or "blank"), legal=bool(actions),
                               actions=actions, color=css_color(rgb)))
    widgets.append(Hand(_("Your hand"), tuple(cards), empty=_("No cards left")))
    note = _ring_note(t)
    if note is not None:
        widgets.append(note)
    rows = [(t.name(p), str(score)) for p, score in enumerate(scores)]
    widgets.append(Facts(_("Scores") if variant != "I" else _("Cards collected"), tuple(rows)))
    return PhonePanel(tuple(widgets))
