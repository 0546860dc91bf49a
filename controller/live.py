"""One live game, the same way for ``play``, ``play --resume``, the kiosk menu
and the real-time demo: settings -> box -> journal -> sources -> presenter ->
run -> close.

Closing always writes the journal's ``end`` record, turns every light off and
stops the sources, whether the game ended, the host pressed Ctrl+C or the
kiosk was stopped with SIGTERM; the caller then prints one summary line.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller import channel, media, signals
from controller import journal as journal_mod
from controller.checkpoint import CheckpointError
from controller.lights import GpioLights, Lights, NoLights
from controller.press import Edge, InputNotice, Press, Watermark
from controller.profile import Profile
from controller.runtime import Box, box_from_journal
from controller.simulate import Session
from controller.sources.base import InputSink, Source, SourceError
from controller.timeline import box_now_us
from games.base import STATION_CHOICES, BuzzerBoxError, GameSettings, GameSpec, OptionError
from games.i18n import N_, _
from games.registry import scene_for

if TYPE_CHECKING:  # the screen's side: the deciding process imports this module without pygame
    from controller.display.loop import Presenter, RunResult
    from controller.display.screen import Screen
    from controller.sound import Sound
    from controller.sources.keyboard import KeyboardSource
    from controller.web.server import CompanionServer
    from games.toolkit.theme import Color

log = logging.getLogger("buzzerbox")

#: a resumed game carries on this long after its journal's last moment
RESUME_GAP_US = 1_000_000

#: where every game with people is journaled, unless told otherwise (under
#: $XDG_DATA_HOME when it is set); ``play`` and the menu say it at start
JOURNAL_SUBDIR = "buzzerbox/journals"


#: the host's own question packs, listed by the menu (docs/quiz.md)
PACKS_SUBDIR = "buzzerbox/packs"


def data_dir(subdir: str) -> Path:
    """A folder of the box's data: under ``$XDG_DATA_HOME``, else ``~/.local/share``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / subdir


def journal_dir() -> Path:
    """The one data folder for journals: ``$XDG_DATA_HOME/buzzerbox/journals``,
    else ``~/.local/share/buzzerbox/journals``."""
    return data_dir(JOURNAL_SUBDIR)


def packs_dir() -> Path:
    """The host's packs: ``$XDG_DATA_HOME/buzzerbox/packs``, else ``~/.local/share/buzzerbox/packs``."""
    return data_dir(PACKS_SUBDIR)


def new_seed() -> int:
    """The seed of a game with people: fresh each game; the journal keeps it,
    so replay and resume need nothing else."""
    return random.SystemRandom().randrange(1_000_000)


def terminated() -> bool:
    """True once SIGTERM stopped a game: a stop asked for (systemd), exit 0;
    Ctrl+C is an interruption, exit 130 (controller/signals.py)."""
    return signals.received() == signal.SIGTERM


def stop_on_sigterm() -> AbstractContextManager[None]:
    """SIGTERM, SIGINT, SIGHUP and SIGQUIT end a game like Ctrl+C: through the
    same close, so the journal gets its end and the lights go off (the
    command line installs them first; an in-process caller gets them here)."""
    return signals.handled()


# -- the pieces a live game is made of ---------------------------------------------------


def names_colors(profile: Profile | None, players: int,
                 chosen: Sequence[str] = ()) -> tuple[list[str] | None, list[Color] | None]:
    """Station names and colours (None: the defaults). A name entered in the
    menu (``chosen``) wins over the profile's station name and "Player N"."""
    from games.toolkit.theme import PALETTE, hex_color

    colors = None if profile is None else [
        hex_color(profile.stations[i].color) if i < len(profile.stations) else PALETTE[i % len(PALETTE)]
        for i in range(players)]
    if profile is None and not any(chosen):
        return None, colors
    names = []
    for i in range(players):
        if i < len(chosen) and chosen[i].strip():
            names.append(chosen[i].strip())
        elif profile is not None and i < len(profile.stations):
            names.append(profile.stations[i].name)
        else:
            names.append(_("Player {n}").format(n=i + 1))
    return names, colors


def names_path() -> Path:
    """The players' names entered in the menu, per profile ("keyboard" without one)."""
    return journal_dir().parent / "players.json"


