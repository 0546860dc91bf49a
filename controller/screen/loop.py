"""The screen's frame loops and the presenter that draws a game from views.

A live game (people's, or simulated players' in real time) is decided in a
process of its own and drawn by ``controller.screen.viewer`` from the views
it sends (docs/processes.md). Here: the ``Presenter`` (scene, sound, the
lines the room reads), the menu's, the results' and the diagnostics' loops,
and ``run_virtual``: ``demo --headless``, simulated players in virtual time
(a simulation, not a live game: nothing journaled, no lamp), its box drawn
through the view the deciding process would send of it (``draw_box``).

In virtual time the loop jumps from one due moment to the next; when an
engine asks for a ``show`` (a new card, GO), the frame is drawn and flipped
and that moment goes back as ``t_show``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import pygame

from controller.box.clips import Clip, ClipPlayer
from controller.box.monitor import InputMonitor
from controller.box.press import Press
from controller.box.runtime import HOST_CONTINUED, Box
from controller.box.simulate import Session
from controller.box.timeline import box_now_us
from controller.box.views import view_of
from controller.protocol import View
from controller.screen.diag import DiagScene
from controller.screen.keyboard import KeyboardSource
from controller.screen.menu import Choice, Menu, MenuScene
from controller.screen.pause_card import draw_pause_card
from controller.screen.screen import Screen
from controller.screen.sound import Sound
from controller.screen.video import NO_DECODER, VideoScreen, video_fit
from games.base import EventKind, GameEvent, GameSpec
from games.i18n import N_, _, format_number
from games.toolkit.help import HelpOverlay, help_rows
from games.toolkit.results import ResultsScene
from games.toolkit.results_words import results_drawn
from games.toolkit.scene import Scene, VideoPicture, freeze

if TYPE_CHECKING:
    from controller.screen.diag_link import DiagLink
    from controller.screen.evening import EveningStations

log = logging.getLogger("buzzerbox.display")

MESSAGE_US = 2_500_000

#: what the screen asks at the first Esc of a game (the menu asks the same way before it quits)
END_CONFIRM = N_("End the game? Esc again to end, any other key to go on")


@dataclass
class RunResult:
    """How a run ended and what it did (the headless demo prints it)."""

    reason: str  # finished, time, menu, quit
    now_us: int
    frames: int
    events: list[GameEvent] = field(default_factory=list)
    shows: list[tuple[int, int]] = field(default_factory=list)  # (due, flipped) box times
    sounds: list[str] = field(default_factory=list)


#: a standing line's source, asked on every frame: the line while its trouble lasts, else None
Aside = Callable[[], "str | None"]


def aside_line(asides: Sequence[Aside]) -> str | None:
    """The first of ``asides``' lines that has something to say (None: none has)."""
    return next((line for aside in asides if (line := aside())), None)


