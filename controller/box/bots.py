"""Simulated players (and their host) as an input source of the deciding
process: ``demo`` on a screen and the menu's simulated players' games are
live games like any other (docs/processes.md), decided, lit and journaled
there, their presses stamped on the box's real clock as a station's are.

The players are ``controller.box.simulate.Session``'s bots: after each step
of the deciding thread they see what was decided (``BotsSource.observe``)
and plan their presses; a thread of their own hands each bouncing edge (and
each host's or phone bot's action) to the box when its moment comes. They
know every press they have planned, so they say at once how far they have
delivered (``delivered_until_us``, the probe the box asks at every step):
no decision passes a bot's press still on its way. With ``board_sim`` their
edges go through a simulated input board instead (``BoardSimLink``), the
game's input source then, with its own watermarks and lamps.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from controller.box.press import Edge
from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.box.sources.base import SourceError
from controller.box.timeline import box_now_us
from games.base import GameEvent

#: the bots' thread sleeps at most this long: a bound on a missed wake-up (a plan made meanwhile wakes it)
BOTS_MAX_SLEEP_S = 0.5
#: with the simulated board, edges are handed to it this long before they are due (it stamps them itself)
BOARD_LOOKAHEAD_US = 5_000_000


class BotsSource:
    """The simulated players of ``box``'s game, delivering to it on the box clock."""

    name = "bots"
    precision_us = 1
    capture_us = 0
    wake: Callable[[], None] | None = None

    def __init__(self, box: Box, *, board_sim: bool = False, clock: Callable[[], int] = box_now_us) -> None:
        spec, settings = box.spec, box.settings
        self.box = box
        self.clock = clock
        self._lock = threading.Lock()  # the plans: the deciding thread adds, this source's thread takes
        self._changed = threading.Event()
        self._stopping = threading.Event()
        with box.lock:
            self.session = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed)
        self.board: BoardSimLink | None = None
        if board_sim:
            self.board = BoardSimLink(box, settings.players, spec.inputs)
            self.session.edge_sink, self.session.lookahead_us = self.board.edge_sink, BOARD_LOOKAHEAD_US
        else:
            self.session.edge_sink = self._edge
        self.session.act = self._act
        self._thread = threading.Thread(target=self._run, name="buzzerbox-bots", daemon=True)

    # -- the box asks ----------------------------------------------------------------------
    @property
    def lag_us(self) -> int:
        return 0

    def delivered_until_us(self, now_us: int) -> int | None:
        """Every press and action stamped up to the returned moment (box clock) is
        delivered: ``now_us``, or just before the first one whose moment came and
        that this source's thread has not handed over yet."""
        now_us = min(now_us, self.clock())  # a press planned for later is not on its way yet
        if self._stopping.is_set():  # they press no more: everything they pressed is delivered
            return now_us
        with self._lock:
            nxt = self.session.next_input_us()
        if nxt is None:
            return now_us
        nxt -= self.box.time_offset_us
        return now_us if nxt > now_us else nxt - 1

    def follow(self) -> None:
        """The box decides by how far the bots delivered (and the board, with one), then they play."""
        box = self.box
        now_us = self.clock() + box.time_offset_us
        box.follow_source(self.name, watermarks=True, probe=self.delivered_until_us, now_us=now_us)
        if self.board is not None:
            source = self.board.source
            box.follow_source(source.name, watermarks=True, ask=getattr(source, "ask_watermark", None),
                              now_us=now_us)
        self._thread.start()

    def observe(self, events: list[GameEvent], t_us: int) -> None:
        """What the deciding thread decided at ``t_us`` (game µs): the players plan on it
        (from just after it: what the box was told it has is never planned before)."""
        with self.box.lock, self._lock:
            self.session.observe(events, t_us + 1)
        self._changed.set()

    def stop(self) -> None:
        self._stopping.set()
        self._changed.set()
        if self._thread.is_alive():
            self._thread.join()
        if self.board is not None:
            self.board.close()

    # -- the thread ------------------------------------------------------------------------
    def _run(self) -> None:
        session, offset = self.session, self.box.time_offset_us
        while not self._stopping.is_set():
            self._changed.clear()
            with self._lock:  # taken and handed over under the lock: the probe never answers in between
                session.deliver(self.clock() + offset)
                nxt = session.next_input_us()
            wait = BOTS_MAX_SLEEP_S if nxt is None else (nxt - offset - self.clock()) / 1e6
            self._changed.wait(min(BOTS_MAX_SLEEP_S, max(0.0, wait)))

    def _edge(self, edge: Edge, precision_us: int) -> None:
        """A bot's edge, stamped on the box clock as a station's is; its lateness is the
        thread's, never a source's (``measured=False``)."""
        self.box.edge(Edge(edge.station, edge.input, edge.level, edge.t_us - self.box.time_offset_us),
                      precision_us, measured=False)

    def _act(self, action: Any) -> None:
        """A host bot's or a phone bot's action, on the box's timeline like a phone's move."""
        from dataclasses import replace

        self.box.deliver_action(replace(action, t_us=action.t_us - self.box.time_offset_us))
        self.box.arrived.set()


class BoardSimLink:
    """A simulated input board between the simulated players and the box."""

    def __init__(self, box: Box, players: int, inputs: tuple[str, ...], realtime: bool = True) -> None:
        """``realtime=False``: the board on its virtual clock (tests move it), the box on the same."""
        from controller.box.sources.board_sim import start_simulated_board
        from firmware.buzzer import pinmap

        free = sorted(pinmap.DIRECT) + list(range(32, 32 + 8 * pinmap.SR_CHIPS))  # see board-pinmap.toml
        wanted = [(station, name) for station in range(players) for name in inputs]
        if len(wanted) > len(free):
            raise SourceError(f"--board-sim: {len(wanted)} inputs, but the board reads {len(free)}")
        self.channels = dict(zip(wanted, free, strict=False))
        channel_map = {ch: key for key, ch in self.channels.items()}
        light_map = {(station, "bell"): station for station in range(players)}
        self.sim, self.source = start_simulated_board(channel_map, light_map, realtime=realtime)
        box.latency_guard_us = self.source.report_delay_us(box.debouncer.config)
        if not realtime:  # the board stamps on the simulator's clock: the game's timeline starts now, at 0
            box.time_offset_us = -self.source.clock()
        self.box = box
        self.source.start(box)

    def edge_sink(self, edge: Any, precision_us: int) -> None:
        """Schedule the edge on the board at its own (future) time."""
        channel = self.channels.get((edge.station, edge.input))
        if channel is not None:
            raw = edge.t_us - self.box.time_offset_us  # game time -> box clock -> the board's own time
            self.sim.edges(channel, [(0, edge.level)], at_us=raw - self.sim.host_offset_us)

    def close(self) -> None:
        self.source.stop()
        self.sim.close()
