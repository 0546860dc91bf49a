"""Fixtures every test folder may use."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture
def mock_pins(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """gpiozero's mock pins for `play`/`diag` on a machine without GPIO; no window, no sound."""
    from gpiozero import Device

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    old = Device.pin_factory
    Device.pin_factory = None
    yield
    if Device.pin_factory is not None:
        Device.pin_factory.close()
    Device.pin_factory = old
