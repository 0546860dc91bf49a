"""Viva Topo! rules engine: sans-I/O, seeded, turn based.

Phases: ``roll`` (the current player must roll), ``move`` (a roll is pending
and the player picks one of the listed moves), ``over``.

Decisions beyond board.py's geometry:

* A legal move is a mouse *and* where it goes: the run along the track (or
  into Emmentalia) and, for each house whose arrow space the move reaches,
  turning into that house. A ``move`` action names the mouse and optionally
  ``to`` (``"track"``, a house name such as ``"house-2"``, ``"house"`` when
  only one house is reachable, or the target label); without ``to`` it means
  the run along the track, or the only option the mouse has.
* A mouse may run past the cat (the rulebook only advises against it): it is
  not eaten by its own move, it now stands ahead of the cat, and the cat eats
  it only when it later lands on or passes it. Such moves are marked
  ``passes_cat``. A mouse may not end its move on the cat's space (Decision):
  it stops on the last space before it, like before a full space.
* A cat roll: the player first moves one mouse 1 space (if any can move),
  then the cat moves. When the last mouse leaves the track that move ends
  the game at once; the cat has nobody left to chase.
* A forced roll (``args={"value": 4}`` or ``"cat"``) does not draw from the
  generator; a free roll draws one face from ``random.Random(seed)``.
* Actions with ``player=None`` (scenario steps, host overrides) act for the
  current player; a player's action out of turn is a ``RuleError``.
* ``select``/``confirm`` step through the legal moves (a mouse on an arrow
  space appears once per option) and move the highlighted one.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, cast

from games.base import Action, GameEvent, GameSettings, Outcome, RuleError, checked_options
from games.i18n import N_
from games.viva_topo.board import DEFAULT_BOARD, Board
from games.viva_topo.options import OPTIONS

CAT = "cat"
FACES: tuple[int | str, ...] = (2, 3, 4, 5, CAT, CAT)
NUMBERS = (2, 3, 4, 5)

#: places a mouse can be in
START, TRACK, HOUSE, EMMENTALIA, EATEN, TRAPPED = (
    "start",
    "track",
    "house",
    "emmentalia",
    "eaten",
    "trapped",
)
IN_PLAY = (START, TRACK)
#: events the screen animates (the die, the cat's meal, the trap, cheese), kept in
#: ``public_view()["last_events"]`` with their box time so a scene can draw them
#: from the view and the clock alone
SHOWN_EVENTS = ("roll", "cat", "eaten", "trapped", "cheese", "game_over")
LAST_EVENTS = 8


@dataclass
class Mouse:
    """One mouse; ``space`` is set on the track, ``house`` in a house."""

    id: str
    owner: int
    place: str = START
    space: int | None = None
    house: str | None = None

    @property
    def where(self) -> str:
        if self.place == TRACK:
            return f"space-{self.space}"
        if self.place == HOUSE:
            assert self.house is not None
            return self.house
        return self.place

    @property
    def position(self) -> int:
        """Track position, 0 in the start house."""
        return self.space if self.place == TRACK and self.space is not None else 0


@dataclass(frozen=True)
class Move:
    """One legal move for the pending roll."""

    mouse: str
    kind: str  # "run" (along the track / into Emmentalia) or "house"
    target: str  # "space-7", "emmentalia" or a house name
    steps: int
    shortened: bool
    passes_cat: bool  # the mouse ends ahead of the cat: in danger from its next moves
    path: tuple[int, ...]  # track spaces the mouse covers

    def to_json(self) -> dict[str, Any]:
        return {
            "mouse": self.mouse,
            "kind": self.kind,
            "to": self.target,
            "steps": self.steps,
            "shortened": self.shortened,
            "passes_cat": self.passes_cat,
        }


class Phase(str, Enum):
    """Whose move it is and what it waits for (``public_view()["phase"]`` says its value)."""

    ROLL = "roll"
    MOVE = "move"
    OVER = "over"


class EndReason(Enum):
    """Why a game of Viva Topo! ended."""

    NO_MOUSE_IN_PLAY = "no_mouse_in_play"  # every mouse is home, eaten or trapped


def _check_start(start: Any) -> None:
    """A start's shape: an object of known keys, each of its kind (one line naming the fix otherwise)."""
    if not isinstance(start, Mapping):
        raise ValueError('"start" must be an object with mice, cat, cheese, turn, scores')
    unknown = set(start) - {"mice", "cat", "cheese", "turn", "scores"}
    if unknown:
        raise ValueError(
            f"unknown start keys {sorted(unknown)}: use mice, cat, cheese, turn, scores"
        )
    for key, kind in (("cat", Mapping), ("mice", Mapping), ("cheese", Mapping), ("scores", list)):
        if key in start and start[key] is not None and not isinstance(start[key], kind):
            example = {"cat": '{"lap": 1, "space": 6}', "mice": '{"red-1": 3}',
                       "cheese": '{"house-1": 2}', "scores": "[0, 4]"}[key]
            raise ValueError(f'start "{key}" is {str(start[key])[:40]!r}; give it like {example}')
    for key in ("turn",):
        if key in start and (isinstance(start[key], bool) or not isinstance(start[key], int)):
            raise ValueError(f'start "turn" is {str(start[key])[:40]!r}; give the player number (0, 1, ...)')


