"""What the box asks of every game, checked by name: each problem is one line
that names the requirement (CONTRIBUTING.md, "What a game must give") and
the fix. The tests run it over every registered game, the toy games under
tests/ too, so a new game learns what it lacks from a sentence, not from a
failing assertion far from its code. Missing translations are no problem
here: they fall back to English and are listed (``tools/i18n.py``).
"""

from __future__ import annotations

import ast
import copy
import json
from enum import Enum
from importlib import import_module
from pathlib import Path
from typing import Any

from controller.box.runtime import Box
from controller.box.simulate import BOTS_END_WITHIN_US, Session
from controller.box.views import PHASE_WORDS
from games import registry
from games.base import COMMON_STATUS_LIGHTS, Action, GameSettings, GameSpec, OptionError, RuleError
from games.i18n import LANGUAGES, known
from games.scenes import scene_for
from games.toolkit.results_words import results_drawn
from games.toolkit.scene import Scene

#: every requirement a game must meet, in the words CONTRIBUTING.md lists them
REQUIREMENTS = ("SPEC", "scene", "summary", "options", "new_bots", "phase_labels", "status_labels", "strip_wording",
                "own_results", "refusals", "translated", "scenarios")
#: an option name no game declares: the engine must refuse it
UNKNOWN_OPTION = "no_such_option"
#: a move no game knows, offered by the host and a player: the engine must refuse it with a message id
UNKNOWN_MOVE = "no-such-move"
#: how many of a bot game's first steps the unknown move is offered at
PROBED_STEPS = 12
#: the markers a text is given to the catalogue with (games/i18n.py), and which of their arguments are texts
MARKERS = {"_": (0,), "N_": (0,), "Nn_": (0, 1), "ngettext": (0, 1), "pgettext": (1,)}


def problems(name: str, seed: int = 3) -> list[str]:
    """Every requirement ``name`` misses, one line each (empty: the game is complete)."""
    try:
        spec = registry.get(name)
    except (LookupError, AttributeError) as exc:
        return [f"{name}: SPEC: its package must export a GameSpec named SPEC ({exc})"]
    if not isinstance(spec, GameSpec):
        return [f"{name}: SPEC: its package's SPEC is a {type(spec).__name__}, not a GameSpec"]
    found: list[str] = []
    scene: Scene | None = None
    try:
        scene = scene_for(name)
    except Exception as exc:  # noqa: BLE001 (any way a scene fails to load is said, not raised)
        found.append(f"{name}: scene: GameSpec.scene must name the scene class as 'package.module:Class' ({exc})")
    if not spec.summary.strip():
        found.append(f"{name}: summary: the start menu says the rules beside the game's name; give GameSpec.summary "
                     "two short sentences, marked with N_")
    try:
        spec.new_engine(GameSettings(spec.min_players, seed, {**spec.default_options, UNKNOWN_OPTION: 1}))
        found.append(f"{name}: options: the engine must read its options through games.base.checked_options "
                     f"(GameSpec.options), which refuses one it does not know ({UNKNOWN_OPTION!r} was taken)")
    except OptionError:
        pass
    phases, statuses, finished, refusals, unworded = _played(spec, seed, scene)
    if not finished:
        found.append(f"{name}: new_bots: the bots (GameSpec.new_bots, new_host) must play a game to its end "
                     f"within {BOTS_END_WITHIN_US // 60_000_000} minutes of game time (simulate, the demo and the tests need it)")
    phases |= enum_phases(registry.package_of(name))
    wordless = sorted(p for p in phases if p not in spec.phase_labels and p not in PHASE_WORDS)
    if wordless:
        found.append(f"{name}: phase_labels: the host page and the scoreboard say each phase in words; "
                     f"add {', '.join(map(repr, wordless))} to GameSpec.phase_labels (marked with N_)")
    undeclared = sorted(statuses - set(COMMON_STATUS_LIGHTS) - set(spec.status_lights) - set(spec.status_labels))
    if undeclared:
        found.append(f"{name}: status_labels: the strip and the lights must know every status the game shows; "
                     f"declare {', '.join(map(repr, undeclared))} in GameSpec.status_labels or status_lights")
    if unworded:
        found.append(f"{name}: strip_wording: the phones' pages word each player's cell as the scene does on the "
                     f"HDMI screen, and in the phase {unworded[0]!r} they differ: word the cells in a module of the "
                     "game's without pygame (games/<game>/strip.py), name it in GameSpec.strip_wording and call it "
                     "from the scene's adjust_strip")
    if scene is not None and scene.own_results != spec.own_results:
        found.append(f"{name}: own_results: the phones' pages word a finished game's strip as the results screen "
                     f"does unless the spec says the scene draws its own end screen, and the scene's own_results is "
                     f"{scene.own_results}: set GameSpec.own_results={scene.own_results}")
    marked = marked_texts(registry.package_of(name))
    english = sorted({str(exc) for exc in refusals if not is_message_id(exc, marked)})
    if english:
        found.append(f"{name}: refusals: the engine must refuse with RuleError(N_(\"...\"), **arguments), a message id "
                     f"each viewer words in its language, not a sentence built in English: {', '.join(map(repr, english[:3]))}")
    unknown = sorted(set(spec.translated) - set(LANGUAGES))
    if unknown or "en" not in spec.translated:
        found.append(f"{name}: translated: GameSpec.translated lists languages the box speaks ({', '.join(LANGUAGES)}), "
                     f"English always; not {', '.join(map(repr, unknown or ['without en']))}")
    if (scenarios := scenario_files()) is not None and not any(game == name for game, _path in scenarios):
        found.append(f"{name}: scenarios: a game lands with scenario files that say what its rules decide "
                     f"(tests/{name.replace('-', '_')}/scenarios/*.json, each with an "
                     "\"expect\" block; `buzzerbox scenario FILE` runs one)")
    return found