#: the keys that take a finished game's results screen on (back to the menu); a host key there goes to the game
BACK_KEYS = (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
#: said under a finished game's results in the menu: how the host gets back (``Presenter.results_hint``)
BACK_HINT = N_("Esc or Enter: back to the menu")


def goes_back(event: pygame.event.Event) -> bool:
    """A key that leaves a finished game's results screen (Enter too: no host key, the host's first try)."""
    return event.type == pygame.KEYDOWN and event.key in BACK_KEYS


class Presenter:
    """Screen, scene and sound of one game, drawn from its views (``draw_view``,
    ``react_view``). The lamps are not the screen's: the deciding process lights
    them in the step that decided (docs/processes.md)."""

    def __init__(self, screen: Screen, scene: Scene, *, sound: Sound | None = None,
                 results: Scene | None = None) -> None:
        self.screen = screen
        self.scene = scene
        self.results = results if results is not None else ResultsScene(game_title=scene.title, colors=scene.colors)
        self.sound = sound
        self.frames = 0
        self._message_until = 0
        #: a line said on every frame until it is taken back (None), over any other: the deciding
        #: process starting again (``viewer.run_split``)
        self.standing: str | None = None
        #: lines said on every frame while their trouble lasts, each asked per frame (None: no trouble):
        #: a tournament's box that cannot reach the hall's broker says why (controller/league)
        self.asides: list[Aside] = []
        #: the key list ``h``/``?`` shows over the game (set by ``viewer.watch`` from the keyboard and the spec)
        self.help: HelpOverlay | None = None
        self.show_help = False
        #: host actions the box itself answers, not the game (``show_pin`` with ``--web``):
        #: their keys (``BOX_KEYS``) are bound and listed in the help only while one is set
        self.box_actions: dict[str, Callable[[], None]] = {}
        #: a video question's clip (controller/screen/video.py), driven by the events as the audio clip is
        self.video_screen = VideoScreen(video_fit(screen.surface.get_size()))
        #: the clip's own sound plays where the audio clips play (a mixer, not muted), at their volume
        self.video_sound = sound is not None and sound.clips.music is not None
        self.video = ClipPlayer(self.video_screen, sound.clips.volume if sound is not None else 1.0, keys=("video",))
        if sound is not None:  # F5: the question's clips again from their start (a box always has a Sound)
            self.box_actions["replay"] = self.replay
        #: Esc was pressed once during the game: the screen asks before it ends
        self.confirm_end = False
        #: said under the final results (a catalogue id; the menu's ``BACK_HINT``): how the host goes on
        self.results_hint: str | None = None

    def replay(self) -> None:
        """The host's F5: the question's audio and video clips again from their start."""
        if self.sound is not None:
            self.sound.clips.restart_now()
        self.video.restart_now()

    def end_confirmed(self) -> bool:
        """Esc during a game: True when it is the second in a row (the host
        means it); the first only asks, as the menu does before it quits.
        One key must never end an evening's quiz."""
        if self.confirm_end:
            self.confirm_end = False
            return True
        self.confirm_end = True
        return False

    def draw_view(self, shown: View, spec: GameSpec, now_us: int, surface: pygame.Surface | None = None,
                  frozen: bool = False) -> None:
        """One frame from a ``View`` (the engine's public view, the strip, the
        box's state), nothing else: on the screen, or on ``surface``
        (screenshots at a fixed size). ``frozen``: its public view is frozen already."""
        view = shown.public if frozen else freeze(shown.public)
        strip, finished, paused, host_paused = shown.strip, shown.finished, shown.paused, shown.host_paused
        # the rule the pages follow too (games/toolkit/results_words.py): they word the strip as drawn
        scene = self.results if results_drawn(finished, self.scene.own_results) else self.scene
        if self.scene.message and now_us > self._message_until:
            self.scene.message = None
        # a peer's line (the league's link: the hall's broker out of reach) while it lasts, as an aside
        scene.message = self.scene.message or aside_line(self.asides) or next(iter(shown.lines), None)
        inputs = shown.inputs
        if inputs:  # a source stalled: its presses may come late, and the room should know why
            scene.message = inputs
        scene.confirm = _(END_CONFIRM) if self.confirm_end and not finished else None
        if finished and self.results_hint:
            scene.message = _(self.results_hint)
        journal = shown.journal
        if journal:  # said while the journal's disk refuses records: the host can act (free space)
            scene.message = journal
        if paused:  # said until the inputs are back: nobody wonders why nothing reacts
            scene.message = _("Input board disconnected: game paused until it is back")
        if self.standing:
            scene.message = self.standing
        target = surface if surface is not None else self.screen.surface
        if self.sound is not None:
            self.sound.clips.poll(now_us)  # a clip with a length stops in time
        self.video.poll(now_us)
        scene.video = self._video_picture()
        if host_paused:  # the pause card: nothing of the game shows while the room takes a break
            draw_pause_card(target)
            self.frames += 1
            return
        scene.draw(target, view, strip, now_us)
        if self.show_help and self.help is not None:
            self.help.show(view)
            self.help.draw(target)
        self.frames += 1

    def _video_picture(self) -> VideoPicture | None:
        """What the scene shows in a video question's place this frame (None: no video question)."""
        if self.video.clip is None:
            return None
        if self.video_screen.missing:
            return VideoPicture(None, NO_DECODER)
        return VideoPicture(self.video_screen.picture(), None, self.video.state)

    @staticmethod
    def _refused_line(strip: Sequence[Mapping[str, Any]], event: GameEvent) -> str:
        """What the room reads when a press or a host key is refused: short,
        in the room's words, with who did it (a keyboard player sees what
        their press did). The engine's reason is for whoever can act on it
        (a phone words it to its player, ``--verbose`` and the journal keep
        it): on the TV it would be developer text ("cannot wrong while armed;
        now: reset, next") read by the whole room."""
        player = event.player
        who = str(strip[player].get("name") or "") if player is not None and 0 <= player < len(strip) else ""
        log.info("refused %s from %s: %s", event.data.get("kind", "?"), who or "the host", event.data.get("why", ""))
        if who:
            return _("{name}: not now").format(name=who)
        return _("That key does nothing right now")

    def react_view(self, shown: View, spec: GameSpec, events: Sequence[GameEvent], now_us: int) -> None:
        """A view's events to sound and the lines the room reads."""
        self.say(events, spec, lambda: shown.strip, shown.names, now_us)

    def say(self, events: Sequence[GameEvent], spec: GameSpec, strip: Callable[[], Sequence[Mapping[str, Any]]],
            names: Sequence[str], now_us: int) -> None:
        """The events' sounds, and the line the room reads about one (a refused key, the inputs away)."""
        cues = spec.clip_cues
        if self.sound is not None and events:
            self.sound.on_events(events, spec.sound_for, cues)
        for e in events:
            if e.kind in cues.shown:  # a question's own ``audio`` cell wins over its video's sound
                self.video_screen.with_sound = self.video_sound and Clip.of(e.data.get("audio")) is None
        self.video.on_events(events, cues)
        clip = self.video.clip
        if clip is not None and self.video.state == "stopped" and any(e.kind in cues.shown for e in events):
            self.video_screen.show_still(clip.file, clip.start_s)  # its first frame until it plays
        for e in events:
            text = None
            if e.kind == EventKind.REJECTED:
                text = self._refused_line(strip(), e)
            elif e.kind == EventKind.PAUSED:
                text = _("input board disconnected: game paused")
            elif e.kind == EventKind.RESUMED and not any(x.kind == HOST_CONTINUED for x in events):
                text = _("input board back: game resumed")  # (after a host's pause the overlay said it all)
            elif e.kind == EventKind.LATE_EVIDENCE and e.player is not None:
                behind = int(e.data.get("behind_us", 0))
                text = _("{name} pressed {ms} ms before the decision but the press came too late to count: "
                         "host, decide").format(name=names[e.player], ms=format_number(behind / 1000, 1))
            if text:
                self.scene.message = text
                self._message_until = now_us + MESSAGE_US


def draw_box(presenter: Presenter, box: Box, now_us: int, surface: pygame.Surface | None = None) -> None:
    """One frame of a box in this process (``run_virtual``'s simulation): drawn
    from the view the deciding process would send of it, read under its lock."""
    with box.lock:
        view = view_of(box, now_us, public=freeze(box.engine.public_view()))
    presenter.draw_view(view, box.spec, now_us, surface, frozen=True)


def react_box(presenter: Presenter, box: Box, events: Sequence[GameEvent], now_us: int) -> None:
    """``run_virtual``'s events to sound and the room's lines, as a view of ``box`` would bring them."""
    presenter.say(events, box.spec, box.strip, box.station_names, now_us)


def run_virtual(session: Session, presenter: Presenter, *, until_us: int | None = None) -> RunResult:
    """``demo --headless``: a Session of simulated players in virtual time, from
    one due moment to the next, until the game ends or ``until_us`` (game
    time). A ``show`` is answered by a frame drawn and flipped at its moment
    (virtual time does not move while a frame is drawn). A live game is
    decided in a process of its own and drawn by ``controller.screen.viewer``: never here."""
    box = session.box
    events: list[GameEvent] = []
    shows: list[tuple[int, int]] = []

    def show(t_us: int) -> int:
        draw_box(presenter, box, t_us)
        presenter.screen.flip()
        shows.append((t_us, t_us))
        return t_us

    def advance(t_us: int) -> list[GameEvent]:
        stepped = session.step(t_us)
        react_box(presenter, box, stepped, t_us)
        events.extend(stepped)
        return stepped

    session.on_show = show
    while not box.engine.finished:
        nxt = session.next_time_us()
        if nxt is None or (until_us is not None and nxt > until_us):
            if until_us is not None:
                advance(until_us)
            break
        if advance(max(nxt, session.now_us)):
            draw_box(presenter, box, session.now_us)
    t_end = session.now_us
    draw_box(presenter, box, t_end)
    presenter.screen.flip()
    sounds = list(presenter.sound.played) if presenter.sound else []
    return RunResult("finished" if box.engine.finished else "time", t_end, presenter.frames, events, shows, sounds)


#: what ``key_of`` says for the window being closed
QUIT = "quit"


def key_of(event: pygame.event.Event, presenter: Presenter, keyboard: KeyboardSource | None,
           stamp_us: int) -> str | None:
    """What one pygame event means for a running game on this screen:
    ``QUIT`` (the window closed), "menu" (Esc), a host key's name,
    or None (a station's key, already handed to the keyboard source stamped
    ``stamp_us``; the help overlay toggled; a resize)."""
    if event.type == pygame.QUIT:
        return QUIT
    if event.type == pygame.VIDEORESIZE:
        presenter.screen.resized(event.size)
    if event.type == pygame.KEYDOWN and presenter.confirm_end and event.key != pygame.K_ESCAPE:
        presenter.confirm_end = False  # any other key: the game goes on (a station's press still counts)
        if keyboard is not None:
            keyboard.handle(event, stamp_us)
        return None
    if is_help_key(event) and presenter.help is not None:
        presenter.show_help = not presenter.show_help
        return None
    name = keyboard.handle(event, stamp_us) if keyboard is not None else None
    if name is None and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
        name = "menu"
    if name == "menu" and getattr(event, "confirmed", False):  # the host page's End: asked there already
        presenter.confirm_end = True
    return name


def is_help_key(event: pygame.event.Event) -> bool:
    """``h`` or ``?`` (shift+/ on most layouts) opens and closes the key list."""
    if event.type != pygame.KEYDOWN:
        return False
    return event.key in (pygame.K_h, pygame.K_QUESTION) or (event.key == pygame.K_SLASH and bool(event.mod & pygame.KMOD_SHIFT))


#: the keys whose pygame names are English words, as the help list says them
KEY_WORDS = {"space": N_("space"), "escape": N_("Esc"), "page down": N_("page down"), "page up": N_("page up"),
             "right": N_("right arrow"), "left": N_("left arrow"), "up": N_("up arrow"), "down": N_("down arrow"),
             "return": N_("Enter"), "backspace": N_("backspace"), "tab": N_("Tab")}


def key_word(code: int) -> str:
    """A key as the help list names it: its letter or digit as printed on it,
    a word key ("space", "page down") in the reader's language, a keypad key
    ("[1]" to pygame) as "keypad 1"."""
    name = pygame.key.name(code)
    if name in KEY_WORDS:
        return _(KEY_WORDS[name])
    if len(name) > 2 and name[0] == "[" and name[-1] == "]":
        return _("keypad {key}").format(key=name[1:-1])
    return name


def keyboard_help(spec: GameSpec, keyboard: KeyboardSource, now: Mapping[str, Any]) -> HelpOverlay:
    """The help overlay's rows from what the keyboard binds and the game's spec
    says, for the game as it is played when drawn (its keys may change with its
    rounds; ``now``: its public view as the help is made)."""
    stations = [(key_word(k), s, i) for k, (s, i) in keyboard.keymap.items()]
    host = {key_word(k): a for k, a in keyboard.host_keys.items()}
    host["h  ?"] = "help"

    def rows_for(view: Mapping[str, Any]) -> list[tuple[str, str]]:
        return help_rows(spec, stations, host, view)

    return HelpOverlay(spec.title, rows_for(now), rows_for)


def snapshot(presenter: Presenter, box: Box, now_us: int, path: str, size: tuple[int, int] = (1920, 1080)) -> None:
    """Save ``run_virtual``'s frame now as a PNG at ``size`` whatever the window's size."""
    from pathlib import Path

    surface = pygame.Surface(size)
    draw_box(presenter, box, now_us, surface)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, path)


