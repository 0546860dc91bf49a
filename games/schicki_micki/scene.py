"""Schicki Micki on the shared screen: the row of table cards, the pawns, the
deck, the reaction window, and — for a few seconds after each window — who
was first, by how much, and what everyone got or gave back.

Cards and pawns are drawn in code (``art.py``); each accessory colour has a
pattern too, for colour-blind players: red plain, blue horizontal stripes,
yellow dots, green vertical stripes, pink diagonal stripes, purple grid,
orange zigzag (legend in docs/display.md).

Drawn from ``public_view()`` only: table, pawns, deck count, reactions,
window and next-turn times, ``last_resolution`` and ``result``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pygame

from games.i18n import N_, _, format_number, ngettext
from games.schicki_micki import art
from games.schicki_micki.strip import early, outcome_words, worded_strip
from games.toolkit import theme
from games.toolkit.results import Celebration, draw_confetti, draw_podium, rise
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text, panel

#: how long the resolution panel stays up (unless the next card comes first)
RESOLUTION_US = 4_000_000
#: the newest card's frame: it is the one players react to
NEW_CARD: theme.Color = (255, 179, 0)
#: the most rows the table may wrap into before cards shrink further
MAX_ROWS = 3

#: the accessories as the engine names them, marked for the catalogue (drawn as _(name))
ACCESSORY_WORDS = (N_("umbrella"), N_("hat"), N_("scarf"), N_("beak"), N_("tail"), N_("worm"))
SITUATIONS = {
    "one_pair": N_("one pair"), "several_pairs": N_("several pairs"), "two_worms": N_("a two-worm hen"),
    "identical": N_("two identical cards"), "nothing": N_("no pair"),
}


def reaction_words(kind: str, accessory: str | None = None) -> str:
    """What a player did, as the screen says it."""
    if kind == "call":
        return _("called {accessory}").format(accessory=_(accessory)) if accessory else _("called")
    return {"knock": _("knocked"), "blue": _("grabbed blue"), "red": _("grabbed red")}.get(kind, kind)


def fmt_ahead(us: int) -> str:
    """The winner's margin: '0.412 ms ahead' (µs shown: the box decides to the µs)."""
    if us >= 1_000_000:
        return _("{n} s ahead").format(n=format_number(us / 1_000_000, 2))
    return _("{n} ms ahead").format(n=format_number(us / 1000, 3))


