"""Every game the box can run, by name. Each game package exports ``SPEC``.

The registry is the only place that knows the list; the CLI, the demo, the
scenario runner and the menu all look games up here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from controller.press import Press
from games.base import Action, Engine, GameEvent, GameSettings


@dataclass(frozen=True)
class PlannedPress:
    """A simulated player's intention: press ``input`` at ``t_us`` (the
    simulated switch then bounces realistically around it)."""

    input: str
    t_us: int


class Bot(Protocol):
    """A simulated player: watches the shared screen, decides what to press."""

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]: ...


class HostBot(Protocol):
    """A simulated host (quiz master, card turner) for demos and simulations."""

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[Action]: ...


ButtonMap = Callable[[Press, str], Action | None]
"""(debounced press, station kind from the wiring profile) -> engine action, or None."""

ScenarioStep = Callable[[Mapping[str, Any], int], Action | None]
"""(a game-specific scenario step, its t_us) -> engine action, or None if not ours."""


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    min_players: int
    max_players: int
    new_engine: Callable[[GameSettings], Engine]
    button_map: ButtonMap
    new_bots: Callable[[GameSettings], Sequence[Bot]]
    new_host: Callable[[GameSettings], HostBot | None] = lambda settings: None
    scenario_step: ScenarioStep = lambda step, t_us: None
    #: scenario keys (besides game/players/seed/steps) copied into settings.options
    scenario_options: tuple[str, ...] = ()
    #: "module:Class" of the pygame scene, imported only when a screen is drawn
    scene: str | None = None
    default_options: Mapping[str, Any] = field(default_factory=dict)
    #: a full station's inputs (what the simulated players press; what a
    #: simulated input board must wire)
    inputs: tuple[str, ...] = ("bell",)
    #: options the demo and ``simulate`` add so unattended games keep moving
    demo_options: Mapping[str, Any] = field(default_factory=dict)

    def settings(self, players: int, seed: int = 0, **options: Any) -> GameSettings:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"{self.title} takes {self.min_players}-{self.max_players} players, not {players}: "
                f"pass --players between {self.min_players} and {self.max_players}"
            )
        merged = {**self.default_options, **options}
        return GameSettings(players=players, seed=seed, options=merged)


_PACKAGES = {
    "quiz": "games.quiz",
    "reaction": "games.reaction",
    "schicki-micki": "games.schicki_micki",
    "viva-topo": "games.viva_topo",
}


def available() -> list[str]:
    """Names of the games that are installed and importable."""
    names = []
    for name in _PACKAGES:
        try:
            get(name)
        except LookupError:
            continue
        names.append(name)
    return names


def get(name: str) -> GameSpec:
    package = _PACKAGES.get(name)
    if package is None:
        raise LookupError(f"unknown game {name!r}: choose one of {', '.join(_PACKAGES)}")
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as exc:
        if exc.name and package.startswith(exc.name):
            raise LookupError(f"game {name!r} is not built yet") from exc
        raise
    spec: GameSpec = module.SPEC
    return spec