def snapshot_view(presenter: Presenter, view: View, spec: GameSpec, now_us: int, path: str,
                  size: tuple[int, int] = (1920, 1080)) -> None:
    """``snapshot`` of a view the deciding process sent (this process holds no box of the game)."""
    from pathlib import Path

    surface = pygame.Surface(size)
    presenter.draw_view(view, spec, now_us, surface)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, path)


def run_menu(screen: Screen, menu: Menu, *, keyboard: KeyboardSource | None = None,
             monitor: InputMonitor | EveningStations | None = None, clock: Callable[[], int] = box_now_us,
             fps: int = 30, each_frame: Callable[[], Choice | None] | None = None) -> Choice | None:
    """Show the start menu until Start (returns the choice) or Esc/close (None).
    Station buttons arrive through ``monitor`` (debounced like in a game);
    ``each_frame``: what else may start a game (the host page, through the evening's process)."""
    scene = MenuScene()
    sink = monitor
    if keyboard is not None and sink is not None:
        keyboard.start(sink)
    frame_clock = pygame.time.Clock()
    menu.shown_again()  # packs added, sticks plugged in during the game: looked for at once
    keys = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left", pygame.K_RIGHT: "right",
            pygame.K_RETURN: "select", pygame.K_KP_ENTER: "select", pygame.K_SPACE: "select", pygame.K_c: "copy"}
    while True:
        t = clock()
        menu.poll(t)  # a pack added, a stick plugged in or pulled: the rows follow
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return None
            if event.type == pygame.VIDEORESIZE:
                screen.resized(event.size)
            if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                return None
            if event.type == pygame.KEYDOWN and event.key in keys:
                choice = menu.key(keys[event.key])
                if choice is not None:
                    return choice
            elif keyboard is not None:
                keyboard.handle(event, t)
        strip: list[dict[str, object]] = []
        if monitor is not None:
            if (choice := _stations_chose(monitor, menu, t)) is not None:
                return choice
            strip = monitor.strip()
        if each_frame is not None and (choice := each_frame()) is not None:
            return choice
        scene.message = aside_line(menu.asides)  # a tournament's broker out of reach: said while it lasts
        scene.draw(screen.surface, freeze(menu.view()), strip, t)
        screen.flip()
        frame_clock.tick(fps)


