"""The stations' header pins read straight from the kernel's GPIO character
device (Linux GPIO uAPI v2, ``include/uapi/linux/gpio.h``): one line request
for every input, both edges, the pull the wiring wants, no kernel debounce
(ours keeps the first edge's stamp, in software), events stamped on
CLOCK_MONOTONIC, the box's own clock (``box_now_us``: the same ns, to µs).

Why not through lgpio: lgpio's alert thread writes a turn's reports only up
to the least of the lines' last stamps and holds the rest for its next ppoll
turn (0.5 ms timeout and slack), so its reader must allow 2 ms before it says
"delivered" (``LgpioEdgeReader.capture_us``). Here the kernel stamps each edge
in its interrupt handler (``edge_irq_handler``) and its IRQ thread
(``edge_irq_thread``) puts it in the request's queue at once; a non-blocking
read that finds the queue empty means every edge stamped before the read
began, less that IRQ thread's wake-up, is delivered. The watermark and
hand-over logic is the pipe reader's (``PipeReader``).

Tested here without a chip: the records' and request's layouts against the
header's sizes and offsets, and the reader fed real-format records through a
pipe. On a Pi it needs confirming: that the request is granted (no other
owner of the lines: lamps and inputs are different pins), the chip found by
its label, and the IRQ thread's latency under load (``capture_us``).
"""

from __future__ import annotations

import errno
import fcntl
import logging
import os
import struct
from collections.abc import Callable
from pathlib import Path

from controller.box.sources.pipe_reader import PipeReader
from controller.box.timeline import box_now_us
from games.i18n import _

log = logging.getLogger("buzzerbox.gpio")

GPIO_MAX_NAME_SIZE = 32
GPIO_V2_LINES_MAX = 64
GPIO_V2_LINE_NUM_ATTRS_MAX = 10

# enum gpio_v2_line_flag
FLAG_INPUT = 1 << 2
FLAG_EDGE_RISING = 1 << 4
FLAG_EDGE_FALLING = 1 << 5
FLAG_BIAS_PULL_UP = 1 << 8
FLAG_BIAS_PULL_DOWN = 1 << 9
FLAG_EVENT_CLOCK_REALTIME = 1 << 11  # not set: events are stamped on CLOCK_MONOTONIC, the box clock

# enum gpio_v2_line_event_id
EVENT_RISING_EDGE = 1
EVENT_FALLING_EDGE = 2

#: struct gpiochip_info: name, label, lines
CHIP_INFO = struct.Struct("=32s32sI")
#: struct gpio_v2_line_config_attribute: attr (id, padding, union of u64), mask; 24 bytes
CONFIG_ATTRIBUTE = "IIQQ"
#: struct gpio_v2_line_request: offsets[64], consumer[32], config (flags, num_attrs, padding[5],
#: attrs[10]), num_lines, event_buffer_size, padding[5], fd; 592 bytes, every u64 8-aligned
LINE_REQUEST = struct.Struct("=64I32s" + "QI5I" + CONFIG_ATTRIBUTE * GPIO_V2_LINE_NUM_ATTRS_MAX + "II5Ii")
#: struct gpio_v2_line_values: bits, mask (bit i: the request's i-th line)
LINE_VALUES = struct.Struct("=QQ")
#: struct gpio_v2_line_event: timestamp_ns, id, offset, seqno, line_seqno, padding[6]; 48 bytes
LINE_EVENT = struct.Struct("=QIIII24x")


def _iowr(nr: int, size: int) -> int:
    """``_IOWR(0xB4, nr, size)`` as asm-generic/ioctl.h encodes it (ARM and x86 alike)."""
    return (3 << 30) | (size << 16) | (0xB4 << 8) | nr


GPIO_GET_CHIPINFO_IOCTL = (2 << 30) | (CHIP_INFO.size << 16) | (0xB4 << 8) | 0x01  # _IOR
GPIO_V2_GET_LINE_IOCTL = _iowr(0x07, LINE_REQUEST.size)
GPIO_V2_LINE_GET_VALUES_IOCTL = _iowr(0x0E, LINE_VALUES.size)

#: the labels of the chips that drive a Raspberry Pi's 40-pin header (Pi 5's RP1; Pi 4; Pi 0-3):
#: their line offsets are the BCM numbers the wiring profiles use
HEADER_CHIP_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
#: the kernel's most events a request may queue (it clamps a larger ask): a reader stalled
#: by a bouncing storm on every line loses as little as it can
EVENT_BUFFER_SIZE = GPIO_V2_LINES_MAX * 16
#: the consumer the lines show as (``gpioinfo``)
CONSUMER = b"buzzerbox"


