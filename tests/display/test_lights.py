"""Lights through gpiozero on mock pins: winner on, queue blinking, locked off."""

from __future__ import annotations

import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from controller.box.lights import GpioLights, LightDirector, RecordingLights
from tests.display.conftest import play_until, session
from tests.processes import HANG_S

PINS = {(0, "bell"): 17, (1, "bell"): 18, (2, "bell"): 27}


def strip(*statuses: str) -> list[str]:
    return list(statuses)


@pytest.fixture
def factory() -> MockFactory:
    f = MockFactory()
    yield f
    f.reset()
    Device.pin_factory = None


def test_winner_on_queue_blinks_locked_off(factory: MockFactory) -> None:
    lights = GpioLights(PINS, pin_factory=factory, blink_s=0.02)
    director = LightDirector(lights)
    director.update(strip("first", "queued", "locked"))
    assert factory.pin(17).state == 1  # at once, no waiting for a frame
    assert factory.pin(27).state == 0
    seen = set()
    deadline = time.monotonic() + HANG_S  # a hang guard: it blinks every 20 ms, however busy the machine
    while len(seen) < 2:
        assert time.monotonic() < deadline, "the queued station's light should blink"
        seen.add(factory.pin(18).state)
        time.sleep(0.005)  # polling the pin
    director.update(strip("locked", "idle", "locked"))
    assert factory.pin(17).state == 0
    assert factory.pin(18).state == 0  # the blink's thread was stopped (joined) by the update, not left to end
    lights.close()


def test_pwm_lights(factory: MockFactory) -> None:
    pwm = MockFactory(pin_class=MockPWMPin)
    lights = GpioLights(PINS, pin_factory=pwm, pwm=True, blink_s=0.02)
    LightDirector(lights).update(strip("first", "idle", "idle"))
    assert pwm.pin(17).state == 1.0 and pwm.pin(18).state == 0
    lights.close()
    pwm.reset()


#: every pin write of the test below, in order: (GPIO number, level), or "stamp" for a clock reading
WRITES: list[object] = []


class WrittenPin(MockPin):
    """A mock pin that logs every write (even of the level it has) in ``WRITES``."""

    def _set_state(self, value: float) -> None:
        WRITES.append((self.info.name, int(value)))
        super()._set_state(value)


def test_the_winners_lamp_is_the_first_pin_written_and_stamped_then() -> None:
    factory = MockFactory(pin_class=WrittenPin)
    lights = GpioLights(PINS, pin_factory=factory, blink_thread=False)
    director = LightDirector(lights)
    director.update(strip("first", "idle", "queued"))  # the last contest: 0 won, 2 queued
    WRITES.clear()

    def clock() -> int:
        WRITES.append("stamp")
        return 7

    # the next contest decided: 2 wins, 1 queues behind it, the last winner goes dark
    lit = director.update(strip("locked", "queued", "first"), clock=clock)
    assert WRITES == [("GPIO27", 1), "stamp", ("GPIO17", 0)] and lit == 7  # 1 blinks from the blinker's thread
    assert lights.blinker.blinking() == [(1, "bell")]
    lights.close()
    factory.reset()


def test_one_blinker_thread_for_every_contest(factory: MockFactory) -> None:
    lights = GpioLights(PINS, pin_factory=factory, blink_s=0.02)
    director = LightDirector(lights)
    before = set(threading.enumerate())
    started: set[threading.Thread] = set()
    for contest in range(30):  # a long game: the winner on, the others queued, then everyone idle
        winner = contest % 3
        director.update(strip(*("first" if s == winner else "queued" for s in range(3))))
        started |= set(threading.enumerate()) - before
        director.update(strip("idle", "idle", "idle"))
        started |= set(threading.enumerate()) - before
    assert [t.name for t in started] == ["buzzerbox-blinker"]  # started once, not per lamp and call
    lights.close()
    [blinker] = started
    blinker.join(HANG_S)  # a hang guard: it ends as soon as it is scheduled
    assert not blinker.is_alive()


def test_blinking_lamps_toggle_together_when_the_blinker_ticks(factory: MockFactory) -> None:
    lights = GpioLights(PINS, pin_factory=factory, blink_s=0.25, blink_thread=False)
    director = LightDirector(lights)
    director.update(strip("first", "queued", "queued"))
    blinker = lights.blinker
    levels = []
    for now in (10.0, 10.1, 10.25, 10.4, 10.5):  # the blinker's clock, moved by the test
        blinker.tick(now)
        levels.append((factory.pin(17).state, factory.pin(18).state, factory.pin(27).state))
    assert levels == [(1, 1, 1), (1, 1, 1), (1, 0, 0), (1, 0, 0), (1, 1, 1)]  # on one phase; the winner steady
    assert blinker.tick(10.6) == pytest.approx(0.15)  # the thread sleeps until the next change
    director.update(strip("first", "locked", "queued"))
    blinker.tick(10.75)
    assert (factory.pin(18).state, factory.pin(27).state) == (0, 0)
    blinker.tick(11.0)
    assert (factory.pin(18).state, factory.pin(27).state) == (0, 1)  # the locked lamp is never blinked again
    lights.close()


def test_pwm_lamps_pulse_from_the_one_blinker() -> None:
    pwm = MockFactory(pin_class=MockPWMPin)
    lights = GpioLights(PINS, pin_factory=pwm, pwm=True, blink_s=0.25, blink_thread=False)
    LightDirector(lights).update(strip("idle", "queued", "idle"))
    seen = []
    for now in (0.0, 0.125, 0.25, 0.375, 0.5):
        lights.blinker.tick(now)
        seen.append(pwm.pin(18).state)
    assert seen == pytest.approx([1.0, 0.5, 0.0, 0.5, 1.0])  # fading out and back in over one period
    lights.close()
    pwm.reset()


def test_director_sends_only_changes() -> None:
    rec = RecordingLights(list(PINS))
    d = LightDirector(rec)
    d.update(strip("first", "queued", "idle"))
    d.update(strip("first", "queued", "idle"))
    assert len(rec.calls) == 3
    d.update(strip("first", "first", "idle"))
    assert rec.calls[-1] == (1, "bell", "on") and len(rec.calls) == 4


def test_in_a_game_the_winner_lights_in_the_same_step() -> None:
    """The lamps from the box's strip after each step, as the deciding process sets them."""
    s = session("quiz")
    rec = RecordingLights(list(PINS) + [(3, "bell")])
    lamps = LightDirector(rec)
    while True:
        nxt = s.next_time_us()
        events = s.step(nxt)
        lamps.update(s.box.statuses(), s.box.spec.status_light)
        winners = [e.player for e in events if e.kind == "winner"]
        if winners:
            assert rec.modes[(winners[0], "bell")] == "on"
            break
    play_until(s, lambda v: "locked" in v["status"])
    lamps.update(s.box.statuses(), s.box.spec.status_light)
    locked = s.box.engine.public_view()["status"].index("locked")
    assert rec.modes[(locked, "bell")] == "off"
