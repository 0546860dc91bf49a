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
from functools import partial
from typing import Any

import pygame

from games.i18n import _, format_number, ngettext
from games.pictomania.strip import worded_strip
from games.toolkit import theme
from games.toolkit.art import FaceCache
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

CARD_COLORS: dict[str, Color] = {"A": (66, 133, 244), "B": (234, 67, 53), "C": (52, 168, 83)}
TOKEN: Color = (250, 200, 60)
SHEEP: Color = (60, 60, 66)


#: the round's word cards and its reveal, drawn, by what they show and their size
_CARDS = FaceCache(8)


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
        return worded_strip(view, strip)  # games/pictomania/strip.py: the phones' pages word the strip so too

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        reveal = view.get("reveal")
        side_w = area.width * 26 // 100
        main = pygame.Rect(area.left, area.top, area.width - side_w - 2 * lay.pad, area.height)
        side = pygame.Rect(main.right + 2 * lay.pad, area.top, side_w, area.height)
        if reveal and view.get("phase") in ("revealed", "over"):
            # the reveal takes the whole width: each drawer's row carries their scores too
            if theme.DRAWN is None and theme.INKED is None:  # the same until the next round: drawn once, blitted
                names = tuple(self.name(strip, i) for i in range(len(strip)))
                colours = tuple(self.color(view, i) for i in range(len(strip)))
                key = (area.size, lay, repr(reveal), tuple(view.get("scores", ())), names, colours)
                surface.blit(_CARDS.get(key, area.size, partial(self._reveal, area=pygame.Rect((0, 0), area.size), lay=lay,
                                                                view=view, strip=strip, reveal=reveal), under=theme.BG),
                             area.topleft)
            else:
                self._reveal(surface, area, lay, view, strip, reveal)
            return
        self._cards(surface, main, lay, view)
        self._side(surface, side, lay, view, strip)

    # -- the word cards -------------------------------------------------------------
    def _cards(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        """The round's word cards: the same all round, so drawn once and blitted (a test
        measuring the texts gets them drawn in place)."""
        cards = list(view.get("cards", ()))
        if theme.DRAWN is None and theme.INKED is None:
            key = (area.size, lay, tuple((str(c["letter"]), str(c["theme"]), tuple(map(str, c["words"]))) for c in cards))
            face = _CARDS.get(key, area.size, partial(self._draw_cards, area=pygame.Rect((0, 0), area.size), lay=lay,
                                                      cards=cards), under=theme.BG)
            surface.blit(face, area.topleft)
        else:
            self._draw_cards(surface, area, lay, cards)

    def _draw_cards(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, cards: list[Any]) -> None:
        gap = lay.pad * 2
        col_w = (area.width - gap * (len(cards) - 1)) // max(1, len(cards))
        # a theme and a word may take two lines of the minimum size ("basketball hoop" in a narrow column)
        head_h = lay.min_text * 2 + lay.pad
        line = (area.height - head_h - lay.pad * 2) // 7
        for i, card in enumerate(cards):
            r = pygame.Rect(area.left + i * (col_w + gap), area.top, col_w, area.height)
            color = CARD_COLORS.get(str(card["letter"]), theme.MUTED)
            panel(surface, r, theme.PANEL)
            head = pygame.Rect(r.left, r.top, r.width, head_h)
            panel(surface, head, color)
            theme.draw_wrapped(surface, f"{card['letter']} · {card['theme']}", lay.min_text, theme.text_on(color),
                               head.inflate(-2 * lay.pad, 0))
            y = head.bottom + lay.pad
            # the numbers as wide as they are: the words keep the rest ("skateboard" whole beside the QR panel)
            num_w = max(theme.TEXT.width(format_number(n), lay.min_text) for n in range(1, len(card["words"]) + 1))
            for n, word in enumerate(card["words"], start=1):
                row = pygame.Rect(r.left + 2 * lay.pad, y, r.width - 4 * lay.pad, line)
                draw_text(surface, format_number(n), lay.min_text, theme.readable_on(color, theme.PANEL),
                          pygame.Rect(row.left, row.top, num_w, row.height), align="left", min_size=lay.min_text)
                theme.draw_wrapped(surface, str(word), lay.min_text, theme.FG,
                                   pygame.Rect(row.left + num_w + lay.pad, row.top, row.width - num_w - lay.pad,
                                               row.height), max_lines=max(1, row.height // lay.min_text), align="left")
                y += line

    # -- the reveal -----------------------------------------------------------------
    def _reveal(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
                reveal: Mapping[str, Any]) -> None:
        """One row per drawer, two lines of the minimum size each: what they drew, then who
        guessed it as one chip per guesser (name and token) in guess order; the black sheep
        below, on two lines if it needs them."""
        drawers = list(reveal.get("drawers", ()))
        sheep = reveal.get("black_sheep")
        round_scores = list(reveal.get("scores", ()))
        totals = list(view.get("scores", ()))
        gap = max(2, lay.pad // 3)
        score_w = max(lay.min_text * 5, theme.TEXT.width(_("this round · total"), lay.min_text) + lay.pad)
        heading = pygame.Rect(area.left + 2 * lay.pad, area.top, area.width - 4 * lay.pad, lay.min_text)
        draw_text(surface, _("this round · total"), lay.min_text, theme.MUTED,
                  pygame.Rect(heading.right - score_w, heading.top, score_w, heading.height), align="right",
                  min_size=lay.min_text)
        sheep_h = lay.min_text + lay.pad
        y = heading.bottom + gap
        row_h = max(lay.min_text * 2 + gap,
                    min((area.bottom - y - sheep_h - gap * len(drawers)) // max(1, len(drawers)), lay.size(1.1) * 2 + lay.pad))
        for entry in drawers:
            d = int(entry["drawer"])
            r = pygame.Rect(area.left, y, area.width, row_h)
            # the drawer's row in the drawer's colour (a player's colour, not the word card's)
            row_bg = theme.legible_fill(theme.blend(theme.PANEL, self.color(view, d), 0.45))
            panel(surface, r, row_bg)
            pygame.draw.rect(surface, self.color(view, d), pygame.Rect(r.left, r.top, max(12, lay.pad * 2), r.height))
            inner = r.inflate(-4 * lay.pad, -(row_h - lay.min_text * 2) // 2)
            half = inner.height // 2
            ink = theme.text_on(row_bg)
            drew = _("{name} drew {letter}{number}: {word}").format(
                name=self.name(strip, d), letter=entry["letter"], number=entry["number"], word=entry["word"])
            if entry.get("admitted"):
                drew += " · " + _("wrong drawing")
            draw_text(surface, drew, lay.min_text, ink if not entry.get("admitted") else theme.readable_on(theme.MUTED, row_bg),
                      pygame.Rect(inner.left, inner.top, inner.width - score_w - lay.pad, half), align="left",
                      min_size=lay.min_text)
            gained = int(round_scores[d]) if d < len(round_scores) else 0
            total = int(totals[d]) if d < len(totals) else 0
            draw_text(surface, f"{gained:+d} · {format_number(total)}", lay.min_text, ink,
                      pygame.Rect(inner.right - score_w, inner.top, score_w, half), align="right", min_size=lay.min_text)
            line = pygame.Rect(inner.left, inner.top + half, inner.width, inner.height - half)
            right = [g for g in entry.get("guesses", ()) if g.get("correct")]
            if right:
                self._guessers(surface, line, lay, view, strip, right, row_bg)
            else:
                draw_text(surface, _("nobody guessed it"), lay.min_text, theme.readable_on(theme.MUTED, row_bg), line, align="left",
                          min_size=lay.min_text)
            y += row_h + gap
        if sheep is not None:
            wrong = list(reveal.get("wrong_guesses", ()))
            count = int(wrong[int(sheep)]) if int(sheep) < len(wrong) else 0
            text = _("black sheep: {name}").format(name=self.name(strip, int(sheep))) + " · " + \
                ngettext("{n} wrong guess", "{n} wrong guesses", count).format(n=count)
        elif reveal.get("black_sheep_tied"):
            text = _("no black sheep: a tie for the most wrong guesses")
        else:
            text = _("no black sheep this round")
        # one line, or two where a long text needs them and the screen has room
        inner_w = area.width - 4 * lay.pad
        lines = 1 if theme.TEXT.width(text, lay.min_text) <= inner_w else 2
        r = pygame.Rect(area.left, y, area.width, max(sheep_h, min(area.bottom - y, lay.min_text * lines + lay.pad)))
        panel(surface, r, SHEEP)
        theme.draw_wrapped(surface, text, lay.min_text, theme.FG, r.inflate(-4 * lay.pad, 0),
                           max_lines=max(1, r.height // lay.min_text), align="left")

    def _guessers(self, surface: pygame.Surface, line: pygame.Rect, lay: Layout, view: View, strip: Strip,
                  right: list[Mapping[str, Any]], row_bg: Color = theme.PANEL) -> None:
        """"guessed:" and a chip per right guess, in the order they came: the guesser's colour,
        name and token. A chip is as wide as the line allows; a long name is cut, the token never."""
        label = _("guessed:")
        label_w = min(line.width // 3, theme.TEXT.width(label, lay.min_text) + lay.pad)
        draw_text(surface, label, lay.min_text, theme.readable_on(theme.MUTED, row_bg), pygame.Rect(line.left, line.top, label_w, line.height),
                  align="left", min_size=lay.min_text)
        x = line.left + label_w + lay.pad
        chip_w = min(lay.min_text * 7, (line.right - x) // len(right))
        token_w = theme.TEXT.width("+4", lay.min_text) + lay.pad
        for g in right:
            guesser = int(g["guesser"])
            chip = pygame.Rect(x, line.top, chip_w - lay.pad, line.height)
            # the guesser's chip in their colour, their scoring token beside it as a gold disc
            fill = theme.legible_fill(self.color(view, guesser))
            pill = pygame.Rect(chip.left, chip.top + 1, chip.width - token_w - lay.pad // 2, chip.height - 2)
            panel(surface, pill, fill, radius=pill.height // 2)
            draw_text(surface, self.name(strip, guesser), lay.min_text, theme.text_on(fill),
                      pill.inflate(-lay.pad, 0), min_size=lay.min_text)
            disc = pygame.Rect(chip.right - token_w, chip.top, token_w, chip.height)
            panel(surface, disc, TOKEN, radius=disc.height // 2)
            draw_text(surface, f"+{g['token']}", lay.min_text, theme.text_on(TOKEN), disc, min_size=lay.min_text)
            x += chip_w

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
        # on two lines in a narrow column (beside the QR panel) rather than cut to "guesses on · po…"
        heading_h = max(line, len(theme.fit_lines(heading, lay.min_text, area.width, lay.min_text)[1])
                        * theme.line_height(lay.min_text))
        theme.draw_fitted(surface, heading, lay.min_text, theme.MUTED, pygame.Rect(area.left, y, area.width, heading_h),
                          lay.min_text, align="left")
        y += heading_h
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
