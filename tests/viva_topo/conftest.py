"""A tiny local scenario runner until controller/scenario.py lands on this branch."""

from __future__ import annotations

from typing import Any

from games.base import Action
from games.registry import get


def run_scenario(data: dict[str, Any]) -> dict[str, Any]:
    """Apply a scenario's steps to a fresh engine; return summary + events."""
    spec = get(data["game"])
    options = {key: data[key] for key in spec.scenario_options if key in data}
    engine = spec.new_engine(spec.settings(data["players"], data.get("seed", 0), **options))
    events = []
    t_us = 0
    for step in data.get("steps", []):
        t_us = int(step.get("t_us", t_us + 1_000))
        action = spec.scenario_step(step, t_us)
        if action is None and "action" in step:
            action = Action.from_json({"t_us": t_us, **step["action"]})
        if action is None:
            raise ValueError(f"step not understood: {step}")
        events += engine.handle(action)
    return {"game": spec.name, **engine.summary(), "events": [e.to_json() for e in events]}
