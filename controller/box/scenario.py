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
     "expect": {"winner": 0, "log_contains": ["..."], "rejected": 1}}

``description`` says what the scenario shows; ``rulebook`` (optional, for
people) cites the rule it shows: ``{"language", "quote", "meaning"}``, a short
quote in the rulebook's language and what it means in our own words.

A step's ``t_us`` defaults to the previous step's. ``expect`` (optional) names
outcome keys that must match, by one rule for every game (``check``): a dict
matches by the keys the expectation names; a list of numbers (a per-player row,
a queue, margins) matches in order; any other list (mice on a space, cards on a
table, tied groups) matches as a multiset; anything else exactly.
``log_contains`` lists texts each found in some log line (the engine's own
``log`` and one line per event); ``rejected`` is how many steps the engine
refused. A refused step without ``rejected`` in ``expect`` is a difference, so
a scenario cannot pass on a step that silently did nothing.

Numbers are range-checked before anything runs (times up to ``MAX_SCENARIO_US``,
stations and players bounded), so a bad file is one line naming the step and
the field, never a traceback or a game played for a billion years.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from controller.box.debounce import DebounceConfig
from controller.box.press import Edge, Press
from controller.box.profile import did_you_mean
from controller.box.runtime import Box
from games.base import Action, BuzzerBoxError, EventKind, GameEvent
from games.files import FileRefused, json_fault, read_limited
from games.i18n import N_, _, ngettext, worded_text
from games.registry import get as get_game

CORE_STEPS = ("edge", "press", "host", "action", "tick")
_CORE_KEYS = {"game", "players", "seed", "options", "stations", "debounce", "steps", "expect", "description", "name",
              "rulebook"}
#: the latest time a scenario may reach: a day of play, far beyond any game,
#: and small enough that an engine ticked there finishes in a moment
MAX_SCENARIO_US = 86_400_000_000
MAX_PLAYERS = 64
MAX_STEPS = 100_000
#: whole-number fields of a step and their ranges
_STEP_NUMBERS: dict[str, tuple[int, int]] = {
    "t_us": (0, MAX_SCENARIO_US),
    "tick": (0, MAX_SCENARIO_US),
    "station": (-1, MAX_PLAYERS),
    "player": (0, MAX_PLAYERS),
    "level": (0, 1),
    "precision_us": (1, 10_000_000),
    "edges": (1, 1_000_000),
    "paused_us": (0, MAX_SCENARIO_US),
}
#: what a run may raise on a value the checks above cannot foresee (an option of
#: the wrong type deep in an engine): turned into one line naming the step
_BAD_VALUE_ERRORS = (KeyError, IndexError, TypeError, ValueError, ArithmeticError, AttributeError, RecursionError)


#: a scenario is a page of steps; the longest shipped one is a few kB
MAX_SCENARIO_BYTES = 8_000_000


class ScenarioError(BuzzerBoxError, ValueError):
    """A scenario file that cannot be run; the message names the step."""


def load(path: str | Path) -> dict[str, Any]:
    p = Path(path)
    try:
        text = read_limited(p, MAX_SCENARIO_BYTES, N_("scenario (.json)")).decode("utf-8")
        data = json.loads(text.removeprefix("\ufeff"))  # a byte-order mark (Windows' Notepad writes one) is no fault
    except FileRefused as exc:
        raise ScenarioError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(_("{path}: not UTF-8 text (byte {byte}); save it as UTF-8 JSON").format(
            path=p, byte=exc.start)) from exc
    except json.JSONDecodeError as exc:
        line, column, reason = json_fault(exc)  # the json module's English, said in our words
        where = _("line {line}").format(line=line)
        raise ScenarioError(f"{p} {where}: {worded_text(str(reason), {'column': column})}") from exc
    except RecursionError as exc:
        raise ScenarioError(_("{path}: brackets nested too deeply to be a scenario").format(path=p)) from exc
    except (OSError, ValueError) as exc:  # unreadable, or numbers too long to read
        raise ScenarioError(_("{path}: cannot be read as a scenario ({error})").format(path=p, error=exc)) from exc
    if not isinstance(data, dict):
        raise ScenarioError(_("{path}: a scenario is a JSON object with \"game\", \"players\" and \"steps\"").format(path=p))
    return data


