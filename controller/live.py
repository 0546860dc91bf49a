"""One live game, the same way for ``play``, ``play --resume``, the kiosk menu
and the real-time demo: settings -> box -> journal -> sources -> presenter ->
run -> close.

Closing always writes the journal's ``end`` record, turns every light off and
stops the sources, whether the game ended, the host pressed Ctrl+C or the
kiosk was stopped with SIGTERM; the caller then prints one summary line.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

from controller import journal as journal_mod
from controller.display.loop import Presenter, RunResult, run
from controller.display.screen import Screen
from controller.lights import GpioLights, Lights, NoLights
from controller.profile import Profile
from controller.runtime import Box, box_from_journal
from controller.simulate import Session
from controller.sound import Sound, SoundSettings
from controller.sources.base import InputSink, Source, SourceError
from controller.sources.keyboard import KeyboardSource
from controller.timeline import box_now_us
from games.base import BuzzerBoxError, GameSettings, GameSpec
from games.registry import scene_for
from games.toolkit.theme import PALETTE, Color, hex_color

log = logging.getLogger("buzzerbox")

#: a resumed game carries on this long after its journal's last moment
RESUME_GAP_US = 1_000_000


def new_seed() -> int:
    """The seed of a game with people: fresh each game; the journal keeps it,
    so replay and resume need nothing else."""
    return random.SystemRandom().randrange(1_000_000)


@contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """SIGTERM (systemd stopping the kiosk) ends a game like Ctrl+C: through
    the same close, so the journal gets its end and the lights go off."""
    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread: nobody to interrupt
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# -- the pieces a live game is made of ---------------------------------------------------


def names_colors(profile: Profile | None, players: int) -> tuple[list[str] | None, list[Color] | None]:
    """Station names and colours from the wiring profile (None: the defaults)."""
    if profile is None:
        return None, None
    names = [profile.stations[i].name if i < len(profile.stations) else f"Player {i + 1}" for i in range(players)]
    colors = [hex_color(profile.stations[i].color) if i < len(profile.stations) else PALETTE[i % len(PALETTE)]
              for i in range(players)]
    return names, colors


def open_lights(profile: Profile | None, source: Any = None) -> Lights:
    """The profile's button lights: GPIO pins, or the input board's outputs."""
    if profile is None or not profile.light_pins():
        return NoLights()
    if profile.source == "board":
        return source.lights() if source is not None and hasattr(source, "lights") else NoLights()
    if profile.source != "gpio":
        return NoLights()
    try:
        return GpioLights.from_profile(profile)
    except Exception as exc:  # no GPIO here (a desktop): show the game anyway
        print(f"lights: off ({exc.__class__.__name__}: {exc})", file=sys.stderr)
        return NoLights()


def open_screen(args: argparse.Namespace, headless: bool) -> Screen:
    return Screen.open(headless=headless, fullscreen=getattr(args, "fullscreen", None))


def open_sound(args: argparse.Namespace, headless: bool) -> Sound:
    if headless and "SDL_AUDIODRIVER" not in os.environ:
        os.environ["SDL_AUDIODRIVER"] = "dummy"  # headless: count sounds, play none
    return Sound.open(SoundSettings(volume=args.volume, mute=args.mute))


def is_headless(args: argparse.Namespace) -> bool:
    from controller.display.screen import has_display

    return bool(args.headless) or not has_display()


def open_inputs(profile: Profile, sink: InputSink) -> Source:
    """Open the profile's source and start it delivering to ``sink``."""
    from controller.sources import open_source

    try:
        source = open_source(profile)
        source.start(sink)
    except BuzzerBoxError:
        raise
    except Exception as exc:
        raise SourceError(f"cannot open the {profile.source} inputs of {profile.name}: {exc}") from exc
    return source


