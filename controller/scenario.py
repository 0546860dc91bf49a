"""Scenarios: a game driven from a JSON file, step by timed step.

Rules examples, tests and disputes share this format::

    {"game": "quiz", "players": 3, "seed": 1,
     "options": {...}, "stations": ["full", "compact", ...], "debounce": {...},
     "steps": [
        {"edge": {"station": 0, "input": "bell", "level": 0, "t_us": 1000}},
        {"press": {"station": 0, "input": "bell", "t_us": 1000}},
        {"host": "arm", "t_us": 500},
        {"action": {"player": 0, "kind": "knock", "t_us": 412000}},
        {"tick": 2000000},
        ... game-specific steps (see each game's SPEC.scenario_step)
     ],
     "expect": {"winner": 0}}

A step's ``t_us`` defaults to the previous step's. ``expect`` (optional) lists
outcome keys that must match; ``check`` reports every difference.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.debounce import DebounceConfig
from controller.press import Edge, Press
from controller.runtime import Box
from games.base import Action, BuzzerBoxError, GameEvent
from games.registry import get as get_game

CORE_STEPS = ("edge", "press", "host", "action", "tick")
_CORE_KEYS = {"game", "players", "seed", "options", "stations", "debounce", "steps", "expect", "description", "name"}


class ScenarioError(BuzzerBoxError, ValueError):
    """A scenario file that cannot be run; the message names the step."""


def load(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ScenarioError(f"no scenario file at {p}") from exc
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"{p}: not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ScenarioError(f"{p}: a scenario is a JSON object with game, players and steps")
    return data


def build_box(data: dict[str, Any]) -> Box:
    if "game" not in data or "players" not in data:
        raise ScenarioError("a scenario needs \"game\" and \"players\"")
    try:
        spec = get_game(str(data["game"]))
    except LookupError as exc:
        raise ScenarioError(str(exc)) from exc
    extra = set(data) - _CORE_KEYS - set(spec.scenario_options)
    if extra:
        raise ScenarioError(
            f"unknown scenario key(s) {sorted(extra)} for {spec.name}; known: "
            f"{sorted(_CORE_KEYS | set(spec.scenario_options))}"
        )
    for key, kind in (("options", dict), ("debounce", dict), ("expect", dict), ("steps", list)):
        if key in data and not isinstance(data[key], kind):
            raise ScenarioError(f"\"{key}\" must be a JSON {'object' if kind is dict else 'list'}, not {data[key]!r}")
    if "stations" in data and not isinstance(data["stations"], list):
        raise ScenarioError("\"stations\" must list one station kind per player, e.g. [\"full\", \"compact\"]")
    options = dict(data.get("options", {}))
    for key in spec.scenario_options:
        if key in data:
            options[key] = data[key]
    try:
        settings = spec.settings(int(data["players"]), int(data.get("seed", 0)), **options)
        debounce = DebounceConfig(**data.get("debounce", {}))
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"scenario settings: {exc}") from exc
    try:
        return Box(spec, settings, data.get("stations"), debounce=debounce)
    except (TypeError, ValueError) as exc:  # the engine refused its settings (a bad card, an unknown option)
        raise ScenarioError(f"{spec.name}: {exc}") from exc


def run(data: dict[str, Any]) -> dict[str, Any]:
    """Run a scenario; returns the engine's outcome plus every event."""
    box = build_box(data)
    events: list[GameEvent] = []
    t = 0

    def advance(to_us: int) -> None:
        events.extend(box.step(to_us))

    for index, step in enumerate(data.get("steps", [])):
        where = f"step {index} ({json.dumps(step)[:80]})"
        if not isinstance(step, dict):
            raise ScenarioError(f"{where}: a step is a JSON object")
        body = next((step[k] for k in CORE_STEPS if k in step), None)
        stamp = step.get("t_us", body.get("t_us") if isinstance(body, dict) else None)
        if "tick" in step:
            stamp = step["tick"]
        if stamp is not None:
            if isinstance(stamp, bool) or not isinstance(stamp, int):
                raise ScenarioError(f"{where}: t_us must be a whole number of microseconds, not {stamp!r}")
            if stamp < t and "press" not in step and "edge" not in step and "action" not in step:
                raise ScenarioError(f"{where}: t_us {stamp} goes back in time (previous step was at {t})")
            t = max(t, stamp)
        try:
            if "edge" in step:
                e = step["edge"]
                advance(int(e["t_us"]))
                box.edge(Edge(int(e["station"]), str(e["input"]), int(e["level"]), int(e["t_us"])), int(e.get("precision_us", 1)))
                advance(int(e["t_us"]))
            elif "press" in step:
                advance(t)
                events.extend(box.apply_press(Press.from_json(step["press"])))
            elif "host" in step:
                advance(t)
                args = {k: v for k, v in step.items() if k not in ("host", "t_us")}
                events.extend(box.host(str(step["host"]), t, **args))
            elif "action" in step:
                a = dict(step["action"])
                advance(t)
                player = a.pop("player", None)
                kind = a.pop("kind")
                a_t = int(a.pop("t_us", t))
                precision = int(a.pop("precision_us", 1))
                events.extend(box.apply_action(Action(str(kind), a_t, None if player is None else int(player), a, precision)))
            elif "tick" in step:
                advance(t)
            else:
                action = box.spec.scenario_step(step, t)
                if action is None:
                    raise ScenarioError(
                        f"{where}: unknown step; use one of {', '.join(CORE_STEPS)} or a {box.spec.name} step"
                    )
                advance(t)
                events.extend(box.apply_action(action))
        except ScenarioError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise ScenarioError(f"{where}: {exc.__class__.__name__}: {exc}") from exc
    # let trailing bounce trains settle so a last press is not left pending
    advance(t + box.debouncer.config.bounce_us)
    return {**box.summary(), "events": [e.to_json() for e in events]}


def check(data: dict[str, Any], outcome: dict[str, Any]) -> list[str]:
    """Differences between a scenario's ``expect`` block and its outcome."""
    problems = []
    for key, want in data.get("expect", {}).items():
        got = outcome.get(key, "<missing>")
        if got != want:
            problems.append(f"{key}: expected {json.dumps(want)}, got {json.dumps(got)}")
    return problems


run_scenario = run  # the name game tests use
