"""Viva Topo! on the shared screen: the board drawn in code, whose turn it is,
the die, the highlighted move and the cat's meal.

Drawn only from ``public_view()`` and the box clock: the die tumbles for
``ROLL_US`` after the last ``roll`` in ``last_events``, a red flash and
"THE CAT EATS ..." stay for ``EAT_US`` after an ``eaten`` one.

Mice have their player's colour *and* shape (circle, triangle, square,
diamond), so a colour-blind player can still tell them apart. The strip's
colour bands follow the game's colours (blue, red, green, yellow: the mouse
names in every message), not the wiring profile's station colours.

Board geometry (``BoardGeometry``): an 8x8 grid of units; the 20 spaces run
clockwise round the 6x6 ring from the top-left corner (space 1, the start
exit); each house sits in the margin right beside its cheese-arrow space; the
start house (top) and Emmentalia (bottom) fill the middle. A cat's space
carries a small cat head; the symbols where the cat starts for 2, 3 or 4
players also show that number. The header says which lap the cat is on.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from games.i18n import _, ngettext
from games.toolkit import theme
from games.toolkit.art import FaceCache
from games.toolkit.results import Celebration, draw_confetti
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, draw_wrapped, panel
from games.viva_topo.strip import worded_strip

#: the game's colour names -> RGB (the wiring profile's defaults of the same name)
COLOURS: dict[str, Color] = {
    "blue": (30, 136, 229),
    "red": (229, 57, 53),
    "green": (67, 160, 71),
    "yellow": (253, 216, 53),
}
SHAPES = ("circle", "triangle", "square", "diamond")

ROLL_US = 700_000  # the die tumbles this long after a roll
EAT_US = 1_500_000  # the red flash and "THE CAT EATS ..." stay this long
NOTE_US = 1_200_000  # trapped / cheese banners

BOARD_BG: Color = (46, 64, 44)
SPACE: Color = (226, 206, 160)
SPACE_EDGE: Color = (120, 96, 60)
HOUSE_BG: Color = (160, 110, 70)
CHEESE: Color = (255, 202, 40)
START_BG: Color = (92, 70, 52)
EMMENTALIA_BG: Color = (214, 170, 40)
CAT_FUR: Color = (40, 40, 46)
CAT_EYES: Color = (170, 255, 60)
RING: Color = (24, 30, 24)
HIGHLIGHT: Color = (255, 255, 255)
EATEN: Color = theme.BAD
TRAPPED: Color = (255, 109, 0)


def colour_of(name: str) -> Color:
    return COLOURS.get(name, theme.MUTED)


#: the drawn track by board, size and what the cat covers
_TRACKS = FaceCache(16)


@dataclass(frozen=True)
class BoardGeometry:
    """Where every place of the board is drawn inside ``rect`` (a square)."""

    rect: pygame.Rect
    spaces: int = 20

    @property
    def ux(self) -> float:
        """A grid unit across: the board is 8 units wide whatever its shape."""
        return self.rect.width / 8

    @property
    def uy(self) -> float:
        return self.rect.height / 8

    @property
    def unit(self) -> float:
        """The smaller unit: what pieces and lines are sized by, so they fit a cell."""
        return min(self.ux, self.uy)

    def _cell(self, col: float, row: float, w: float = 1, h: float = 1) -> pygame.Rect:
        return pygame.Rect(
            round(self.rect.left + col * self.ux),
            round(self.rect.top + row * self.uy),
            round(w * self.ux),
            round(h * self.uy),
        )

    def grid(self, space: int) -> tuple[int, int, str]:
        """(col, row, side) of a track space on the 6x6 ring (cols/rows 1..6);
        side is where the outside of the board is: top, right, bottom, left."""
        k = (space - 1) * 20 // self.spaces  # another space count squeezes onto 20 cells
        if k < 6:
            return 1 + k, 1, "top"
        if k < 10:
            return 6, 2 + (k - 6), "right"
        if k < 16:
            return 6 - (k - 10), 6, "bottom"
        return 1, 5 - (k - 16), "left"

    def space_rect(self, space: int) -> pygame.Rect:
        col, row, _ = self.grid(space)
        return self._cell(col, row)

    def house_rect(self, arrow_space: int) -> pygame.Rect:
        """The house beside its arrow space, in the margin outside the ring."""
        col, row, side = self.grid(arrow_space)
        if side == "top":
            return self._cell(col - 0.5, 0.05, 2, 0.9)
        if side == "bottom":
            return self._cell(col - 0.5, 7.05, 2, 0.9)
        if side == "left":
            return self._cell(0.05, row - 0.5, 0.9, 2)
        return self._cell(7.05, row - 0.5, 0.9, 2)

    @staticmethod
    def house_parts(house: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """(value, cheese left, mice) along the house's long side."""
        if house.width > house.height:
            q = house.width // 4
            return (pygame.Rect(house.left, house.top, q, house.height),
                    pygame.Rect(house.left + q, house.top, q, house.height),
                    pygame.Rect(house.left + 2 * q, house.top, house.width - 2 * q, house.height))
        q = house.height // 4
        return (pygame.Rect(house.left, house.top, house.width, q),
                pygame.Rect(house.left, house.top + q, house.width, q),
                pygame.Rect(house.left, house.top + 2 * q, house.width, house.height - 2 * q))

    @property
    def start_rect(self) -> pygame.Rect:
        return self._cell(2.15, 2.15, 3.7, 1.75)

    @property
    def emmentalia_rect(self) -> pygame.Rect:
        return self._cell(2.15, 4.1, 3.7, 1.75)

    def slot(self, rect: pygame.Rect, index: int, count: int) -> tuple[int, int]:
        """Centre of the ``index``-th of ``count`` mice in ``rect`` (a grid)."""
        cols = max(1, math.ceil(math.sqrt(count * rect.width / max(1, rect.height))))
        rows = max(1, math.ceil(count / cols))
        c, r = index % cols, index // cols
        return (
            round(rect.left + (c + 0.5) * rect.width / cols),
            round(rect.top + (r + 0.5) * rect.height / rows),
        )

    def slot_room(self, rect: pygame.Rect, count: int) -> int:
        """The largest marker size (half-width) that fits one slot of the grid."""
        cols = max(1, math.ceil(math.sqrt(count * rect.width / max(1, rect.height))))
        rows = max(1, math.ceil(count / cols))
        return max(3, round(min(rect.width / cols, rect.height / rows) * 0.36))  # a diamond's tips stay in

    def mouse_size(self) -> int:
        return max(6, round(self.unit * 0.3))


