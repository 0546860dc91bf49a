"""What the HDMI screen says about the companion pages: the address, the
host PIN, one QR code to join (the seat picker: no seat's secret is ever on
the screen) while a seat has no phone, and "paused" while the host has
paused the game from the host page.

The PIN is shown only while the host needs it (no host page is logged in,
or the host asked to see it again): on a screen the whole room reads, it
would let any player open the host page and judge their own answer. With no
QR code to show, the address (and the PIN while needed) is one line drawn
in a free part of the header row, never over the game's picture; only QR
codes, or a PIN that finds no room in the header, take the corner panel.

Drawn by the loop thread over every frame (a Scene overlay). QR codes are
rendered once per URL and the panel once per change, so a frame costs one blit
(and, for the header line, one small scale of the header to find room).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pygame
import segno

from controller.protocol import PhonesPanel
from games.i18n import _, ngettext
from games.toolkit import theme
from games.toolkit.scene import player_name

#: QR codes kept (seats x re-issues in one game stay far below this)
MAX_CACHED = 64
#: the panel's lines stand at least this much of the type's size apart (closer, an accent touches the line above)
TIGHTEST_ROWS = 0.9
#: the placeholder a wording's list of seats goes in
UNITS = "{units}"
#: the header is looked at in columns this many pixels wide when looking for room for the address line
HEADER_PROBE_PX = 4
#: a column whose average differs from the header's fill by more than this holds the game's text
HEADER_INK = 3


def free_runs(surface: pygame.Surface, row: pygame.Rect, fill: tuple[int, int, int]) -> list[tuple[int, int]]:
    """The stretches of ``row`` (x from, x to) that hold nothing but ``fill``:
    the header scaled to one pixel high averages each column, so a column
    with any glyph in it differs from the plain fill."""
    probe = pygame.transform.smoothscale(surface.subsurface(row), (max(1, row.width // HEADER_PROBE_PX), 1))
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for x in range(probe.get_width() + 1):
        plain = x < probe.get_width() and all(abs(a - b) <= HEADER_INK for a, b in zip(tuple(probe.get_at((x, 0)))[:3], fill, strict=True))
        if plain and start is None:
            start = x
        elif not plain and start is not None:
            runs.append((row.left + start * HEADER_PROBE_PX, row.left + x * HEADER_PROBE_PX))
            start = None
    return runs


def wrap_whole(text: str, size: int, width: int) -> list[str]:
    """``text`` on lines no wider than ``width`` at ``size``: broken at spaces,
    and a word too wide for a line (an address) on lines of its own, broken
    after a dot, colon or slash where one is near, so the panel's type stays at
    the screen's smallest size instead of shrinking to a size nobody reads."""
    lines: list[str] = []
    for word in text.split():
        if lines and theme.TEXT.width(lines[-1] + " " + word, size) <= width:
            lines[-1] += " " + word
            continue
        rest = word
        while theme.TEXT.width(rest, size) > width and len(rest) > 1:
            cut = len(rest) - 1
            while cut > 1 and theme.TEXT.width(rest[:cut], size) > width:
                cut -= 1
            tidy = max(rest.rfind(mark, 0, cut) for mark in "./:") + 1  # "192.168." rather than "192.16"
            cut = tidy if tidy > cut // 2 else cut
            lines.append(rest[:cut])
            rest = rest[cut:]
        lines.append(rest)
    return lines


def wrap_pieces(pieces: Sequence[str], size: int, width: int) -> list[str] | None:
    """``pieces`` (words, or names with their spaces) on lines no wider than
    ``width`` at ``size``, never broken inside a piece; None when a piece is
    wider than a line (then a shorter wording is tried, not a cut one)."""
    lines: list[str] = []
    for piece in pieces:
        if theme.TEXT.width(piece, size) > width:
            return None
        if lines and theme.TEXT.width(lines[-1] + " " + piece, size) <= width:
            lines[-1] += " " + piece
        else:
            lines.append(piece)
    return lines


