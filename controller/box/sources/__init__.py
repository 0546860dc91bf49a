"""Input sources: one module per way a press can reach the box.

Every source stamps at the point of capture, reports its precision, and hands
edges or presses to a thread-safe sink; nothing slow runs on its callbacks.
"""

from __future__ import annotations

from typing import Any

from controller.box.profile import Profile
from controller.box.sources.base import Source, SourceError


def open_source(profile: Profile, **kwargs: Any) -> Source:
    """The source a wiring profile asks for (not started yet)."""
    if profile.source == "gpio":
        from controller.box.sources.gpio import GpioSource

        return GpioSource(profile, **kwargs)
    if profile.source == "board":
        from controller.box.sources.board import BoardSource

        return BoardSource.from_profile(profile, **kwargs)
    raise SourceError(f"profile {profile.name!r}: no input source {profile.source!r} (gpio or board)")
