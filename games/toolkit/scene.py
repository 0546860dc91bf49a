"""The scene framework: one scene per game mode, drawn from what the shared
screen may show and nothing else.

A scene gets, every frame, the engine's ``public_view()`` (frozen: read-only
mappings and tuples, so a scene can neither see nor disturb engine state),
the box's station strip and the box time. It never gets the engine.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from types import MappingProxyType
from typing import Any

import pygame

from games.i18n import _
from games.toolkit import theme
from games.toolkit.art import FaceCache
from games.toolkit.strip_words import COMMON_STATUS_WORDS, Strip, View, status_label  # noqa: F401 (the scenes and games import them from here)
from games.toolkit.theme import TEXT, Color, Layout, draw_text, panel
from games.toolkit.title import draw_title_card

#: the footer's most lines (a longer text is cut: the help overlay has room for it)
FOOTER_MAX_LINES = 2


def freeze(value: Any) -> Any:
    """A read-only deep copy of a view: dicts become mappingproxies, lists tuples.

    ``public_view()`` may hand out lists the engine still holds; a scene that
    sorted one in place would change the game. Frozen, it cannot.
    """
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    if isinstance(value, set):
        return frozenset(value)
    return value


@dataclass(frozen=True)
class VideoPicture:
    """A video question's picture this frame, as the presenter decoded it:
    ``frame`` (None: none yet), or ``note`` in its place (the decoder is not
    installed: the host's fix), and whether the clip plays ("playing",
    "paused", "stopped")."""

    frame: pygame.Surface | None
    note: str | None = None
    state: str = "stopped"


class Scene:
    """Base class of every game's scene.

    Subclasses implement ``draw_body`` (and may override ``header``). ``draw``
    paints the whole frame: background, header, body, the always-visible
    station strip and any message line the loop set.
    """

    #: name shown in the header, in English (marked N_; drawn translated); the registry passes the game's title
    title: str = ""
    #: True: the scene draws its own end screen (phase "over") instead of the
    #: generic ResultsScene (which only knows "points")
    own_results: bool = False

    def __init__(self, title: str | None = None, colors: Sequence[Color] | None = None) -> None:
        if title is not None:
            self.title = title
        self.colors = list(colors) if colors else None  # per-station colours from the wiring profile
        self.message: str | None = None  # set by the loop: "not allowed: ...", "board disconnected"
        #: the game's own statuses -> what the strip says (the registry sets the spec's)
        self.status_labels: dict[str, str] = {}
        #: the game's own host keys -> actions (the registry sets the spec's): a screen that asks the
        #: host to act names the key ("press P")
        self.host_keys: dict[str, str] = {}
        #: drawn over every frame, last (the companion pages' address, PIN and QR codes)
        self.overlays: list[Callable[[pygame.Surface], None]] = []
        #: widths an overlay keeps at the body's right this frame (the companion's QR panel), read
        #: once the header is drawn: the game's picture is laid out in the rest, never under the panel
        self.asides: list[Callable[[pygame.Surface, pygame.Rect], int]] = []
        #: a line below the strip, in space of its own, until box time ``footer_until_us``
        #: (the keyboard stations' keys at the start of a game; None: no footer)
        self.footer: str | None = None
        self.footer_until_us: int | None = None
        #: a question over the frame, asked by the loop ("End the game? Esc again ..."): None when none is asked
        self.confirm: str | None = None
        #: a video question's picture, set by the presenter before each frame (None: no video question)
        self.video: VideoPicture | None = None

    # -- the contract ---------------------------------------------------------------
    def draw(self, surface: pygame.Surface, view: View, strip: Strip, now_us: int) -> None:
        """Paint one full frame from the public view and the strip."""
        footer = self.footer if self.footer and (self.footer_until_us is None or now_us < self.footer_until_us) else None
        plain = theme.layout_for(surface)

        def lines(text: str | None) -> int:
            return min(FOOTER_MAX_LINES, len(theme.wrap_lines(text, plain.min_text, plain.width - 4 * plain.pad))) if text else 0

        # the loop's message ("that key does nothing", "board disconnected") gets a band of its own
        # below the strip, above the keys line: it never covers the game's text
        message_lines, footer_lines = lines(self.message), lines(footer)
        lay = theme.layout_for(surface, len(strip), message_lines + footer_lines)
        surface.fill(theme.BG)
        left, right = self.header(view)
        if left == self.title:  # titles are kept in English (N_) and shown in the language of the moment
            left = _(left)
        self.draw_header(surface, lay, left, right)
        body = self.body_beside_asides(surface, lay)
        if self.title_card(view):
            draw_title_card(surface, body, lay, _(self.title), [self.name(strip, i) for i in range(len(strip))],
                            [self.color(view, i) for i in range(len(strip))], self.title_hint(view))
        else:
            self.draw_body(surface, body, lay, view, strip, now_us)
        if strip:
            draw_strip(surface, lay.strip, lay, view, self.adjust_strip(view, strip), self.colors, self.status_labels, now_us)
        band = lay.footer
        line_h = round(lay.min_text * 1.2)
        if self.message:
            r = pygame.Rect(band.left, band.top, band.width, message_lines * line_h + lay.pad)
            pygame.draw.rect(surface, theme.PANEL, r)
            theme.draw_wrapped(surface, self.message, lay.min_text, theme.FG, r.inflate(-4 * lay.pad, -lay.pad),
                               max_lines=FOOTER_MAX_LINES)
            band = pygame.Rect(band.left, r.bottom, band.width, band.bottom - r.bottom)
        if footer:
            keys = band if self.message else band.inflate(0, -lay.pad)  # (the message's band kept the pad)
            theme.draw_wrapped(surface, footer, lay.min_text, theme.MUTED, keys.inflate(-4 * lay.pad, 0),
                               max_lines=FOOTER_MAX_LINES)
        for overlay in self.overlays:
            overlay(surface)
        if self.confirm:
            theme.draw_confirm(surface, self.confirm)

    def body_beside_asides(self, surface: pygame.Surface, lay: Layout) -> pygame.Rect:
        """The body less what the overlays keep at its right this frame."""
        kept = max((aside(surface, lay.body) for aside in self.asides), default=0)
        return pygame.Rect(lay.body.left, lay.body.top, max(0, lay.body.width - kept), lay.body.height)

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        """The game's own picture inside ``area`` (between header and strip)."""
        draw_text(surface, str(view.get("phase", "")), lay.size(3), theme.FG, area)

    def title_card(self, view: View) -> bool:
        """True before the game's first round: the title card is drawn instead
        of the body (the game's name, the players, what happens next)."""
        return False

    def title_hint(self, view: View) -> str:
        """The title card's last line: what the room waits for."""
        return _("Press your button to check it lights up")

    def header(self, view: View) -> tuple[str, str]:
        """(left, right) header texts: the game's title and where the game is."""
        return self.title, str(view.get("phase", ""))

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        """The strip as this game wants it read: a scene may rename a status or
        give a cell its own ``label`` (a reaction time, a rank). Default: as is."""
        return strip

    # -- helpers for subclasses -------------------------------------------------------
    def color(self, view: View, station: int) -> Color:
        return theme.station_color(view, station, self.colors)

    def name(self, strip: Strip, station: int) -> str:
        """The station's name as the menu gave it (numbers start at 1)."""
        if 0 <= station < len(strip) and strip[station].get("name"):
            return str(strip[station]["name"])
        return player_name(station)

    def draw_header(self, surface: pygame.Surface, lay: Layout, left: str, right: str) -> None:
        r = lay.header
        pygame.draw.rect(surface, theme.PANEL, r)
        inner = r.inflate(-4 * lay.pad, 0)
        size, gap = lay.size(1.15), 4 * lay.pad
        # the title takes what it needs, the right side the rest (a translated hint is often the longer),
        # and the title never less than a third
        need_left = TEXT.width(left, size) if left else 0
        need_right = TEXT.width(right, size) if right else 0
        left_w = min(need_left, max(inner.width // 3, inner.width - gap - need_right))
        draw_text(surface, left, size, theme.FG, pygame.Rect(inner.left, inner.top, left_w, inner.height),
                  align="left", min_size=lay.min_text)
        right_box = pygame.Rect(inner.left + left_w + gap, inner.top, inner.width - left_w - gap, inner.height)
        draw_text(surface, right, size, theme.MUTED, right_box, align="right", min_size=lay.min_text)


#: statuses whose strip cell takes the player's own colour (whose turn it is,
#: who won): the tile stays theirs, the label says what it is
OWN_COLOUR_STATUSES = frozenset({"first", "won", "turn"})
#: statuses whose cell flashes, as the station's lamp does: who won
FLASHING_STATUSES = frozenset({"first", "won"})
#: one flash of a winner's cell, on and off (a lamp's blink: 0.25 s on, 0.25 s off)
FLASH_US = 500_000


def flash_on(now_us: int) -> bool:
    """Whether a flashing cell's frame is lit at ``now_us`` (the first half of each ``FLASH_US``)."""
    return now_us % FLASH_US < FLASH_US // 2


#: statuses drawn in the player's colour, dimmed (next in line)
HALF_COLOUR_STATUSES = frozenset({"queued"})


class TitleScene(Scene):
    """The title card on its own (the screenshot tool): a game's own scene
    draws it through ``title_card`` before its first round."""

    def __init__(self, title: str, hint: str | None = None, colors: Sequence[Color] | None = None) -> None:
        super().__init__(title, colors)
        self.hint = hint

    def title_card(self, view: View) -> bool:
        return True

    def header(self, view: View) -> tuple[str, str]:
        return self.title, _("get ready")

    def title_hint(self, view: View) -> str:
        return self.hint if self.hint is not None else super().title_hint(view)


def player_name(station: int) -> str:
    """The name of a station nobody named: "Player 1" for station 0."""
    return _("Player {n}").format(n=station + 1)


def draw_strip(
    surface: pygame.Surface,
    area: pygame.Rect,
    lay: Layout,
    view: View,
    strip: Strip,
    colors: Sequence[Color] | None = None,
    labels: Mapping[str, str] | None = None,
    now_us: int | None = None,
) -> list[pygame.Rect]:
    """The always-visible station strip: one cell per station, its team colour
    as a band on top, its status as the fill, lit white the instant a press is
    accepted; a winner's cell flashes with its lamp (``now_us``: the box clock).
    Returns the cells (tests and scenes use them)."""
    n = len(strip)
    rows = lay.strip_rows
    per_row = -(-n // rows)
    gap = lay.pad
    cell_w = (area.width - gap * (per_row + 1)) // per_row
    cell_h = (area.height - gap * (rows + 1)) // rows
    scores = view.get("scores", ())
    cells = []
    for i, cell in enumerate(strip):
        row, col = divmod(i, per_row)
        r = pygame.Rect(area.left + gap + col * (cell_w + gap), area.top + gap + row * (cell_h + gap), cell_w, cell_h)
        cells.append(r)
        status = str(cell.get("status", "idle"))
        team = theme.station_color(view, i, colors)
        fill = theme.STATUS_COLORS.get(status, theme.STATUS_COLORS["idle"])
        if status in OWN_COLOUR_STATUSES:  # the player's own colour, so the room sees at once whose turn it is
            fill = team
        elif status in HALF_COLOUR_STATUSES:  # in line: the own colour, dimmed
            fill = theme.blend(theme.STATUS_COLORS["idle"], team, 0.55)
        if cell.get("pressed") and status == "idle":
            fill = theme.blend(fill, theme.PRESSED, 0.5)
        score = scores[i] if i < len(scores) else None
        lockout = cell.get("lockout_us") if status == "locked" else None
        label = status_label(cell, labels)
        if lockout and TEXT.width(label, lay.min_text) > r.width - 2 * LABEL_MARGIN:
            label = status_label({**cell, "lockout_us": None}, labels)  # the word whole, the bar shows the time left
        texts = (str(cell.get("name") or player_name(i)), None if score is None else str(score), label)
        if theme.DRAWN is None and theme.INKED is None:
            # a cell changes only when its station does: drawn once, then blitted (a third of a frame's time otherwise)
            key = (r.size, lay, status, fill, team, bool(cell.get("pressed")), lockout, texts)
            draw = partial(_draw_cell_face, lay=lay, status=status, fill=fill, team=team,
                           pressed=bool(cell.get("pressed")), lockout_us=lockout, texts=texts)
            surface.blit(_CELLS.get(key, r.size, draw, under=theme.BG), r.topleft)
        else:  # a test measures the texts where they are on the screen
            _draw_cell(surface, r, lay, status, fill, team, bool(cell.get("pressed")), lockout, texts)
        if status in FLASHING_STATUSES and now_us is not None and flash_on(now_us):
            # the winner's lamp blinks: so does a thick white frame round their cell (the fill stays theirs)
            pygame.draw.rect(surface, theme.PRESSED, r.inflate(gap, gap), width=max(4, cell_h // 9),
                             border_radius=max(4, cell_h // 8))
    return cells


#: drawn strip cells by everything they show
_CELLS = FaceCache(64)
#: the least room either side of a cell's label: a label has the cell's whole width ("ZABLOKOWANY 0,2 s" on four cells)
LABEL_MARGIN = 3


def lockout_bar_height(cell_h: int) -> int:
    """The lockout bar's height at the bottom of a locked cell: the texts stand above it, never under it."""
    return max(4, cell_h // 10)


def _draw_cell(surface: pygame.Surface, r: pygame.Rect, lay: Layout, status: str, fill: Color, team: Color,
               pressed: bool, lockout_us: Any, texts: tuple[str, str | None, str]) -> None:
    """One strip cell at ``r``: the fill, the team band, the fault marks, the name, score and label."""
    gap, cell_h = lay.pad, r.height
    panel(surface, r, fill, radius=max(4, cell_h // 10))
    band = pygame.Rect(r.left, r.top, r.width, max(4, cell_h // 9))
    pygame.draw.rect(surface, team, band, border_top_left_radius=max(4, cell_h // 10), border_top_right_radius=max(4, cell_h // 10))
    if status == "locked" and lockout_us:
        # a bar that shrinks as the lockout runs out (250 ms by default)
        frac = min(1.0, int(lockout_us) / 1_000_000)
        bar_h = lockout_bar_height(cell_h)
        bar = pygame.Rect(r.left, r.bottom - bar_h, max(1, round(r.width * frac)), bar_h)
        pygame.draw.rect(surface, theme.FG, bar)
    if status == "stuck":  # hatched, so it reads as a fault even in grey
        step = max(8, cell_h // 4)
        for x in range(r.left - r.height, r.right, step * 2):
            pygame.draw.line(surface, theme.DARK_TEXT, (max(x, r.left), band.bottom + (max(x, r.left) - x)),
                             (min(x + r.height, r.right - 1), band.bottom + min(x + r.height, r.right - 1) - x), 3)
    if status == "disconnected":
        pygame.draw.rect(surface, theme.MUTED, r, width=max(2, cell_h // 30), border_radius=max(4, cell_h // 10))
    if pressed:
        pygame.draw.rect(surface, theme.PRESSED, r, width=max(3, cell_h // 24), border_radius=max(4, cell_h // 10))
    ink = theme.text_on(fill) if status != "disconnected" else theme.MUTED
    # half a pad each side: "Player 16" fits a sixteen-station cell whole (a full pad cut it to "Player …")
    under = lockout_bar_height(cell_h) if status == "locked" and lockout_us else 0
    body = pygame.Rect(r.left + gap // 2, band.bottom, r.width - 2 * (gap // 2), r.bottom - under - band.bottom)
    name, score, label = texts
    third = body.height // 3
    draw_text(surface, name, lay.min_text, ink, pygame.Rect(body.left, body.top, body.width, third), min_size=lay.min_text)
    if score is not None:
        draw_text(surface, score, lay.size(1.1), ink, pygame.Rect(body.left, body.top + third, body.width, third),
                  min_size=lay.min_text)
    if label:
        draw_text(surface, label, lay.min_text, ink, pygame.Rect(r.left + LABEL_MARGIN, body.top + 2 * third,
                                                                 r.width - 2 * LABEL_MARGIN, third), min_size=lay.min_text)


def _draw_cell_face(face: pygame.Surface, lay: Layout, status: str, fill: Color, team: Color, pressed: bool,
                    lockout_us: Any, texts: tuple[str, str | None, str]) -> None:
    """A cell drawn on its own clear surface (the cache's face)."""
    _draw_cell(face, face.get_rect(), lay, status, fill, team, pressed, lockout_us, texts)


def strip_cells(surface: pygame.Surface, stations: int) -> list[pygame.Rect]:
    """Where the strip cells of ``stations`` stations are on ``surface`` (for tests
    and for scenes that point at a station)."""
    lay = theme.layout_for(surface, stations)
    area = lay.strip
    rows = lay.strip_rows
    per_row = -(-stations // rows)
    gap = lay.pad
    cell_w = (area.width - gap * (per_row + 1)) // per_row
    cell_h = (area.height - gap * (rows + 1)) // rows
    return [
        pygame.Rect(area.left + gap + (i % per_row) * (cell_w + gap), area.top + gap + (i // per_row) * (cell_h + gap), cell_w, cell_h)
        for i in range(stations)
    ]


def scene_class(spec_scene: str) -> type[Scene]:
    """Import a GameSpec's ``scene`` ("module:Class") only when a screen is drawn."""
    module_name, _, cls_name = spec_scene.partition(":")
    module = importlib.import_module(module_name)
    cls = getattr(module, cls_name)
    if not (isinstance(cls, type) and issubclass(cls, Scene)):
        raise TypeError(f"{spec_scene} is not a Scene subclass")
    return cls


__all__ = ["Scene", "View", "Strip", "freeze", "draw_strip", "strip_cells", "scene_class", "TEXT"]