def saved_names(profile: Profile | None) -> list[str]:
    """The names entered in the menu for this profile's stations ([] if none)."""
    try:
        data = json.loads(names_path().read_text(encoding="utf-8"))
        names = data.get(profile.name if profile is not None else "keyboard", [])
    except (OSError, ValueError, AttributeError):
        return []
    # anything but text is no name: that station keeps its own
    return [n[:NAME_LENGTH] if isinstance(n, str) else "" for n in names] if isinstance(names, list) else []


#: a name fits a strip cell read from across the room
NAME_LENGTH = 16


def save_names(profile: Profile | None, names: Sequence[str]) -> None:
    """Keep the menu's names for the next start (beside the journals)."""
    path = names_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data[profile.name if profile is not None else "keyboard"] = [n.strip()[:NAME_LENGTH] for n in names]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:  # a read-only card: the names hold for this session only
        log.warning("could not save the players' names in %s: %s", path, exc)


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
        print(_("lights: off ({kind}: {exc})").format(kind=exc.__class__.__name__, exc=exc), file=sys.stderr)
        return NoLights()


def driver_chosen() -> bool:
    """SDL_VIDEODRIVER set by whoever started the box (tests and CI choose
    the dummy driver on purpose): then a window without a display is wanted."""
    return bool(os.environ.get("SDL_VIDEODRIVER"))


class NoDisplayError(BuzzerBoxError):
    """A window was wanted but no display can be reached."""


def no_display_found() -> str:
    """Why nothing can be shown here (no desktop and no console screen): the
    menu refuses with it, the demo says it before it plays headless."""
    return _("no display found (no DISPLAY, WAYLAND_DISPLAY or /dev/dri card): run it on the box's screen, or "
             "see docs/display.md for the kiosk set-up")


def open_screen(args: argparse.Namespace, headless: bool) -> Screen:
    """The screen; a window that cannot be shown (no reachable display, or SDL
    left with its dummy driver) is a ``NoDisplayError``, never a game played
    in real time into nothing."""
    from controller.display.screen import Screen

    try:
        screen = Screen.open(headless=headless, fullscreen=getattr(args, "fullscreen", None))
    except Exception as exc:  # pygame.error: the X/Wayland server or the DRM device would not open
        raise NoDisplayError(_("no display could be opened ({exc}): run it on the box's screen, "
                               "set DISPLAY, or use --headless").format(exc=exc)) from exc
    if screen.headless and not headless and not driver_chosen():
        screen.close()
        raise NoDisplayError(_("no display could be opened (SDL video driver {driver!r}): run it on the box's "
                               "screen, set DISPLAY, or use --headless").format(driver=screen.driver))
    return screen


def open_sound(args: argparse.Namespace, headless: bool, profile: Profile | None = None) -> Sound:
    """The mixer, with each station's own buzz from the profile (a bad WAV: one line, the bell)."""
    from controller.sound import Sound, SoundSettings

    if headless and "SDL_AUDIODRIVER" not in os.environ:
        os.environ["SDL_AUDIODRIVER"] = "dummy"  # headless: count sounds, play none
    sound = Sound.open(SoundSettings(volume=args.volume, mute=args.mute))
    if profile is not None:
        sound.use_station_sounds(profile.station_sounds(), [st.name for st in profile.stations])
    return sound


def is_headless(args: argparse.Namespace) -> bool:
    from controller.display.screen import has_display

    return bool(args.headless) or not has_display()


class Relay:
    """The stations' source is opened once; this hands its deliveries to
    whatever runs now: the roll call's or the menu's monitor, or the game's box."""

    def __init__(self) -> None:
        self.target: Any = None

    def edge(self, edge: Edge, precision_us: int) -> None:
        if self.target is not None:
            self.target.edge(edge, precision_us)

    def press(self, press: Press) -> None:
        if self.target is not None:
            self.target.press(press)

    def notice(self, notice: InputNotice) -> None:
        if self.target is not None:
            self.target.notice(notice)

    def watermark(self, mark: Watermark) -> None:
        if self.target is not None:
            self.target.watermark(mark)


