"""The help overlay (``h`` or ``?``): every key of the running game and host.

The rows are built from what the keyboard source binds and what the game's
spec says its host buttons do (``GameSpec.host_aliases``/``host_keys``), so a
new game's keys show up without a line here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pygame

from games.base import ANY, GENERIC_HOST_BUTTONS, ClipCues, GameSpec
from games.i18n import N_, _, word
from games.toolkit import theme
from games.toolkit.theme import Layout, draw_text, layout_for, line_height, panel, wrap_lines

#: what a host action does, in words (a game's own action without a word here shows its name)
ACTION_WORDS: dict[str, str] = {
    "arm": N_("arm the buzzers"),
    "start": N_("start the round"),
    "turn": N_("turn the next card"),
    "correct": N_("the answer is correct"),
    "wrong": N_("the answer is wrong"),
    "next": N_("next question"),
    "undo": N_("undo the last judgement"),
    "reset": N_("reset the round"),
    "stop": N_("stop"),
    "pick": N_("pick a tied player by a fair draw"),
    "reveal": N_("reveal the answer"),
    "leaderboard": N_("show or hide the leaderboard"),
    "power": N_("quiz bowl: the reading passed the power mark"),
    "read": N_("quiz bowl: the tossup is read to the end"),
    "menu": N_("back to the menu"),
    "help": N_("show or hide this help"),
    "show_pin": N_("show the host PIN on the big screen for a minute"),
    "step": N_("the next step: arm, reveal, next (a presenter clicker)"),
    "blank": N_("the pause card on, or off again"),
    "replay": N_("play the question's clip again from its start"),
}


def host_meaning(spec: GameSpec | None, action: str) -> str:
    """What a host key does in this game: the game's own action for the generic
    button when it has one (the reaction duel's ``arm`` starts a round)."""
    if action == "step" and spec is not None and not spec.host_steps:  # the clicker's next is the arm button's
        return _("{action} (a presenter clicker)").format(action=host_meaning(spec, "arm"))
    kinds = spec.host_kinds(action) if spec is not None else (action,)
    # the button's own action listed after another (the quiz's next: reveal first) is said too
    own = [k for k in kinds if k != action] + ([action] if action in kinds[1:] else [])
    own = own or [action]
    return " / ".join(_(ACTION_WORDS[k]) if k in ACTION_WORDS else k for k in own)


#: between the keys of one row ("h  ?", "u  page up  left arrow")
KEYS_APART = "  "

#: a game's host action that means nothing without a question's clip (``GameSpec.clip_cues``)
CLIP_ACTIONS = ("replay",)


def _family(key: str) -> str:
    """A key's row of the keyboard: the digits, the F keys, the keypad ("f" of "f11")."""
    return "".join(ch for ch in key if not ch.isdigit())


def input_word(name: str) -> str:
    """A station input as a person says it: a numbered button's letter ("a") as
    "button A", a word input ("bell") in the reader's language."""
    return _("button {letter}").format(letter=name.upper()) if len(name) == 1 else word(name)


def station_rows(stations: Sequence[tuple[str, int, str]]) -> list[tuple[str, str]]:
    """The stations' keys, one row for each input and row of keys ("1 … 9", then "0",
    then "f1 … f6"), saying which key is which player's: never "player 1 … 4: a"."""
    by_input: dict[str, list[tuple[int, str]]] = {}
    for key, station, name in stations:
        by_input.setdefault(name, []).append((station, key))
    rows: list[tuple[str, str]] = []
    for name, keys in by_input.items():
        keys.sort()
        runs: list[list[tuple[int, str]]] = []
        for station, key in keys:
            if runs and _family(runs[-1][-1][1]) == _family(key) and runs[-1][-1][0] + 1 == station:
                runs[-1].append((station, key))
            else:
                runs.append([(station, key)])
        for run in runs:
            (first, first_key), (last, last_key) = run[0], run[-1]
            if len(run) == 1:
                rows.append((first_key, _("{input} of player {player}").format(input=input_word(name), player=first + 1)))
                continue
            shown = " ".join(k for _s, k in run) if len(run) <= 4 and len(last_key) <= 3 else f"{first_key} … {last_key}"
            rows.append((shown, _("{input} of player {first} … {last}: {first_key} is player {first}'s, "
                                  "{last_key} player {last}'s").format(
                input=input_word(name), first=first + 1, last=last + 1, first_key=first_key, last_key=last_key)))
    return rows


def help_rows(spec: GameSpec | None, stations: Sequence[tuple[str, int, str]],
              host: Mapping[str, str], view: Mapping[str, Any] | None = None) -> list[tuple[str, str]]:
    """(keys, meaning) rows: the stations' keys grouped by input, then the host's keys,
    the keys of one action in one row.

    ``stations``: (key name, station, input) as the keyboard source binds them
    (an input the game's buttons ignore is left out); ``host``: key name -> host
    action; ``view``: the game's public view now, when given the keys of actions
    that do nothing in it (``GameSpec.unused_host_actions``) are left out, and
    always those of a game that does not take them: the generic buttons it
    does not name (``GameSpec.host_buttons``: the reaction duel has no
    "correct", Fiki Miki none), a clicker's step without an arm button or steps
    of its own, and without clips "replay"."""
    if spec is not None:
        stations = [s for s in stations if spec.buttons.lookup(ANY, s[2]) is not None]
    rows = station_rows(stations)
    unused = set(spec.unused_host_actions(view if view is not None else {})) if spec is not None else set()
    if spec is not None:
        unused.update(button for button in GENERIC_HOST_BUTTONS if button not in spec.host_buttons)
        if "arm" not in spec.host_buttons and not spec.host_steps:  # the clicker's step is the arm button's
            unused.add("step")
        if spec.clip_cues == ClipCues():
            unused.update(CLIP_ACTIONS)
    by_action: dict[str, list[str]] = {}
    for key, action in host.items():
        if action not in unused:
            by_action.setdefault(action, []).append(key)
    for action, keys in by_action.items():
        rows.append((KEYS_APART.join(keys), host_meaning(spec, action)))
    # the one mark on screen that is not a word: say what it means here
    rows.append((_("white frame"), _("on a player's tile: their press was taken")))
    return rows


def _columns(heights: Sequence[int], cols: int) -> list[int]:
    """Where each of up to ``cols`` columns starts, the rows kept in order and
    the tallest column as short as it can be."""
    if not heights:
        return [0]

    def packed(limit: int) -> list[int] | None:
        starts, used = [0], 0
        for k, height in enumerate(heights):
            if used + height > limit and used:
                starts.append(k)
                used = 0
            used += height
        return starts if len(starts) <= cols else None

    low, high = max(heights), sum(heights)
    while low < high:
        middle = (low + high) // 2
        if packed(middle) is not None:
            high = middle
        else:
            low = middle + 1
    return packed(low) or [0]


class HelpOverlay:
    """A dark panel over the game listing the keys; the game goes on under it.

    ``rows_for``: the rows for a public view, for a game whose keys change as
    it goes (a quiz's bowl round); ``show`` takes the view before each drawing."""

    def __init__(self, title: str, rows: Sequence[tuple[str, str]],
                 rows_for: Callable[[Mapping[str, Any]], Sequence[tuple[str, str]]] | None = None) -> None:
        self.title = title
        self.rows = list(rows)
        self.rows_for = rows_for

    def show(self, view: Mapping[str, Any]) -> None:
        """The rows for what is played now."""
        if self.rows_for is not None:
            self.rows = list(self.rows_for(view))

    def layout(self, size: tuple[int, int], lay: Layout) -> tuple[pygame.Rect, list[list[tuple[pygame.Rect, list[str]]]]]:
        """The panel and each row's key and meaning, each its place and its lines: in
        one column, else two or three, every row whole at the smallest text (a
        row is never cut off, nor a meaning ellipsized: issue of the 21 quiz rows)."""
        w, h = size
        text, gap = lay.min_text, lay.pad // 2
        line_h = line_height(text)
        title_h = line_height(lay.size(1.15))
        names = [name for key, _m in self.rows for name in key.split(KEYS_APART)]
        widest_word = max((theme.TEXT.width(word, text) for name in names for word in name.split()), default=0)
        widest_key = max((theme.TEXT.width(name, text) for name in names), default=0)
        best: tuple[int, int, list[tuple[list[str], list[str]]], list[int], list[int], int, int] | None = None
        for cols in (1, 2, 3):
            box_w = min(w - 2 * lay.pad, w * (75 if cols == 1 else 96) // 100)
            col_w = (box_w - 4 * lay.pad - (cols - 1) * 2 * lay.pad) // cols
            # the keys of one action each on a line of its own ("page down" over "right arrow"), the
            # column never narrower than its longest word ("numeryczna" is not cut to "nume…")
            key_w = max(min(col_w * 28 // 100, widest_key), widest_word)
            meaning_w = col_w - key_w - lay.pad
            lines = [([line for name in key.split(KEYS_APART) for line in wrap_lines(name, text, key_w)],
                      wrap_lines(meaning, text, meaning_w)) for key, meaning in self.rows]
            heights = [max(len(k), len(m)) * line_h + gap for k, m in lines]
            starts = _columns(heights, cols)
            body_h = max((sum(heights[i:j]) for i, j in zip(starts, [*starts[1:], len(heights)], strict=True)), default=0)
            box_h = title_h + gap + body_h + 4 * lay.pad
            whole = all(theme.TEXT.width(line, text) <= width for k, m in lines
                        for part, width in ((k, key_w), (m, meaning_w)) for line in part)
            if best is None or (whole and box_h < best[1]):
                best = (box_w, box_h, lines, heights, starts, col_w, key_w)
            if whole and box_h <= h - 2 * lay.pad:
                break
        assert best is not None
        box_w, box_h, lines, heights, starts, col_w, key_w = best
        box = pygame.Rect(0, 0, box_w, box_h)
        box.center = (w // 2, h // 2)
        inner = box.inflate(-4 * lay.pad, -4 * lay.pad)
        placed: list[list[tuple[pygame.Rect, list[str]]]] = []
        for k, (key_lines, meaning_lines) in enumerate(lines):
            col = max(c for c, start in enumerate(starts) if start <= k)
            left, y = inner.left + col * (col_w + 2 * lay.pad), inner.top + title_h + gap + sum(heights[starts[col]:k])
            placed.append([(pygame.Rect(left, y, key_w, heights[k] - gap), key_lines),
                           (pygame.Rect(left + key_w + lay.pad, y, col_w - key_w - lay.pad, heights[k] - gap),
                            meaning_lines)])
        return box, placed

    def draw(self, surface: pygame.Surface, lay: Layout | None = None) -> pygame.Rect:
        lay = lay or layout_for(surface)
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((*theme.BG, 200))
        surface.blit(veil, (0, 0))
        box, placed = self.layout(surface.get_size(), lay)
        panel(surface, box, theme.PANEL)
        pygame.draw.rect(surface, theme.MUTED, box, width=max(2, surface.get_height() // 360),
                         border_radius=max(4, min(box.height, box.width) // 20))
        inner = box.inflate(-4 * lay.pad, -4 * lay.pad)
        draw_text(surface, _("{game}: keys").format(game=_(self.title)), lay.size(1.15), theme.FG,
                  pygame.Rect(inner.left, inner.top, inner.width, line_height(lay.size(1.15))), min_size=lay.min_text)
        line_h = line_height(lay.min_text)
        for row in placed:
            for (where, lines), color in zip(row, (theme.STATUS_COLORS["first"], theme.FG), strict=True):
                for n, line in enumerate(lines):
                    draw_text(surface, line, lay.min_text, color,
                              pygame.Rect(where.left, where.top + n * line_h, where.width, line_h),
                              align="left", min_size=lay.min_text)
        return box
