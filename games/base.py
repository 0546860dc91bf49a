"""The contract between the box runtime and every game engine.

Engines are sans-I/O state machines (h11 style): actions in, events out, time
passed in. They never read a clock, never touch a device and never use global
randomness, so a journal of (settings, actions, ticks) replays to the exact
same state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

#: Host actions every engine understands (engines may add their own).
HOST_SHOWN = "shown"  # the display flipped the frame that shows the newest card / GO
#: the inputs were away (an unplugged board) and are back: ``args["paused_us"]``
#: says for how long, stamped at the moment they went away. Engines stop their
#: clocks for that long: no answer timer or reaction window runs out unseen.
HOST_RESUME = "resume"


@dataclass(frozen=True)
class Action:
    """One thing a player or the host did, stamped on the box timeline.

    ``player`` is None for host actions. ``precision_us`` is how finely the
    source could stamp ``t_us``; arbitration never claims an order finer than
    the coarser precision of two actions.
    """

    kind: str
    t_us: int
    player: int | None = None
    args: Mapping[str, Any] = field(default_factory=dict)
    precision_us: int = 1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "t_us": self.t_us}
        if self.player is not None:
            out["player"] = self.player
        if self.args:
            out["args"] = dict(self.args)
        if self.precision_us != 1:
            out["precision_us"] = self.precision_us
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        return cls(
            kind=str(data["kind"]),
            t_us=int(data["t_us"]),
            player=None if data.get("player") is None else int(data["player"]),
            args=dict(data.get("args", {})),
            precision_us=int(data.get("precision_us", 1)),
        )


@dataclass(frozen=True)
class GameEvent:
    """Something the players should notice: the runtime turns these into
    light, sound and screen changes, and logs them.

    Common kinds: ``winner``, ``queue``, ``early``, ``correct``, ``wrong``,
    ``show`` (a new card / GO must appear: the runtime answers with a
    ``shown`` host action once the frame is on screen), ``timer_warning``,
    ``round_over``, ``game_over``, ``message``.
    """

    kind: str
    t_us: int
    player: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "t_us": self.t_us}
        if self.player is not None:
            out["player"] = self.player
        if self.data:
            out["data"] = dict(self.data)
        return out


class BuzzerBoxError(Exception):
    """The one root of every error the box raises on purpose.

    Its message is one line for a person: what is wrong and how to fix it.
    Apps catch this root, print the message and exit 1; anything else that
    escapes is a bug.
    """


class RuleError(BuzzerBoxError, ValueError):
    """An action the rules do not allow right now (the engine state is unchanged)."""


@dataclass(frozen=True)
class GameSettings:
    """Everything an engine needs to start; the journal's first line holds it."""

    players: int
    seed: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "seed": self.seed, "options": dict(self.options)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSettings:
        return cls(
            players=int(data["players"]),
            seed=int(data.get("seed", 0)),
            options=dict(data.get("options", {})),
        )


@runtime_checkable
class Engine(Protocol):
    """What the runtime, the journal replay, scenarios and scenes rely on.

    Time rules: ``handle(action)`` first lets time pass up to ``action.t_us``
    (as ``tick`` would) unless the action is stamped earlier than time already
    seen (late-arriving presses are ranked by their stamp, not their arrival).
    Any state change made by ``tick`` emits at least one event, so the journal
    only needs the ticks that emitted something to replay exactly.
    """

    settings: GameSettings

    def handle(self, action: Action) -> list[GameEvent]:
        """Apply one player or host action; raise RuleError if not allowed."""
        ...

    def tick(self, now_us: int) -> list[GameEvent]:
        """Let time pass: fire timeouts whose deadline is <= now_us."""
        ...

    def next_deadline_us(self) -> int | None:
        """When the next timeout falls due (lets simulations jump ahead)."""
        ...

    @property
    def finished(self) -> bool: ...

    def public_view(self) -> dict[str, Any]:
        """What the shared screen may show. Must contain ``phase``, ``scores``
        (per player) and ``status`` (per player: idle, first, queued, locked,
        out, turn, won ...). Never hidden information."""
        ...

    def private_view(self, player: int) -> dict[str, Any]:
        """Hidden information of one player only (hands, secret words)."""
        ...

    def summary(self) -> dict[str, Any]:
        """JSON-ready outcome for ``scenario --json``, ``simulate`` and ``replay``."""
        ...

    def legal_actions(self, player: int | None) -> list[str]:
        """Action kinds this player (None: the host) may send now."""
        ...
