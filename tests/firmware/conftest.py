"""A simulated board on a pty and a driver reading it, for the fault tests."""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Iterator

import pytest

from controller.box.press import InputNotice, Press, Watermark
from controller.box.sources.board import BoardSource
from controller.box.sources.board_sim import BoardSim

CHANNELS = {0: (0, "bell"), 1: (1, "bell"), 2: (2, "bell"), 33: (0, "a"), 34: (1, "a")}
LIGHTS = {(0, "bell"): 0, (1, "bell"): 1}


def wait_until(cond: Callable[[], bool], what: str, limit_s: float = 20.0) -> None:
    """Poll ``cond`` until it holds (readiness, never a duration); the bound only catches a hang."""
    end = time.monotonic() + limit_s
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"never: {what}")
        time.sleep(0.001)


class Sink:
    """Collects what the driver delivers; tests wait for what they expect."""

    def __init__(self) -> None:
        self.items: list[Press | InputNotice] = []
        self.marks: list[Watermark] = []
        self.log: list[Press | InputNotice | Watermark] = []  # all of them in the order they came
        self.cv = threading.Condition()

    def edge(self, edge: object, precision_us: int) -> None:
        raise AssertionError("the board delivers debounced presses, never raw edges")

    def press(self, press: Press) -> None:
        with self.cv:
            self.items.append(press)
            self.log.append(press)
            self.cv.notify_all()

    def notice(self, notice: InputNotice) -> None:
        with self.cv:
            self.items.append(notice)
            self.log.append(notice)
            self.cv.notify_all()

    def watermark(self, mark: Watermark) -> None:
        with self.cv:
            self.marks.append(mark)
            self.log.append(mark)
            self.cv.notify_all()

    def wait_for(self, cond: Callable[[list], bool], what: str, timeout: float = 10.0) -> None:
        with self.cv:
            if not self.cv.wait_for(lambda: cond(self.items), timeout):
                raise AssertionError(f"sink never got {what}; it has {self.items}")

    def presses(self) -> list[Press]:
        with self.cv:
            return [i for i in self.items if isinstance(i, Press)]

    def kinds(self) -> list[str]:
        """The board-level notices, in order."""
        with self.cv:
            return [i.kind for i in self.items if isinstance(i, InputNotice) and i.station == -1]

    def wait_presses(self, n: int) -> list[Press]:
        self.wait_for(lambda items: sum(isinstance(i, Press) for i in items) >= n, f"{n} presses")
        return self.presses()

    def wait_kinds(self, kinds: list[str]) -> None:
        self.wait_for(lambda items: self.kinds() == kinds, f"notices {kinds}")


#: each simulator's newest driver (``start_driver``): what ``caught_up`` waits for
DRIVERS: weakref.WeakKeyDictionary[BoardSim, BoardSource] = weakref.WeakKeyDictionary()


def start_driver(sim: BoardSim, sink: Sink, channels: dict | None = None, **kw: object) -> BoardSource:
    """A driver on the simulator's pty and virtual clock, started on ``sink``."""
    kw.setdefault("clock_slack_us", 0)
    source = BoardSource(channels or CHANNELS, LIGHTS, port=lambda: sim.port, clock=sim.host_clock,
                         reconnect_delay_s=0.02, **kw)  # type: ignore[arg-type]
    source.start(sink)
    DRIVERS[sim] = source
    return source


def caught_up(sim: BoardSim, source: BoardSource | None = None) -> None:
    """Wait until the driver (``source``, else the simulator's newest running one) has read
    and handled every byte the board wrote and handed the port every command it queued, and
    the board has taken every command: readiness, however long a loaded machine takes (the
    bound ends a hang only). A test moves the board's time on only then, so no line waits
    unread while virtual time passes. Without a running driver, only the board's side."""
    driver = source if source is not None else DRIVERS.get(sim)
    if driver is not None and not driver.running:
        driver = None
    give_up = time.monotonic() + 60
    while (driver is not None and (sim.unread_by_host() or not driver.quiet())) or sim.unread_by_board():
        assert time.monotonic() < give_up, "the driver never caught up with the board"
        time.sleep(0.0005)
        sim.step()


class Rig:
    def __init__(self, **sim_args: object) -> None:
        self.sim = BoardSim(**sim_args)  # type: ignore[arg-type]
        self.sink = Sink()
        self.source = BoardSource(CHANNELS, LIGHTS, port=lambda: self.sim.port,
                                  clock=self.sim.host_clock, clock_slack_us=0,
                                  reconnect_delay_s=0.02)
        self.source.start(self.sink)
        self.sink.wait_kinds(["connected"])

    def settle(self, us: int = 300_000) -> None:
        """Let virtual time pass and the driver catch up with every line."""
        self.sim.advance(us)
        caught_up(self.sim, self.source)

    def close(self) -> None:
        self.source.stop()
        self.sim.close()


@pytest.fixture
def make_rig() -> Iterator[Callable[..., Rig]]:
    rigs: list[Rig] = []

    def make(**sim_args: object) -> Rig:
        rig = Rig(**sim_args)
        rigs.append(rig)
        return rig

    yield make
    for rig in rigs:
        rig.close()
