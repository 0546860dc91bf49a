"""The synthetic feeder of ``buzzerbox bench`` and ``benchmarks/realtime.py``:
edges written to a FIFO by another process reach the box through its real
GPIO source, on gpiozero's mock pins, each stamped with its own moment as
the kernel stamps a real edge.

One line per edge: ``PIN LEVEL T_US`` (the BCM pin, 0 or 1, the box clock's
µs of the contact). A thread blocked on the FIFO wakes for each line, as the
GPIO library's edge thread wakes for an interrupt; it runs in the box's
deciding process in either design, so both pay for it alike.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

from controller.sources.gpio import mock_factory

log = logging.getLogger("buzzerbox.feed")

#: a mock pin remembers every level it had: forgotten this often (a benchmark drives hours of edges)
FORGET_EVERY = 256


def feed_factory() -> Any:
    """The pins a fed game's GPIO source opens: each edge carries the stamp it is given."""
    return mock_factory()


def lamp_pins() -> list[Any]:
    """The lamps' pins when they are gpiozero's mock pins too (``GPIOZERO_PIN_FACTORY=mock``:
    the benchmarks): each remembers every level it had, and a blinking lamp has a few a second,
    which grew the deciding process by megabytes an hour. Real pins remember nothing."""
    from gpiozero import Device

    factory = Device.pin_factory
    return [pin for pin in getattr(factory, "pins", {}).values() if hasattr(pin, "clear_states")]


class Feed(threading.Thread):
    """Reads edges from ``path`` until its writer closes it; counts them."""

    def __init__(self, path: str | Path, factory: Any) -> None:
        super().__init__(name="buzzerbox-feed", daemon=True)
        self.path = Path(path)
        self.factory = factory
        self.edges = 0
        self.refused = 0

    def run(self) -> None:
        pins: dict[int, Any] = {}
        with self.path.open("r", encoding="ascii") as fifo:
            for line in fifo:
                try:
                    pin_text, level_text, t_text = line.split()
                    number, level, t_us = int(pin_text), int(level_text), int(t_text)
                except ValueError:
                    self.refused += 1
                    log.warning("feed: %r is not PIN LEVEL T_US: ignored", line.strip()[:40])
                    continue
                pin = pins.get(number)
                if pin is None:
                    pin = pins[number] = self.factory.pin(number)
                pin.drive(level, t_us)
                self.edges += 1
                if self.edges % FORGET_EVERY == 0:
                    for known in [*pins.values(), *lamp_pins()]:
                        known.clear_states()