def mouse_places(view: View, geo: BoardGeometry) -> dict[str, tuple[int, int]]:
    """Where each mouse on the board is drawn (id -> centre); eaten and trapped
    mice are not on the board."""
    return {mouse_id: centre for mouse_id, (centre, _size) in mouse_layout(view, geo).items()}


def mouse_layout(view: View, geo: BoardGeometry) -> dict[str, tuple[tuple[int, int], int]]:
    """id -> (centre, marker size): markers shrink where many mice share a
    place (a house can hold any number), so they never spill out of it."""
    board = view["board"]
    arrows = {h["name"]: h["arrow_space"] for h in board["houses"]}
    groups: dict[str, list[str]] = {}
    for m in view["mice"]:
        groups.setdefault(str(m["where"]), []).append(str(m["id"]))
    out: dict[str, tuple[tuple[int, int], int]] = {}
    for where, ids in groups.items():
        if where.startswith("space-"):
            rect = geo.space_rect(int(where.split("-")[1])).inflate(-geo.unit * 0.15, -geo.unit * 0.15)
            count = max(len(ids), 4 if len(ids) > 1 else 1)
        elif where in arrows:
            rect = geo.house_parts(geo.house_rect(arrows[where]))[2]
            count = max(len(ids), 4)
        elif where == "start":
            start = geo.start_rect
            rect = pygame.Rect(start.left, start.top + round(geo.uy * 0.55), start.width, start.height - round(geo.uy * 0.55)).inflate(-geo.unit * 0.2, -geo.unit * 0.1)
            count = max(len(ids), 10)
        elif where == "emmentalia":
            emm = geo.emmentalia_rect  # right of the wheels, under the name
            rect = pygame.Rect(emm.left + round(geo.ux * 1.3), emm.top + round(geo.uy * 0.55), emm.width - round(geo.ux * 1.4),
                               emm.height - round(geo.uy * 0.6))
            count = max(len(ids), 6)
        else:
            continue
        size = min(geo.mouse_size(), geo.slot_room(rect, count))
        for i, mouse_id in enumerate(ids):
            out[mouse_id] = (geo.slot(rect, i, count), size)
    return out


