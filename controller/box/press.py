"""Value objects for what comes off a station: raw edges and debounced presses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.arbitration import Stamp, Stamped
from games.base import KindEnum


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


@dataclass(frozen=True, init=False)
class Press(Stamped):
    """A debounced press: the time of its first active edge.

    Its ``stamp`` is what the press is worth on the box timeline (``Stamp``:
    a board's presses carry their board's clock, so two presses on one board
    are told apart as finely as the board stamped them); given as
    ``t_us``/``precision_us``/``clock``/``clock_precision_us`` or as one ``stamp``."""

    station: int
    input: str
    stamp: Stamp
    edges: int  # how many edges the bounce train had (diagnostics)
    #: the event's identity at its source (``<boot>#<seq>`` on the board): a press a
    #: board sends again to a restarted host is known as the same press
    source_event: str

    def __init__(self, station: int, input: str, t_us: int | None = None, precision_us: int | None = None,
                 edges: int = 1, clock: str | None = None, clock_precision_us: int | None = None,
                 source_event: str = "", *, stamp: Stamp | None = None) -> None:
        object.__setattr__(self, "station", station)
        object.__setattr__(self, "input", input)
        object.__setattr__(self, "stamp", Stamp.given(stamp, t_us, precision_us, clock, clock_precision_us))
        object.__setattr__(self, "edges", edges)
        object.__setattr__(self, "source_event", source_event)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"station": self.station, "input": self.input}
        out.update(self.stamp.to_json())
        if self.edges != 1:
            out["edges"] = self.edges
        if self.source_event:
            out["source_event"] = self.source_event
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Press:
        return cls(
            station=int(data["station"]),
            input=str(data["input"]),
            edges=int(data.get("edges", 1)),
            source_event=str(data.get("source_event", "")),
            stamp=Stamp.from_json(data),
        )


#: the station number of the host's own buttons (arm, next, reset ...)
HOST_STATION = -1

class NoticeKind(KindEnum):
    """What an ``InputNotice`` says of an input: each is its word (in journals
    and on the channel), so journals written with plain strings keep replaying."""

    #: held past the stuck time: ignored until released
    STUCK = "stuck"
    UNSTUCK = "unstuck"
    #: a contact shorter than the glitch filter: noise, never a press
    GLITCH = "glitch"
    #: the input board (station ``HOST_STATION``: the whole board) or a station went away / came back
    DISCONNECTED = "disconnected"
    CONNECTED = "connected"
    #: a press refused, never played: stamped before this session began (``Box.stale_presses``),
    STALE = "stale"
    #: stamped in the box's future (a wrong clock: ``Box.future_presses``),
    FUTURE = "future"
    #: or an input board's of a boot that rebooted before its clock was mapped as stated (``Box.untimed_presses``)
    UNTIMED = "untimed"
    #: the kernel dropped edge events of this input (its line events' queue overflowed: the GPIO reader fell
    #: behind): a press may be missing from the game (``Box.lost_edges``; ``journal check`` says so)
    LOST = "lost"


#: the notice a press is refused as when stamped in the box's future (any source; an input board's driver
#: too), and an input board's of a boot that rebooted before its clock was mapped as stated (``Box`` counts)
FUTURE_PRESS, UNTIMED_PRESS = NoticeKind.FUTURE, NoticeKind.UNTIMED


@dataclass(frozen=True)
class InputNotice:
    """Something about an input that is not a press: stuck, released, noisy,
    a board that went away. Shown on the station strip and in diagnostics."""

    station: int
    input: str
    kind: str  # a NoticeKind (read back from a journal or the channel as its word); the host's own: renamed, paused
    t_us: int


@dataclass(frozen=True)
class Watermark:
    """A source's word that it has delivered every edge and press it stamped at
    or before ``t_us`` (box clock, as its stamps): the box decides a contest
    once every source's watermark has passed it, instead of waiting a fixed
    delay that a stalled reader thread could outlast. ``source`` names the
    source (``Source.name`` or a channel's name): one watermark per source."""

    source: str
    t_us: int
