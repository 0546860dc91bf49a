"""The two ways a fairness check can run the box's horizon, in virtual time.

``SHIPPED``: the box follows its source, and the source says after every
delivery batch how far it has delivered (``Watermark``, pushed after the
batch's edges, as a real reader does): what ``buzzerbox play`` decides by.
``FIXED``: the box follows no source and waits the stated report delay,
raised when an edge comes late (``HORIZON_FIXED_DELAY``): kept for the
benchmark's comparison. A check parametrized over ``DESIGNS`` shows the
fairness it asserts holds in the design users run, not only in the old one.
"""

from __future__ import annotations

from controller.box.press import Watermark
from controller.box.runtime import HORIZON_FIXED_DELAY, HORIZON_WATERMARKS, Box

SHIPPED, FIXED = HORIZON_WATERMARKS, HORIZON_FIXED_DELAY
DESIGNS = [SHIPPED, FIXED]
#: the source a check's edges come from, as the GPIO source names itself
SOURCE = "gpio"


def follow(box: Box, design: str, source: str = SOURCE) -> Box:
    """``box`` as ``design`` runs it: following ``source``'s watermarks (from
    now), or no source at all (the fixed delay decides)."""
    box.horizon_policy = design
    if design == SHIPPED:
        box.follow_source(source, watermarks=True)
    assert box._waits_fixed_delay() is (design == FIXED)  # the path the check means to test
    return box


def delivered(box: Box, design: str, until_us: int, source: str = SOURCE) -> None:
    """A delivery batch is in: its source says it delivered everything it
    stamped up to ``until_us`` (the shipped design; nothing in the fixed one)."""
    if design == SHIPPED:
        box.watermark(Watermark(source, until_us))
