"""Board time -> box time: 64-bit board µs from (wraps, ticks), and the
mapping onto the box timeline with its honest error.

The mapping error is what a board press's stamp is worth against a press
from another clock (a GPIO pin on the Pi): half the best request round trip
(the board read its clock somewhere inside it), plus how far the fit missed
each new sample, as a rate per µs from the nearest sample (drift between
syncs, measured, not assumed: a 100 ppm crystal allowance until it has been).
"""

from __future__ import annotations

import logging
import math
import os
from collections import deque
from dataclasses import dataclass

log = logging.getLogger(__name__)

TICKS_PERIOD = 1 << 30
TICKS_HALF = 1 << 29
MAX_WRAPS = 1 << 31  # 2^61 µs: far beyond any board's uptime; larger is a damaged line
#: a quartz crystal's worst drift before the fit has measured it (RP2040 and Pi: ±30-50 ppm)
PRIOR_DRIFT_PPM = 100.0


def board_us(wraps: int, ticks: int) -> int:
    """Exact µs since the board booted, from its wrap count and 30-bit ticks."""
    if not (0 <= wraps < MAX_WRAPS and 0 <= ticks < TICKS_PERIOD):
        raise ValueError(f"board time w={wraps} t={ticks} out of range")
    return wraps * TICKS_PERIOD + ticks


class TickExtender:
    """Extends a bare 30-bit stamp to 64-bit µs since boot, within half a wrap
    (537 s) of the latest reference (heartbeats and replies carry ``w=``).
    Protocol v2 events carry their own ``w=``; this serves v1 lines."""

    def __init__(self) -> None:
        self.ref: int | None = None

    def reference(self, wraps: int, ticks: int) -> int:
        self.ref = board_us(wraps, ticks)
        return self.ref

    def extend(self, ticks: int) -> int:
        if self.ref is None:
            raise ValueError("no reference yet: a heartbeat or hello must come first")
        delta = ((ticks - self.ref + TICKS_HALF) % TICKS_PERIOD) - TICKS_HALF
        return self.ref + delta


@dataclass
class ClockSample:
    board_us: int
    box_mid_us: int
    rtt_us: int


