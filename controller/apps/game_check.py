"""What the box asks of every game, checked by name: each problem is one line
that names the requirement (CONTRIBUTING.md, "What a game must give") and
the fix. The tests run it over every registered game, the toy games under
tests/ too, so a new game learns what it lacks from a sentence, not from a
failing assertion far from its code. Missing translations are no problem
here: they fall back to English and are listed (``tools/i18n.py``).
"""

from __future__ import annotations

from enum import Enum
from importlib import import_module
from typing import Any

from controller.box.runtime import Box
from controller.box.simulate import Session
from controller.box.views import PHASE_WORDS
from games import registry
from games.base import COMMON_STATUS_LIGHTS, GameSettings, GameSpec, OptionError
from games.i18n import LANGUAGES
from games.scenes import scene_for

#: how long a bot game may take (virtual time) before "it never ends" is said
LIMIT_US = 3_600_000_000
#: every requirement a game must meet, in the words CONTRIBUTING.md lists them
REQUIREMENTS = ("SPEC", "scene", "options", "new_bots", "phase_labels", "status_labels", "translated")
#: an option name no game declares: the engine must refuse it
UNKNOWN_OPTION = "no_such_option"


def problems(name: str, seed: int = 3) -> list[str]:
    """Every requirement ``name`` misses, one line each (empty: the game is complete)."""
    try:
        spec = registry.get(name)
    except (LookupError, AttributeError) as exc:
        return [f"{name}: SPEC: its package must export a GameSpec named SPEC ({exc})"]
    if not isinstance(spec, GameSpec):
        return [f"{name}: SPEC: its package's SPEC is a {type(spec).__name__}, not a GameSpec"]
    found: list[str] = []
    try:
        scene_for(name)
    except Exception as exc:  # noqa: BLE001 (any way a scene fails to load is said, not raised)
        found.append(f"{name}: scene: GameSpec.scene must name the scene class as 'package.module:Class' ({exc})")
    try:
        spec.new_engine(GameSettings(spec.min_players, seed, {**spec.default_options, UNKNOWN_OPTION: 1}))
        found.append(f"{name}: options: the engine must read its options through games.base.checked_options "
                     f"(GameSpec.options), which refuses one it does not know ({UNKNOWN_OPTION!r} was taken)")
    except OptionError:
        pass
    phases, statuses, finished = _played(spec, seed)
    if not finished:
        found.append(f"{name}: new_bots: the bots (GameSpec.new_bots, new_host) must play a game to its end "
                     f"within {LIMIT_US // 60_000_000} minutes of game time (simulate, the demo and the tests need it)")
    phases |= _enum_phases(registry.package_of(name))
    wordless = sorted(p for p in phases if p not in spec.phase_labels and p not in PHASE_WORDS)
    if wordless:
        found.append(f"{name}: phase_labels: the host page and the scoreboard say each phase in words; "
                     f"add {', '.join(map(repr, wordless))} to GameSpec.phase_labels (marked with N_)")
    undeclared = sorted(statuses - set(COMMON_STATUS_LIGHTS) - set(spec.status_lights) - set(spec.status_labels))
    if undeclared:
        found.append(f"{name}: status_labels: the strip and the lights must know every status the game shows; "
                     f"declare {', '.join(map(repr, undeclared))} in GameSpec.status_labels or status_lights")
    unknown = sorted(set(spec.translated) - set(LANGUAGES))
    if unknown or "en" not in spec.translated:
        found.append(f"{name}: translated: GameSpec.translated lists languages the box speaks ({', '.join(LANGUAGES)}), "
                     f"English always; not {', '.join(map(repr, unknown or ['without en']))}")
    return found


def _played(spec: GameSpec, seed: int) -> tuple[set[str], set[str], bool]:
    """The phases and statuses one bot game shows, and whether it ended."""
    phases: set[str] = set()
    statuses: set[str] = set()
    settings = spec.settings(max(spec.min_players, min(4, spec.max_players)), seed, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)

    def seen(view: dict[str, Any]) -> None:
        phases.add(str(view.get("phase", "")))
        statuses.update(str(s) for s in view.get("status", ()))

    seen(box.engine.public_view())
    box.on_events.append(lambda events: seen(box.engine.public_view()))
    session.run_virtual(LIMIT_US)
    phases.discard("")
    return phases, statuses, box.engine.finished


def _enum_phases(package: str) -> set[str]:
    """The phases a game's engine names in its ``Phase`` enum (``<package>.engine``), if it has one."""
    try:
        phase_enum = getattr(import_module(f"{package}.engine"), "Phase", None)
    except ImportError:
        return set()
    if not (isinstance(phase_enum, type) and issubclass(phase_enum, Enum)):
        return set()
    return {str(p.value) for p in phase_enum}