def keyboard_keys_line(players: int) -> str:
    """Which key is which station, for people playing on a laptop."""
    import pygame

    from controller.sources.keyboard import BELL_KEYS

    keys = ", ".join(_("{key} = Player {n}").format(key=pygame.key.name(k), n=i + 1)
                     for i, k in enumerate(BELL_KEYS[:players]))
    # the host's keys mean what each game makes of them: the help overlay (h) says it per game
    return _("keyboard stations ({keys}; h lists the host's keys for this game)").format(keys=keys)


def roll_call(screen: Screen, profile: Profile, source: Source, relay: Relay,
              keyboard: KeyboardSource | None) -> bool:
    """Before a game with real stations every station presses once and the
    strip ticks it off (a cut cable on normally-open wiring is otherwise a
    silent dead station). The host skips it with Enter; False for Esc (the
    game is not started, nothing journaled yet)."""
    from controller.display.diag import InputMonitor
    from controller.display.menu import run_roll_call

    stations = [(st.name, list(st.inputs)) for st in profile.stations]
    monitor = InputMonitor(stations, profile.debounce, list(profile.host))
    monitor.debouncer.start_all(source.levels(), box_now_us())
    relay.target = monitor
    try:
        with stop_on_sigterm():  # stopped here: the caller removes the journal of the game that never began
            outcome = run_roll_call(screen, monitor, profile.roll_call(), keyboard=keyboard)
    finally:
        relay.target = None
    if outcome is None:
        return False
    missing = [name for name in outcome if name]
    if missing:
        log.warning("roll call skipped by the host; not heard from: %s", ", ".join(missing))
    else:
        log.info("roll call: every station answered")
    return True


def open_inputs(profile: Profile, sink: InputSink, feed: str | None = None) -> Source:
    """Open the profile's source and start it delivering to ``sink``; with
    ``feed`` (a FIFO: ``controller/feed.py``), on mock pins driven from it."""
    from controller.sources import open_source

    factory = None
    if feed is not None:
        from controller.feed import Feed, feed_factory
        from controller.sources.gpio import GpioSource

        if profile.source != "gpio":
            raise SourceError(_("--feed drives GPIO pins: profile {name} reads a {source}").format(
                name=profile.name, source=profile.source))
        factory = feed_factory()
    try:
        source = open_source(profile, pin_factory=factory) if factory is not None else open_source(profile)
        source.start(sink)
    except BuzzerBoxError:
        raise
    except Exception as exc:
        raise SourceError(_("cannot open the {source} inputs of {profile}: {exc}{hint}").format(
            source=profile.source, profile=profile.name, exc=exc, hint=source_hint(profile, exc))) from exc
    if feed is not None:
        reader = Feed(feed, factory)
        if isinstance(source, GpioSource):
            source.reader = reader  # the box asks it how far it has delivered (``live.connect``)
        reader.start()
    return source


def source_hint(profile: Profile, exc: BaseException) -> str:
    """What to do when the inputs will not open (no GPIO on a laptop, no board)."""
    if type(exc).__name__ == "BadPinFactory":
        return _(" (no GPIO on this machine: on a Pi install the pi extra, pip install -e '.[pi]'; "
                 "on a laptop leave out --profile to play with keyboard stations)")
    if profile.source == "board":
        return _(" (is the input board plugged in? `buzzerbox doctor` lists what it finds)")
    return ""


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
        journal = journal_mod.read(newest, since_checkpoint=True)  # whether it ended: no need to hold every record
    except BuzzerBoxError as exc:
        log.warning("not resuming %s: %s", newest, exc)
        return None
    session = journal.session
    return newest if session is not None and session.mode == "play" and not journal.ended else None


def wiring_options(spec: GameSpec, profile: Profile | None, players: int) -> dict[str, Any]:
    """What a game hears of the wiring, as options (it never reads the profile):
    how many choices (A, B ...) the smallest of the ``players`` stations has
    buttons for, for a game that declares ``STATION_CHOICES``. Nothing for
    keyboard stations (no profile)."""
    if profile is None or STATION_CHOICES not in spec.options or not profile.stations:
        return {}
    stations = profile.stations[: max(1, players)]
    return {STATION_CHOICES: min(spec.buttons.choices(st.kind, st.inputs) for st in stations)}


