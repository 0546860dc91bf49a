"""Helpers for the Schicki Micki tests: a tiny scenario driver (to be replaced
by controller.scenario.run_scenario once it lands on this branch) and a bot
game driver."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from controller.press import Press
from games.base import Action, GameSettings, RuleError
from games.schicki_micki import SPEC
from games.schicki_micki.engine import SchickiMickiEngine

SCENARIOS = Path(__file__).parent / "scenarios"


def load(name: str) -> dict[str, Any]:
    return json.loads((SCENARIOS / name).read_text())


def run_scenario(data: Mapping[str, Any]) -> dict[str, Any]:
    """Apply a scenario's steps to a fresh engine; output like the core runner."""
    options = {k: data[k] for k in SPEC.scenario_options if k in data}
    settings = SPEC.settings(int(data["players"]), int(data.get("seed", 0)), **options)
    engine = SPEC.new_engine(settings)
    events = []
    t_us = 0
    for step in data["steps"]:
        t_us = int(step.get("t_us", t_us))
        if "tick" in step:
            t_us = int(step["tick"])
            events += engine.tick(t_us)
            continue
        if "action" in step:
            fields = dict(step["action"])
            t_us = int(fields.pop("t_us", t_us))
            kind, player = fields.pop("kind"), fields.pop("player", None)
            action: Action | None = Action(kind=kind, t_us=t_us, player=player, args=fields)
        elif "press" in step:
            fields = dict(step["press"])
            t_us = int(fields.get("t_us", t_us))
            press = Press(int(fields["station"]), str(fields["input"]), t_us)
            action = SPEC.button_map(press, str(fields.get("station_kind", "full")))
        else:
            action = SPEC.scenario_step(step, t_us)
            if action is None:
                raise ValueError(f"unknown scenario step {step!r}")
        if action is not None:
            events += engine.handle(action)
    return {"game": SPEC.name, **engine.summary(), "events": [e.to_json() for e in events]}


def play_bot_game(players: int, seed: int, **options: Any) -> SchickiMickiEngine:
    """A whole game: bots watch the public view, their presses go through the
    button map; the display answers every show with a ``shown`` 16 ms later."""
    settings: GameSettings = SPEC.settings(players, seed, **options)
    engine = SPEC.new_engine(settings)
    assert isinstance(engine, SchickiMickiEngine)
    bots = SPEC.new_bots(settings)
    pending: list[tuple[int, int, int, str]] = []  # (t, order, station, input)
    order = 0
    events = engine.tick(0)
    now = 0
    for _ in range(100_000):
        view = engine.public_view()
        for station, bot in enumerate(bots):
            for planned in bot.observe(view, events, now):
                pending.append((planned.t_us, order, station, planned.input))
                order += 1
        shows = [e for e in events if e.kind == "show"]
        events = []
        if shows:
            events += engine.handle(Action("shown", shows[-1].t_us + 16_000))
        pending.sort()
        deadline = engine.next_deadline_us()
        if pending and (deadline is None or pending[0][0] < deadline):
            t, _, station, name = pending.pop(0)
            now = max(now, t)
            action = SPEC.button_map(Press(station, name, t, precision_us=1), "full")
            if action is not None:
                with contextlib.suppress(RuleError):
                    events += engine.handle(action)
        elif deadline is not None:
            now = deadline
            events += engine.tick(deadline)
        else:
            break
    return engine
