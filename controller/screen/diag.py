"""``buzzerbox diag``: every input of every station, live — what someone wiring
a new box needs. No game runs: inputs go through the same debouncer as in a
game and the screen shows what it saw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pygame

from controller.box.debounce import DebounceConfig, Debouncer, Phase
from controller.box.inputs import HOST_STATION, InputLayer
from controller.box.press import InputNotice, Press, Watermark
from games.i18n import N_, _, format_number, ngettext, word
from games.toolkit import theme
from games.toolkit.scene import Scene, Strip, View
from games.toolkit.theme import Layout, draw_text, panel

#: an input is flagged noisy when it made this many glitches (pulses too short to be a finger)
NOISY_GLITCHES = 3
#: ... or bounced longer than this on a press (a worn or badly soldered switch)
NOISY_BOUNCE_US = 5_000


class InputMonitor(InputLayer):
    """The box's input layer with no game: debounces like a box, shows what it saw."""

    def __init__(self, stations: Sequence[tuple[str, Sequence[str]]], debounce: DebounceConfig | None = None,
                 host_inputs: Sequence[str] = (), simulated: bool = False) -> None:
        super().__init__(len(stations), debounce)
        self.wiring = [(name, list(inputs)) for name, inputs in stations]
        self.host_inputs = list(host_inputs)
        self.now_us = 0
        #: made-up presses (``diag --simulate``): said on screen and in the output
        self.simulated = simulated
        #: which keys play which station, shown under the table (keyboard stations)
        self.keys_hint: str | None = None
        for s, (_name, inputs) in enumerate(self.wiring):
            for inp in inputs:
                self.debouncer.state(s, inp)
        for inp in self.host_inputs:
            self.debouncer.state(HOST_STATION, inp)

    def step(self, now_us: int) -> list[Press | InputNotice]:
        self.now_us = max(self.now_us, now_us)
        out = [o for o in self.take(now_us) if not isinstance(o, Watermark)]
        for o in out:
            if isinstance(o, Press):
                self.note_press(o)
            else:
                self.note(o)
        return out

    def strip(self) -> list[dict[str, Any]]:
        out = []
        for s, (name, inputs) in enumerate(self.wiring):
            stuck = sorted(i for i in inputs if self.debouncer.state(s, i).phase is Phase.STUCK)
            down = any(self.debouncer.is_down(s, i) for i in inputs)
            status = "disconnected" if not self.stations[s].connected else "stuck" if stuck else "idle"
            out.append({
                "name": name,
                "status": status,
                "pressed": down or self.stations[s].recently_pressed(self.now_us),
                "stuck": stuck,
                "presses": sum(self.debouncer.state(s, i).stats.presses for i in inputs),
                "lockout_us": None,
            })
        return out

    def view(self) -> dict[str, Any]:
        """What the diagnostics screen shows: one row per input."""
        view = diag_view(self.debouncer, [n for n, _inputs in self.wiring], self.now_us)
        view["simulated"] = self.simulated
        view["keys"] = self.keys_hint
        return view


def diag_view(debouncer: Debouncer, station_names: Sequence[str], now_us: int) -> dict[str, Any]:
    """Rows for every input the debouncer knows, from its per-input stats."""
    rows = []
    for (station, inp), st in sorted(debouncer.inputs.items(), key=lambda kv: (kv[0][0] < 0, kv[0])):
        s = st.stats
        if st.phase is Phase.STUCK:
            flag = "stuck"
        elif s.glitches >= NOISY_GLITCHES or s.last_bounce_us > NOISY_BOUNCE_US:
            flag = "noisy"
        else:
            flag = ""
        name = _("host") if station == HOST_STATION else (station_names[station] if 0 <= station < len(station_names)
                                                          else _("station {n}").format(n=station + 1))
        rows.append({
            "station": station,
            "name": name,
            "input": inp,
            "state": st.phase.value,
            "presses": s.presses,
            "glitches": s.glitches,
            "edges": s.last_edges,
            "max_edges": s.max_edges,
            "bounce_us": s.last_bounce_us,
            "last_press_us": s.last_press_us,
            "ago_us": None if s.last_press_us is None else now_us - s.last_press_us,
            "stuck_count": s.stuck_count,
            "flag": flag,
        })
    return {"phase": "diag", "inputs": rows, "now_us": now_us}


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
            ago = row["ago_us"]
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
