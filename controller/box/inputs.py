"""The input layer every consumer of station inputs shares: the inbox the
sources deliver to (from any thread), the debouncer, and each station's state
(its last press, stuck inputs, whether it is connected). The box composes it
for a game; ``diag`` uses it with no game at all.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from controller.box.debounce import DebounceConfig, Debouncer
from controller.box.press import HOST_STATION, Edge, InputNotice, NoticeKind, Press, Watermark
from controller.box.sources.base import KEY_PRECISION_US, Inbox
from games.base import Action

log = logging.getLogger("buzzerbox")

#: live, how far past the box's now an input's stamp may be before it is refused as from the future (``Inbox.drain``),
#: by the clock its source stamps with. A source stamping on the box's own clock (GPIO edges and the feed, the
#: screen's keyboard, the phones and the host page through their server, the simulated players) stamps before it
#: delivers, so its stamp is never past now: the drain reads now once, and again before it refuses, so only two
#: reads of one clock a moment apart on two cores separate them. A few ms cover that; a key or a phone's move
#: stamped 50 ms ahead is a wrong clock (or a peer's bug), and played it would win its contest before anyone pressed
BOX_CLOCK_SLACK_US = 5_000
#: ... while an input board stamps on its own clock, mapped onto the box's with an error its session knows: the
#: session refuses a press past now by more than that error itself (``sources/board/session.py``); here only what a
#: mapping gone wrong puts far ahead is caught (4.4 s, 901 s, 2^30 µs in the audit's fuzz runs)
OWN_CLOCK_SLACK_US = 1_000_000
#: how long the strip shows "pressed" after a press
PRESS_FLASH_US = 400_000


@dataclass
class StationState:
    """What the always-visible station strip shows, beside the engine's status."""

    last_press_us: int | None = None
    stuck: set[str] = field(default_factory=set)
    connected: bool = True
    presses: int = 0

    def recently_pressed(self, now_us: int) -> bool:
        return self.last_press_us is not None and now_us - self.last_press_us < PRESS_FLASH_US


