"""Pictomania on the shared screen, drawn from ``public_view()`` only.

While the round is drawn: the three word cards (A, B, C; 21 numbered words),
the bonus tokens still on the table and, per player, drawing / guessing /
done with the bonus token taken and how many guess cards lie on their pile.
After the reveal: drawer by drawer (one row each) the word they drew, who
guessed it right, the black sheep, and the round's and the game's scores.
The secrets are never on the screen before the reveal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pygame

from games.i18n import _, format_number, ngettext
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

CARD_COLORS: dict[str, Color] = {"A": (66, 133, 244), "B": (234, 67, 53), "C": (52, 168, 83)}
TOKEN: Color = (250, 200, 60)
SHEEP: Color = (60, 60, 66)


class PictomaniaScene(Scene):
    title = "Pictomania"

    def header(self, view: View) -> tuple[str, str]:
        phase = str(view.get("phase"))
        where = _("Round {n}/{m} · deck {d}").format(n=view.get("round", 1), m=view.get("rounds", 4), d=view.get("deck", 1))
        what = {
            "cards": _("the cards: host deals when ready"),
            "drawing": _("draw, guess, ring when done"),
            "review": _("everyone done: reveal"),
            "revealed": _("the reveal"),
            "over": _("game over"),
        }.get(phase, phase)
        return self.title, f"{where} · {what}"

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        """A cell shows the bonus token its player took."""
        bonus = list(view.get("bonus", ()))
        out = []
        for i, cell in enumerate(strip):
            token = bonus[i] if i < len(bonus) else None
            label = _("DONE +{n}").format(n=token) if token and cell.get("status") == "done" else None
            out.append({**cell, "label": label} if label else dict(cell))
        return out

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        reveal = view.get("reveal")
        side_w = area.width * 26 // 100
        main = pygame.Rect(area.left, area.top, area.width - side_w - 2 * lay.pad, area.height)
        side = pygame.Rect(main.right + 2 * lay.pad, area.top, side_w, area.height)
        if reveal and view.get("phase") in ("revealed", "over"):
            self._reveal(surface, main, lay, view, strip, reveal)
        else:
            self._cards(surface, main, lay, view)
        self._side(surface, side, lay, view, strip)

    # -- the word cards -------------------------------------------------------------
    def _cards(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        cards = list(view.get("cards", ()))
        gap = lay.pad * 2
        col_w = (area.width - gap * (len(cards) - 1)) // max(1, len(cards))
        line = (area.height - lay.pad * 2) // 9
        for i, card in enumerate(cards):
            r = pygame.Rect(area.left + i * (col_w + gap), area.top, col_w, area.height)
            color = CARD_COLORS.get(str(card["letter"]), theme.MUTED)
            panel(surface, r, theme.PANEL)
            head = pygame.Rect(r.left, r.top, r.width, int(line * 1.5))
            panel(surface, head, color)
            draw_text(surface, f"{card['letter']} · {card['theme']}", lay.size(1.05), theme.text_on(color),
                      head.inflate(-2 * lay.pad, 0), min_size=lay.min_text)
            y = head.bottom + lay.pad
            for n, word in enumerate(card["words"], start=1):
                row = pygame.Rect(r.left + 2 * lay.pad, y, r.width - 4 * lay.pad, line)
                draw_text(surface, format_number(n), lay.min_text, color,
                          pygame.Rect(row.left, row.top, lay.min_text, row.height), align="left", min_size=lay.min_text)
                draw_text(surface, str(word), lay.min_text, theme.FG,
                          pygame.Rect(row.left + lay.min_text + lay.pad, row.top, row.width - lay.min_text - lay.pad, row.height),
                          align="left", min_size=lay.min_text)
                y += line

    # -- the reveal -----------------------------------------------------------------
    def _reveal(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
                reveal: Mapping[str, Any]) -> None:
        drawers = list(reveal.get("drawers", ()))
        sheep = reveal.get("black_sheep")
        n = len(drawers) + 1
        row_h = min((area.height - lay.pad * n) // n, lay.size(1.1) * 2 + lay.pad)
        y = area.top
        for entry in drawers:
            d = int(entry["drawer"])
            r = pygame.Rect(area.left, y, area.width, row_h)
            panel(surface, r, theme.PANEL)
            pygame.draw.rect(surface, self.color(view, d), pygame.Rect(r.left, r.top, max(8, lay.pad), r.height))
            inner = r.inflate(-4 * lay.pad, -lay.pad)
            half = inner.height // 2
            card_color = theme.blend(CARD_COLORS.get(str(entry["letter"]), theme.FG), theme.FG, 0.35)
            drew = _("{name} drew {letter}{number}: {word}").format(
                name=self.name(strip, d), letter=entry["letter"], number=entry["number"], word=entry["word"])
            if entry.get("admitted"):
                drew += " · " + _("wrong drawing")
            draw_text(surface, drew, lay.min_text, card_color if not entry.get("admitted") else theme.MUTED,
                      pygame.Rect(inner.left, inner.top, inner.width, half), align="left", min_size=lay.min_text)
            right = [g for g in entry.get("guesses", ()) if g.get("correct")]
            if right:
                names = ", ".join(f"{self.name(strip, int(g['guesser']))} +{g['token']}" for g in right)
                text = _("guessed: {names}").format(names=names)
            else:
                text = _("nobody guessed it")
            draw_text(surface, text, lay.min_text, theme.MUTED, pygame.Rect(inner.left, inner.top + half, inner.width, half),
                      align="left", min_size=lay.min_text)
            y += row_h + lay.pad
        r = pygame.Rect(area.left, y, area.width, row_h)
        panel(surface, r, SHEEP)
        if sheep is not None:
            wrong = list(reveal.get("wrong_guesses", ()))
            count = int(wrong[int(sheep)]) if int(sheep) < len(wrong) else 0
            text = _("black sheep: {name}").format(name=self.name(strip, int(sheep))) + " · " + \
                ngettext("{n} wrong guess", "{n} wrong guesses", count).format(n=count)
        elif reveal.get("black_sheep_tied"):
            text = _("no black sheep: a tie for the most wrong guesses")
        else:
            text = _("no black sheep this round")
        draw_text(surface, text, lay.size(1.1), theme.FG, r.inflate(-4 * lay.pad, 0), align="left", min_size=lay.min_text)

    # -- tokens and players ---------------------------------------------------------
    def _side(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        line = lay.size(1.0) + lay.pad
        draw_text(surface, _("bonus tokens left"), lay.min_text, theme.MUTED, pygame.Rect(area.left, area.top, area.width, line),
                  align="left", min_size=lay.min_text)
        left = list(view.get("bonus_left", ()))
        d = min(lay.size(1.6), (area.width - lay.pad * max(0, len(left) - 1)) // max(1, len(left)))
        x = area.left
        y = area.top + line
        for value in left:
            center = (x + d // 2, y + d // 2)
            pygame.draw.circle(surface, TOKEN, center, d // 2)
            draw_text(surface, str(value), lay.min_text, theme.DARK_TEXT, pygame.Rect(x, y, d, d), min_size=lay.min_text)
            x += d + lay.pad
        if not left:
            draw_text(surface, _("none"), lay.min_text, theme.FG, pygame.Rect(area.left, y, area.width, d), align="left",
                      min_size=lay.min_text)
        y += d + 2 * lay.pad
        reveal = view.get("reveal") if view.get("phase") in ("revealed", "over") else None
        heading = _("this round · total") if reveal else _("guesses on · points")
        draw_text(surface, heading, lay.min_text, theme.MUTED,
                  pygame.Rect(area.left, y, area.width, line), align="left", min_size=lay.min_text)
        y += line
        piles = list(reveal["scores"]) if reveal else list(view.get("guesses_on", ()))
        scores = list(view.get("scores", ()))
        for p, pile in enumerate(piles):
            if y + line > area.bottom:
                break
            r = pygame.Rect(area.left, y, area.width, line)
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top + 2, max(8, lay.pad), r.height - 4))
            draw_text(surface, self.name(strip, p), lay.min_text, theme.FG,
                      pygame.Rect(r.left + 2 * lay.pad, r.top, r.width * 6 // 10, r.height), align="left", min_size=lay.min_text)
            first = (f"{int(pile):+d}" if reveal else format_number(int(pile)))
            text = f"{first} · {format_number(int(scores[p]) if p < len(scores) else 0)}"
            draw_text(surface, text, lay.min_text, theme.FG, pygame.Rect(r.left, r.top, r.width, r.height), align="right",
                      min_size=lay.min_text)
            y += line