def new_journal_path(folder: Path, game: str) -> Path:
    """game-DATE-TIME.jsonl, numbered when two games start within a second."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = time.strftime(f"{game}-%Y%m%d-%H%M%S")
    path, n = folder / f"{stem}.jsonl", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.jsonl"
    return path


def unfinished_journal(folder: Path) -> Path | None:
    """The newest journal in ``folder`` if it is a game with people that has
    no ``end`` record yet: a crash or a power cut stopped it mid-game."""
    try:
        newest = max(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, default=None)
    except OSError:
        return None
    if newest is None:
        return None
    try:
        journal = journal_mod.read(newest)
    except BuzzerBoxError as exc:
        log.warning("not resuming %s: %s", newest, exc)
        return None
    session = journal.session
    return newest if session is not None and session.mode == "play" and not journal.ended else None


def new_box(spec: GameSpec, settings: GameSettings, profile: Profile | None, journal: str | Path | None,
            station_names: Sequence[str] | None = None) -> Box:
    """A box for people: its own timeline starts now at 0, every input journaled."""
    kinds = profile.station_kinds()[: settings.players] if profile is not None else None
    box = Box(spec, settings, kinds, debounce=profile.debounce if profile is not None else None,
              station_names=station_names)
    box.time_offset_us = -box_now_us()
    if journal is not None:
        box.journal = journal_mod.JournalWriter.create(
            journal, box.header(mode="play", profile=profile.name if profile is not None else None))
    return box


def resumed_box(path: str | Path, profile: Profile | None = None,
                game: str | None = None) -> tuple[Box, journal_mod.Journal]:
    """The box of a journaled game, rebuilt, appending to the same journal and
    carrying on a second after its last moment, whatever the clock did meanwhile
    (restarted at 0 after a power cut, or ran on). The journal is locked first
    (one writer at a time) and must be this game on this profile's stations."""
    if profile is not None or game is not None:
        journaled = journal_mod.read(path)
        session = journaled.session
        assert session is not None
        differences = journal_mod.check_resume(
            journaled, game or session.game,
            None if profile is None else len(profile.stations),
            None if profile is None else profile.station_kinds(),
            None if profile is None else profile.name)
        if differences:
            raise journal_mod.JournalError(f"{path} does not match: " + "; ".join(differences))
    journal, writer = journal_mod.resume(path)
    try:
        box = box_from_journal(journal, writer)
    except BaseException:
        writer.close()
        raise
    box.time_offset_us = journal.last_t_us + RESUME_GAP_US - box_now_us()
    return box, journal


def connect(box: Box, source: Source, profile: Profile) -> None:
    """Guard the box against the source's report delay and start every input
    at the level it rests at now (a stuck button is found at once)."""
    box.latency_guard_us = source.report_delay_us(profile.debounce)
    box.debouncer.start_all(source.levels(), box_now_us() + box.time_offset_us)


# -- the game itself -----------------------------------------------------------------------


@dataclass
class LiveGame:
    """A box with its presenter (and maybe a source and simulated players),
    run until it ends and always closed the same way."""

    box: Box
    presenter: Presenter
    source: Source | None = None
    #: False when the caller keeps the source open past this game (the menu)
    owns_source: bool = True
    session: Session | None = None
    stopped: bool = False  # Ctrl+C or SIGTERM
    closed: bool = field(default=False, repr=False)

    def game_now(self) -> int:
        return box_now_us() + self.box.time_offset_us

    def run(self, *, realtime: bool = True, seconds: float | None = None, keyboard: KeyboardSource | None = None,
            fps: int = 60, to_game_us: int | None = None) -> RunResult | None:
        """Play until the game ends, ``seconds`` pass, Esc, Ctrl+C or SIGTERM;
        None when it was stopped. Closes the game in every case."""
        target: Session | Box = self.session if self.session is not None else self.box
        if realtime:
            # the sources' stated report delay is checked on every delivery from now on
            self.box.measure_report_delay(box_now_us)
        if self.session is None:
            self.box.bound_logs()  # people play for hours: the journal keeps everything, memory the newest
        # simulated players keep the session's own timeline; people play on the box's
        start = self.box.now_us if self.session is not None else self.game_now()
        until = None if seconds is None else start + int(seconds * 1_000_000)
        try:
            with stop_on_sigterm():
                return run(target, self.presenter, realtime=realtime, until_us=until, keyboard=keyboard,
                           fps=fps, to_game_us=to_game_us)
        except KeyboardInterrupt:
            self.stopped = True
            log.info("%s stopped (Ctrl+C or SIGTERM)", self.box.spec.title)
            return None
        finally:
            self.close()

    def close(self) -> None:
        """Lights off, sources stopped, the journal's end written: once, however it ended."""
        if self.closed:
            return
        self.closed = True
        try:
            self.presenter.close()
        finally:
            try:
                if self.source is not None and self.owns_source:
                    self.source.stop()
            finally:
                box = self.box
                if box.journal is not None:
                    end = box.now_us if self.session is not None else max(self.game_now(), box.now_us)
                    box._write({"type": "end", "t_us": end})
                    box.journal.close()

    def summary_line(self, result: RunResult | None) -> str:
        """One line for the terminal and the log: how it ended and the scores."""
        how = "stopped (Ctrl+C or SIGTERM)" if result is None else f"ended: {result.reason}"
        return f"{self.box.spec.title} {how}; scores {self.box.engine.public_view().get('scores')}"


def presenter_for(box: Box, screen: Screen, *, lights: Lights | None, sound: Sound | None,
                  colors: Sequence[Color] | None) -> Presenter:
    return Presenter(screen, scene_for(box.spec.name, colors), lights=lights, sound=sound)
