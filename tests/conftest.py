"""Fixtures every test folder may use, and the suite-wide hooks: the
``runtime`` marker and the loud list of tests skipped for a missing runtime
(tests/runtimes.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests import runtimes


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "runtime(name): the test needs an optional runtime (tests/runtimes.py); "
        "skipped when missing, a failure with BUZZERBOX_REQUIRE_RUNTIMES=1")


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("runtime"):
        for name in mark.args:
            runtimes.require(name, item.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not runtimes.SKIPPED:
        return
    tr = terminalreporter
    by_runtime: dict[str, tuple[str, int]] = {}
    for name, why, _ in runtimes.SKIPPED:
        by_runtime[name] = (why, by_runtime.get(name, ("", 0))[1] + 1)
    tr.section("SKIPPED FOR A MISSING RUNTIME (CI fails on these)", sep="!", red=True, bold=True)
    for name, (why, count) in sorted(by_runtime.items()):
        tr.write_line(f"{count} test(s) need {name}: {why}", red=True, bold=True)
    tr.write_line(f"set {runtimes.REQUIRE_ENV}=1 to make this a failure (.ci/run does)", yellow=True)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """A test may switch the language (``--lang``); every test starts and ends in English."""
    from games.i18n import set_language

    set_language("en")
    yield
    set_language("en")


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