def _stations_chose(monitor: InputMonitor | EveningStations, menu: Menu, t: int) -> Choice | None:
    """The stations' buttons up to ``t`` (debounced), each press a key of the menu's; the
    choice one of them made (its Start), None while the menu goes on."""
    for out in monitor.step(t):
        if isinstance(out, Press):
            choice = menu.press(out.station, out.input)
            if choice is not None:
                return choice
    return None


def run_results(presenter: Presenter, final: View, spec: GameSpec, *, clock: Callable[[], int] = box_now_us,
                fps: int = 30) -> None:
    """A finished game's results screen again, drawn from the deciding
    process's last view of it (``final``: as the screen drew it at the game's
    end; the menu's "This evening" row), until Esc, Enter or a closed window:
    the host shows the room who won, then is back in the menu. No box: the
    game is not replayed here."""
    # what was said over the game then (a full card, a stalled input, a pause) is not said over its results now,
    # nor a button held as it closed: the results as a replay of the journal draws them (no strip presses)
    final = replace(final, journal=None, inputs=None, paused=False, host_paused=False,
                    strip=[{**cell, "pressed": False, "presses": 0} for cell in final.strip])
    presenter.results_hint = BACK_HINT
    frame_clock = pygame.time.Clock()
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or goes_back(event):
                return
            if event.type == pygame.VIDEORESIZE:
                presenter.screen.resized(event.size)
        presenter.draw_view(final, spec, clock())
        presenter.screen.flip()
        frame_clock.tick(fps)


