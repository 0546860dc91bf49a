"""One late tick gives what many small ones give, in any engine.

Each engine fires its deadlines through the contract's ``fire_due``, each at
its own time, so its events (and their stamps) never depend on how often the
runtime ticks. This plays a seeded bot game on the box (virtual time) and
keeps every action the engine was handed, then replays those actions on a
fresh engine twice: ticking only once, late, right before each action (and
once at the end), and ticking every ``step_us`` in between. Both replays
must give the same events, with the same stamps, as each other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from controller.box.runtime import Box
from controller.box.simulate import Session
from games import registry
from games.base import Action, GameEvent, RuleError

#: how long one bot game may run (virtual time)
LIMIT_US = 600_000_000

Played = list[tuple[str, int, int | None, Any]]


def handed_actions(game: str, players: int, seed: int, most: int) -> tuple[list[Action], int]:
    """The first ``most`` actions a seeded bot game handed its engine, and when it stopped."""
    spec = registry.get(game)
    settings = spec.settings(players, seed, **spec.demo_options)
    box = Box(spec, settings)
    session = Session(box, spec.new_bots(settings), spec.new_host(settings), seed)
    handed: list[Action] = []
    handle = box.engine.handle

    def recording(action: Action) -> list[GameEvent]:
        handed.append(action)
        return handle(action)

    box.engine.handle = recording  # type: ignore[method-assign]
    while not box.engine.finished and session.now_us < LIMIT_US and len(handed) < most:
        due = session.next_time_us()
        if due is None:
            break
        session.step(max(due, session.now_us))
    return handed, session.now_us


def replayed(game: str, players: int, seed: int, actions: list[Action], end_us: int, step_us: int | None) -> Played:
    """The events of ``actions`` on a fresh engine, ticked every ``step_us``
    between them (None: once, late, right before each) and at ``end_us``."""
    spec = registry.get(game)
    engine = spec.new_engine(spec.settings(players, seed, **spec.demo_options))
    events: list[GameEvent] = []
    now = 0

    def ticked_to(t_us: int) -> None:
        nonlocal now
        if step_us is not None:
            while now + step_us < t_us:
                now += step_us
                events.extend(engine.tick(now))
        now = max(now, t_us)
        events.extend(engine.tick(now))

    for action in actions:
        ticked_to(action.t_us)
        try:
            events.extend(engine.handle(action))
        except RuleError:  # refused the same way in both replays, nothing changed
            events.append(GameEvent("refused", action.t_us, action.player, {"kind": action.kind}))
    ticked_to(end_us)
    return [(e.kind, e.t_us, e.player, e.data) for e in events]


def late_and_small_ticks(game: str, players: int = 4, seed: int = 7, most: int = 150,
                         step_us: int = 10_000) -> tuple[Played, Played]:
    """(one late tick per gap, a tick every ``step_us``) of the same actions."""
    actions, end_us = handed_actions(game, players, seed, most)
    assert actions, f"{game}: the bots handed the engine no action"
    return (replayed(game, players, seed, actions, end_us, None),
            replayed(game, players, seed, actions, end_us, step_us))


def one_late_tick_test(game: str) -> Callable[[int], None]:
    """The test a game's own folder runs: seeds 1 and 7, one late tick per gap
    against a tick every 10 ms, the same events (more than a handful)."""

    @pytest.mark.parametrize("seed", [1, 7])
    def test(seed: int) -> None:
        late, small = late_and_small_ticks(game, seed=seed)
        assert len(late) > 20 and late == small

    return test
