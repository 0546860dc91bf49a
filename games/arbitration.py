"""Who was first, provably: ranking by source timestamps, ties, early lockouts.

Pure and clock-free: every call carries the box time. Engines use
``rank_by_time`` for any "first player to ..." rule and the quiz uses the full
``Arbiter`` (arming, early-buzz lockout, next-in-line queue, margins).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

T = TypeVar("T")


def tie_threshold_us(precision_a: int, precision_b: int, tie_window_us: int = 0) -> int:
    """Two stamps closer than this cannot be told apart: the coarser precision
    of the two, or the configured tie window if that is wider."""
    return max(precision_a, precision_b, tie_window_us, 1)


#: (the clock that stamped an item, its precision against stamps of that same clock);
#: an empty clock id is the box's own timeline, compared by ``precision_us`` alone
ClockOf = Callable[[T], tuple[str, int]]


def pair_threshold_us(
    precision_a: int,
    precision_b: int,
    tie_window_us: int = 0,
    clock_a: tuple[str, int] = ("", 0),
    clock_b: tuple[str, int] = ("", 0),
) -> int:
    """The tie threshold of one pair. Stamped by the same clock (one board's
    timer): that clock's own precision, since no mapping between clocks lies
    between them; by different clocks: ``tie_threshold_us`` of the precisions,
    which carry the error of mapping each clock onto the box timeline."""
    if clock_a[0] and clock_a[0] == clock_b[0]:
        own_a = clock_a[1] or precision_a
        own_b = clock_b[1] or precision_b
        return tie_threshold_us(own_a, own_b, tie_window_us)
    return tie_threshold_us(precision_a, precision_b, tie_window_us)


def _no_clock(item: object) -> tuple[str, int]:
    return ("", 0)


def rank_by_time(
    items: Iterable[T],
    t_us: Callable[[T], int],
    precision_us: Callable[[T], int] = lambda item: 1,
    tie_window_us: int = 0,
    clock: ClockOf[T] = _no_clock,
) -> list[list[T]]:
    """Order items by their stamp into groups; a group of two or more is a tie.

    An item joins the current group when it is closer to *any* member than
    the tie threshold of that pair (``pair_threshold_us``: two stamps of one
    board's clock are compared at that clock's precision, stamps of two clocks
    at their precisions on the box timeline): then no two neighbours are ever
    put in an order finer than they were stamped. (A chain of near-ties
    becomes one tie: honest, since each link could have gone either way.)
    Sorting is stable: equal stamps keep their arrival order inside the group.
    """
    ordered = sorted(items, key=t_us)
    groups: list[list[T]] = []
    for item in ordered:
        if groups and any(
            t_us(item) - t_us(member) < pair_threshold_us(precision_us(member), precision_us(item),
                                                          tie_window_us, clock(member), clock(item))
            for member in groups[-1]
        ):
            groups[-1].append(item)
            continue
        groups.append([item])
    return groups


@dataclass(frozen=True)
class Buzz:
    """One station's counted press after arming."""

    station: int
    t_us: int
    precision_us: int = 1
    #: the clock that stamped it and its precision against that clock (``pair_threshold_us``)
    clock: str = ""
    clock_precision_us: int = 0


@dataclass
class ArbiterOptions:
    lockout_us: int = 250_000
    tie_window_us: int = 0
    #: presses later than this behind the first do not join the queue (None: no limit)
    queue_window_us: int | None = None


@dataclass
class Arbiter:
    """Arming, early-buzz lockouts and the first-press ranking of one question."""

    stations: int
    options: ArbiterOptions = field(default_factory=ArbiterOptions)
    armed_at_us: int | None = None
    locked_until_us: dict[int, int] = field(default_factory=dict)
    excluded: set[int] = field(default_factory=set)
    buzzes: list[Buzz] = field(default_factory=list)
    early: list[int] = field(default_factory=list)

    @property
    def armed(self) -> bool:
        return self.armed_at_us is not None

    def arm(self, t_us: int) -> None:
        self.armed_at_us = t_us
        self.buzzes.clear()

    def disarm(self) -> None:
        self.armed_at_us = None
        self.buzzes.clear()

    def close(self) -> None:
        """Stop counting (the round is over) but keep the ranking on show."""
        self.armed_at_us = None

    def new_question(self) -> None:
        """Forget who answered and who buzzed early; lockouts keep running."""
        self.disarm()
        self.excluded.clear()
        self.early.clear()

    def exclude(self, station: int) -> None:
        """Answered wrong: out for the rest of this question (its buzz stays on
        record: disputes and margins are measured from the very first press)."""
        self.excluded.add(station)

    def locked(self, station: int, now_us: int) -> bool:
        return self.locked_until_us.get(station, -1) > now_us

    def press(self, station: int, t_us: int, precision_us: int = 1, clock: str = "",
              clock_precision_us: int = 0) -> str:
        """Count one press. Returns what it was: ``early`` (before arming: locked
        out), ``locked`` (inside its lockout: the lockout restarts), ``out``
        (answered wrong already), ``again`` (already counted), ``late`` (past the
        queue window) or ``counted``."""
        if not 0 <= station < self.stations:
            raise ValueError(f"station {station} does not exist (0..{self.stations - 1})")
        if self.locked(station, t_us):
            self.locked_until_us[station] = t_us + self.options.lockout_us
            return "locked"
        if self.armed_at_us is None or t_us < self.armed_at_us:
            self.locked_until_us[station] = t_us + self.options.lockout_us
            if station not in self.early:
                self.early.append(station)
            return "early"
        if station in self.excluded:
            return "out"
        if any(b.station == station for b in self.buzzes):
            return "again"
        first = self.first_time_us()
        window = self.options.queue_window_us
        if first is not None and window is not None and t_us - first > window:
            return "late"
        self.buzzes.append(Buzz(station, t_us, precision_us, clock, clock_precision_us))
        return "counted"

    def first_time_us(self) -> int | None:
        return min((b.t_us for b in self.buzzes), default=None)

    def ranking(self, contenders_only: bool = False) -> list[list[Buzz]]:
        """Every counted press in groups (a group of two or more is a tie);
        ``contenders_only`` leaves out stations that are out of the question."""
        buzzes = [b for b in self.buzzes if b.station not in self.excluded] if contenders_only else self.buzzes
        return rank_by_time(
            buzzes,
            t_us=lambda b: b.t_us,
            precision_us=lambda b: b.precision_us,
            tie_window_us=self.options.tie_window_us,
            clock=lambda b: (b.clock, b.clock_precision_us),
        )

    def result(self, contenders_only: bool = False) -> ArbiterResult:
        """The ranking as the screen and scenarios report it; with
        ``contenders_only``, who is next in line among those still in."""
        groups = self.ranking(contenders_only)
        if not groups:
            return ArbiterResult(None, [], [], [], list(self.early))
        first = groups[0]
        t_first = first[0].t_us
        winner = first[0].station if len(first) == 1 else None
        rest: Sequence[Buzz] = [b for group in groups[1:] for b in group]
        return ArbiterResult(
            winner=winner,
            queue=[b.station for b in rest],
            margins_us=[b.t_us - t_first for b in rest],
            ties=[sorted(b.station for b in group) for group in groups if len(group) > 1],
            early=list(self.early),
        )


@dataclass(frozen=True)
class ArbiterResult:
    winner: int | None
    queue: list[int]
    margins_us: list[int]
    ties: list[list[int]]
    early: list[int]


def format_margin(us: int) -> str:
    """'+0.412 ms' — how the screen and the logs show a margin behind the first."""
    return f"+{us / 1000:.3f} ms"
