"""Lights through gpiozero on mock pins: winner on, queue blinking, locked off."""

from __future__ import annotations

import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from controller.lights import GpioLights, LightDirector, RecordingLights
from tests.display.conftest import play_until, session

PINS = {(0, "bell"): 17, (1, "bell"): 18, (2, "bell"): 27}


def strip(*statuses: str) -> list[dict[str, object]]:
    return [{"name": f"P{i}", "status": st} for i, st in enumerate(statuses)]


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
    deadline = time.monotonic() + 30  # a hang guard: it blinks every 20 ms, however busy the machine
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


def test_director_sends_only_changes() -> None:
    rec = RecordingLights(list(PINS))
    d = LightDirector(rec)
    d.update(strip("first", "queued", "idle"))
    d.update(strip("first", "queued", "idle"))
    assert len(rec.calls) == 3
    d.update(strip("first", "first", "idle"))
    assert rec.calls[-1] == (1, "bell", "on") and len(rec.calls) == 4


def test_in_a_game_the_winner_lights_in_the_same_step() -> None:
    from controller.display.loop import Presenter
    from controller.display.screen import Screen
    from games.toolkit.scene import Scene

    s = session("quiz")
    rec = RecordingLights(list(PINS) + [(3, "bell")])
    presenter = Presenter(Screen.open(headless=True), Scene("t"), lights=rec)
    while True:
        nxt = s.next_time_us()
        events = s.step(nxt)
        presenter.react(s.box, events, s.now_us)
        winners = [e.player for e in events if e.kind == "winner"]
        if winners:
            assert rec.modes[(winners[0], "bell")] == "on"
            break
    play_until(s, lambda v: "locked" in v["status"])
    presenter.react(s.box, [], s.now_us)
    locked = s.box.engine.public_view()["status"].index("locked")
    assert rec.modes[(locked, "bell")] == "off"
