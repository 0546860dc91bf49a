"""``buzzerbox menu``: the kiosk's start menu. Choose a game, players,
options, start; each game runs through the same live path as ``play``
(journal with its end, lights off, the inputs' rest levels read afresh).

The companion pages (``--web``, or the menu's Phones row) are one server
for the whole session: each game re-binds it, so phones join once. A game
with people is decided in a process of its own as ``play``'s are, its
phones served by that one server (docs/processes.md)."""

from __future__ import annotations

import argparse
import logging
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.apps.results import write_beside
from controller.box import journal as journal_mod
from controller.box import profile as profile_mod
from controller.box import session as box_session
from controller.box.runtime import Box, box_from_journal
from controller.box.simulate import Session
from controller.box.sources.base import Source
from controller.box.timeline import box_now_us
from controller.pack_store import MEDIA_ROOTS, copy_pack, signature, stick_folders, stick_packs
from controller.screen import live
from controller.screen.diag import InputMonitor
from controller.screen.keyboard import KeyboardSource
from controller.web import DEFAULT_PORT
from games.base import BuzzerBoxError, GameSettings, GameSpec
from games.i18n import _
from games.quiz import pack_path
from games.quiz.packs import FoundPack, find_packs, load_pack
from games.registry import available, get
from games.toolkit.theme import Color

if TYPE_CHECKING:
    from controller.screen.loop import RunResult
    from controller.screen.menu import FolderChoice, Menu

log = logging.getLogger("buzzerbox")

#: the relay now lives with the rest of the live-game set-up (play's roll call uses it too)
Relay = live.Relay


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
        saved = copy_pack(Path(str(chosen.value)), self.folder)
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


def stopped_label(spec: GameSpec) -> str:
    """A game ended early, as the Carry on row lists it: its name and when it stopped."""
    return _("{game}, stopped at {time}").format(game=_(spec.title), time=time.strftime("%H:%M"))


