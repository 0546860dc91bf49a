"""The live loop: one thread owns the box, the screen, the lights and the sound.

Each pass: read keys (stations and host), let the box (or the session of
simulated players around it) take everything due, turn the events into
lights and sound at once, draw the frame, flip. When an engine asks for a
``show`` (a new card, GO), the frame is drawn and flipped first and the box
time right after the flip goes back as ``t_show``.

Time: with ``realtime`` the box timeline is the monotonic clock (minus the
start, for a Session whose bots plan from 0); without it the loop jumps from
one due moment to the next (headless demos, tests).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from controller.display.diag import DiagScene, InputMonitor
from controller.display.menu import Choice, Menu, MenuScene
from controller.display.screen import Screen
from controller.lights import LightDirector, Lights
from controller.press import Press
from controller.runtime import Box
from controller.simulate import Session
from controller.sound import Sound
from controller.sources.keyboard import KeyboardSource
from controller.timeline import box_now_us
from games.base import GameEvent
from games.toolkit.results import ResultsScene
from games.toolkit.scene import Scene, freeze

log = logging.getLogger("buzzerbox.display")

MESSAGE_US = 2_500_000


@dataclass
class RunResult:
    """How a run ended and what it did (the demo prints it)."""

    reason: str  # finished, time, menu, quit
    now_us: int
    frames: int
    events: list[GameEvent] = field(default_factory=list)
    shows: list[tuple[int, int]] = field(default_factory=list)  # (due, flipped) box times
    sounds: list[str] = field(default_factory=list)


class Presenter:
    """Screen, scene, lights and sound of one running box."""

    def __init__(self, screen: Screen, scene: Scene, *, lights: Lights | None = None, sound: Sound | None = None,
                 results: Scene | None = None) -> None:
        self.screen = screen
        self.scene = scene
        self.results = results if results is not None else ResultsScene(game_title=scene.title, colors=scene.colors)
        self.lights = LightDirector(lights) if lights is not None else None
        self.sound = sound
        self.frames = 0
        self._message_until = 0

    def draw(self, box: Box, now_us: int, surface: pygame.Surface | None = None) -> None:
        """One frame from the engine's public view and the box's strip, nothing
        else (on the screen, or on ``surface``: screenshots at a fixed size)."""
        view = freeze(box.engine.public_view())
        strip = box.strip()
        scene = self.results if box.engine.finished and not self.scene.own_results else self.scene
        if self.scene.message and now_us > self._message_until:
            self.scene.message = None
        scene.message = self.scene.message
        if box.paused:  # said until the inputs are back: nobody wonders why nothing reacts
            scene.message = "Input board disconnected: game paused until it is back"
        scene.draw(surface if surface is not None else self.screen.surface, view, strip, now_us)
        self.frames += 1

    def react(self, box: Box, events: Sequence[GameEvent], now_us: int) -> None:
        """Events to lights (first, in the same pass as the press) and sound."""
        if self.lights is not None:
            self.lights.update(box.strip(), box.spec.status_light)
        if self.sound is not None and events:
            self.sound.on_events(events, box.spec.sound_for)
        for e in events:
            text = None
            if e.kind == "rejected":
                text = f"not now: {e.data.get('why', '')}"
            elif e.kind == "paused":
                text = "input board disconnected: game paused"
            elif e.kind == "resumed":
                text = "input board back: game resumed"
            elif e.kind == "late_evidence" and e.player is not None:
                behind = int(e.data.get("behind_us", 0))
                text = (f"{box.station_names[e.player]} pressed {behind / 1000:.1f} ms before the decision "
                        "but the press came too late to count: host, decide")
            if text:
                self.scene.message = text
                self._message_until = now_us + MESSAGE_US

    def close(self) -> None:
        if self.lights is not None:
            self.lights.all_off()


def host_key(box: Box, name: str, now_us: int) -> list[GameEvent]:
    """A host key (space, c, w, n, u, r) as the running game's own action."""
    return box.host(box.host_kind(name), now_us)