def game_settings(spec: GameSpec, players: int, seed: int, options: Mapping[str, Any],
                  profile: Profile | None) -> GameSettings:
    """The settings of a game played on ``profile``'s stations: the options
    given, and what the wiring says (a station has the buttons it has). What
    the wiring says is the box's alone: given by hand (``--option``) it is
    refused, with or without a profile, rather than overridden or kept."""
    if STATION_CHOICES in spec.options and STATION_CHOICES in options:
        raise OptionError(N_("option 'station_choices' is the box's own: it counts the answer buttons of the wiring "
                             "profile's stations; leave it out (to offer fewer choices, give option 'choices')"))
    return spec.settings(players, seed, **{**options, **wiring_options(spec, profile, players)})


def new_box(spec: GameSpec, settings: GameSettings, profile: Profile | None, journal: str | Path | None,
            station_names: Sequence[str] | None = None, *, wall_clock: Callable[[], float] = time.time) -> Box:
    """A box for people: its own timeline starts now at 0, every input journaled."""
    kinds = profile.station_kinds()[: settings.players] if profile is not None else None
    if journal is not None:  # its pictures beside it, by content: a replay elsewhere shows them (docs/journal.md)
        settings = media.kept_with_journal(settings, Path(journal).absolute().parent)
    box = Box(spec, settings, kinds, debounce=profile.debounce if profile is not None else None,
              station_names=station_names)
    if journal is not None:
        box.journal = journal_mod.JournalWriter.create(
            journal, box.header(mode="play", profile=profile.name if profile is not None else None))
    restart_clock(box, wall_clock=wall_clock)
    return box


def resumed_box(path: str | Path, profile: Profile | None = None, game: str | None = None,
                *, wall_clock: Callable[[], float] = time.time,
                carry_on: bool = False) -> tuple[Box, journal_mod.Journal]:
    """The box of a journaled game, rebuilt, appending to the same journal and
    carrying on a second after its last moment, whatever the clock did meanwhile
    (restarted at 0 after a power cut, or ran on). The journal is locked first
    (one writer at a time) and must be this game on this profile's stations.
    ``carry_on``: a game the host ended before its end goes on too (the
    scores and the question where it stopped); one played to its end does not."""
    if profile is not None or game is not None:
        journaled = journal_mod.load(path, head=True)  # its header; the whole file is checked as it is resumed
        session = journaled.session
        assert session is not None
        differences = journal_mod.check_resume(
            journaled, game or session.game,
            None if profile is None else len(profile.stations),
            None if profile is None else profile.station_kinds(),
            None if profile is None else profile.name)
        if differences:
            raise journal_mod.JournalError(f"{path} does not match: " + "; ".join(differences))
    # a restart replays only since the newest checkpoint
    journal, writer = journal_mod.resume(path, carry_on=carry_on, since_checkpoint=True)
    try:
        try:
            box = box_from_journal(journal, writer, from_checkpoint=True)
        except CheckpointError:  # said in the log: the whole journal, read again (under the same lock)
            box = box_from_journal(journal_mod.load(path), writer)
        if carry_on and journal.ended and box.engine.finished:
            raise journal_mod.JournalError(f"{path}: " + _("this game was played to its end: nothing to carry on; "
                                                           "'buzzerbox replay' shows it, a new game starts a new journal"))
    except BaseException:
        writer.close()
        raise
    box.time_offset_us = journal.last_t_us + RESUME_GAP_US - box_now_us()
    box.session_start_us = journal.last_t_us + RESUME_GAP_US  # a press made meanwhile is not played
    journal_wall_clock(box, box.session_start_us, wall_clock)  # the gap was a second on the timeline, not in the room
    return box, journal


def abandon_start(box: Box, created: Path | None) -> None:
    """A game that never started: a journal made for it is removed (nothing
    happened, nothing to resume); a resumed journal is left as it was."""
    if box.journal is None:
        return
    with signals.held(raise_after=False):  # a second signal must not leave half of it done
        box.journal.close()
        if created is not None:
            try:
                Path(created).unlink()
            except OSError as exc:
                log.warning("could not remove %s: %s", created, exc)


