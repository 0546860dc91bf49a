"""A frame of every phase of every registered game, for the screen tests.

The layout, text-size and readability tests iterate the registry through
this, so a new game's scene is checked the moment it is registered (a fixed
list of pictures would never see it). Each game is played once by its bots
(seeded, virtual time, step by step) and its public view kept at the start
of every phase it shows, and at its end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import pygame

from controller.box.runtime import Box
from controller.box.simulate import BOTS_END_WITHIN_US, Session
from games import registry, scenes
from games.i18n import current_language, set_language
from games.toolkit.results import ResultsScene
from games.toolkit.results_words import results_drawn
from games.toolkit.scene import Scene, freeze

#: (players, options) beside each game's demo options that change what its screen shows
VARIANTS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "fiki-miki": [(6, {"open_hands": True}), (4, {"variant": "IIB"})],
}


@dataclass(frozen=True)
class PhaseFrame:
    label: str  # the game and its variant's option values
    game: str
    phase: str
    view: Any
    strip: tuple[dict[str, Any], ...]
    now_us: int
    finished: bool

    @property
    def name(self) -> str:
        return f"{self.label}-{self.phase}"

    def scene(self) -> Scene:
        scene = scenes.scene_for(self.game)
        if results_drawn(self.finished, scene.own_results):
            return ResultsScene(game_title=scene.title)
        return scene

    def draw(self, surface: pygame.Surface) -> None:
        self.scene().draw(surface, self.view, list(self.strip), self.now_us)


Options = tuple[tuple[str, Any], ...]


@cache
def phase_frames(game: str, players: int, options: Options = (), language: str = "en", seed: int = 7) -> tuple[PhaseFrame, ...]:
    """One frame at the start of each phase of a whole bot game of ``game``,
    played in ``language`` (a refusal an engine words goes into the view)."""
    spec = registry.get(game)
    label = "-".join([game, str(players), *(str(v) for _k, v in options)])
    previous = current_language()
    set_language(language)
    try:
        settings = spec.settings(players, seed, **{**spec.demo_options, **dict(options)})
        box = Box(spec, settings)
        session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
        frames: list[PhaseFrame] = []
        seen: set[str] = set()

        def keep(phase: str) -> None:
            seen.add(phase)
            frames.append(PhaseFrame(label, game, phase, freeze(box.engine.public_view()),
                                     tuple(dict(c) for c in box.strip()), session.now_us, box.engine.finished))

        while not box.engine.finished and session.now_us < BOTS_END_WITHIN_US:
            phase = str(box.engine.public_view()["phase"])
            if phase not in seen:
                keep(phase)
            due = session.next_time_us()
            if due is None:
                break
            session.step(max(due, session.now_us))
        if box.engine.finished:
            keep("finished")
        return tuple(frames)
    finally:
        set_language(previous)


def configurations() -> list[tuple[str, int, Options]]:
    """Every registered game with its demo options (up to 6 players), and its variants."""
    out = []
    for game in registry.available():
        spec = registry.get(game)
        for players, options in [(max(spec.min_players, min(6, spec.max_players)), {}), *VARIANTS.get(game, [])]:
            out.append((game, players, tuple(sorted(options.items()))))
    return out


def named_draws() -> list[tuple[str, Callable[[pygame.Surface], None]]]:
    """(name, draw) of every phase of every configuration; each draw plays the
    game in the language set at the time (once per language: cached)."""
    out: list[tuple[str, Callable[[pygame.Surface], None]]] = []
    for game, players, options in configurations():
        for index, frame in enumerate(phase_frames(game, players, options)):
            def draw(surface: pygame.Surface, game: str = game, players: int = players, options: Options = options,
                     index: int = index, phase: str = frame.phase) -> None:
                frames = phase_frames(game, players, options, current_language())
                assert len(frames) > index and frames[index].phase == phase, f"{game}: another game in {current_language()}"
                frames[index].draw(surface)
            out.append((frame.name, draw))
    return out