class LineError(OSError):
    """The kernel's line events cannot be had (no chip, an old kernel, lines taken)."""


def line_request(offsets: list[int], pull_up: bool, consumer: bytes = CONSUMER) -> bytearray:
    """The ``gpio_v2_line_request`` for these lines: inputs, both edges, pulled up (or down),
    no kernel debounce (no attribute: the kernel's default is none), CLOCK_MONOTONIC stamps."""
    if not 0 < len(offsets) <= GPIO_V2_LINES_MAX:
        raise LineError(errno.EINVAL, f"{len(offsets)} lines: one request takes 1 to {GPIO_V2_LINES_MAX}")
    flags = FLAG_INPUT | FLAG_EDGE_RISING | FLAG_EDGE_FALLING | (FLAG_BIAS_PULL_UP if pull_up else FLAG_BIAS_PULL_DOWN)
    padded = [*offsets, *[0] * (GPIO_V2_LINES_MAX - len(offsets))]
    attrs = [0] * (4 * GPIO_V2_LINE_NUM_ATTRS_MAX)
    return bytearray(LINE_REQUEST.pack(*padded, consumer[:GPIO_MAX_NAME_SIZE - 1], flags, 0, *[0] * 5, *attrs,
                                       len(offsets), EVENT_BUFFER_SIZE, *[0] * 5, -1))


def header_chip(dev: Path = Path("/dev")) -> tuple[Path, str]:
    """The character device of the chip behind the 40-pin header, and its label."""
    seen = []
    for path in sorted(dev.glob("gpiochip*")):
        try:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError as exc:
            seen.append(f"{path.name}: {exc.strerror}")
            continue
        try:
            info = bytearray(CHIP_INFO.size)
            fcntl.ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, info, True)
        except OSError as exc:
            seen.append(f"{path.name}: {exc.strerror}")
            continue
        finally:
            os.close(fd)
        label = CHIP_INFO.unpack(info)[1].split(b"\0")[0].decode("ascii", "replace")
        if label in HEADER_CHIP_LABELS:
            return path, label
        seen.append(f"{path.name}: {label}")
    raise LineError(errno.ENODEV, _("no header GPIO chip in {dev} ({seen})").format(
        dev=dev, seen=", ".join(seen) or _("no /dev/gpiochip*")))


def request_lines(chip: Path, offsets: list[int], pull_up: bool) -> int:
    """The line request's fd for these lines of ``chip`` (``GPIO_V2_GET_LINE_IOCTL``)."""
    request = line_request(offsets, pull_up)
    fd = os.open(chip, os.O_RDONLY | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, GPIO_V2_GET_LINE_IOCTL, request, True)
    except OSError as exc:
        raise LineError(exc.errno, _("{chip}: the kernel refused lines {offsets}: {error}").format(
            chip=chip, offsets=offsets, error=exc.strerror)) from exc
    finally:
        os.close(fd)
    return int(LINE_REQUEST.unpack(request)[-1])


def open_header_lines(offsets: list[int], pull_up: bool) -> tuple[int, str]:
    """The header's lines as one request (its fd), and a label naming the chip."""
    chip, label = header_chip()
    return request_lines(chip, offsets, pull_up), f"{chip} {label}"


#: opens the inputs' lines: (offsets, pulled up) -> (the request's fd, what it is); raises OSError
LineOpener = Callable[[list[int], bool], tuple[int, str]]


def line_levels(fd: int, count: int) -> list[int]:
    """Each requested line's level now, in the request's order (``GPIO_V2_LINE_GET_VALUES_IOCTL``)."""
    values = bytearray(LINE_VALUES.pack(0, (1 << count) - 1))
    fcntl.ioctl(fd, GPIO_V2_LINE_GET_VALUES_IOCTL, values, True)
    bits = LINE_VALUES.unpack(values)[0]
    return [(bits >> i) & 1 for i in range(count)]


