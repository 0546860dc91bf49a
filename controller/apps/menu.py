"""``buzzerbox menu``: the kiosk's start menu. Choose a game, players,
options, start; each game runs through the same live path as ``play``
(journal with its end, lights off, the inputs' rest levels read afresh).
One deciding process holds the inputs, lamps and journals for the whole
evening (``screen.evening``): the menu's process opens no input.

The companion pages (``--web``, or the menu's Phones row) are one server
for the whole evening, a process of its own (``web.process``, started with
the first game with phones, started again at once if it dies, on the same
port and seats): a peer of the evening's deciding process, which tells it
each game with people it decides and keeps its seats, so phones join once. Between games its host page shows the
menu's next game; what the host asks there (start it, an option, a name)
comes to the menu through the evening's process (docs/processes.md).
Simulated players' games with phones are served in the menu's process."""

from __future__ import annotations

import argparse
import base64
import functools
import json
import logging
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.apps import first_run
from controller.apps.usb_copy import copy_results
from controller.box import profile as profile_mod
from controller.box import session as box_session
from controller.box.journal_format import JournalError
from controller.box.journal_writer import JournalWriter, unsaved_line
from controller.box.monitor import InputMonitor
from controller.box.timeline import box_now_us
from controller.pack_store import (
    MEDIA_ROOTS,
    Saved,
    copy_pack,
    save_pack,
    signature,
    stick_folders,
    stick_packs,
)
from controller.peer import given_or_private
from controller.protocol import (
    NOT_BEGUN,
    Answered,
    Bots,
    EndReason,
    HostRenamed,
    NewGame,
    NextGame,
    Played,
    SaveNames,
    SetOption,
    StartNext,
    UploadPack,
    View,
)
from controller.screen import live
from controller.screen.evening import (
    NOT_ASKED,
    EveningLink,
    EveningProcess,
    EveningRefused,
    EveningStations,
)
from controller.screen.keyboard import KeyboardSource
from controller.screen.loop import BACK_HINT
from controller.web import DEFAULT_PORT, WebError
from games.base import BuzzerBoxError, GameSettings, GameSpec
from games.i18n import _, current_language, set_language
from games.quiz import pack_path
from games.quiz.packs import FoundPack, find_packs, load_pack
from games.registry import available, get
from games.toolkit.theme import Color

if TYPE_CHECKING:
    from controller.box.views import Snapshot
    from controller.screen.menu import Choice, EveningGame, FolderChoice, Menu
    from controller.screen.screen import Screen
    from controller.screen.viewer import DecidingLink
    from controller.web.process import PhonesProcess

log = logging.getLogger("buzzerbox")

def folder_choices(folder: Path) -> list[FolderChoice]:
    """The packs folder's packs as the menu's pack row offers them (checked as `pack check` does)."""
    return _choices(find_packs(folder), stick=False)


def _choices(found: Sequence[FoundPack], stick: bool) -> list[FolderChoice]:
    from controller.screen.menu import FolderChoice
    return [FolderChoice(str(f.path), f.title, f.questions, f.problems, f.left_out, stick) for f in found]


