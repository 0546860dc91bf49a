"""How long the deciding process holds ``box.lock`` per publish with the
phones' pages on (``--web``), 16 seats: the old way (the pages built and
JSON-encoded under the lock, as before) against the new way (only the views
gathered under it, the JSON written by the phones' server's outbox thread).

Both ways run on the same kind of box, interleaved in one run (old, new,
old, new ...), each with a real ``DecidingGame`` and a companion viewer on a
socketpair whose far end is drained, so the outbox's thread encodes and
pickles beside the timed thread as in a game. A decision that arrives
while a publish holds the lock waits at most this long: that wait is what
the figures are.

    PYTHONPATH=. python benchmarks/publish_lock.py --repeats 7 --publishes 400

It times the lock, not a frame, a page or a phone (benchmarks/companion.py).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
import statistics
import threading
import time
from types import TracebackType
from typing import Any

from controller import channel
from controller import protocol as p
from controller.box.process import VIEW_EVERY_US, DecidingGame
from controller.box.runtime import Box
from controller.box.views import Publisher, snapshot_message
from games import registry
from games.base import GameEvent

SEATS = 16


class TimedLock:
    """``box.lock`` with a stopwatch: the time from taking it (outermost) to
    giving it back, once per hold. Only ``with`` is used on a box's lock."""

    def __init__(self, lock: Any) -> None:
        self._lock = lock
        self._depth = 0
        self._taken = 0
        self.held_ns: list[int] = []

    def __enter__(self) -> TimedLock:
        self._lock.acquire()
        self._depth += 1
        if self._depth == 1:
            self._taken = time.perf_counter_ns()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.held_ns.append(time.perf_counter_ns() - self._taken)
        self._lock.release()


class OldDecidingGame(DecidingGame):
    """The publish before the pages were encoded outside the lock (main at
    a6c34dc, kept here as it was): the views asked for again for the
    screen's view and for the pages, and the pages' JSON written under the
    lock. (The host's buttons asking the engine once is in both ways.)"""

    def publish(self, events: list[GameEvent], t_us: int) -> None:
        with self.box.lock:
            public, strip = self.box.engine.public_view(), self.box.strip()
            if not events and (public, strip) == self._last_view and t_us - self._last_view_us < 1_000_000:
                return
            if not events and t_us - self._last_view_us < VIEW_EVERY_US:
                return
            self._last_view, self._last_view_us = (public, strip), t_us
            self.version += 1
            view = self.view(t_us)
            pages = self.old_pages(events) if events else None
        for viewer in self.live_viewers():
            viewer.outbox.publish(dataclasses.replace(view, companion=pages) if pages and viewer.companion else view, events)

    def old_pages(self, events: list[GameEvent]) -> dict[str, Any]:
        assert self.companion is not None
        return snapshot_message(self.companion.publish(events))


def drain(sock: socket.socket) -> None:
    """The screen's end of the socketpair: read everything until it closes."""
    while channel.receive(sock) is not None:
        pass


def held_ms(game_type: type[DecidingGame], game: str, publishes: int) -> list[float]:
    """Each hold of the lock over ``publishes`` publishes with events, in ms."""
    spec = registry.get(game)
    box = Box(spec, spec.settings(SEATS, seed=1))
    deciding = game_type(box, None, None, until_us=None, results_s=0, screen_args=[], companion=Publisher(box))
    mine, theirs = socket.socketpair()
    reader = threading.Thread(target=drain, args=(theirs,), daemon=True)
    reader.start()
    viewer = deciding.attach(mine, "bench", role=p.PHONES)
    timed = TimedLock(box.lock)
    box.lock = timed  # type: ignore[assignment]
    for i in range(publishes):
        t_us = 1_000_000 + i * 10_000
        deciding.publish([GameEvent("buzz", t_us, player=i % SEATS)], t_us)
    viewer.outbox.close()
    mine.close()
    reader.join(5)
    theirs.close()
    return [ns / 1e6 for ns in timed.held_ns]


def p99(xs: list[float]) -> float:
    return sorted(xs)[min(len(xs) - 1, int(len(xs) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--publishes", type=int, default=400, help="publishes per repeat and way")
    parser.add_argument("--games", default="quiz,reaction", help="games with 16 seats, comma-separated")
    args = parser.parse_args()
    ways: dict[str, type[DecidingGame]] = {"old": OldDecidingGame, "new": DecidingGame}
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game in args.games.split(","):
        medians: dict[str, list[float]] = {way: [] for way in ways}
        tails: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(args.repeats):  # interleaved: both ways see the same minute of load
            for way, game_type in ways.items():
                held = held_ms(game_type, game, args.publishes)
                medians[way].append(statistics.median(held))
                tails[way].append(p99(held))
        for way in ways:
            ms, ps = medians[way], tails[way]
            print(f"{game}, {SEATS} seats, {way}: box.lock held per publish median {statistics.median(ms):.3f} ms "
                  f"[{min(ms):.3f}-{max(ms):.3f}], p99 {statistics.median(ps):.3f} ms [{min(ps):.3f}-{max(ps):.3f}] "
                  f"(median and range over {args.repeats} repeats of {args.publishes} publishes)")
        print(f"{game}: new/old median {statistics.median(medians['new']) / statistics.median(medians['old']):.2f}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
