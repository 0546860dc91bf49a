"""Who was first, provably: ranking by source timestamps, ties, early lockouts.

Pure and clock-free: every call carries the box time. Engines use
``rank_by_time`` for any "first player to ..." rule and the quiz uses the full
``Arbiter`` (arming, early-buzz lockout, next-in-line queue, margins).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.i18n import _, format_number

T = TypeVar("T")


@dataclass(frozen=True)
class Stamp:
    """When something happened and what that moment is worth: the one stamp
    every press, action and engine record carries (so ranking, journals and
    scenarios read it one way).

    ``precision_us``: how finely the source could stamp ``t_us`` on the box
    timeline; arbitration never claims an order finer than the coarser of two.
    ``clock``: the clock that stamped it when not the box's own (``board:<boot
    id>``: one board's timer, mapped onto the box timeline), and
    ``clock_precision_us`` its precision against stamps of that same clock
    (0: as ``precision_us``; see ``pair_threshold_us``).
    """

    t_us: int
    precision_us: int = 1
    clock: str = ""
    clock_precision_us: int = 0

    @classmethod
    def given(cls, stamp: Stamp | None, t_us: int | None, precision_us: int | None, clock: str | None,
              clock_precision_us: int | None) -> Stamp:
        """The stamp a holder's constructor was given: ``stamp`` with any part
        given on its own put over it (so ``dataclasses.replace(press,
        t_us=...)`` still works), or those parts alone."""
        if stamp is None:
            if t_us is None:
                raise TypeError("a stamp needs t_us")
            stamp = cls(t_us)
        return cls(
            t_us=stamp.t_us if t_us is None else t_us,
            precision_us=stamp.precision_us if precision_us is None else precision_us,
            clock=stamp.clock if clock is None else clock,
            clock_precision_us=stamp.clock_precision_us if clock_precision_us is None else clock_precision_us,
        )

    @property
    def clock_key(self) -> tuple[str, int]:
        """What ``pair_threshold_us`` compares two stamps' clocks by."""
        return (self.clock, self.clock_precision_us)

    def to_json(self) -> dict[str, Any]:
        """The wire keys journals and scenarios have always used: ``t_us``
        always, the rest only when not their defaults."""
        out: dict[str, Any] = {"t_us": self.t_us}
        if self.precision_us != 1:
            out["precision_us"] = self.precision_us
        if self.clock:
            out["clock"] = self.clock
        if self.clock_precision_us:
            out["clock_precision_us"] = self.clock_precision_us
        return out

    @classmethod
    def from_json(cls, data: Any) -> Stamp:
        """The stamp of a journal line or scenario step (missing keys: defaults)."""
        return cls(
            t_us=int(data["t_us"]),
            precision_us=int(data.get("precision_us", 1)),
            clock=str(data.get("clock", "")),
            clock_precision_us=int(data.get("clock_precision_us", 0)),
        )


class Stamped:
    """Reads of a ``stamp`` field as if its parts were the holder's own
    (``press.t_us``): for every dataclass that holds one ``Stamp``."""

    stamp: Stamp

    @property
    def t_us(self) -> int:
        return self.stamp.t_us

    @property
    def precision_us(self) -> int:
        return self.stamp.precision_us

    @property
    def clock(self) -> str:
        return self.stamp.clock

    @property
    def clock_precision_us(self) -> int:
        return self.stamp.clock_precision_us


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


S = TypeVar("S", bound=Stamped)


def rank_by_stamp(items: Iterable[S], tie_window_us: int = 0,
                  min_precision_us: int = 1) -> list[list[S]]:
    """``rank_by_time`` of stamped items by their own stamps; ``min_precision_us``
    treats every stamp as at least that coarse (a game's own floor)."""
    return rank_by_time(
        items,
        t_us=lambda item: item.stamp.t_us,
        precision_us=lambda item: max(item.stamp.precision_us, min_precision_us),
        tie_window_us=tie_window_us,
        clock=lambda item: item.stamp.clock_key,
    )


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
class Buzz(Stamped):
    """One station's counted press after arming."""

    station: int
    stamp: Stamp


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
        self.buzzes.append(Buzz(station, Stamp(t_us, precision_us, clock, clock_precision_us)))
        return "counted"

    def first_time_us(self) -> int | None:
        return min((b.t_us for b in self.buzzes), default=None)

    def ranking(self, contenders_only: bool = False) -> list[list[Buzz]]:
        """Every counted press in groups (a group of two or more is a tie);
        ``contenders_only`` leaves out stations that are out of the question."""
        buzzes = [b for b in self.buzzes if b.station not in self.excluded] if contenders_only else self.buzzes
        return rank_by_stamp(buzzes, self.options.tie_window_us)

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
    """'+0.412 ms' — how the screen and the logs show a margin behind the first,
    in the reader's language ('+0,412 ms' in Czech and Polish)."""
    return "+" + _("{n} ms").format(n=format_number(us / 1000, 3))


def format_ms(us: int, digits: int = 0) -> str:
    """'534 ms', '1,534 ms' ('1 534 ms' in Czech and Polish): a reaction time
    (a median, the fastest) as the screen and the results show it, whole
    milliseconds unless asked (a person compares reactions, not microseconds)."""
    return _("{n} ms").format(n=format_number(us / 1000, digits))


def fmt_ms(us: int | None, digits: int = 0) -> str:
    """Reaction times and countdowns as the screen's scenes and the strip's
    cells say them: '231 ms' (``format_ms``), whole seconds from 10 s
    ('12 s'), '–' for none."""
    if us is None:
        return "–"
    if us >= 10_000_000:
        return _("{n} s").format(n=format_number(us / 1_000_000))
    return format_ms(us, digits)