def restart_clock(box: Box, *, wall_clock: Callable[[], float] = time.time) -> None:
    """A new box whose start waited (the roll call): its timeline starts now,
    and a press stamped before it (the roll call's, an earlier boot's) is not played."""
    box.time_offset_us = -box_now_us()
    box.session_start_us = 0
    journal_wall_clock(box, 0, wall_clock)


def journal_wall_clock(box: Box, game_us: int, wall_clock: Callable[[], float] = time.time) -> None:
    """Journal the UTC wall time that the box's timeline stands at ``game_us`` now
    (``journal.WallClockRecord``), so an export can say when a press happened in
    the room (a QBJ buzz's time). Informational only: the box orders and decides
    by its monotonic µs stamps, never by the wall clock (which NTP may step).
    A format-1 journal goes on in format 1, which has no such record."""
    if box.journal is None or box.journal.version < 2:
        return
    now = datetime.fromtimestamp(wall_clock(), timezone.utc)
    box.journal.write(journal_mod.WallClockRecord(game_us, now))


def connect(box: Box, source: Source, profile: Profile) -> None:
    """Decide by how far the source says it delivered (or its stated report
    delay, when it cannot say) and start every input
    at the level it rests at now (a stuck button is found at once)."""
    box.latency_guard_us = source.report_delay_us(profile.debounce)
    reader = source.edge_reader()
    if reader is not None:
        reader.wake = box.arrived.set
    box.follow_source(source.name, watermarks=source.sends_watermarks,
                      probe=None if reader is None else reader.delivered_until_us,
                      probe_lag_us=0 if reader is None else reader.capture_us,
                      ask=getattr(source, "ask_watermark", None))
    box.debouncer.start_all(source.levels(), box_now_us() + box.time_offset_us)
    follow_lockout = getattr(source, "follow_lockout", None)  # an input board that lights the first lamp itself
    if follow_lockout is not None:
        follow_lockout(box)


@dataclass
class Start:
    """A live game's start: until a deciding process took the game over this
    process closes (or abandons) it; from then on that process does."""

    handed_over: bool = False


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
    #: the companion pages' server (``--web``), stopped with the game
    companion: Any = None
    closed: bool = field(default=False, repr=False)

    def game_now(self) -> int:
        return box_now_us() + self.box.time_offset_us

    def run(self, *, realtime: bool = True, seconds: float | None = None, keyboard: KeyboardSource | None = None,
            fps: int = 60, to_game_us: int | None = None) -> RunResult | None:
        """Play until the game ends, ``seconds`` pass, Esc, Ctrl+C or SIGTERM;
        None when it was stopped. Closes the game in every case."""
        from controller.display.loop import run

        target: Session | Box = self.session if self.session is not None else self.box
        if realtime and (self.session is None or to_game_us is not None):
            # the sources' stated report delay is checked on every delivery from
            # now on; simulated players stamp on their session's own timeline
            # (unless it follows the box clock), so their lateness means nothing
            self.box.measure_report_delay(box_now_us)
        if self.session is None:
            self.box.bound_logs()  # people play for hours: the journal keeps everything, memory the newest
        # simulated players keep the session's own timeline; people play on the box's
        start = self.box.now_us if self.session is not None else self.game_now()
        until = None if seconds is None else start + int(seconds * 1_000_000)
        try:
            with stop_on_sigterm():
                signals.check()  # a signal held during start-up stops the game now, through its close
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
        with signals.held(raise_after=False):  # a signal now must not cut the close short
            self._close()

    def _close(self) -> None:
        stop_companion(self)
        try:
            self.presenter.close()
        finally:
            try:
                if self.source is not None and self.owns_source:
                    self.source.stop()
            finally:
                box = self.box
                # every press taken is journaled before the end
                box.end(box.now_us if self.session is not None else max(self.game_now(), box.now_us))

    def summary_line(self, result: RunResult | None) -> str:
        """One line for the terminal and the log: how it ended and the scores."""
        return summary_line(self.box, "stopped" if result is None else result.reason)


#: how a run ended (``RunResult.reason``, or "stopped" for Ctrl+C and SIGTERM), in words
ENDED_WORDS = {
    "finished": N_("the game is over"), "time": N_("its time was up"), "menu": N_("the host went back to the menu"),
    "quit": N_("the window was closed"), "stopped": N_("stopped (Ctrl+C or SIGTERM)"),
}


