"""The quiz on the shared screen: the pack's question large (category,
points, its picture), armed or not, the winner big with the margin to the
next, the queue, the answer timer, the answer once the host reveals it, and
the leaderboard (a podium and everyone's reactions) between rounds and at the end."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pygame

from games.arbitration import format_margin
from games.i18n import N_, _, format_number, ngettext
from games.quiz.strip import worded_strip
from games.quiz.teams import members_line, team_colour, team_members, team_name
from games.toolkit import theme
from games.toolkit.results import draw_podium, lists_everyone, on_stage, whole_on_podium
from games.toolkit.results_words import won_stations
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import TEXT, Color, Layout, draw_text, fmt_ms, panel, wrap_lines

ARMED: Color = (0, 200, 83)
NOT_ARMED: Color = (70, 76, 92)

#: a press stamped this coarsely (a phone's, on arrival) shows its precision beside its time
COARSE_STAMP_US = 10_000
#: the lines the last answer's band on the final results may take (an answer of MAX_ANSWER_CHARS, whole)
ANSWER_LINES = 3

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


def tall(lay: Layout, scale: float, rect: pygame.Rect) -> int:
    """``scale`` times the minimum text, but no taller than ``rect`` (the
    question takes the top of the screen); never under the minimum."""
    return max(lay.min_text, min(lay.size(scale), rect.height))


def fit_wrapped(text: str, size: int, min_size: int, rect: pygame.Rect) -> tuple[int, list[str]]:
    """The largest size from ``size`` down to ``min_size`` at which ``text``,
    wrapped, fits ``rect``; at ``min_size`` the lines are given even if they do not."""
    while True:
        lines = wrap_lines(text, size, rect.width)
        if size <= min_size or len(lines) * TEXT.font(size).get_height() <= rect.height:
            return size, lines
        size = max(min_size, size * 9 // 10)


def arrange_choices(choices: list[str], size: int, width: int, gap: int) -> tuple[int, list[list[list[str]]]]:
    """The choices labelled A, B, ... in a grid of three, two or one columns,
    each wrapped in its column (a choice is never cut: players must read all
    of them), whichever takes the fewest lines (fewer columns on a tie).
    Returns (columns, the rows: each choice of a row as its lines)."""
    labelled = [f"{chr(65 + k)}: {c}" for k, c in enumerate(choices)]
    best: tuple[int, int, list[list[list[str]]]] | None = None
    for cols in (1, 2, 3):
        col_w = (width - gap * (cols - 1)) // cols
        wrapped = [wrap_lines(text, size, col_w) for text in labelled]
        if cols > 1 and any(TEXT.width(line, size) > col_w for lines in wrapped for line in lines):
            continue  # a word wider than the column: fewer columns
        rows = [wrapped[k:k + cols] for k in range(0, len(wrapped), cols)]
        height = sum(max(len(lines) for lines in row) for row in rows)
        if best is None or height < best[0]:
            best = (height, cols, rows)
    assert best is not None  # one column always fits
    return best[1], best[2]


class QuizScene(Scene):
    title = N_("Quiz buzzer")
    own_results = True  # the end screen is the leaderboard: podium, right answers, reactions

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        #: pictures by file, scaled copies by (file, size); None: could not be read
        self._images: dict[str, pygame.Surface | None] = {}
        self._scaled: dict[tuple[str, int, int], pygame.Surface] = {}

    def header(self, view: View) -> tuple[str, str]:
        phase = str(view.get("phase", "idle"))
        if view.get("finished"):
            return self.title, _("Final results")
        if view.get("board"):
            return self.title, _("Leaderboard after question {n}").format(n=view.get("questions_done", 0))
        label = {"idle": _("get ready"), "armed": _("buzz now!"), "answering": _("answering"), "tie": _("tie"),
                 "round_over": _("judged"), "all_play": _("everyone answers")}
        total = view.get("questions_total")
        number = (_("Question {n} of {total}").format(n=view.get("question", 1), total=total) if total
                  else _("Question {n}").format(n=view.get("question", 1)))
        current = view.get("round") or {}
        if int(current.get("of", 1)) > 1:
            number = _("Round {n} of {m}").format(n=current.get("number"), m=current.get("of")) + " · " + number
        return self.title, f"{number} · {label.get(phase, phase)}"

    def title_card(self, view: View) -> bool:
        """Before the first question; with a pack the first question is the
        opening picture (the host reads it out, then arms)."""
        return view.get("phase") == "idle" and view.get("question", 1) == 1 and not view.get("results") \
            and not any(view.get("scores", ())) and not (view.get("ask") or {}).get("text")

    def title_hint(self, view: View) -> str:
        return _("Buzz when the screen turns green. The host starts the first question.")

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        return worded_strip(view, strip)  # games/quiz/strip.py: the phones' pages word the strip so too

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        if view.get("board"):
            answer = view.get("answer")
            if view.get("finished") and answer is not None:  # the last question's answer, shown on the final results
                # as tall as its text: a long answer (MAX_ANSWER_CHARS) on up to three lines, whole
                said = _("Answer to question {n}: {answer}").format(n=view.get("question"), answer=answer)
                fitted, lines = theme.fit_lines(said, lay.size(1.2), area.width - 2 * lay.pad, lay.min_text, ANSWER_LINES)
                high = lay.size(1.4) if len(lines) == 1 else theme.line_height(fitted) * len(lines) + lay.pad
                band = pygame.Rect(area.left, area.top, area.width, high)
                panel(surface, band, theme.GOOD)
                theme.draw_fitted(surface, said, lay.size(1.2), theme.DARK_TEXT, band.inflate(-2 * lay.pad, 0),
                                  lay.min_text, ANSWER_LINES)
                area = pygame.Rect(area.left, band.bottom + lay.pad, area.width, area.bottom - band.bottom - lay.pad)
            self._leaderboard(surface, area, lay, view, strip)
            return
        if view.get("round_intro"):
            self._round_card(surface, area, lay, view.get("round") or {})
            return
        ask = view.get("ask") or {}
        if ask.get("text"):
            # the question on top, the buzzers' story below it; a long question
            # (with its choices or answer) takes more of the screen rather than
            # being drawn over them
            share = 52 if view.get("phase") in ("idle", "armed") else 44
            if (view.get("ask") or {}).get("video") and not view.get("answer"):
                share = 64  # a clip to watch: the room's eyes are on it until the answer is out
            height = max(area.height * share // 100, self.question_height(area.width, lay, view))
            card = pygame.Rect(area.left, area.top, area.width, min(height, area.height - lay.size(3) - lay.pad))
            self.draw_question(surface, card, lay, view)
            area = pygame.Rect(area.left, card.bottom + lay.pad, area.width, area.bottom - card.bottom - lay.pad)
        self._phase_body(surface, area, lay, view, strip)

    def _question_parts(self, view: View, lay: Layout, width: int) -> tuple[list[str], int, list[list[list[str]]], int]:
        """What goes under the question at ``width`` (the card's inner width):
        the choices (columns and rows at the minimum text) or, once revealed,
        the answer band; and the height they take with their gap."""
        ask = view.get("ask") or {}
        choices = [str(c) for c in ask.get("choices", ())]
        if view.get("answer") is not None:
            return choices, 1, [], lay.size(1.4) + lay.pad
        if not choices:
            return choices, 1, [], 0
        cols, rows = arrange_choices(choices, lay.min_text, width, lay.min_text * 2)
        lines = sum(max(len(choice) for choice in row) for row in rows)
        return choices, cols, rows, lines * TEXT.font(lay.min_text).get_height() + lay.pad

    def question_height(self, width: int, lay: Layout, view: View) -> int:
        """The card height the question needs at the minimum text size, with
        its choices or answer: the least the screen may give it."""
        ask = view.get("ask") or {}
        inner_w = width - 2 * lay.pad
        *_parts, below = self._question_parts(view, lay, inner_w)
        beside = self._beside_share(ask)
        text_w = inner_w - (inner_w * beside // 100 + lay.pad if beside else 0)
        lines = wrap_lines(str(ask.get("text", "")), lay.min_text, text_w)
        return 2 * lay.pad + lay.min_text + lay.pad + len(lines) * TEXT.font(lay.min_text).get_height() + below

    def draw_question(self, surface: pygame.Surface, card: pygame.Rect, lay: Layout, view: View) -> None:
        """Category and points on a line, the question wrapped as large as it
        fits (never under the minimum text), its picture scaled on the right,
        the choices on lines of their own, and the answer once revealed."""
        ask = view.get("ask") or {}
        panel(surface, card, theme.PANEL)
        inner = card.inflate(-2 * lay.pad, -2 * lay.pad)
        top_h = lay.min_text
        points = int(ask.get("points", 1))
        worth = ngettext("{n} point", "{n} points", points).format(n=format_number(points))
        category = str(ask.get("category", ""))
        draw_text(surface, category, lay.min_text, theme.MUTED,
                  pygame.Rect(inner.left, inner.top, inner.width * 70 // 100, top_h), align="left", min_size=lay.min_text)
        draw_text(surface, worth, lay.min_text, theme.STATUS_COLORS["first"],
                  pygame.Rect(inner.left + inner.width * 70 // 100, inner.top, inner.width * 30 // 100, top_h),
                  align="right", min_size=lay.min_text)
        body = pygame.Rect(inner.left, inner.top + top_h + lay.pad, inner.width, inner.height - top_h - lay.pad)
        answer = view.get("answer")
        _choices, cols, rows, below = self._question_parts(view, lay, body.width)
        if answer is not None:
            band = pygame.Rect(body.left, body.bottom - lay.size(1.4), body.width, lay.size(1.4))
            panel(surface, band, theme.GOOD)
            draw_text(surface, _("Answer: {answer}").format(answer=answer), lay.size(1.2), theme.DARK_TEXT,
                      band.inflate(-2 * lay.pad, 0), min_size=lay.min_text)
        choices_top = body.bottom - below + lay.pad
        body.height -= below
        picture = self._picture(ask.get("image"))
        share = self._beside_share(ask)
        box = pygame.Rect(body.right - body.width * share // 100, body.top, body.width * share // 100, body.height)
        if ask.get("video"):
            self._draw_video(surface, box, lay, picture, str(ask.get("image")))
        elif picture is not None:
            scaled = self._scaled_picture(str(ask.get("image")), picture, box.size)
            surface.blit(scaled, scaled.get_rect(center=box.center))
        if share:
            body.width -= box.width + lay.pad
        size, lines = fit_wrapped(str(ask.get("text", "")), lay.size(2.4), lay.min_text, body)
        line_h = TEXT.font(size).get_height()
        y = body.top + max(0, (body.height - line_h * len(lines)) // 2)
        for text in lines:
            draw_text(surface, text, size, theme.FG, pygame.Rect(body.left, y, body.width, line_h), min_size=size)
            y += line_h
        if answer is None and rows:  # below the question, in the room kept for them
            line_h = TEXT.font(lay.min_text).get_height()
            gap = lay.min_text * 2
            col_w = (inner.width - gap * (cols - 1)) // cols
            y = choices_top
            for row in rows:
                for k, choice in enumerate(row):  # a choice's lines one after another, then the next choice
                    for n, text in enumerate(choice):
                        draw_text(surface, text, lay.min_text, theme.FG,
                                  pygame.Rect(inner.left + k * (col_w + gap), y + n * line_h, col_w, line_h),
                                  align="left", min_size=lay.min_text)
                y += max(len(choice) for choice in row) * line_h

    def _beside_share(self, ask: View) -> int:
        """How much of the card's width (per cent) the question's video or picture takes beside its text."""
        if ask.get("video"):
            return 45
        return 30 if self._picture(ask.get("image")) is not None else 0

    def _draw_video(self, surface: pygame.Surface, box: pygame.Rect, lay: Layout, still: pygame.Surface | None,
                    still_key: str) -> None:
        """A video question's frame (the presenter decodes it: ``self.video``), as large as
        ``box`` holds; before its first frame, the pack's picture or a play sign; paused: a pause sign."""
        shown = self.video
        frame = shown.frame if shown is not None else None
        if frame is not None:
            w, h = frame.get_size()
            k = min(box.width / max(1, w), box.height / max(1, h))
            size = (max(1, int(w * k)), max(1, int(h * k)))
            scaled = frame if size == (w, h) else pygame.transform.scale(frame, size)
            area = surface.blit(scaled, scaled.get_rect(center=box.center))
        elif still is not None:
            scaled = self._scaled_picture(still_key, still, box.size)
            area = surface.blit(scaled, scaled.get_rect(center=box.center))
        else:
            height = min(box.height, box.width * 9 // 16)
            area = pygame.Rect(box.left, box.centery - height // 2, box.width, height)
            panel(surface, area, theme.BG)
            r = max(4, min(area.width, area.height) // 6)
            cx, cy = area.centerx, area.centery
            pygame.draw.polygon(surface, theme.MUTED, [(cx - r * 2 // 3, cy - r), (cx - r * 2 // 3, cy + r),
                                                       (cx + r, cy)])
        if shown is not None and shown.state == "paused":  # the buzz was decided: the clip waits for the answer
            r = max(4, min(area.width, area.height) // 8)
            for dx in (-r, r // 3):
                pygame.draw.rect(surface, theme.FG, pygame.Rect(area.centerx + dx, area.centery - r, r * 2 // 3, 2 * r))
        note = shown.note if shown is not None else None
        if note:  # on the placeholder's foot: that it is not played, then the host's fix
            line_h = TEXT.font(lay.min_text).get_height()
            for k, text in enumerate((_("Video not played on this box"), note)):
                draw_text(surface, text, lay.min_text, theme.MUTED,
                          pygame.Rect(area.left, area.bottom - (2 - k) * line_h, area.width, line_h), min_size=lay.min_text)

    def _picture(self, path: object) -> pygame.Surface | None:
        """The question's picture, read once (a missing or bad file: no picture)."""
        if not isinstance(path, str) or not path:
            return None
        if path not in self._images:
            try:
                self._images[path] = pygame.image.load(path) if Path(path).is_file() else None
            except (pygame.error, OSError):
                self._images[path] = None
        return self._images[path]

    def _scaled_picture(self, key: str, picture: pygame.Surface, size: tuple[int, int]) -> pygame.Surface:
        """Scaled to fit ``size`` keeping its proportions; kept for the next frames."""
        w, h = picture.get_size()
        k = min(size[0] / max(1, w), size[1] / max(1, h))
        target = (max(1, int(w * k)), max(1, int(h * k)))
        cached = self._scaled.get((key, *target))
        if cached is None:
            if len(self._scaled) > 8:
                self._scaled.clear()
            cached = self._scaled[(key, *target)] = pygame.transform.smoothscale(picture.convert_alpha()
                                                                                  if pygame.display.get_surface() else picture, target)
        return cached

    def _phase_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        phase = view.get("phase", "idle")
        all_play = view.get("all_play")
        if all_play:
            if all_play.get("open"):
                self._all_play_open(surface, area, lay, view, strip, all_play)
            else:
                self._all_play_reveal(surface, area, lay, view, strip, all_play)
            return
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
            big = area.inflate(0, -area.height // 3).move(0, -area.height // 8)
            draw_text(surface, _("BUZZ!"), tall(lay, 5.5, big), theme.DARK_TEXT, big)
            line = pygame.Rect(area.left, area.bottom - area.height // 3, area.width, area.height // 4)
            left = view.get("buzz_left_us")
            said = _("first press answers") if left is None else _("first press answers · {n} s").format(n=-(-int(left) // 1_000_000))
            out = list((view.get("bowl") or {}).get("locked_out") or ())
            if out:  # quiz bowl after a neg: why that team's presses do nothing
                said = _("{teams} answered wrong and cannot buzz · the others may").format(
                    teams=", ".join(team_label(view, int(t)) for t in out))
            draw_text(surface, said, tall(lay, 1.6, line), theme.DARK_TEXT, line, min_size=lay.min_text)
        elif phase == "tie":
            self._tie(surface, area, lay, view, strip)
        elif phase == "round_over":
            self._round_over(surface, area, lay, view, strip)
        elif phase == "bonus":
            self._bonus(surface, area, lay, view)
        else:
            panel(surface, area, NOT_ARMED)
            # the instruction below on up to two lines (beside the teams' panel a Polish one is long)
            line_h = 2 * theme.line_height(lay.min_text) + lay.pad
            big = pygame.Rect(area.left, area.top, area.width, max(area.height // 2, area.height - line_h - lay.pad))
            draw_text(surface, _("Get ready"), tall(lay, 3.2, big), theme.FG, big)
            line = pygame.Rect(area.left, big.bottom, area.width, area.bottom - big.bottom - lay.pad)
            theme.draw_fitted(surface, _("Listen to the question, buzz when the screen turns green"), tall(lay, 1.2, line),
                              theme.MUTED, line.inflate(-2 * lay.pad, 0), lay.min_text)  # two lines beside the teams, not cut
        if side is not None:
            top = side.top
            if phase == "answering":
                top = self._queue(surface, side, lay, view, strip)
            elif phase == "round_over":
                top = self._order(surface, side, lay, view, strip)
            if teams:
                self._team_scores(surface, pygame.Rect(side.left, top, side.width, side.bottom - top), lay, view, strip)

    def _bonus(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View) -> None:
        """Quiz bowl: the team that got the tossup answers its bonus (nobody buzzes)."""
        bowl = view.get("bowl") or {}
        parts, done = int(bowl.get("bonus_parts", 0)), list(bowl.get("bonus", ()))
        panel(surface, area, NOT_ARMED)
        big = area.inflate(0, -area.height // 3).move(0, -area.height // 8)
        team = team_label(view, int(bowl.get("bonus_team") or 0))
        draw_text(surface, _("Bonus for {team}").format(team=team), tall(lay, 3.2, big), theme.FG, big)
        line = pygame.Rect(area.left, area.bottom - area.height // 3, area.width, area.height // 4)
        said = _("part {part} of {parts} · {points} so far").format(
            part=min(len(done) + 1, parts), parts=parts, points=format_number(sum(done)))
        draw_text(surface, said, tall(lay, 1.4, line), theme.MUTED, line, min_size=lay.min_text)

    # -- all-play -------------------------------------------------------------------
    def _all_play_open(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
                       ap: View) -> None:
        """Everyone answers: the timer, how to answer, and WHO has locked in
        (never what: the whole room sees this screen)."""
        choices = int(ap.get("choices", 0))
        letters = ", ".join(choice_letter(k) for k in range(choices))
        head_h = lay.size(3)
        head = pygame.Rect(area.left, area.top, area.width * 30 // 100, head_h)
        self._timer(surface, head, lay, int(ap.get("answer_left_us", 0)), theme.FG, max(1, int(ap.get("answer_time_us", 1))))
        how = pygame.Rect(head.right + lay.pad * 2, area.top, area.right - head.right - lay.pad * 2, head_h // 2)
        # keyboard stations have one button (a) and answer nothing here: the players answer on phones
        how_to = (_("Everyone answers: press {letters}") if ap.get("buttons") is not None
                  else _("Everyone answers on a phone: {letters}"))
        draw_text(surface, how_to.format(letters=letters), tall(lay, 1.4, how),
                  theme.FG, how, align="left", min_size=lay.min_text)
        locked = list(ap.get("locked", ()))
        count = pygame.Rect(how.left, how.bottom, how.width, head_h - how.height)
        said = _("{n} of {total} locked in").format(n=format_number(int(ap.get("locked_count", 0))),
                                                    total=format_number(len(locked)))
        draw_text(surface, said, lay.min_text, theme.MUTED, count, align="left", min_size=lay.min_text)
        grid = pygame.Rect(area.left, area.top + head_h + lay.pad, area.width, area.height - head_h - lay.pad)
        self._chips(surface, grid, lay, view, strip, [(s, _("locked in") if done else "", bool(done))
                                                       for s, done in enumerate(locked)], short="✓")

    def _all_play_reveal(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
                         ap: View) -> None:
        """The answer shown: how the room answered (a bar per choice, the right
        one green), and every player's points, fastest right answer first."""
        bars_w = area.width * 45 // 100
        bars = pygame.Rect(area.left, area.top, bars_w, area.height)
        spread = [int(n) for n in ap.get("distribution", ())]
        right = ap.get("right")
        choices = list((view.get("ask") or {}).get("choices") or ())
        row_h = min(lay.size(2), (bars.height - lay.pad * max(0, len(spread) - 1)) // max(1, len(spread)))
        most = max(spread, default=0) or 1
        for k, n in enumerate(spread):  # the choice (45 %), its bar (40 %), how many picked it
            r = pygame.Rect(bars.left, bars.top + k * (row_h + lay.pad), bars.width, row_h)
            ink = theme.GOOD if k == right else theme.blend(theme.BG, theme.FG, 0.35)
            panel(surface, r, theme.PANEL)
            label = f"{choice_letter(k)}: {choices[k]}" if k < len(choices) else choice_letter(k)  # as the question lists them
            label_r = pygame.Rect(r.left + lay.pad, r.top, r.width * 45 // 100 - lay.pad, r.height)
            track = pygame.Rect(label_r.right + lay.pad, r.top, r.width * 40 // 100, r.height)
            draw_text(surface, label, lay.min_text, theme.FG, label_r, align="left", min_size=lay.min_text)
            panel(surface, pygame.Rect(track.left, track.top + r.height // 5, max(2, track.width * n // most), r.height * 3 // 5), ink)
            draw_text(surface, format_number(n), lay.min_text, theme.FG,
                      pygame.Rect(track.right, r.top, r.right - track.right, r.height), min_size=lay.min_text)
        side = pygame.Rect(bars.right + lay.pad * 2, area.top, area.right - bars.right - lay.pad * 2, area.height)
        answered = {int(row["player"]): row for row in ap.get("answers", ())}
        order = sorted(range(len(ap.get("points", ()))),
                       key=lambda s: (-(ap["points"][s] or 0), answered[s]["reaction_us"] if s in answered else 1 << 62, s))
        rows = []
        for s in order:
            row = answered.get(s)
            if row is None:
                rows.append((s, _("no answer"), False))
                continue
            if not row["right"]:  # said in words, without the time that scored nothing ("+0 A · 1.50 s" read as slow)
                rows.append((s, _("wrong: {choice}").format(choice=choice_letter(int(row["choice"]))), False))
                continue
            took = _("{choice} · {seconds} s").format(choice=choice_letter(int(row["choice"])),
                                                      seconds=format_number(int(row["reaction_us"]) / 1e6, 2))
            if int(row.get("precision_us", 1)) >= COARSE_STAMP_US:  # a phone's: stamped on arrival, say how finely
                took += " " + _("±{ms} ms").format(ms=format_number(int(row["precision_us"]) / 1000))
            rows.append((s, f"+{format_number(int(row['points']))}  {took}", True))
        self._chips(surface, side, lay, view, strip, rows, columns=1)

    def _chips(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip,
               rows: list[tuple[int, str, bool]], columns: int | None = None, short: str | None = None) -> None:
        """Players in a grid: a chip in the player's colour, the name and a
        note; a lit chip (locked in, right) full colour, the rest dim. The note
        takes what it needs, the name the rest of its chip, on two lines when
        every chip has the room; where a name would still be cut, ``short``
        (a mark) stands for every chip's note."""
        n = len(rows)
        cols = columns or (1 if n <= 4 else 2 if n <= 8 else 4)
        per_col = -(-n // cols) if n else 1
        line_h = theme.line_height(lay.min_text)
        # on a short area (eight players under a question at 720 p) the gaps give way before the rows are lower than a line
        gap = lay.pad if per_col < 2 else max(2, min(lay.pad, (area.height - per_col * line_h) // (per_col - 1)))
        room = (area.height - gap * (per_col - 1)) // per_col
        row_h = min(lay.size(2), room)
        col_w = (area.width - lay.pad * 2 * (cols - 1)) // cols
        band = max(8, row_h // 4)
        inner_w = col_w - band - 2 * lay.pad

        def widths(note: str) -> tuple[int, int]:
            note_w = min(TEXT.width(note, lay.min_text), inner_w * 55 // 100) if note else 0
            return inner_w - note_w - (lay.pad if note else 0), note_w

        if any(TEXT.width(self.name(strip, s), lay.min_text) > widths(note)[0] for s, note, _l in rows):
            row_h = max(row_h, min(room, 2 * line_h + lay.pad // 2))
        two = row_h >= 2 * line_h * 9 // 10
        if short is not None and any(note and not theme.fits(self.name(strip, s), lay.min_text,
                                                             widths(note)[0], lay.min_text, 2 if two else 1)
                                     for s, note, _l in rows):  # every chip the same mark, not a word on some
            rows = [(s, short if note else "", lit) for s, note, lit in rows]
        for k, (station, note, lit) in enumerate(rows):
            r = pygame.Rect(area.left + (k // per_col) * (col_w + lay.pad * 2), area.top + (k % per_col) * (row_h + gap),
                            col_w, row_h)
            colour = self.color(view, station)
            fill = theme.legible_fill(colour) if lit else theme.PANEL
            panel(surface, r, fill)
            ink = theme.text_on(fill)
            pygame.draw.rect(surface, colour, pygame.Rect(r.left, r.top, band, r.height))
            inner = pygame.Rect(r.left + band + lay.pad, r.top, inner_w, r.height)
            name = self.name(strip, station)
            name_w, note_w = widths(note)
            draw_text(surface, name, lay.min_text, ink, pygame.Rect(inner.left, inner.top, name_w, inner.height),
                      align="left", min_size=lay.min_text)
            draw_text(surface, note, lay.min_text, ink, pygame.Rect(inner.right - note_w, inner.top, note_w, inner.height),
                      align="right", min_size=lay.min_text)

    # -- parts -------------------------------------------------------------------
    def _leaderboard(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """The top three on a podium (teams when teams play), and beside it
        every player: points, right answers, fastest and median reaction
        (the columns its names leave room for, ``_table_plan``; with nine to sixteen players
        the podium gives way to the table when its figures need the whole body)."""
        standings = list(view.get("standings", ()))
        teams = bool(view.get("team_count", 0) and view.get("team_count", 0) < len(view.get("teams", ())))
        rows = [(int(r["place"]), [int(s) for s in r["stations"]], int(r["score"])) for r in standings]
        reactions = {int(r["player"]): r for r in view.get("reactions", ())}
        heads, lines = self._reaction_lines(view, strip, standings, reactions)

        def label(members: list[int]) -> str:
            return team_label(view, int(view["teams"][members[0]])) if teams else self.name(strip, members[0])

        # everyone tied for a place on it too (places 1, 2, 3, 3: the fourth is listed beside the podium,
        # whose blocks are narrower then: the short unit of the table's heading)
        podium = [row for row in rows if row[0] <= 3]
        table_w, heads, lines, name_lines, halves = self._table_plan(
            area, lay, heads, lines, lambda w: whole_on_podium(area.width - w - 2 * lay.pad, lay, on_stage(podium), label))
        stage = pygame.Rect(area.left, area.top, area.width - table_w - 2 * lay.pad, area.height)

        def amount(score: int) -> str:  # narrow blocks (a tie on the podium) put it on two lines
            return ngettext("{n} point", "{n} points", score).format(n=format_number(score))

        # the reactions are in the table beside it (a podium block is too narrow for them)
        def colour(members: list[int]) -> Color:  # a team stands on the podium in its own colour
            return team_colour(int(view["teams"][members[0]])).rgb if teams else self.color(view, members[0])

        if table_w < area.width:  # else the podium gave way to the table's right answers (sixteen players)
            if not lists_everyone(stage, lay, podium, label):  # thirteen tied for second: the table places them all
                podium = on_stage(podium)
            draw_podium(surface, stage, lay, podium, colour, label, amount, crowned=bool(won_stations(rows)))
        table = pygame.Rect(area.right - table_w, area.top, table_w, area.height)
        per_half = -(-len(lines) // halves)  # sixteen players at 720 p: two tables side by side, everyone in one
        half_w = (table.width - (halves - 1) * 2 * lay.pad) // halves
        for k in range(halves):
            self._reaction_table(surface, pygame.Rect(table.left + k * (half_w + 2 * lay.pad), table.top, half_w, table.height),
                                 lay, view, heads, lines[k * per_half:(k + 1) * per_half], name_lines)

    def _table_plan(self, area: pygame.Rect, lay: Layout, heads: tuple[str, ...], lines: list[tuple[int, tuple[str, ...]]],
                    podium_whole: Callable[[int], bool]) -> tuple[int, tuple[str, ...], list[tuple[int, tuple[str, ...]]], int, int]:
        """(the table's width, its heading and lines, the lines a name takes, the tables side by side):
        everyone's row, every name whole, with as many columns as leave it room. The table takes
        half the body, up to 62 % when its names and numbers need it and the
        podium's names stay whole beside it (``podium_whole(table width)``); a
        name goes on two lines when every row has the height for two, else the
        columns of ``TABLE_DROPS`` give way in turn (a name cut to "Maximilián…"
        names nobody): the median first, then the fastest reaction; the right
        answers stay beside the points as long as anything does (how the evening went, after the points).
        More players than rows stand in its height (sixteen) are in two tables
        side by side (its rows were cut off at the bottom: six of sixteen players missing).

        With more than ``PODIUM_GIVES_WAY_PAST`` players (a classroom: the podium holds three of them, the
        table everyone) the podium gives way before any figure does: the table takes the whole body (width
        ``area.width``; the places are in it). Sixteen players beside the podium kept only their points,
        their names cut ("1. Wendelí…"). Not every figure fits even so, measured at 1280×720 with
        sixteen stations (every size of 16:9 the same, the type being a share of the height): the body is
        1260×387 px, sixteen rows of the smallest type (30 px lines, 34 px rows) need 658 px, so two tables of
        eight, 625 px each at most. A row's "16. Bartłomiej Szczę" (sixteen characters) takes about 290 px,
        its stripe and gaps 68, the points 54-67, the right answers 89-117 (the heading: "dobrze"), the fastest
        and the median reaction 120-150 each ("1,412 ms", "mediana"): all four about 840 px, points and
        right answers about 550. So sixteen players' sixteen-character names keep points and right answers,
        default names ("Player 16") the fastest reaction too; smaller type is not the way out (1/24 of the
        height is the box's least, docs/display.md). A name of sixteen "W"s (448 px) leaves no room for a
        figure beside it in two tables: it is cut."""
        half, most = area.width * 52 // 100, area.width * 62 // 100

        def tables(name_lines: int) -> int:  # how many side by side hold every row
            per = max(1, (area.height - lay.size(1.15) + lay.pad // 2) // (self._name_row_height(lay, name_lines) + lay.pad // 2))
            return -(-len(lines) // per)

        kept = list(range(len(heads)))
        shown: list[tuple[tuple[str, ...], list[tuple[int, tuple[str, ...]]]]] = []  # the columns, the most first
        for drop in (None, *TABLE_DROPS):
            if drop is not None:
                kept.remove(drop)
            shown.append((tuple(heads[k] for k in kept), [(station, tuple(texts[k] for k in kept)) for station, texts in lines]))

        def first(choices: list[tuple[tuple[str, ...], list[tuple[int, tuple[str, ...]]]]], alone: bool) \
                -> tuple[int, tuple[str, ...], list[tuple[int, tuple[str, ...]]], int, int] | None:
            """The first of ``choices`` whose every name stands whole beside the podium (or, ``alone``, in the whole body)."""
            for columns in choices:
                for name_lines in (1, 2) if tables(2) == 1 else (1,):
                    halves = tables(name_lines)
                    need = halves * self._table_width(lay, *columns, name_lines) + (halves - 1) * 2 * lay.pad
                    if alone and need <= area.width:
                        return area.width, *columns, name_lines, halves
                    if not alone and (need <= half or need <= most and podium_whole(need)):
                        return max(half, need), *columns, name_lines, halves
            return None

        with_right, points = shown[:-1], shown[-1:]
        if len(lines) <= PODIUM_GIVES_WAY_PAST:  # the podium stays: the table beside it
            return (first(with_right, False) or first(points, False)
                    or (most if podium_whole(most) else half, *points[0], 1, tables(1)))  # a name longer than a profile allows is cut
        # more players than a podium says much of (a classroom): the table's figures first, beside it while they fit
        return (first(shown[:1], False) or first(with_right, True) or first(points, True)
                or (area.width, *points[0], 1, tables(1)))  # a name longer than a row allows is cut

    @staticmethod
    def _name_row_height(lay: Layout, name_lines: int) -> int:
        """A table row's height for a name on ``name_lines`` lines."""
        return max(lay.size(1.15), name_lines * theme.line_height(lay.min_text) + (lay.pad // 2 if name_lines > 1 else 0))

    def _reaction_lines(self, view: View, strip: Strip, standings: list[dict[str, object]],
                        reactions: dict[int, dict[str, object]]) -> tuple[tuple[str, ...], list[tuple[int, tuple[str, ...]]]]:
        """The table's heading and one line a player, in the order of the
        standings: place and name ("4. Anna", ties sharing a place), points, right
        answers, fastest and median reaction from arming to press."""
        heads = ("", _("pts"), _("right"), _("fastest"), _("median"))
        scores = list(view.get("scores", ()))
        correct = list(view.get("correct", ()))
        order = [(int(row["place"]), int(s)) for row in standings for s in row["stations"]]  # type: ignore[attr-defined,call-overload]
        lines: list[tuple[int, tuple[str, ...]]] = []
        for place, station in order:
            rec = reactions.get(station, {})
            fastest, median = rec.get("fastest_us"), rec.get("median_us")
            lines.append((station, (f"{place}. {self.name(strip, station)}",
                                    format_number(int(scores[station])) if station < len(scores) else "",
                                    format_number(int(correct[station])) if station < len(correct) else "",
                                    fmt_ms(int(fastest)) if isinstance(fastest, int) else "–",
                                    fmt_ms(int(median)) if isinstance(median, int) else "–")))
        return heads, lines

    @staticmethod
    def _table_metrics(lay: Layout, heads: tuple[str, ...], lines: list[tuple[int, tuple[str, ...]]]) -> tuple[int, int, int, list[int]]:
        """(heading height, colour stripe, gap, each number column's width): each
        number column as wide as its widest text (heading included), in any
        language, with a clear space before it (a thousands space must not join two)."""
        row_h = lay.size(1.15)
        gap = lay.min_text * 2 // 3
        widths = [max(TEXT.width(texts[k], lay.min_text) for texts in [heads, *(t for _s, t in lines)]) + gap
                  for k in range(1, len(heads))]
        return row_h, max(8, row_h // 4), gap, widths

    def _table_width(self, lay: Layout, heads: tuple[str, ...], lines: list[tuple[int, tuple[str, ...]]],
                     name_lines: int) -> int:
        """How wide the table must be for every name (on ``name_lines`` lines) and number whole in the smallest type."""
        _row_h, stripe, gap, widths = self._table_metrics(lay, heads, lines)
        names = max((theme.fit_width(texts[0], lay.min_text, name_lines) for _s, texts in lines), default=0)
        return stripe + 3 * gap + names + sum(widths)

    def _reaction_table(self, surface: pygame.Surface, table: pygame.Rect, lay: Layout, view: View,
                        heads: tuple[str, ...], lines: list[tuple[int, tuple[str, ...]]], name_lines: int) -> None:
        """The lines of ``_reaction_lines`` under their heading, the name
        taking what the numbers leave, shrunk, then on ``name_lines`` lines
        (as a name on the podium) before it is cut."""
        head_h, stripe, gap, widths = self._table_metrics(lay, heads, lines)
        row_h = self._name_row_height(lay, name_lines)
        inner = pygame.Rect(table.left + stripe + gap, table.top, table.width - stripe - 2 * gap, table.height)
        numbers = inner.width * 80 // 100  # the names keep at least 20 %: a very long heading is cut instead
        if sum(widths) > numbers:  # narrower texts, the same clear space between them
            k = max(0, numbers - gap * len(widths)) / max(1, sum(widths) - gap * len(widths))
            widths = [gap + int((w - gap) * k) for w in widths]
        edges = [inner.right]
        for w in reversed(widths):
            edges.insert(0, edges[0] - w)
        edges.insert(0, inner.left)

        def cells(y: int, height: int, texts: tuple[str, ...], ink: Color) -> None:
            name, *numbers = texts
            theme.draw_fitted(surface, name, lay.min_text, ink, pygame.Rect(inner.left, y, edges[1] - inner.left - gap, height),
                              lay.min_text, name_lines, align="left")
            for k, text in enumerate(numbers, start=1):
                draw_text(surface, text, lay.min_text, ink, pygame.Rect(edges[k], y, edges[k + 1] - edges[k], height),
                          align="right", min_size=lay.min_text)

        cells(table.top, head_h, heads, theme.MUTED)
        y = table.top + head_h
        for station, texts in lines:
            r = pygame.Rect(table.left, y, table.width, row_h)
            panel(surface, r, theme.PANEL)
            pygame.draw.rect(surface, self.color(view, station), pygame.Rect(r.left, r.top, stripe, r.height))
            cells(y, row_h, texts, theme.FG)
            y += row_h + lay.pad // 2

    def _winner(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        station = int(view["winner"])
        fill = self.color(view, station)
        ink = theme.text_on(fill)
        panel(surface, area, fill)
        line = theme.line_height(lay.min_text)
        # under a long question the panel is low: its margin gives way, and the name and the line under it
        # keep a line each (a name over "answers" read as neither)
        inner = area.inflate(-4 * lay.pad, -min(4 * lay.pad, max(0, area.height - 2 * line)))
        name_r = pygame.Rect(inner.left, inner.top, inner.width, max(inner.height * 45 // 100, line))
        # big, smaller before it is cut (the longest names a profile allows), then on two lines
        theme.draw_fitted(surface, self.name(strip, station), tall(lay, 4, name_r), ink, name_r, lay.min_text)
        said = self._turn_caption(view, strip, station)
        said_r = pygame.Rect(inner.left, name_r.bottom, inner.width, max(inner.height * 15 // 100, line))
        draw_text(surface, said, tall(lay, 1.4, said_r), ink, said_r, min_size=lay.min_text)
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

    def _turn_caption(self, view: View, strip: Strip, station: int) -> str:
        """How the one answering got the turn: the margin it won by, or the host's draw (or pick)
        from a tie (a tie is won by no time: never "0.000 ms ahead")."""
        # the players tied with it are listed on the queue panel beside it: the caption names none of them
        # (with two or three long names it was cut on one line)
        tied = [s for s, place in zip(view.get("queue", ()), view.get("places", ()), strict=False) if place == 2]
        if tied and view.get("tie_pick") == "drawn":
            return _("answers · drawn by lot from a tie")
        if tied and view.get("tie_pick") == "chosen":
            return _("answers · the host's pick from a tie")
        lead = lead_us(view, station)
        return _("answers") if lead is None else _("answers · {margin} ahead of {name}").format(
            margin=format_ms3(lead[1]), name=self.name(strip, lead[0]))

    def _round_card(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, current: View) -> None:
        """A new round's card, before its first question: which round, its
        title, and the rules that change with it (preset, timer, points, categories)."""
        panel(surface, area, theme.PANEL)
        inner = area.inflate(-4 * lay.pad, -4 * lay.pad)
        top = pygame.Rect(inner.left, inner.top, inner.width, inner.height * 22 // 100)
        draw_text(surface, _("Round {n} of {m}").format(n=current.get("number"), m=current.get("of")),
                  tall(lay, 2, top), theme.MUTED, top, min_size=lay.min_text)
        title_r = pygame.Rect(inner.left, top.bottom, inner.width, inner.height * 30 // 100)
        title = str(current.get("title") or "") or _("Round {n}").format(n=current.get("number"))
        draw_text(surface, title, tall(lay, 4, title_r), theme.FG, title_r, min_size=lay.min_text)
        lines = round_rules(current)
        rest = pygame.Rect(inner.left, title_r.bottom, inner.width, inner.bottom - title_r.bottom)
        line_h = rest.height // max(1, len(lines))
        for k, line in enumerate(lines):
            r = pygame.Rect(rest.left, rest.top + k * line_h, rest.width, line_h)
            draw_text(surface, line, min(tall(lay, 1.4, r), lay.size(1.4)), theme.FG, r, min_size=lay.min_text)

    def _timer(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, left_us: int, ink: theme.Color, full_us: int) -> None:
        """Seconds left, big, over a bar that empties; red for the last seconds."""
        warn = left_us <= 3_000_000
        bar_h = max(6, area.height // 6)
        bar = pygame.Rect(area.left, area.bottom - bar_h, area.width, bar_h)
        panel(surface, bar, theme.blend(theme.BG, ink, 0.15))
        frac = min(1.0, left_us / full_us)
        panel(surface, pygame.Rect(bar.left, bar.top, max(1, round(bar.width * frac)), bar_h), theme.BAD if warn else ink)
        text = _("{n} s").format(n=-(-left_us // 1_000_000)) if left_us > 0 else _("time!")
        text_r = pygame.Rect(area.left, area.top, area.width, area.height - bar_h)
        draw_text(surface, text, tall(lay, 2.4, text_r), theme.BAD if warn and ink == theme.FG else ink, text_r)

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
        teams = view.get("team_count", 0) < len(view.get("teams", ()))
        # the teams' panel below keeps room for its heading and its teams, two a line
        line_h = theme.line_height(lay.min_text)
        bottom = side.bottom - ((1 + -(-len(view.get("teams_shown", ())) // 2)) * (line_h + lay.pad) if teams else 0)
        places = list(view.get("places") or range(2, len(queue) + 2))
        rows = []
        for pos, station in zip(places, queue, strict=False):
            margin = margins.get(str(station))
            # one of a tie the host drew from: tied, not a margin behind (the draw decided, not the time)
            tied = view.get("tie_pick") is not None and pos == 2
            rows.append((pos, station, _("tied") if tied else format_ms3(int(margin), sign=True) if margin is not None else ""))
        heights = [self._row_height(lay, strip, side.width, pos, station, right) for pos, station, right in rows]
        def room(hs: list[int]) -> int:
            return sum(hs) + lay.pad * max(0, len(hs) - 1)

        if room(heights) > bottom - y:  # everyone in line, one line each (a long name cut)
            heights = [theme.line_height(lay.min_text) + lay.pad // 2] * len(rows)
        shown = len(rows)
        while shown and room(heights[:shown]) > bottom - y:
            shown -= 1
        if shown < len(rows):  # still more than fit: the last line names the rest by their places
            shown = max(0, shown - 1)
        for (pos, station, right), h in zip(rows[:shown], heights, strict=False):
            self._row(surface, pygame.Rect(side.left, y, side.width, h), lay, view, strip, pos, station, right)
            y += h + lay.pad
        if shown < len(rows):  # on as many lines as are left
            rest = ", ".join(f"{pos}. {self.name(strip, station)}" for pos, station, _right in rows[shown:])
            lines = max(1, min(len(theme.wrap_lines(rest, lay.min_text, side.width)), (bottom - y) // line_h))
            theme.draw_wrapped(surface, rest, lay.min_text, theme.FG, pygame.Rect(side.left, y, side.width, lines * line_h),
                               max_lines=lines, align="left")
            y += lines * line_h + lay.pad
        return y + lay.pad

    def _team_scores(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        """Every team's score, best first: a row each, the members under their
        team when there is room; short of room, side by side in columns (the
        members are on the strip too), never a team left out."""
        scores = list(view.get("team_scores", ()))
        line_h = theme.line_height(lay.min_text)
        listed = [t for t in view.get("teams_shown", range(len(scores))) if 0 <= t < len(scores)]  # no empty team once play began
        if not listed or area.height < 2 * line_h:
            return
        head_h = min(lay.size(1.3), max(line_h, area.height - len(listed) * (lay.size(1.3) + lay.pad)))
        draw_text(surface, _("teams"), lay.min_text, theme.MUTED, pygame.Rect(area.left, area.top, area.width, head_h), align="left")
        y = area.top + head_h
        room = area.bottom - y
        cols = 1 if len(listed) * (line_h + lay.pad) <= room else 2  # (three or more: a name is cut to "T…")
        per_col = -(-len(listed) // cols)
        row_h = max(line_h, min(lay.size(1.3), room // per_col - lay.pad))
        width = (area.width - (cols - 1) * lay.pad) // cols
        members = {team: theme.wrap_lines(members_line(team, [self.name(strip, s) for s in team_members(list(view.get("teams", ())), team)]),
                                          lay.min_text, width - 2 * lay.pad) for team in listed}
        with_members = cols == 1 and sum(len(lines) * line_h + lay.pad for lines in members.values()) <= \
            room - len(listed) * (row_h + lay.pad)
        for k, team in enumerate(sorted(listed, key=lambda t: -scores[t])):
            if y + row_h > area.bottom:
                break
            fill = team_colour(team).rgb
            r = pygame.Rect(area.left + (k % cols) * (width + lay.pad), y, width, row_h)
            panel(surface, r, fill)
            ink = theme.text_on(fill)
            inner = r.inflate(-2 * lay.pad, 0)
            score = draw_text(surface, str(scores[team]), lay.size(1.1) if row_h >= lay.size(1.3) else lay.min_text, ink,
                              inner, align="right")
            draw_text(surface, team_label(view, team), lay.min_text, ink,  # the name in what the score leaves
                      pygame.Rect(inner.left, inner.top, score.left - lay.pad - inner.left, inner.height), align="left")
            if k % cols == cols - 1 or k == len(listed) - 1:
                y += row_h + lay.pad
            if not with_members:
                continue
            # the members under their team, in the team's colour, on as many lines as their names take
            for line in members[team]:
                draw_text(surface, line, lay.min_text, fill, pygame.Rect(inner.left, y, inner.width, line_h), align="left")
                y += line_h
            y += lay.pad

    def _tie(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        ties = list(view.get("ties", ()))
        tied = list(ties[0]) if ties else []
        panel(surface, area, theme.PANEL)
        top = pygame.Rect(area.left, area.top, area.width, area.height * 2 // 5)
        draw_text(surface, _("TIE"), tall(lay, 4, top), theme.FG, top)
        if tied:
            w = area.width // len(tied)
            for k, station in enumerate(tied):
                r = pygame.Rect(area.left + k * w + lay.pad, top.bottom, w - 2 * lay.pad, area.height * 3 // 10)
                panel(surface, r, self.color(view, station))
                draw_text(surface, self.name(strip, station), lay.size(1.4), theme.text_on(self.color(view, station)), r, min_size=lay.min_text)
        # the host is told how: the key that draws the answering player fairly (also on the host page)
        keys = " / ".join(key.upper() for key, action in self.host_keys.items() if action == "pick")
        said = (_("too close to call: host, press {key} to draw who answers").format(key=keys) if keys
                else _("too close to call: the host picks"))
        theme.draw_fitted(surface, said, lay.size(1.2), theme.FG if keys else theme.MUTED,
                          pygame.Rect(area.left + 2 * lay.pad, area.top + area.height * 7 // 10 + lay.pad, area.width - 4 * lay.pad,
                                      area.height * 3 // 10 - 2 * lay.pad), lay.min_text)

    def _round_over(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip) -> None:
        results = list(view.get("results", ()))
        last = results[-1] if results else {}
        winner = last.get("winner")
        why = str(last.get("result", ""))
        if winner is not None:
            fill = self.color(view, int(winner))
            panel(surface, area, fill)
            ink = theme.text_on(fill)
            name_r = pygame.Rect(area.left, area.top, area.width, area.height * 55 // 100)
            theme.draw_fitted(surface, self.name(strip, int(winner)), tall(lay, 3.5, name_r), ink, name_r, lay.min_text)
            why_r = pygame.Rect(area.left, area.top + area.height * 55 // 100, area.width, area.height * 30 // 100)
            draw_text(surface, _(RESULT_TEXT.get(why, why)), tall(lay, 2.2, why_r), ink, why_r)
        else:
            panel(surface, area, NOT_ARMED)
            draw_text(surface, _(RESULT_TEXT.get(why, why)) or _("round over"), tall(lay, 3, area), theme.FG, area)

    def _order(self, surface: pygame.Surface, side: pygame.Rect, lay: Layout, view: View, strip: Strip) -> int:
        """After the judgement: who pressed in which order, and how far behind
        the first, so the room can still read why it went that way."""
        row_h = lay.size(1.5)
        draw_text(surface, _("order of presses"), lay.min_text, theme.MUTED, pygame.Rect(side.left, side.top, side.width, row_h), align="left")
        y = side.top + row_h
        for place, (station, margin) in enumerate(press_order(view), start=1):
            right = format_ms3(margin, sign=True) if place > 1 else _("first")
            h = self._row_height(lay, strip, side.width, place, station, right)
            if y + h > side.bottom:
                break
            self._row(surface, pygame.Rect(side.left, y, side.width, h), lay, view, strip, place, station, right)
            y += h + lay.pad
        return y + lay.pad

    @staticmethod
    def _row_widths(lay: Layout, width: int, right: str) -> tuple[int, int]:
        """(margin, name) widths in a row ``width`` wide: the margin as wide as it is
        (a margin cut to "+124.…" says nothing) and no wider, the name the rest."""
        right_w = min(width * 3 // 5, TEXT.width(right, lay.min_text) + lay.pad) if right else 0
        return right_w, width - right_w

    def _row_height(self, lay: Layout, strip: Strip, width: int, place: int, station: int, right: str) -> int:
        """A row's height: two lines when its name does not fit one beside the margin."""
        inner_w = width - max(8, lay.size(1.5) // 4) - 2 * lay.pad
        name_w = self._row_widths(lay, inner_w, right)[1]
        one = TEXT.width(f"{place}. {self.name(strip, station)}", lay.min_text) <= name_w
        return lay.size(1.5) if one else max(lay.size(1.5), 2 * theme.line_height(lay.min_text) + lay.pad // 2)

    def _row(self, surface: pygame.Surface, r: pygame.Rect, lay: Layout, view: View, strip: Strip, place: int,
             station: int, right: str) -> None:
        """One line of the queue or the order: a chip in the player's colour, place and name, the margin."""
        panel(surface, r, theme.PANEL)
        chip = pygame.Rect(r.left, r.top, max(8, lay.size(1.5) // 4), r.height)
        pygame.draw.rect(surface, self.color(view, station), chip)
        inner = pygame.Rect(chip.right + lay.pad, r.top, r.right - lay.pad - chip.right - lay.pad, r.height)
        right_w, name_w = self._row_widths(lay, inner.width, right)
        draw_text(surface, f"{place}. {self.name(strip, station)}", lay.min_text, theme.FG,
                  pygame.Rect(inner.left, inner.top, name_w, inner.height), align="left", min_size=lay.min_text)
        draw_text(surface, right, lay.min_text, theme.FG,
                  pygame.Rect(inner.left + name_w, inner.top, right_w, inner.height),
                  align="right", min_size=lay.min_text)


#: the reaction table's columns (after the name) in the order they give way when its names need the room:
#: the median reaction, the fastest, the right answers (past eight players the podium gives way before them); the points stay
TABLE_DROPS = (4, 3, 2)
#: with more players than this on the leaderboard its podium gives way to every figure of the table (``_table_plan``)
PODIUM_GIVES_WAY_PAST = 8


def choice_letter(k: int) -> str:
    """A choice as the stations' buttons and the screen name it: A, B, C ..."""
    return chr(ord("A") + k)


def team_label(view: View, team: int) -> str:
    """A team's own name (``team_names``), else "Team N"."""
    return team_name(team, list(view.get("team_names") or ()))


#: a round's preset as the round card says it
ROUND_RULES = {
    "classic": N_("first press answers; a wrong answer passes it on"),
    "sit-out": N_("a wrong answer sits out the next question"),
    "penalty": N_("a wrong answer costs points"),
    "second-chance": N_("the next in line may still answer, for half"),
    "all-play": N_("everyone answers; a faster right answer scores more"),
    "bowl": N_("quiz bowl: tossups, a bonus to the team that gets one"),
}
#: a bowl round with no bonus parts (``bonus_parts: 0``): its card promises none
BOWL_WITHOUT_BONUS = N_("quiz bowl: tossups only, no bonus")


def round_rules(current: View) -> list[str]:
    """What a round's card says of its rules, one line each."""
    lines = []
    count = current.get("questions")
    if isinstance(count, int):
        lines.append(ngettext("{n} question", "{n} questions", count).format(n=count))
    rules = str(current.get("rules") or "classic")
    bonus = rules == "bowl" and bool(current.get("bonus_parts"))
    if rules == "bowl" and not bonus:
        lines.append(_(BOWL_WITHOUT_BONUS))
    elif rules in ROUND_RULES:
        lines.append(_(ROUND_RULES[rules]))
    if current.get("team_points") == "mean":
        lines.append(_("a team scores its members' mean"))
    elif current.get("team_points") == "sum":
        lines.append(_("a team scores its members' sum"))
    right, wrong = int(current.get("points_correct") or 0), int(current.get("points_wrong") or 0)
    points = _("right: +{right}").format(right=right) + (_(", wrong: −{wrong}").format(wrong=wrong) if wrong else "")
    lines.append(points)
    if bonus:
        lines.append(_("power: +{power}, neg: −{neg}, bonus: {parts} × {points}").format(
            power=current.get("power_points"), neg=current.get("neg_points"), parts=current.get("bonus_parts"),
            points=current.get("bonus_points")))
    elif rules == "bowl":
        lines.append(_("power: +{power}, neg: −{neg}").format(power=current.get("power_points"),
                                                             neg=current.get("neg_points")))
    timer = current.get("answer_time_us")
    if isinstance(timer, int) and timer > 0:
        lines.append(_("answer within {s} s").format(s=format_number(timer / 1_000_000, 0)))
    categories = list(current.get("categories") or ())
    if categories:
        lines.append(_("categories: {names}").format(names=", ".join(str(c) for c in categories)))
    return lines


def format_ms3(us: int, sign: bool = False) -> str:
    """A margin on the quiz screen: always three decimals of a millisecond
    (one precision for every time on the screen): "0.412 ms", "+63.628 ms"."""
    if sign:
        return format_margin(us)
    return _("{n} ms").format(n=format_number(us / 1000, 3))
