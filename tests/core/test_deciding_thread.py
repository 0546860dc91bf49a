"""The deciding thread's own timing and what it hands the viewers, in
virtual time: a timed wait aims at the due moment as counted when the wait
begins, and the deciding process builds the views only for steps that can
send one, publishing exactly what building them after every step did."""

from __future__ import annotations

import gc
import json
import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from controller import protocol as p
from controller.box.deciding import DECIDER_WAKE_LEAD_US, Decider
from controller.box.journal import JournalWriter, PressRecord, load
from controller.box.lights import LightDirector, RecordingLights
from controller.box.press import Press
from controller.box.process import VIEW_EVERY_US, DecidingGame
from controller.box.runtime import Box, box_from_journal
from games import registry
from games.base import Action, GameEvent


class VirtualClock:
    """The box's time, moved by the test alone."""

    def __init__(self) -> None:
        self.now_us = 0

    def __call__(self) -> int:
        return self.now_us


class TickingClock(VirtualClock):
    """Virtual time that also moves 10 µs at every reading (the spin to a due moment reads it)."""

    def __call__(self) -> int:
        self.now_us += 10
        return self.now_us


class CountedWaits:
    """``box.arrived`` that records each wait's timeout, lets that time pass on
    ``clock`` (if given), and stops the thread after ``waits``."""

    def __init__(self, decider: list[Decider], waits: int, clock: VirtualClock | None = None) -> None:
        self.decider = decider
        self.waits = waits
        self.clock = clock
        self.timeouts: list[float] = []

    def wait(self, timeout: float) -> bool:
        self.timeouts.append(timeout)
        if self.clock is not None:
            self.clock.now_us += round(timeout * 1e6)
        if len(self.timeouts) >= self.waits:
            self.decider[0]._stopping.set()
        return False

    def is_set(self) -> bool:
        return False

    def clear(self) -> None:
        pass

    def set(self) -> None:
        pass


class DueBox:
    """A box with a moment due at 4 ms and nothing to decide; ``waited_on``:
    someone waits on that moment (a press being confirmed), not only the
    box (a release's lockout ending)."""

    def __init__(self, arrived: CountedWaits, waited_on: bool = False) -> None:
        self.lock = threading.Lock()
        self.arrived = arrived
        self.latency_guard_us = 0
        self.held_records: list[Any] | None = None
        self.waited_on = waited_on
        self.steps: list[int] = []
        self.armed_lit = None

    def step(self, t_us: int) -> list[GameEvent]:
        self.steps.append(t_us)
        return []

    def next_due_us(self) -> int:
        return 4_000

    def next_decision_due_us(self) -> int | None:
        return 4_000 if self.waited_on else None

    def flush_log(self) -> None:
        pass

    def flush_records(self) -> None:
        pass

    def checkpoint_if_due(self) -> None:
        pass

    def sources_holding(self) -> bool:
        return False


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


@pytest.mark.parametrize("waited_on", [True, False], ids=["a press being confirmed", "a lockout ending"])
def test_a_moment_someone_waits_on_is_spun_to_not_left_to_a_late_timer(waited_on: bool) -> None:
    """A timed wait wakes late on a loaded machine (~50 µs at p50): for a moment
    a player waits on, the wait ends ``DECIDER_WAKE_LEAD_US`` before it and the
    thread spins to it, and steps at it; a moment only the box waits on (a
    lockout ending) is a plain timed wait."""
    clock = TickingClock()
    made: list[Decider] = []
    waits = CountedWaits(made, waits=3, clock=clock)
    box = DueBox(waits, waited_on)

    def publish(events: list[GameEvent], t_us: int, stirred: bool = True) -> None:
        if len(box.steps) == 1:
            clock.now_us += 3_000  # the first step's publish took 3 ms

    decider = Decider(box, clock, lambda: None, after=publish)  # type: ignore[arg-type]
    made.append(decider)
    decider.run()
    assert decider.error is None
    lead = DECIDER_WAKE_LEAD_US if waited_on else 0
    # ~1 ms left when the wait began (less the clock's readings of 10 µs each), less the lead
    assert waits.timeouts[0] == 0.0 and (1_000 - lead - 100) / 1e6 <= waits.timeouts[1] <= (1_000 - lead) / 1e6
    assert 4_000 <= box.steps[1] <= 4_000 + 30  # at the moment: the spin read the clock up to it


class HoldingBox(DueBox):
    """A box whose GPIO reader holds an edge read off its pipe and not yet
    handed over from ``holds_from_us`` until the thread waits for it (the
    reader's turn at the interpreter): then it is delivered."""

    def __init__(self, arrived: CountedWaits, clock: VirtualClock, holds_from_us: int) -> None:
        super().__init__(arrived, waited_on=True)
        self.clock = clock
        self.holds_from_us = holds_from_us
        self.delivered_at: int | None = None
        self.asked = 0

    def sources_holding(self) -> bool:
        self.asked += 1
        return self.delivered_at is None and self.clock.now_us >= self.holds_from_us


