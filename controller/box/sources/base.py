"""What every input source provides, and where it delivers."""

from __future__ import annotations

import queue
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from controller.box.debounce import DebounceConfig, Debouncer
from controller.box.press import FUTURE_PRESS, HOST_STATION, Edge, InputNotice, Press, Watermark
from games.base import Action, BuzzerBoxError
from games.i18n import _

#: a source stamping this coarsely reads keys, not contacts (``KeyboardSource``): its
#: inputs cannot bounce, and a tap's down and up may carry one stamp
KEY_PRECISION_US = 25_000


class SourceError(BuzzerBoxError):
    """The stations' inputs cannot be opened (wrong pins, no board, no permission)."""


class InputSink(Protocol):
    """Where sources deliver. Implementations must be thread-safe and fast:
    they are called from pin callback threads and serial reader threads."""

    def edge(self, edge: Edge, precision_us: int) -> None:
        """A raw level change, still to be debounced on the host."""
        ...

    def press(self, press: Press) -> None:
        """A press already debounced where it was captured (firmware board)."""
        ...

    def notice(self, notice: InputNotice) -> None:
        """Stuck, released, glitch, disconnected, reconnected ..."""
        ...

    def watermark(self, mark: Watermark) -> None:
        """Everything ``mark.source`` stamped up to ``mark.t_us`` has been
        delivered (called after those edges and presses, on the same thread)."""
        ...


class EdgeReader(Protocol):
    """The thread that takes a source's edges off the queue they wait in, when
    it can say at once how far it has delivered (``controller/box/feed.py``): the
    box asks it at every step instead of waiting a stated delay."""

    #: an edge is in the queue at most this long after its stamp was taken (a
    #: kernel stamps in the interrupt and queues from its interrupt thread)
    capture_us: int
    #: it calls this when it has just delivered all it read (the box, found it busy, asks again)
    wake: Callable[[], None] | None

    @property
    def lag_us(self) -> int:
        """At best it answers this far behind now: ``capture_us`` and the most
        the source takes off a stamp (a station's offset)."""
        ...

    def delivered_until_us(self, now_us: int) -> int | None:
        """Asked at ``now_us`` (the source's clock): every edge stamped up to
        the returned moment has been delivered; None while it cannot say
        (edges waiting in the queue, or read and not yet split into reports;
        while it hands reports over, it says up to before their least stamp)."""
        ...

    def take_waiting(self, now_us: int) -> int | None:
        """``delivered_until_us``, after handing over on the caller's thread what
        waits in the queue, when its own thread is not doing so (the box's step
        takes an edge queued before it without waiting for that thread's turn)."""
        ...

    def park(self, parked: bool) -> None:
        """Parked, its thread does not wait on the queue (the deciding thread reads it
        itself while it waits for an armed lamp: ``PipeReader.park``) until let go on."""
        ...


class Source(ABC):
    """An input source. ``precision_us`` is how finely it stamps edges."""

    name: str = "source"
    precision_us: int = 1
    #: it says how far it has delivered by sending ``Watermark``s (the input
    #: board's heartbeats): the box waits for those, not a stated delay
    sends_watermarks: bool = False

    def edge_reader(self) -> EdgeReader | None:
        """The reader the box may ask how far it has delivered (None: it cannot tell)."""
        return None

    @abstractmethod
    def start(self, sink: InputSink) -> None:
        """Begin delivering to ``sink`` (returns at once)."""

    @abstractmethod
    def stop(self) -> None:
        """Stop delivering and release the hardware."""

    def report_delay_us(self, debounce: DebounceConfig) -> int:
        """How long after a first edge its press may still be on its way to
        the box: the box decides nothing younger than this (latency guard).
        Host-debounced sources only lose thread hand-over time."""
        return 2_000

    def levels(self) -> dict[tuple[int, str], int]:
        """Each host-debounced input's level at rest, keyed (station, input);
        sources that debounce where they capture return nothing."""
        return {}

    def describe(self) -> str:
        """'gpio (stamps to 1 µs)': the source as the start line names it, in the reader's language."""
        return _("{source} (stamps to {us} µs)").format(source=self.name, us=self.precision_us)


