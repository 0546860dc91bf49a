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
import os
import select
import threading
from collections.abc import Callable
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
    """Reads edges from ``path`` until its writer closes it; counts them.

    It is the fed source's edge reader (``EdgeReader``): the box asks it how
    far it has delivered. It reads the FIFO's bytes itself (no buffered file,
    whose buffer would hide lines read and not yet delivered) and is *busy*
    from before a read until every whole line read is delivered, so "not busy
    and nothing waiting in the FIFO" means every edge queued before the
    question was delivered; an edge reader starved of the interpreter holds
    the box's decisions instead of being decided past."""

    #: the feeder stamps an edge and writes it at once, as a kernel stamps in
    #: the interrupt and queues from its interrupt thread: this covers the hop
    capture_us = 100

    def __init__(self, path: str | Path, factory: Any) -> None:
        super().__init__(name="buzzerbox-feed", daemon=True)
        self.path = Path(path)
        self.factory = factory
        self.edges = 0
        self.refused = 0
        #: opened at once, without waiting for a writer (as a GPIO line is watched before anyone
        #: presses): the box may ask before the feeder starts, and nothing is queued then
        self._fd: int | None = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK)
        self._busy = False
        self._ended = False
        self._pins: dict[int, Any] = {}
        #: called each time it has delivered all it read: the box asks again (``live.connect``)
        self.wake: Callable[[], None] | None = None

    def delivered_until_us(self, now_us: int) -> int | None:
        """Every edge stamped by ``now_us`` less ``capture_us`` is delivered,
        if the reader holds none and the FIFO has none waiting (asked by the
        deciding thread: the order of the checks is what makes it true)."""
        fd = self._fd
        if self._ended:
            return now_us  # the writer closed it: nothing more can come
        if fd is None or self._busy:
            return None
        try:
            waiting = select.select([fd], [], [], 0)[0]
        except (OSError, ValueError):
            return None
        if waiting or self._busy:  # busy again: the reader took bytes between the two looks
            return None
        return now_us - self.capture_us

    def run(self) -> None:
        fd = self._fd
        assert fd is not None, "a feed is read once"
        partial = b""
        try:
            while True:
                select.select([fd], [], [])  # a FIFO whose writer never came is not readable: it waits
                self._busy = True  # before the read: the probe never sees bytes neither queued nor held
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:  # another reader's wake-up: nothing after all
                    self._busy = bool(partial)
                    continue
                if not chunk:
                    break
                *lines, partial = (partial + chunk).split(b"\n")
                for line in lines:
                    self._edge(line)
                self._busy = bool(partial)  # half a line read: an edge is still on its way
                if not self._busy and self.wake is not None:
                    self.wake()  # a step that found it busy waits for this, not for the next edge
        finally:
            if partial.strip():
                self._edge(partial)
            self._ended = True
            self._busy = False
            self._fd = None
            os.close(fd)

    def _edge(self, raw: bytes) -> None:
        """One ``PIN LEVEL T_US`` line: the pin driven with that stamp, as the kernel's edge."""
        try:
            pin_text, level_text, t_text = raw.decode("ascii").split()
            number, level, t_us = int(pin_text), int(level_text), int(t_text)
        except (UnicodeDecodeError, ValueError):
            self.refused += 1
            log.warning("feed: %r is not PIN LEVEL T_US: ignored", raw.strip()[:40])
            return
        pin = self._pins.get(number)
        if pin is None:
            pin = self._pins[number] = self.factory.pin(number)
        pin.drive(level, t_us)
        self.edges += 1
        if self.edges % FORGET_EVERY == 0:
            for known in [*self._pins.values(), *lamp_pins()]:
                known.clear_states()
