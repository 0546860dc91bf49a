"""The deciding thread's own timing and what it hands the viewers, in
virtual time: a timed wait aims at the due moment as counted when the wait
begins, and the deciding process builds the views only for steps that can
send one, publishing exactly what building them after every step did."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field
from typing import Any

import pytest

from controller import protocol as p
from controller.box.deciding import Decider
from controller.box.press import Press
from controller.box.process import VIEW_EVERY_US, DecidingGame
from controller.box.runtime import Box
from games import registry
from games.base import GameEvent


class VirtualClock:
    """The box's time, moved by the test alone."""

    def __init__(self) -> None:
        self.now_us = 0

    def __call__(self) -> int:
        return self.now_us


class CountedWaits:
    """``box.arrived`` that records each wait's timeout and stops the thread after ``waits``."""

    def __init__(self, decider: list[Decider], waits: int) -> None:
        self.decider = decider
        self.waits = waits
        self.timeouts: list[float] = []

    def wait(self, timeout: float) -> bool:
        self.timeouts.append(timeout)
        if len(self.timeouts) >= self.waits:
            self.decider[0]._stopping.set()
        return False

    def clear(self) -> None:
        pass

    def set(self) -> None:
        pass


class DueBox:
    """A box with a moment due at 4 ms and nothing to decide."""

    def __init__(self, arrived: CountedWaits) -> None:
        self.lock = threading.Lock()
        self.arrived = arrived
        self.latency_guard_us = 0

    def step(self, t_us: int) -> list[GameEvent]:
        return []

    def next_due_us(self) -> int:
        return 4_000

    def flush_log(self) -> None:
        pass

    def checkpoint_if_due(self) -> None:
        pass


def test_the_timed_wait_is_counted_from_when_it_begins() -> None:
    clock = VirtualClock()
    made: list[Decider] = []
    waits = CountedWaits(made, waits=2)

    def publish(events: list[GameEvent], t_us: int, stirred: bool = True) -> None:
        clock.now_us += 3_000  # the step's publish took 3 ms

    decider = Decider(DueBox(waits), clock, lambda: None, after=publish)  # type: ignore[arg-type]
    made.append(decider)
    decider.run()  # on this thread: it steps once at 0, then waits for the moment due at 4 ms
    assert decider.error is None
    assert waits.timeouts == [0.0, 0.001]  # 1 ms left when the wait begins, not the 4 ms left at the step


@dataclass
class Screen:
    """A viewer that keeps every view published to it."""

    name: str = "screen"
    companion: bool = False
    gone: threading.Event = field(default_factory=threading.Event)
    views: list[dict[str, Any]] = field(default_factory=list)

    @property
    def outbox(self) -> Screen:
        return self

    closed = False

    def publish(self, view: dict[str, Any], events: list[GameEvent]) -> None:
        self.views.append(view)


class EveryStepGame(DecidingGame):
    """The publish before this change: the views built after every step."""

    def publish(self, events: list[GameEvent], t_us: int, stirred: bool = True) -> None:
        with self.box.lock:
            public = self.box.engine.public_view()
            strip = self.box.strip(public)
            if not events and (public, strip) == self._last_view and t_us - self._last_view_us < 1_000_000:
                return
            if not events and t_us - self._last_view_us < VIEW_EVERY_US:
                return
            self._last_view, self._last_view_us = (public, strip), t_us
            self.version += 1
            view = self.view(t_us, public, strip)
        if any(e.kind == "show" for e in events):
            self.awaiting_show = True
        for viewer in self.live_viewers():
            viewer.outbox.publish(view, events)


def played(game_type: type[DecidingGame], seconds: int = 12, rate: int = 20,
           **options: Any) -> tuple[int, int, list[dict[str, Any]]]:
    """A quiz played as the live memory benchmark plays it (each second the
    host arms, ``rate`` presses, the host judges right), stepped as the
    deciding thread steps (a wake at each delivery, at each due moment, and
    every 5 ms); returns the steps, the views built and the views published."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4, seed=5, **options), latency_guard_us=2_000)
    game = game_type(box, None, None, until_us=None, results_s=0, screen_args=[])
    built = [0]
    public_view = box.engine.public_view

    def counted() -> dict[str, Any]:
        built[0] += 1
        return public_view()
    box.engine.public_view = counted  # type: ignore[method-assign]
    clock = VirtualClock()
    game.decider.now = clock
    screen = Screen()
    game.viewers.append(screen)  # type: ignore[arg-type]
    rng = random.Random(46)
    inputs: list[tuple[int, dict[str, Any] | Press]] = []
    for second in range(seconds):
        t0 = second * 1_000_000 + 100_000
        inputs.append((t0, p.HostKey("arm", t0)))
        for k in range(rate):
            t = t0 + 40_000 + k * (800_000 // rate) + rng.randrange(5_000)
            inputs.append((t + rng.randrange(300, 3_000), Press(k % 4, "bell", t, source_event=f"p{second}.{k}")))
        inputs.append((t0 + 880_000, p.HostKey("correct", t0 + 880_000)))
    inputs.sort(key=lambda item: item[0])
    steps, due = 0, None
    while inputs or clock.now_us < seconds * 1_000_000:
        wake = clock.now_us + 5_000 if due is None else min(clock.now_us + 5_000, max(clock.now_us, due))
        delivered = bool(inputs) and inputs[0][0] <= wake
        if delivered:
            clock.now_us, item = inputs.pop(0)
            if isinstance(item, Press):
                box.press(item)
            else:
                game.take(item)
        else:
            clock.now_us = wake
        _t, due = game.decider.decide(clock.now_us, None, delivered)
        steps += 1
        if game.awaiting_show:  # the screen flipped the frame that shows it
            game.take(p.Shown(clock.now_us))
    return steps, built[0], screen.views


@pytest.mark.parametrize(("rate", "options"), [(20, {}), (1, {"answer_time_us": 3_000_000})],
                         ids=["20 presses a second", "an answer's countdown"])
def test_the_views_are_built_only_when_they_can_be_sent_and_are_what_they_were(rate: int, options: Any) -> None:
    steps, built, views = played(DecidingGame, rate=rate, **options)
    _steps, _built, before = played(EveryStepGame, rate=rate, **options)
    assert views == before  # the press flashes, the countdown, the refreshes: every one, as it was
    assert len(views) > 300  # (a game in which the viewers see a lot)
    assert built < steps / 3, (steps, built, len(views))  # 2,691 steps: 599 views built (400 with a countdown)


def test_the_log_says_what_was_decided_only_after_the_lamp(caplog: pytest.LogCaptureFixture) -> None:
    """A decided event's log line cost ~0.16 ms on stderr before the lamp: the
    deciding thread writes it after lighting (and the box logs at once again
    once the thread has stopped)."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2))
    clock = VirtualClock()
    said_at_light: list[list[str]] = []

    def light() -> None:
        said_at_light.append([r.getMessage() for r in caplog.records])

    decider = Decider(box, clock, light)
    caplog.set_level("INFO", logger="buzzerbox")
    box.host("arm", 0)
    box.press(Press(1, "bell", 10_000))
    clock.now_us = 500_000
    decider.decide(clock.now_us, None)
    said = [r.getMessage() for r in caplog.records]
    assert any("was first" in line for line in said)
    assert said_at_light and not any("was first" in line for line in said_at_light[-1])
    decider.stop()
    box.host("reset", 600_000)
    assert box.held_log is None