def run(
    target: Session | Box,
    presenter: Presenter,
    *,
    realtime: bool = True,
    until_us: int | None = None,
    keyboard: KeyboardSource | None = None,
    clock: Callable[[], int] = box_now_us,
    fps: int = 60,
    results_s: float = 10.0,
    to_game_us: int | None = None,
) -> RunResult:
    """Run a Session (simulated players, demo) or a live Box (real sources
    already started on it) until the game ends, ``until_us`` (game time), Esc
    or the window closes. Returns how it ended.

    ``clock`` reads the box clock the sources stamp with; game time is that
    plus ``to_game_us``: for a live box its ``time_offset_us`` (a resumed
    game carries on the journal's timeline), for a session wherever the
    session stands now (or as given: 0 when a simulated board stamps on the
    real clock)."""
    session = target if isinstance(target, Session) else None
    box = session.box if session is not None else target
    assert isinstance(box, Box)
    if keyboard is not None:
        keyboard.add_host_keys(box.spec.host_keys)
    if to_game_us is None:
        to_game_us = box.now_us - clock() if (realtime and session is not None) else box.time_offset_us
    shift = to_game_us
    shows: list[tuple[int, int]] = []
    all_events: list[GameEvent] = []

    def now() -> int:
        return clock() + shift

    def key_stamp() -> int:
        """Keys reach the box like any source's edges: the box adds its own offset."""
        return now() - box.time_offset_us

    def show(t_us: int) -> int:
        presenter.draw(box, t_us)
        flipped = presenter.screen.flip() + shift
        if not realtime:
            flipped = t_us  # virtual time does not move while a frame is drawn
        shows.append((t_us, flipped))
        return flipped

    if session is not None:
        session.on_show = show
    if keyboard is not None:
        keyboard.start(box)

    def answer_shows(events: list[GameEvent], t_us: int) -> list[GameEvent]:
        """A new card / GO goes on the screen now; the flip time is its t_show."""
        for e in list(events):
            if e.kind == "show":
                events += box.shown(show(t_us))
        return events

    def advance(t_us: int) -> list[GameEvent]:
        events = session.step(t_us) if session is not None else answer_shows(box.step(t_us), t_us)
        presenter.react(box, events, t_us)
        all_events.extend(events)
        return events

    def result(reason: str, t_us: int) -> RunResult:
        presenter.close()
        sounds = list(presenter.sound.played) if presenter.sound else []
        return RunResult(reason, t_us, presenter.frames, all_events, shows, sounds)

    if not realtime:
        if session is None:
            raise ValueError("virtual time needs a Session (a live box runs on the clock)")
        while not box.engine.finished:
            nxt = session.next_time_us()
            if nxt is None or (until_us is not None and nxt > until_us):
                if until_us is not None:
                    advance(until_us)
                break
            if advance(max(nxt, session.now_us)):
                presenter.draw(box, session.now_us)
        t_end = session.now_us
        presenter.draw(box, t_end)
        presenter.screen.flip()
        return result("finished" if box.engine.finished else "time", t_end)

    frame_clock = pygame.time.Clock()
    finished_at: int | None = None
    while True:
        t = now()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                return result("quit", t)
            if event.type == pygame.VIDEORESIZE:
                presenter.screen.resized(event.size)
            name = keyboard.handle(event, key_stamp()) if keyboard is not None else None
            if name is None and event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
                name = "menu"
            if name == "menu":
                return result("menu", t)
            if name is not None and finished_at is None:
                events = answer_shows(host_key(box, name, t), t)
                presenter.react(box, events, t)
                all_events.extend(events)
            elif name is not None and finished_at is not None:
                return result("finished", t)
        t = now()
        advance(t)
        if box.engine.finished and finished_at is None:
            finished_at = t
        if until_us is not None and t >= until_us:
            return result("time", t)
        if finished_at is not None and t - finished_at > results_s * 1_000_000:
            return result("finished", t)
        presenter.draw(box, t)
        presenter.screen.flip()
        frame_clock.tick(fps)


def snapshot(presenter: Presenter, box: Box, now_us: int, path: str, size: tuple[int, int] = (1920, 1080)) -> None:
    """Save the current frame as a PNG at ``size`` whatever the window's size."""
    from pathlib import Path

    surface = pygame.Surface(size)
    presenter.draw(box, now_us, surface)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, path)


def run_menu(screen: Screen, menu: Menu, *, keyboard: KeyboardSource | None = None,
             monitor: InputMonitor | None = None, clock: Callable[[], int] = box_now_us, fps: int = 30) -> Choice | None:
    """Show the start menu until Start (returns the choice) or Esc/close (None).
    Station buttons arrive through ``monitor`` (debounced like in a game)."""
    scene = MenuScene()
    sink = monitor
    if keyboard is not None and sink is not None:
        keyboard.start(sink)
    frame_clock = pygame.time.Clock()
    keys = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left", pygame.K_RIGHT: "right",
            pygame.K_RETURN: "select", pygame.K_KP_ENTER: "select", pygame.K_SPACE: "select"}
    while True:
        t = clock()
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
            for out in monitor.step(t):
                if isinstance(out, Press):
                    choice = menu.press(out.station, out.input)
                    if choice is not None:
                        return choice
            strip = monitor.strip()
        scene.draw(screen.surface, freeze(menu.view()), strip, t)
        screen.flip()
        frame_clock.tick(fps)


def run_diag(screen: Screen, monitor: InputMonitor, *, keyboard: KeyboardSource | None = None,
             simulator: Callable[[int], None] | None = None, realtime: bool = True, until_us: int | None = None,
             clock: Callable[[], int] = box_now_us, fps: int = 30, origin_us: int | None = None) -> int:
    """The diagnostics screen, live (or in virtual time with ``simulator``
    feeding edges: headless screenshots). Returns the frames drawn."""
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
