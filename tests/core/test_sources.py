"""Each pin factory's ticks land on the box timeline with an honest precision."""

from __future__ import annotations

import gc
import time

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


def test_pigpio_ticks_unwrap_across_the_wrap_and_after_a_long_idle():
    class PiGPIOFactory:  # stands in for gpiozero's, by name
        def ticks(self):
            return 0xFFFF_FF00

    box = [5_000_000_000]
    convert, precision, _ = tick_converter(PiGPIOFactory(), clock=lambda: box[0])
    box[0] += 0x30  # the edge callbacks run a little after their edges
    assert convert(0xFFFF_FFF0) == 5_000_000_000 + 0xF0
    box[0] += 0x20
    assert convert(0x0000_0010) == 5_000_000_000 + 0x110  # after the 32-bit wrap
    forty_minutes = 40 * 60 * 1_000_000
    box[0] += forty_minutes  # nobody pressed for 40 min: more than half a wrap
    tick = (0xFFFF_FF00 + 0x150 + forty_minutes - 5) % (1 << 32)
    assert convert(tick) == 5_000_000_000 + 0x150 + forty_minutes - 5
    assert precision == 5


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
