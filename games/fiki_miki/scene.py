"""Fiki Miki on the shared screen, drawn from ``public_view()`` only.

Variant I: one column per stack (its kind, cards and pictures against the
threshold, the newest card's stack framed), the last bell race with who won
it and by what margin, and each player's collected cards and hand size; in
teaching mode (``open_hands``) the hands themselves. Variant II: the led kind,
the cards added to it, who leads and who follows, collected pictures.
Hands never appear otherwise: they are on the phones.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from games.arbitration import format_margin
from games.fiki_miki.cards import BLANK_COLOR, KIND_COLORS
from games.i18n import N_, _, format_number, ngettext
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

#: the kinds as the engine names them, marked for the catalogue (drawn as _(kind))
KIND_WORDS = (N_("mushroom"), N_("apple"), N_("leaf"), N_("star"))


def kind_color(kind: str | None, index: int = 0) -> Color:
    if kind is None:
        return BLANK_COLOR
    return KIND_COLORS.get(kind, theme.PALETTE[index % len(theme.PALETTE)])


class FikiMikiScene(Scene):
    title = "Fiki Miki"

    def header(self, view: View) -> tuple[str, str]:
        variant = str(view.get("variant", "I"))
        if view.get("phase") == "over":
            return self.title, _("variant {v} · game over").format(v=variant)
        turn = view.get("turn")
        phase = str(view.get("phase"))
        if phase == "bell":
            what = _("the bell is open")
        elif turn is None:
            what = ""
        else:
            step = {"play": _("plays a card"), "lead": _("leads"), "follow": _("adds a card")}.get(phase, "")
            what = _("Player {n} {step}").format(n=int(turn) + 1, step=step)
        return self.title, _("variant {v}").format(v=variant) + " · " + what if what else _("variant {v}").format(v=variant)

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        left_w = area.width * 62 // 100
        left = pygame.Rect(area.left, area.top, left_w, area.height)
        right = pygame.Rect(area.left + left_w + 2 * lay.pad, area.top, area.width - left_w - 2 * lay.pad, area.height)
        race_h = lay.size(1.0) * 2 + 2 * lay.pad
        table = pygame.Rect(left.left, left.top, left.width, left.height - race_h - lay.pad)
        if view.get("variant") == "I":
            self._stacks(surface, table, lay, view)
        else:
            self._trick(surface, table, lay, view, strip)
        self._race(surface, pygame.Rect(left.left, left.bottom - race_h, left.width, race_h), lay, view, strip)
        self._players(surface, right, lay, view, strip)

    # -- the table ------------------------------------------------------------------------
    def _card(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, card: Mapping[str, Any], index: int = 0,
              band: int | None = None) -> None:
        """A card: its kind's colour and its number of pictures (``band``: only
        the top band shows, the card lies under the next one)."""
        kind = card.get("kind")
        fill = theme.legible_fill(kind_color(None if kind is None else str(kind), index))
        panel(surface, r, fill, radius=max(4, r.height // 8))
        pygame.draw.rect(surface, theme.BG, r, width=2, border_radius=max(4, r.height // 8))
        text = str(card.get("pictures", 0)) if kind is not None else _("blank")
        where = r if band is None else pygame.Rect(r.left, r.top, r.width, band)
        draw_text(surface, text, lay.size(1.1) if band is None else lay.min_text, theme.text_on(fill), where,
                  min_size=lay.min_text)

    def _stacks(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        stacks = list(view.get("stacks", ()))
        hands = view.get("hands")
        n = max(1, len(stacks))
        gap = lay.pad * 2
        col_w = (area.width - gap * (n - 1)) // n
        stack_h = area.height if not hands else area.height * 55 // 100
        threshold = int(view.get("threshold", 10))
        for i, stack in enumerate(stacks):
            r = pygame.Rect(area.left + i * (col_w + gap), area.top, col_w, stack_h)
            kind = str(stack["kind"])
            fill = kind_color(kind, i)
            landed = view.get("landed") == kind
            stack_bg = theme.blend(theme.PANEL, fill, 0.25)
            panel(surface, r, stack_bg)
            if landed:
                pygame.draw.rect(surface, theme.PRESSED, r, width=max(3, lay.pad // 2), border_radius=max(4, r.height // 20))
            line = lay.size(1.0) + lay.pad
            draw_text(surface, _(kind), lay.min_text, theme.FG, pygame.Rect(r.left, r.top + lay.pad, r.width, line),
                      min_size=lay.min_text)
            pictures = int(stack["pictures"])
            ripe = pictures >= threshold
            draw_text(surface, f"{format_number(pictures)}/{format_number(threshold)}", lay.size(2.2),
                      theme.GOOD if ripe else theme.FG,
                      pygame.Rect(r.left, r.top + line, r.width, lay.size(2.4)), min_size=lay.min_text)
            cards = list(stack["cards"])
            draw_text(surface, ngettext("{n} card", "{n} cards", len(cards)).format(n=len(cards)), lay.min_text,
                      theme.readable_on(theme.MUTED, stack_bg), pygame.Rect(r.left, r.top + line + lay.size(2.4), r.width, line),
                      min_size=lay.min_text)
            # the top cards, newest last
            # the cards fanned downwards, each showing its top band: the newest at the bottom
            step = lay.min_text + lay.pad
            card_h = step * 2
            y = r.top + 2 * line + lay.size(2.4)
            room = max(1, (r.bottom - lay.pad - card_h - y) // step + 1)
            for card in cards[-room:]:
                self._card(surface, pygame.Rect(r.left + lay.pad * 2, y, r.width - lay.pad * 4, card_h), lay, card, i,
                           band=step)
                y += step
        if hands:
            self._open_hands(surface, pygame.Rect(area.left, area.top + stack_h + lay.pad, area.width,
                                                  area.height - stack_h - lay.pad), lay, view, list(hands))

    def _open_hands(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, hands: list[Any]) -> None:
        """Teaching mode: everyone's hand on the screen."""
        kinds = [str(s["kind"]) for s in view.get("stacks", ())]
        row_h = min(lay.size(1.5), (area.height - lay.pad * (len(hands) - 1)) // max(1, len(hands)))
        for p, hand in enumerate(hands):
            r = pygame.Rect(area.left, area.top + p * (row_h + lay.pad), area.width, row_h)
            if r.bottom > area.bottom:
                break
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top, max(8, lay.pad), r.height))
            x = r.left + lay.pad * 3
            card_w = lay.size(1.6)
            for card in hand:
                if x + card_w > r.right:
                    break
                kind = card.get("kind")
                self._card(surface, pygame.Rect(x, r.top, card_w, r.height), lay, card,
                           kinds.index(kind) if kind in kinds else 0)
                x += card_w + lay.pad

    def _trick(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """Variant II: the led card and the cards added to it."""
        panel(surface, area, theme.PANEL)
        line = lay.size(1.2)
        led = view.get("led_kind")
        leader = int(view.get("leader", 0))
        title = _("{name} leads {kind}").format(name=self.name(strip, leader), kind=_(str(led))) if led \
            else _("{name} leads next").format(name=self.name(strip, leader))
        draw_text(surface, title, lay.size(1.3), theme.FG, pygame.Rect(area.left, area.top + lay.pad, area.width, line),
                  min_size=lay.min_text)
        trick = list(view.get("trick", ()))
        n = max(1, len(trick))
        card_w = min(lay.size(3.2), (area.width - lay.pad * (n + 1)) // n)
        card_h = min(area.height - line * 3 - lay.pad * 4, card_w * 3 // 2)
        x = area.left + (area.width - (card_w + lay.pad) * len(trick)) // 2
        y = area.top + line + lay.pad * 3
        for entry in trick:
            p = int(entry["player"])
            r = pygame.Rect(x, y, card_w, card_h)
            self._card(surface, r, lay, entry["card"])
            pygame.draw.rect(surface, self.color(view, p), r, width=max(4, lay.pad // 2), border_radius=max(4, r.height // 8))
            draw_text(surface, self.name(strip, p), lay.min_text, theme.FG,
                      pygame.Rect(x, r.bottom + lay.pad, card_w, line), min_size=lay.min_text)
            x += card_w + lay.pad
        if not trick:
            draw_text(surface, _("no card led yet"), lay.size(1.2), theme.MUTED, area, min_size=lay.min_text)

    # -- the bell ---------------------------------------------------------------------------
    def _race(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        panel(surface, area, theme.PANEL)
        race = view.get("last_race")
        inner = area.inflate(-4 * lay.pad, -lay.pad)
        half = inner.height // 2
        if not race:
            draw_text(surface, _("the bell: ring when a stack reaches {n} pictures").format(n=view.get("threshold", 10))
                      if view.get("variant") == "I" else _("the bell: ring when you lack the led kind"),
                      lay.min_text, theme.MUTED, inner, align="left", min_size=lay.min_text)
            return
        winner = race.get("winner")
        if winner is not None:
            head = _("{name} rang first").format(name=self.name(strip, int(winner)))
            if race.get("stack"):
                head += " · " + ngettext("takes the {kind} stack ({n} card)", "takes the {kind} stack ({n} cards)",
                                         int(race.get("cards", 0))).format(kind=_(str(race["stack"])), n=race.get("cards", 0))
        else:
            head = _("tie: {names}").format(names=", ".join(self.name(strip, int(p)) for p in race.get("tied", ())))
        draw_text(surface, head, lay.size(1.1), theme.FG, pygame.Rect(inner.left, inner.top, inner.width, half),
                  align="left", min_size=lay.min_text)
        rings = list(race.get("rings", ()))
        margin = race.get("margin_us")
        if race.get("decided_by") == "draw":
            detail = _("too close to tell: {names} drew lots").format(
                names=", ".join(self.name(strip, int(p)) for p in race.get("tied", ())))
        elif margin is not None and len(rings) > 1:
            detail = _("{margin} ahead of {name}").format(margin=format_margin(int(margin)),
                                                          name=self.name(strip, int(rings[1]["player"])))
        else:
            detail = _("nobody else rang")
        draw_text(surface, detail, lay.min_text, theme.MUTED, pygame.Rect(inner.left, inner.top + half, inner.width, half),
                  align="left", min_size=lay.min_text)

    # -- the players -----------------------------------------------------------------------
    def _players(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        collected = list(view.get("collected", ()))
        pictures = list(view.get("collected_pictures", ()))
        hand_sizes = list(view.get("hand_sizes", ()))
        status = list(view.get("status", ()))
        n = max(1, len(collected))
        row_h = min((area.height - lay.pad * (n - 1)) // n, lay.size(1.1) * 2 + lay.pad * 2)
        variant_one = view.get("variant") == "I"
        for p in range(len(collected)):
            r = pygame.Rect(area.left, area.top + p * (row_h + lay.pad), area.width, row_h)
            on_turn = p < len(status) and status[p] in ("turn", "winner")
            row_bg = theme.blend(theme.PANEL, self.color(view, p), 0.35) if on_turn else theme.PANEL
            panel(surface, r, row_bg)
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top, max(8, lay.pad), r.height))
            inner = r.inflate(-3 * lay.pad, -lay.pad)
            half = inner.height // 2
            draw_text(surface, self.name(strip, p), lay.min_text, theme.FG,
                      pygame.Rect(inner.left, inner.top, inner.width * 6 // 10, half), align="left", min_size=lay.min_text)
            got = collected[p] if variant_one else pictures[p] if p < len(pictures) else 0
            label = ngettext("{n} card", "{n} cards", int(got)) if variant_one else ngettext("{n} picture", "{n} pictures", int(got))
            draw_text(surface, label.format(n=format_number(int(got))), lay.min_text, theme.FG,
                      pygame.Rect(inner.left + inner.width * 4 // 10, inner.top, inner.width * 6 // 10, half),
                      align="right", min_size=lay.min_text)
            held = int(hand_sizes[p]) if p < len(hand_sizes) else 0
            draw_text(surface, ngettext("{n} in hand", "{n} in hand", held).format(n=held), lay.min_text,
                      theme.readable_on(theme.MUTED, row_bg),
                      pygame.Rect(inner.left, inner.top + half, inner.width, half), align="right", min_size=lay.min_text)