def table_grid(n: int, area: pygame.Rect, gap: int) -> list[pygame.Rect]:
    """Rects for ``n`` cards in ``area``: one row while cards stay large enough,
    then up to ``MAX_ROWS`` rows; cards shrink as the table grows, never overflow."""
    if n == 0:
        return []
    best_w: float = 0.0
    best_rows = 1
    for rows in range(1, min(MAX_ROWS, n) + 1):
        per_row = -(-n // rows)
        w = min((area.width - gap * (per_row - 1)) / per_row, ((area.height - gap * (rows - 1)) / rows) / art.ASPECT)
        if w > best_w * 1.15:  # another row only when it makes cards clearly bigger
            best_w, best_rows = w, rows
    w = max(8, int(best_w))
    h = round(w * art.ASPECT)
    per_row = -(-n // best_rows)
    rects = []
    total_h = best_rows * h + (best_rows - 1) * gap
    top = area.top + (area.height - total_h) // 2
    for i in range(n):
        row, col = divmod(i, per_row)
        in_row = min(per_row, n - row * per_row)
        left = area.centerx - (in_row * w + (in_row - 1) * gap) // 2
        rects.append(pygame.Rect(left + col * (w + gap), top + row * (h + gap), w, h))
    return rects


class SchickiMickiScene(Scene):
    title = "Schicki Micki"
    own_results = True  # the end screen counts cards and says why the game ended

    def __init__(self, title: str | None = None, colors: Sequence[theme.Color] | None = None) -> None:
        super().__init__(title, colors)
        self.art = art.CardArt()
        self._backs: dict[int, pygame.Surface] = {}
        #: where the last frame drew each table card, the pawns and the panels (tests read these)
        self.card_rects: list[pygame.Rect] = []
        self.pawn_rects: dict[str, list[pygame.Rect]] = {"blue": [], "red": []}
        self.resolution_rect: pygame.Rect | None = None
        self.status_rect: pygame.Rect | None = None
        self.celebration = Celebration()

    # -- header and strip -----------------------------------------------------------
    def header(self, view: View) -> tuple[str, str]:
        if view.get("phase") == "over":
            return self.title, _("game over")
        turned = int(view.get("cards_turned", 0))
        on_table = len(view.get("table", ()))
        if not turned:
            return self.title, _("get ready")
        if not on_table:
            taken = len((view.get("last_resolution") or {}).get("cards", ()))
            if taken:  # the cards just won are still shown beside who won them
                return self.title, ngettext("card {n} · {k} card won", "card {n} · {k} cards won", taken).format(n=turned, k=taken)
            return self.title, _("card {n} · table empty").format(n=turned)
        return self.title, ngettext("card {n} · {k} table card", "card {n} · {k} table cards", on_table).format(n=turned, k=on_table)

    def title_card(self, view: View) -> bool:
        return view.get("phase") == "waiting" and not view.get("cards_turned") and not view.get("last_resolution")

    def title_hint(self, view: View) -> str:
        return _("A pair on the table? Knock, call it or grab a pawn: the first right one takes the cards.")

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        return worded_strip(view, strip)  # games/schicki_micki/strip.py: the phones' pages word the strip so too

    # -- the body ------------------------------------------------------------------
    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        self.card_rects, self.pawn_rects, self.resolution_rect, self.status_rect = [], {"blue": [], "red": []}, None, None
        if view.get("phase") == "over" and view.get("result"):
            self._over(surface, area, lay, view, strip, now_us)
            return
        band_h = max(round(area.height * 0.32), lay.min_text * 3)
        top = pygame.Rect(area.left, area.top, area.width, area.height - band_h - lay.pad)
        band = pygame.Rect(area.left, top.bottom + lay.pad, area.width, band_h)
        res = view.get("last_resolution")
        if self._resolution_showing(view, now_us):
            self._resolution(surface, top, lay, view, strip, res if res is not None else {})
        else:
            self._table(surface, top, lay, view)
        pawns_w = round(band.width * 0.42)
        deck_w = round(band.width * 0.2)
        self._pawns(surface, pygame.Rect(band.left, band.top, pawns_w, band.height), lay, view, strip)
        self._deck(surface, pygame.Rect(band.right - deck_w, band.top, deck_w, band.height), lay, view)
        mid = pygame.Rect(band.left + pawns_w + lay.pad, band.top, band.width - pawns_w - deck_w - 2 * lay.pad, band.height)
        self._status(surface, mid, lay, view, now_us)

    @staticmethod
    def _resolution_showing(view: View, now_us: int) -> bool:
        """The resolution stays up a few seconds, and gives way to the next card."""
        res = view.get("last_resolution")
        if not res or view.get("phase") not in ("waiting", "showing"):
            return False
        t = int(res.get("t_us", 0))
        t_show = view.get("t_show_us")
        if t_show is not None and int(t_show) > t and view.get("phase") != "waiting":
            return False
        return now_us - t < RESOLUTION_US

    def _table(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        table = list(view.get("table", ()))
        if not table:
            panel(surface, area, theme.PANEL)
            text = _("the table is empty: next card coming") if view.get("cards_turned") else _("get ready: cards are coming")
            draw_text(surface, text, lay.size(1.3), theme.MUTED, area.inflate(-4 * lay.pad, 0), min_size=lay.min_text)
            return
        frame = max(3, lay.pad // 2)
        self.card_rects = table_grid(len(table), area.inflate(-2 * frame, -2 * frame), lay.pad + frame)
        newest = view.get("phase") in ("showing", "window")
        for k, (card, r) in enumerate(zip(table, self.card_rects, strict=True)):
            if newest and k == len(table) - 1:
                pygame.draw.rect(surface, NEW_CARD, r.inflate(2 * frame, 2 * frame), border_radius=max(4, r.width // 12))
            surface.blit(self.art.face(card, r.width), r)

    def _pawns(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """Blue pawns, then the red one: a taken pawn is drawn in its taker's
        colour on its own coloured base, with the taker's name under it."""
        panel(surface, area, theme.PANEL)
        pawns = view.get("pawns") or {}
        slots: list[tuple[str, int | None]] = [("blue", h) for h in pawns.get("blue", ())]
        slots.append(("red", pawns.get("red")))
        slot_w = area.width // len(slots)
        label_h = lay.min_text + lay.pad
        fig_h = area.height - label_h - 2 * lay.pad
        fig_w = min(round(slot_w * 0.6), round(fig_h * 0.75))
        for k, (kind, holder) in enumerate(slots):
            slot = pygame.Rect(area.left + k * slot_w, area.top, slot_w, area.height)
            ring = art.PAWN_BLUE if kind == "blue" else art.PAWN_RED
            fill = ring if holder is None else self.color(view, int(holder))
            fig = pygame.Rect(slot.centerx - fig_w // 2, slot.top + lay.pad, fig_w, fig_h)
            art.draw_pawn(surface, fig, fill, ring)
            self.pawn_rects[kind].append(fig)
            if holder is not None:  # a free pawn is simply its own colour: no label to explain
                draw_text(surface, self.name(strip, int(holder)), lay.min_text, theme.FG,
                          pygame.Rect(slot.left + lay.pad // 2, fig.bottom, slot.width - lay.pad, label_h), min_size=lay.min_text)

    def _deck(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        panel(surface, area, theme.PANEL)
        count = int(view.get("deck", 0))
        back_h = area.height - 2 * lay.pad
        back_w = min(round(back_h / art.ASPECT), area.width // 3)
        if count:
            if back_w not in self._backs:
                self._backs[back_w] = art.draw_back(back_w)
            back = self._backs[back_w]
            surface.blit(back, back.get_rect(midleft=(area.left + 2 * lay.pad, area.centery)))
        text = pygame.Rect(area.left + back_w + 3 * lay.pad, area.top, area.width - back_w - 4 * lay.pad, area.height)
        draw_text(surface, str(count), lay.size(2.2), theme.FG, pygame.Rect(text.left, text.top, text.width, text.height * 6 // 10),
                  min_size=lay.min_text)
        draw_text(surface, _("in deck"), lay.min_text, theme.MUTED,
                  pygame.Rect(text.left, text.top + text.height * 55 // 100, text.width, text.height * 4 // 10), min_size=lay.min_text)

    def _status(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, now_us: int) -> None:
        """The countdown that matters now: the reaction window, else the next card."""
        self.status_rect = area
        phase = view.get("phase")
        closes = view.get("window_closes_us")
        big = pygame.Rect(area.left, area.top, area.width, area.height * 6 // 10).inflate(-2 * lay.pad, 0)
        small = pygame.Rect(area.left, area.top + area.height * 55 // 100, area.width, area.height * 4 // 10).inflate(-2 * lay.pad, 0)
        if phase == "window" and closes is not None:
            left = max(0, int(closes) - now_us)
            fill = NEW_CARD
            panel(surface, area, fill)
            reactions = list(view.get("reactions", ()))
            opened = min((int(r["t_us"]) for r in reactions), default=int(closes) - 1_500_000)
            total = max(1, int(closes) - opened)
            bar_h = max(6, area.height // 12)
            track = pygame.Rect(area.left + 2 * lay.pad, area.bottom - bar_h - lay.pad, area.width - 4 * lay.pad, bar_h)
            bar = pygame.Rect(track.left, track.top, round(track.width * min(1.0, left / total)), bar_h)
            pygame.draw.rect(surface, theme.DARK_TEXT, bar)
            draw_text(surface, _("react! {n} s").format(n=format_number(left / 1_000_000, 1)), lay.size(1.8), theme.DARK_TEXT, big, min_size=lay.min_text)
            n = len(reactions)
            draw_text(surface, ngettext("{n} player reacted", "{n} players reacted", n).format(n=n), lay.min_text, theme.DARK_TEXT, small, min_size=lay.min_text)
            return
        panel(surface, area, theme.PANEL)
        headline = self.next_card_text(view, now_us)
        hint = _("pair? knock, call, grab!") if phase == "showing" else _("watch the table")
        draw_text(surface, headline, lay.size(1.5), theme.FG, big, min_size=lay.min_text)
        draw_text(surface, hint, lay.min_text, theme.MUTED, small, min_size=lay.min_text)

    @staticmethod
    def next_card_text(view: View, now_us: int) -> str:
        """'next card 2.1 s' when the box turns the cards, else who does."""
        nxt = view.get("next_turn_us")
        if nxt is not None:
            return _("next card {n} s").format(n=format_number(max(0, int(nxt) - now_us) / 1_000_000, 1))
        return _("host: next card") if view.get("phase") == "showing" else _("host turns a card")

    def _resolution(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
                    res: Mapping[str, Any]) -> None:
        """Who was first and by how much, in the first player's colour; then
        every reaction and what it earned."""
        outcomes = sorted(res.get("outcomes", ()), key=lambda o: int(o.get("reaction_us", 0)))
        first = res.get("first")
        tied = list(res.get("tied", ()))
        cards = list(res.get("cards", ()))
        if cards:  # the cards it talks about stay in view, smaller, on the left
            cards_w = min(area.width * 30 // 100, round(area.height * 0.9 / art.ASPECT) * 2)
            shelf = pygame.Rect(area.left, area.top, cards_w, area.height)
            panel(surface, shelf, theme.PANEL)
            frame = max(3, lay.pad // 2)
            self.card_rects = table_grid(len(cards), shelf.inflate(-2 * lay.pad, -2 * lay.pad), lay.pad // 2 + frame)
            for card, r in zip(cards, self.card_rects, strict=True):
                surface.blit(self.art.face(card, r.width), r)
            area = pygame.Rect(shelf.right + lay.pad, area.top, area.right - shelf.right - lay.pad, area.height)
        self.resolution_rect = area
        head_h = min(area.height * 45 // 100, lay.size(4.2))
        head = pygame.Rect(area.left, area.top, area.width, head_h)
        fill = self.color(view, int(first)) if first is not None else NEW_CARD if tied else theme.PANEL
        line = self.headline(res, strip, view)
        ink = theme.text_on(fill)
        panel(surface, head, fill)
        inner = head.inflate(-4 * lay.pad, 0)
        draw_text(surface, line, lay.size(2), ink, pygame.Rect(inner.left, head.top, inner.width, head_h * 62 // 100),
                  min_size=lay.min_text)
        situation = SITUATIONS.get(str(res.get("situation")))
        what = _("on the table: {what}").format(what=_(situation) if situation else res.get("table") or "")
        draw_text(surface, what, lay.min_text, ink, pygame.Rect(inner.left, head.top + head_h * 55 // 100, inner.width, head_h * 4 // 10),
                  min_size=lay.min_text)
        row_h = lay.size(1.15)
        y0 = head.bottom + lay.pad
        fits = max(1, (area.bottom - y0 + lay.pad) // (row_h + lay.pad))
        cols = 1 if len(outcomes) <= fits else 2
        col_w = (area.width - (cols - 1) * lay.pad) // cols
        inner_w = col_w - 4 * lay.pad
        # what each row earned as wide as the longest says it ("nie miał(a) czego oddać"), what each did as
        # wide as its longest, the names the rest (never under a quarter: then what they did gives way)
        out_w = min(inner_w // 2, max((theme.TEXT.width(outcome_words(o), lay.min_text) for o in outcomes), default=0))
        did_need = max((theme.TEXT.width(reaction_words(str(o["reaction"]), o.get("accessory")), lay.min_text)
                        for o in outcomes), default=0)
        gap = 2 * lay.pad
        for k, o in enumerate(outcomes):
            col, row = divmod(k, fits) if cols == 2 else (0, k)
            r = pygame.Rect(area.left + col * (col_w + lay.pad), y0 + row * (row_h + lay.pad), col_w, row_h)
            if r.bottom > area.bottom or col >= cols:
                break
            p = int(o["player"])
            won = o.get("result") in ("all", "one")
            panel(surface, r, theme.blend(theme.PANEL, self.color(view, p), 0.35) if won else theme.PANEL)
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top, max(8, row_h // 4), r.height))
            inner = r.inflate(-4 * lay.pad, 0)
            w = inner.width
            # two columns leave no room for what each did: the strip below says it, the row keeps the outcome
            did_w = min(did_need, w - out_w - 2 * gap - w // 4) if cols == 1 else 0
            did_w = did_w if did_w > 0 else 0
            name_w = w - out_w - did_w - 2 * gap
            draw_text(surface, self.name(strip, p), lay.min_text, theme.FG, pygame.Rect(inner.left, r.top, name_w, r.height),
                      align="left", min_size=lay.min_text)
            if did_w:
                draw_text(surface, reaction_words(str(o["reaction"]), o.get("accessory")), lay.min_text, theme.MUTED,
                          pygame.Rect(inner.left + name_w + gap, r.top, did_w, r.height), align="left", min_size=lay.min_text)
            color = theme.GOOD if won else theme.BAD if o.get("result") == "return" and int(o.get("change", 0)) < 0 else theme.FG
            color = theme.readable_on(color, theme.blend(theme.PANEL, self.color(view, p), 0.35) if won else theme.PANEL)
            right = inner.left + name_w + gap + did_w + gap
            draw_text(surface, outcome_words(o), lay.min_text, color, pygame.Rect(right, r.top, inner.right - right, r.height),
                      align="right", min_size=lay.min_text)

    def headline(self, res: Mapping[str, Any], strip: Strip, view: View) -> str:
        """'Anna knocked first, 0.412 ms ahead' (ahead of the next reaction)."""
        first = res.get("first")
        tied = list(res.get("tied", ()))
        if first is not None:
            o = next((o for o in res.get("outcomes", ()) if int(o["player"]) == int(first)), None)
            did = reaction_words(str(o["reaction"]), o.get("accessory")) if o else _("reacted")
            ahead = res.get("ahead_us")
            who = self.name(strip, int(first))
            if ahead is None:
                return _("{name} {did} first, alone").format(name=who, did=did)
            return _("{name} {did} first, {ahead}").format(name=who, did=did, ahead=fmt_ahead(int(ahead)))
        if tied:
            return _("{names} tied for first").format(names=_(" and ").join(self.name(strip, int(p)) for p in tied))
        jumped = [int(o["player"]) for o in res.get("outcomes", ()) if early(o)]
        if jumped:  # they did react, before the card was on screen: the rules drop it, the screen says so
            return _("{names}: too early, before the card").format(names=_(" and ").join(self.name(strip, p) for p in jumped))
        return _("nobody reacted")

    def _over(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        """The end: why it ended, then the podium: the winner(s) in their colour, everyone's cards."""
        result = view["result"]
        scores = list(result.get("scores", view.get("scores", ())))
        owed = list(view.get("owed", ()))
        reason = _(str(result.get("reason", "")))
        head = pygame.Rect(area.left, area.top, area.width, lay.size(1.2))
        self.resolution_rect = pygame.Rect(area.left, head.bottom, area.width, area.bottom - head.bottom)
        draw_text(surface, reason, lay.min_text, theme.MUTED, head, min_size=lay.min_text)
        order = sorted(range(len(scores)), key=lambda p: (-int(scores[p]), p))
        rows: list[tuple[int, list[int], int]] = []
        for k, p in enumerate(order):
            place = rows[-1][0] if rows and rows[-1][2] == int(scores[p]) else k + 1
            rows.append((place, [p], int(scores[p])))

        def detail(members: list[int]) -> str | None:
            p = members[0]
            return _("{n} owed").format(n=owed[p]) if p < len(owed) and owed[p] else None

        age = self.celebration.age(tuple(scores), now_us)
        draw_confetti(surface, self.resolution_rect, age, [self.color(view, r[1][0]) for r in rows[:3]] + [NEW_CARD])
        self.resolution_rect = draw_podium(surface, self.resolution_rect, lay, rows, lambda m: self.color(view, m[0]), lambda m: self.name(strip, m[0]),
                    lambda n: ngettext("{n} card", "{n} cards", n).format(n=n), detail, rise(age))
