"""A session's plumbing, shared by every way a game starts (``play``, ``play
--resume``, the kiosk menu, the real-time demo, the deciding process):
settings -> box -> journal -> sources -> close. The screen's side (window,
presenter, phones' server) is ``controller/screen/live.py``.

Closing always writes the journal's ``end`` record, turns every light off and
stops the sources, whether the game ended, the host pressed Ctrl+C or the
kiosk was stopped with SIGTERM; the caller then prints one summary line.
"""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import sys
import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from controller import protocol
from controller.box import journal as journal_mod
from controller.box import media
from controller.box.checkpoint import CheckpointError
from controller.box.journal_format import FORMAT_VERSION, parse_header
from controller.box.journal_writer import JournalLocked, steady_lock_holder
from controller.box.lights import GpioLights, Lights, NoLights
from controller.box.press import Edge, InputNotice, Press, Watermark
from controller.box.profile import Profile
from controller.box.runtime import (
    Box,
    box_from_journal,
    checkpoint_state,
    header_game,
    names_of,
    newest_checkpoint,
    session_header,
)
from controller.box.sources.base import InputSink, Source, SourceError
from controller.box.timeline import box_now_us
from controller.box.views import GameAtStart, Snapshot, first_snapshot, won_by
from controller.system import signals
from games.base import STATION_CHOICES, BuzzerBoxError, GameSettings, GameSpec, OptionError
from games.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _
from games.registry import get as get_game
from games.rules_version import as_played

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
    Ctrl+C is an interruption, exit 130 (controller/system/signals.py)."""
    return signals.received() == signal.SIGTERM


def stop_on_sigterm() -> AbstractContextManager[None]:
    """SIGTERM, SIGINT, SIGHUP and SIGQUIT end a game like Ctrl+C: through the
    same close, so the journal gets its end and the lights go off (the
    command line installs them first; an in-process caller gets them here)."""
    return signals.handled()


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


def save_names(profile: Profile | None, names: Sequence[str]) -> str | None:
    """Keep the menu's names for the next start (beside the journals): the
    deciding process's to write (``controller/box/owner.py``). None, or the
    line saying why they could not be kept (they hold for this session)."""
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
        return _("the players' names could not be kept in {path} ({error}): they hold until the box stops; "
                 "check the card").format(path=path, error=exc.strerror or exc.__class__.__name__)
    return None


#: the first start's marker and its choices (``controller/apps/first_run.py``), beside the journals' folder
SETUP_FILE = "first-run.json"


def setup_path() -> Path:
    """``$XDG_DATA_HOME/buzzerbox/first-run.json``."""
    return journal_dir().parent / SETUP_FILE


def save_setup(language: str | None, profile: str | None) -> str | None:
    """The first start's marker with its choices (the screens' language, the
    wiring profile; None: keyboard stations): the deciding process's to write
    (``controller/box/owner.py``), as the names are. None, or the line saying
    why they could not be kept (the walk-through shows again at the next start)."""
    if language is not None and language not in LANGUAGES:
        shipped = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)  # as ``--lang`` says it
        return _("{code!r} is not a language the box speaks; use one of: {shipped}").format(
            code=language[:20], shipped=shipped)
    path = setup_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"done": True, "language": language, "profile": profile},
                                  ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:  # a read-only card: the walk-through shows again next start
        log.warning("could not save the first start's choices in %s: %s", path, exc)
        return _("the first start's choices could not be kept in {path} ({error}): the walk-through shows again "
                 "at the next start; check the card").format(path=path, error=exc.strerror or exc.__class__.__name__)
    return None


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


class Relay:
    """The stations' source is opened once; this hands its deliveries to
    whatever runs now: the roll call's or the menu's monitor, or the game's
    box (nothing meanwhile: a box connected later reads the levels afresh)."""

    def __init__(self) -> None:
        self.target: Any = None
        #: called after each edge, press or notice delivered to the target (None: nothing): the watch of
        #: the stations between games sleeps until something can change and a delivery is one (a game's
        #: box wakes its deciding thread itself: ``InputLayer.arrived``)
        self.woken: Callable[[], None] | None = None

    def edge(self, edge: Edge, precision_us: int) -> None:
        if self.target is not None:
            self.target.edge(edge, precision_us)
            self._woken()

    def press(self, press: Press) -> None:
        if self.target is not None:
            self.target.press(press)
            self._woken()

    def notice(self, notice: InputNotice) -> None:
        if self.target is not None:
            self.target.notice(notice)
            self._woken()

    def watermark(self, mark: Watermark) -> None:
        if self.target is not None:
            self.target.watermark(mark)  # (no wake: a monitor decides nothing by them; a board sends one a heartbeat)

    def _woken(self) -> None:
        woken = self.woken
        if woken is not None:
            woken()


def quiet_gpio_fallbacks(verbose: int) -> None:
    """gpiozero warns once per pin factory it cannot load (eight lines on a
    laptop) before the one error that matters; shown with -v (the command's
    and the deciding process's, which opens the inputs of ``play``)."""
    if verbose == 0:
        warnings.filterwarnings("ignore", module=r"gpiozero(\.|$)")
        warnings.filterwarnings("ignore", message=r"Falling back from ")


def open_inputs(profile: Profile, sink: InputSink, feed: str | None = None) -> Source:
    """Open the profile's source and start it delivering to ``sink``; with
    ``feed`` (a FIFO: ``controller/box/feed.py``), on mock pins driven from it."""
    from controller.box.sources import open_source

    factory = None
    if feed is not None:
        from controller.box.feed import Feed, feed_factory
        from controller.box.sources.gpio import GpioSource

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
            source.adopt(reader)  # the box asks it how far it has delivered (``live.connect``)
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
    """The newest journal of a game with people in ``folder`` if it has no
    ``end`` record yet: a crash or a power cut stopped it mid-game. A demo's
    journal (simulated players, ``DEMO_MODE``) written since does not hide it."""
    try:
        journals = sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return None
    for newest in journals:
        try:
            journal = journal_mod.read(newest, since_checkpoint=True)  # whether it ended: no need to hold every record
        except BuzzerBoxError as exc:
            log.warning("not resuming %s: %s", newest, exc)
            return None
        session = journal.session
        if session is not None and session.mode == DEMO_MODE:
            continue
        return newest if session is not None and session.mode == "play" and not journal.ended else None
    return None


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


#: the journal's mode of a live game simulated players played (``demo``, the menu's): never resumed as people's
DEMO_MODE = "demo"


def new_box(spec: GameSpec, settings: GameSettings, profile: Profile | None, journal: str | Path | None,
            station_names: Sequence[str] | None = None, *, wall_clock: Callable[[], float] = time.time,
            mode: str = "play") -> Box:
    """A box for people (``mode`` "demo": simulated players'): its own timeline starts now at 0, every input journaled."""
    kinds = profile.station_kinds()[: settings.players] if profile is not None else None
    if journal is not None:  # its pictures beside it, by content: a replay elsewhere shows them (docs/journal.md)
        settings = media.kept_with_journal(settings, Path(journal).absolute().parent)
    box = Box(spec, settings, kinds, debounce=profile.debounce if profile is not None else None,
              station_names=station_names)
    if journal is not None:
        box.journal = journal_mod.JournalWriter.create(journal, people_header(spec, settings, profile, station_names,
                                                                           mode=mode))
    restart_clock(box, wall_clock=wall_clock)
    return box


def people_header(spec: GameSpec, settings: GameSettings, profile: Profile | None,
                  station_names: Sequence[str] | None = None, mode: str = "play") -> dict[str, Any]:
    """The session header of a new game with people on ``profile``'s stations
    (None: keyboard stations): what ``new_box`` journals (the deciding process);
    ``mode`` "demo": simulated players play it (never resumed by the menu as a game of people's)."""
    kinds = profile.station_kinds()[: settings.players] if profile is not None else None
    return session_header(spec, settings, kinds, station_names, profile.debounce if profile is not None else None,
                          mode=mode, profile=profile.name if profile is not None else None)


def new_game(spec: GameSpec, settings: GameSettings, station_names: Sequence[str] | None = None,
             mode: str = "play") -> protocol.NewGame:
    """A new game as a screen hands it to its deciding process (``protocol.Start``, an evening's
    ``Play``): the deciding process builds its session header (``started_box``)."""
    return protocol.NewGame(spec.name, settings.players, settings.seed, dict(settings.options),
                            None if station_names is None else tuple(station_names), mode)


def started_box(game: protocol.NewGame, profile: Profile | None, journal: str | Path) -> Box:
    """A new game's box from what its screen sent (the deciding process): its
    session header built here, on this process's ``profile``, checked as a
    journal's header is read, then written first; its timeline starts now."""
    try:
        spec = get_game(game.game)
    except LookupError as exc:
        raise journal_mod.JournalError(str(exc)) from None
    settings = GameSettings(players=game.players, seed=game.seed, options=dict(game.options))
    return journaled_box(people_header(spec, settings, profile, game.station_names, mode=game.mode), profile, journal)


def journaled_box(header: Mapping[str, Any], profile: Profile | None, journal: str | Path) -> Box:
    """A new game's box from its session ``header`` (checked as a journal's
    header is read): its journal written here, header first, as ``new_box``
    writes it; its timeline starts now."""
    session = parse_header({**header, "type": "session", "version": FORMAT_VERSION})
    try:
        spec = get_game(session.game)
    except LookupError as exc:
        raise journal_mod.JournalError(str(exc)) from None
    settings = as_played(spec, session.settings, session.rules)
    return new_box(spec, settings, profile, journal, station_names=session.station_names, mode=session.mode or "play")


def check_matches(path: str | Path, profile: Profile | None, game: str | None) -> None:
    """The journal is this game on this profile's stations (a JournalError says what differs)."""
    if profile is None and game is None:
        return
    journaled = journal_mod.load(path, head=True)  # its header; the whole file is checked as it is resumed
    session = journaled.session
    assert session is not None
    differences = journal_mod.check_resume(
        journaled, game or session.game,
        None if profile is None else len(profile.stations),
        None if profile is None else profile.station_kinds(),
        None if profile is None else profile.name)
    if differences:
        raise journal_mod.JournalError(_("{path} does not match: {differences}").format(
            path=path, differences="; ".join(differences)))


@dataclass(frozen=True)
class Resumable:
    """A journaled game that may be carried on, as its screen needs it before
    its deciding process resumes it: the game, its settings and names, and
    its pages as its newest checkpoint left it (what the phones see until the
    deciding process's first snapshot). Plain data read from the journal, not a box."""

    spec: GameSpec
    settings: GameSettings
    station_names: tuple[str, ...]
    pages: Snapshot


def resumable(path: str | Path, profile: Profile | None = None, game: str | None = None, *,
              carry_on: bool = False) -> Resumable:
    """A journaled game as its screen needs it (settings, names, where it
    stood), read only and without a box: the session header, and the engine
    of the newest checkpoint (none: the game as it starts) for the phones'
    pages until the deciding process's first snapshot; the records after it
    are replayed by the deciding process alone. The checks said before the
    game is handed over: this game on these stations, not damaged, not being
    written by another box, not ended (``carry_on``: a game ended early goes
    on; whether it was played to its end the deciding process says as it
    takes it, ``resumed_box``, in the same one line)."""
    p = Path(path)
    check_matches(p, profile, game)
    journal = journal_mod.read(p, since_checkpoint=True)
    with open(p, "rb") as f:
        holder = steady_lock_holder(f.fileno())
    if holder is not None:
        raise JournalLocked(p, holder)
    if not journal.unsaved_lines and not carry_on:
        journal_mod.refuse_ended(journal)
    spec, settings = header_game(journal)
    header = journal.session
    assert header is not None
    engine, names = spec.new_engine(settings), names_of(settings, header.station_names)
    newest = newest_checkpoint(journal)
    if newest is not None:
        checkpoint = journal.records[newest]
        assert isinstance(checkpoint, journal_mod.CheckpointRecord)
        try:
            state = checkpoint_state(checkpoint, engine)
            engine, names = state["engine"], [str(n) for n in state["station_names"]]
        except (CheckpointError, KeyError, TypeError) as exc:  # the deciding process replays it whole
            log.info("%s: the pages show the game as it starts until its deciding process's first (%s)", p, exc)
    at = GameAtStart(spec, settings, engine, names)
    return Resumable(spec, settings, tuple(names), first_snapshot(at))


def starting_pages(spec: GameSpec, settings: GameSettings, station_names: Sequence[str] | None) -> Snapshot:
    """A new game's pages as it starts (offering no move): the phones' view until its deciding process's first."""
    return first_snapshot(GameAtStart.new(spec, settings, names_of(settings, station_names)))


def box_of_record(path: str | Path, journal: journal_mod.Journal | None = None) -> Box:
    """Where a journaled game stands (scores, names, finished), read only: its
    newest checkpoint and the records after it, so a game's close costs the
    same after an hour as after a minute (``journal``: read already with
    ``since_checkpoint``). A checkpoint that does not restore: the whole journal."""
    journal = journal_mod.read(path, since_checkpoint=True) if journal is None else journal
    try:
        return box_from_journal(journal, from_checkpoint=True)
    except CheckpointError:  # said in the log: the whole journal, read again
        return box_from_journal(journal_mod.read(path))


def resumed_box(path: str | Path, profile: Profile | None = None, game: str | None = None,
                *, wall_clock: Callable[[], float] = time.time,
                carry_on: bool = False, checked: bool = False) -> tuple[Box, journal_mod.Journal]:
    """The box of a journaled game, rebuilt, appending to the same journal and
    carrying on a second after its last moment, whatever the clock did meanwhile
    (restarted at 0 after a power cut, or ran on). The journal is locked first
    (one writer at a time) and must be this game on this profile's stations.
    ``carry_on``: a game the host ended before its end goes on too (the
    scores and the question where it stopped); one played to its end does not.
    ``checked``: the lines before the newest checkpoint were checked already (the
    deciding process: its screen checked the whole chain, ``resumable``, or this
    game's deciding processes wrote them): that checkpoint is found from the end
    and only it and what follows are read, whatever the journal's length."""
    check_matches(path, profile, game)
    # a restart replays only since the newest checkpoint
    journal, writer = journal_mod.resume(path, carry_on=carry_on, since_checkpoint=True, checked=checked)
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
        box.edge_readers.append(reader)
    now_us = box_now_us() + box.time_offset_us
    box.follow_source(source.name, watermarks=source.sends_watermarks,
                      probe=None if reader is None else reader.take_waiting,  # reads what waits itself
                      probe_lag_us=0 if reader is None else reader.lag_us,
                      ask=getattr(source, "ask_watermark", None), now_us=now_us)
    box.debouncer.start_all(source.levels(), now_us)
    follow_lockout = getattr(source, "follow_lockout", None)  # an input board that lights the first lamp itself
    if follow_lockout is not None:
        follow_lockout(box)


def disconnect(source: Source) -> None:
    """The game ``connect`` joined to ``source`` is over and the source is kept
    (an evening's next game reads it): an input board lets go of its contests."""
    unfollow = getattr(source, "unfollow_lockout", None)
    if unfollow is not None:
        unfollow()


#: how a run ended (``RunResult.reason``, or "stopped" for Ctrl+C and SIGTERM), in words
ENDED_WORDS: dict[str, str] = {  # an EndReason, or the in-process loop's same words
    protocol.EndReason.FINISHED: N_("the game is over"), protocol.EndReason.TIME: N_("its time was up"),
    protocol.EndReason.MENU: N_("the host went back to the menu"), protocol.EndReason.QUIT: N_("the window was closed"),
    protocol.EndReason.STOPPED: N_("stopped (Ctrl+C or SIGTERM)"),
}


def how_it_ended(reason: str) -> str:
    return _(ENDED_WORDS[reason]) if reason in ENDED_WORDS else reason


def played_of(box: Box) -> protocol.Played:
    """A closed game as the screen's side reads it (its summary line, the
    menu's "This evening" row, ``--json``): sent in ``Ended`` by the deciding process."""
    engine = box.engine
    ask = getattr(engine, "outcome", None)  # a game without one (a test's) has none to tell
    outcome = ask() if ask is not None else None
    scores = list(outcome.scores) if outcome is not None else list(engine.summary().get("scores") or [])
    view = engine.public_view()
    question, total = view.get("question"), view.get("questions_total")
    return protocol.Played(
        box.spec.name, tuple(box.station_names), bool(engine.finished), box.summary(), tuple(scores),
        None if outcome is None else tuple(outcome.winners),
        question if type(question) is int else None, total if type(total) is int else None,
        tuple(won_by(engine, box.station_names)))


def played_from_journal(path: str | Path) -> protocol.Played:
    """How a journaled game closed, read from its journal (a game its screen
    stopped, whose deciding process's ``Ended`` it did not wait to read)."""
    return played_of(box_of_record(path))


def summary_line(played: protocol.Played, reason: str) -> str:
    """"Quiz: the game is over; scores: Red 3, Blue 1" for the terminal and the log."""
    return _("{title}: {how}; {scores}").format(title=_(get_game(played.game).title), how=how_it_ended(reason),
                                                 scores=scores_line(played.names, played.summary))


def scores_line(names: Sequence[str], summary: Mapping[str, Any]) -> str:
    """"scores: Red 3, Blue 1" (the names people see), best first."""
    scores = summary.get("scores")
    if not isinstance(scores, list) or not scores:
        return _("scores: {scores}").format(scores=scores)
    pairs = sorted(((names[i] if 0 <= i < len(names) else f"station {i}", s) for i, s in enumerate(scores)),
                   key=lambda p: -p[1] if isinstance(p[1], int | float) else 0)
    return _("scores: {list}").format(list=", ".join(f"{name} {score}" for name, score in pairs))


#: how long the keyboard stations' keys stay on screen at the start of a game (game time)
KEYS_HINT_US = 30_000_000


def keep_name(profile: Profile | None, seat: int, name: str) -> None:
    """One player's new name (the host page), kept with the menu's names."""
    names = saved_names(profile)
    names += [""] * (seat + 1 - len(names))
    names[seat] = name
    save_names(profile, names)