def run_diag(screen: Screen, monitor: InputMonitor | DiagLink, *, keyboard: KeyboardSource | None = None,
             simulator: Callable[[int], None] | None = None, realtime: bool = True, until_us: int | None = None,
             clock: Callable[[], int] = box_now_us, fps: int = 30, origin_us: int | None = None) -> int:
    """The diagnostics screen, live (or in virtual time with ``simulator``
    feeding edges: headless screenshots). ``monitor``: the inputs debounced
    here (keyboard stations, made-up presses), or a profile's as diag's
    deciding process sends them (``DiagLink``). Returns the frames drawn."""
    scene = DiagScene()
    if keyboard is not None:
        keyboard.start(monitor)
    frames = 0
    if not realtime:
        step = 1_000_000 // fps
        t = 0
        while until_us is None or t < until_us:
            if simulator is not None:
                simulator(t)
            monitor.step(t)
            t += step
        scene.draw(screen.surface, freeze(monitor.view()), monitor.strip(), monitor.now_us)
        screen.flip()
        return 1
    origin = clock() if origin_us is None else origin_us  # 0: real sources' own box time
    frame_clock = pygame.time.Clock()
    while True:
        t = clock() - origin
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                return frames
            if event.type == pygame.VIDEORESIZE:
                screen.resized(event.size)
            if keyboard is not None:
                keyboard.handle(event, t)
        if simulator is not None:
            simulator(t)
        monitor.step(t)
        scene.draw(screen.surface, freeze(monitor.view()), monitor.strip(), t)
        screen.flip()
        frames += 1
        if until_us is not None and t >= until_us:
            return frames
        frame_clock.tick(fps)
