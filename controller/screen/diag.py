"""``buzzerbox diag``: every input of every station, live — what someone wiring
a new box needs. No game runs: inputs go through the same debouncer as in a
game and the screen shows what it saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from games.i18n import N_, _, format_number, ngettext, word
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text, panel


class DiagScene(Scene):
    title = N_("Diagnostics")
    #: seconds each page stays up when the inputs do not fit on one screen
    PAGE_S = 4

    def header(self, view: View) -> tuple[str, str]:
        return (_("Diagnostics — SIMULATED presses") if view.get("simulated") else _("Diagnostics"),
                diag_health(view.get("inputs", ())) + " · " + _("Esc: leave"))

    def draw(self, surface: pygame.Surface, view: View, strip: Strip, now_us: int) -> None:
        """The table, and which keys play which station (a laptop has no stations)."""
        self.message = view.get("keys") or None
        super().draw(surface, view, strip, now_us)

    def draw_body(self, surface: pygame.Surface, area: pygame.Rect, lay: Layout, view: View, strip: Strip, now_us: int) -> None:
        rows = list(view.get("inputs", ()))
        row_h = round(lay.min_text * 1.25)
        heads = [_(h) for h in HEADINGS]
        widths = [0.22, 0.12, 0.11, 0.10, 0.09, 0.11, 0.14, 0.11]
        per_page = max(1, area.height // (row_h + 2) - 1)
        pages = max(1, -(-len(rows) // per_page))
        page = (now_us // (self.PAGE_S * 1_000_000)) % pages if pages > 1 else 0
        shown = rows[page * per_page:(page + 1) * per_page]
        x0 = area.left + lay.pad
        w = area.width - 2 * lay.pad

        def cells(y: int, values: list[str], color: theme.Color) -> None:
            x = x0
            for k, (v, frac) in enumerate(zip(values, widths, strict=False)):
                cw = round(w * frac)
                draw_text(surface, v, lay.min_text, color, pygame.Rect(x, y, cw - lay.pad, row_h), align="left" if k < 3 else "right", min_size=lay.min_text)
                x += cw

        cells(area.top, heads if pages == 1 else [*heads[:-1], f"{heads[-1]} {page + 1}/{pages}"], theme.MUTED)
        y = area.top + row_h + 2
        for row in shown:
            r = pygame.Rect(area.left, y, area.width, row_h)
            fill = theme.PANEL
            if row["flag"] == "stuck":
                fill = theme.STATUS_COLORS["stuck"]
            elif row["flag"] == "noisy":
                fill = theme.blend(theme.PANEL, theme.STATUS_COLORS["stuck"], 0.45)
            elif row["state"] in ("pressed", "pending"):
                fill = theme.blend(theme.PANEL, theme.PRESSED, 0.55)
            panel(surface, r, fill, radius=max(3, row_h // 8))
            ink = theme.text_on(fill)
            ago = None if row["last_press_us"] is None else now_us - row["last_press_us"]
            last = _("never") if ago is None else _("{n} s ago").format(n=format_number(ago / 1_000_000, 1))
            noise = _(FLAG_WORDS[row["flag"]]) if row["flag"] in FLAG_WORDS else row["flag"].upper() if row["flag"] else (ngettext("{n} glitch", "{n} glitches", row["glitches"]).format(n=row["glitches"])
                                                            if row["glitches"] else _("ok"))
            state = _(STATE_WORDS[row["state"]]) if row["state"] in STATE_WORDS else str(row["state"])
            cells(y, [row["name"], word(str(row["input"])), state, format_number(row["presses"]), format_number(row["edges"]),
                      _("{n} ms").format(n=format_number(row["bounce_us"] / 1000, 1)), last, noise], ink)
            y += row_h + 2


#: the table's column headings, an input's debounce state and its fault, as the screen says them
HEADINGS = (N_("station"), N_("input"), N_("state"), N_("presses"), N_("edges"), N_("bounce"), N_("last press"), N_("noise"))
STATE_WORDS = {"idle": N_("idle"), "pending": N_("pending"), "pressed": N_("pressed"), "stuck": N_("stuck")}
FLAG_WORDS = {"stuck": N_("STUCK"), "noisy": N_("NOISY")}


def diag_health(rows: Sequence[Any]) -> str:
    """"12 inputs · all good", or how many need a look and how many glitched:
    the header never says all good while the table shows a glitch."""
    bad = sum(1 for r in rows if r["flag"])
    glitched = sum(1 for r in rows if r["glitches"] and not r["flag"])
    text = ngettext("{n} input", "{n} inputs", len(rows)).format(n=len(rows))
    if bad:
        return text + " · " + ngettext("{n} needs a look", "{n} need a look", bad).format(n=bad)
    if glitched:
        return text + " · " + ngettext("{n} had a glitch", "{n} had glitches", glitched).format(n=glitched)
    return text + " · " + _("all good")
