"""The kernel's side of a GPIO line request, stood in for by a pipe: there is no
/dev/gpiochip here. Its read end is the request's fd the GPIO source reads; the
records are the kernel's own ``struct gpio_v2_line_event`` (48 bytes), numbered
as the kernel numbers them (``seqno`` per request, ``line_seqno`` per line)."""

from __future__ import annotations

import os

from controller.box.sources.linefd import EVENT_FALLING_EDGE, EVENT_RISING_EDGE, LINE_EVENT


def event(offset: int, level: int, t_us: int, seqno: int, line_seqno: int) -> bytes:
    """One ``gpio_v2_line_event`` as the kernel writes it: a stamp in CLOCK_MONOTONIC ns."""
    return LINE_EVENT.pack(t_us * 1000 + 456, EVENT_RISING_EDGE if level else EVENT_FALLING_EDGE,
                           offset, seqno, line_seqno)


class StandInChip:
    """Opens one line request (``GpioSource(lines=chip.open)``) and queues its events."""

    def __init__(self) -> None:
        self.asked: list[tuple[list[int], bool]] = []
        self.writer: int | None = None
        self.seqno = 0
        self.line_seqno: dict[int, int] = {}

    def open(self, offsets: list[int], pull_up: bool) -> tuple[int, str]:
        self.asked.append((offsets, pull_up))
        r, self.writer = os.pipe()
        return r, "/dev/gpiochip0 pinctrl-rp1 (stand-in)"

    def edge(self, offset: int, level: int, t_us: int) -> bytes:
        """The record the kernel queues for this edge, numbered as it numbers them."""
        self.seqno += 1
        self.line_seqno[offset] = self.line_seqno.get(offset, 0) + 1
        return event(offset, level, t_us, self.seqno, self.line_seqno[offset])

    def queue(self, *records: bytes) -> None:
        assert self.writer is not None
        os.write(self.writer, b"".join(records))

    def close(self) -> None:
        if self.writer is not None:
            os.close(self.writer)
            self.writer = None
