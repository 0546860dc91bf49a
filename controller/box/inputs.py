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

log = logging.getLogger("buzzerbox")

#: live, how far past the box's now an input's stamp may be before it is refused as from the future: inputs
#: are stamped on the box's clock before they are delivered, so only a wrong clock mapping puts them past now
#: (an input board's after a reboot whose hello was lost: 4.4 s, 901 s, 2^30 µs in the audit's fuzz runs); a
#: peer's input stamped a little ahead (a test's, 0.5 s, so a loaded machine cannot make it late) is played
FUTURE_SLACK_US = 1_000_000
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
        #: with a clock (the one the sources stamp with), how late each edge
        #: and press reached the inbox is noted as it arrives: the source's
        #: own delay, not how long the deciding thread took to get to it
        self.arrival_clock: Callable[[], int] | None = None
        self.arrival_lags: deque[int] = deque()
        self._key_down_us: dict[tuple[int, str], int] = {}

    def edge(self, edge: Edge, precision_us: int, measured: bool = True) -> None:
        """``measured``: False for an edge forwarded from another process (the
        keyboard the screen reads), whose lateness says nothing of the sources."""
        if measured and self.arrival_clock is not None:
            self.arrival_lags.append(self.arrival_clock() - edge.t_us)
        super().edge(self._held_tap(edge, precision_us), precision_us)
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
        if measured and self.arrival_clock is not None:
            self.arrival_lags.append(self.arrival_clock() - press.t_us)
        super().press(press)
        self.arrived.set()

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
        # live (the sources' clock known): nothing in the inbox can be stamped after now, give or take a board's
        # clock mapping; what is, is refused as from the future (a wrong clock must not win a contest later)
        now_game_us = None if self.arrival_clock is None else self.arrival_clock() + offset_us
        delivered = self.drain(self.debouncer, offset_us, arrived,
                               refuse_after_us=None if now_game_us is None else now_game_us + FUTURE_SLACK_US,
                               refused_at_us=now_game_us or 0)
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
