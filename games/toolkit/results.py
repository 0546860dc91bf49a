"""The results screen at the end of every game: the ranking, the winner big.

Drawn from the finished game's public view (``scores``, ``teams``, and the
reaction duel's ``leaderboard`` when there is one), so any game gets one.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Hashable, Sequence

import pygame

from games.i18n import N_, _, format_number, ngettext
from games.toolkit import theme
from games.toolkit.results_words import ranking, results_strip, won_stations
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text, fmt_ms, panel

#: how long an end screen celebrates: the podium rises, then confetti falls for the rest
CELEBRATION_US = 5_000_000
RISE_US = 700_000


class Celebration:
    """When an end screen was first shown, so its animation runs from then
    (the scene is drawn from the view and the clock alone; the moment the
    result first appeared is the one thing it remembers)."""

    def __init__(self) -> None:
        self._key: Hashable = None
        self._since = 0

    def age(self, key: Hashable, now_us: int) -> int:
        """Microseconds since ``key`` (the result: the scores) was first drawn."""
        if key != self._key:
            self._key, self._since = key, now_us
        return max(0, now_us - self._since)


def rise(age_us: int) -> float:
    """How far the podium has risen: eased from a third up to full height."""
    t = min(1.0, age_us / RISE_US)
    return 1 / 3 + 2 / 3 * (1 - (1 - t) ** 3)


def draw_confetti(surface: pygame.Surface, area: pygame.Rect, age_us: int, colors: Sequence[theme.Color],
                  pieces: int = 110) -> None:
    """Confetti in the winners' colours falling over ``area`` for
    ``CELEBRATION_US`` (the same pieces at the same moment every time)."""
    if not colors or not 0 <= age_us < CELEBRATION_US:
        return
    s = age_us / 1_000_000
    w = max(8, area.height // 30)
    for k in range(pieces):
        x = area.left + (k * 7919 % 1000) / 1000 * area.width + math.sin(s * 3 + k) * area.width * 0.012
        y = area.top + area.height * ((k * 104_729 % 1000) / 1000 - 0.6 + (0.28 + (k * 31 % 100) / 250) * s)
        if area.top <= y <= area.bottom - w:
            flat = (int(s * 6) + k) % 2 == 0  # a piece turning over as it falls
            r = pygame.Rect(round(x), round(y), w if flat else w // 2, w // 2 if flat else w)
            pygame.draw.rect(surface, colors[k % len(colors)], r.clip(area))


#: the lines a name on the podium may take above its block (a team's 24 characters on a narrow block of a tie)
NAME_LINES = 3


def draw_podium(surface: pygame.Surface, area: pygame.Rect, lay: Layout, rows: list[tuple[int, list[int], int]],
                color: Callable[[list[int]], theme.Color], label: Callable[[list[int]], str],
                amount: Callable[[int], str], detail: Callable[[list[int]], str | None] = lambda _m: None,
                risen: float = 1.0, crowned: bool = True) -> pygame.Rect | None:
    """The first three on a podium in their colours (the winner in the middle,
    highest, under a crown), everyone after them under or beside them (``_rest_plan``),
    or, when no podium leaves them room, everyone in a table (``_draw_table``).
    ``rows``: (place, stations, score), best first; any game's end screen can use it.
    ``risen``: how far the blocks have risen (0-1, the celebration's start); ``crowned``: the
    first place won (no crown when nobody scored: ``results_words.won_stations``).
    Returns the winner's block."""
    winner: pygame.Rect | None = None
    top3 = on_stage(rows)
    rest = rows[len(top3):]
    plan = _rest_plan(area, lay, top3, rest, label)
    if plan is None:  # long names of many players: no podium leaves room for everyone after it
        return _draw_table(surface, area, lay, rows, color, label)
    stage, placed = plan
    # second left, first centre, third right; more winners than three side by side
    slots = list(range(len(top3))) if len(top3) > 3 else [1, 0, 2] if len(top3) >= 2 else [0]
    slot_w = stage.width // max(3, len(top3)) if len(top3) >= 2 else stage.width // 2
    heights = {1: 0.64, 2: 0.50, 3: 0.40}
    name_h = lay.size(1.6)
    x0 = stage.left + (stage.width - slot_w * len(slots)) // 2
    for pos, k in enumerate(s for s in slots if s < len(top3)):
        place, members, score = top3[k]
        fill = color(members)
        ink = theme.text_on(fill)
        # a name shrinks, then takes more lines, before it is cut ("Player 1" cut to "Play…" named nobody)
        name_size, name_lines = podium_name_lines(label(members), lay.size(1.6 if place == 1 else 1.3),
                                                  name_width(slot_w, lay), lay.min_text)
        tall = max(name_h, len(name_lines) * theme.line_height(name_size))
        # the winner's name and crown keep their room above the block on a low stage (players listed under it)
        block_h = min(round(stage.height * heights.get(place, 0.3) * risen), stage.height - tall - name_h - 3 * lay.pad)
        col = pygame.Rect(x0 + pos * slot_w + lay.pad, stage.top, slot_w - 2 * lay.pad, stage.height)
        block = pygame.Rect(col.left, col.bottom - block_h, col.width, block_h)
        panel(surface, block, fill, radius=max(6, col.width // 24))
        parts = [block.height * 48 // 100, block.height * 26 // 100, block.height * 26 // 100]
        draw_text(surface, str(place), max(lay.min_text, min(lay.size(4), parts[0])), ink, pygame.Rect(block.left, block.top, block.width, parts[0]))
        if parts[1] >= lay.min_text:  # while the block rises, its score shows once it has room
            amount_r = pygame.Rect(block.left + lay.pad, block.top + parts[0], block.width - 2 * lay.pad, parts[1])
            said = amount(score)  # "12 points"; on a block too narrow for it even on two lines, the number alone
            if not theme.fits(said, min(lay.size(1.3), parts[1]), amount_r.width, lay.min_text,
                              max(1, amount_r.height // theme.line_height(lay.min_text))):
                said = format_number(score)
            theme.draw_fitted(surface, said, min(lay.size(1.3), parts[1]), ink, amount_r, lay.min_text)
        extra = detail(members)
        if extra and parts[2] >= lay.min_text:
            draw_text(surface, extra, lay.min_text, ink,
                      pygame.Rect(block.left + lay.pad, block.top + parts[0] + parts[1], block.width - 2 * lay.pad, parts[2]),
                      min_size=lay.min_text)
        name_r = pygame.Rect(col.centerx - name_width(slot_w, lay) // 2, block.top - tall - lay.pad, name_width(slot_w, lay), tall)
        _draw_lines(surface, name_size, name_lines, name_r)
        if place == 1 and crowned:
            winner = winner or block
            _crown(surface, pygame.Rect(col.centerx - name_h, name_r.top - name_h - lay.pad, 2 * name_h, name_h))
    for r, row in zip(placed, rest, strict=True):
        _list_row(surface, r, lay, row, color, label)
    return winner



def lists_everyone(area: pygame.Rect, lay: Layout, rows: list[tuple[int, list[int], int]],
                   label: Callable[[list[int]], str]) -> bool:
    """Whether ``draw_podium`` in ``area`` puts everyone in ``rows`` on the blocks or in the rows after them
    (else it draws them all in a table, without the blocks)."""
    top3 = on_stage(rows)
    return _rest_plan(area, lay, top3, rows[len(top3):], label) is not None

def _rest_plan(area: pygame.Rect, lay: Layout, top3: list[tuple[int, list[int], int]], rest: list[tuple[int, list[int], int]],
               label: Callable[[list[int]], str]) -> tuple[pygame.Rect, list[pygame.Rect]] | None:
    """(the stage of the blocks, a rect for each row after them): in a row under the blocks, centred, as many
    side by side as stand on one line (one player beside the blocks looked like a stray; the blocks keep the
    whole width for their names); too many for that, the list beside them (``_list_plan``); too many for that
    (sixteen players: it left six of thirteen out), in columns beside them down to the blocks' feet (``_side_plan``).
    None when none of these holds everyone."""
    if not rest:
        return area, []
    if (under := _under_plan(area, lay, rest, label)) is not None:
        columns, row_w, row_h = under
        stage = pygame.Rect(area.left, area.top, area.width, area.height - -(-len(rest) // columns) * (row_h + lay.pad))
        across = min(columns, len(rest))
        x0 = area.centerx - (across * row_w + (across - 1) * lay.pad) // 2
        return stage, [pygame.Rect(x0 + (k % columns) * (row_w + lay.pad), stage.bottom + lay.pad + (k // columns) * (row_h + lay.pad),
                                   row_w, row_h) for k in range(len(rest))]
    if (listed := _list_plan(area, lay, top3, rest, label)) is not None:
        list_w, columns, beside, list_h = listed
        stage = pygame.Rect(area.left, area.top, area.width - (list_w + 2 * lay.pad if beside else 0), area.height - list_h)
        per_column = -(-len(rest) // columns)
        placed = []
        for column in range(columns):
            left = area.right - list_w if beside else area.left + column * (list_w + lay.pad)
            y = area.top + area.height * 30 // 100 if beside else stage.bottom + lay.pad
            for row in rest[column * per_column:(column + 1) * per_column]:
                placed.append(pygame.Rect(left, y, list_w, _list_row_height(row, list_w, lay, label)))
                y = placed[-1].bottom + lay.pad
        return stage, placed
    if (side := _side_plan(area, lay, top3, rest, label)) is not None:
        columns, row_w, row_h, gap = side
        width = columns * row_w + (columns - 1) * lay.pad
        per_column = -(-len(rest) // columns)
        top = area.bottom - per_column * (row_h + gap) + gap
        return pygame.Rect(area.left, area.top, area.width - width - 2 * lay.pad, area.height), [
            pygame.Rect(area.right - width + k // per_column * (row_w + lay.pad), top + k % per_column * (row_h + gap), row_w, row_h)
            for k in range(len(rest))]
    return None

def on_stage(rows: list[tuple[int, list[int], int]]) -> list[tuple[int, list[int], int]]:
    """The rows standing on the podium's blocks: the first three, and everyone
    tied for first (four winners of 23 points: never one of them in the list), six at most."""
    return rows[:min(6, max(3, sum(1 for place, _m, _s in rows if place == 1)))]


def whole_on_podium(width: int, lay: Layout, top: list[tuple[int, list[int], int]], label: Callable[[list[int]], str]) -> bool:
    """Whether every name on a podium ``width`` wide is drawn whole (in the smallest type, on ``NAME_LINES`` at
    most, a number on the line of the word before it)."""
    slot_w = width // max(3, len(top)) if len(top) >= 2 else width // 2
    for _p, members, _s in top:
        size, lines = podium_name_lines(label(members), lay.min_text, name_width(slot_w, lay), lay.min_text)
        if len(lines) > NAME_LINES or any(theme.TEXT.width(line, size) > name_width(slot_w, lay) for line in lines):
            return False
    return True


#: a line of a wrapped name that starts with a number ("1" of "Player 1", "12" of "Tým 12")
_NUMBER_FIRST = re.compile(r"\d+(?!\S*[^\W\d])")


def podium_name_lines(text: str, size: int, width: int, min_size: int) -> tuple[int, list[str]]:
    """A name above a block as ``theme.fit_lines`` fits it (shrunk to the
    smallest type, then on more lines), but a number never on a line of its own:
    "Player / 1" read as two names. The word before it goes down with it
    ("Anna / Player 1"); a name that still does not fit is the layout's to avoid
    (``whole_on_podium``)."""
    fitted, lines = theme.fit_lines(text, size, width, min_size, NAME_LINES)
    out: list[str] = []
    for line in lines:
        if out and _NUMBER_FIRST.match(line):
            head, _space, word = out[-1].rpartition(" ")
            out[-1:] = [head, f"{word} {line}"] if head else [f"{word} {line}"]
        else:
            out.append(line)
    return fitted, out


def _draw_lines(surface: pygame.Surface, size: int, lines: list[str], rect: pygame.Rect) -> None:
    """A name's lines (``podium_name_lines``) centred in ``rect``."""
    line_h = theme.line_height(size)
    top = rect.top + (rect.height - line_h * len(lines)) // 2
    for k, line in enumerate(lines):
        draw_text(surface, line, size, theme.FG, pygame.Rect(rect.left, top + k * line_h, rect.width, line_h), min_size=size)


def _under_plan(area: pygame.Rect, lay: Layout, rest: list[tuple[int, list[int], int]],
                label: Callable[[list[int]], str]) -> tuple[int, int, int] | None:
    """(columns, a row's width, its height) of the rows under the podium: as
    many side by side as stand on one line (the lines as even as they can be),
    none narrower than a quarter of the body; None when they would leave the blocks less than 55 % of the height
    (sixteen players: the list beside the blocks)."""
    one_line = max(_one_line_width(row, lay, label) for row in rest) + 2 * lay.pad
    most = max(1, min(len(rest), (area.width + lay.pad) // (one_line + lay.pad)))
    columns = -(-len(rest) // -(-len(rest) // most))  # the lines of rows as even as they can be: 3 and 2, not 4 and 1
    row_w = min((area.width - (columns - 1) * lay.pad) // columns, max(one_line, area.width // 4))
    row_h = max(_list_row_height(row, row_w, lay, label) for row in rest)
    if -(-len(rest) // columns) * (row_h + lay.pad) > area.height * 45 // 100:
        return None
    return columns, row_w, row_h


def _list_plan(area: pygame.Rect, lay: Layout, top3: list[tuple[int, list[int], int]],
               rest: list[tuple[int, list[int], int]], label: Callable[[list[int]], str]) -> tuple[int, int, bool, int] | None:
    """(its width, columns, whether beside the blocks, its height under them) of the list beside the blocks
    (from 30 % of the height down), or on a stage too narrow for that (beside the QR panel) under them, full
    width, in two columns when long; None when it would not hold everyone (nor leave the blocks 40 % of the height)."""
    list_w = _list_width(area, lay, top3, rest, label)
    if whole_on_podium(area.width - list_w - 2 * lay.pad, lay, top3, label) \
            and all(_list_row_fits(row, list_w, lay, label) for row in rest):
        tall = sum(_list_row_height(row, list_w, lay, label) + lay.pad for row in rest) - lay.pad
        return (list_w, 1, True, 0) if tall <= area.height - area.height * 30 // 100 else None
    columns = 1 if len(rest) <= 2 else 2
    list_w = (area.width - (columns - 1) * lay.pad) // columns
    tallest = max(_list_row_height(row, list_w, lay, label) for row in rest)
    list_h = -(-len(rest) // columns) * (tallest + lay.pad)
    return (list_w, columns, False, list_h) if list_h <= area.height * 60 // 100 else None


def _side_plan(area: pygame.Rect, lay: Layout, top3: list[tuple[int, list[int], int]],
               rest: list[tuple[int, list[int], int]], label: Callable[[list[int]], str]) -> tuple[int, int, int, int] | None:
    """(columns, a row's width, its height, the gap between rows) of the rows in columns beside the blocks,
    each on one line in the smallest type, as few columns as hold them all (the gaps narrower before a column
    more); None when the names on the blocks would not stay whole beside them (on 40 % of the width at least)."""
    row_w = max(_one_line_width(row, lay, label) for row in rest) + 2 * lay.pad
    row_h = max(_list_row_height(row, row_w, lay, label) for row in rest)
    for columns in range(1, len(rest) + 1):
        per_column = -(-len(rest) // columns)
        gap = next((g for g in (lay.pad, lay.pad // 2, 2) if per_column * (row_h + g) - g <= area.height), None)
        if gap is None:
            continue
        stage_w = area.width - columns * row_w - (columns - 1) * lay.pad - 2 * lay.pad
        if stage_w < area.width * 40 // 100 or not whole_on_podium(stage_w, lay, top3, label):
            return None
        return columns, row_w, row_h, gap
    return None


def _draw_table(surface: pygame.Surface, area: pygame.Rect, lay: Layout, rows: list[tuple[int, list[int], int]],
                color: Callable[[list[int]], theme.Color], label: Callable[[list[int]], str]) -> pygame.Rect:
    """Everyone in rows ("1. Anna  5"), the best first, down the columns: as few columns as hold every name on
    two lines at most (on four, a name longer than its row allows is cut rather than a player left out).
    Returns the winner's row."""
    for columns in range(2, 5):
        row_w = (area.width - (columns - 1) * lay.pad) // columns
        per_column = -(-len(rows) // columns)
        row_h = max(_list_row_height(row, row_w, lay, label) for row in rows)
        if per_column * (row_h + lay.pad) - lay.pad <= area.height and all(_list_row_fits(row, row_w, lay, label) for row in rows):
            break
    row_h = min(row_h, (area.height + lay.pad) // per_column - lay.pad)
    placed = [pygame.Rect(area.left + k // per_column * (row_w + lay.pad), area.top + k % per_column * (row_h + lay.pad),
                          row_w, row_h) for k in range(len(rows))]
    for r, row in zip(placed, rows, strict=True):
        _list_row(surface, r, lay, row, color, label)
    return placed[0]


def name_width(slot_w: int, lay: Layout) -> int:
    """How wide a name above a block of a ``slot_w`` slot may be: wider than its
    block by half the gap each side (a long word whole: "Wiśniewska-" at 720 p),
    a pad clear of its neighbours'."""
    return slot_w - lay.pad


def _list_width(area: pygame.Rect, lay: Layout, top3: list[tuple[int, list[int], int]],
                rest: list[tuple[int, list[int], int]], label: Callable[[list[int]], str]) -> int:
    """The list beside the blocks: a third of the stage, wider (to half of it) when
    a row needs it to stay on one line and no name on the blocks takes more lines
    for it ("2. Hráč 4" broke after "Hráč" beside the quiz's table with room to spare)."""
    third = area.width * 34 // 100
    one_line = max(_one_line_width(row, lay, label) for row in rest)
    if third < one_line <= area.width // 2 and whole_on_podium(area.width - one_line - 2 * lay.pad, lay, top3, label) \
            and _name_lines(area.width - one_line - 2 * lay.pad, lay, top3, label) \
            == _name_lines(area.width - third - 2 * lay.pad, lay, top3, label):
        return one_line
    return third


def _name_lines(width: int, lay: Layout, top: list[tuple[int, list[int], int]], label: Callable[[list[int]], str]) -> list[int]:
    """How many lines each name above the blocks takes on a stage ``width`` wide."""
    slot_w = width // max(3, len(top)) if len(top) >= 2 else width // 2
    return [len(podium_name_lines(label(members), lay.size(1.6 if place == 1 else 1.3), name_width(slot_w, lay),
                                  lay.min_text)[1]) for place, members, _s in top]


def _one_line_width(row: tuple[int, list[int], int], lay: Layout, label: Callable[[list[int]], str]) -> int:
    """The list's width in which a row's "4. Emil" and its score stand on one line."""
    text, _number, name_w, _number_w = _list_parts(row, 0, lay, label)  # name_w: minus what is not the name
    return theme.TEXT.width(text, lay.min_text) - name_w


def _list_parts(row: tuple[int, list[int], int], list_w: int, lay: Layout, label: Callable[[list[int]], str]) -> tuple[str, str, int, int]:
    """A listed row's texts, "3. Dora" and its score, and their widths: the
    score takes what it needs, the name the rest of the row."""
    place, members, score = row
    number = format_number(score)
    number_w = theme.TEXT.width(number, lay.min_text)
    return f"{place}. {label(members)}", number, list_w - 4 * lay.pad - number_w - 2 * lay.pad, number_w


def _list_row_fits(row: tuple[int, list[int], int], list_w: int, lay: Layout, label: Callable[[list[int]], str]) -> bool:
    text, _number, name_w, _number_w = _list_parts(row, list_w, lay, label)
    return name_w > 0 and theme.fits(text, lay.min_text, name_w, lay.min_text)


def _list_row_height(row: tuple[int, list[int], int], list_w: int, lay: Layout, label: Callable[[list[int]], str]) -> int:
    """A listed row's height: its name on two lines when it must."""
    text, _number, name_w, _number_w = _list_parts(row, list_w, lay, label)
    lines = len(theme.fit_lines(text, lay.min_text, max(1, name_w), lay.min_text)[1])
    return max(lay.size(1.25), lines * theme.line_height(lay.min_text) + lay.pad)


def _list_row(surface: pygame.Surface, r: pygame.Rect, lay: Layout, row: tuple[int, list[int], int],
              color: Callable[[list[int]], theme.Color], label: Callable[[list[int]], str]) -> None:
    """One player (or team) after the podium's blocks: a stripe of their colour, "4. Emil", the score."""
    text, number, name_w, number_w = _list_parts(row, r.width, lay, label)
    panel(surface, r, theme.PANEL)
    pygame.draw.rect(surface, color(row[1]), pygame.Rect(r.left, r.top, max(8, lay.size(1.25) // 4), r.height))
    inner = r.inflate(-4 * lay.pad, 0)
    theme.draw_fitted(surface, text, lay.min_text, theme.FG, pygame.Rect(inner.left, r.top, name_w, r.height),
                      lay.min_text, align="left")
    draw_text(surface, number, lay.min_text, theme.FG, pygame.Rect(inner.right - number_w, r.top, number_w, r.height),
              align="right", min_size=lay.min_text)


def _crown(surface: pygame.Surface, r: pygame.Rect) -> None:
    pts = [(r.left, r.bottom), (r.left, r.top + r.height // 3), (r.left + r.width // 4, r.centery),
           (r.centerx, r.top), (r.right - r.width // 4, r.centery), (r.right, r.top + r.height // 3), (r.right, r.bottom)]
    pygame.draw.polygon(surface, theme.STATUS_COLORS["first"], pts)
    pygame.draw.polygon(surface, theme.FG, pts, width=max(2, r.height // 12))


class ResultsScene(Scene):
    title = N_("Results")

    def __init__(self, title: str | None = None, colors: list[theme.Color] | None = None, game_title: str = "") -> None:
        super().__init__(title, colors)
        self.game_title = game_title
        self.celebration = Celebration()
        self.risen = 1.0  # how far the podium has risen this frame

    def header(self, view: View) -> tuple[str, str]:
        return _(self.title), _(self.game_title)

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        rows = ranking(view)
        if not rows:
            draw_text(surface, _("no scores"), lay.size(3), theme.FG, area)
            return
        age = self.celebration.age(tuple(view.get("scores", ())), now_us)
        draw_confetti(surface, area, age, [self.color(view, m[0]) for _p, m, _s in rows[:3]] + [theme.STATUS_COLORS["first"]])
        self.risen = rise(age)
        self.draw_podium(surface, area, lay, view, strip, rows)

    def draw_podium(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
                    rows: list[tuple[int, list[int], int]]) -> None:
        leaderboard = bool(view.get("leaderboard"))
        board = {int(r["player"]): r for r in view.get("leaderboard", ())}

        def amount(score: int) -> str:
            unit = ngettext("{n} win", "{n} wins", score) if leaderboard else ngettext("{n} point", "{n} points", score)
            return unit.format(n=format_number(score))

        def detail(members: list[int]) -> str | None:
            rec = board.get(members[0])
            if rec and len(members) == 1 and rec.get("best_us") is not None:
                return _("best {time}").format(time=fmt_ms(rec.get("best_us"), 1))
            return None

        draw_podium(surface, area, lay, rows, lambda m: self.color(view, m[0]), lambda m: self._label(view, strip, m),
                    amount, detail, self.risen, crowned=bool(won_stations(rows)))

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        """The game is over: the winners' cells say "WON" and flash (as their lamps do), the
        rest keep only faults; the phones' pages and the league's board word it so too
        (``games.toolkit.results_words``, no pygame)."""
        return results_strip(view, strip)

    def _label(self, view: View, strip: Strip, members: list[int]) -> str:
        teams = list(view.get("teams", ()))
        if len(members) > 1 or (teams and int(view.get("team_count", len(teams))) < len(teams)):
            return _("Team {n}").format(n=int(teams[members[0]]) + 1)
        return self.name(strip, members[0])
