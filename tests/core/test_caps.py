"""A live box runs for hours: every container that grows with the presses
keeps only its newest entries, up to its cap. 10,000 presses go through the
real objects (the box, the deciding thread's step, the deciding process's
publish into a screen's outbox) in virtual time, and each container is
checked for its length and for keeping the newest."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from controller import channel
from controller import protocol as p
from controller.box.deciding import LIVE_WINDOW
from controller.box.press import Press
from controller.box.process import DecidingGame
from controller.box.runtime import LIVE_LOG_LIMIT, SOURCE_EVENTS_KEPT, Box
from controller.screen.viewer import Watched
from games import registry
from games.base import GameEvent

PRESSES = 10_000
GAP_US = 50_000  # between presses: each is decided in a step of its own


class VirtualClock:
    """The box's time, moved by the test alone."""

    def __init__(self) -> None:
        self.now_us = 0

    def __call__(self) -> int:
        return self.now_us


@pytest.fixture
def screen() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A socketpair standing for a screen that reads nothing."""
    mine, theirs = socket.socketpair()
    yield mine, theirs
    mine.close()
    theirs.close()


def test_ten_thousand_presses_keep_every_container_at_its_cap(screen: tuple[socket.socket, socket.socket]) -> None:
    spec = registry.get("reaction")
    box = Box(spec, spec.settings(4, seed=7, result_hold_us=GAP_US))  # a new round soon after each
    box.bound_logs()  # as a live box does (decider_process.open_game)
    game = DecidingGame(box, None, None, until_us=None, results_s=0, screen_args=[])
    clock = VirtualClock()
    game.decider.now = clock  # the deciding thread's step, on virtual time
    decided: list[GameEvent] = []  # everything, unbounded: what the capped containers are checked against
    stepped_with_events: list[int] = []

    def after(events: list[GameEvent], t_us: int, stirred: bool) -> None:
        decided.extend(events)
        stepped_with_events.extend([t_us] if events else [])
        game.publish(events, t_us, stirred)
    game.decider.after = after
    viewer = game.attach(screen[0], "screen")
    outbox = viewer.outbox
    game.take(p.HostKey("arm", 0))  # the host starts the game
    with outbox._wake:  # the screen's writer cannot take anything: the outbox's queues fill
        for i in range(PRESSES):
            clock.now_us = (i + 1) * GAP_US
            box.press(Press(i % 4, "bell", clock.now_us - GAP_US // 2, source_event=f"boot1#{i}"))
            game.decider.decide(clock.now_us, None)
            outbox.put(p.Shown(i))
            if game.awaiting_show:  # the screen's side: the frame with the new round flipped
                game.take(p.Shown(clock.now_us))
        queued_events = list(outbox._events)
        queued_messages = list(outbox._messages)

    stamps = [(i + 1) * GAP_US - GAP_US // 2 for i in range(PRESSES)]
    assert box.presses_total == PRESSES
    assert [p.t_us for p in box.press_log] == stamps[-LIVE_LOG_LIMIT:]
    assert len(decided) > LIVE_LOG_LIMIT
    assert list(box.event_log) == decided[-LIVE_LOG_LIMIT:]

    keys = [f"boot1#{i}" for i in range(PRESSES)]
    assert list(box._source_order) == keys[-SOURCE_EVENTS_KEPT:]
    assert box._source_events == set(keys[-SOURCE_EVENTS_KEPT:])

    assert len(stepped_with_events) > LIVE_WINDOW
    assert [d[0] for d in game.decider.decisions] == stepped_with_events[-LIVE_WINDOW:]
    assert [d["lock_wait_us"] for d in game.decider.detail] == [0] * LIVE_WINDOW

    assert queued_events == decided[-channel.EVENTS_KEPT:]
    assert outbox.dropped_events == len(decided) - channel.EVENTS_KEPT
    assert [m.t_us for m in queued_messages if isinstance(m, p.Shown)] == list(range(PRESSES))[-channel.EVENTS_KEPT:]


def test_a_screens_windows_keep_the_newest_frames() -> None:
    """The split design's screen loop (``viewer.watch``) notes each frame and
    each decision it showed in these windows, for as long as the game runs."""
    watched = Watched(ended=None)
    for i in range(PRESSES):
        watched.frame_us.append(i)
        watched.shown.append([i, i + 1])
    assert list(watched.frame_us) == list(range(PRESSES))[-LIVE_WINDOW:]
    assert [s[0] for s in watched.shown] == list(range(PRESSES))[-LIVE_WINDOW:]