class PackScan:
    """The menu's packs: the packs folder's, then those of the USB sticks
    mounted under ``media_roots``; read again (through the checker) only
    when a pack file's name, size or time changed, or a stick came or went."""

    def __init__(self, folder: Path, media_roots: Sequence[str | Path] = MEDIA_ROOTS) -> None:
        self.folder = folder
        #: who saves a pack copied off a stick in the folder: the evening's deciding process, which owns it
        #: (``Evening.upload_pack``); in this process only where no evening runs (a test of the rows)
        self.save: Callable[[str, bytes], Saved] = functools.partial(save_pack, folder)
        self.media_roots = list(media_roots)
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self._categories: dict[tuple[str, int], list[str]] = {}

    def choices(self) -> dict[str, list[FolderChoice]]:
        """Every pack as the pack row offers it: the folder's first."""
        self._seen = signature([self.folder, *stick_folders(self.media_roots)])
        return {"pack": folder_choices(self.folder) + _choices(stick_packs(self.media_roots), stick=True)}

    def __call__(self) -> dict[str, list[FolderChoice]] | None:
        """The menu's cheap look (``Menu.poll``): None when nothing changed."""
        if signature([self.folder, *stick_folders(self.media_roots)]) == self._seen:
            return None
        return self.choices()

    def categories(self, value: object) -> list[str]:
        """The categories of the pack the pack row holds (a shipped pack's
        name or a file's path): none for "host's own" or a pack that will not
        read. Read once per pack and file time: the rows are built often."""
        if not isinstance(value, str):
            return []
        path = pack_path(value)
        try:
            key = (str(path), path.stat().st_mtime_ns)
        except OSError:
            return []
        if key not in self._categories:
            try:
                self._categories[key] = load_pack(path).categories()
            except BuzzerBoxError:
                self._categories[key] = []
        return self._categories[key]

    def copy(self, chosen: FolderChoice) -> tuple[str | None, list[str]]:
        """A stick's pack into the packs folder (the menu's C): its new value and what happened."""
        saved = copy_pack(Path(str(chosen.value)), self.save)
        return (str(saved.path) if saved.path is not None else None), list(saved.lines)


def started_settings(menu: Menu, spec: GameSpec, players: int, options: Mapping[str, Any],
                     profile: profile_mod.Profile | None, seed: int | None = None) -> GameSettings | None:
    """The settings of the game Start chose, on ``profile``'s stations; None
    when the game refuses them (all-play on bell-only stations, a round left
    without questions, a pack changed since the menu listed it): the menu
    shows the refusal beside its rows, so Start never silently does nothing."""
    try:
        return box_session.game_settings(spec, players, box_session.new_seed() if seed is None else seed, options, profile)
    except BuzzerBoxError as exc:
        log.warning("%s", exc)
        menu.refuse(exc)
        return None


def evening_game(played: Played, journal: str) -> EveningGame:
    """A game back at the menu (``played``: as it closed), as the "This
    evening" row and the host page list it: played to its end (who won), or
    ended early (where it stopped), each with the standings."""
    from controller.screen.menu import EveningGame

    names, scores = list(played.names), list(played.scores)
    order = sorted(range(len(scores)), key=lambda p: (-scores[p], p))
    question = played.question if not played.finished else None
    return EveningGame(
        journal, get(played.game).title, time.strftime("%H:%M"), played.finished,
        winners=played.won_by,
        standings=tuple((names[p] if p < len(names) else str(p + 1), scores[p]) for p in order),
        question=(question, played.questions_total) if question else None)


def set_up_as(args: argparse.Namespace) -> str | None:
    """The wiring profile the menu starts with: the command line's, else the
    one the first start chose (then its language too, unless --lang says
    another); None: keyboard stations."""
    given = getattr(args, "profile", None)
    setup = first_run.saved()
    if setup is None:
        return str(given) if given else None
    if setup.language is not None and getattr(args, "lang", None) is None:
        set_language(setup.language)
    if given:
        return str(given)
    if setup.profile is not None:
        try:
            profile_mod.load(setup.profile)
        except BuzzerBoxError as exc:  # a profile file gone since: keyboard stations, and the log says why
            log.warning("the wiring chosen at the first start will not load (%s): keyboard stations", exc)
            return None
    return setup.profile


def cmd_menu(args: argparse.Namespace) -> int:
    games = [(name, spec.title, spec.min_players, spec.max_players)
             for name, spec in ((name, get(name)) for name in available()) if spec.scene]
    profile_name = set_up_as(args)
    if profile_name:
        profile_mod.load(profile_name)  # a profile that will not load is refused before a window opens
    headless = bool(args.headless)
    if not headless and live.is_headless(args) and not live.driver_chosen():
        raise live.NoDisplayError(live.no_display_found())
    screen = live.open_screen(args, headless)
    port = DEFAULT_PORT if args.web is None else args.web
    # the evening's one deciding process: the walk-through's test press reads the stations through it already
    with given_or_private(args):  # the evening's peers (its phones' server) connect there all evening
        deciding = EveningProcess(feed=getattr(args, "feed", None), viewer_socket=args.viewer_socket,
                                  packs=packs_folder(args))
        try:
            return menu_evening(args, screen, deciding, games, profile_name, port)
        finally:
            deciding.stop()


