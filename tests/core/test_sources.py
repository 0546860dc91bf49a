"""Each pin factory's ticks land on the box timeline with an honest precision."""

from __future__ import annotations

import gc
import random
import time

import pytest

from controller.box import profile as profile_mod
from controller.box.press import Edge
from controller.box.sources.gpio import GpioSource, mock_factory, tick_converter
from controller.box.sources.simulated import BounceModel, SimulatedSwitches


class Collect:
    def __init__(self):
        self.edges: list[tuple[Edge, int]] = []

    def edge(self, edge, precision_us):
        self.edges.append((edge, precision_us))


def test_callbacks_survive_garbage_collection():
    # gpiozero keeps when_changed weakly: a source that did not hold its
    # callbacks would go deaf after the first collection
    prof = profile_mod.load("header-4")
    factory = mock_factory()
    sink = Collect()
    source = GpioSource(prof, factory)
    source.start(sink)
    gc.collect()
    factory.pin(17).drive(0, 1_234_567)
    assert sink.edges == [(Edge(0, "bell", 0, 1_234_567), 2)]  # 1 µs mock + 1 µs front-end spread
    source.stop()


class PiGPIOFactory:  # stands in for gpiozero's, by name: a 32-bit µs counter on its own crystal
    def __init__(self, box: list[int], start_tick: int, ppm: float = 0.0) -> None:
        self.box, self.box0, self.start_tick, self.rate = box, box[0], start_tick, 1 + ppm / 1_000_000

    def at(self, box_us: int) -> int:
        """The counter's reading at box time ``box_us``."""
        return (self.start_tick + round((box_us - self.box0) * self.rate)) % (1 << 32)

    def ticks(self) -> int:
        return self.at(self.box[0])


def test_pigpio_ticks_unwrap_across_the_wrap_and_after_a_long_idle():
    box = [5_000_000_000]
    factory = PiGPIOFactory(box, 0xFFFF_FF00)
    convert, precision, _ = tick_converter(factory, clock=lambda: box[0])
    box[0] += 0x100  # the edge callbacks run a little after their edges
    assert convert(0xFFFF_FFF0) == 5_000_000_000 + 0xF0
    box[0] += 0x20
    assert convert(0x0000_0010) == 5_000_000_000 + 0x110  # after the 32-bit wrap
    forty_minutes = 40 * 60 * 1_000_000
    box[0] += forty_minutes  # nobody pressed for 40 min: more than half a wrap
    tick = (0xFFFF_FF00 + 0x110 + forty_minutes - 5) % (1 << 32)
    assert convert(tick) == 5_000_000_000 + 0x110 + forty_minutes - 5
    assert precision == 5


@pytest.mark.parametrize("ppm", [50.0, -50.0])
def test_pigpio_ticks_drifting_from_the_box_clock_are_never_stamped_in_its_future(ppm):
    """pigpio's counter drifts from the NTP-slewed box clock: mapped once at the
    start, after minutes every edge lands past now and the inbox refuses it."""
    box = [1_000_000_000]
    factory = PiGPIOFactory(box, 0x1234_5678, ppm)
    convert, _, _ = tick_converter(factory, clock=lambda: box[0])
    rng = random.Random(46)
    for _ in range(3 * 3600):  # an edge a second for three hours
        box[0] += 1_000_000
        happened = box[0]
        box[0] += rng.randrange(20, 400)  # its callback runs a little later
        stamp = convert(factory.at(happened))
        assert stamp <= box[0]  # never from the future: BOX_CLOCK_SLACK_US is not spent on drift
        assert abs(stamp - happened) <= 1_000  # and still placed within 1 ms of when it happened


def test_python_stamped_factories_report_millisecond_precision():
    class RPiGPIOFactory:
        pass

    convert, precision, label = tick_converter(RPiGPIOFactory())
    assert precision == 1000 and "Python" in label
    assert convert(1.5) == 1_500_000


def test_a_python_stamped_pins_edges_go_to_the_box_with_its_millisecond_precision():
    """Presses RPi.GPIO's (or the native) pins stamp in Python are told apart to 1 ms,
    not 1 µs: the arbiter calls two presses closer than that a tie, never a winner."""
    from gpiozero.pins.mock import MockFactory

    from controller.box.sources.gpio import mock_pin_class

    class NativeFactory(MockFactory):  # stands in for gpiozero's, by name; its pins are mock ones
        pass

    prof = profile_mod.load("header-4")
    factory = NativeFactory(pin_class=mock_pin_class())
    sink = Collect()
    source = GpioSource(prof, factory)
    source.start(sink)
    try:
        factory.pin(17).drive(0, 2_000_000)
    finally:
        source.stop()
    assert sink.edges == [(Edge(0, "bell", 0, 2_000_000), 1000 + prof.precision_extra_us(0, "bell"))]


def test_lgpio_kernel_stamps_on_either_clock_map_to_the_box_clock():
    class LGPIOFactory:
        pass

    convert, precision, _ = tick_converter(LGPIOFactory())
    mono_us = time.monotonic_ns() // 1000
    assert abs(convert(mono_us / 1e6) - mono_us) < 1000
    before_us = time.monotonic_ns() // 1000
    real_us = time.time_ns() // 1000
    after_us = time.monotonic_ns() // 1000
    # a CLOCK_REALTIME build: mapped to when it was read (bracketed, so a stall between the reads cannot fail it)
    assert before_us - 1000 < convert(real_us / 1e6) < after_us + 1000
    assert precision == 5


def test_simulated_switch_bounces_but_starts_exactly_on_time():
    sw = SimulatedSwitches(3, BounceModel(clean_chance=0.0))
    sw.plan(0, "bell", 10_000)
    edges = sw.due(10_000_000)
    assert edges[0] == Edge(0, "bell", 0, 10_000)
    assert len(edges) > 2  # bounced
    assert edges[-1].level == 1  # released at the end
    sw.plan(0, "bell", 10_100)  # still held: a second press cannot start
    assert sw.due(10_000_000) == []
