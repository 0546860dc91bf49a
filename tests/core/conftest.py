"""Shared fixtures: a quiz box on the mock pin factory, driven with exact ticks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from controller.box import profile as profile_mod
from controller.box.runtime import Box
from controller.box.sources.gpio import GpioSource, mock_factory
from games import registry


@dataclass
class Rig:
    """A box on header-4 with its pins at hand: ``rig.pin(station, input)``."""

    box: Box
    factory: Any
    profile: profile_mod.Profile
    source: GpioSource

    def pin(self, station: int, name: str) -> Any:
        number = {v: k for k, v in self.profile.input_pins().items()}[(station, name)]
        return self.factory.pin(number)

    def press(self, station: int, t_us: int, name: str = "bell", bounce: list[int] | None = None, hold_us: int = 80_000) -> None:
        """Press at t_us; ``bounce`` lists µs offsets of extra edges (alternating)."""
        pin = self.pin(station, name)
        pin.drive(0, t_us)
        level = 0
        for offset in bounce or []:
            level = 1 - level
            pin.drive(level, t_us + offset)
        if level != 0:
            pin.drive(0, t_us + (bounce or [0])[-1] + 1)
        pin.drive(1, t_us + hold_us)

    def host(self, action: str, t_us: int) -> None:
        pin = self.pin(-1, action)
        pin.drive(0, t_us)
        pin.drive(1, t_us + 50_000)


@pytest.fixture
def rig() -> Rig:
    prof = profile_mod.load("header-4")
    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    factory = mock_factory()
    source = GpioSource(prof, factory)
    source.start(box)
    box.debouncer.start_all(source.levels(), 0)
    yield Rig(box, factory, prof, source)
    source.stop()