#: the inbox's kinds whose stamps say when something happened (a stamp past now is refused: ``Inbox.drain``)
TIMED = frozenset(("edge", "press", "action"))


class Inbox:
    """An ``InputSink`` that only enqueues, so it is safe on any callback
    thread; the loop that owns the debouncer drains it. Each entry is (kind,
    item, an edge's precision, how far past the box's now its stamp may be
    before it is refused as from the future: ``drain``)."""

    def __init__(self) -> None:
        self.inbox: queue.SimpleQueue[tuple[str, Any, int, int]] = queue.SimpleQueue()
        #: entries taken off the queue to be looked at (``waiting``), still to be drained, in order
        self._looked: deque[tuple[str, Any, int, int]] = deque()
        #: the next ``drain`` takes only those: what came after the look is left for the drain after it
        #: (a lamp lit on that look: ``Box.fire_armed``)
        self.looked_only = False

    def waiting(self) -> list[tuple[str, Any, int, int]]:
        """Every entry delivered and not drained yet, in order, left for ``drain``
        (the draining thread looks ahead: ``Box.fire_armed``)."""
        while True:
            try:
                self._looked.append(self.inbox.get_nowait())
            except queue.Empty:
                return list(self._looked)

    def drained(self) -> bool:
        """Nothing is waiting to be drained."""
        return not self._looked and self.inbox.empty()

    def edge(self, edge: Edge, precision_us: int) -> None:
        self.inbox.put(("edge", edge, precision_us, 0))

    def press(self, press: Press) -> None:
        self.inbox.put(("press", press, 0, 0))

    def notice(self, notice: InputNotice) -> None:
        self.inbox.put(("notice", notice, 0, 0))

    def watermark(self, mark: Watermark) -> None:
        self.inbox.put(("watermark", mark, 0, 0))

    def deliver_action(self, action: Action) -> None:
        """A whole action from a source that is not a button (a phone's move),
        stamped on the same clock as the edges."""
        self.inbox.put(("action", action, 0, 0))

    def drain(self, debouncer: Debouncer, offset_us: int = 0, arrived: list[int] | None = None,
              now_us: Callable[[], int] | None = None) -> list[Press | InputNotice | Watermark]:
        """Everything delivered so far: edges through ``debouncer``, presses
        and notices as they came; ``offset_us`` is added to every stamp, and
        ``arrived`` gets every edge's and press's stamp. With ``now_us`` (the
        box's now, game µs), an edge, press or move stamped past it by more
        than its delivery's slack cannot have happened yet: its source's clock
        is wrong, and it comes out as a ``FUTURE_PRESS`` notice stamped at that
        now instead, never played (the clock is read again before refusing: an
        input stamped after the first read may have been queued since)."""
        out: list[Press | InputNotice | Watermark] = []  # and a phone's Action, when one came (only the Box takes them)
        now = None if now_us is None else now_us()
        looked_only, self.looked_only = self.looked_only, False
        while True:
            try:
                if self._looked:
                    kind, item, precision, slack_us = self._looked.popleft()
                elif looked_only:
                    return out
                else:
                    kind, item, precision, slack_us = self.inbox.get_nowait()
            except queue.Empty:
                return out
            if offset_us:
                item = replace(item, t_us=item.t_us + offset_us)
            if now_us is not None and now is not None and kind in TIMED and item.t_us > now + slack_us:
                now = now_us()  # read again: it may have been stamped and queued after the first read
                if item.t_us > now + slack_us:
                    out.append(future_notice(item, now))
                    continue
            if arrived is not None and kind not in ("notice", "watermark"):
                arrived.append(item.t_us)
            if kind == "edge":
                out += debouncer.edge(item.station, item.input, item.level, item.t_us, precision)
            else:
                out.append(item)


def future_notice(item: Edge | Press | Action, refused_at_us: int) -> InputNotice:
    """The ``FUTURE_PRESS`` notice an input stamped in the box's future is journaled as."""
    if isinstance(item, Action):
        return InputNotice(HOST_STATION if item.player is None else item.player, item.kind, FUTURE_PRESS, refused_at_us)
    return InputNotice(item.station, item.input, FUTURE_PRESS, refused_at_us)
