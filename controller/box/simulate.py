"""Games played by simulated players, in virtual time (``simulate``, tests,
headless demos) or live, as an input source of the deciding process
(``demo`` in real time, the menu's bots: ``controller/box/bots.py``).

The simulated players press through the same path as real stations: planned
press -> bouncing edge train -> debounce -> button map -> engine. Players of
hidden-hand games (``PhoneBot``) also see their own seat's private view and
send phone actions, delivered at their time as the seat's own, as a phone's are.
"""

from __future__ import annotations

import heapq
import itertools
import sys
from collections.abc import Callable, Sequence
from typing import Any

from controller.box.journal import JournalError, JournalWriter
from controller.box.press import Edge
from controller.box.runtime import Box
from controller.box.sources.simulated import SimulatedSwitches
from games.base import (
    HOST_ADJUST,
    HOST_RESUME,
    HOST_SHOWN,
    HOST_TEAM_NAME,
    Action,
    Bot,
    EventKind,
    GameEvent,
    GameSpec,
    HostBot,
    PhoneBot,
    PlannedAction,
)
from games.i18n import _

#: a game's bots play it to its end within this much game time (``game_check`` requires it; the tests play so)
BOTS_END_WITHIN_US = 3_600_000_000


class Session:
    """A box with simulated players (and host) attached."""

    def __init__(self, box: Box, bots: Sequence[Bot | PhoneBot], host: HostBot | None, seed: int) -> None:
        self.box = box
        self.bots = bots
        # asked once: isinstance against a runtime-checkable Protocol is slow,
        # and a bot does not change kind during a game
        self._seats: list[tuple[Bot | None, PhoneBot | None]] = [
            (None, bot) if isinstance(bot, PhoneBot) else (bot, None) for bot in bots
        ]
        self.host = host
        self.switches = SimulatedSwitches(seed)
        #: host actions and phone actions (player set) waiting for their time
        self._host_queue: list[tuple[int, int, Action]] = []
        self._seq = itertools.count()
        self.now_us = box.now_us
        self.shows: list[tuple[int, dict[str, Any]]] = []  # (t_show, what) for the screen
        self.on_show: Callable[[int], int] = lambda t_us: t_us  # display hook: returns the flip time
        #: where the simulated switches' edges go: straight into the box, or
        #: into a simulated input board (``demo --board-sim``)
        self.edge_sink: Callable[[Edge, int], None] = box.edge
        #: hand edges over this long before they are due (a board stamps them itself)
        self.lookahead_us = 0
        #: where a live game's bots' actions go when due (``deliver``: ``controller/box/bots.py``)
        self.act: Callable[[Action], None] = lambda action: None
        self._observe([])

    def _observe(self, events: list[GameEvent]) -> None:
        view = self.box.engine.public_view()
        for station, (bot, phone_bot) in enumerate(self._seats):
            if phone_bot is not None:
                private = self.box.engine.private_view(station)
                plans = list(phone_bot.observe_seat(view, private, events, self.now_us))
            else:
                assert bot is not None
                plans = list(bot.observe(view, events, self.now_us))
            for plan in plans:
                t_us = max(plan.t_us, self.now_us)
                if isinstance(plan, PlannedAction):
                    action = Action(plan.kind, t_us, station, dict(plan.args), plan.precision_us)
                    heapq.heappush(self._host_queue, (t_us, next(self._seq), action))
                else:
                    self.switches.plan(station, plan.input, t_us)
        if self.host is not None:
            for action in self.host.observe(view, events, self.now_us):
                t_us = max(action.t_us, self.now_us)
                heapq.heappush(self._host_queue, (t_us, next(self._seq), Action(action.kind, t_us, None, action.args)))

    # -- a live game's bots (controller/box/bots.py): the deciding process steps the box
    def observe(self, events: list[GameEvent], now_us: int) -> None:
        """The players see what a step decided at ``now_us`` and plan on it."""
        self.now_us = max(self.now_us, now_us)
        self._observe(events)

    def next_input_us(self) -> int | None:
        """When the players' next edge (``lookahead_us`` early) or action is due (None: none is planned)."""
        edge = self.switches.next_time_us()
        times = [t for t in (None if edge is None else edge - self.lookahead_us,
                             self._host_queue[0][0] if self._host_queue else None) if t is not None]
        return min(times) if times else None

    def deliver(self, now_us: int) -> None:
        """Every edge (``lookahead_us`` early) and action due by ``now_us`` handed over."""
        for edge in self.switches.due(now_us + self.lookahead_us):
            self.edge_sink(edge, self.switches.precision_us)
        while self._host_queue and self._host_queue[0][0] <= now_us:
            self.act(heapq.heappop(self._host_queue)[2])

    def next_time_us(self) -> int | None:
        candidates = [
            self.switches.next_time_us(),
            self._host_queue[0][0] if self._host_queue else None,
            self.box.engine.next_deadline_us(),
            self.box.debouncer.next_due_us(),
            self.box.next_held_us(),
        ]
        # a deadline at or before now is one the box holds back (a press still
        # being debounced): it falls due when that press settles, not sooner
        times = [t for t in candidates if t is not None and t > self.now_us]
        return min(times) if times else None

    def step(self, now_us: int) -> list[GameEvent]:
        """Everything due by ``now_us``: simulated edges, host actions, timeouts."""
        self.now_us = max(self.now_us, now_us)
        for edge in self.switches.due(self.now_us + self.lookahead_us):
            self.edge_sink(edge, self.switches.precision_us)
        events: list[GameEvent] = []
        while self._host_queue and self._host_queue[0][0] <= self.now_us:
            t, _, action = heapq.heappop(self._host_queue)
            events += self.box.apply_action(Action(action.kind, t, action.player, action.args, action.precision_us))
        events += self.box.step(self.now_us)
        for event in list(events):
            if event.kind == EventKind.SHOW:
                flip = self.on_show(self.now_us)
                self.shows.append((flip, dict(event.data)))
                events += self.box.shown(flip)
        self._observe(events)
        self.box.checkpoint_if_due()  # as the deciding thread does after the lamp
        return events

    def waits_for_a_host(self) -> str | None:
        """A line saying so when the game stands still because it has no host
        bot and waits for a host action (a round only a host starts), else None."""
        engine = self.box.engine
        if self.host is not None or engine.finished or self.next_time_us() is not None:
            return None
        waiting = [k for k in engine.legal_actions(None) if k not in (HOST_SHOWN, HOST_RESUME, HOST_ADJUST, HOST_TEAM_NAME)]
        if not waiting:
            return None
        return _("{title} has no host bot, so nothing sends {actions} and the game stands still: give its "
                 "GameSpec a new_host (docs/architecture.md)").format(title=_(self.box.spec.title), actions=", ".join(waiting))

    def say_if_waiting_for_a_host(self, command: str) -> None:
        """Print ``waits_for_a_host``'s line, if any, for ``command`` (simulate, demo)."""
        stalled = self.waits_for_a_host()
        if stalled:
            print(f"buzzerbox {command}: {stalled}", file=sys.stderr)

    def run_virtual(self, until_us: int | None = None, max_steps: int = 5_000_000) -> None:
        """Play as fast as the CPU allows until the game ends (or ``until_us``)."""
        for _step in range(max_steps):
            if self.box.engine.finished:
                return
            nxt = self.next_time_us()
            if nxt is None:
                return  # nothing will ever happen again
            if until_us is not None and nxt > until_us:
                self.step(until_us)
                return
            self.step(max(nxt, self.now_us))
        raise RuntimeError(f"simulation did not end within {max_steps} steps: is the game stuck?")


def simulate(
    spec: GameSpec,
    players: int,
    seed: int,
    journal_path: str | None = None,
    options: dict[str, Any] | None = None,
    until_us: int | None = 4 * 3600 * 1_000_000,
) -> Session:
    """One whole game with bots, in virtual time, optionally journaled."""
    settings = spec.settings(players, seed, **{**spec.demo_options, **(options or {})})
    box = Box(spec, settings)
    if journal_path:
        box.journal = JournalWriter.create(journal_path, box.header(mode="simulate"), fsync=False)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
    try:
        session.run_virtual(until_us)
    except BaseException:  # broken off: closed without an end (it did not end)
        if box.journal is not None:
            box.journal.close()
        raise
    box.end(session.now_us)
    if box.journal is not None and box.journal.unsaved:
        kept = box.journal.unsaved_path
        raise JournalError(f"{journal_path}: " + (
            _("the disk refused the last {n} records (kept in {file}); free some space and run the game again")
            if kept else _("the disk refused the last {n} records (they are in the log); free some space and run "
                           "the game again")).format(n=box.journal.unsaved, file=kept))
    return session