class ClockMap:
    """Board µs -> box µs from clock requests: box = board + offset (+ drift).

    Each request brackets the board's reading between the host's send and
    receive times, so the board read its clock within ±rtt/2 of the midpoint.
    Only samples whose round trip is within ``slack_us`` of the best one are
    trusted (USB scheduling only ever adds delay); with two or more spanning
    ``min_span_us`` a least-squares line also corrects the crystal's drift.
    ``error_us()`` is the honest bound on a mapped stamp (module doc)."""

    def __init__(self, window: int = 64, slack_us: int = 100, min_span_us: int = 2_000_000,
                 max_drift_ppm: float = 1000.0, miss_window: int = 8,
                 prior_span_us: int = 900_000) -> None:
        self.samples: deque[ClockSample] = deque(maxlen=window)
        self.slack_us = slack_us
        self.min_span_us = min_span_us
        self.max_drift = max_drift_ppm * 1e-6
        self.prior_span_us = prior_span_us
        self.misses: deque[float] = deque(maxlen=miss_window)
        self.rates: deque[float] = deque(maxlen=miss_window)
        self._anchors: list[int] = []
        self._ref_board = 0
        self._ref_box = 0.0
        self._slope = 0.0
        self.drift_warned = False
        self._token = os.urandom(3).hex()  # this map, unlike any other (a restarted driver's)
        self.fits = 0  # how many times the mapping changed

    @property
    def fit_id(self) -> str:
        """Names the mapping in force now. Two stamps mapped by the same fit differ on
        the box timeline exactly as on the board (times the fitted drift), so they
        can be compared at the board's own precision; stamps mapped by two fits
        differ also by how the fit moved, which only the mapping error bounds."""
        return f"{self._token}.{self.fits}"

    @property
    def ready(self) -> bool:
        return bool(self.samples)

    def add(self, board_us: int, sent_box_us: int, recv_box_us: int) -> None:
        rtt = max(0, recv_box_us - sent_box_us)
        sample = ClockSample(board_us, (sent_box_us + recv_box_us) // 2, rtt)
        best = min((s.rtt_us for s in self.samples), default=rtt)
        if self.samples and rtt <= best + self.slack_us:
            # how far the fit so far missed this sample: the measured mapping error (only a
            # sample as tight as the fit's own: a slow reply's wide bracket proves nothing)
            span = min(abs(board_us - b) for b in self._anchors or [self._ref_board])  # from what the fit is pinned to
            off = abs(self.to_box(board_us) - sample.box_mid_us)
            if span >= self.prior_span_us:
                # drift the fit did not catch, per µs away from it: at worst the board read its
                # clock at one end of the round trip, so the bound adds half of it. No crystal
                # drifts beyond max_drift (the fit ignores such a slope too): a miss steeper than
                # that over a short span is the two brackets' width, which error_us counts already,
                # and taken as drift it would swell a stamp held 10 minutes to seconds
                self.rates.append(min(self.max_drift, (off + rtt / 2) / span))
            else:
                self.misses.append(max(0.0, off - rtt / 2))  # a burst: the noise of one measurement
        self.samples.append(sample)
        self._fit()

    def best_rtt_us(self) -> int | None:
        """The tightest round trip measured; safe to ask from another thread than the
        driver's (it reads a copy of the samples, which the driver appends to)."""
        return min((s.rtt_us for s in tuple(self.samples)), default=None)

    def error_us(self, board_us: int | None = None) -> int:
        """Bound on |mapped - true| box µs for a stamp at ``board_us``: half the widest
        round trip the fit trusts, plus the measurement noise seen in bursts, plus the drift the
        fit missed per µs (measured between syncs; 100 ppm until it has been) times
        the distance to the nearest sample (at least one sync interval)."""
        if not self.samples:
            raise ValueError("board clock not synced yet")
        at = board_us if board_us is not None else self.samples[-1].board_us
        best = min(s.rtt_us for s in self.samples)
        trusted = max(s.rtt_us for s in self.samples if s.rtt_us <= best + self.slack_us)  # the fit uses these
        recent = list(self.rates)[-3:]  # against the fit as it is now, not one replaced since
        rate = max(recent) if recent else PRIOR_DRIFT_PPM * 1e-6
        anchors = self._anchors or [self._ref_board]
        dist = min(abs(at - b) for b in anchors)
        err = trusted / 2 + max(self.misses, default=0.0) + rate * max(dist, self.prior_span_us)
        # + 1 µs for the quantum of the two clocks, + 1 µs for the midpoint and the mapped
        # stamp each rounded to whole µs (a fuzz under load once missed by exactly 1 µs)
        return math.ceil(err) + 2

    def _fit(self) -> None:
        self.fits += 1
        best = min(s.rtt_us for s in self.samples)
        good = [s for s in self.samples if s.rtt_us <= best + self.slack_us]
        if len(good) < 2 or good[-1].board_us - good[0].board_us < self.min_span_us:
            ref = [s for s in good if s.rtt_us == best][-1]
            self._ref_board, self._ref_box, self._slope = ref.board_us, float(ref.box_mid_us - ref.board_us), 0.0
            self._anchors = [ref.board_us]  # one offset: the error grows with the distance from it
            return
        self._anchors = [s.board_us for s in good]  # the line is pinned at every good sample
        ref = good[-1]
        xs = [s.board_us - ref.board_us for s in good]
        ys = [s.box_mid_us - s.board_us for s in good]  # offset as a function of board time
        n = len(good)
        mx, my = sum(xs) / n, sum(ys) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if sxx else 0.0
        if abs(slope) > self.max_drift:
            if not self.drift_warned:  # once per connection: the log must stay readable
                self.drift_warned = True
                log.warning("board clock drifts %.0f ppm against the box: ignoring the drift", slope * 1e6)
            slope = 0.0
        self._ref_board, self._ref_box, self._slope = ref.board_us, my - slope * mx, slope

    def to_box(self, board_us: int) -> int:
        if not self.samples:
            raise ValueError("board clock not synced yet")
        dx = board_us - self._ref_board
        return board_us + round(self._ref_box + self._slope * dx)

    def to_board(self, box_us: int) -> int:
        """The inverse of ``to_box``: the board µs at box time ``box_us`` (the host
        tells the board when a contest began, on the board's own clock)."""
        if not self.samples:
            raise ValueError("board clock not synced yet")
        return round((box_us - self._ref_box + self._slope * self._ref_board) / (1.0 + self._slope))