def packs_folder(args: argparse.Namespace) -> Path:
    """The packs folder the menu lists and its deciding process writes."""
    return Path(getattr(args, "packs_dir", None) or box_session.packs_dir())


def menu_evening(args: argparse.Namespace, screen: Screen, deciding: EveningProcess,
                 games: list[tuple[str, str, int, int]], profile_name: str | None, port: int) -> int:
    """The first start's walk-through if it is due, then the menu until the host quits."""
    from controller.screen.menu import Menu, MenuScene
    from controller.screen.sound import SoundSettings
    from games.toolkit.scene import freeze

    headless = bool(args.headless)
    profile = profile_mod.load(profile_name) if profile_name else None
    players = len(profile.stations) if profile is not None else args.players
    if not headless and first_run.wanted(bool(getattr(args, "first_run", False)), Path(args.journal_dir)):
        done = first_run.run_first_run(screen, profile=profile_name, players=args.players, port=port,
                                       stations=deciding.on)
        if done is not None:
            profile_name = done.profile
            profile = profile_mod.load(done.profile) if done.profile else None
            players = len(profile.stations) if profile is not None else args.players
    packs = PackScan(packs_folder(args),
                     getattr(args, "media_root", None) or MEDIA_ROOTS)
    menu = Menu(games, players, names=box_session.saved_names(profile), phones=args.web is not None,
                sound=SoundSettings(volume=args.volume, mute=args.mute),  # --mute and --volume reach the games
                found=packs.choices(), rescan=packs, copy_found=packs.copy, categories=packs.categories, jobs=True)
    if headless:
        MenuScene().draw(screen.surface, freeze(menu.view()), [], 0)
        if args.screenshot:
            screen.save(args.screenshot)
            print(_("screenshot: {path}").format(path=args.screenshot))
        return 0
    evening = Evening(args, profile_name, profile, players, screen, menu, packs, deciding)
    try:
        with box_session.stop_on_sigterm():
            evening.run()
    except KeyboardInterrupt:
        if evening.unsaved_error is not None:  # records the card refused: not the normal end, as play's stop
            raise JournalError(evening.unsaved_error) from None
        raise
    finally:
        evening.close()
    return 0


#: how often the menu looks whether its next game changed, for the host page between games
NEXT_LOOK_S = 0.25


class EveningPhones:
    """The evening's phones' server as a game holds it (``viewer.PhonesServer``): it outlives the game."""

    def __init__(self, evening: Evening) -> None:
        self.evening = evening

    def stop(self, wait_s: float = 0) -> None:
        """Nothing: it serves the evening (the menu stops it as the evening ends)."""

    def trouble(self) -> str | None:
        """It died in the game and was started again (``PhonesProcess.keep``): said on the game's screen."""
        phones = self.evening.phones
        return phones.trouble() if phones is not None else None


class Stop(Exception):
    """The host quit the menu (the second Esc, or a game's window closed)."""


