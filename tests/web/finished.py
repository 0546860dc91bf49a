"""Finished games for the tests of what a game's end says (pygame-free: a
probe of the phones' server, which must load no pygame, plays them too)."""

from __future__ import annotations

from typing import Any

from controller.box.press import Press
from controller.box.runtime import Box
from controller.box.scenario import build_box
from controller.box.simulate import BOTS_END_WITHIN_US, Session
from games import registry

#: one reaction round to end the game (not carried on by itself): Cy starts early, Bob is first after GO at 2 s
REACTION_ENDS: dict[str, Any] = {
    "game": "reaction", "players": 3, "seed": 1,
    "options": {"min_delay_us": 2_000_000, "max_delay_us": 2_000_000, "rounds": 1, "auto_next": False},
    "steps": [{"host": "start", "t_us": 0},
              {"press": {"station": 2, "input": "bell", "t_us": 1_000_000}},
              {"press": {"station": 1, "input": "bell", "t_us": 2_300_000}},
              {"press": {"station": 0, "input": "bell", "t_us": 2_400_000}}],
}


def scripted(data: dict[str, Any]) -> Box:
    """A box that played ``data``'s host and press steps (a scenario file's, as ``buzzerbox scenario`` plays them)."""
    box = build_box(data)
    for step in data["steps"]:
        if "host" in step:
            box.step(step["t_us"])
            box.host(step["host"], step["t_us"])
        else:
            box.step(step["press"]["t_us"])
            box.apply_press(Press.from_json(step["press"]))
    return box


def played(game: str, seed: int = 3) -> Box:
    """A box whose bots played ``game`` to its end (as ``game_check`` plays it)."""
    spec = registry.get(game)
    settings = spec.settings(max(spec.min_players, min(4, spec.max_players)), seed, **spec.demo_options)
    box = Box(spec, settings)
    Session(box, spec.new_bots(settings), spec.new_host(settings), seed).run_virtual(BOTS_END_WITHIN_US)
    assert box.engine.finished, f"{game}: the bots did not finish"
    return box