def wrap_units(template: str, units: Sequence[str], size: int, width: int) -> list[str] | None:
    """``template`` with ``units`` (names, seat numbers) listed in its
    ``{units}``, broken only at the template's spaces and between units, so
    a name reads whole on one line (None: a word or a unit is too wide)."""
    before, _sep, after = template.partition(UNITS)
    listed = [unit + "," for unit in units[:-1]] + list(units[-1:])
    return wrap_pieces(before.split() + listed + after.split(), size, width)


def seat_ranges(seats: Sequence[int]) -> list[str]:
    """Seat numbers (from 1) as the room reads them: three or more in a row
    as "1–3", the rest one by one ("1–3", "5", "7", "8")."""
    runs: list[list[int]] = []
    for seat in sorted(seats):
        if runs and seat == runs[-1][-1] + 1:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    out: list[str] = []
    for run in runs:
        out += [f"{run[0] + 1}–{run[-1] + 1}"] if len(run) >= 3 else [str(seat + 1) for seat in run]
    return out


def free_wordings(free: Sequence[tuple[int, str]]) -> list[tuple[str, list[str]]]:
    """The ways the panel may say which seats wait for a phone, the most
    telling first, each a template with ``{units}`` and what goes in it: the
    seats' names; their numbers, offered only while each free seat has its
    default name (then the number is the name: a seat the host renamed
    "Anna" is not "seat 3" to the room); how many seats are free."""
    seats = [seat for seat, _name in free]
    names = [name for _seat, name in free]
    wordings = [(_("Scan to join: {names}").format(names=UNITS), names)]
    if all(name == player_name(seat) for seat, name in free):
        wordings.append((_("Free seats: {seats}").format(seats=UNITS), seat_ranges(seats)))
    wordings.append((ngettext("{n} seat free", "{n} seats free", len(seats)).format(n=UNITS), [str(len(seats))]))
    return wordings


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of dark (True) modules, quiet zone excluded."""
    code = segno.make(text, error="m", micro=False)
    return [[bool(m) for m in row] for row in code.matrix]


def qr_surface(text: str, size: int) -> pygame.Surface:
    """A QR code ``size`` pixels square (whole pixels per module), white quiet zone included."""
    rows = qr_matrix(text)
    modules = len(rows) + 8  # 4 modules of quiet zone each side
    scale = max(1, size // modules)
    surface = pygame.Surface((modules * scale, modules * scale))
    surface.fill((255, 255, 255))
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), pygame.Rect((x + 4) * scale, (y + 4) * scale, scale, scale))
    return surface


class CompanionOverlay:
    """Called with the frame's surface after the scene drew it."""

    def __init__(self, base_url: Callable[[], str], pin: Callable[[], str] | str,
                 join_url: Callable[[], str | None] | None,
                 joined: Callable[[], Sequence[bool]], names: Callable[[], Sequence[str]] | Sequence[str],
                 paused: Callable[[], bool] | None = None, show_pin: Callable[[], bool] | None = None,
                 phones_wanted: Callable[[], bool] | None = None) -> None:
        self.base_url = base_url
        #: the PIN as it is now (the host may rotate it)
        self.current_pin: Callable[[], str] = pin if callable(pin) else (lambda: str(pin))
        #: whether the room may see the PIN now (no host logged in, or the host asked); always without a server
        self.show_pin = show_pin or (lambda: True)
        self.join_url = join_url  # None: a game played on the buttons (host page and scoreboard only)
        #: whether a free seat is worth a phone now (a team quiz on the buzzers: only while teams sign up)
        self.phones_wanted = phones_wanted or (lambda: True)
        self.joined = joined
        #: the players' names as they are now (the host may rename them)
        fixed = None if callable(names) else list(names)
        self.names: Callable[[], Sequence[str]] = names if callable(names) else (lambda: fixed or [])
        self.paused = paused or (lambda: False)
        #: whether phones are served now (a panel drawn from what their server says in the views: not until it said)
        self.serving: Callable[[], bool] = lambda: True
        self._codes: dict[tuple[str, int], pygame.Surface] = {}
        self._key: object = None
        self._panel: pygame.Surface | None = None
        self._at = (0, 0)
        self._banner: tuple[tuple[int, int], pygame.Surface, tuple[int, int]] | None = None
        #: where the last frame put the header line (None: not drawn, the corner panel or nothing instead)
        self.line_at: pygame.Rect | None = None
        #: where the last frame put the corner panel (None: not drawn)
        self.panel_at: pygame.Rect | None = None
        #: the body the scene last laid out, for a surface of that size (``aside``): the panel's room
        self.body_at: tuple[tuple[int, int], pygame.Rect] | None = None

    def code(self, url: str, size: int) -> pygame.Surface:
        key = (url, size)
        if key not in self._codes:
            if len(self._codes) >= MAX_CACHED:
                self._codes.clear()
            self._codes[key] = qr_surface(url, size)
        return self._codes[key]

    def waiting(self) -> tuple[int, ...]:
        """The seats no phone holds yet (none for a game played on the buttons)."""
        if self.join_url is None or not self.phones_wanted() or self.join_url() is None:
            return ()
        return tuple(i for i, joined in enumerate(self.joined()) if not joined)

    def wants_panel(self, surface: pygame.Surface) -> bool:
        """Whether this frame takes the corner panel: a seat waits for a
        phone, or the PIN must be shown and the header has no room for the
        line. Read once the header is drawn (the line looks for room there)."""
        if not self.serving():
            return False
        show_pin = self.show_pin()
        if self.waiting():
            return True
        return show_pin and self.line_place(surface, show_pin) is None

    def aside(self, surface: pygame.Surface, body: pygame.Rect) -> int:
        """How much of the scene's ``body`` (between its header and its strip)
        the panel takes at the right this frame (0: none): the scene lays its
        picture out in the rest, so the panel lies over nothing of the game
        (a Scene's ``asides``). The panel goes in that body, never over the strip."""
        self.body_at = (surface.get_size(), body.copy())
        if not self.wants_panel(surface):
            return 0
        lay = theme.layout_for(surface)
        return self.panel_width(lay, body) + lay.pad

    def __call__(self, surface: pygame.Surface) -> None:
        """The header line when no QR code is wanted and it fits, else the
        corner panel (drawn again only when what it says changed: a seat
        joined, a new code, the PIN shown or hidden, another window size)."""
        self.line_at = self.panel_at = None
        if not self.serving():
            return
        waiting = self.waiting()
        names = tuple(self.names())
        show_pin = self.show_pin()
        if not waiting and self.header_line(surface, show_pin):
            pass  # the address (and PIN) fit in the header: the game's picture stays clear
        elif waiting or show_pin:
            key = (surface.get_size(), self.body_at, self.base_url(), waiting, names, show_pin, self.current_pin())
            if key != self._key or self._panel is None:
                self._key = key
                self._panel, self._at = self.panel(surface, waiting, names, show_pin)
            self.panel_at = surface.blit(self._panel, self._at)
        if self.paused():
            self.banner(surface)

    def line_text(self, show_pin: bool) -> str:
        phones = _("Phones: {url}").format(url=self.base_url())
        return _("{phones} · Host PIN {pin}").format(phones=phones, pin=self.current_pin()) if show_pin else phones

    def line_place(self, surface: pygame.Surface, show_pin: bool) -> tuple[pygame.Surface, pygame.Rect] | None:
        """The address line (and the PIN while it is needed) and where it goes:
        the widest free stretch of the header, in its middle when the middle
        is free; None when it fits nowhere there."""
        lay = theme.layout_for(surface)
        text = self.line_text(show_pin)
        gap = 2 * lay.pad  # clear of the game's text on both sides
        best = max(free_runs(surface, lay.header, theme.PANEL), key=lambda r: r[1] - r[0], default=(0, 0))
        room = best[1] - best[0] - 2 * gap
        size = theme.fit_size(text, lay.min_text, room, max(12, lay.min_text * 2 // 3))
        if room <= 0 or theme.TEXT.width(text, size) > room:
            return None
        line = theme.TEXT.render(text, size, theme.MUTED)
        at = line.get_rect(midleft=(best[0] + gap, lay.header.centery))
        centred = line.get_rect(center=(lay.width // 2, lay.header.centery))  # the middle, when the middle is free
        if best[0] + gap <= centred.left and centred.right <= best[1] - gap:
            at = centred
        return line, at

    def header_line(self, surface: pygame.Surface, show_pin: bool) -> bool:
        """The address line drawn in the header if it fits there; False if not."""
        place = self.line_place(surface, show_pin)
        if place is None:
            return False
        surface.blit(*place)
        self.line_at = place[1]
        return True

    def banner(self, surface: pygame.Surface) -> None:
        """"Paused" across the middle of the picture, for the whole room."""
        size = surface.get_size()
        if self._banner is None or self._banner[0] != size:
            lay = theme.layout_for(surface)
            box = pygame.Rect(0, 0, round(lay.width * 0.6), lay.size(4))
            box.center = lay.body.center
            out = pygame.Surface(box.size, pygame.SRCALPHA)
            fill = theme.STATUS_COLORS["locked"]
            theme.panel(out, out.get_rect(), fill)
            ink = theme.text_on(fill)
            top = pygame.Rect(0, 0, box.width, box.height * 6 // 10)
            theme.draw_text(out, _("PAUSED"), lay.size(2.2), ink, top.inflate(-4 * lay.pad, 0), min_size=lay.min_text)
            theme.draw_text(out, _("the host paused the game: the bells do nothing until it goes on"), lay.min_text,
                            ink, pygame.Rect(0, top.bottom, box.width, box.height - top.height).inflate(-4 * lay.pad, 0),
                            min_size=lay.min_text // 2)
            self._banner = (size, out, box.topleft)
        surface.blit(self._banner[1], self._banner[2])

    def panel(self, surface: pygame.Surface, waiting: tuple[int, ...],
              names: Sequence[str] = (), show_pin: bool = True) -> tuple[pygame.Surface, tuple[int, int]]:
        """The panel for ``surface``'s size, and where it goes (the top of the
        body's right, the room ``aside`` kept for it): the address, the PIN
        while needed, and while seats have no phone one QR code of the seat
        picker with those seats' names."""
        lay = theme.layout_for(surface)
        body = self.body_at[1] if self.body_at is not None and self.body_at[0] == surface.get_size() else lay.body
        line = lay.min_text
        free = [(seat, names[seat] if seat < len(names) else player_name(seat)) for seat in waiting]
        url = self.join_url() if waiting and self.join_url is not None else None
        code = self.code(url, self.code_side(lay, body)) if url is not None else None
        lines, heights = self.texts(lay, body, free if code is not None else [], show_pin)
        width = self.panel_width(lay, body)
        height = lay.pad * 2 + sum(heights) + (code.get_height() if code is not None else 0)
        box = pygame.Rect(0, 0, width, min(height, body.height - lay.pad))
        out = pygame.Surface(box.size, pygame.SRCALPHA)  # rounded corners over whatever the scene drew
        theme.panel(out, box, theme.PANEL)
        y = lay.pad
        for text, row_h in zip(lines, heights, strict=True):  # each line fits: none shrinks below the smallest type
            theme.draw_text(out, text, line, theme.FG, pygame.Rect(lay.pad, y, width - 2 * lay.pad, row_h),
                            align="left", min_size=line)
            y += row_h
        if code is not None:
            out.blit(code, ((width - code.get_width()) // 2, y))
        if pygame.display.get_surface() is not None:
            out = out.convert_alpha()  # the screen's pixel format: blitting needs no conversion each frame
        return out, (body.right - width, body.top)

    def texts(self, lay: theme.Layout, body: pygame.Rect, free: Sequence[tuple[int, str]],
              show_pin: bool) -> tuple[list[str], list[int]]:
        """The panel's lines and each one's height, every line in the
        smallest type (``Layout.min_text``, the smallest any scene draws) and
        never cut. The free seats (``free``: seat, name) are said in the
        first of ``free_wordings`` that fits above the code, lines moved
        closer together when that helps (never closer than
        ``TIGHTEST_ROWS`` of the type's size): their names while they fit
        (each whole on one line), else their numbers, else how many. The
        address alone may be broken inside (it has no spaces)."""
        line = lay.min_text
        row_h = int(line * 1.15)
        width = self.panel_width(lay, body) - 2 * lay.pad
        # the address on lines of its own, broken where it must (never shrunk below the smallest type, never cut)
        lines = wrap_whole(_("Phones: {url}").format(url=self.base_url()), line, width)
        if show_pin:
            lines += self.pin_lines(line, width)
        if not free:
            return lines, [row_h] * len(lines)
        room = body.height - 3 * lay.pad - self.code_side(lay, body)  # what the panel's texts may take
        wordings = free_wordings(free)
        for template, units in wordings:
            said = wrap_units(template, units, line, width)
            step = min(row_h, room // (len(lines) + len(said))) if said else 0
            if said and step >= line * TIGHTEST_ROWS:
                return lines + said, [step] * (len(lines) + len(said))
        template, units = wordings[-1]  # no room even for the count: it, as close as lines may stand
        said = wrap_units(template, units, line, width) or wrap_whole(template.replace(UNITS, units[0]), line, width)
        return lines + said, [int(line * TIGHTEST_ROWS)] * (len(lines) + len(said))

    def pin_lines(self, size: int, width: int) -> list[str]:
        """The host PIN with its label, its words whole; the PIN with a short
        label when a word of the long one is wider than the panel ("PIN
        prowadzącego" in Polish would read "prowadzące" / "go 123456")."""
        pin = self.current_pin()
        labelled = _("Host PIN {pin}").format(pin=pin)
        return (wrap_pieces(labelled.split(), size, width) or wrap_pieces(_("PIN {pin}").format(pin=pin).split(), size, width)
                or wrap_whole(labelled, size, width))

    @staticmethod
    def code_side(lay: theme.Layout, body: pygame.Rect) -> int:
        """The QR code's side: a third of the body's height (a phone reads it
        across the room), at least five letters of the smallest type wide."""
        return max(body.height // 3, lay.min_text * 5)

    @classmethod
    def panel_width(cls, lay: theme.Layout, body: pygame.Rect) -> int:
        """The panel's width: the QR code's and no more (its texts are broken
        onto more lines instead), so the game keeps the rest for its words."""
        return cls.code_side(lay, body) + 2 * lay.pad


def panel_overlay(panel: Callable[[], PhonesPanel | None], names: Callable[[], Sequence[str]],
                  paused: Callable[[], bool]) -> CompanionOverlay:
    """The overlay of a screen whose phones are served by their own process (a
    peer of the deciding process): drawn from the ``PhonesPanel`` the newest
    view carries (``panel()``; None: nothing is drawn), the seats' names and
    the host's pause from that view too (``viewer.show_phones``)."""
    empty = PhonesPanel("", None, ())

    def now() -> PhonesPanel:
        return panel() or empty

    overlay = CompanionOverlay(lambda: now().base_url, lambda: now().pin or "", lambda: now().join_url,
                               lambda: now().held, names, paused, lambda: now().pin is not None,
                               lambda: now().phones_wanted)
    overlay.serving = lambda: panel() is not None
    return overlay