class InputLayer(Inbox):
    """Inbox + debouncer + station states. ``take`` hands over everything the
    sources delivered, debounced, in stamp order; ``note_press`` and
    ``note`` keep the station states."""

    def __init__(self, stations: int, debounce: DebounceConfig | None = None) -> None:
        super().__init__()
        self.debouncer = Debouncer(debounce)
        self.stations = [StationState() for _ in range(stations)]
        #: set on every delivery: the thread that decides wakes on it at once
        self.arrived = threading.Event()
        #: with a clock (the one the sources stamp with), when each edge and
        #: press reached the inbox is noted as it arrives, with its stamp, for the
        #: guard's measure (``Box._delivered``): the source's own delay, not how
        #: long the deciding thread took to get to it
        self.arrival_clock: Callable[[], int] | None = None
        self.guard_arrivals: deque[tuple[int, int]] = deque()
        #: a game's box notes here each of its sources' edges and presses as it arrives: (its stamp, when it
        #: arrived, on the sources' clock; None: not known, judged when taken), for ``Box.broken_promises``
        self.arrivals: deque[tuple[int, int | None]] | None = None
        self._key_down_us: dict[tuple[int, str], int] = {}

    def edge(self, edge: Edge, precision_us: int, measured: bool = True) -> None:
        """``measured``: False for an edge forwarded from another process (the
        keyboard the screen reads), whose lateness says nothing of the sources.
        Every edge is stamped on the box's clock (``BOX_CLOCK_SLACK_US``; a tap's
        release held on past it is as far ahead as it was moved)."""
        if measured:
            self._arrival(edge.t_us)
        held = self._held_tap(edge, precision_us)
        self.inbox.put(("edge", held, precision_us, BOX_CLOCK_SLACK_US + held.t_us - edge.t_us))
        self.arrived.set()

    def _held_tap(self, edge: Edge, precision_us: int) -> Edge:
        """A key cannot bounce, but its down and up may be read in one pass of
        the loop and carry one stamp (keyboard-emulating USB buzzers send such
        taps): a tap is held as a press of at least the glitch filter's length,
        not dropped as a glitch."""
        if precision_us < KEY_PRECISION_US:
            return edge
        key = (edge.station, edge.input)
        if edge.level == self.debouncer.config.active_level:
            self._key_down_us[key] = edge.t_us
        elif key in self._key_down_us:
            least = self._key_down_us.pop(key) + self.debouncer.config.glitch_us + 1
            if edge.t_us < least:
                return Edge(edge.station, edge.input, edge.level, least)
        return edge

    def press(self, press: Press, measured: bool = True) -> None:
        """``measured``: False for a press forwarded from another process (a key the screen
        read, the host page's), stamped on the box's clock; a source's own (an input board's)
        is stamped on its own clock, mapped (``OWN_CLOCK_SLACK_US``)."""
        if measured:
            self._arrival(press.t_us)
        self.inbox.put(("press", press, 0, OWN_CLOCK_SLACK_US if measured else BOX_CLOCK_SLACK_US))
        self.arrived.set()

    def deliver_action(self, action: Action) -> None:
        """A phone's move, the host page's or a simulated player's: stamped on the box's clock. It
        wakes the deciding thread, as an edge does (not the next timer, up to ``DECIDER_MAX_SLEEP_S``)."""
        self.inbox.put(("action", action, 0, BOX_CLOCK_SLACK_US))
        self.arrived.set()

    def _arrival(self, t_us: int) -> None:
        """One of the sources' own edges or presses (stamped ``t_us``) reaches the inbox now."""
        arrived = None if self.arrival_clock is None else self.arrival_clock()
        if arrived is not None:
            self.guard_arrivals.append((t_us, arrived))
        if self.arrivals is not None:
            self.arrivals.append((t_us, arrived))

    def notice(self, notice: InputNotice) -> None:
        super().notice(notice)
        self.arrived.set()

    def watermark(self, mark: Watermark) -> None:
        super().watermark(mark)
        self.arrived.set()

    def take(self, now_us: int, offset_us: int = 0, guard_us: int = 0,
             measure: Callable[[list[int]], int] | None = None) -> list[Press | InputNotice]:
        """Everything delivered so far (``offset_us`` added to every stamp) and
        every press that settled by ``now_us - guard_us`` (edges may reach us a
        little after they happened: judge "stable since" only up to a moment
        every source has surely reported by). ``measure`` gets the stamp of
        every edge and press taken, before anything is judged, and returns the
        guard to judge with (it may have risen: a storm delivered late is
        judged by its stamps, not by when it came)."""
        arrived: list[int] = []
        # live (the sources' clock known): nothing in the inbox can be stamped after now, give or take its source's
        # slack; what is, is refused as from the future (a wrong clock must not win a contest later)
        clock = self.arrival_clock
        delivered = self.drain(self.debouncer, offset_us, arrived,
                               now_us=None if clock is None else lambda: clock() + offset_us)
        outputs: list[Press | InputNotice] = []
        for item in delivered:  # a watermark comes after what it covers: judged with them, below
            if isinstance(item, Watermark):
                self.marked(item)
            else:
                outputs.append(item)
        if measure is not None:
            guard_us = measure(arrived)
        outputs += self.debouncer.poll(now_us - guard_us)
        outputs.sort(key=lambda o: o.t_us)
        return outputs

    def marked(self, mark: Watermark) -> None:
        """A source's watermark (game µs), taken in delivery order: only a game box decides by them."""

    def note_press(self, press: Press) -> None:
        if 0 <= press.station < len(self.stations):
            st = self.stations[press.station]
            st.last_press_us = press.t_us
            st.presses += 1

    def note(self, notice: InputNotice) -> None:
        """What the strip shows about one station's inputs."""
        if 0 <= notice.station < len(self.stations):
            st = self.stations[notice.station]
            if notice.kind == NoticeKind.STUCK:
                st.stuck.add(notice.input)
                log.warning("station %d input %r is stuck (held too long): ignored until released", notice.station, notice.input)
            elif notice.kind == NoticeKind.UNSTUCK:
                st.stuck.discard(notice.input)
                log.info("station %d input %r released", notice.station, notice.input)
            elif notice.kind == NoticeKind.DISCONNECTED:
                st.connected = False
            elif notice.kind == NoticeKind.CONNECTED:
                st.connected = True
        elif notice.station == HOST_STATION and notice.kind in (NoticeKind.DISCONNECTED, NoticeKind.CONNECTED):
            for st in self.stations:  # the whole board went away / came back
                st.connected = notice.kind == NoticeKind.CONNECTED