class HandOver(CountedWaits):
    """A wait while the box's source holds an edge is the reader's turn: it delivers, and the wait ends at once."""

    box: HoldingBox

    def wait(self, timeout: float) -> bool:
        box = self.box
        if box.delivered_at is None and box.sources_holding():
            self.timeouts.append(timeout)
            box.delivered_at = self.clock.now_us if self.clock is not None else 0
            return True
        return super().wait(timeout)


@pytest.mark.parametrize("holds_from_us", [3_900, 4_000], ids=["during the spin", "at the moment"])
def test_a_spin_gives_the_interpreter_to_a_source_holding_an_edge(holds_from_us: int) -> None:
    """The spin to a decision's moment held the interpreter while the GPIO
    reader had an edge to hand over: the step at the moment found the source
    busy and decided nothing, and the lamp waited for the reader's turn and
    one more step (a third of the benchmark's contests, ~0.2 ms each). Now
    the thread waits for that delivery as soon as it sees the source hold
    one, and its next step takes it: no step runs while the source holds it."""
    clock = TickingClock()
    made: list[Decider] = []
    waits = HandOver(made, waits=4, clock=clock)
    box = HoldingBox(waits, clock, holds_from_us)
    waits.box = box
    decider = Decider(box, clock, lambda: None, after=lambda events, t, stirred=True: None)  # type: ignore[arg-type]
    made.append(decider)
    decider.run()
    assert decider.error is None
    assert box.delivered_at is not None and holds_from_us <= box.delivered_at <= 4_000 + 30
    stepped_while_held = [t for t in box.steps if holds_from_us <= t < box.delivered_at]
    assert stepped_while_held == []
    assert [t for t in box.steps if t >= box.delivered_at][:1] != []  # ... and the step after took the delivery


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

    def publish(self, view: dict[str, Any], events: list[GameEvent], pages: Any = None) -> None:
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
    assert len(views) > 250  # (a game in which the viewers see a lot: a quiet step's view near a decision goes out with it)
    assert built < steps / 3, (steps, built, len(views))  # 2,691 steps: 599 views built (400 with a countdown)


def test_a_step_with_no_viewer_builds_no_view_and_a_viewer_that_comes_is_sent_the_game_as_it_is() -> None:
    """While no viewer is connected (the screen died and its next one is not up yet, a headless
    game without peers) the steps decide as ever, the game's end is still watched for, and no view
    is built: nobody would receive it. A viewer that comes is sent the view of then, winner and all."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2), latency_guard_us=2_000)
    game = DecidingGame(box, None, None, until_us=None, results_s=0, screen_args=[])
    built = [0]
    public_view = box.engine.public_view

    def counted() -> dict[str, Any]:
        built[0] += 1
        return public_view()
    box.engine.public_view = counted  # type: ignore[method-assign]
    clock = VirtualClock()
    game.decider.now = clock
    game.take(p.HostKey("arm", 0))
    box.press(Press(1, "bell", 10_000))
    for clock.now_us in range(0, 2_000_000, 5_000):  # every wake of two seconds: deliveries, moments due, refreshes
        game.decider.decide(clock.now_us, None, clock.now_us == 0)
    assert box.engine.public_view() and built[0] == 1  # (the seam counts: this call, and none before it)
    assert [e.player for e in box.event_log if e.kind == "winner"] == [1] and game.wake.is_set()
    screen = Screen()
    game.viewers.append(screen)  # type: ignore[arg-type]
    game.decider.submit(list)  # a step asked for, as a viewer's line or the phones' panel asks one
    game.decider.decide(clock.now_us + 5_000, None, False)
    assert [view.public.get("winner") for view in screen.views] == [1]


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


def test_no_garbage_collection_runs_between_the_step_and_its_lamp() -> None:
    """A young collection of the interpreter's garbage cost ~0.2 ms in the
    steps that lit a lamp: none may start between a step's start and its
    lamp; collecting is on again right after (a process that had it off keeps it off)."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2))
    clock = VirtualClock()
    collecting_at: list[bool] = []
    decider = Decider(box, clock, lambda: collecting_at.append(gc.isenabled()))
    box.host("arm", 0)
    box.press(Press(1, "bell", 10_000))
    clock.now_us = 500_000
    decider.decide(clock.now_us, None)
    assert collecting_at == [False] and gc.isenabled()
    gc.disable()
    try:
        box.press(Press(0, "bell", 600_000))
        clock.now_us = 900_000
        decider.decide(clock.now_us, None)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_lamp_goes_on_before_the_journal_encodes_and_without_the_public_view(tmp_path: Path) -> None:
    """The winner's lamp was lit after the whole public view was built (the
    strip's statuses: ~50 µs of a quiz's) and after the press's journal line
    was encoded and handed to the writer thread (~15 µs each, and a thread
    woken): now the lamp reads the statuses alone, and the journal gets the
    step's records right after it, in order, the chain whole."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(2, seed=3))
    path = tmp_path / "night.jsonl"
    box.journal = JournalWriter.create(path, box.header(mode="play"), fsync=False, threaded=False)
    clock = VirtualClock()
    seen_at_light: list[tuple[int, int]] = []  # (records queued, public views built) when the lamp goes on
    built = [0]
    public_view = box.engine.public_view

    def counted() -> dict[str, Any]:
        built[0] += 1
        return public_view()
    box.engine.public_view = counted  # type: ignore[method-assign]
    journal = box.journal
    assert journal is not None

    class Lamps(RecordingLights):
        def set(self, station: int, input: str, mode: str) -> None:
            if mode == "on":
                seen_at_light.append((journal.records_queued, built[0]))
            super().set(station, input, mode)

    lamps = LightDirector(Lamps([(0, "bell"), (1, "bell")]))
    game = DecidingGame(box, None, lamps, until_us=None, results_s=0, screen_args=[])
    game.decider.now = clock
    box.host("arm", 0)
    queued_before = journal.records_queued
    box.press(Press(1, "bell", 10_000))
    clock.now_us = 500_000
    game.decider.decide(clock.now_us, None)
    assert lamps.current[(1, "bell")] == "on"
    assert seen_at_light == [(queued_before, 0)]  # nothing encoded, no view built, when the lamp went on
    assert journal.records_queued > queued_before and box.held_records is None
    box.end(600_000)
    kept = load(path)
    assert not kept.damage
    assert any(isinstance(r, PressRecord) and r.press.station == 1 for r in kept.records)
    replayed = box_from_journal(kept)
    assert replayed.engine.public_view()["status"] == box.engine.public_view()["status"]


@pytest.mark.parametrize("name", registry.available())
def test_every_games_station_statuses_are_its_public_views(name: str) -> None:
    """What the lamps read (``station_statuses``) is what the screen's strip shows, in every game played a while."""
    spec = registry.get(name)
    box = Box(spec, spec.settings(spec.min_players, seed=7))
    if not hasattr(box.engine, "station_statuses"):  # optional (games/base.py): the lamps read the public view
        pytest.skip(f"{name} has no station_statuses(): its lamps read its public view's status")
    rng = random.Random(name)
    for k in range(200):
        t = 1_000 + k * 50_000
        legal = box.engine.legal_actions(None)
        if legal and rng.random() < 0.3:
            box.host(rng.choice(legal), t)
        else:
            inputs = sorted({i for _kind, i in spec.buttons.bindings if i != "*"} or {"bell"})
            box.apply_press(Press(rng.randrange(spec.min_players), rng.choice(inputs), t))
        box.step(t + 1)
        assert box.engine.station_statuses() == box.engine.public_view()["status"]  # type: ignore[attr-defined]