def cmd_menu(args: argparse.Namespace) -> int:
    from controller.screen.loop import run_menu
    from controller.screen.menu import Menu, MenuScene, NameEditor, run_name_editor
    from controller.screen.sound import SoundSettings
    from games.toolkit.scene import freeze

    games = []
    for name in available():
        spec = get(name)
        if spec.scene:
            games.append((name, spec.title, spec.min_players, spec.max_players))
    profile = profile_mod.load(args.profile) if getattr(args, "profile", None) else None
    players = len(profile.stations) if profile is not None else args.players
    headless = bool(args.headless)
    if not headless and live.is_headless(args) and not live.driver_chosen():
        raise live.NoDisplayError(live.no_display_found())
    screen = live.open_screen(args, headless)
    packs = PackScan(Path(getattr(args, "packs_dir", None) or box_session.packs_dir()),
                     getattr(args, "media_root", None) or MEDIA_ROOTS)
    menu = Menu(games, players, names=box_session.saved_names(profile), phones=args.web is not None,
                sound=SoundSettings(volume=args.volume, mute=args.mute),  # --mute and --volume reach the games
                found=packs.choices(), rescan=packs, copy_found=packs.copy, categories=packs.categories)
    if headless:
        MenuScene().draw(screen.surface, freeze(menu.view()), [], 0)
        if args.screenshot:
            screen.save(args.screenshot)
            print(_("screenshot: {path}").format(path=args.screenshot))
        return 0
    sound = live.open_sound(args, False, profile)
    from controller.web.attach import MenuCompanion

    def renamed(seat: int, name: str) -> None:
        """A name typed on the host page: this session's next games and the profile's file."""
        menu.names += [""] * (seat + 1 - len(menu.names))
        menu.names[seat] = name
        box_session.save_names(profile, menu.names)

    #: a tournament's room (``--league``, controller/league): Start plays its next match
    league = getattr(args, "league_room", None)
    companion = MenuCompanion(DEFAULT_PORT if args.web is None else args.web, on_rename=renamed,
                              next_game=menu.next_game, on_option=menu.set_option, packs_folder=packs.folder)
    print(_("menu: games with people are journaled in {folder}").format(folder=args.journal_dir), file=sys.stderr)
    relay = live.Relay()
    # the stations' own buttons drive the menu and the games; inputs that will
    # not open stop the menu with one line, as they stop ``play``
    source: Source | None = box_session.open_inputs(profile, relay) if profile is not None else None
    lights = box_session.open_lights(profile, source)
    #: the profile's [keys] (a presenter clicker's): the games' keyboards take them
    clicker_keys = profile.keys if profile is not None else None

    def decided_apart(box: Box, path: Path, resumed: bool, colors: list[Color] | None, phones: bool) -> str | None:
        """A game with people in the split design (docs/processes.md), as
        ``play`` runs it: the deciding process gets the inputs, the lamps and
        the journal for the game, the menu has them back after it. With
        phones the menu's one server serves it (its phones stay joined). None:
        no split (``--one-process``); else how it ended ("stopped" for Ctrl+C
        or SIGTERM)."""
        nonlocal source, lights
        if args.one_process:
            return None
        from controller.screen.viewer import (
            DecidingLink,
            SplitGame,
            follow_board,
            run_split,
            screen_args,
        )

        players = box.settings.players
        hooks = [league.follow] if league is not None else []  # a tournament's match: its board to the hall
        if box.journal is not None:
            box.journal.close()
        if source is not None:
            source.stop()
        lights.close()
        game = SplitGame(path, getattr(args, "profile", None), box.spec, box.settings, not resumed, None,
                         screen_args(box.spec.name, headless=False, fullscreen=getattr(args, "fullscreen", None),
                                     fps=60, players=players, colors=colors, volume=sound.settings.volume,
                                     mute=sound.settings.mute, keyboard=True, keys=clicker_keys),
                         args.viewer_socket, args.feed, web=phones or hooks != [])
        presenter = live.presenter_for(box, screen, lights=None, sound=sound, colors=colors)
        view = DecidingLink(box.spec, box.settings)
        pages = None
        try:
            if phones:  # the session's one server, now fed by the deciding process
                server, publisher = companion.relayed(view, box, [presenter.scene, presenter.results],
                                                      live.ending(view))
                pages = live.RelayedPhones(presenter, view, server, publisher, owns_server=False)
            ended = run_split(game, presenter, KeyboardSource(players, keys=clicker_keys), 60,
                              follow_board(hooks, presenter, box, view, pages), view)
        finally:
            if pages is not None:
                pages.stop()
            source = box_session.open_inputs(profile, relay) if profile is not None else None
            lights = box_session.open_lights(profile, source)
        played = box_from_journal(journal_mod.read(path))
        if pages is not None:
            companion.between(played)
        reason = str(ended["reason"])
        log.info(box_session.summary_line(played, reason))
        write_beside(path)  # a quiz's record beside its journal
        return reason

    def played_here(box: Box, colors: list[Color] | None, phones: bool, session: Session | None = None) -> RunResult | None:
        """A game in this process on the menu's screen (bots, or people with
        ``--one-process``), its phones served by the menu's companion; the
        inputs and lamps stay open for the menu after it. None: Ctrl+C or SIGTERM."""
        game = live.live_game(box, screen, source=source, profile=profile, relay=relay, lights=lights, sound=sound,
                              colors=colors, owns_source=False, session=session)
        if phones:  # the session's one server, moved to this game
            live.answer_box_keys(game.presenter, companion.game(box, [game.presenter.scene, game.presenter.results]))
        result = game.run(realtime=True, keyboard=KeyboardSource(box.settings.players, keys=clicker_keys))
        companion.between()
        relay.target = None
        log.info(game.summary_line(result))
        return result

    try:
        with box_session.stop_on_sigterm():
            cut_off = None if args.fresh else box_session.unfinished_journal(Path(args.journal_dir))
            reason: str | None = None
            if cut_off is not None:  # the power went mid-game: carry on before the menu
                box, _journal = box_session.resumed_box(cut_off, profile)
                print(_("menu: resuming {title} from {file} (it was cut off)").format(title=_(box.spec.title), file=cut_off),
                      file=sys.stderr)
                _names, colors = live.names_colors(profile, box.settings.players, menu.names)
                phones = menu.phones = menu.phones or box.spec.phones_needed(box.settings.options)
                reason = decided_apart(box, cut_off, True, colors, phones)
                if reason == "stopped":
                    raise KeyboardInterrupt
            if cut_off is not None and reason is None:
                result = played_here(box, colors, phones)
                write_beside(cut_off)  # a quiz's record beside its journal
                if result is None:
                    raise KeyboardInterrupt
            while True:
                names, colors = live.names_colors(profile, max(players, 16), menu.names)
                if profile is not None:
                    stations = [(st.name, list(st.inputs)) for st in profile.stations]
                    monitor = InputMonitor(stations, profile.debounce, list(profile.host))
                else:
                    # unnamed keyboard stations: no name here, "Player n" is drawn in the language of each frame
                    monitor = InputMonitor([(menu.names[i].strip() if i < len(menu.names) else "", ["bell"])
                                            for i in range(players)])
                if source is not None:
                    monitor.debouncer.start_all(source.levels(), box_now_us())
                relay.target = monitor
                choice = run_menu(screen, menu, keyboard=KeyboardSource(players), monitor=monitor)
                relay.target = None
                if choice is None:
                    if menu.escape():  # the second Esc in a row: the host means it
                        break
                    continue  # the first: the menu asks, drawn by the next run_menu
                if choice.carry_on is not None:  # a game ended early this evening: on where it stopped
                    path = Path(choice.carry_on)
                    menu.carried_on(choice.carry_on)
                    try:
                        box, _journal = box_session.resumed_box(path, profile, carry_on=True)
                    except BuzzerBoxError as exc:
                        menu.refuse(exc)
                        continue
                    _names, colors = live.names_colors(profile, box.settings.players, menu.names)
                    phones = menu.phones or box.spec.phones_needed(box.settings.options)
                    reason = decided_apart(box, path, True, colors, phones)
                    if reason is None:  # --one-process
                        result = played_here(box, colors, phones)
                        write_beside(path)
                        reason = "stopped" if result is None else result.reason
                    if reason == "stopped":
                        raise KeyboardInterrupt
                    if reason == "quit":
                        break
                    if reason == "menu":
                        menu.stopped_game(str(path), stopped_label(box.spec))
                    continue
                if choice.edit_names:  # typed on the keyboard, kept for the next start
                    menu.names = run_name_editor(screen, NameEditor(menu.names, choice.players, box_session.NAME_LENGTH),)
                    box_session.save_names(profile, menu.names)
                    continue
                sound.settings = choice.sound
                if league is not None and not choice.bots:  # a tournament's room: Start plays its next match
                    choice = league.take(choice)
                spec = get(choice.game)
                options = {**spec.demo_options, **choice.options} if choice.bots else choice.options
                settings = started_settings(menu, spec, choice.players, options, None if choice.bots else profile)
                if settings is None:
                    continue  # refused: the menu says why
                # named now, in the language the host may just have picked in the menu ("Hráč 5", not "Player 5")
                names, colors = live.names_colors(profile, max(players, 16), menu.names)
                station_names = (names or None) and names[: choice.players]
                if choice.bots:
                    box = Box(spec, settings, station_names=station_names)
                    session: Session | None = Session(box, spec.new_bots(settings), spec.new_host(settings), settings.seed)
                else:
                    if profile is not None and source is not None and not live.roll_call(
                            screen, profile, source, relay, KeyboardSource(choice.players)):
                        continue  # Esc in the roll call: back to the menu
                    path = (league.path if league is not None and league.path is not None
                            else box_session.new_journal_path(Path(args.journal_dir), choice.game))
                    box = box_session.new_box(spec, settings, profile, path, station_names=station_names)
                    if league is not None and args.one_process:
                        league.watch(box)
                    log.info("journal: %s", path)
                    session = None
                    reason = decided_apart(box, path, False, colors, bool(choice.phones))
                    if reason is not None and league is not None:
                        league.done()  # its result, from the journal
                    if reason == "stopped":
                        raise KeyboardInterrupt
                    if reason == "quit":
                        break
                    if reason == "menu" and league is None:  # ended early by the host: the menu offers to carry on
                        menu.stopped_game(str(path), stopped_label(spec))
                    if reason is not None:
                        continue
                result = played_here(box, colors, bool(choice.phones), session)
                if session is None:
                    write_beside(path)  # a quiz's record beside its journal
                    if league is not None:
                        league.done()  # its result, from the journal
                if result is None:  # Ctrl+C or SIGTERM: closed; the command line says "stopped"
                    raise KeyboardInterrupt
                if result.reason == "quit":
                    break
    finally:
        companion.stop()
        if source is not None:
            source.stop()
        sound.close()
        screen.close()
    return 0
