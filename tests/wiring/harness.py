"""A scripted builder on MockFactory pins with a fake clock, for the guided test.

The builder always presses the button it is asked for; how that button is
*really* wired (which GPIO it reaches, if any, how it bounces, whether it is
closed at rest) is the physical world the test is meant to discover.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from controller.box.lights import GpioLights
from controller.box.profile import Profile
from controller.box.sources.gpio import GpioSource, mock_factory
from controller.wiring_pack.guided_test import GuidedTest, Report, run


@dataclass
class Builder:
    profile: Profile
    wired_to: dict[str, int | None] = field(default_factory=dict)  # label -> the GPIO it really reaches
    bounces: dict[str, list[int]] = field(default_factory=dict)  # label -> gaps (µs) between onset edges
    release_bounces: dict[str, list[int]] = field(default_factory=dict)
    closed_at_rest: set[str] = field(default_factory=set)
    dark: set[str] = field(default_factory=set)  # lights that do not light
    hold_us: int = 150_000
    react_us: int = 400_000

    def __post_init__(self) -> None:
        self.factory = mock_factory()
        self.t = 0
        self.queue: list[tuple[int, int, int]] = []  # (t_us, gpio, level)
        self.seen: object = None
        self.asked: list[str] = []
        self.said: list[str] = []
        self.light_seen: dict[str, bool] = {}
        pins = {f"{st.name} {name}": pin for st in self.profile.stations for name, pin in st.inputs.items()}
        pins |= {f"Host {a}": pin for a, pin in self.profile.host.items()}
        self.pins = pins
        self.test = GuidedTest(self.profile, timeout_us=2_000_000)
        self.lights = GpioLights.from_profile(self.profile, pin_factory=self.factory)

    def gpio(self, label: str) -> int | None:
        return self.wired_to.get(label, self.pins[label])

    def _schedule_press(self, label: str) -> None:
        gpio = self.gpio(label)
        if gpio is None:
            return
        t = self.t + self.react_us
        edges = [(t, 0)]
        level = 0
        for gap in self.bounces.get(label, []):
            t += gap
            level = 1 - level
            edges.append((t, level))
        if level == 1:  # bounce train must end pressed
            t += 50
            edges.append((t, 0))
        t += self.hold_us
        edges.append((t, 1))
        level = 1
        for gap in self.release_bounces.get(label, []):
            t += gap
            level = 1 - level
            edges.append((t, level))
        self.queue += [(te, gpio, lv) for te, lv in edges]
        self.queue.sort()

    def now(self) -> int:
        return self.t

    def sleep(self, us: int) -> None:
        if self.t == 0:  # while the test looks at the lines at rest
            for label in sorted(self.closed_at_rest):
                self.queue.append((100, self.pins[label], 0))
        p = self.test.prompt
        if p is not None and p is not self.seen and p.kind == "press":
            self.seen = p
            self._schedule_press(p.label)
        end = self.t + us
        while self.queue and self.queue[0][0] <= end:
            t, gpio, level = self.queue.pop(0)
            self.factory.pin(gpio).drive(level, t)
        self.t = end

    def ask(self, question: str) -> str:
        self.asked.append(question)
        key = self.test.lit
        assert key is not None, "asked about a light while none is switched on"
        label = self.test.labels[key]
        on = self.lights.leds[key].is_lit
        others = [k for k, led in self.lights.leds.items() if k != key and led.is_lit]
        assert not others, f"other lights on too: {others}"
        self.light_seen[label] = on
        self.t += 1_000_000
        return "n" if label in self.dark or not on else "y"

    def run(self) -> Report:
        return run(
            self.test,
            GpioSource(self.profile, self.factory),
            now=self.now,
            sleep=self.sleep,
            ask=self.ask,
            say=self.said.append,
            open_lights=lambda source: self.lights,
        )
