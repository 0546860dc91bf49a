"""The results screen at the end of every game: the ranking, the winner big.

Drawn from the finished game's public view (``scores``, ``teams``, and the
reaction duel's ``leaderboard`` when there is one), so any game gets one.
"""

from __future__ import annotations

import pygame

from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text, fmt_ms, panel


def ranking(view: View) -> list[tuple[int, list[int], int]]:
    """(place, stations, score), best first; equal scores share a place.
    With teams, one row per team (its stations together)."""
    scores = list(view.get("scores", ()))
    teams = list(view.get("teams", ()))
    team_count = int(view.get("team_count", len(teams)))
    if teams and team_count < len(teams):
        groups: dict[int, list[int]] = {}
        for s, t in enumerate(teams):
            groups.setdefault(int(t), []).append(s)
        rows = [(members, int(scores[members[0]])) for _t, members in sorted(groups.items())]
    else:
        rows = [([s], int(score)) for s, score in enumerate(scores)]
    board = {int(r["player"]): k for k, r in enumerate(view.get("leaderboard", ()))}
    rows.sort(key=lambda r: (-r[1], board.get(r[0][0], 0)))
    out: list[tuple[int, list[int], int]] = []
    for k, (members, score) in enumerate(rows):
        place = out[-1][0] if out and out[-1][2] == score and not board else k + 1
        out.append((place, members, score))
    return out


class ResultsScene(Scene):
    title = "Results"

    def __init__(self, title: str | None = None, colors: list[theme.Color] | None = None, game_title: str = "") -> None:
        super().__init__(title, colors)
        self.game_title = game_title

    def header(self, view: View) -> tuple[str, str]:
        return "Results", self.game_title

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        rows = ranking(view)
        if not rows:
            draw_text(surface, "no scores", lay.size(3), theme.FG, area)
            return
        best = [r for r in rows if r[0] == 1]
        head = pygame.Rect(area.left, area.top, area.width, area.height * 42 // 100)
        winners = [s for r in best for s in r[1]]
        fill = self.color(view, winners[0])
        panel(surface, head, fill)
        ink = theme.text_on(fill)
        if len(best) > 1:
            names = " & ".join(self._label(view, strip, r[1]) for r in best)
            title = f"tie: {names}"
        else:
            title = self._label(view, strip, best[0][1])
        draw_text(surface, title, lay.size(3.2), ink, pygame.Rect(head.left, head.top, head.width, head.height * 6 // 10).inflate(-4 * lay.pad, 0), min_size=lay.size(1.5))
        unit = "wins" if view.get("leaderboard") else "points"
        draw_text(surface, f"{best[0][2]} {unit}", lay.size(1.6), ink,
                  pygame.Rect(head.left, head.top + head.height * 6 // 10, head.width, head.height * 3 // 10))
        board = {int(r["player"]): r for r in view.get("leaderboard", ())}
        row_h = lay.size(1.3)
        y = head.bottom + 2 * lay.pad
        cols = 2 if len(rows) > max(1, (area.bottom - y) // (row_h + lay.pad)) else 1
        col_w = (area.width - (cols - 1) * 2 * lay.pad) // cols
        per_col = max(1, -(-len(rows) // cols))
        for k, (place, members, score) in enumerate(rows):
            col, row = divmod(k, per_col)
            r = pygame.Rect(area.left + col * (col_w + 2 * lay.pad), y + row * (row_h + lay.pad), col_w, row_h)
            if r.bottom > area.bottom:
                continue
            panel(surface, r, theme.PANEL)
            pygame.draw.rect(surface, self.color(view, members[0]), pygame.Rect(r.left, r.top, max(8, row_h // 4), r.height))
            inner = r.inflate(-4 * lay.pad, 0)
            extra = ""
            rec = board.get(members[0])
            if rec and len(members) == 1:
                extra = f"best {fmt_ms(rec.get('best_us'))}"
            w = inner.width
            draw_text(surface, f"{place}. {self._label(view, strip, members)}", lay.min_text, theme.FG,
                      pygame.Rect(inner.left, r.top, w * 55 // 100, r.height), align="left", min_size=lay.min_text)
            draw_text(surface, extra, lay.min_text, theme.MUTED, pygame.Rect(inner.left + w * 55 // 100, r.top, w * 30 // 100, r.height), align="right", min_size=lay.min_text)
            draw_text(surface, str(score), lay.size(1.1), theme.FG, pygame.Rect(inner.left + w * 85 // 100, r.top, w * 15 // 100, r.height), align="right", min_size=lay.min_text)

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        """The game is over: the strip keeps only faults (stuck, offline)."""
        return [{**c, "status": c["status"] if c.get("status") in ("stuck", "disconnected") else "idle", "label": None}
                for c in strip]

    def _label(self, view: View, strip: Strip, members: list[int]) -> str:
        teams = list(view.get("teams", ()))
        if len(members) > 1 or (teams and int(view.get("team_count", len(teams))) < len(teams)):
            return f"Team {int(teams[members[0]]) + 1}"
        return self.name(strip, members[0])