class Evening:
    """The menu's evening: its screen, sound, phones' server and its one
    deciding process (``EveningLink``), the games it starts one after the
    other until the host quits. That process holds the profile's inputs and
    lamps all evening: between games it sends the stations' presses to the
    menu's rows, and it decides each game with people (``viewer.people_game``).
    On keyboard stations it has no input to hold: it decides the games, and
    the menu reads its window's keys itself. Simulated players' games are
    played in this process, their lamps dark."""

    def __init__(self, args: argparse.Namespace, profile_name: str | None, profile: profile_mod.Profile | None,
                 players: int, screen: Screen, menu: Menu, packs: PackScan, deciding: EveningProcess) -> None:
        self.args, self.profile, self.players, self.screen, self.menu = args, profile, players, screen, menu
        self.packs = packs
        packs.save = self.upload_pack  # a stick's pack too: the packs folder is the deciding process's
        #: the wiring chosen (the command line's or the first start's): Set up again may change it
        self.profile_name = profile_name
        self.media_roots: Sequence[str | Path] = getattr(args, "media_root", None) or MEDIA_ROOTS
        self.sound = live.open_sound(args, False, profile)
        #: a tournament's room (``--league``, controller/league): Start plays its next match
        self.league = getattr(args, "league_room", None)
        #: said on the menu and the games' screens while their trouble lasts (the tournament's broker out of reach)
        self.asides = [self.league.link.trouble] if self.league is not None else []
        menu.asides.extend(self.asides)
        #: the evening's deciding process died between games and was started again: said on the menu till a game
        self.restart_line: str | None = None
        menu.asides.append(lambda: self.restart_line)
        #: the last game's records the card refused (where they wait): said on the menu till the next game
        self.unsaved_line: str | None = None
        menu.asides.append(lambda: self.unsaved_line)
        #: ... and the same line with the journal's path and the file's: a stop meanwhile exits 1 with it, as play's
        self.unsaved_error: str | None = None
        #: each game this evening played to its end, by journal: its game and the deciding process's last view
        #: (the "This evening" row's results again, drawn without replaying the journal here)
        self.finals: dict[str, tuple[GameSpec, int, View]] = {}
        #: the evening's phones' server, a process of its own (started with the first game with phones)
        self.phones: PhonesProcess | None = None
        #: the port it serves on (the first one's: one started again keeps the address the phones have)
        self.phones_port = DEFAULT_PORT if args.web is None else args.web
        #: the phones' server died and was started again: said on the menu from then on
        self.phones_line: str | None = None
        menu.asides.append(lambda: self.phones_line)
        #: its restarts the menu has seen (``mind_phones``)
        self.phones_restarts = 0
        #: the menu's next game as the host page was last told it (by the evening's process it was told to)
        self.next_told: tuple[int, str] | None = None
        self.next_looked = 0.0
        print(_("menu: games with people are journaled in {folder}").format(folder=args.journal_dir), file=sys.stderr)
        #: the profile's [keys] (a presenter clicker's): the games' keyboards take them
        self.clicker_keys = profile.keys if profile is not None else None
        #: the evening's deciding process (the walk-through may have started it on the wiring it chose)
        self.deciding = deciding
        self.decider: EveningLink | None = None
        # the stations' own buttons drive the menu and the games; inputs that will
        # not open stop the menu with one line, as they stop ``play``
        try:
            self.open_inputs()
        except BaseException:
            self.sound.close()
            raise

    # -- the evening's phones' server (a process of its own) ---------------------------------------
    def serve_phones(self, spec: GameSpec, players: int, first: Snapshot) -> EveningPhones:
        """The evening's phones' server serves the next game (started with the first game with phones,
        and again if it died): the evening's process tells it the game and ``first``, its pages as it starts."""
        from controller.box.views import snapshot_message
        from controller.web.process import PhonesProcess

        assert self.decider is not None
        self.decider.serving_pages = snapshot_message(first)
        self.phones_served = (spec, first)
        if self.phones is None:  # one running speaks the box's language: the evening's process tells it (``SetLanguage``)
            self.phones = PhonesProcess.start(str(self.deciding.viewer_socket), self.phones_port, spec, players,
                                              first, evening=True)
            self.phones_port = self.phones.port
            self.phones_restarts = 0
            print(self.phones.line, file=sys.stderr, flush=True)
        else:
            self.phones.serves(spec, players, first)  # what one started again shows till it is told more
        return EveningPhones(self)

    def mind_phones(self) -> None:
        """Between games: a phones' server that died was said in one line on stderr and started again
        at once, on the same port and seats (``PhonesProcess.keep``, in a game too): said beside the
        menu's rows too, and the new one told the menu's next game; one that could not be started
        again is let go (the next game with phones starts one)."""
        phones = self.phones
        if phones is None or phones.restarts == self.phones_restarts:
            return
        self.phones_restarts = phones.restarts
        self.phones_line = phones.trouble()
        self.next_told = None  # the new one hears the menu's next game
        if phones.gone:
            self.phones = None

    def stop_phones(self) -> None:
        """The evening's phones' server ends (the menu ends)."""
        if self.phones is not None:
            phones, self.phones = self.phones, None
            phones.stop(0)

    def between_games(self) -> Choice | None:
        """Each frame of the menu: what the host page asked through the evening's process (an option, a
        name, "start": the next game, returned), the phones' server minded, the menu's next game told."""
        decider = self.decider
        if decider is None:
            return None
        decider.speak(current_language())  # the host changed the language: it and its phones' server speak it now
        if self.profile is None:  # on keyboard stations nobody else reads the evening's process between games
            decider.poll()
        self.mind_phones()
        asked, decider.asked = decider.asked, []
        start: Choice | None = None
        for message in asked:
            if isinstance(message, SetOption):
                self.menu.set_option(message.key, message.value)
            elif isinstance(message, HostRenamed):
                self.renamed(message.seat, message.name)
            elif isinstance(message, StartNext) and start is None:
                start = self.menu.start()
        if self.phones is not None and time.monotonic() - self.next_looked >= NEXT_LOOK_S:
            self.next_looked = time.monotonic()
            next_game = self.menu.next_game()
            told = (decider.process.pid if decider.process is not None else 0, json.dumps(next_game, default=str))
            if told != self.next_told:
                decider.tell(NextGame(next_game))
                self.next_told = told
        return start

    def renamed(self, seat: int, name: str) -> None:
        """A name typed on the host page: this session's next games and the profile's file."""
        self.menu.names += [""] * (seat + 1 - len(self.menu.names))
        self.menu.names[seat] = name
        self.save_names()

    def save_names(self) -> None:
        """The menu's names kept for the next start, by the evening's deciding process (it owns the
        names file); one it could not keep is said on stderr, the names hold for this session."""
        decider = self.decider  # None while Set up again runs (its walk-through keeps the names it asks)
        answer = decider.ask(SaveNames(tuple(self.menu.names))) if decider is not None else None
        if answer is not None and not answer.accepted:
            print("buzzerbox menu: " + "; ".join(answer.lines), file=sys.stderr)

    def upload_pack(self, name: str, data: bytes) -> Saved:
        """A pack sent from the host page (or copied off a stick): checked and saved by the evening's
        deciding process (it owns the packs folder); its lines are what the host page (the menu) shows."""
        decider = self.decider
        answer = decider.ask(UploadPack(name, base64.b64encode(data).decode())) if decider is not None \
            else Answered(False, (_(NOT_ASKED),))
        return Saved(None if answer.saved is None else self.packs.folder / answer.saved, answer.lines)

    def open_inputs(self) -> None:
        """The evening's deciding process, which opens the profile's inputs and
        lamps; a profile chosen at the first start (not on the command line)
        that will not open here leaves keyboard stations and one line saying
        so, not a kiosk that never starts."""
        args = self.args
        try:
            self.decider = self.evening_process(self.profile_name if self.profile is not None else None)
        except EveningRefused as exc:
            if self.profile_name == getattr(args, "profile", None):  # asked on the command line: as `play`
                raise BuzzerBoxError(str(exc)) from None
            print(_("menu: {problem}; keyboard stations for now (the menu's Set up again row chooses the wiring)")
                  .format(problem=exc), file=sys.stderr)
            self.profile = None
            self.players = args.players
            self.menu.restationed(args.players, box_session.saved_names(None))
            self.decider = self.evening_process(None)

    def evening_process(self, profile: str | None) -> EveningLink:
        """On ``profile``'s inputs (None: keyboard stations): the one already running on them, else a new one."""
        return self.deciding.on(profile)

    def close_inputs(self) -> None:
        """The evening's deciding process ends: its inputs closed, its lamps off."""
        self.deciding.stop()
        self.decider = None

    def close(self) -> None:
        self.stop_phones()
        self.close_inputs()
        self.sound.close()
        self.screen.close()

    # -- the evening -------------------------------------------------------------------------
    def run(self) -> None:
        """The menu until the host quits; a journal the power cut off is carried on first."""
        try:
            cut_off = None if self.args.fresh else box_session.unfinished_journal(Path(self.args.journal_dir))
            if cut_off is not None:  # the power went mid-game: carry on before the menu
                journaled = box_session.resumable(cut_off, self.profile)  # read only: its deciding process resumes it
                spec, settings = journaled.spec, journaled.settings
                print(_("menu: resuming {title} from {file} (it was cut off)").format(title=_(spec.title),
                                                                                     file=cut_off), file=sys.stderr)
                self.menu.phones = self.menu.phones or spec.phones_needed(settings.options)
                if self.people(spec, settings, lambda: journaled.pages, cut_off, self.colors(settings.players),
                               resumed=True, phones=self.menu.phones) == EndReason.STOPPED:
                    raise KeyboardInterrupt
            while True:
                self.one_choice()
        except Stop:
            return

    def one_choice(self) -> None:
        """The menu once, and what the host chose."""
        from controller.screen.menu import NameEditor, run_name_editor

        choice = self.choose()
        if choice is None:
            if self.menu.escape():  # the second Esc in a row: the host means it
                raise Stop
            return  # the first: the menu asks, drawn by the next run_menu
        if choice.carry_on is not None:  # a game ended early this evening: on where it stopped
            self.carry_on(choice.carry_on)
        elif choice.results is not None:  # a game played to its end this evening: its results on the TV again
            self.results(choice.results)
        elif choice.action == "usb":  # the evening's results onto a stick; the menu says what it did
            self.menu.notice = list(copy_results(Path(self.args.journal_dir), self.media_roots).lines)
        elif choice.action == "setup":  # the first start's walk-through again, on the evening's deciding process
            self.set_up_again()
        elif choice.edit_names:  # typed on the keyboard, kept for the next start
            self.menu.names = run_name_editor(self.screen, NameEditor(self.menu.names, choice.players,
                                                                      box_session.NAME_LENGTH))
            self.save_names()
        else:
            self.start(choice)

    def set_up_again(self) -> None:
        """The first start's walk-through again; its wiring and names from now
        on (the evening's deciding process reads the stations for its test
        press: the same one while the wiring stays, a new one on another)."""
        port = DEFAULT_PORT if self.args.web is None else self.args.web
        done = first_run.run_first_run(self.screen, profile=self.profile_name if self.profile is not None else None,
                                       players=self.args.players, port=port, stations=self.deciding.on)
        if done is not None:
            self.profile_name = done.profile
            self.profile = profile_mod.load(done.profile) if done.profile else None
            self.players = len(self.profile.stations) if self.profile is not None else self.args.players
            self.menu.restationed(self.players, box_session.saved_names(self.profile))
        self.clicker_keys = self.profile.keys if self.profile is not None else None
        self.open_inputs()

    def choose(self) -> Choice | None:
        """The menu drawn until Start (or Esc), the stations' inputs shown on it."""
        from controller.screen.loop import run_menu

        profile, menu = self.profile, self.menu
        monitor: InputMonitor | EveningStations
        if profile is not None and self.decider is not None:  # the stations as the evening's process reads them
            monitor = EveningStations(self.decider, box_now_us(), on_restart=self.decider_restarted)
        else:
            # unnamed keyboard stations: no name here, "Player n" is drawn in the language of each frame
            monitor = InputMonitor([(menu.names[i].strip() if i < len(menu.names) else "", ["bell"])
                                    for i in range(self.players)])
        return run_menu(self.screen, menu, keyboard=KeyboardSource(self.players), monitor=monitor,
                        each_frame=self.between_games)

    def decider_restarted(self, line: str) -> None:
        """The evening's deciding process died between games and was started again: the menu says so
        (until the next game starts)."""
        self.restart_line = line

    def carry_on(self, journal: str) -> None:
        path = Path(journal)
        try:
            journaled = box_session.resumable(path, self.profile, carry_on=True)
        except BuzzerBoxError as exc:
            self.menu.refuse(exc)
            return
        spec, settings = journaled.spec, journaled.settings
        reason = self.people(spec, settings, lambda: journaled.pages, path, self.colors(settings.players),
                             resumed=True, carry_on=True,
                             phones=self.menu.phones or spec.phones_needed(settings.options))
        self.ended(reason)

    def results(self, journal: str) -> None:
        """A finished game's results screen again, from its deciding process's
        last view (kept as the game closed: the journal is not replayed in
        this process), until the host is back in the menu."""
        from controller.screen.loop import run_results

        final = self.finals.get(journal)
        if final is None:  # not one this menu saw closed (its deciding process died at the close): one line
            self.menu.refuse(BuzzerBoxError(_("The results of this game are in its journal: "
                                              "'buzzerbox replay {file}' shows them.").format(file=journal)))
            return
        spec, players, view = final
        run_results(live.presenter_for(spec, self.screen, sound=None, colors=self.colors(players)),
                    view, spec)

    def colors(self, players: int) -> list[Color] | None:
        """The stations' colours for a journaled game of ``players`` carried on."""
        return live.names_colors(self.profile, players, self.menu.names)[1]

    def start(self, choice: Choice) -> None:
        """Start as the host chose, people's or simulated players' game: both decided in the evening's
        deciding process and served by the evening's phones' server (``people``)."""
        self.restart_line = self.unsaved_line = self.unsaved_error = None
        self.sound.settings = choice.sound
        if self.league is not None and not choice.bots:  # a tournament's room: Start plays its next match
            try:
                choice = self.league.take(choice)
            except BuzzerBoxError as exc:  # the playoff's next match is not drawn yet: the menu says so
                self.menu.refuse(exc)
                return
        spec = get(choice.game)
        options = {**spec.demo_options, **choice.options} if choice.bots else choice.options
        settings = started_settings(self.menu, spec, choice.players, options, None if choice.bots else self.profile)
        if settings is None:
            return  # refused: the menu says why
        # named now, in the language the host may just have picked in the menu ("Hráč 5", not "Player 5")
        names, colors = live.names_colors(self.profile, max(self.players, 16), self.menu.names)
        station_names = (names or None) and names[: choice.players]
        league = None if choice.bots else self.league
        path = (league.path if league is not None and league.path is not None
                else box_session.new_journal_path(Path(self.args.journal_dir), choice.game))
        try:
            JournalWriter.check_new(path)  # the deciding process writes it (the menu's process never does)
        except BuzzerBoxError as exc:
            self.menu.refuse(exc)
            return
        log.info("journal: %s", path)
        # the deciding process journals it, its header built there (simulated players' too: their presses replay)
        new = box_session.new_game(spec, settings, station_names, mode=box_session.DEMO_MODE if choice.bots else "play")
        # on real stations the deciding process runs the roll call first (Esc there: back to the menu)
        reason = self.people(spec, settings, lambda: box_session.starting_pages(spec, settings, station_names), path,
                             colors, resumed=False, phones=bool(choice.phones), new=new,
                             roll_call=self.profile is not None and not choice.bots, bots=choice.bots)
        if reason == NOT_BEGUN:
            return
        if league is not None:
            league.done()  # its result, from the journal
        self.ended(reason)

    def people(self, spec: GameSpec, settings: GameSettings, first_pages: Callable[[], Snapshot], path: Path,
               colors: list[Color] | None, *, resumed: bool, phones: bool, new: NewGame | None = None,
               carry_on: bool = False, roll_call: bool = False, bots: bool = False) -> EndReason:
        """A game with people (``bots``: simulated players play it, in the deciding
        process, its lamps lit as any game's), started as ``play`` starts one (``viewer.people_game``),
        handed to the evening's deciding process (it holds the inputs and
        lamps, and journals the game: a new one, ``new``, with the header it builds). With phones the menu's one
        server serves it (its phones stay joined), showing ``first_pages()`` until
        the deciding process's first snapshot. How it ended ("stopped":
        Ctrl+C or SIGTERM)."""
        from controller.screen.viewer import GameRefused, SplitGame, people_game, screen_args

        if self.decider is not None:  # the host changed the language: the process that words the phones' pages speaks it
            self.decider.speak(current_language())
        args, league = self.args, None if bots else self.league  # simulated players play no match
        game = SplitGame(path, self.profile_name if self.profile is not None else None, spec, settings, not resumed,
                         None, screen_args(spec.name, headless=False, fullscreen=getattr(args, "fullscreen", None),
                                           fps=60, players=settings.players, colors=colors,
                                           volume=self.sound.settings.volume, mute=self.sound.settings.mute,
                                           keyboard=True, keys=self.clicker_keys),
                         args.viewer_socket, args.feed, web=phones, new_game=new,
                         carry_on=carry_on, roll_call=roll_call, evening=self.decider,
                         bots=Bots() if bots else None)
        presenter = live.presenter_for(spec, self.screen, sound=self.sound, colors=colors)
        presenter.asides.extend(self.asides)
        presenter.results_hint = BACK_HINT  # the final results say how to get back here

        def served(_view: DecidingLink, first: Snapshot) -> EveningPhones:
            """The evening's one phones' server (a process of its own), told this game by the deciding process."""
            return self.serve_phones(spec, settings.players, first)

        # a tournament's match: the league's peer follows it (its board to the hall, its result at the end)
        follower = league.following(path) if league is not None else None
        try:
            ended = people_game(game, presenter, KeyboardSource(settings.players, keys=self.clicker_keys), 60,
                                first_pages=first_pages, phones=served if phones else None)
        except (GameRefused, WebError) as exc:  # not taken (a journal another process writes, a port taken): said
            self.menu.refuse(exc)
            return NOT_BEGUN
        finally:
            if follower is not None and league is not None:
                league.followed(follower)
        reason = ended.reason
        if reason == NOT_BEGUN:  # left in its roll call: nothing was played, nothing journaled
            return reason
        played = ended.played
        log.info(box_session.summary_line(played, reason))
        if ended.ended.results:  # a quiz's record, written beside its journal by the deciding process at the close
            log.info("results: %s", ", ".join(ended.ended.results))
        if ended.ended.unsaved:  # records the card refused: said in the log and beside the menu's rows, not lost
            kept = ended.ended.unsaved_path  # the menu names the file, as the game's screen does; the log its path
            self.unsaved_line = unsaved_line(ended.ended.unsaved, None if kept is None else Path(kept).name)
            self.unsaved_error = f"{path}: {unsaved_line(ended.ended.unsaved, kept)}"
            log.error("%s", self.unsaved_error)
        if played.finished and ended.last.finished:  # its results, as its screen drew them at the end
            self.finals[str(path)] = (spec, settings.players, ended.last)
        if not bots and (played.finished or (reason == EndReason.MENU and self.league is None)):
            # played to its end, or ended early (not a tournament's match): on the "This evening" row
            self.menu.played_game(evening_game(played, str(path)))
        return reason

    def ended(self, reason: EndReason) -> None:
        """After a game: Ctrl+C or SIGTERM stops the menu ("stopped" on the
        command line), a closed window quits it (``people`` listed the game
        on the "This evening" row)."""
        if reason == EndReason.STOPPED:
            raise KeyboardInterrupt
        if reason == EndReason.QUIT:
            raise Stop