def _whole(value: Any, what: str, low: int, high: int, unit: str = "") -> int:
    """A whole number within [low, high], or a ScenarioError naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScenarioError(_("{what} must be a whole number{unit}, not {value}").format(
            what=what, unit=unit, value=repr(str(value)[:40])))
    if not low <= value <= high:
        raise ScenarioError(_("{what} is {value}; use a whole number{unit} in {low}..{high}").format(
            what=what, value=str(value)[:40], unit=unit, low=low, high=high))
    return value


def _check_numbers(body: Mapping[str, Any], where: str) -> None:
    for key, (low, high) in _STEP_NUMBERS.items():
        if key in body and not (key == "player" and body[key] is None):
            unit = _(" of microseconds") if key in ("t_us", "tick", "precision_us", "paused_us") else ""
            _whole(body[key], f"{where}: {key}", low, high, unit)


def build_box(data: dict[str, Any]) -> Box:
    if "game" not in data or "players" not in data:
        raise ScenarioError(_("a scenario needs \"game\" and \"players\"; add them to the JSON object"))
    try:
        spec = get_game(str(data["game"]))
    except LookupError as exc:
        raise ScenarioError(str(exc)) from exc
    extra = set(data) - _CORE_KEYS - set(spec.scenario_options)
    if extra:
        raise ScenarioError(
            _("unknown scenario key(s) {keys} for {game}; known: {known}").format(
                keys=sorted(extra), game=spec.name, known=sorted(_CORE_KEYS | set(spec.scenario_options)))
        )
    for key, kind in (("options", dict), ("debounce", dict), ("expect", dict), ("steps", list)):
        if key in data and not isinstance(data[key], kind):
            raise ScenarioError((_("\"{key}\" must be a JSON object, not {value}") if kind is dict
                                 else _("\"{key}\" must be a JSON list, not {value}")).format(key=key, value=repr(data[key])))
    if "stations" in data and not isinstance(data["stations"], list):
        raise ScenarioError(_("\"stations\" must list one station kind per player, e.g. [\"full\", \"compact\"]"))
    if len(data.get("steps", [])) > MAX_STEPS:
        raise ScenarioError(_("{n} steps; a scenario has at most {limit}").format(n=len(data["steps"]), limit=MAX_STEPS))
    players = _whole(data["players"], "\"players\"", 1, MAX_PLAYERS)
    seed = _whole(data.get("seed", 0), "\"seed\"", 0, 2**63 - 1)
    options = dict(data.get("options", {}))
    for key in spec.scenario_options:
        if key in data:
            options[key] = data[key]
    timing_keys = {f.name for f in dataclasses.fields(DebounceConfig)}
    unknown = sorted(set(data.get("debounce", {})) - timing_keys)
    if unknown:
        raise ScenarioError(_("unknown \"debounce\" key(s) {keys}{hint}; known: {known}").format(
            keys=unknown, hint=did_you_mean(str(unknown[0]), timing_keys), known=sorted(timing_keys)))
    try:
        settings = spec.settings(players, seed, **options)
        debounce = DebounceConfig(**data.get("debounce", {}))
    except (BuzzerBoxError, *_BAD_VALUE_ERRORS) as exc:
        raise ScenarioError(_("scenario settings: {error}").format(error=exc)) from exc
    try:
        return Box(spec, settings, data.get("stations"), debounce=debounce)
    except (BuzzerBoxError, *_BAD_VALUE_ERRORS) as exc:  # the engine refused its settings (a bad card, an unknown option)
        raise ScenarioError(f"{spec.name}: {exc}") from exc


def run(data: dict[str, Any]) -> dict[str, Any]:
    """Run a scenario; returns the engine's outcome plus every event."""
    box = build_box(data)
    events: list[GameEvent] = []
    t = 0

    def advance(to_us: int) -> None:
        events.extend(box.step(to_us))

    where = _("the start")
    try:
        for index, step in enumerate(data.get("steps", [])):
            where = _("step {index} ({step})").format(index=index, step=json.dumps(step)[:80])
            _run_step(box, step, where, t, advance, events)
            t = max(t, _step_time(step, t))
        where = _("the end")
        # let trailing bounce trains settle so a last press is not left pending
        advance(t + box.debouncer.config.bounce_us)
        where = _("the outcome")
        return {**box.summary(), "events": [e.to_json() for e in events]}
    except ScenarioError:
        raise
    except (BuzzerBoxError, *_BAD_VALUE_ERRORS) as exc:
        raise ScenarioError(_("{where}: {problem}").format(where=where, problem=exc)) from exc