def scenario_files() -> list[tuple[str, Path]] | None:
    """Every scenario file of a source checkout with the game it plays, the toy
    games' too (None where there is no tests folder: an installed box)."""
    tests = Path(__file__).resolve().parents[2] / "tests"
    if not tests.is_dir():
        return None
    found = []
    for path in sorted(tests.glob("*/scenarios/*.json")) + sorted(tests.glob("toy/*/scenarios/*.json")):
        try:
            found.append((str(json.loads(path.read_text(encoding="utf-8"))["game"]), path))
        except (OSError, ValueError, KeyError, TypeError):
            found.append(("", path))  # the scenario checker says what is wrong with it
    return found


def _played(spec: GameSpec, seed: int,
            scene: Scene | None = None) -> tuple[set[str], set[str], bool, list[RuleError], list[str]]:
    """The phases and statuses one bot game shows, whether it ended, the
    refusals of an unknown move offered along its first steps, and the first
    phase in which ``scene`` words the strip otherwise than the spec (the
    phones' pages) does, if any: wherever the scene's strip is drawn, not
    at the end of a game without its own end screen (the results screen
    words it there, for the pages too: ``results_drawn``; that the scene and
    the spec agree on ``own_results`` is a requirement of its own)."""
    phases: set[str] = set()
    statuses: set[str] = set()
    refusals: list[RuleError] = []
    unworded: list[str] = []
    settings = spec.settings(max(spec.min_players, min(4, spec.max_players)), seed, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)

    def seen(view: dict[str, Any]) -> None:
        phases.add(str(view.get("phase", "")))
        statuses.update(str(s) for s in view.get("status", ()))
        if scene is not None and not unworded:
            strip, ended = box.strip(), results_drawn(box.engine.finished, scene.own_results)  # the results screen's strip
            if not ended and scene.adjust_strip(view, strip) != spec.adjust_strip(view, strip):
                unworded.append(str(view.get("phase", "")))
        if len(refusals) < 2 * PROBED_STEPS:
            for player in (None, 0):
                try:  # on a copy: the game goes on as if nobody had asked
                    copy.deepcopy(box.engine).handle(Action(UNKNOWN_MOVE, box.now_us, player, {}))
                except RuleError as exc:
                    refusals.append(exc)

    seen(box.engine.public_view())
    box.on_events.append(lambda events: seen(box.engine.public_view()))
    session.run_virtual(BOTS_END_WITHIN_US)  # then "it never ends" is said
    phases.discard("")
    return phases, statuses, box.engine.finished, refusals, unworded


def marked_texts(package: str) -> set[str]:
    """Every text a game's package gives the catalogue (the literal texts
    ``_``, ``N_``, ``Nn_`` ... are called with), read from its source: a
    message id whether or not ``make i18n`` has put it in a catalogue yet."""
    found: set[str] = set()
    module = import_module(package)
    for path in sorted(Path(p) for folder in getattr(module, "__path__", ()) for p in Path(folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS:
                texts = [node.args[i] for i in MARKERS[node.func.id] if i < len(node.args)]
                found.update(a.value for a in texts if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return found


def is_message_id(refusal: RuleError, marked: set[str]) -> bool:
    """Whether a refusal's reason is a text given to the catalogue (the box's or its game's own), not one built."""
    reason = refusal.reason if isinstance(refusal.reason, str) else refusal.reason[0]
    return known(reason) or reason in marked


def enum_phases(package: str) -> set[str]:
    """The phases a game's engine names in its ``Phase`` enum (``<package>.engine``), if it has one."""
    try:
        phase_enum = getattr(import_module(f"{package}.engine"), "Phase", None)
    except ImportError:
        return set()
    if not (isinstance(phase_enum, type) and issubclass(phase_enum, Enum)):
        return set()
    return {str(p.value) for p in phase_enum}
