"""Leading-edge debounce: a press's time is its first active edge.

Pure and clock-free (time comes in with every call), so the same code runs on
live GPIO edges, in scenarios and in the benchmark. The rules:

* The first active edge opens a *pending* press at its own time ``t0``.
* The press is accepted once the line has been stable active for
  ``glitch_us``; it keeps ``t0`` however many bounces came between.
* If the line falls back to rest and stays there (through the bounce window,
  or for half of it), the first edge was an isolated pulse: noise, no press.
* If the bounce window runs out while the line still chatters, the pending
  press restarts at its latest burst; a line chattering past ``stuck_us`` is
  flagged stuck. So a loose contact never holds up every decision.
* After an accepted press every edge is dropped until the line has been idle
  for ``bounce_us`` again (release bounce never makes a second press).
* A line held active past ``stuck_us`` is flagged stuck and ignored until it
  is released; a line that is active when watching starts must be released
  before it can press (a wrong pull reads as stuck, not as a press).

Library debounce (gpiozero ``bounce_time``, lgpio/pigpio/gpiod filters) is not
used: it moves or drops the leading edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum

from controller.box.press import InputNotice, NoticeKind, Press
from games.base import BuzzerBoxError
from games.i18n import _


@dataclass(frozen=True)
class DebounceConfig:
    """Limits, set per wiring profile (``[debounce]`` table)."""

    bounce_us: int = 10_000
    glitch_us: int = 1_000
    stuck_us: int = 10_000_000
    active_level: int = 0  # switch to ground with a pull-up: 0 is pressed

    def __post_init__(self) -> None:
        if not 0 < self.glitch_us <= self.bounce_us:
            raise DebounceError(
                _("debounce: glitch_us ({glitch}) must be > 0 and <= bounce_us ({bounce})")
                .format(glitch=self.glitch_us, bounce=self.bounce_us)
            )
        if self.stuck_us <= self.bounce_us:
            raise DebounceError(
                _("debounce: stuck_us ({stuck}) must be longer than bounce_us ({bounce})")
                .format(stuck=self.stuck_us, bounce=self.bounce_us)
            )
        if self.active_level not in (0, 1):
            raise DebounceError(_("debounce: active_level must be 0 (pull-up, switch to ground) or 1"))


class DebounceError(BuzzerBoxError, ValueError):
    """Debounce settings that cannot work together (a wiring profile's [debounce])."""


class Phase(Enum):
    IDLE = "idle"
    PENDING = "pending"
    PRESSED = "pressed"
    STUCK = "stuck"


@dataclass
class InputStats:
    """What diagnostics show per input."""

    presses: int = 0
    glitches: int = 0
    stuck_count: int = 0
    last_press_us: int | None = None
    last_edges: int = 0  # edges in the last press's bounce train (press + release)
    last_bounce_us: int = 0  # first edge to last edge of the last press's onset bounce
    max_edges: int = 0


@dataclass
class InputState:
    station: int
    input: str
    precision_us: int = 1
    level: int | None = None  # None: not seen yet (assumed idle)
    last_change_us: int = 0
    phase: Phase = Phase.IDLE
    t0_us: int = 0
    t0_precision_us: int = 1
    edges: int = 0
    onset_last_edge_us: int = 0
    last_active_edge_us: int = 0
    chatter_since_us: int = 0  # first edge of a pending press that has not settled yet
    stats: InputStats = field(default_factory=InputStats)


Output = Press | InputNotice


class Debouncer:
    """Debounces every input of a box. Feed edges with ``edge`` and let time pass
    with ``poll``; both return the presses and notices that became due."""

    def __init__(self, config: DebounceConfig | None = None) -> None:
        self.config = config or DebounceConfig()
        self.inputs: dict[tuple[int, str], InputState] = {}
        #: back at rest this long after a first edge, without having settled
        #: pressed: that edge was an isolated pulse, even inside the bounce window
        self.quiet_us = max(self.config.glitch_us, self.config.bounce_us // 2)
        #: (``next_due_us``, ``earliest_pending_us``) as of the last change of any input's phase or times
        #: (None: changed since): the deciding thread asks both several times a step, between the changes
        self._answers: tuple[int | None, int | None] | None = None

    def state(self, station: int, input_name: str) -> InputState:
        key = (station, input_name)
        st = self.inputs.get(key)
        if st is None:
            st = self.inputs[key] = InputState(station, input_name)
        return st

    def start(self, station: int, input_name: str, level: int, t_us: int) -> list[Output]:
        """Register an input with its level at rest. Active at rest means it
        must be released first (and is reported stuck if it never is)."""
        st = self.state(station, input_name)
        st.level = level
        st.last_change_us = t_us
        self._answers = None
        if level == self.config.active_level:
            st.phase = Phase.PRESSED
            st.edges = 0
        return []

    def start_all(self, levels: dict[tuple[int, str], int], t_us: int) -> None:
        """``start`` for every input a source reported (``Source.levels()``)."""
        for (station, input_name), level in levels.items():
            self.start(station, input_name, level, t_us)

    def edge(self, station: int, input_name: str, level: int, t_us: int, precision_us: int = 1) -> list[Output]:
        st = self.state(station, input_name)
        self._answers = None
        out = self._advance(st, t_us)
        if st.level is None:
            st.level = 1 - self.config.active_level
        if level == st.level:
            return out  # no change (a repeated report): nothing to do
        active = level == self.config.active_level
        if st.phase is Phase.IDLE:
            if active:
                st.phase = Phase.PENDING
                st.t0_us = st.chatter_since_us = st.last_active_edge_us = t_us
                st.t0_precision_us = precision_us
                st.edges = 1
                st.onset_last_edge_us = t_us
        elif st.phase is Phase.PENDING:
            st.edges += 1
            st.onset_last_edge_us = t_us
            if active:
                st.last_active_edge_us = t_us
        else:  # PRESSED or STUCK: bounce or release, counted for diagnostics only
            st.edges += 1
        st.level = level
        st.last_change_us = t_us
        return out

    def busy_copy(self) -> Debouncer:
        """A debouncer of copies of the inputs that are not idle (the only ones ``poll``
        and ``earliest_pending_us`` look at): what they would say, this one unchanged."""
        copy = Debouncer(self.config)
        for key, st in self.inputs.items():
            if st.phase is not Phase.IDLE:
                copy.inputs[key] = replace(st, stats=replace(st.stats))
        return copy

    def poll(self, now_us: int) -> list[Output]:
        """Let time pass on every input: accept settled presses, drop noise,
        end lockouts, flag stuck inputs."""
        out: list[Output] = []
        for st in self.inputs.values():
            if st.phase is not Phase.IDLE:  # an idle input has no time to pass (most, at every step)
                out.extend(self._advance(st, now_us))
        return out

    def _advance(self, st: InputState, now_us: int) -> list[Output]:
        before = st.phase, st.t0_us
        out = self._advanced(st, now_us)
        if (st.phase, st.t0_us) != before:
            self._answers = None
        return out

    def _advanced(self, st: InputState, now_us: int) -> list[Output]:
        cfg = self.config
        out: list[Output] = []
        active = st.level == cfg.active_level
        stable_for = now_us - st.last_change_us
        if st.phase is Phase.PENDING:
            window_over = now_us - st.t0_us >= cfg.bounce_us
            if active and stable_for >= cfg.glitch_us:
                st.phase = Phase.PRESSED
                st.stats.presses += 1
                st.stats.last_press_us = st.t0_us
                st.stats.last_bounce_us = st.onset_last_edge_us - st.t0_us
                out.append(Press(st.station, st.input, st.t0_us, st.t0_precision_us, st.edges))
            elif not active and stable_for >= cfg.glitch_us and (window_over or stable_for >= self.quiet_us):
                # a pulse after which the line went back to rest and stayed there: noise
                st.phase = Phase.IDLE
                st.stats.glitches += 1
                out.append(InputNotice(st.station, st.input, NoticeKind.GLITCH, st.t0_us))
                return out
            elif window_over:
                # the line never settled within the bounce window: it chatters
                if now_us - st.chatter_since_us >= cfg.stuck_us:
                    st.phase = Phase.STUCK
                    st.stats.stuck_count += 1
                    out.append(InputNotice(st.station, st.input, NoticeKind.STUCK, now_us))
                    return out
                st.t0_us = st.last_active_edge_us  # a press, if one comes, begins with the latest burst
        if st.phase is Phase.PRESSED:
            if active and stable_for >= cfg.stuck_us:
                st.phase = Phase.STUCK
                st.stats.stuck_count += 1
                out.append(InputNotice(st.station, st.input, NoticeKind.STUCK, st.last_change_us + cfg.stuck_us))
            elif not active and stable_for >= cfg.bounce_us:
                self._finish_press(st)
        elif st.phase is Phase.STUCK and not active and stable_for >= cfg.bounce_us:
            self._finish_press(st)
            out.append(InputNotice(st.station, st.input, NoticeKind.UNSTUCK, st.last_change_us))
        return out

    def _finish_press(self, st: InputState) -> None:
        st.phase = Phase.IDLE
        st.stats.last_edges = st.edges
        st.stats.max_edges = max(st.stats.max_edges, st.edges)
        st.edges = 0

    def earliest_pending_us(self) -> int | None:
        """First edge of the earliest press still being debounced: nothing
        later than this may be decided yet, or a bouncier switch that was
        touched first would lose to a cleaner one touched after it."""
        return self._answered()[1]

    def next_due_us(self) -> int | None:
        """When ``poll`` next has something to decide (lets simulations jump)."""
        return self._answered()[0]

    def _answered(self) -> tuple[int | None, int | None]:
        if self._answers is None:
            self._answers = (self._next_due_us(),
                             min((st.t0_us for st in self.inputs.values() if st.phase is Phase.PENDING), default=None))
        return self._answers

    def _next_due_us(self) -> int | None:
        cfg = self.config
        due: list[int] = []
        for st in self.inputs.values():
            active = st.level == cfg.active_level
            if st.phase is Phase.PENDING:
                window_end = st.t0_us + cfg.bounce_us
                if active:
                    due.append(min(st.last_change_us + cfg.glitch_us, window_end))
                else:
                    noise_at = max(st.last_change_us + cfg.glitch_us, min(window_end, st.last_change_us + self.quiet_us))
                    due.append(min(noise_at, window_end))
            elif st.phase is Phase.PRESSED:
                due.append(st.last_change_us + (cfg.stuck_us if active else cfg.bounce_us))
            elif st.phase is Phase.STUCK and not active:
                due.append(st.last_change_us + cfg.bounce_us)
        return min(due, default=None)

    def is_down(self, station: int, input_name: str) -> bool:
        """Accepted and not yet released (lights the station strip at once)."""
        st = self.inputs.get((station, input_name))
        return st is not None and st.phase is Phase.PRESSED
