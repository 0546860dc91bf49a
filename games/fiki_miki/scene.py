"""Fiki Miki on the shared screen, drawn from ``public_view()`` only.

Variant I: one column per stack (its kind, cards and pictures against the
threshold, the newest card's stack framed), the last bell race with who won
it and by what margin, and each player's collected cards and hand size; in
teaching mode (``open_hands``) the hands themselves. Variant II: the led kind,
the cards added to it, who leads and who follows, collected pictures.
Hands never appear otherwise: they are on the phones.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from games.arbitration import format_margin
from games.fiki_miki.cards import BLANK_COLOR, KIND_COLORS
from games.i18n import N_, _, format_number, ngettext
from games.toolkit import theme
from games.toolkit.art import FaceCache, picture_spots, placed
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

#: the kinds as the engine names them, marked for the catalogue (drawn as _(kind))
KIND_WORDS = (N_("mushroom"), N_("apple"), N_("leaf"), N_("star"))


def kind_color(kind: str | None, index: int = 0) -> Color:
    if kind is None:
        return BLANK_COLOR
    return KIND_COLORS.get(kind, theme.PALETTE[index % len(theme.PALETTE)])


# -- the card art: our own pictures, drawn in code ------------------------------------------
#: a card's paper and its pencil (the pictures' outline)
CARD_PAPER: Color = (250, 246, 232)
INK: Color = (48, 40, 34)


@dataclass(frozen=True)
class CardFace:
    """One card as drawn this frame: where it is and where each picture went
    (what the tests count, so a card of 4 apples is proved to show 4)."""

    kind: str | None
    pictures: int
    rect: pygame.Rect
    spots: tuple[pygame.Rect, ...]


def draw_picture(surface: pygame.Surface, kind: str, r: pygame.Rect, fill: Color | None = None) -> None:
    """One picture of ``kind`` filling the square ``r``, in the kind's colour
    (``fill``: another colour, e.g. a faded one for an empty stack's mark)."""
    color = fill or kind_color(kind)
    line = max(1, r.width // 14) if fill is None else 0
    ink = INK if fill is None else color
    if kind == "mushroom":
        stem = pygame.Rect(r.left + r.width * 36 // 100, r.top + r.height * 48 // 100, r.width * 28 // 100, r.height * 46 // 100)
        pygame.draw.rect(surface, CARD_PAPER if fill is None else color, stem, border_radius=max(1, stem.width // 3))
        if line:
            pygame.draw.rect(surface, ink, stem, width=line, border_radius=max(1, stem.width // 3))
        cap_poly = [(0.5 + 0.5 * math.cos(a), 0.55 - 0.5 * math.sin(a)) for a in [math.pi * k / 16 for k in range(17)]]
        pygame.draw.polygon(surface, color, placed(r, cap_poly))
        if line:
            pygame.draw.polygon(surface, ink, placed(r, cap_poly), width=line)
            for x, y, s in ((0.3, 0.33, 0.09), (0.55, 0.2, 0.08), (0.7, 0.4, 0.07)):
                pygame.draw.circle(surface, CARD_PAPER, (r.left + round(x * r.width), r.top + round(y * r.height)),
                                   max(1, round(s * r.width)))
    elif kind == "apple":
        body = pygame.Rect(r.left + r.width // 14, r.top + r.height * 22 // 100, r.width * 12 // 14, r.height * 76 // 100)
        pygame.draw.ellipse(surface, color, body)
        if line:
            pygame.draw.ellipse(surface, ink, body, width=line)
            pygame.draw.line(surface, ink, (r.centerx, body.top + line), (r.centerx + r.width // 12, r.top + r.height // 20),
                             max(2, line + 1))
            pygame.draw.ellipse(surface, (40, 120, 50), pygame.Rect(r.centerx + r.width // 12, r.top + r.height // 14,
                                                                    r.width * 3 // 10, r.height // 7))
            pygame.draw.circle(surface, CARD_PAPER, (body.left + body.width * 3 // 10, body.top + body.height * 3 // 10),
                               max(1, r.width // 12))
    elif kind == "leaf":
        outline = [(0.5, 0.02), (0.8, 0.25), (0.88, 0.55), (0.62, 0.85), (0.5, 0.9), (0.38, 0.85), (0.12, 0.55), (0.2, 0.25)]
        pygame.draw.polygon(surface, color, placed(r, outline))
        if line:
            pygame.draw.polygon(surface, ink, placed(r, outline), width=line)
            vein = placed(r, [(0.5, 0.12), (0.5, 0.99)])
            pygame.draw.line(surface, INK, vein[0], vein[1], line)
            for y in (0.35, 0.55):
                a, b, c = placed(r, [(0.26, y - 0.1), (0.5, y + 0.05), (0.74, y - 0.1)])
                pygame.draw.lines(surface, INK, False, [a, b, c], max(1, line - 1))
    else:  # star, and any kind a deck file may add: a star in its colour
        points = [(0.5 + (0.5 if k % 2 == 0 else 0.21) * math.sin(math.pi * k / 5),
                   0.54 - (0.5 if k % 2 == 0 else 0.21) * math.cos(math.pi * k / 5)) for k in range(10)]
        pygame.draw.polygon(surface, color, placed(r, points))
        if line:
            pygame.draw.polygon(surface, ink, placed(r, points), width=line)


#: drawn card faces by (kind, pictures, width, height, band height), and whole stacks: a frame blits them
_FACES = FaceCache()
_STACKS = FaceCache(32)


def face_layout(size: tuple[int, int], kind: str | None, pictures: int, band: int | None) -> list[pygame.Rect]:
    """Where the pictures sit on a card of ``size`` (relative to its top left):
    inside the border, in the top ``band`` only when the card lies under the next."""
    w, h = size
    edge = max(3, min(w, h) // 14)
    if band is None:
        inner = pygame.Rect(edge * 2, edge * 2, w - edge * 4, h - edge * 4)
    else:  # a band is low: the pictures take all of it but the frame
        inner = pygame.Rect(edge * 2, edge + 2, w - edge * 4, band - edge - 4)
    return picture_spots(inner, pictures if kind is not None else 0)


def card_face(size: tuple[int, int], kind: str | None, pictures: int, band: int | None) -> pygame.Surface:
    """The card drawn once (paper, a frame in its kind's colour, its pictures) and kept."""
    def draw(face: pygame.Surface) -> None:
        whole = face.get_rect()
        radius = max(4, min(size) // 8)
        edge = max(3, min(size) // 14)
        panel(face, whole, kind_color(kind), radius=radius)
        panel(face, whole.inflate(-2 * edge, -2 * edge), CARD_PAPER, radius=max(2, radius - edge))
        pygame.draw.rect(face, INK, whole, width=max(1, edge // 3), border_radius=radius)
        if kind is not None:
            for spot in face_layout(size, kind, pictures, band):
                draw_picture(face, kind, spot)

    return _FACES.get((kind, pictures, size, band), size, draw)


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the cards drawn in the last frame, with where their pictures went (the tests count them)
        self.faces: list[CardFace] = []
        #: each stack's title picture drawn in the last frame, by kind (the tests look for them)
        self.kind_marks: dict[str, pygame.Rect] = {}

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        self.faces = []
        self.kind_marks = {}
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
              band: int | None = None, record: bool = True) -> None:
        """A card: paper framed in its kind's colour with its pictures on it, as
        many as it counts (``band``: the card lies under the next one and only its
        top band shows, the pictures in that band). A blank card says so."""
        kind = None if card.get("kind") is None else str(card["kind"])
        pictures = int(card.get("pictures", 0))
        surface.blit(card_face(r.size, kind, pictures, band), r.topleft)
        if record:
            self._record(card, r, band)
        if kind is None:
            where = r if band is None else pygame.Rect(r.left, r.top, r.width, band)
            draw_text(surface, _("blank"), lay.min_text, theme.DARK_TEXT, where.inflate(-r.height // 7, 0),
                      min_size=lay.min_text)

    def _record(self, card: Mapping[str, Any], r: pygame.Rect, band: int | None) -> None:
        """Note a card drawn at ``r`` on the screen and where its pictures went."""
        kind = None if card.get("kind") is None else str(card["kind"])
        pictures = int(card.get("pictures", 0))
        spots = tuple(s.move(r.topleft) for s in face_layout(r.size, kind, pictures, band))
        self.faces.append(CardFace(kind, pictures, r.copy(), spots))

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
            landed = view.get("landed") == str(stack["kind"])
            if theme.DRAWN is None and theme.INKED is None:
                # a stack changes only when a card lands on it or it is taken: drawn once, then blitted
                cards = tuple((c.get("kind"), int(c.get("pictures", 0))) for c in stack["cards"])
                key = (r.size, lay, str(stack["kind"]), i, int(stack["pictures"]), cards, landed, threshold)
                draw = partial(self._stack, r=pygame.Rect((0, 0), r.size), lay=lay, stack=stack, index=i,
                               threshold=threshold, landed=landed)
                surface.blit(_STACKS.get(key, r.size, draw, under=theme.BG), r.topleft)
            else:  # a test measures the texts where they are on the screen
                self._stack(surface, r, lay, stack, i, threshold, landed)
            for card, where, band in self._fan(r, lay, list(stack["cards"])):
                self._record(card, where, band)
        if hands:
            self._open_hands(surface, pygame.Rect(area.left, area.top + stack_h + lay.pad, area.width,
                                                  area.height - stack_h - lay.pad), lay, view, list(hands))

    def _fan(self, r: pygame.Rect, lay: Layout, cards: list[Any]) -> list[tuple[Any, pygame.Rect, int | None]]:
        """Where a stack's cards lie: fanned downwards below its counts, each showing its top
        band (``band``), the newest at the bottom, whole; as many as there is room for."""
        line = lay.size(1.0) + lay.pad
        step = lay.size(1.25) + lay.pad
        top = r.top + 2 * line + lay.size(2.4)
        card_w = r.width - lay.pad * 4
        full_h = max(1, min(card_w * 3 // 4, r.bottom - lay.pad - top))
        room = max(1, (r.bottom - lay.pad - full_h - top) // step + 1)
        shown = cards[-room:]
        return [(card, pygame.Rect(r.left + lay.pad * 2, top + k * step, card_w, full_h),
                 None if k == len(shown) - 1 else step) for k, card in enumerate(shown)]

    def _stack(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, stack: Mapping[str, Any], index: int,
               threshold: int, landed: bool) -> None:
        """One stack's column: its kind, its pictures against the threshold, its cards."""
        kind = str(stack["kind"])
        fill = kind_color(kind, index)
        stack_bg = theme.blend(theme.PANEL, fill, 0.25)
        panel(surface, r, stack_bg)
        if landed:
            pygame.draw.rect(surface, theme.PRESSED, r, width=max(3, lay.pad // 2), border_radius=max(4, r.height // 20))
        line = lay.size(1.0) + lay.pad
        self._kind_title(surface, pygame.Rect(r.left, r.top + lay.pad, r.width, line), lay, kind)
        pictures = int(stack["pictures"])
        draw_text(surface, f"{format_number(pictures)}/{format_number(threshold)}", lay.size(2.2),
                  theme.GOOD if pictures >= threshold else theme.FG,
                  pygame.Rect(r.left, r.top + line, r.width, lay.size(2.4)), min_size=lay.min_text)
        cards = list(stack["cards"])
        draw_text(surface, ngettext("{n} card", "{n} cards", len(cards)).format(n=len(cards)), lay.min_text,
                  theme.readable_on(theme.MUTED, stack_bg), pygame.Rect(r.left, r.top + line + lay.size(2.4), r.width, line),
                  min_size=lay.min_text)
        if not cards:  # an empty stack shows, faded, what it collects
            top = r.top + 2 * line + lay.size(2.4)
            side = min(r.width - lay.pad * 4, r.bottom - lay.pad - top) * 3 // 4
            draw_picture(surface, kind, pygame.Rect(r.centerx - side // 2, top + lay.pad, side, side),
                         theme.blend(stack_bg, fill, 0.45))
        for card, where, band in self._fan(r, lay, cards):
            self._card(surface, where, lay, card, index, band=band, record=False)

    def _kind_title(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, kind: str) -> None:
        """A stack's kind: its picture and its word, centred together. The
        word is never cut: a word too long beside the picture (English
        "mushroom") keeps the room, the cards below show the picture; in a
        stack too narrow for the word the picture alone says it."""
        word = _(kind)
        side = r.height - lay.pad // 2
        text_w = theme.TEXT.width(word, lay.min_text)
        gap = lay.pad // 2  # each side of the pair, and between picture and word: a stack is narrow
        if text_w + side + 3 * gap > r.width:  # a smaller picture first (Polish "gwiazda" beside its star)
            side = max(r.width - text_w - 3 * gap, 0)
            if side < lay.min_text * 2 // 3:
                side = 0
        if side == 0:
            text_w = min(text_w, r.width - 2 * gap)
            if theme.TEXT.width(word, lay.min_text) > text_w:  # narrow stacks beside the phones' panel: the
                side = r.height - lay.pad // 2  # kind's own picture says it (a mushroom is drawn as one), never "mushr…"
                self._kind_mark(surface, kind, pygame.Rect(r.centerx - side // 2, r.top, side, side))
                return
        left = r.centerx - (side + (gap if side else 0) + text_w) // 2
        if side > 0:
            self._kind_mark(surface, kind, pygame.Rect(left, r.top + (r.height - lay.pad // 2 - side) // 2, side, side))
            left += side + gap
        draw_text(surface, word, lay.min_text, theme.FG, pygame.Rect(left, r.top, text_w, r.height),
                  align="left", min_size=lay.min_text)

    def _kind_mark(self, surface: pygame.Surface, kind: str, r: pygame.Rect) -> None:
        draw_picture(surface, kind, r)
        self.kind_marks[kind] = r

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
            card_w = max(lay.size(1.6), min(r.height * 2, (r.right - x) // max(1, len(hand)) - lay.pad))
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
        card_w = min(lay.size(4.5), (area.width - lay.pad * (n + 1)) // n)
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
        takes = ""
        if winner is not None:
            head = _("{name} rang first").format(name=self.name(strip, int(winner)))
            if race.get("stack"):
                takes = ngettext("takes the {kind} stack ({n} card)", "takes the {kind} stack ({n} cards)",
                                 int(race.get("cards", 0))).format(kind=_(str(race["stack"])), n=race.get("cards", 0))
        else:
            head = _("tie: {names}").format(names=", ".join(self.name(strip, int(p)) for p in race.get("tied", ())))
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
        if takes:  # what they take beside the margin, or else the margin beside who won (one line was cut)
            if theme.TEXT.width(takes + " · " + detail, lay.min_text) <= inner.width:
                detail = takes + " · " + detail
            else:
                head, detail = head + " · " + detail, takes
        draw_text(surface, head, lay.size(1.1), theme.FG, pygame.Rect(inner.left, inner.top, inner.width, half),
                  align="left", min_size=lay.min_text)
        draw_text(surface, detail, lay.min_text, theme.MUTED if not takes else theme.FG,
                  pygame.Rect(inner.left, inner.top + half, inner.width, half), align="left", min_size=lay.min_text)

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