def _step_time(step: Any, t: int) -> int:
    """The time a step happens at: its own ``t_us`` (or the tick), else the previous step's."""
    if not isinstance(step, dict):
        return t
    if "tick" in step:
        return int(step["tick"])
    body = next((step[k] for k in CORE_STEPS if k in step), None)
    stamp = step.get("t_us", body.get("t_us") if isinstance(body, dict) else None)
    return t if stamp is None else int(stamp)


def _checked_step(step: Any, where: str, t: int) -> int:
    """A step's shape and numbers checked (a line naming what is wrong otherwise); the time it
    runs at, never before the previous step's (a press, an edge or an action keep their own stamp)."""
    if not isinstance(step, dict):
        raise ScenarioError(_("{where}: a step is a JSON object {{...}}").format(where=where))
    _check_numbers(step, where)
    for key in ("edge", "press", "action"):
        if key in step:
            if not isinstance(step[key], dict):
                raise ScenarioError(_("{where}: \"{key}\" must be a JSON object").format(where=where, key=key))
            _check_numbers(step[key], where)
    stamp = _step_time(step, t)
    if stamp < t and "press" not in step and "edge" not in step and "action" not in step:
        raise ScenarioError(_("{where}: t_us {stamp} goes back in time (previous step was at {t})").format(where=where, stamp=stamp, t=t))
    return max(t, stamp)


def _run_step(
    box: Box, step: Any, where: str, t: int, advance: Callable[[int], None], events: list[GameEvent]
) -> None:
    """Validate one step's numbers, then hand it to the box at its time."""
    t = _checked_step(step, where, t)
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
                    _("{where}: unknown step; use one of {steps} or a {game} step")
                    .format(where=where, steps=", ".join(CORE_STEPS), game=box.spec.name)
                )
            advance(t)
            events.extend(box.apply_action(action))
    except ScenarioError:
        raise
    except KeyError as exc:
        raise ScenarioError(_("{where}: missing field {field}; add it to the step").format(where=where, field=exc)) from exc
    except (BuzzerBoxError, *_BAD_VALUE_ERRORS) as exc:
        raise ScenarioError(_("{where}: {problem}").format(where=where, problem=exc)) from exc