class VivaTopoEngine:
    """The whole game state and its rules. Deterministic given settings and actions."""

    def __init__(self, settings: GameSettings, board: Board = DEFAULT_BOARD) -> None:
        self.settings = settings
        self.board = board
        players = settings.players
        if players not in dict(board.mice_per_player):
            counts = sorted(dict(board.mice_per_player))
            raise ValueError(f"Viva Topo! takes {counts[0]}-{counts[-1]} players, not {players}")
        self.players = players
        self.colours = board.player_colours(players)
        options = checked_options(OPTIONS, settings.options, "Viva Topo!")
        self.auto_move_single = bool(options["auto_move_single"])
        self._rng = random.Random(settings.seed)
        self._now = 0
        per = board.mice_count(players)
        self.mice: dict[str, Mouse] = {}
        for owner, colour in enumerate(self.colours):
            for n in range(1, per + 1):
                mouse = Mouse(id=f"{colour}-{n}", owner=owner)
                self.mice[mouse.id] = mouse
        self._symbols = board.cat_symbols
        #: the cat's place along its route, counted in symbols (index into the
        #: symbols, not wrapped): it starts on its numbered symbol s, runs lap 1
        #: (inner ring) s..s+N-1, lap 2 (outer ring) from s+N, and its run ends
        #: back on its start symbol at s+2N
        self._cat_origin = board.cat_start_route(players)
        self.cat_g = self._cat_origin
        self.start_closed = False
        self.house_left = {h.name: h.pieces for h in board.houses}
        self.wheels_left = board.emmentalia_wheels
        self.scores = [0] * players
        self.cheese: list[list[int]] = [[] for _ in range(players)]
        self.current = 0
        self.phase = Phase.ROLL
        self.roll: int | str | None = None
        self.moves: list[Move] = []
        self.highlight = 0
        self.turn_count = 0
        self.winners: list[int] = []
        self.log: list[str] = []
        self.last_events: list[dict[str, Any]] = []
        start = options["start"]
        if start:
            self._apply_start(start)

    # ------------------------------------------------------------------ cat geometry
    @property
    def _n_symbols(self) -> int:
        return len(self._symbols)

    @property
    def cat_done(self) -> bool:
        return self.cat_g >= self._cat_end

    @property
    def _cat_end(self) -> int:
        return self._cat_origin + 2 * self._n_symbols

    @property
    def cat_lap(self) -> int:
        """1 (inner ring, from its start symbol once round) or 2 (outer ring)."""
        return 1 if self.cat_g < self._cat_origin + self._n_symbols else 2

    def _cat_space_at(self, g: int) -> int:
        return self._symbols[g % self._n_symbols]

    @property
    def cat_space(self) -> int | None:
        """Where the cat sits, or None once its two laps are done."""
        return None if self.cat_done else self._cat_space_at(self.cat_g)

    def _cat_step(self) -> int:
        return self.board.cat_speed[0] if self.cat_lap < 2 else self.board.cat_speed[1]

    def _next_space(self, space: int) -> int:
        return space % self.board.spaces + 1

    def _cat_covers(self, route_from: int, route_to: int) -> list[int]:
        """Track spaces the cat runs over moving between two route points."""
        covered: list[int] = []
        for r in range(route_from, route_to):
            space, goal = self._cat_space_at(r), self._cat_space_at(r + 1)
            while True:
                space = self._next_space(space)
                covered.append(space)
                if space == goal:
                    break
        return covered

    # ------------------------------------------------------------------ helpers
    def _colour(self, player: int) -> str:
        return self.colours[player]

    def _event(self, kind: str, text: str, player: int | None = None, **data: Any) -> GameEvent:
        self.log.append(text)
        if kind in SHOWN_EVENTS:
            shown = {"kind": kind, "t_us": self._now, "player": player, "text": text, **data}
            self.last_events = [*self.last_events, shown][-LAST_EVENTS:]
        return GameEvent(kind=kind, t_us=self._now, player=player, data={"text": text, **data})

    def _on_space(self, space: int) -> list[Mouse]:
        return [m for m in self.mice.values() if m.place == TRACK and m.space == space]

    def _in_play(self, player: int | None = None) -> list[Mouse]:
        return [
            m
            for m in self.mice.values()
            if m.place in IN_PLAY and (player is None or m.owner == player)
        ]

    def _parse_value(self, value: Any) -> int | str:
        if isinstance(value, str) and value.strip().lower() == CAT:
            return CAT
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and value in NUMBERS:
            return value
        raise RuleError(N_('the die has no face {value!r}: use 2, 3, 4, 5 or "cat"'), value=value)

    # ------------------------------------------------------------------ legal moves
    def moves_for(self, player: int, steps: int) -> list[Move]:
        """Every legal move of ``player``'s mice for a move of ``steps`` spaces."""
        board = self.board
        cat = self.cat_space
        out: list[Move] = []
        for mouse in self._in_play(player):
            p = mouse.position
            if p + steps > board.spaces:
                path = tuple(range(p + 1, board.spaces + 1))
                out.append(Move(mouse.id, "run", EMMENTALIA, steps, False, False, path))
            else:
                t = p + steps
                while t > p and (t == cat or len(self._on_space(t)) >= board.space_capacity):
                    t -= 1
                if t > p:
                    path = tuple(range(p + 1, t + 1))
                    out.append(
                        Move(
                            mouse.id, "run", f"space-{t}", t - p, t != p + steps, cat in path, path
                        )
                    )
            for house in board.houses:
                if p <= house.arrow_space < p + steps:
                    path = tuple(range(p + 1, house.arrow_space + 1))
                    out.append(
                        Move(mouse.id, "house", house.name, house.arrow_space - p + 1, False, False, path)
                    )
        return out

    def legal_moves(self) -> list[dict[str, Any]]:
        """The moves for the pending roll, in the order the buttons step through them."""
        return [m.to_json() for m in self.moves]

    def _find_move(self, mouse_id: Any, to: Any) -> Move:
        candidates = [m for m in self.moves if m.mouse == mouse_id]
        if not candidates:
            legal = sorted({m.mouse for m in self.moves})
            raise RuleError(N_("mouse {mouse!r} cannot move now: movable mice are {choices}"), mouse=mouse_id,
                            choices=", ".join(legal))
        if to is None or to == "track":
            runs = [m for m in candidates if m.kind == "run"]
            if to is None and len(candidates) == 1:
                return candidates[0]
            if runs:
                return runs[0]
        elif to == "house":
            houses = [m for m in candidates if m.kind == "house"]
            if len(houses) == 1:
                return houses[0]
        else:
            for m in candidates:
                if m.target == to:
                    return m
        options = ", ".join(m.target for m in candidates)
        raise RuleError(N_("mouse {mouse} cannot go to {to!r}: it can go to {choices}"), mouse=mouse_id, to=to,
                        choices=options)

    # ------------------------------------------------------------------ protocol
    @property
    def finished(self) -> bool:
        return self.phase == Phase.OVER

    def next_deadline_us(self) -> int | None:
        return None

    def tick(self, now_us: int) -> list[GameEvent]:
        """No timeouts in this game: time only moves forward."""
        self._now = max(self._now, now_us)
        return []

    def legal_actions(self, player: int | None) -> list[str]:
        if self.finished or player != self.current:
            return []
        if self.phase == Phase.ROLL:
            return ["roll", "bell"]
        return ["move", "select", "confirm", "bell"]

    def handle(self, action: Action) -> list[GameEvent]:
        self.tick(action.t_us)
        if self.finished:
            raise RuleError(N_("the game is over"))
        if action.player is None and action.kind in ("shown", "resume"):
            return []  # no timers: a pause changes nothing
        if action.kind == "bell":  # one button does both: roll, then confirm the highlighted move
            action = replace(action, kind="roll" if self.phase == Phase.ROLL else "confirm")
        if action.kind not in ("roll", "move", "select", "confirm"):
            raise RuleError(N_("unknown action {kind!r}: use roll, move, select or confirm"), kind=action.kind)
        # A host action (player None) acts for the current player: scenarios and host overrides.
        if action.player is not None and action.player != self.current:
            if 0 <= action.player < self.players:
                raise RuleError(N_("it is {colour}'s turn, not {other}'s"), colour=self._colour(self.current),
                                other=self._colour(action.player))
            raise RuleError(N_("no player {n} in a {players}-player game"), n=action.player + 1, players=self.players)
        if action.kind == "roll":
            return self._roll(action.args.get("value"))
        if self.phase != Phase.MOVE:
            raise RuleError(N_("{colour} must roll first (press the bell)"), colour=self._colour(self.current))
        if action.kind == "select":
            step = action.args.get("step", 1)
            if step not in (1, -1):
                raise RuleError(N_("select step must be +1 or -1, not {step!r}"), step=step)
            self.highlight = (self.highlight + step) % len(self.moves)
            return []
        if action.kind == "confirm":
            return self._move(self.moves[self.highlight])
        if "mouse" not in action.args:
            raise RuleError(N_("a move needs args {'mouse': MOUSE_ID}"))
        return self._move(self._find_move(action.args["mouse"], action.args.get("to")))

    # ------------------------------------------------------------------ turn flow
    def _roll(self, forced: Any) -> list[GameEvent]:
        if self.phase != Phase.ROLL:
            raise RuleError(N_("{colour} already rolled: pick a mouse to move"), colour=self._colour(self.current))
        value = self._parse_value(forced) if forced is not None else self._rng.choice(FACES)
        player = self.current
        name = self._colour(player)
        events = [self._event("roll", f"{name} rolls {value}", player, value=value)]
        steps = 1 if value == CAT else int(value)
        if not self._in_play(player):
            if value == CAT:
                events.append(
                    self._event("message", f"{name} has no mice left and moves the cat", player)
                )
                events += self._move_cat()
                if self._check_over(events):
                    return events
            else:
                events.append(
                    self._event("message", f"{name} has no mice left: nothing happens", player)
                )
            return events + self._end_turn()
        self.roll = value
        self.moves = self.moves_for(player, steps)
        self.highlight = 0
        if not self.moves:
            self.roll = None
            text = f"no mouse of {name} can move {steps}: the turn passes"
            if value == CAT:
                text = f"no mouse of {name} can move 1: the cat moves"
            events.append(self._event("message", text, player))
            if value == CAT:
                events += self._move_cat()
                if self._check_over(events):
                    return events
            return events + self._end_turn()
        if self.auto_move_single and len(self.moves) == 1:
            return events + self._move(self.moves[0])
        self.phase = Phase.MOVE
        return events

    def _move(self, move: Move) -> list[GameEvent]:
        player = self.current
        mouse = self.mice[move.mouse]
        was_cat = self.roll == CAT
        events: list[GameEvent] = []
        origin = mouse.where
        text = f"{mouse.id} moves {move.steps} from {origin} to {move.target}"
        if move.shortened:
            rolled = 1 if self.roll == CAT else int(self.roll or 0)
            cat = self.cat_space
            if cat is not None and mouse.position < cat <= mouse.position + rolled:
                text += f" (it may not end on the cat at space-{cat})"
            else:
                text += " (the space ahead was full)"
        if move.passes_cat:
            text += f", past the cat on space-{self.cat_space}: in danger now"
        events.append(
            self._event(
                "move",
                text,
                player,
                mouse=mouse.id,
                **{"from": origin},
                to=move.target,
                steps=move.steps,
                shortened=move.shortened,
            )
        )
        if move.kind == "house":
            mouse.place, mouse.space, mouse.house = HOUSE, None, move.target
            events += self._pay(mouse, move.target)
        elif move.target == EMMENTALIA:
            mouse.place, mouse.space = EMMENTALIA, None
            events += self._pay(mouse, EMMENTALIA)
        else:
            mouse.place, mouse.space = TRACK, int(move.target.split("-")[1])
        self.phase = Phase.ROLL
        self.roll = None
        self.moves = []
        self.highlight = 0
        if self._check_over(events):
            return events
        if was_cat:
            events += self._move_cat()
            if self._check_over(events):
                return events
        return events + self._end_turn()

    def _pay(self, mouse: Mouse, where: str) -> list[GameEvent]:
        player = mouse.owner
        if where == EMMENTALIA:
            left, value = self.wheels_left, self.board.wheel_value
        else:
            left, value = self.house_left[where], self.board.house(where).value
        if left <= 0:
            text = f"{mouse.id} is safe in {where}, but no cheese is left there"
            return [self._event("cheese", text, player, mouse=mouse.id, place=where, value=0)]
        if where == EMMENTALIA:
            self.wheels_left -= 1
        else:
            self.house_left[where] -= 1
        self.scores[player] += value
        self.cheese[player].append(value)
        text = f"{mouse.id} takes cheese worth {value} in {where} ({self._colour(player)} has {self.scores[player]})"
        return [self._event("cheese", text, player, mouse=mouse.id, place=where, value=value)]

    def _move_cat(self) -> list[GameEvent]:
        if self.cat_done:
            return [self._event("message", "the cat has finished its two laps and sleeps")]
        old_space, old_lap = self.cat_space, self.cat_lap
        target = min(self.cat_g + self._cat_step(), self._cat_end)
        covered = self._cat_covers(self.cat_g, target)
        self.cat_g = target
        landing = covered[-1]
        events = []
        if self.cat_done:
            text = f"the cat runs from space-{old_space} to space-{landing} and ends its second lap"
        elif not self.start_closed and self.board.start_exit not in covered:
            text = f"the cat runs from space-{old_space} to space-{landing} (lap 1, on its way to the start exit)"
        else:
            text = f"the cat runs from space-{old_space} to space-{landing} (lap {self.cat_lap})"
        events.append(
            self._event(
                "cat",
                text,
                **{"from": old_space},
                to=landing,
                lap=old_lap,
                covered=covered,
                done=self.cat_done,
            )
        )
        victims = [m for m in self.mice.values() if m.place == TRACK and m.space in covered]
        victims.sort(key=lambda m: covered.index(cast(int, m.space)))  # in the order the cat meets them
        if victims:
            for m in victims:
                m.place, m.space = EATEN, None
            ids = [m.id for m in victims]
            events.append(
                self._event(
                    "eaten",
                    f"THE CAT EATS {', '.join(ids)}",
                    mice=ids,
                    by="cat",
                    how="the cat caught them",
                    spaces=covered,
                )
            )
        if self.board.start_exit in covered and not self.start_closed:
            self.start_closed = True
            trapped = [m for m in self.mice.values() if m.place == START]
            for m in trapped:
                m.place = TRAPPED
            ids = [m.id for m in trapped]
            text = (
                f"the cat passes the start exit: {', '.join(ids)} trapped in the start"
                if ids
                else "the cat passes the start exit: the start is closed"
            )
            events.append(self._event("trapped", text, mice=ids))
        return events

    def _end_turn(self) -> list[GameEvent]:
        self.turn_count += 1
        self.phase = Phase.ROLL
        self.roll = None
        self.moves = []
        self.highlight = 0
        self.current = (self.current + 1) % self.players
        name = self._colour(self.current)
        return [self._event("turn", f"{name}'s turn", self.current)]

    def _check_over(self, events: list[GameEvent]) -> bool:
        if self._in_play():
            return False
        self.turn_count += 1
        self.phase = Phase.OVER
        self.roll = None
        self.moves = []
        best = max(self.scores)
        self.winners = [p for p, s in enumerate(self.scores) if s == best]
        names = " and ".join(self._colour(p) for p in self.winners)
        verb = "win" if len(self.winners) > 1 else "wins"
        events.append(
            self._event(
                "game_over",
                f"no mice left on the way: {names} {verb} with {best}",
                scores=list(self.scores),
                winners=list(self.winners),
            )
        )
        return True

    # ------------------------------------------------------------------ views
    def _status(self, player: int) -> str:
        if self.finished:
            return "won" if player in self.winners else "idle"
        if player == self.current:
            return "turn"
        return "idle" if self._in_play(player) else "out"

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return [self._status(p) for p in range(self.players)]

    def public_view(self) -> dict[str, Any]:
        highlighted = self.moves[self.highlight].to_json() if self.moves else None
        return {
            "phase": self.phase.value,
            "players": list(self.colours),
            "scores": list(self.scores),
            "status": self.station_statuses(),
            "turn": None if self.finished else self.current,
            "turn_count": self.turn_count,
            "board": self.board.to_json(),
            "mice": [
                {
                    "id": m.id,
                    "owner": m.owner,
                    "colour": self.colours[m.owner],
                    "where": m.where,
                    "space": m.space,
                }
                for m in self.mice.values()
            ],
            "cat": {
                "lap": self.cat_lap if not self.cat_done else None,
                "space": self.cat_space,
                "done": self.cat_done,
                # its place on its route in symbols, and where the route ends (bots)
                "route": self.cat_g,
                "route_end": self._cat_end,
                "step": None if self.cat_done else self._cat_step(),
                "start_closed": self.start_closed,
            },
            "cheese_left": {**self.house_left, EMMENTALIA: self.wheels_left},
            "roll": self.roll,
            "legal_moves": self.legal_moves(),
            "highlight": self.highlight if self.moves else None,
            "highlighted": highlighted,
            "winners": list(self.winners),
            "last_events": [
                {k: list(v) if isinstance(v, list) else v for k, v in e.items()}
                for e in self.last_events
            ],
        }

    def private_view(self, player: int) -> dict[str, Any]:
        return {}

    def places(self) -> dict[str, list[str]]:
        """Mouse ids by where they are (``space-N``, house, start, eaten ...)."""
        out: dict[str, list[str]] = {}
        for m in self.mice.values():
            out.setdefault(m.where, []).append(m.id)
        return out

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        if not self.finished:
            return None
        return Outcome(tuple(self.winners), EndReason.NO_MOUSE_IN_PLAY, tuple(self.scores))

    def summary(self) -> dict[str, Any]:
        counts: dict[str, dict[str, int]] = {}
        for m in self.mice.values():
            kind = m.place
            counts.setdefault(self.colours[m.owner], {})
            counts[self.colours[m.owner]][kind] = counts[self.colours[m.owner]].get(kind, 0) + 1
        return {
            "colours": list(self.colours),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "turns": self.turn_count,
            "finished": self.finished,
            "places": self.places(),
            "mice": counts,
            "cat": {
                "lap": None if self.cat_done else self.cat_lap,
                "space": self.cat_space,
                "done": self.cat_done,
            },
            "cheese_left": {**self.house_left, EMMENTALIA: self.wheels_left},
            "log": list(self.log),
        }

    # ------------------------------------------------------------------ scenario start
    def _apply_start(self, start: Mapping[str, Any]) -> None:
        """Set up a mid-game position (scenarios, tests, disputes)."""
        _check_start(start)
        self._start_positions(start)
        for name, left in dict(start.get("cheese", {})).items():
            self._start_cheese(name, left)
        if "scores" in start:
            scores = start["scores"]
            if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 1000 for v in scores):
                raise ValueError(f"start scores are whole numbers 0..1000, not {str(scores)[:40]}")
            if len(scores) != self.players:
                raise ValueError(f"start scores need one number per player ({self.players})")
            self.scores = scores
        self.current = int(start.get("turn", 0)) % self.players

    def _start_positions(self, start: Mapping[str, Any]) -> None:
        """The cat and the mice where the start puts them: the mice left at the start trapped once the
        cat passed its exit, no space fuller than it holds, none on the cat's."""
        cat = start.get("cat")
        if cat is not None:
            self._place_cat(cat)
        if self.board.start_exit in self._cat_covers(self._cat_origin, self.cat_g):  # it passed the start exit
            self.start_closed = True
        for mouse_id, where in dict(start.get("mice", {})).items():
            if mouse_id not in self.mice:
                raise ValueError(f"no mouse {mouse_id!r}: the mice are {', '.join(self.mice)}")
            self._place_mouse(self.mice[mouse_id], where)
        if self.start_closed:
            for m in self.mice.values():
                if m.place == START:
                    m.place = TRAPPED
        for space in range(1, self.board.spaces + 1):
            if len(self._on_space(space)) > self.board.space_capacity:
                raise ValueError(f"space {space} holds more than {self.board.space_capacity} mice")
        if self.cat_space is not None and self._on_space(self.cat_space):
            raise ValueError(f"mice cannot stand on the cat's space {self.cat_space}")

    def _start_cheese(self, name: str, left: Any) -> None:
        """What ``name`` (a house, or Emmentalia's wheels) holds at the start: 0 to what it holds at first."""
        limit = self.board.emmentalia_wheels if name == EMMENTALIA else None
        if name != EMMENTALIA:
            limit = self.board.house(name).pieces
        if isinstance(left, bool) or not isinstance(left, int) or not 0 <= left <= int(limit):  # type: ignore[arg-type]
            raise ValueError(f"{name} holds 0-{limit} cheese, not {left}")
        if name == EMMENTALIA:
            self.wheels_left = int(left)
        else:
            self.house_left[name] = int(left)

    def _place_mouse(self, mouse: Mouse, where: Any) -> None:
        if isinstance(where, int) or (isinstance(where, str) and where.startswith("space-")):
            number = str(where).split("-", 1)[-1]
            if isinstance(where, bool) or not number.isdigit():
                raise ValueError(f"{mouse.id}: unknown place {where!r}: use start, space-N (N a number), a house name, emmentalia, eaten or trapped")
            space = int(number)
            if not 1 <= space <= self.board.spaces:
                raise ValueError(
                    f"{mouse.id}: space {space} is off the track (1-{self.board.spaces})"
                )
            mouse.place, mouse.space = TRACK, space
        elif where in (START, EMMENTALIA, EATEN, TRAPPED):
            mouse.place = where
        elif isinstance(where, str) and where in self.house_left:
            mouse.place, mouse.house = HOUSE, where
        else:
            raise ValueError(
                f"{mouse.id}: unknown place {where!r}: use start, space-N, a house name, "
                "emmentalia, eaten or trapped"
            )

    def _place_cat(self, cat: Mapping[str, Any]) -> None:
        n, origin = self._n_symbols, self._cat_origin
        g = origin
        reachable = []
        while g < self._cat_end:
            reachable.append(g)
            g = min(g + self.board.cat_speed[0 if g < origin + n else 1], self._cat_end)
        if cat.get("done"):
            self.cat_g = self._cat_end
            return
        if "space" not in cat:
            raise ValueError('start "cat" needs its "space" (a cat symbol), e.g. {"lap": 1, "space": 6}, or {"done": true}')
        lap, space = cat.get("lap", 1), cat["space"]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in (lap, space)):
            raise ValueError(f'start "cat": lap and space are whole numbers, not {lap!r} and {space!r}')
        if space not in self._symbols:
            raise ValueError(
                f"the cat stands on cat symbols only: {list(self._symbols)}, not {space}"
            )
        g = (self._symbols.index(space) - origin) % n + origin + (lap - 1) * n
        if lap not in (1, 2) or g not in reachable:
            raise ValueError(f"the cat cannot be on space {space} in lap {lap}")
        self.cat_g = g