def how_it_ended(reason: str) -> str:
    return _(ENDED_WORDS[reason]) if reason in ENDED_WORDS else reason


def summary_line(box: Box, reason: str) -> str:
    """"Quiz: the game is over; scores: Red 3, Blue 1" for the terminal and the log."""
    return _("{title}: {how}; {scores}").format(title=_(box.spec.title), how=how_it_ended(reason),
                                                 scores=scores_line(box, box.summary()))


def scores_line(box: Box, summary: dict[str, Any]) -> str:
    """"scores: Red 3, Blue 1" (the names people see), best first."""
    scores = summary.get("scores")
    if not isinstance(scores, list) or not scores:
        return _("scores: {scores}").format(scores=scores)
    pairs = sorted(((box._name(i), s) for i, s in enumerate(scores)), key=lambda p: -p[1] if isinstance(p[1], int | float) else 0)
    return _("scores: {list}").format(list=", ".join(f"{name} {score}" for name, score in pairs))


def presenter_for(box: Box, screen: Screen, *, lights: Lights | None, sound: Sound | None,
                  colors: Sequence[Color] | None) -> Presenter:
    from controller.display.loop import Presenter

    return Presenter(screen, scene_for(box.spec.name, colors), lights=lights, sound=sound)


def live_game(box: Box, screen: Screen, *, source: Source | None, profile: Profile | None, relay: Relay,
              lights: Lights | None, sound: Sound | None, colors: Sequence[Color] | None,
              owns_source: bool = True, session: Session | None = None) -> LiveGame:
    """A game played in this process on this screen (``--one-process``, the
    menu's bot games): ``play`` and the menu start theirs so.
    People's inputs reach the box only once it is guarded and levelled; a bot
    game (``session``) takes none."""
    if session is None:
        if source is not None and profile is not None:
            connect(box, source, profile)
        relay.target = box
    presenter = presenter_for(box, screen, lights=lights, sound=sound, colors=colors)
    return LiveGame(box, presenter, source, owns_source=owns_source, session=session)


#: how long the keyboard stations' keys stay on screen at the start of a game (game time)
KEYS_HINT_US = 30_000_000


def show_keys(presenter: Presenter, players: int) -> None:
    """Keyboard stations: which key is whose, below the station strip for the
    game's first half minute, in space of its own (drawn over the picture it
    hid the question and the timer); the help overlay lists every key, any time.
    The keys go left to right as the strip's cells do, so the line names the
    keys, not the players (eight names did not fit a 1280-wide screen)."""
    import pygame

    from controller.sources.keyboard import BELL_KEYS

    keys = [pygame.key.name(k) for k in BELL_KEYS[:players]]
    scene = presenter.scene
    scene.footer = _("keys {keys}: one per station, left to right · h shows every key").format(keys=key_runs(keys))
    scene.footer_until_us = KEYS_HINT_US


def key_runs(keys: Sequence[str]) -> str:
    """'1–9, 0, f1–f6': runs of keys whose names count up (1, 2, 3 / f1, f2) written as ranges."""
    runs: list[list[str]] = []
    for key in keys:
        prev = runs[-1][-1] if runs else None
        if prev is not None and _next_key(prev) == key:
            runs[-1].append(key)
        else:
            runs.append([key])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}–{run[-1]}" for run in runs)


def _next_key(name: str) -> str | None:
    """The key name after ``name`` when it ends in a number ('f1' -> 'f2', '8' -> '9')."""
    stem = name.rstrip("0123456789")
    digits = name[len(stem):]
    return f"{stem}{int(digits) + 1}" if digits else None


# -- the companion pages (--web) -------------------------------------------------------------


def start_companion(game: LiveGame, port: int | None, profile: Profile | None = None) -> None:
    """``--web [PORT]``: serve the phones' pages for this game (None: off).
    The server only enqueues into the box and reads what the loop publishes;
    a name the host types there is kept for ``profile``'s next games."""
    if port is None:
        return
    from controller.web.attach import serve

    game.companion = serve(game.box, [game.presenter.scene, game.presenter.results], port,
                           on_rename=lambda seat, name: keep_name(profile, seat, name))
    answer_box_keys(game.presenter, game.companion)