class LineEventReader(PipeReader):
    """The line request's events, read by the box's own thread (``PipeReader``:
    the box asks it how far it has delivered).

    ``capture_us``: the kernel stamps an edge in its hard interrupt handler and
    its IRQ thread (SCHED_FIFO 50, above the deciding process's 20) queues it; 250 µs
    bounds that thread's wake-up on a preemptible Pi kernel under load (typical
    wake-ups are tens of µs). Not measured on a Pi here. An edge queued later
    than its watermark allowed is not lost: the box counts it, logs it and
    waits longer for this reader from then on (``Box.broken_promises``), and a
    press a decision already went past is late evidence. The queue is not in stamp
    order across lines (each line's IRQ thread queues its own), so the reader
    is not ``ordered``; each line's own events are.

    Lost events: when the reader falls behind, the kernel's queue overflows and
    drops events; each line's ``line_seqno`` then skips. Gaps are counted
    (``lost``), logged and told (``on_lost``: the GPIO source makes it a notice
    the box journals and the screen shows); the request-wide ``seqno`` is not
    used for this, as two lines' events may be queued out of its order. The
    line's next edge still carries its true level.

    An event's direction is not its edge's: with both edges watched, the kernel
    stamps the edge in its hard interrupt handler but sets the event's id from
    the line's value its IRQ thread reads later (``edge_irq_thread``). A contact
    that closed and bounced open before the thread ran is queued as a rising
    event stamped at the close: taken as the level, it repeats the level at rest,
    the debounce drops it, and the press would start at a later edge (a rival
    touched after it could win). So the reader keeps each line's last level (from
    ``rest``, then its events): an event means the line left that level at its
    stamp; one that reports the same level bounced back, delivered 1 µs later (a
    bounce the debounce counts). After lost events, or without a level at rest,
    the reported level is all there is."""

    capture_us = 250
    #: whole events only (the kernel hands over whole records): a shorter read emptied the queue
    read_bytes = LINE_EVENT.size * 1365

    def __init__(self, fd: int, on_edge: Callable[[int, int, int], None],
                 clock: Callable[[], int] = box_now_us,
                 on_lost: Callable[[int, int, int], None] | None = None) -> None:
        super().__init__(None, "buzzerbox-gpio-lines", clock, fd=fd)
        self.on_edge = on_edge
        #: told (line offset, events dropped, the stamp of the event after the gap) of each gap
        self.on_lost = on_lost
        #: events the kernel dropped (its queue overflowed), by the lines' sequence numbers
        self.lost = 0
        self._line_seqno: dict[int, int] = {}
        #: each line's level as last delivered, and the stamp it was delivered at
        self._level: dict[int, int] = {}
        self._level_us: dict[int, int] = {}

    def rest(self, levels: dict[int, int]) -> None:
        """The lines' levels (by offset) before their first events: read before the reader starts."""
        self._level.update(levels)

    def split(self, data: bytes) -> tuple[list[bytes], bytes]:
        size = LINE_EVENT.size
        whole = len(data) - len(data) % size
        return [data[i:i + size] for i in range(0, whole, size)], data[whole:]

    def stamp_us(self, report: bytes) -> int | None:
        """The kernel's CLOCK_MONOTONIC stamp in box µs (None: not an edge event)."""
        timestamp_ns, event_id, _offset, _seqno, _line_seqno = LINE_EVENT.unpack(report)
        return timestamp_ns // 1000 if event_id in (EVENT_RISING_EDGE, EVENT_FALLING_EDGE) else None

    def deliver(self, report: bytes, t_us: int | None) -> None:
        """The edge to the source, stamped ``t_us``: the line left its last level then (see the
        class); a skip in its line's sequence counted and logged."""
        _ns, event_id, offset, _seqno, line_seqno = LINE_EVENT.unpack(report)
        seen = self._line_seqno.get(offset, 0)  # the kernel numbers a line's events from 1
        lost = line_seqno > seen + 1
        if lost:
            missed = line_seqno - seen - 1
            self.lost += missed
            log.warning("GPIO line %d: the kernel dropped %d edge event(s) (its queue overflowed; "
                        "%d lost in all): the reader fell behind", offset, missed, self.lost)
            if self.on_lost is not None:
                self.on_lost(offset, missed, self.clock() if t_us is None else t_us)
        self._line_seqno[offset] = max(seen, line_seqno)
        if t_us is None:
            return
        level = 1 if event_id == EVENT_RISING_EDGE else 0
        last = self._level.get(offset)
        # a line's edges reach the debounce in time order, though two events may share a µs
        t_us = max(t_us, self._level_us.get(offset, t_us))
        if last is None or lost:
            self.on_edge(offset, level, t_us)  # the level before is not known: the reported one
        else:
            self.on_edge(offset, 1 - last, t_us)
            if level == last:  # it bounced back before the kernel read it
                t_us += 1
                self.on_edge(offset, level, t_us)
        self._level[offset] = level
        self._level_us[offset] = t_us

    def levels(self, count: int) -> list[int]:
        """The requested lines' levels now (asked before edges are taken: the debounce's rest)."""
        fd = self._fd
        if fd is None:
            raise LineError(errno.EBADF, "the line request is closed")
        return line_levels(fd, count)
