"""The reaction duel on the shared screen: wait..., GO (or a decoy "not yet!"),
then the round's reaction times and the session leaderboard."""

from __future__ import annotations

import pygame

from games.i18n import N_, _, format_number, ngettext
from games.reaction.strip import worded_strip
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, fmt_ms, panel

GO: Color = (0, 230, 118)
WAIT: Color = (110, 16, 28)
DECOY: Color = (150, 225, 40)  # looks like GO at a glance: that is the point
FALSE_START: Color = (229, 57, 53)


class ReactionScene(Scene):
    title = N_("Reaction duel")

    def header(self, view: View) -> tuple[str, str]:
        rounds = view.get("rounds") or 0
        n = view.get("round", 0)
        where = _("Round {n} of {rounds}").format(n=n, rounds=rounds) if rounds else _("Round {n}").format(n=n)
        return self.title, where if n else _("get ready")

    def title_card(self, view: View) -> bool:
        return not view.get("round") and view.get("phase") in ("ready", "idle", None)

    def title_hint(self, view: View) -> str:
        return _("Press the moment the screen says GO, not before. The host starts each round.")

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        return worded_strip(view, strip)  # games/reaction/strip.py: the phones' pages word the strip so too

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        phase = view.get("phase", "ready")
        if phase == "go":
            # nothing but GO: the whole body, the brightest thing the screen shows
            panel(surface, area, GO)
            draw_text(surface, _("GO!"), lay.size(9), theme.DARK_TEXT, area)
            return
        if phase == "decoy":
            panel(surface, area, DECOY)
            draw_text(surface, _("NOT YET!"), lay.size(6), theme.DARK_TEXT, area)
            return
        if phase == "wait":
            panel(surface, area, WAIT)
            draw_text(surface, _("wait…"), lay.size(5), theme.FG, area.inflate(0, -area.height // 4).move(0, -area.height // 10))
            self._false_starts(surface, area, lay, view, strip)
            return
        board_w = round(area.width * 0.38)
        board = pygame.Rect(area.right - board_w, area.top, board_w, area.height)
        main = pygame.Rect(area.left, area.top, area.width - board_w - 2 * lay.pad, area.height)
        if phase == "result" and view.get("last"):
            self._result(surface, main, lay, view, strip)
        else:
            panel(surface, main, theme.PANEL)
            text = _("game over") if phase == "over" else _("get ready")
            draw_text(surface, text, lay.size(3), theme.FG, main.inflate(0, -main.height // 3).move(0, -main.height // 8))
            hint = "" if phase == "over" else _("press as soon as GO shows, not before")
            draw_text(surface, hint, lay.min_text, theme.MUTED,
                      pygame.Rect(main.left, main.bottom - main.height // 3, main.width, main.height // 4), min_size=lay.min_text)
        self._leaderboard(surface, board, lay, view, strip)

    def _false_starts(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        fs = list(view.get("false_starts", ()))
        if not fs:
            return
        h = lay.size(1.6)
        r = pygame.Rect(area.left + lay.pad * 2, area.bottom - h - lay.pad * 2, area.width - lay.pad * 4, h)
        panel(surface, r, FALSE_START)
        names = ", ".join(self.name(strip, p) for p in fs)
        draw_text(surface, ngettext("false start: {names}", "false starts: {names}", len(fs)).format(names=names), lay.size(1.2), theme.text_on(FALSE_START), r.inflate(-2 * lay.pad, 0), min_size=lay.min_text)

    def _result(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        last = view["last"]
        winner = last.get("winner")
        order = list(last.get("order", ()))
        times = last.get("reaction_us", {})
        margins = list(last.get("margins_us", ()))
        head_h = area.height * 45 // 100
        head = pygame.Rect(area.left, area.top, area.width, head_h)
        if winner is not None:
            fill = self.color(view, int(winner))
            ink = theme.text_on(fill)
            panel(surface, head, fill)
            draw_text(surface, self.name(strip, int(winner)), lay.size(3), ink,
                      pygame.Rect(head.left, head.top, head.width, head_h * 6 // 10), min_size=lay.size(1.5))
            draw_text(surface, fmt_ms(times.get(str(winner)), 1), lay.size(2), ink,
                      pygame.Rect(head.left, head.top + head_h * 55 // 100, head.width, head_h * 4 // 10))
        else:
            panel(surface, head, theme.PANEL)
            text = _("tie!") if last.get("ties") else _("nobody pressed in time")
            if not order and len(last.get("false_starts", ())) >= len(strip) > 0:
                text = _("everyone jumped")
            draw_text(surface, text, lay.size(3), theme.FG, head)
        row_h = lay.size(1.3)
        y = head.bottom + lay.pad * 2
        rows: list[tuple[int, str, str, theme.Color]] = []
        for k, p in enumerate(order):
            behind = "+" + fmt_ms(margins[k - 1], 1) if k > 0 and k - 1 < len(margins) else ""
            rows.append((p, fmt_ms(times.get(str(p)), 1), behind, theme.FG))
        for p in last.get("false_starts", ()):
            rows.append((p, _("false start"), "", theme.BAD))
        for p, time_text, behind, color in rows:
            if y + row_h > area.bottom:
                break
            r = pygame.Rect(area.left, y, area.width, row_h)
            panel(surface, r, theme.PANEL)
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top, max(8, row_h // 4), r.height))
            inner = r.inflate(-4 * lay.pad, 0)
            # the times get the room they need (a time cut to "209.…" says nothing); a long name wraps
            # and "false start" as wide as its translation needs ("předčasný start"): it has both columns, no margin beside it
            times_w = min(inner.width * 2 // 3, max(2 * theme.TEXT.width("+888.8 ms", lay.min_text) + lay.pad,
                                                    theme.TEXT.width(_("false start"), lay.min_text) + lay.pad))
            name_w = inner.width - times_w
            time_w = times_w if color == theme.BAD else times_w // 2  # a false start has no time behind it
            draw_text(surface, self.name(strip, p), lay.min_text, theme.FG, pygame.Rect(inner.left, r.top, name_w, r.height), align="left", min_size=lay.min_text)
            draw_text(surface, time_text, lay.min_text, color, pygame.Rect(inner.left + name_w, r.top, time_w, r.height), align="right", min_size=lay.min_text)
            if behind:
                draw_text(surface, behind, lay.min_text, theme.MUTED, pygame.Rect(inner.left + name_w + times_w // 2, r.top, times_w - times_w // 2, r.height), align="right", min_size=lay.min_text)
            y += row_h + lay.pad

    def _leaderboard(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """Session standings: wins, then best time."""
        rows = list(view.get("leaderboard", ()))
        row_h = lay.size(1.3)
        # three headings side by side, none reaching into the next (a longer translation is cut, not overlapped)
        best_left = area.width * 58 // 100
        # "wins" ("wygrane") as wide as it is, reaching left over the names; "standings" has the rest
        wins_left = best_left - max(area.width * 18 // 100, theme.TEXT.width(_("wins"), lay.min_text) + lay.pad)
        draw_text(surface, _("standings"), lay.min_text, theme.MUTED, pygame.Rect(area.left, area.top, wins_left - lay.pad, row_h), align="left", min_size=lay.min_text)
        draw_text(surface, _("wins"), lay.min_text, theme.MUTED, pygame.Rect(area.left + wins_left, area.top, best_left - wins_left, row_h), align="right", min_size=lay.min_text)
        draw_text(surface, _("best"), lay.min_text, theme.MUTED, pygame.Rect(area.left + best_left + lay.pad, area.top, area.width - best_left - 3 * lay.pad, row_h), align="right", min_size=lay.min_text)
        y = area.top + row_h
        for rank, row in enumerate(rows, start=1):
            if y + row_h > area.bottom:
                break
            p = int(row["player"])
            r = pygame.Rect(area.left, y, area.width, row_h)
            # every row alike (a coloured first row read like an error): the chip carries the colour
            panel(surface, r, theme.PANEL)
            pygame.draw.rect(surface, self.color(view, p), pygame.Rect(r.left, r.top, max(8, row_h // 4), r.height))
            inner = r.inflate(-4 * lay.pad, 0)
            w = inner.width
            draw_text(surface, f"{rank}. {self.name(strip, p)}", lay.min_text, theme.FG, pygame.Rect(inner.left, r.top, w * 45 // 100, r.height), align="left", min_size=lay.min_text)
            draw_text(surface, format_number(int(row.get("wins", 0))), lay.min_text, theme.FG, pygame.Rect(inner.left + w * 45 // 100, r.top, w * 12 // 100, r.height), align="right", min_size=lay.min_text)
            draw_text(surface, fmt_ms(row.get("best_us"), 1), lay.min_text, theme.FG, pygame.Rect(inner.left + w * 57 // 100, r.top, w * 43 // 100, r.height), align="right", min_size=lay.min_text)
            y += row_h + lay.pad