# --------------------------------------------------------------------- checking


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _differences(want: Any, got: Any, where: str) -> list[str]:
    """Where ``got`` does not match ``want`` by the module's one rule."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return [f"{where}: expected an object, got {_canonical(got)}"]
        out: list[str] = []
        for key, value in want.items():
            if key not in got:
                out.append(f"{where}.{key}: missing (outcome has {', '.join(sorted(map(str, got)))})")
            else:
                out += _differences(value, got[key], f"{where}.{key}")
        return out
    if isinstance(want, list) and isinstance(got, list):
        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in [*want, *got])
        same = want == got if numbers else Counter(map(_canonical, want)) == Counter(map(_canonical, got))
        return [] if same else [f"{where}: expected {_canonical(want)}, got {_canonical(got)}"]
    if want != got or type(want) is bool and type(got) is not bool:
        return [f"{where}: expected {_canonical(want)}, got {_canonical(got)}"]
    return []


def log_lines(outcome: Mapping[str, Any]) -> list[str]:
    """What ``log_contains`` searches: the engine's log, then one line per event
    (``kind player N {data}``)."""
    lines = [str(line) for line in outcome.get("log", []) or []]
    for event in outcome.get("events", []):
        who = "" if event.get("player") is None else f" player {event['player']}"
        data = event.get("data") or {}
        lines.append(f"{event.get('kind')}{who} {_canonical(data)}" if data else f"{event.get('kind')}{who}")
    return lines


def check(data: Mapping[str, Any], outcome: Mapping[str, Any]) -> list[str]:
    """Differences between a scenario's ``expect`` block and its outcome, in
    the order ``expect`` names them; a refused step is one unless expected."""
    expect = dict(data.get("expect", {}) or {})
    problems: list[str] = []
    texts = expect.pop("log_contains", None)
    rejected_want = expect.pop("rejected", None)
    for key, want in expect.items():
        if key not in outcome:
            problems.append(f"{key}: missing from the outcome (it has {', '.join(sorted(outcome))})")
        else:
            problems += _differences(want, outcome[key], key)
    if texts is not None:
        lines = log_lines(outcome)
        for text in texts if isinstance(texts, list) else [texts]:
            if not any(str(text) in line for line in lines):
                problems.append(f"log_contains: no log line contains {_canonical(text)}")
    refused = [e for e in outcome.get("events", []) if e.get("kind") == EventKind.REJECTED]
    if rejected_want is None:
        if refused:
            first = refused[0]
            why = (first.get("data") or {}).get("why", "")
            problems.append(
                f"rejected: the engine refused {len(refused)} step(s), first at {first.get('t_us')} µs "
                f"({why}); add \"rejected\": {len(refused)} to expect if the scenario means it"
            )
    elif rejected_want != len(refused):
        problems.append(f"rejected: expected {rejected_want} refused step(s), got {len(refused)}")
    return problems


def expectations(data: Mapping[str, Any]) -> int:
    """How many expectations a scenario states (each log text counts as one)."""
    expect = data.get("expect", {}) or {}
    texts = expect.get("log_contains", [])
    return len([k for k in expect if k != "log_contains"]) + (len(texts) if isinstance(texts, list) else 1)


run_scenario = run  # the name game tests use


def command(path: str | Path, *, as_json: bool = False, with_events: bool = False) -> int:
    """``buzzerbox scenario FILE``: run, print the outcome, then "N expectations
    met" or the first difference (and how many more); 1 on a difference or a bad
    file, with one line on stderr and no traceback."""
    import sys

    try:
        data = load(path)
        outcome = run(data)
    except ScenarioError as exc:
        print(f"buzzerbox scenario: {exc}", file=sys.stderr)
        return 1
    problems = check(data, outcome)
    if as_json:
        shown = outcome if with_events else {k: v for k, v in outcome.items() if k != "events"}
        print(json.dumps(shown, indent=2, sort_keys=True))
    else:
        for key in ("winner", "queue", "margins_us", "ties", "early", "scores"):
            if key in outcome:
                print(f"{key}: {outcome[key]}")
    if problems:
        more = (ngettext(" (and {n} more)", " (and {n} more)", len(problems) - 1).format(n=len(problems) - 1)
                if len(problems) > 1 else "")
        print(_("{path}: expectation not met: {problem}{more}").format(path=path, problem=problems[0], more=more),
              file=sys.stderr)
        return 1
    met = expectations(data)
    print(_("{path}: {expectations} met").format(
        path=path, expectations=ngettext("{n} expectation", "{n} expectations", met).format(n=met)),
        file=sys.stderr if as_json else sys.stdout)
    return 0
