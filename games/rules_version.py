"""Older rules kept playable, so a journal replays under the rules it was played with.

A game whose rules changed in a way that changes outcomes raises its
``GameSpec.rules_version``; journals record the version they were played
under. A game that can still play an older version declares the
``rules_version`` option (``rules_option``): its engine reads it and plays that version.
``as_played`` gives a journal's settings that option (journals written before
the option carry only the header's version), so the replay applies the rules
of the day; a version older than any the engine keeps is replayed under the
oldest it keeps, and the replay says which.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.base import GameSettings, GameSpec, Option

#: the option that names the rules version an engine plays
RULES_OPTION = "rules_version"


def rules_option(current: int, oldest: int = 1) -> Option:
    """The ``rules_version`` option: today's version by default, never in the menu
    (people play today's rules; old journals replay older ones)."""
    return Option(current, int, low=oldest, high=current)


def applied_rules(spec: GameSpec, settings: GameSettings) -> int:
    """The rules version an engine made from these settings plays."""
    value: Any = settings.options.get(RULES_OPTION)
    return value if isinstance(value, int) and not isinstance(value, bool) else spec.rules_version


def as_played(spec: GameSpec, settings: GameSettings, played: int) -> GameSettings:
    """A journal's settings for a replay under the rules version it was played
    with (``played``, from its header), as near as the engine still keeps."""
    option = spec.options.get(RULES_OPTION)
    if option is None or RULES_OPTION in settings.options:
        return settings
    oldest = int(option.low) if option.low is not None else 1
    version = min(max(played, oldest), spec.rules_version)
    return replace(settings, options={**settings.options, RULES_OPTION: version})
