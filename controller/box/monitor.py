"""The stations' inputs with no game running: the debounced monitor the
menu, ``diag`` and the roll call read, and the roll call's bookkeeping. Here
on the deciding side (no pygame): the deciding process runs the roll call on
the inputs it owns; the screen only draws what it sends (``protocol.RollCallView``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.box.debounce import DebounceConfig, Debouncer, Phase
from controller.box.inputs import HOST_STATION, PRESS_FLASH_US, InputLayer
from controller.box.press import InputNotice, Press, Watermark
from games.i18n import _

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

    def next_change_us(self) -> int | None:
        """The earliest moment ``step`` or ``strip`` can say something new with nothing
        delivered meanwhile: the debouncer's next decision, or a press's flash ending on
        the strip (None: nothing until a delivery). A watch sleeps until then."""
        flashes = [st.last_press_us + PRESS_FLASH_US for st in self.stations
                   if st.last_press_us is not None and st.recently_pressed(self.now_us)]
        due = self.debouncer.next_due_us()
        return min(flashes + ([] if due is None else [due]), default=None)

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
    """Rows for every input the debouncer knows, from its per-input stats
    (how long ago a press was is the screen's: drawn at its own moment, a row
    does not change as it waits)."""
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
            "stuck_count": s.stuck_count,
            "flag": flag,
        })
    return {"phase": "diag", "inputs": rows, "now_us": now_us}



class RollCall:
    """Every station presses once; the strip ticks each one off. Sans-I/O:
    presses in, who is still missing out."""

    def __init__(self, expected: Sequence[tuple[int, str, str]]) -> None:
        self.names = {station: name for station, _input, name in expected}
        self.answered: set[int] = set()

    def press(self, station: int) -> None:
        if station in self.names:
            self.answered.add(station)

    def rename(self, station: int, name: str) -> None:
        """The host renamed a player meanwhile (the host page): the roll call names them so at once."""
        if station in self.names and name.strip():
            self.names[station] = name.strip()

    @property
    def missing(self) -> list[str]:
        return [name for station, name in sorted(self.names.items()) if station not in self.answered]

    @property
    def done(self) -> bool:
        return not self.missing

    def strip(self, strip: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        """The monitor's strip with every answered station ticked."""
        cells = [dict(c) for c in strip]
        for station, cell in enumerate(cells):
            cell["name"] = self.names.get(station, cell.get("name"))
            if station in self.answered:
                cell["label"], cell["status"] = _("HERE"), "won"  # the strip font has no tick mark
            elif station in self.names and cell.get("status") == "idle":
                cell["label"] = _("press!")
        return cells

    def view(self) -> dict[str, Any]:
        return {"phase": "roll call", "missing": self.missing, "answered": len(self.answered), "total": len(self.names),
                "names": sorted(self.names.items())}
