"""What setting the lamps costs the deciding thread: ``LightDirector.update``
on ``GpioLights`` (gpiozero's mock pins), a 4-station game's contests one
after the other (a winner on, the three others queued and blinking, then
everyone idle), the old way against the new, interleaved in one run.

The old way: the lamps walked in station order, a blinking lamp through
gpiozero's ``LED.blink(background=True)`` (a thread started per lamp and
call, the old one joined, on the caller's thread). The new way: lamps going
on first, then off, then blinking, and one blinker thread for every lamp
(``controller.box.lights.Blinker``).

Per way: ``update()`` p50/p99/max, the time from its start to the winner's
pin being written, and the threads started over the run.

    PYTHONPATH=. python benchmarks/lamps.py --contests 200
"""

from __future__ import annotations

import argparse
import os
import threading
import time
from collections.abc import Callable, Sequence

from gpiozero.pins.mock import MockFactory, MockPin

from controller.box.lights import GpioLights, LightDirector
from games.base import COMMON_STATUS_LIGHTS

PINS = {(s, "bell"): pin for s, pin in enumerate((17, 18, 27, 22))}
#: when each pin was first written high in the current update (perf_counter ns)
WRITTEN: dict[int, int] = {}


class TimedPin(MockPin):
    def _set_state(self, value: float) -> None:
        if value:
            WRITTEN.setdefault(int(self.info.name.removeprefix("GPIO")), time.perf_counter_ns())
        super()._set_state(value)


class OldGpioLights(GpioLights):
    """The lamps before: gpiozero's ``blink()``, a thread per blinking lamp and call."""

    def set(self, station: int, input: str, mode: str) -> None:
        led = self.leds.get((station, input))
        if led is None:
            return
        if mode == "on":
            led.on()
        elif mode == "off":
            led.off()
        else:
            led.blink(on_time=self.blink_s, off_time=self.blink_s, background=True)

    def close(self) -> None:
        for led in self.leds.values():
            led.off()
            led.close()


class OldDirector(LightDirector):
    """The lamps walked in station order."""

    def update(self, statuses: Sequence[str], status_light: Callable[[str], str] | None = None,
               clock: Callable[[], int] | None = None) -> int | None:
        for station, inp in self.backend.lights():
            mode = COMMON_STATUS_LIGHTS.get(str(statuses[station]), "off")
            if self.current.get((station, inp)) != mode:
                self.current[(station, inp)] = mode
                self.backend.set(station, inp, mode)
        return None


def q(values: list[float], p: float) -> float:
    return sorted(values)[min(len(values) - 1, int(p * len(values)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--contests", type=int, default=200)
    parser.add_argument("--gap-ms", type=float, default=10.0, help="between a contest's steps (the blinkers run)")
    args = parser.parse_args()
    started = [0]
    start = threading.Thread.start

    def counted(thread: threading.Thread) -> None:
        started[0] += 1
        start(thread)
    threading.Thread.start = counted  # type: ignore[method-assign,assignment]
    ways: dict[str, tuple[type[GpioLights], type[LightDirector]]] = {
        "old": (OldGpioLights, OldDirector), "new": (GpioLights, LightDirector)}
    rigs: dict[str, tuple[GpioLights, LightDirector, list[float], list[float], list[int]]] = {}
    for name, (lights_type, director_type) in ways.items():
        lights = lights_type(PINS, pin_factory=MockFactory(pin_class=TimedPin), blink_s=0.25)
        rigs[name] = (lights, director_type(lights), [], [], [0])
    for contest in range(args.contests):
        winner = 3 - contest % 4  # the last station too: station order writes the others first
        for _lights, director, took, first, threads in rigs.values():
            before = started[0]
            for strip in (["first" if s == winner else "queued" for s in range(4)], ["idle"] * 4):
                WRITTEN.clear()
                t0 = time.perf_counter_ns()
                director.update(strip)
                took.append((time.perf_counter_ns() - t0) / 1000)
                if strip[winner] == "first":
                    first.append((WRITTEN[PINS[(winner, "bell")]] - t0) / 1000)
                time.sleep(args.gap_ms / 1000)
            threads[0] += started[0] - before
    print(f"{args.contests} contests, 4 lamps; load average {os.getloadavg()}")
    for name, (lights, _director, took, first, threads) in rigs.items():
        print(f"{name}: update() p50 {q(took, .5):.0f} µs, p99 {q(took, .99):.0f} µs, max {max(took):.0f} µs; "
              f"winner's pin written {q(first, .5):.0f} µs (p50) / {q(first, .99):.0f} µs (p99) after update() "
              f"began; {threads[0]} threads started")
        lights.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