def test_the_step_profile_wraps_nothing_unless_asked_and_shows_the_lamp_before_the_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``benchmarks/realtime.py --profile-steps`` reads where a lamp step's time
    goes from the deciding process: without ``BUZZERBOX_STEP_PROFILE`` nothing
    is wrapped (the step runs as shipped); with it, each lamp step's stages are
    written when the thread stops, in the order they ran: the winner's lamp
    of the race the quiz declared before the engine is handed the press
    (``FirstPress``), the engine's decision after it, and both before the
    step's journal records are handed to the writer or the view is published."""
    from controller.box import stepprofile

    spec = registry.get("quiz")

    def game() -> DecidingGame:
        box = Box(spec, spec.settings(2))
        lights = LightDirector(RecordingLights([(0, "bell"), (1, "bell")], clock=lambda: 0))
        return DecidingGame(box, None, lights, until_us=None, results_s=0, screen_args=[])

    monkeypatch.delenv(stepprofile.ENV, raising=False)
    plain = game()
    assert stepprofile.install(plain.decider) is None
    assert "decide" not in vars(plain.decider) and "take" not in vars(plain.box)

    monkeypatch.setenv(stepprofile.ENV, str(tmp_path))
    profiled = game()
    profile = stepprofile.install(profiled.decider)
    assert profile is not None
    clock = VirtualClock()
    profiled.decider.now = clock
    profiled.box.host("arm", 0)
    profiled.box.press(Press(1, "bell", 10_000))
    clock.now_us = 500_000
    profiled.decider.decide(clock.now_us, None)
    profile.dump()
    steps = json.loads(profile.path.read_text())
    assert len(steps) == 1
    order = [label for label, _wall, _cpu in steps[0]["marks"]]
    assert order.index("first_lamp>") < order.index("lamp") < order.index("engine_handle>")
    assert order.index("engine_tick<") < order.index("flush_records>") < order.index("after>")


def test_a_move_delivered_wakes_the_deciding_thread_at_once() -> None:
    """A phone's move and the host page's reach the box through ``deliver_action``: it wakes the
    deciding thread as a button's edge does (``box.arrived``), which otherwise slept on until its
    next timer (up to ``DECIDER_MAX_SLEEP_S``) before playing the move."""
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(3))
    box.arrived.clear()
    box.deliver_action(Action("buzz", 1_000, 0))
    assert box.arrived.is_set()
