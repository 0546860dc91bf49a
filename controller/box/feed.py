"""The synthetic feeder of ``buzzerbox bench`` and ``benchmarks/realtime.py``:
edges written to a FIFO by another process reach the box through its real
GPIO source, on gpiozero's mock pins, each stamped with its own moment as
the kernel stamps a real edge.

One line per edge: ``PIN LEVEL T_US`` (the BCM pin, 0 or 1, the box clock's
µs of the contact), written by one writer in the order of the stamps (it
stamps each edge as it writes it): the box decides before the stamps the
reader still holds (``PipeReader.ordered``). A thread blocked on the FIFO wakes for each line, as the
GPIO library's edge thread wakes for an interrupt; it runs in the box's
deciding process in either design, so both pay for it alike.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from controller.box.sources.gpio import mock_factory
from controller.box.sources.pipe_reader import PipeReader

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


class Feed(PipeReader):
    """Reads ``PIN LEVEL T_US`` lines from ``path`` until its writer closes it,
    driving each pin with the line's stamp; counts them. It is the fed GPIO
    source's edge reader: the box asks it how far it has delivered."""

    #: the feeder stamps an edge and writes it at once, as a kernel stamps in
    #: the interrupt and queues from its interrupt thread: this covers the hop
    capture_us = 100
    #: one writer, stamping each line as it writes it
    ordered = True

    def __init__(self, path: str | Path, factory: Any) -> None:
        super().__init__(path, "buzzerbox-feed")
        self.factory = factory
        self.edges = 0
        self.refused = 0
        self._pins: dict[int, Any] = {}

    def split(self, data: bytes) -> tuple[list[bytes], bytes]:
        *lines, rest = data.split(b"\n")
        return lines, rest

    def finish(self, rest: bytes) -> None:
        if rest.strip():
            self.deliver(rest, self.stamp_us(rest))

    def stamp_us(self, report: bytes) -> int | None:
        """A line's ``T_US`` (None: not a ``PIN LEVEL T_US`` line, no edge)."""
        parts = report.split()
        try:
            return int(parts[2]) if len(parts) == 3 else None
        except ValueError:
            return None

    def deliver(self, report: bytes, t_us: int | None = None) -> None:
        """One ``PIN LEVEL T_US`` line: the pin driven with that stamp, as the kernel's edge."""
        try:
            pin_text, level_text, t_text = report.decode("ascii").split()
            number, level, t_us = int(pin_text), int(level_text), int(t_text)
        except (UnicodeDecodeError, ValueError):
            self.refused += 1
            log.warning("feed: %r is not PIN LEVEL T_US: ignored", report.strip()[:40])
            return
        pin = self._pins.get(number)
        if pin is None:
            pin = self._pins[number] = self.factory.pin(number)
        pin.drive(level, t_us)
        self.edges += 1
        if self.edges % FORGET_EVERY == 0:
            for known in [*self._pins.values(), *lamp_pins()]:
                known.clear_states()