def draw_shape(surface: pygame.Surface, shape: str, centre: tuple[int, int], size: int, fill: Color, edge: Color = theme.DARK_TEXT) -> None:
    """A mouse marker: the owner's shape in the owner's colour, outlined."""
    x, y = centre
    s = size
    if shape == "triangle":
        pts = [(x, y - s), (x + s, y + round(s * 0.8)), (x - s, y + round(s * 0.8))]
    elif shape == "square":
        k = round(s * 0.85)
        pts = [(x - k, y - k), (x + k, y - k), (x + k, y + k), (x - k, y + k)]
    elif shape == "diamond":
        k = round(s * 1.15)
        pts = [(x, y - k), (x + k, y), (x, y + k), (x - k, y)]
    else:
        pygame.draw.circle(surface, fill, centre, s)
        pygame.draw.circle(surface, edge, centre, s, max(1, s // 5))
        return
    pygame.draw.polygon(surface, fill, pts)
    pygame.draw.polygon(surface, edge, pts, max(1, s // 5))


def draw_cat(surface: pygame.Surface, centre: tuple[int, int], size: int) -> None:
    """The cat's head: dark fur, pointed ears, green eyes, whiskers."""
    x, y = centre
    s = size
    for side in (-1, 1):
        ear = [(x + side * round(s * 0.95), y - round(s * 1.25)), (x + side * round(s * 0.2), y - round(s * 0.7)), (x + side * round(s * 0.95), y - round(s * 0.1))]
        pygame.draw.polygon(surface, CAT_FUR, ear)
    pygame.draw.circle(surface, CAT_FUR, centre, s)
    for side in (-1, 1):
        eye = (x + side * round(s * 0.38), y - round(s * 0.15))
        pygame.draw.ellipse(surface, CAT_EYES, pygame.Rect(eye[0] - s // 5, eye[1] - s // 4, 2 * (s // 5), 2 * (s // 4)))
        pygame.draw.line(surface, theme.DARK_TEXT, (eye[0], eye[1] - s // 5), (eye[0], eye[1] + s // 5), max(1, s // 12))
        for dy in (-1, 1):
            pygame.draw.line(surface, theme.FG, (x + side * round(s * 0.3), y + round(s * 0.35)),
                             (x + side * round(s * 1.3), y + round(s * 0.35) + dy * round(s * 0.25)), max(1, s // 14))
    pygame.draw.polygon(surface, (240, 120, 140), [(x - s // 8, y + s // 6), (x + s // 8, y + s // 6), (x, y + s // 3)])


def draw_die(surface: pygame.Surface, centre: tuple[int, int], size: int, face: int | str, angle: float = 0.0) -> pygame.Rect:
    """A die of side ``2*size``, rotated by ``angle``: pips for 2-5, a cat head for the cat."""
    x, y = centre
    cos, sin = math.cos(angle), math.sin(angle)

    def at(dx: float, dy: float) -> tuple[int, int]:
        return round(x + dx * cos - dy * sin), round(y + dx * sin + dy * cos)

    corners = [at(-size, -size), at(size, -size), at(size, size), at(-size, size)]
    pygame.draw.polygon(surface, theme.FG, corners)
    pygame.draw.polygon(surface, theme.DARK_TEXT, corners, max(2, size // 12))
    if face == "cat":
        draw_cat(surface, at(0, size * 0.12), round(size * 0.55))
    else:
        k = size * 0.5
        pips = {
            2: [(-k, -k), (k, k)],
            3: [(-k, -k), (0, 0), (k, k)],
            4: [(-k, -k), (k, -k), (-k, k), (k, k)],
            5: [(-k, -k), (k, -k), (0, 0), (-k, k), (k, k)],
        }.get(int(face), [])
        for dx, dy in pips:
            pygame.draw.circle(surface, theme.DARK_TEXT, at(dx, dy), max(2, size // 6))
    return pygame.Rect(x - size, y - size, 2 * size, 2 * size)


def latest(view: View, kind: str) -> Mapping[str, Any] | None:
    for event in reversed(view.get("last_events", ())):
        if event.get("kind") == kind:
            return event
    return None


class VivaTopoScene(Scene):
    title = "Viva Topo!"
    own_results = True  # the game-over panel names the cheese each player collected

    def __init__(self, title: str | None = None, colors: Sequence[Color] | None = None) -> None:
        super().__init__(title, colors)
        self.celebration = Celebration()

    def header(self, view: View) -> tuple[str, str]:
        cat = view.get("cat", {})
        turn = int(view.get("turn_count", 0)) + 1
        if view.get("phase") == "over":
            return self.title, _("game over")
        if cat.get("done"):
            return self.title, _("turn {n} · the cat sleeps").format(n=turn)
        if not cat.get("start_closed"):
            return self.title, _("turn {n} · cat's lap 1, on its way to its start").format(n=turn)
        if cat.get("lap") in (1, 2):
            return self.title, _("turn {n} · cat's lap {lap} of 2").format(n=turn, lap=cat.get("lap"))
        return self.title, _("turn {n}").format(n=turn)

    def draw(self, surface: pygame.Surface, view: View, strip: Strip, now_us: int) -> None:
        """The strip's bands in the mice's colours, so "blue's turn" is the blue cell."""
        self.colors = [colour_of(str(c)) for c in view.get("players", ())]
        super().draw(surface, view, strip, now_us)

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        return worded_strip(view, strip)  # games/viva_topo/strip.py: the phones' pages word the strip so too

    # -- the body -------------------------------------------------------------------
    @staticmethod
    def board_rect(area: pygame.Rect) -> pygame.Rect:
        """The board takes most of the width (wider than tall, as a TV is); the panel the rest."""
        return pygame.Rect(area.left, area.top, min(round(area.width * 0.63), round(area.height * 1.8)), area.height)

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        board_r = self.board_rect(area)
        geo = BoardGeometry(board_r, int(view["board"]["spaces"]))
        panel_r = pygame.Rect(board_r.right + 2 * lay.pad, area.top, area.right - board_r.right - 2 * lay.pad, area.height)
        self.draw_board(surface, geo, lay, view, now_us, strip)
        if view.get("phase") == "over":  # confetti over the board in the winners' colours
            players = list(view.get("players", ()))
            colours = [colour_of(str(players[w])) for w in view.get("winners", ()) if w < len(players)]
            draw_confetti(surface, geo.rect, self.celebration.age(tuple(view.get("scores", ())), now_us), colours + [CHEESE])
        self.draw_panel(surface, panel_r, lay, view, strip, now_us)

    def draw_board(self, surface: pygame.Surface, geo: BoardGeometry, lay: Layout, view: View, now_us: int,
                   strip: Strip = ()) -> None:
        board = view["board"]
        u = geo.unit
        over = view.get("phase") == "over"  # the end screen is the winner's: no banner of the last move stays
        eaten = latest(view, "eaten")
        flash = not over and eaten is not None and 0 <= now_us - int(eaten["t_us"]) < EAT_US
        covered: set[int] = set()
        if flash and eaten is not None:
            covered = set(eaten.get("spaces") or ()) or ({int(eaten["space"])} if eaten.get("space") else set())
        trapped = latest(view, "trapped")
        trapped_shown = not over and trapped is not None and bool(trapped.get("mice")) \
            and 0 <= now_us - int(trapped["t_us"]) < NOTE_US
        # a banner covers the board's middle: the labels under it are not drawn (their text would
        # show through between the banner's lines, or crowd its list of mice)
        banner = self.banner_rect(geo) if flash or trapped_shown else pygame.Rect(0, 0, 0, 0)
        symbols = set(board["cat_symbols"])
        starts = {int(space): str(players) for players, space in board.get("cat_start", {}).items()}
        # the track: a cat's space carries a small cat head (where the cat can stop); the
        # symbols where the cat starts for 2, 3 or 4 players carry that number too
        if theme.DRAWN is None and theme.INKED is None:
            # the track is the same every frame but while the cat eats: drawn once, then blitted
            key = (geo.rect.size, int(board["spaces"]), tuple(sorted(symbols)), tuple(sorted(starts.items())),
                   tuple(sorted(covered)), lay)
            origin = BoardGeometry(pygame.Rect((0, 0), geo.rect.size), geo.spaces)
            surface.blit(_TRACKS.get(key, geo.rect.size, partial(self._track, geo=origin, lay=lay, spaces=int(board["spaces"]),
                                                                  symbols=symbols, starts=starts, covered=covered),
                                        under=theme.BG),
                         geo.rect.topleft)
        else:  # a test measures the start numbers' text where it is on the screen
            self._track(surface, geo, lay, int(board["spaces"]), symbols, starts, covered)
        # houses with their arrows and the cheese left
        left = view.get("cheese_left", {})
        for house in board["houses"]:
            self._house(surface, geo, lay, house, int(left.get(house["name"], 0)))
        # start and Emmentalia
        start = geo.start_rect
        panel(surface, start, START_BG, radius=round(u * 0.2))
        closed = bool(view.get("cat", {}).get("start_closed"))
        label = pygame.Rect(start.left, start.top, start.width, round(geo.uy * 0.55))
        if not label.colliderect(banner):
            draw_text(surface, _("START · closed") if closed else _("START"), lay.min_text, theme.FG, label,
                      min_size=lay.min_text)
        emm = geo.emmentalia_rect
        panel(surface, emm, EMMENTALIA_BG, radius=round(u * 0.2))
        label = pygame.Rect(emm.left, emm.top, emm.width, round(geo.uy * 0.55))
        if not label.colliderect(banner):
            draw_text(surface, _("EMMENTALIA"), lay.min_text, theme.DARK_TEXT, label, min_size=lay.min_text)
        wheels = int(left.get("emmentalia", 0))
        total = int(board["emmentalia"]["wheels"])
        for i in range(total):
            c = (round(emm.left + geo.ux * 0.2 + u * (0.3 + 0.55 * (i % 2))), round(emm.top + geo.uy * 0.55 + u * (0.3 + 0.5 * (i // 2))))
            if i < wheels:
                pygame.draw.circle(surface, CHEESE, c, round(u * 0.22))
                pygame.draw.circle(surface, SPACE_EDGE, c, round(u * 0.22), max(1, round(u * 0.04)))
            else:
                pygame.draw.circle(surface, theme.blend(EMMENTALIA_BG, theme.DARK_TEXT, 0.3), c, round(u * 0.22), max(1, round(u * 0.04)))
        # mice, the highlighted move, the cat
        layout = mouse_layout(view, geo)
        places = {mouse_id: centre for mouse_id, (centre, _size) in layout.items()}
        shapes = {m["id"]: SHAPES[int(m["owner"]) % len(SHAPES)] for m in view["mice"]}
        highlighted = view.get("highlighted")
        for m in view["mice"]:
            if m["id"] in layout:
                centre, size = layout[m["id"]]
                draw_shape(surface, shapes[m["id"]], centre, size, colour_of(str(m["colour"])))
        if highlighted and highlighted.get("mouse") in places:
            self._highlight(surface, geo, view, places[highlighted["mouse"]], highlighted, now_us)
        cat = view.get("cat", {})
        if cat.get("space") is not None and not cat.get("done"):
            r = geo.space_rect(int(cat["space"]))  # on its space, inside it: never over the start or Emmentalia
            draw_cat(surface, (r.centerx, r.centery + round(u * 0.08)), round(u * 0.32))
        if flash and eaten is not None:
            self._banner(surface, geo, lay, _("THE CAT EATS"), EATEN, self.mice_words(view, strip, eaten.get("mice") or ()))
            pygame.draw.rect(surface, EATEN, geo.rect, max(6, round(u * 0.12)), border_radius=round(u * 0.3))
            return
        if trapped is not None and trapped_shown:
            self._banner(surface, geo, lay, _("TRAPPED IN THE START"), TRAPPED, self.mice_words(view, strip, trapped["mice"]))

    def _track(self, surface: pygame.Surface, geo: BoardGeometry, lay: Layout, spaces: int, symbols: set[Any],
               starts: Mapping[int, str], covered: set[int]) -> None:
        """The board and its track of spaces; a cat's space carries a small cat head (where
        the cat can stop), the symbols where the cat starts for 2, 3 or 4 players that number."""
        u = geo.unit
        panel(surface, geo.rect, BOARD_BG, radius=round(u * 0.3))
        for space in range(1, spaces + 1):
            r = geo.space_rect(space).inflate(-max(2, round(u * 0.06)), -max(2, round(u * 0.06)))
            fill = theme.blend(SPACE, EATEN, 0.75) if space in covered else SPACE
            panel(surface, r, fill, radius=round(u * 0.12))
            if space in symbols:
                self._symbols(surface, geo, space, lay, starts.get(space))

    def mice_words(self, view: View, strip: Strip, ids: Sequence[str]) -> str:
        """Whose mice an event names, as people say it ("Anna: 2 mice, Dan: 1 mouse"), never the ids."""
        owners = {str(m["id"]): int(m["owner"]) for m in view.get("mice", ())}
        counts: dict[int, int] = {}
        for mouse_id in ids:
            if str(mouse_id) in owners:
                counts[owners[str(mouse_id)]] = counts.get(owners[str(mouse_id)], 0) + 1
        return ", ".join(ngettext("{name}: {n} mouse", "{name}: {n} mice", n).format(name=self.name(strip, p), n=n)
                         for p, n in sorted(counts.items()))

    def _symbols(
        self, surface: pygame.Surface, geo: BoardGeometry, space: int, lay: Layout, number: str | None = None
    ) -> None:
        """A cat's space: a small cat head in its corner (the die's cat moves the cat to
        the next one); a start symbol also shows the player count it is for."""
        r = geo.space_rect(space)
        s = max(4, round(geo.unit * 0.13))
        draw_cat(surface, (r.right - round(s * 1.6), r.top + round(s * 1.6)), s)
        if number is not None:
            box = pygame.Rect(r.left + round(s * 0.6), r.bottom - round(s * 3.2), round(s * 2.6), round(s * 2.6))
            pygame.draw.circle(surface, RING, box.center, box.width // 2)
            draw_text(surface, number, lay.min_text, SPACE, box, min_size=8)

    def _house(self, surface: pygame.Surface, geo: BoardGeometry, lay: Layout, house: Mapping[str, Any], left: int) -> None:
        r = geo.house_rect(int(house["arrow_space"]))
        u = geo.unit
        arrow = geo.space_rect(int(house["arrow_space"]))
        pygame.draw.line(surface, CHEESE, arrow.center, r.center, max(3, round(u * 0.1)))
        panel(surface, r, HOUSE_BG, radius=round(u * 0.15))
        # the house's value, then its cheese pieces left as wedges, then its mice
        value_r, rest, _ = geo.house_parts(r)
        draw_text(surface, str(house["value"]), lay.min_text, theme.text_on(HOUSE_BG), value_r, min_size=lay.min_text)
        pieces = int(house.get("pieces", 4))
        for i in range(pieces):
            cx = rest.left + (i % 2 + 0.5) * rest.width / 2
            cy = rest.top + (i // 2 + 0.5) * rest.height / 2
            k = u * 0.1
            tri = [(cx - k, cy + k), (cx + k, cy + k), (cx + k, cy - k)]
            if i < left:
                pygame.draw.polygon(surface, CHEESE, tri)
            else:
                pygame.draw.polygon(surface, theme.blend(HOUSE_BG, theme.DARK_TEXT, 0.35), tri, max(1, round(u * 0.03)))

    def _highlight(self, surface: pygame.Surface, geo: BoardGeometry, view: View, centre: tuple[int, int],
                   move: Mapping[str, Any], now_us: int) -> None:
        """The move the current player's next/prev selects: a pulsing white ring
        on the mouse and a white frame on where it would go."""
        u = geo.unit
        pulse = 0.5 + 0.5 * math.sin(now_us / 150_000)
        radius = round(geo.mouse_size() * (1.6 + 0.25 * pulse))
        pygame.draw.circle(surface, HIGHLIGHT, centre, radius, max(3, round(u * 0.07)))
        to = str(move.get("to", ""))
        target: pygame.Rect | None = None
        if to.startswith("space-"):
            target = geo.space_rect(int(to.split("-")[1]))
        elif to == "emmentalia":
            target = geo.emmentalia_rect
        else:
            for house in view["board"]["houses"]:
                if house["name"] == to:
                    target = geo.house_rect(int(house["arrow_space"]))
        if target is not None:
            colour = EATEN if move.get("passes_cat") else HIGHLIGHT
            pygame.draw.rect(surface, colour, target, max(3, round(u * 0.08)), border_radius=round(u * 0.15))
            pygame.draw.line(surface, colour, centre, target.center, max(2, round(u * 0.04)))

    @staticmethod
    def banner_rect(geo: BoardGeometry) -> pygame.Rect:
        """Where a banner goes: a band across the board's middle."""
        u = geo.unit
        return pygame.Rect(geo.rect.left + round(u * 0.5), round(geo.rect.centery - u * 0.8), geo.rect.width - round(u), round(u * 1.6))

    def _banner(self, surface: pygame.Surface, geo: BoardGeometry, lay: Layout, text: str, fill: Color, detail: str = "") -> pygame.Rect:
        """A band across the board's middle: what happened, big, and to whom."""
        u = geo.unit
        r = self.banner_rect(geo)
        panel(surface, r, fill, radius=round(u * 0.2))
        inner = r.inflate(-2 * lay.pad, -lay.pad)
        ink = theme.text_on(fill)
        if not detail:
            draw_text(surface, text, lay.size(1.4), ink, inner, min_size=lay.min_text)
            return r
        draw_text(surface, text, lay.size(1.4), ink, pygame.Rect(inner.left, inner.top, inner.width, inner.height * 55 // 100), min_size=lay.min_text)
        draw_text(surface, detail, lay.min_text, ink, pygame.Rect(inner.left, inner.top + inner.height * 55 // 100, inner.width, inner.height * 45 // 100),
                  min_size=lay.min_text)
        return r

    # -- the side panel ---------------------------------------------------------------
    @staticmethod
    def panel_parts(area: pygame.Rect, pad: int) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """(whose turn, the die, the scores) down the side panel."""
        turn_r = pygame.Rect(area.left, area.top, area.width, area.height * 33 // 100)
        die_r = pygame.Rect(area.left, turn_r.bottom + pad, area.width, area.height * 24 // 100)
        return turn_r, die_r, pygame.Rect(area.left, die_r.bottom + pad, area.width, area.bottom - die_r.bottom - pad)

    def draw_panel(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        turn_r, die_r, scores_r = self.panel_parts(area, lay.pad)
        if view.get("phase") == "over":  # no die to show: the winner takes its place too
            self._turn(surface, turn_r.union(die_r), lay, view, strip)
        else:
            self._turn(surface, turn_r, lay, view, strip)
            self._die(surface, die_r, lay, view, now_us)
        self._scores(surface, scores_r, lay, view, strip)

    def _turn(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """Whose turn it is, big, in their colour and shape; the winner at the end."""
        players = list(view.get("players", ()))
        if view.get("phase") == "over":
            winners = list(view.get("winners", ()))
            fill = colour_of(str(players[winners[0]])) if winners else theme.PANEL
            names = " & ".join(self.name(strip, w) for w in winners)
            big = ngettext("{names} wins!", "{names} win!", len(winners)).format(names=names) if winners else _("game over")
            small = _("game over") if winners else ""
            player = winners[0] if winners else None
        else:
            player = int(view.get("turn") or 0)
            fill = colour_of(str(players[player]))
            big = self.name(strip, player)
            small = _("bell: roll the die") if view.get("phase") == "roll" else _("buttons: pick a mouse · bell: move")
        panel(surface, r, fill)
        ink = theme.text_on(fill)
        inner = r.inflate(-2 * lay.pad, -2 * lay.pad)
        shape_w = 0
        if player is not None:
            # the player's piece as a token: its shape filled in their colour on a white disc, set apart from
            # the name (an outline beside a letter read as a missing glyph)
            shape_w = min(inner.height * 45 // 100, inner.width // 4)
            centre = (inner.left + shape_w // 2, inner.top + inner.height * 22 // 100)
            pygame.draw.circle(surface, theme.FG, centre, shape_w // 2)
            pygame.draw.circle(surface, theme.DARK_TEXT, centre, shape_w // 2, max(2, shape_w // 24))
            draw_shape(surface, SHAPES[player % len(SHAPES)], centre, shape_w // 4, fill)
            shape_w += 2 * lay.pad
        draw_text(surface, big, lay.size(2.2), ink,
                  pygame.Rect(inner.left + shape_w, inner.top, inner.width - shape_w, inner.height * 45 // 100), min_size=lay.min_text)
        draw_wrapped(surface, small, lay.min_text, ink,
                     pygame.Rect(inner.left, inner.top + inner.height * 45 // 100, inner.width, inner.height * 55 // 100))

    def _die(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, view: View, now_us: int) -> None:
        """The last roll: tumbling for ROLL_US after it, then its face; beside it
        the highlighted move in words."""
        panel(surface, r, theme.PANEL)
        size = max(8, r.height * 36 // 100)
        centre = (r.left + lay.pad * 2 + size, r.centery)
        roll = latest(view, "roll")
        if roll is not None and (view.get("phase") == "roll" and roll.get("player") != view.get("turn") or view.get("phase") == "over"):
            roll = None  # the last player's roll: the next player starts with a clean die
        if roll is not None:
            age = now_us - int(roll["t_us"])
            if 0 <= age < ROLL_US:
                faces = (2, 3, 4, 5, "cat")
                tick = age // 80_000
                face: int | str = faces[(tick + int(roll["t_us"]) // 1000) % len(faces)]
                angle = (1 - age / ROLL_US) * 2.5
                draw_die(surface, centre, round(size / 1.42), face, angle)  # its corners stay in the panel
            else:
                draw_die(surface, centre, size, roll.get("value", 2))
        else:
            pygame.draw.rect(surface, theme.MUTED, pygame.Rect(centre[0] - size, centre[1] - size, 2 * size, 2 * size), 3, border_radius=size // 5)
        text_r = pygame.Rect(centre[0] + size + lay.pad * 2, r.top + lay.pad, r.right - centre[0] - size - lay.pad * 4, r.height - 2 * lay.pad)
        move = view.get("highlighted")
        n = len(view.get("legal_moves", ()))
        if move:
            line = self.move_words(view, move)
            colour = EATEN if move.get("passes_cat") else theme.FG
            draw_text(surface, line, lay.size(1.3), colour, pygame.Rect(text_r.left, text_r.top, text_r.width, text_r.height // 2),
                      align="left", min_size=lay.min_text)
            note = _("PAST THE CAT!") if move.get("passes_cat") else _("choice {k} of {n}").format(k=int(view.get("highlight") or 0) + 1, n=n)
            draw_text(surface, note, lay.min_text, colour if move.get("passes_cat") else theme.MUTED,
                      pygame.Rect(text_r.left, text_r.top + text_r.height // 2, text_r.width, text_r.height // 2), align="left", min_size=lay.min_text)
        else:
            cheese = latest(view, "cheese")
            if cheese is not None and roll is not None and int(cheese["t_us"]) >= int(roll["t_us"]) and cheese.get("value"):
                line, colour = _("+{n} cheese").format(n=cheese.get("value")), CHEESE
            elif roll is not None:
                face = _("the cat") if roll.get("value") == "cat" else str(roll.get("value"))
                line, colour = _("rolled {face}").format(face=face), theme.MUTED
            else:
                line, colour = "", theme.MUTED
            draw_text(surface, line, lay.size(1.2), colour, text_r, align="left", min_size=lay.min_text)

    def _scores(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """Per player: shape, score, mice still on the way / safe / lost."""
        players = list(view.get("players", ()))
        scores = list(view.get("scores", ()))
        if not players:
            return
        row_h = min(lay.size(1.5), (r.height - lay.pad * (len(players) - 1)) // len(players))
        row_h = max(row_h, lay.min_text)
        counts: dict[int, dict[str, int]] = {}
        for m in view["mice"]:
            where = str(m["where"])
            kind = "way" if where == "start" or where.startswith("space-") else "lost" if where in ("eaten", "trapped") else "safe"
            counts.setdefault(int(m["owner"]), {}).setdefault(kind, 0)
            counts[int(m["owner"])][kind] += 1
        # one header line, then per player: score, and mice on the way / home / lost as numbers
        cols = ["★", _("on way"), _("home"), _("lost")]
        widths = [12, 34, 27, 27]  # "on way" the widest heading
        head = pygame.Rect(r.left + row_h, r.top, r.width - row_h - lay.pad, lay.min_text)
        x = head.left
        for text, w in zip(cols, widths, strict=True):
            cw = head.width * w // 100
            draw_text(surface, text, lay.min_text, theme.MUTED, pygame.Rect(x, head.top, cw, head.height), min_size=lay.min_text)
            x += cw
        y = head.bottom + lay.pad // 2
        row_h = min(row_h, (r.bottom - y - lay.pad * (len(players) - 1)) // len(players))
        row_h = max(row_h, lay.min_text)
        for p, name in enumerate(players):
            if y + row_h > r.bottom + 1:
                break
            row = pygame.Rect(r.left, y, r.width, row_h)
            current = view.get("turn") == p and view.get("phase") != "over"
            panel(surface, row, theme.blend(theme.PANEL, colour_of(str(name)), 0.35 if current else 0.12))
            draw_shape(surface, SHAPES[p % len(SHAPES)], (row.left + row_h // 2, row.centery), row_h // 3, colour_of(str(name)))
            c = counts.get(p, {})
            numbers = [scores[p] if p < len(scores) else 0, c.get("way", 0), c.get("safe", 0), c.get("lost", 0)]
            x = head.left
            for k, (value, w) in enumerate(zip(numbers, widths, strict=True)):
                cw = head.width * w // 100
                draw_text(surface, str(value), lay.size(1.2) if k == 0 else lay.min_text, theme.FG,
                          pygame.Rect(x, row.top, cw, row.height), min_size=lay.min_text)
                x += cw
            y += row_h + lay.pad

    def move_words(self, view: View, move: Mapping[str, Any]) -> str:
        """The highlighted move without naming unnumbered spaces: how far, or which house."""
        to = str(move.get("to", ""))
        mouse = str(move.get("mouse", ""))
        where = next((str(m["where"]) for m in view.get("mice", ()) if str(m["id"]) == mouse), "")
        if to == "emmentalia":
            return _("into Emmentalia")
        if to.startswith("space-"):
            if where.startswith("space-"):
                n = int(to.split("-")[1]) - int(where.split("-")[1])
                return ngettext("{n} space on", "{n} spaces on", n).format(n=n)
            return _("out of the start")
        house = next((h for h in view["board"]["houses"] if h["name"] == to), None)
        if house is not None:
            return _("into house {value}").format(value=house["value"])
        return to


__all__: Sequence[str] = ("VivaTopoScene", "BoardGeometry", "mouse_places", "COLOURS", "SHAPES")
