"""Piepmatz on the shared screen, drawn from ``public_view()`` only (never a hand).

Left: the feeder, one line per perch (the perched bird, its queue and the
queue's sum against it), the seed row with the pests beside it, the offer and
the piles. Right: each player's collection (birds per species, pairs), eggs
and running score; the header says whose turn it is.

A bird is a card framed in its species' colour with the bird drawn in it,
its value and its sex as the ♂/♀ symbol, so a pair reads at a glance; a seed
card shows its eggs, a crow or a squirrel is drawn beside its position. Every
text is at least the toolkit's minimum size.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pygame

from games.i18n import N_, _, format_number, ngettext
from games.piepmatz.cards import SPECIES_COLORS
from games.toolkit import theme
from games.toolkit.art import FaceCache, picture_spots, placed
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

PEST_COLOR: Color = (120, 40, 40)
SEED_COLOR: Color = (220, 200, 150)

#: the pests as the engine names them, marked for the catalogue (drawn as _(kind))
PEST_WORDS = (N_("squirrel"), N_("crow"))


# -- the card art: our own birds, eggs and pests, drawn in code --------------------------------
#: a card's paper, its pencil (outlines), and the colours of the pictures
CARD_PAPER: Color = (250, 246, 232)
INK: Color = (40, 34, 30)
BEAK: Color = (240, 150, 30)
EGG: Color = (196, 226, 236)
SPECKLE: Color = (120, 90, 70)
CROW: Color = (22, 22, 28)
SQUIRREL: Color = (196, 96, 36)
#: how much of its species' colour a bird card's paper takes (the species reads from afar, the value on it still black)
BIRD_TINT = 0.22
#: the sex symbols' colours (the shape says it; the colour helps): dark blue ♂, dark magenta ♀
SEX_COLORS: dict[str, Color] = {"m": (24, 64, 170), "f": (170, 24, 104)}
PEST_COLORS: dict[str, Color] = {"crow": CROW, "squirrel": SQUIRREL}


def _stroke(surface: pygame.Surface, color: Color, ends: list[tuple[int, int]], width: int) -> None:
    pygame.draw.line(surface, color, ends[0], ends[1], width)


def draw_bird(surface: pygame.Surface, r: pygame.Rect, color: Color, crow: bool = False) -> None:
    """A perching bird facing right filling ``r``: tail, body, wing, head,
    beak, eye, legs (a crow: black, with a heavy beak)."""
    line = max(1, r.width // 22)
    wing = theme.blend(color, INK, 0.35)
    for leg in ([(0.42, 0.78), (0.38, 0.97)], [(0.56, 0.78), (0.58, 0.97)]):
        _stroke(surface, INK, placed(r, leg), line)
    tail = placed(r, [(0.0, 0.5), (0.34, 0.5), (0.36, 0.72), (0.04, 0.66)])
    pygame.draw.polygon(surface, wing, tail)
    pygame.draw.polygon(surface, INK, tail, line)
    body = pygame.Rect(*placed(r, [(0.16, 0.34)])[0], round(r.width * 0.6), round(r.height * 0.48))
    pygame.draw.ellipse(surface, color, body)
    pygame.draw.ellipse(surface, INK, body, line)
    beak = [(0.84, 0.25), (1.0, 0.38), (0.84, 0.46)] if crow else [(0.86, 0.3), (0.99, 0.37), (0.86, 0.43)]
    pygame.draw.polygon(surface, INK if crow else BEAK, placed(r, beak))
    pygame.draw.polygon(surface, INK, placed(r, beak), line)
    head = placed(r, [(0.71, 0.34)])[0]
    pygame.draw.circle(surface, color, head, round(r.width * 0.19))
    pygame.draw.circle(surface, INK, head, round(r.width * 0.19), line)
    wing_r = pygame.Rect(*placed(r, [(0.26, 0.46)])[0], round(r.width * 0.36), round(r.height * 0.22))
    pygame.draw.ellipse(surface, wing, wing_r)
    eye = placed(r, [(0.76, 0.3)])[0]
    pygame.draw.circle(surface, CARD_PAPER, eye, max(2, r.width // 14))
    pygame.draw.circle(surface, INK, eye, max(1, r.width // 28))


def draw_squirrel(surface: pygame.Surface, r: pygame.Rect) -> None:
    """A squirrel sitting up, facing right, its bushy tail curled behind it."""
    line = max(1, r.width // 22)
    dark = theme.blend(SQUIRREL, INK, 0.3)
    tail = pygame.Rect(*placed(r, [(0.0, 0.04)])[0], round(r.width * 0.46), round(r.height * 0.8))
    pygame.draw.ellipse(surface, dark, tail)
    pygame.draw.ellipse(surface, INK, tail, line)
    body = pygame.Rect(*placed(r, [(0.32, 0.38)])[0], round(r.width * 0.42), round(r.height * 0.56))
    pygame.draw.ellipse(surface, SQUIRREL, body)
    pygame.draw.ellipse(surface, INK, body, line)
    ear = placed(r, [(0.66, 0.24), (0.72, 0.04), (0.82, 0.22)])
    pygame.draw.polygon(surface, SQUIRREL, ear)
    pygame.draw.polygon(surface, INK, ear, line)
    head = placed(r, [(0.74, 0.34)])[0]
    pygame.draw.circle(surface, SQUIRREL, head, round(r.width * 0.17))
    pygame.draw.circle(surface, INK, head, round(r.width * 0.17), line)
    pygame.draw.circle(surface, INK, placed(r, [(0.8, 0.3)])[0], max(2, r.width // 20))
    nut = placed(r, [(0.7, 0.66)])[0]
    pygame.draw.circle(surface, (140, 90, 40), nut, max(2, r.width // 11))
    pygame.draw.circle(surface, INK, nut, max(2, r.width // 11), max(1, line - 1))


def draw_sex(surface: pygame.Surface, r: pygame.Rect, sex: str) -> None:
    """♂ (a circle with an arrow) or ♀ (a circle with a cross), drawn thick in ``r``."""
    color = SEX_COLORS.get(sex, INK)
    width = max(2, r.width // 7)
    if sex == "f":
        centre, radius = placed(r, [(0.5, 0.33)])[0], round(r.width * 0.28)
        _stroke(surface, color, placed(r, [(0.5, 0.6), (0.5, 1.0)]), width)
        _stroke(surface, color, placed(r, [(0.28, 0.82), (0.72, 0.82)]), width)
    else:
        centre, radius = placed(r, [(0.4, 0.6)])[0], round(r.width * 0.28)
        tip = placed(r, [(0.95, 0.05)])[0]
        pygame.draw.line(surface, color, placed(r, [(0.58, 0.42)])[0], tip, width)
        pygame.draw.polygon(surface, color, placed(r, [(0.98, 0.02), (0.56, 0.06), (0.94, 0.44)]))
    pygame.draw.circle(surface, color, centre, radius, width)


def draw_egg(surface: pygame.Surface, r: pygame.Rect) -> None:
    """One speckled egg, upright in ``r``."""
    egg = r.inflate(-(r.width * 26 // 100), 0)
    pygame.draw.ellipse(surface, EGG, egg)
    pygame.draw.ellipse(surface, INK, egg, max(1, r.width // 18))
    for x, y in ((0.42, 0.4), (0.58, 0.55), (0.45, 0.7), (0.6, 0.32)):
        pygame.draw.circle(surface, SPECKLE, placed(r, [(x, y)])[0], max(1, r.width // 20))


@dataclass(frozen=True)
class BirdFace:
    """A bird card as drawn this frame (what the tests find on the screen)."""

    species: str
    sex: str
    value: int
    rect: pygame.Rect
    picture: pygame.Rect
    sign: pygame.Rect


@dataclass(frozen=True)
class SeedFace:
    """A seed row position as drawn: its eggs and the pest beside it, if any."""

    position: int
    eggs: tuple[pygame.Rect, ...]
    pest: str | None
    pest_rect: pygame.Rect | None


def bird_layout(size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, int]:
    """A bird card's parts (relative to its top left): the picture, the value's
    place, the sex symbol, and the frame's width."""
    w, h = size
    edge = max(3, h // 9)
    inner = pygame.Rect(edge, edge, w - 2 * edge, h - 2 * edge)
    picture = pygame.Rect(inner.left, inner.top, min(inner.height, inner.width // 2), inner.height)
    side = min(inner.height * 55 // 100, inner.width // 4)
    sign = pygame.Rect(inner.right - side - edge // 2, inner.centery - side // 2, side, side)
    value = pygame.Rect(picture.right, inner.top, sign.left - picture.right, inner.height)
    return picture, value, sign, edge


#: drawn card faces (birds, seed cards, pests) by what they show and their size
_FACES = FaceCache()


def _paper(face: pygame.Surface, frame: Color, edge: int, tint: float = 0.0) -> None:
    """A card's paper in a frame of ``frame`` (``tint``: the paper takes that much of the frame's colour)."""
    whole = face.get_rect()
    radius = max(4, whole.height // 8)
    panel(face, whole, frame, radius=radius)
    panel(face, whole.inflate(-2 * edge, -2 * edge), theme.blend(CARD_PAPER, frame, tint), radius=max(2, radius - edge))
    pygame.draw.rect(face, INK, whole, width=max(1, edge // 4), border_radius=radius)


def bird_face(size: tuple[int, int], species: str, sex: str) -> pygame.Surface:
    def draw(face: pygame.Surface) -> None:
        picture, _value, sign, edge = bird_layout(size)
        color = SPECIES_COLORS.get(species, theme.MUTED)
        _paper(face, color, edge, BIRD_TINT)
        draw_bird(face, picture.inflate(-(edge // 2), -(edge // 2)), color)
        draw_sex(face, sign, sex)
    return _FACES.get(("bird", species, sex, size), size, draw)


def seed_layout(size: tuple[int, int], eggs: int) -> list[pygame.Rect]:
    edge = max(3, size[1] // 12)
    return picture_spots(pygame.Rect(edge * 2, edge, size[0] - edge * 4, size[1] - edge * 2), eggs)


def seed_face(size: tuple[int, int], eggs: int) -> pygame.Surface:
    def draw(face: pygame.Surface) -> None:
        _paper(face, SEED_COLOR, max(3, size[1] // 12))
        for spot in seed_layout(size, eggs):
            draw_egg(face, spot)
    return _FACES.get(("seed", eggs, size), size, draw)


def pest_face(size: tuple[int, int], kind: str) -> pygame.Surface:
    def draw(face: pygame.Surface) -> None:
        edge = max(3, size[1] // 12)
        _paper(face, PEST_COLOR, edge, 0.12)
        picture = face.get_rect().inflate(-3 * edge, -3 * edge)
        side = min(picture.width, picture.height)
        picture = pygame.Rect(picture.centerx - side // 2, picture.centery - side // 2, side, side)
        if kind == "squirrel":
            draw_squirrel(face, picture)
        else:
            draw_bird(face, picture, CROW, crow=True)
    return _FACES.get(("pest", kind, size), size, draw)


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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: the bird cards and seed row positions drawn in the last frame (the tests find them on the screen)
        self.birds: list[BirdFace] = []
        self.seeds: list[SeedFace] = []

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        self.birds, self.seeds = [], []
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
    def _bird(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, bird: Mapping[str, Any],
              frame: Color | None = None) -> None:
        """A bird card: the bird in its species' colour, its value, its sex's symbol
        (``frame``: the perched bird's or the bird just played)."""
        species, sex, value = str(bird["species"]), str(bird["sex"]), int(bird["value"])
        surface.blit(bird_face(r.size, species, sex), r.topleft)
        picture, value_r, sign, _edge = bird_layout(r.size)
        if frame is not None:
            pygame.draw.rect(surface, frame, r, width=max(3, r.height // 14), border_radius=max(4, r.height // 8))
        draw_text(surface, format_number(value), lay.size(1.15), theme.DARK_TEXT, value_r.move(r.topleft),
                  min_size=lay.min_text)
        self.birds.append(BirdFace(species, sex, value, r.copy(), picture.move(r.topleft), sign.move(r.topleft)))

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
        gap = lay.pad
        # the perches and the offer share the height; a card is twice as wide as high less a little
        row_h = min(lay.size(2.2), (area.height - lay.min_text - gap * (len(perches) + 2)) // (len(perches) + 1))
        card_w = (row_h - gap) * 19 // 10
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
            self._bird(surface, c, lay, bird, theme.FG)
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
                self._bird(surface, q, lay, b, theme.PRESSED if b["id"] == played else None)
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
            if c.right > area.right:
                break
            self._bird(surface, c, lay, b)
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
            pest_r = None
            if pest is not None:  # the pest waits beside the seed card, drawn: it strikes whoever takes it
                pest_w = min(inner.width // 2, inner.height * 5 // 4)
                pest_r = pygame.Rect(inner.right - pest_w, inner.top, pest_w, inner.height)
                surface.blit(pest_face(pest_r.size, str(pest["kind"])), pest_r.topleft)
                inner.width -= pest_w + gap // 2
            spots: list[pygame.Rect] = []
            if card is not None:
                eggs = int(card["eggs"])
                surface.blit(seed_face(inner.size, eggs), inner.topleft)
                spots = [spot.move(inner.topleft) for spot in seed_layout(inner.size, eggs)]
            self.seeds.append(SeedFace(i + 1, tuple(spots), None if pest is None else str(pest["kind"]), pest_r))
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
            draw_text(surface, ngettext("{n} point", "{n} points", int(part.get("total", 0))).format(n=format_number(int(part.get("total", 0)))), lay.size(1.1), theme.FG,
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
