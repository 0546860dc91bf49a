"""The quiz on the shared screen: armed or not, the winner big, the queue
with each press's margin behind the first, the answer timer and scores."""

from __future__ import annotations

import pygame

from games.i18n import N_, _, format_number
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Color, Layout, draw_text, panel

ARMED: Color = (0, 200, 83)
NOT_ARMED: Color = (70, 76, 92)

RESULT_TEXT = {
    "correct": N_("correct!"),
    "nobody buzzed": N_("nobody buzzed"),
    "everyone answered wrong": N_("nobody got it"),
    "skipped": N_("skipped"),
}


def press_order(view: View) -> list[tuple[int, int]]:
    """(station, µs behind the first press) for every counted press of this
    question, first first: what the screen keeps showing after the judgement."""
    margins = view.get("margins_us", {})
    return sorted(((int(s), int(m)) for s, m in margins.items()), key=lambda x: (x[1], x[0]))


def lead_us(view: View, station: int) -> tuple[int, int] | None:
    """(next station, how far ahead of it ``station`` pressed): the margin
    that decided the turn, for the main card."""
    order = press_order(view)
    for k, (s, m) in enumerate(order):
        if s == station and k + 1 < len(order):
            return order[k + 1][0], order[k + 1][1] - m
    return None


class QuizScene(Scene):
    title = N_("Quiz buzzer")

    def header(self, view: View) -> tuple[str, str]:
        phase = str(view.get("phase", "idle"))
        label = {"idle": _("get ready"), "armed": _("buzz now!"), "answering": _("answering"), "tie": _("tie"),
                 "round_over": _("judged")}
        return self.title, _("Question {n} · {phase}").format(n=view.get("question", 1), phase=label.get(phase, phase))

    def title_card(self, view: View) -> bool:
        return view.get("phase") == "idle" and view.get("question", 1) == 1 and not view.get("results") \
            and not any(view.get("scores", ()))

    def title_hint(self, view: View) -> str:
        return _("Buzz when the screen turns green. The host starts the first question.")

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        """A locked station shows its lockout running out; a queued one its
        place in line. Between questions the last question's queue is
        history: only the one who got it right stays lit."""
        lockouts = view.get("lockouts_us", {})
        queue = list(view.get("queue", ()))
        between = view.get("phase") in ("round_over", "idle")
        results = list(view.get("results", ()))
        winner = results[-1].get("winner") if results and view.get("phase") == "round_over" else None
        out = []
        for i, cell in enumerate(strip):
            status, label = cell.get("status"), cell.get("label")
            if between:
                if status == "queued":
                    status = "first" if i == winner else "idle"
                label = _("RIGHT") if i == winner else None
            elif status == "queued" and i in queue and label is None:
                label = f"#{queue.index(i) + 2}"
            out.append({**cell, "status": status, "label": label, "lockout_us": lockouts.get(str(i))})
        return out

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        phase = view.get("phase", "idle")
        teams = view.get("team_count", 0) and view.get("team_count", 0) < len(view.get("teams", ()))
        side = None
        if phase in ("answering", "round_over") or teams:
            side_w = round(area.width * 0.36)
            side = pygame.Rect(area.right - side_w, area.top, side_w, area.height)
            area = pygame.Rect(area.left, area.top, area.width - side_w - lay.pad * 2, area.height)
        if phase == "answering" and view.get("winner") is not None:
            self._winner(surface, area, lay, view, strip)
        elif phase == "armed":
            panel(surface, area, ARMED)
            draw_text(surface, _("BUZZ!"), lay.size(5.5), theme.DARK_TEXT, area.inflate(0, -area.height // 3).move(0, -area.height // 8))
            draw_text(surface, _("first press answers"), lay.size(1.6), theme.DARK_TEXT,
                      pygame.Rect(area.left, area.bottom - area.height // 3, area.width, area.height // 4))
        elif phase == "tie":
            self._tie(surface, area, lay, view, strip)
        elif phase == "round_over":
            self._round_over(surface, area, lay, view, strip)
        else:
            panel(surface, area, NOT_ARMED)
            draw_text(surface, _("Get ready"), lay.size(3.2), theme.FG, area.inflate(0, -area.height // 3).move(0, -area.height // 8))
            draw_text(surface, _("Listen to the question, buzz when the screen turns green"), lay.size(1.2), theme.MUTED,
                      pygame.Rect(area.left, area.bottom - area.height // 3, area.width, area.height // 4), min_size=lay.min_text)
        if side is not None:
            top = side.top
            if phase == "answering":
                top = self._queue(surface, side, lay, view, strip)
            elif phase == "round_over":
                top = self._order(surface, side, lay, view, strip)
            if teams:
                self._team_scores(surface, pygame.Rect(side.left, top, side.width, side.bottom - top), lay, view)

    # -- parts -------------------------------------------------------------------
    def _winner(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        station = int(view["winner"])
        fill = self.color(view, station)
        ink = theme.text_on(fill)
        panel(surface, area, fill)
        inner = area.inflate(-4 * lay.pad, -4 * lay.pad)
        draw_text(surface, self.name(strip, station), lay.size(4), ink,
                  pygame.Rect(inner.left, inner.top, inner.width, inner.height * 45 // 100), min_size=lay.size(2))
        lead = lead_us(view, station)
        said = _("answers") if lead is None else _("answers · {margin} ahead of {name}").format(
            margin=format_ms3(lead[1]), name=self.name(strip, lead[0]))
        draw_text(surface, said, lay.size(1.4), ink,
                  pygame.Rect(inner.left, inner.top + inner.height * 45 // 100, inner.width, inner.height * 15 // 100),
                  min_size=lay.min_text)
        left = view.get("answer_left_us")
        if left is not None:
            # the view has the time left, not the total: the first reading of a turn is the total
            turn = (view.get("question"), station, len(view.get("results", ())))
            if self._turn != turn:
                self._turn, self._full_us = turn, max(int(left), 1)
            timer = pygame.Rect(inner.left, inner.bottom - inner.height * 35 // 100, inner.width, inner.height * 35 // 100)
            self._timer(surface, timer, lay, int(left), ink, self._full_us)

    _turn: tuple[object, ...] | None = None
    _full_us = 1

    def _timer(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, left_us: int, ink: theme.Color, full_us: int) -> None:
        """Seconds left, big, over a bar that empties; red for the last seconds."""
        warn = left_us <= 3_000_000
        bar_h = max(6, area.height // 6)
        bar = pygame.Rect(area.left, area.bottom - bar_h, area.width, bar_h)
        panel(surface, bar, theme.blend(theme.BG, ink, 0.15))
        frac = min(1.0, left_us / full_us)
        panel(surface, pygame.Rect(bar.left, bar.top, max(1, round(bar.width * frac)), bar_h), theme.BAD if warn else ink)
        text = _("{n} s").format(n=-(-left_us // 1_000_000)) if left_us > 0 else _("time!")
        draw_text(surface, text, lay.size(2.4), theme.BAD if warn and ink == theme.FG else ink,
                  pygame.Rect(area.left, area.top, area.width, area.height - bar_h))

    def _queue(self, surface: pygame.Surface, side: pygame.Rect, lay: Layout, view: View, strip: Strip) -> int:
        """Next in line, each with how far behind the first press it came."""
        queue = list(view.get("queue", ()))
        margins = view.get("margins_us", {})
        row_h = lay.size(1.5)
        draw_text(surface, _("next in line"), lay.min_text, theme.MUTED, pygame.Rect(side.left, side.top, side.width, row_h), align="left")
        y = side.top + row_h
        if not queue:
            draw_text(surface, _("nobody"), lay.min_text, theme.MUTED, pygame.Rect(side.left, y, side.width, row_h), align="left")
            return y + row_h + lay.pad
        max_rows = max(1, (side.bottom - y) // (row_h + lay.pad) - (1 if view.get("team_count", 0) < len(view.get("teams", ())) else 0))
        for pos, station in enumerate(queue[:max_rows], start=2):
            margin = margins.get(str(station))
            self._row(surface, pygame.Rect(side.left, y, side.width, row_h), lay, view, strip, pos, station,
                      format_ms3(int(margin), sign=True) if margin is not None else "")
            y += row_h + lay.pad
        return y + lay.pad

    def _team_scores(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        scores = list(view.get("team_scores", ()))
        row_h = lay.size(1.3)
        if area.height < row_h * 2:
            return
        draw_text(surface, _("teams"), lay.min_text, theme.MUTED, pygame.Rect(area.left, area.top, area.width, row_h), align="left")
        y = area.top + row_h
        for team in sorted(range(len(scores)), key=lambda t: -scores[t]):
            if y + row_h > area.bottom:
                break
            fill = theme.PALETTE[team % len(theme.PALETTE)]
            r = pygame.Rect(area.left, y, area.width, row_h)
            panel(surface, r, fill)
            ink = theme.text_on(fill)
            draw_text(surface, _("Team {n}").format(n=team + 1), lay.min_text, ink, r.inflate(-2 * lay.pad, 0), align="left")
            draw_text(surface, str(scores[team]), lay.size(1.1), ink, r.inflate(-2 * lay.pad, 0), align="right")
            y += row_h + lay.pad

    def _tie(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        ties = list(view.get("ties", ()))
        tied = list(ties[0]) if ties else []
        panel(surface, area, theme.PANEL)
        draw_text(surface, _("TIE"), lay.size(4), theme.FG, pygame.Rect(area.left, area.top, area.width, area.height // 2))
        if tied:
            w = area.width // len(tied)
            for k, station in enumerate(tied):
                r = pygame.Rect(area.left + k * w + lay.pad, area.top + area.height // 2, w - 2 * lay.pad, area.height // 3)
                panel(surface, r, self.color(view, station))
                draw_text(surface, self.name(strip, station), lay.size(1.4), theme.text_on(self.color(view, station)), r, min_size=lay.min_text)
        draw_text(surface, _("too close to call: the host picks"), lay.min_text, theme.MUTED,
                  pygame.Rect(area.left, area.bottom - lay.size(1.4), area.width, lay.size(1.2)))

    def _round_over(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        results = list(view.get("results", ()))
        last = results[-1] if results else {}
        winner = last.get("winner")
        why = str(last.get("result", ""))
        if winner is not None:
            fill = self.color(view, int(winner))
            panel(surface, area, fill)
            ink = theme.text_on(fill)
            draw_text(surface, self.name(strip, int(winner)), lay.size(3.5), ink,
                      pygame.Rect(area.left, area.top, area.width, area.height * 55 // 100), min_size=lay.size(2))
            draw_text(surface, _(RESULT_TEXT.get(why, why)), lay.size(2.2), ink,
                      pygame.Rect(area.left, area.top + area.height * 55 // 100, area.width, area.height * 30 // 100))
        else:
            panel(surface, area, NOT_ARMED)
            draw_text(surface, _(RESULT_TEXT.get(why, why)) or _("round over"), lay.size(3), theme.FG, area)

    def _order(self, surface: pygame.Surface, side: pygame.Rect, lay: Layout, view: View, strip: Strip) -> int:
        """After the judgement: who pressed in which order, and how far behind
        the first, so the room can still read why it went that way."""
        row_h = lay.size(1.5)
        draw_text(surface, _("order of presses"), lay.min_text, theme.MUTED, pygame.Rect(side.left, side.top, side.width, row_h), align="left")
        y = side.top + row_h
        for place, (station, margin) in enumerate(press_order(view), start=1):
            if y + row_h > side.bottom:
                break
            self._row(surface, pygame.Rect(side.left, y, side.width, row_h), lay, view, strip, place, station,
                      format_ms3(margin, sign=True) if place > 1 else _("first"))
            y += row_h + lay.pad
        return y + lay.pad

    def _row(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, view: View, strip: Strip, place: int,
             station: int, right: str) -> None:
        """One line of the queue or the order: a chip in the player's colour, place and name, the margin."""
        panel(surface, r, theme.PANEL)
        chip = pygame.Rect(r.left, r.top, max(8, r.height // 4), r.height)
        pygame.draw.rect(surface, self.color(view, station), chip)
        inner = pygame.Rect(chip.right + lay.pad, r.top, r.right - lay.pad - chip.right - lay.pad, r.height)
        draw_text(surface, f"{place}. {self.name(strip, station)}", lay.min_text, theme.FG,
                  pygame.Rect(inner.left, inner.top, inner.width * 52 // 100, inner.height), align="left", min_size=lay.min_text)
        draw_text(surface, right, lay.min_text, theme.FG,
                  pygame.Rect(inner.left + inner.width * 52 // 100, inner.top, inner.width * 48 // 100, inner.height),
                  align="right", min_size=lay.min_text)


def format_ms3(us: int, sign: bool = False) -> str:
    """A margin on the quiz screen: always three decimals of a millisecond
    (one precision for every time on the screen): "0.412 ms", "+63.628 ms"."""
    text = _("{n} ms").format(n=format_number(us / 1000, 3))
    return "+" + text if sign else text
