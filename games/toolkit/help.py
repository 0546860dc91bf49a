"""The help overlay (``h`` or ``?``): every key of the running game and host.

The rows are built from what the keyboard source binds and what the game's
spec says its host buttons do (``GameSpec.host_aliases``/``host_keys``), so a
new game's keys show up without a line here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pygame

from games.base import GameSpec
from games.i18n import N_, _, word
from games.toolkit import theme
from games.toolkit.theme import Layout, draw_text, layout_for, panel

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
    kinds = spec.host_kinds(action) if spec is not None else (action,)
    # the button's own action listed after another (the quiz's next: reveal first) is said too
    own = [k for k in kinds if k != action] + ([action] if action in kinds[1:] else [])
    own = own or [action]
    return " / ".join(_(ACTION_WORDS[k]) if k in ACTION_WORDS else k for k in own)


def help_rows(spec: GameSpec | None, stations: Sequence[tuple[str, int, str]],
              host: Mapping[str, str], view: Mapping[str, Any] | None = None) -> list[tuple[str, str]]:
    """(keys, meaning) rows: the stations' keys grouped by input, then each host key.

    ``stations``: (key name, station, input) as the keyboard source binds them;
    ``host``: key name -> host action; ``view``: the game's public view now,
    when given the keys of actions that do nothing in it (``GameSpec.unused_host_actions``)
    are left out."""
    rows: list[tuple[str, str]] = []
    by_input: dict[str, list[tuple[int, str]]] = {}
    for key, station, name in stations:
        by_input.setdefault(name, []).append((station, key))
    for name, keys in by_input.items():
        keys.sort()
        shown = [k for _s, k in keys]
        text = " ".join(shown) if len(shown) <= 4 else f"{shown[0]} … {shown[-1]}"
        rows.append((text, _("player 1 … {n}: {input}").format(n=len(shown), input=word(name)) if len(shown) > 1
                     else _("player 1: {input}").format(input=word(name))))
    unused = set(spec.unused_host_actions(view)) if spec is not None and view is not None else set()
    for key, action in host.items():
        if action not in unused:
            rows.append((key, host_meaning(spec, action)))
    # the one mark on screen that is not a word: say what it means here
    rows.append((_("white frame"), _("on a player's tile: their press was taken")))
    return rows


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

    def draw(self, surface: pygame.Surface, lay: Layout | None = None) -> pygame.Rect:
        lay = lay or layout_for(surface)
        veil = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        veil.fill((*theme.BG, 200))
        surface.blit(veil, (0, 0))
        w, h = surface.get_size()
        row_h = lay.size(1.15)
        rows = self.rows
        need = (len(rows) + 1) * (row_h + lay.pad // 2) + 4 * lay.pad
        cols = 1 if need <= h * 0.9 else 2
        per_col = -(-len(rows) // cols)
        box_w = min(w - 2 * lay.pad, w * (88 if cols == 2 else 75) // 100)
        col_w = (box_w - 4 * lay.pad - (cols - 1) * 2 * lay.pad) // cols
        key_w = col_w * 30 // 100
        meaning_w = col_w - key_w - lay.pad
        # a meaning or a key too long for its line (Czech, Polish, two columns) takes two, the rows taller for it
        wide = any(theme.TEXT.width(meaning, lay.min_text) > meaning_w or theme.TEXT.width(key, lay.min_text) > key_w
                   for key, meaning in rows)
        if wide:
            row_h = max(row_h, 2 * theme.line_height(lay.min_text))
        box = pygame.Rect(0, 0, box_w, min(h - 2 * lay.pad, (per_col + 1) * (row_h + lay.pad // 2) + 4 * lay.pad))
        box.center = (w // 2, h // 2)
        panel(surface, box, theme.PANEL)
        pygame.draw.rect(surface, theme.MUTED, box, width=max(2, h // 360), border_radius=max(4, box.height // 20))
        inner = box.inflate(-4 * lay.pad, -4 * lay.pad)
        title_h = lay.size(1.15)
        draw_text(surface, _("{game}: keys").format(game=_(self.title)), lay.size(1.15), theme.FG,
                  pygame.Rect(inner.left, inner.top, inner.width, title_h), min_size=lay.min_text)
        for k, (key, meaning) in enumerate(rows):
            col, row = divmod(k, per_col)
            y = inner.top + title_h + lay.pad // 2 + row * (row_h + lay.pad // 2)
            if y + row_h > inner.bottom + lay.pad:
                break
            left = inner.left + col * (col_w + 2 * lay.pad)
            theme.draw_fitted(surface, key, lay.min_text, theme.STATUS_COLORS["first"], pygame.Rect(left, y, key_w, row_h),
                              lay.min_text, align="left")
            theme.draw_fitted(surface, meaning, lay.min_text, theme.FG,
                              pygame.Rect(left + key_w + lay.pad, y, meaning_w, row_h), lay.min_text, align="left")
        return box
