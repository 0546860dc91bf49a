"""Piepmatz on the shared screen, drawn from ``public_view()`` only (never a hand).

Left: the feeder, one line per perch (the perched bird, its queue and the
queue's sum against it), the seed row with the pests beside it, the offer and
the piles. Right: each player's collection (birds per species, pairs), eggs
and running score; the header says whose turn it is.

A bird is a card in its species' colour with its value and sex (m/f), so a
pair reads at a glance; every text is at least the toolkit's minimum size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

import pygame

from games.i18n import N_, _, format_number, ngettext
from games.piepmatz.cards import SEX_SIGNS, SPECIES_COLORS
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

PEST_COLOR: Color = (120, 40, 40)
SEED_COLOR: Color = (220, 200, 150)

#: the pests as the engine names them, marked for the catalogue (drawn as _(kind))
PEST_WORDS = (N_("squirrel"), N_("crow"))


def _bird_text(bird: Mapping[str, Any]) -> str:
    return f"{bird['value']}{SEX_SIGNS.get(str(bird['sex']), '')}"


class PiepmatzScene(Scene):
    title = "Piepmatz"

    def header(self, view: View) -> tuple[str, str]:
        phase = view.get("phase")
        if phase == "over":
            return self.title, _("game over")
        if phase == "final":
            chosen, players = len(view.get("final_chosen") or ()), len(view.get("hand_sizes") or ())
            return self.title, _("last two cards, face down: {chosen} of {players} chosen").format(
                chosen=format_number(chosen), players=format_number(players))
        where = _("Round {n}").format(n=format_number(int(view.get("round", 1))))
        if view.get("last_round"):
            where += " · " + _("last round")
        turn = view.get("turn")
        if turn is not None:
            step = {"play": _("plays a bird"), "crow": _("the crow: pick a bird"), "lay": _("lays a card"),
                    "take": _("takes from the offer")}.get(str(phase), "")
            where += " · " + _("Player {n} {step}").format(n=int(turn) + 1, step=step)
        return self.title, where

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        # the seed row takes the whole width (a pest's name is long in Polish); above it the
        # feeder and the offer on the left, the players on the right
        gap = lay.pad
        band_h = lay.min_text + gap + lay.size(1.9)
        band = pygame.Rect(area.left, area.bottom - band_h, area.width, band_h)
        top_h = band.top - gap * 2 - area.top
        left_w = area.width // 2
        left = pygame.Rect(area.left, area.top, left_w, top_h)
        right = pygame.Rect(area.left + left_w + gap * 2, area.top, area.width - left_w - gap * 2, top_h)
        self._feeder(surface, left, lay, view)
        self._seed_row(surface, band, lay, view)
        self._players(surface, right, lay, view, strip)

    # -- the feeder -------------------------------------------------------------------
    def _card(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, text: str, fill: Color,
              frame: Color | None = None) -> None:
        fill = theme.legible_fill(fill)
        panel(surface, r, fill, radius=max(4, r.height // 8))
        if frame is not None:
            pygame.draw.rect(surface, frame, r, width=max(3, r.height // 14), border_radius=max(4, r.height // 8))
        draw_text(surface, text, lay.size(1.15), theme.text_on(fill), r.inflate(-4, 0), min_size=lay.min_text)

    def _feeder(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        """One row per perch: the perched bird, its queue, and the queue's sum against the bird
        (numbers only, under a heading: a word per row did not fit); then the offer."""
        perches = list(view.get("perches", ()))
        row_h = lay.size(1.9)
        card_w = lay.size(2.1)
        gap = lay.pad
        sum_w = lay.size(1.0) * 4  # "12 > 6" and room to spare
        y = area.top
        draw_text(surface, _("perches and queues"), lay.min_text, theme.MUTED,
                  pygame.Rect(area.left, y, area.width - sum_w - gap, lay.min_text), align="left", min_size=lay.min_text)
        draw_text(surface, _("sum"), lay.min_text, theme.MUTED,
                  pygame.Rect(area.right - sum_w - gap, y, sum_w, lay.min_text), align="right", min_size=lay.min_text)
        y += lay.min_text + gap
        played = (view.get("played") or {}).get("id")
        for perch in perches:
            r = pygame.Rect(area.left, y, area.width, row_h)
            panel(surface, r, theme.PANEL)
            bird = perch["bird"]
            c = pygame.Rect(r.left + gap, r.top + gap // 2, card_w, row_h - gap)
            self._card(surface, c, lay, _bird_text(bird), SPECIES_COLORS.get(bird["species"], theme.MUTED), theme.FG)
            x = c.right + gap * 3
            queue_right = r.right - sum_w - gap * 2
            queue = list(perch["queue"])
            total, value = int(perch["sum"]), int(bird["value"])
            if not queue:
                draw_text(surface, _("empty queue"), lay.min_text, theme.MUTED,
                          pygame.Rect(x, r.top, queue_right - x, r.height), align="left", min_size=lay.min_text)
            for k, b in enumerate(queue):
                if x + card_w > queue_right or (k < len(queue) - 1 and x + 2 * card_w + gap > queue_right):
                    # no room for the rest: say how many more wait (never drop a card silently)
                    draw_text(surface, f"+{len(queue) - k}", lay.min_text, theme.FG,
                              pygame.Rect(x, r.top, queue_right - x, r.height), align="left", min_size=lay.min_text)
                    break
                q = pygame.Rect(x, c.top, card_w, c.height)
                self._card(surface, q, lay, _bird_text(b), SPECIES_COLORS.get(b["species"], theme.MUTED),
                           theme.PRESSED if b["id"] == played else None)
                x += card_w + gap
            if queue:
                verdict = f"{format_number(total)} {'>' if total > value else '≤'} {format_number(value)}"
                draw_text(surface, verdict, lay.min_text, theme.FG,
                          pygame.Rect(r.right - sum_w - gap, r.top, sum_w, r.height), align="right", min_size=lay.min_text)
            y += row_h + gap
        # the offer
        y += gap
        offer = list(view.get("offer", ()))
        label_w = min(area.width // 3, theme.TEXT.width(_("offer:"), lay.min_text) + gap)
        draw_text(surface, _("offer:"), lay.min_text, theme.MUTED,
                  pygame.Rect(area.left, y, label_w, row_h), align="left", min_size=lay.min_text)
        x = area.left + label_w + gap
        for b in offer:
            c = pygame.Rect(x, y + gap // 2, card_w, row_h - gap)
            self._card(surface, c, lay, _bird_text(b), SPECIES_COLORS.get(b["species"], theme.MUTED))
            x += card_w + gap

    def _seed_row(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        """Positions 1-4 (the difference that wins them), a pest beside a slot, then the
        feeder pile that a difference of 5 or more draws from; the bird pile's count above."""
        gap = lay.pad
        y = area.top
        half = (area.width - gap) // 2
        draw_text(surface, _("seed row (difference):"), lay.min_text, theme.MUTED,
                  pygame.Rect(area.left, y, half, lay.min_text), align="left", min_size=lay.min_text)
        birds = int(view.get("bird_pile", 0))
        draw_text(surface, ngettext("{n} bird in the pile", "{n} birds in the pile", birds).format(
                  n=format_number(birds)), lay.min_text, theme.MUTED,
                  pygame.Rect(area.right - half, y, half, lay.min_text), align="right", min_size=lay.min_text)
        y += lay.min_text + gap
        row_h = area.bottom - y
        row = list(view.get("row", ()))
        pests = list(view.get("pests", ()))
        # the pile's slot takes a quarter more than a card's: its text is the longest
        slot_w = (area.width - gap * len(row)) * 4 // (len(row) * 4 + 5)
        number_w = lay.min_text
        for i, card in enumerate(row):
            s = pygame.Rect(area.left + i * (slot_w + gap), y, slot_w, row_h)
            panel(surface, s, theme.PANEL)
            draw_text(surface, f"{i + 1}", lay.min_text, theme.MUTED,
                      pygame.Rect(s.left + gap, s.top, number_w, s.height), align="left", min_size=lay.min_text)
            inner = pygame.Rect(s.left + number_w + gap, s.top + gap // 2, s.width - number_w - 2 * gap, s.height - gap)
            pest = pests[i] if i < len(pests) else None
            if pest is not None:
                self._card(surface, inner, lay, _(str(pest["kind"])), PEST_COLOR)
            elif card is not None:
                eggs = int(card["eggs"])
                self._card(surface, inner, lay, ngettext("{n} egg", "{n} eggs", eggs).format(n=eggs), SEED_COLOR)
        left = area.left + len(row) * (slot_w + gap)
        pile = pygame.Rect(left, y, area.right - left, row_h)
        panel(surface, pile, theme.PANEL)
        draw_text(surface, _("5+: pile {n}").format(n=format_number(int(view.get("feeder_pile", 0)))), lay.min_text,
                  theme.FG, pile.inflate(-2 * gap, 0), min_size=lay.min_text)

    # -- the players ------------------------------------------------------------------
    def _players(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        collections = list(view.get("collections", ()))
        parts = list(view.get("score_parts", ()))
        status = list(view.get("status", ()))
        n = max(1, len(collections))
        gap = lay.pad
        block_h = min((area.height - gap * (n - 1)) // n, lay.size(1.2) * 3)
        for p, collection in enumerate(collections):
            r = pygame.Rect(area.left, area.top + p * (block_h + gap), area.width, block_h)
            on_turn = p < len(status) and status[p] in ("turn", "won")
            row_bg = theme.blend(theme.PANEL, self.color(view, p), 0.35) if on_turn else theme.PANEL
            panel(surface, r, row_bg)
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top, max(8, gap), r.height))
            inner = r.inflate(-3 * gap, -gap)
            half = inner.height // 2
            part = parts[p] if p < len(parts) else {}
            draw_text(surface, self.name(strip, p), lay.min_text, theme.FG,
                      pygame.Rect(inner.left, inner.top, inner.width * 6 // 10, half), align="left", min_size=lay.min_text)
            draw_text(surface, _("{n} pts").format(n=format_number(int(part.get("total", 0)))), lay.size(1.1), theme.FG,
                      pygame.Rect(inner.left + inner.width * 6 // 10, inner.top, inner.width * 4 // 10, half),
                      align="right", min_size=lay.min_text)
            pairs = int(part.get("pair_count", 0))
            eggs = int(part.get("eggs", 0))
            detail = ngettext("{p} pair", "{p} pairs", pairs).format(p=pairs) + " · " + \
                ngettext("{e} egg", "{e} eggs", eggs).format(e=eggs)
            # the pairs and eggs first (they score); the chips, one per species, in what is left
            detail_w = min(inner.width * 6 // 10, theme.TEXT.width(detail, lay.min_text) + gap)
            draw_text(surface, detail, lay.min_text, theme.readable_on(theme.MUTED, row_bg),
                      pygame.Rect(inner.right - detail_w, inner.top + half, detail_w, half), align="right",
                      min_size=lay.min_text)
            counts = Counter(str(b["species"]) for b in collection)
            chips = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
            room = inner.width - detail_w - gap
            step = min(lay.size(1.5) + gap // 2, room // max(1, len(chips)))
            for k, (species, count) in enumerate(chips):
                chip = pygame.Rect(inner.left + k * step, inner.top + half + 2, step - gap // 2, half - 4)
                self._card(surface, chip, lay, str(count), SPECIES_COLORS.get(species, theme.MUTED))
