"""A room's next match played by simulated players in virtual time, journaled
and watched by the league's publisher exactly as ``play --league`` is: the
tests' and the benchmark's boxes (``buzzerbox simulate``'s loop)."""

from __future__ import annotations

from collections.abc import Callable

from controller.box.journal import JournalWriter
from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.league.outbox import RoomFolder
from controller.league.tournament import Match, match_settings, station_names
from games import registry


def play_next(folder: RoomFolder, seed: int, watch: Callable[[Box], None] | None = None,
              options: dict[str, object] | None = None, *, crash_after_s: float | None = None) -> Match | None:
    """Play the room's next match to its end (None: none left); its journal ends like a real one.
    ``crash_after_s``: the box dies that far into the match (virtual time): its journal has no end."""
    match = folder.next_match()
    if match is None:
        return None
    spec = registry.get(match.game)
    players, match_options = match_settings(folder.t, match)
    settings = spec.settings(players, seed, **{**spec.demo_options, **match_options, **(options or {})})
    box = Box(spec, settings, station_names=station_names(folder.t, match))
    path = folder.new_journal(match)
    box.journal = JournalWriter.create(path, box.header(mode="simulate"), fsync=False)
    try:
        if watch is not None:
            watch(box)
        session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
        if crash_after_s is not None:
            session.run_virtual(int(crash_after_s * 1_000_000))
            box.journal.close()  # the box died: its journal has no end, and nobody holds it
            return match
        session.run_virtual(4 * 3600 * 1_000_000)
    except BaseException:  # broken off: closed without an end (it did not end)
        box.journal.close()
        raise
    box.end(session.now_us)
    return match
