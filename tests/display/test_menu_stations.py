"""The evening's deciding process opens the stations once and hands them to the menu's rows, then to each game."""

from __future__ import annotations

from controller.box import profile as profile_mod
from controller.box.monitor import InputMonitor
from controller.box.runtime import Box
from controller.box.session import Relay
from controller.box.sources.gpio import GpioSource, mock_factory
from games import registry


def test_station_presses_follow_whatever_runs_now():
    prof = profile_mod.load("header-4")
    factory = mock_factory()
    relay = Relay()
    source = GpioSource(prof, factory)
    source.start(relay)
    bell = factory.pin(17)  # Red's bell

    monitor = InputMonitor([(st.name, list(st.inputs)) for st in prof.stations], prof.debounce)
    relay.target = monitor
    bell.drive(0, 1_000)
    bell.drive(1, 90_000)
    assert [p.station for p in monitor.step(50_000) if hasattr(p, "edges")] == [0]

    spec = registry.get("quiz")
    box = Box(spec, spec.settings(4), prof.station_kinds(), debounce=prof.debounce)
    relay.target = box
    box.host("arm", 200_000)
    bell.drive(0, 300_000)
    box.step(400_000)
    assert box.summary()["winner"] == 0

    relay.target = None  # between screens nothing is delivered, nothing breaks
    bell.drive(1, 500_000)
    source.stop()