class RelayedPhones:
    """The phones' server in the split design (docs/processes.md), in the
    screen's process: it serves the snapshots the deciding process sends;
    what phones and the host page send goes back to it as stamped inputs
    (through ``view``, a ``viewer.ViewBox``). The seats' codes, the PIN and
    the replay counters go to the deciding process whenever they change, on
    the screen's private channel: a screen it starts again (the first one
    died) serves the same phones with them (``restored``)."""

    def __init__(self, presenter: Presenter, view: Any, server: CompanionServer, publisher: Any,
                 owns_server: bool = True) -> None:
        self.view = view
        self.server = server
        self.publisher = publisher
        self.owns_server = owns_server  # False: the menu's server, kept for its next games
        self._told: Any = None  # the channel the deciding process was last told the secrets on
        server.on_secrets = self.keep
        answer_box_keys(presenter, server)

    @classmethod
    def serving(cls, presenter: Presenter, port: int, box: Box, view: Any, profile: Profile | None = None) -> RelayedPhones:
        """``play --web [PORT]``: serving before the game is handed over, from ``box`` as the game starts
        (a port that is taken is said before anything began), no move offered until the deciding process runs it."""
        # aiohttp only when --web asks for it
        from controller.web.attach import serve
        from controller.web.views import RelayedPublisher, first_snapshot

        publisher = RelayedPublisher(view, first_snapshot(box))
        server = serve(view, [presenter.scene, presenter.results], port, publisher=publisher,
                       on_rename=lambda seat, name: keep_name(profile, seat, name), end_game=ending(view))
        return cls(presenter, view, server, publisher)

    @classmethod
    def restored(cls, presenter: Presenter, view: Any, first: dict[str, Any]) -> RelayedPhones:
        """A screen the deciding process started again: its first view carries the dead screen's
        ``seats`` (codes, PIN, port) and the pages' snapshot; the phones reconnect and keep their seats."""
        from controller.web.attach import serve
        from controller.web.views import RelayedPublisher, snapshot_from

        secrets = first[channel.SEATS]
        snap = snapshot_from(first[channel.COMPANION])
        publisher = RelayedPublisher(view, snap)
        # the deciding process's own snapshot of now: its moves are taken before the screen's loop runs
        publisher.update(snap, first["public"], first["strip"])
        server = serve(view, [presenter.scene, presenter.results], int(secrets["port"]), publisher=publisher,
                       secrets=secrets, end_game=ending(view))
        return cls(presenter, view, server, publisher)

    def keep(self, secrets: dict[str, Any]) -> None:
        """The seats' codes and the PIN changed: the deciding process keeps them (the server's thread)."""
        self.view.send({"type": channel.SEATS, "seats": secrets})
        self._told = self.view.sock

    def __call__(self, view: Any, message: dict[str, Any]) -> None:
        """A view with the phones' snapshot (``viewer.watch``, the screen's thread)."""
        from controller.web.views import snapshot_from

        if self._told is not view.sock:  # a deciding process (started again) that has not been told them yet
            self.keep(self.server.secrets())
        self.publisher.update(snapshot_from(message[channel.COMPANION]), message["public"], message["strip"])

    def stop(self) -> None:
        self.server.on_secrets = None
        if self.owns_server:
            self.server.stop()


def ending(view: Any) -> Callable[[], None]:
    """The host page's "end": the same ``stop`` as the screen's Esc, sent to the deciding process."""
    return lambda: view.send({"type": channel.STOP, "reason": "menu"})


def answer_box_keys(presenter: Presenter, server: CompanionServer) -> None:
    """The box's own keyboard asks the companion server for what a host page
    can ask (k: the PIN on the big screen for a minute, a co-host logs in;
    every address that sent wrong PINs may try again: a person at the box asked)."""
    presenter.box_actions["show_pin"] = server.box_key_pin


def keep_name(profile: Profile | None, seat: int, name: str) -> None:
    """One player's new name (the host page), kept with the menu's names."""
    names = saved_names(profile)
    names += [""] * (seat + 1 - len(names))
    names[seat] = name
    save_names(profile, names)


def stop_companion(game: LiveGame) -> None:
    if game.companion is not None:
        game.companion.stop()
        game.companion = None
