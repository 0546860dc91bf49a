"""Value objects for what comes off a station: raw edges and debounced presses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Edge:
    """A raw level change on one input, stamped where it was captured.

    ``level`` is the electrical level (buttons wire to ground with a pull-up,
    so 0 is pressed unless the input is declared active-high).
    """

    station: int
    input: str
    level: int
    t_us: int


@dataclass(frozen=True)
class Press:
    """A debounced press: the time of its first active edge.

    ``precision_us`` is what the stamp is worth on the box timeline (against a
    press of any other source). ``clock`` names the clock that stamped it when
    that is not the box's own (``board:<boot id>``: one board's timer, mapped
    onto the box timeline); ``clock_precision_us`` is then its precision
    against presses of that same clock, without the mapping error, so two
    presses on one board are told apart as finely as the board stamped them
    (``games.arbitration.pair_threshold_us``)."""

    station: int
    input: str
    t_us: int
    precision_us: int = 1
    edges: int = 1  # how many edges the bounce train had (diagnostics)
    clock: str = ""  # "": the box timeline itself (GPIO kernel stamps, keys, phones)
    clock_precision_us: int = 0  # 0: as precision_us
    #: the event's identity at its source (``<boot>#<seq>`` on the board): a press a
    #: board sends again to a restarted host is known as the same press
    source_event: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"station": self.station, "input": self.input, "t_us": self.t_us}
        if self.precision_us != 1:
            out["precision_us"] = self.precision_us
        if self.edges != 1:
            out["edges"] = self.edges
        if self.clock:
            out["clock"] = self.clock
        if self.clock_precision_us:
            out["clock_precision_us"] = self.clock_precision_us
        if self.source_event:
            out["source_event"] = self.source_event
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Press:
        return cls(
            station=int(data["station"]),
            input=str(data["input"]),
            t_us=int(data["t_us"]),
            precision_us=int(data.get("precision_us", 1)),
            edges=int(data.get("edges", 1)),
            clock=str(data.get("clock", "")),
            clock_precision_us=int(data.get("clock_precision_us", 0)),
            source_event=str(data.get("source_event", "")),
        )


@dataclass(frozen=True)
class InputNotice:
    """Something about an input that is not a press: stuck, released, noisy,
    a board that went away. Shown on the station strip and in diagnostics."""

    station: int
    input: str
    kind: str  # "stuck", "unstuck", "glitch", "disconnected", "connected", "stale" (a refused press)
    t_us: int
