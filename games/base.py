"""The contract between the box runtime and every game engine.

Engines are sans-I/O state machines (h11 style): actions in, events out, time
passed in. They never read a clock, never touch a device and never use global
randomness, so a journal of (settings, actions, ticks) replays to the exact
same state.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal, Protocol, runtime_checkable

from games.arbitration import Stamp, Stamped
from games.i18n import N_, Reason, format_number, reason_english, reason_text, worded_text
from games.panels import PhonePanel, PhoneTable

#: Host actions every engine understands (engines may add their own).
HOST_SHOWN: BoxHostAction = "shown"  # the display flipped the frame that shows the newest card / GO
#: the inputs were away (an unplugged board) and are back: ``args["paused_us"]``
#: says for how long, stamped at the moment they went away. Engines stop their
#: clocks for that long: no answer timer or reaction window runs out unseen.
HOST_RESUME: BoxHostAction = "resume"
#: the host corrects a score (the companion pages' host remote): ``args``
#: ``player`` (a station) and ``points`` (a small whole number, + or -). An
#: engine that keeps points lists it in ``legal_actions(None)`` and answers
#: with an ``adjusted`` event; ``score_adjustment`` checks the args.
HOST_ADJUST = "adjust"
#: the host names a team (the companion pages' host remote): ``args`` ``team``
#: (0-based) and ``name``. An engine with teams lists it in ``legal_actions(None)``,
#: checks the name and answers with an event saying the team's new name.
HOST_TEAM_NAME = "team_name"
#: the most one correction may add or take away
MAX_ADJUST_POINTS = 10


@dataclass(frozen=True, init=False)
class Action(Stamped):
    """One thing a player or the host did, stamped on the box timeline.

    ``player`` is None for host actions. Its ``stamp`` (``t_us``,
    ``precision_us``, ``clock``, ``clock_precision_us``: see ``Stamp``) is
    given either as those four arguments or as one ``stamp``.
    """

    kind: str
    stamp: Stamp
    player: int | None
    args: Mapping[str, Any]

    def __init__(self, kind: str, t_us: int | None = None, player: int | None = None,
                 args: Mapping[str, Any] | None = None, precision_us: int | None = None, clock: str | None = None,
                 clock_precision_us: int | None = None, *, stamp: Stamp | None = None) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "stamp", Stamp.given(stamp, t_us, precision_us, clock, clock_precision_us))
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "args", {} if args is None else args)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "t_us": self.t_us}
        if self.player is not None:
            out["player"] = self.player
        if self.args:
            out["args"] = dict(self.args)
        out.update(self.stamp.to_json())
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Action:
        return cls(
            kind=str(data["kind"]),
            player=None if data.get("player") is None else int(data["player"]),
            args=dict(data.get("args", {})),
            stamp=Stamp.from_json(data),
        )


@dataclass(frozen=True)
class GameEvent:
    """Something the players should notice: the runtime turns these into
    light, sound and screen changes, and logs them.

    Common kinds: ``winner``, ``queue``, ``early``, ``correct``, ``wrong``,
    ``show`` (a new card / GO must appear: the runtime answers with a
    ``shown`` host action once the frame is on screen), ``timer_warning``,
    ``round_over``, ``game_over``, ``message``, ``late_evidence`` (a
    station press stamped before what the game already decided on reached
    the box too late to count: ``data`` has ``pressed_us`` and ``behind_us``;
    the box shows it and journals it, the game never sees the press).

    ``kind`` is an ``EventKind`` (the common ones, above) or the game's own:
    a member of its ``KindEnum`` (the quiz's ``QuizEvent``) or a plain string
    (a new game may bring plain strings; the channel and the journal carry
    the word, so a peer reads back a plain string equal to either).
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
    """An action the rules do not allow right now (the engine state is unchanged).

    Its reason is a message id, marked ``N_()`` where it is raised, with its
    ``arguments`` apart: the engine speaks no language, each viewer (screen,
    phone, terminal) words it in its own (``games.i18n.reason_text``).
    ``str()`` is the English line, for logs and the journal."""

    def __init__(self, reason: Reason, **arguments: Any) -> None:
        self.reason = reason
        self.arguments: dict[str, Any] = arguments
        super().__init__(reason_english(reason, arguments))

    def __reduce__(self) -> tuple[Any, ...]:  # the reason and its arguments survive a copy or a pipe
        return (_rule_error, (self.reason, self.arguments))

    def text(self) -> str:
        """The reason in the current language (the viewer's)."""
        return reason_text(self.reason, self.arguments)

    def to_json(self) -> dict[str, Any]:
        """The refusal as a ``rejected`` event carries it: the English line
        (``why``, as older journals and scenarios have it) and the message id
        with its arguments for a viewer to translate."""
        reason = list(self.reason) if isinstance(self.reason, tuple) else self.reason
        return {"why": str(self), "why_id": reason, "why_args": dict(self.arguments)}


def _rule_error(reason: Reason, arguments: dict[str, Any]) -> RuleError:
    return RuleError(reason, **arguments)


def score_adjustment(action: Action, players: int) -> tuple[int, int]:
    """(station, points) of a ``HOST_ADJUST`` action, or RuleError saying what it takes."""
    station, points = action.args.get("player"), action.args.get("points")
    if not isinstance(station, int) or isinstance(station, bool) or not 0 <= station < players:
        raise RuleError(N_("adjust: 'player' is {station!r}; give a station 0..{last}"), station=station,
                        last=players - 1)
    if not isinstance(points, int) or isinstance(points, bool) or not 0 < abs(points) <= MAX_ADJUST_POINTS:
        raise RuleError(N_("adjust: 'points' is {points!r}; give a whole number from -{most} to {most}, not 0"),
                        points=points, most=MAX_ADJUST_POINTS)
    return station, points


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


@dataclass(frozen=True)
class Outcome:
    """How a game ended, the same for every game (python-chess's ``Outcome``):
    who won (several: a shared win), why, as the game's own ``EndReason``
    enum, and every player's final score. ``Engine.outcome()`` gives it once
    the game is over; ``summary()`` stays each game's own, fuller record."""

    winners: tuple[int, ...]
    reason: Enum
    scores: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"winners": list(self.winners), "reason": self.reason.value, "scores": list(self.scores)}


def best_of(scores: Sequence[int]) -> tuple[int, ...]:
    """The players with the top score (all of them when it is shared); nobody
    when nobody scored: a top of nothing (or less) is no win (a quiz where
    every answer was missed has no winner, not everyone; a penalty quiz's
    player on 0 beside one on -1 scored nothing either)."""
    top = max(scores, default=0)
    return () if top <= 0 else tuple(p for p, s in enumerate(scores) if s == top)


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
        out, turn, won ...). Never hidden information. An engine may also
        offer ``station_statuses()``, that ``status`` list alone: the lamps
        read it without building the whole view (``Box.statuses``), and
        ``first_press()``, the race it is armed for (``FirstPress``: the box
        lights the winner's lamp before the engine's step)."""
        ...

    def private_view(self, player: int) -> dict[str, Any]:
        """Hidden information of one player only (hands, secret words)."""
        ...

    def summary(self) -> dict[str, Any]:
        """JSON-ready record for ``scenario --json``, ``simulate`` and ``replay``."""
        ...

    def outcome(self) -> Outcome | None:
        """Who won and why, typed; None while the game goes on."""
        ...

    def legal_actions(self, player: int | None) -> list[str]:
        """Action kinds this player (None: the host) may send now."""
        ...


# -- the vocabulary a game brings ---------------------------------------------------------
# Generic code (the box, lights, sound, the strip, the keyboard) knows only the
# words below; a game adds its own on its GameSpec, so adding a game never
# means editing generic code.

#: statuses every game may put in ``public_view()["status"]``: the strip, the
#: lights and the theme understand these; a game declares any other it uses
#: (``GameSpec.status_lights``/``status_labels``)
CommonStatus = Literal["idle", "first", "queued", "locked", "out", "turn", "won"]
#: host actions the box itself sends (engines add their own host actions)
BoxHostAction = Literal["shown", "resume"]
#: what the input layer puts over a station's game status
InputStatus = Literal["stuck", "disconnected"]
#: how a station's light shows a status
LightMode = Literal["on", "off", "blink"]
#: the box's synthesised sounds
SoundName = Literal["bell", "buzz", "tick", "fanfare"]

class KindEnum(str, Enum):
    """Event kinds as an enum whose every member is its string: ``EventKind``
    (the common ones) and a game's own (the quiz's ``QuizEvent``). Equal to,
    hashed and written as the word (journals, views, the channel, f-strings,
    logs), so journals written with plain strings keep replaying; a game may
    as well say its own kinds as plain strings."""

    # the string itself wherever it is written (f-strings, logs), on every Python the box runs on
    __str__ = str.__str__
    __format__ = str.__format__  # type: ignore[assignment]


class EventKind(KindEnum):
    """The event kinds every part of the box understands (a game adds its own,
    plain strings or a ``KindEnum`` of its own: ``GameSpec.logged_events``,
    ``event_sounds``, ``clip_cues``). Each is its string (``EventKind.SHOW ==
    "show"``, and so in journals, views and on the channel), so journals
    written before keep replaying."""

    #: a station's bell in a race (the quiz, the reaction duel): when it rang is public (the host page's "first")
    BUZZ = "buzz"
    WINNER = "winner"
    QUEUE = "queue"
    TIE = "tie"
    EARLY = "early"
    CORRECT = "correct"
    WRONG = "wrong"
    #: a new card / GO must appear: the box answers with a ``shown`` host action once the frame is on screen
    SHOW = "show"
    TIMER_WARNING = "timer_warning"
    TIME_UP = "time_up"
    ROUND_OVER = "round_over"
    GAME_OVER = "game_over"
    MESSAGE = "message"
    # the runtime's own
    #: the inputs went away (an unplugged board) / are back (``data["paused_us"]``)
    PAUSED = "paused"
    RESUMED = "resumed"
    #: an action the rules refused (``data``: its kind and the reason)
    REJECTED = "rejected"
    #: a station press that reached the box after what it would have changed was decided
    LATE_EVIDENCE = "late_evidence"
    ADJUSTED = "adjusted"
    #: the host paused / let the game go on (also the host notices' kinds), a seat's name changed
    HOST_PAUSED = "host_paused"
    HOST_CONTINUED = "host_continued"
    RENAMED = "renamed"
    #: the journal's notice changed (``data["notice"]``: the line the screen shows while the card
    #: refuses records, None once they are written again)
    JOURNAL = "journal"


COMMON_STATUS_LIGHTS: Mapping[str, LightMode] = {
    "first": "on", "won": "on", "turn": "on", "queued": "blink",
    "locked": "off", "out": "off", "idle": "off", "stuck": "off", "disconnected": "off",
}
#: the common event kinds (see GameEvent) and the sound each makes
COMMON_EVENT_SOUNDS: Mapping[str, SoundName] = {
    "winner": "bell", "early": "buzz", "wrong": "buzz", "time_up": "buzz", "timer_warning": "tick",
    "game_over": "fanfare",  # every game's end is celebrated (the results screen's podium and confetti)
}
#: common event kinds worth a line in a running box's log (the journal has everything;
#: the runtime words them: ``controller.box.runtime.COMMON_EVENT_WORDS``)
COMMON_LOGGED_EVENTS: frozenset[str] = frozenset(
    {"winner", "tie", "early", "correct", "wrong", "time_up", "round_over", "game_over",
     "paused", "resumed", "rejected", "late_evidence", "adjusted"}
)


@dataclass(frozen=True)
class PlannedPress:
    """A simulated player's intention: press ``input`` at ``t_us`` (the
    simulated switch then bounces realistically around it)."""

    input: str
    t_us: int


class Bot(Protocol):
    """A simulated player: watches the shared screen, decides what to press."""

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[PlannedPress]: ...


@dataclass(frozen=True)
class PlannedAction:
    """A simulated player's phone action: send ``kind`` with ``args`` as its
    own seat at ``t_us`` (what a phone page sends: one of ``legal_moves``)."""

    kind: str
    t_us: int
    args: Mapping[str, Any] = field(default_factory=dict)
    #: how finely the phone's path stamps it (arrival at the box: tens of ms)
    precision_us: int = 1


@runtime_checkable
class PhoneBot(Protocol):
    """A simulated player of a hidden-hand game: it sees the shared screen and
    its own phone (``private_view(seat)``), and answers with station presses
    (the bell: timed fairly like any press) and phone actions."""

    def observe_seat(
        self, view: Mapping[str, Any], private: Mapping[str, Any], events: list[GameEvent], now_us: int
    ) -> list[PlannedPress | PlannedAction]: ...


class HostBot(Protocol):
    """A simulated host (quiz master, card turner) for demos and simulations."""

    def observe(self, view: Mapping[str, Any], events: list[GameEvent], now_us: int) -> list[Action]: ...


#: (action kind, args) a button stands for
Binding = tuple[str, Mapping[str, Any]]
ANY = "*"
#: the option a game declares to hear how many choices (A, B ...) every station
#: can answer on: the box fills it in from the wiring profile (the fewest of any
#: station, ``ButtonMap.choices``), so an engine gets a number, never the wiring
STATION_CHOICES = "station_choices"


@dataclass(frozen=True)
class ButtonMap:
    """Which action each station button stands for, as data: (station kind,
    input) -> (action kind, args), or None for a button the game ignores.

    ``*`` matches any station kind or any input; the most specific entry
    wins: (kind, input), then (*, input), then (kind, *), then (*, *). Data,
    not code, so the menu, the docs and the bots can read it, and no game
    needs the runtime's press type.
    """

    bindings: Mapping[tuple[str, str], Binding | None]

    def lookup(self, station_kind: str, input: str) -> Binding | None:
        for key in ((station_kind, input), (ANY, input), (station_kind, ANY), (ANY, ANY)):
            if key in self.bindings:
                return self.bindings[key]
        return None

    def action(self, station: int, input: str, station_kind: str, t_us: int, precision_us: int = 1,
               clock: str = "", clock_precision_us: int = 0) -> Action | None:
        """The engine action for one debounced press of ``station``'s ``input``."""
        bound = self.lookup(station_kind, input)
        if bound is None:
            return None
        kind, args = bound
        return Action(kind, t_us, station, dict(args), precision_us, clock, clock_precision_us)

    def choices(self, station_kind: str, inputs: Iterable[str]) -> int:
        """How many choices a station with these inputs can pick: its inputs
        bound with a ``choice`` argument (0 for A, 1 for B ...), counted from A
        to the first one it has no input for (buttons a and c pick A only)."""
        picked = set()
        for name in inputs:
            bound = self.lookup(station_kind, name)
            if bound is not None and "choice" in bound[1]:
                picked.add(bound[1]["choice"])
        count = 0
        while count in picked:
            count += 1
        return count


ScenarioStep = Callable[[Mapping[str, Any], int], "Action | None"]
"""(a game-specific scenario step, its t_us) -> engine action, or None if not ours."""


class OptionError(BuzzerBoxError, ValueError):
    """Settings a game cannot start with: a wrong player count, an option of
    the wrong type or out of its range.

    As ``RuleError``, its reason is a message id with its ``arguments``
    apart; ``str()`` words it in the current language (the one the person
    who gave the settings reads), ``english()`` for logs."""

    def __init__(self, reason: Reason, **arguments: Any) -> None:
        self.reason = reason
        self.arguments: dict[str, Any] = arguments
        super().__init__(reason_english(reason, arguments))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_option_error, (self.reason, self.arguments))

    def __str__(self) -> str:
        if isinstance(self.reason, tuple):
            return reason_text(self.reason, self.arguments)
        # an option's name and value stay as the person wrote them; what it takes and the game's name are words
        return worded_text(self.reason, self.arguments, frozenset({"want", "game"}))

    def english(self) -> str:
        return reason_english(self.reason, self.arguments)


def _option_error(reason: Reason, arguments: dict[str, Any]) -> OptionError:
    return OptionError(reason, **arguments)


#: what an option of each type takes, as the option errors say it
_TAKES: dict[type, str] = {int: N_("a whole number"), float: N_("a number"), bool: N_("true or false"),
                           str: N_("text"), list: N_("a list")}


class UnknownGameError(BuzzerBoxError, LookupError):
    """A game name the registry does not know (or a game not built yet)."""


@dataclass(frozen=True)
class Option:
    """One game option: its type, default and range, declared once.

    ``default`` None means "off"/"not set"; ``choices`` are the (value, name)
    pairs the start menu offers (empty: not in the menu). ``passed`` says the
    menu passes the value on even when it is None (None means something).
    """

    default: Any
    type: type | tuple[type, ...] = int
    low: float | None = None
    high: float | None = None
    label: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    nullable: bool = False
    #: filled in by the box (a pack's questions, the wiring's buttons), never typed: not listed to a host
    internal: bool = False

    def check(self, name: str, value: Any) -> None:
        """Raise OptionError naming the option and what it takes."""
        if value is None and (self.nullable or self.default is None):
            return
        types = self.type if isinstance(self.type, tuple) else (self.type,)
        if float in types:
            types = (*types, int)
        if isinstance(value, bool) and bool not in types or not isinstance(value, types):
            wanted = [t for t in types if not (t is int and float in types)]
            if len(wanted) != 1 or wanted[0] not in _TAKES:
                raise OptionError(N_("option {name!r} is {value!r}: give a value of the type {kind}"), name=name,
                                  value=value, kind=" | ".join(t.__name__ for t in wanted))
            if self.nullable:
                raise OptionError(N_("option {name!r} is {value!r}: give {want} or null"), name=name, value=value,
                                  want=_TAKES[wanted[0]])
            raise OptionError(N_("option {name!r} is {value!r}: give {want}"), name=name, value=value,
                              want=_TAKES[wanted[0]])
        number = float(value) if isinstance(value, (int, float)) else None
        if number is None or not ((self.low is not None and number < self.low)
                                  or (self.high is not None and number > self.high)):
            return
        if self.high is None:  # a range open above: "between 1 and -" said nothing of the top
            raise OptionError(N_("option {name!r} is {value!r}: give a value of {low} or more"), name=name,
                              value=value, low=_plain(self.low))
        if self.low is None:
            raise OptionError(N_("option {name!r} is {value!r}: give a value of {high} or less"), name=name,
                              value=value, high=_plain(self.high))
        raise OptionError(N_("option {name!r} is {value!r}: give a value between {low} and {high}"), name=name,
                          value=value, low=_plain(self.low), high=_plain(self.high))


def _plain(bound: float | None) -> str:
    """A range's bound as a person writes it (1000000, not 1000000.0)."""
    return "-" if bound is None else format_number(bound, 0 if float(bound).is_integer() else 3)


#: the start menu's own rows (``controller/screen/menu.py``) by their keys: the menu lists a game's
#: options with choices as rows keyed by the option's name, so such an option named as one of these
#: would be taken for the menu's own row (Pictomania's word list, once named "language", changed the
#: box's language and ended the menu). ``GameSpec`` refuses it; ``category_<n>`` rows are the menu's
#: too (a round's category). An option the menu does not list (Viva Topo's ``start`` position) is
#: never a row: the menu reads a game's options from its game rows only
MENU_ROWS = frozenset({"game", "players", "phones", "names", "bots", "sound", "volume", "language", "usb",
                       "setup", "evening", "start", "category"})
#: the prefix of the menu's per-round category rows (``category_1``, ``category_2`` ...)
MENU_ROW_PREFIX = "category_"


def menu_row_clash(options: Mapping[str, Option]) -> list[str]:
    """The names of the options the start menu lists (with choices) that it keeps for its own rows."""
    return sorted(name for name, option in options.items()
                  if option.choices and (name in MENU_ROWS or name.startswith(MENU_ROW_PREFIX)))


#: the one name of every game's tie window option: stamps closer than this are a
#: tie, on top of their sources' precision (``games.arbitration.tie_threshold_us``)
TIE_WINDOW = "tie_window_us"


def tie_window_option(default: int = 0) -> Option:
    """The tie window, declared the same way by every game that ranks by time."""
    return Option(default, int, low=0, high=1_000_000)


def checked_options(declared: Mapping[str, Option], given: Mapping[str, Any], game: str,
                    retired: frozenset[str] = frozenset(),
                    error: type[OptionError] | None = None) -> dict[str, Any]:
    """``given`` checked against a game's ``Option`` table (type and range, written
    there once) with the defaults filled in, for an engine that reads its options.
    An unknown name is an error naming the known ones; ``retired`` names (older
    journals carry them) are accepted and dropped. ``error``: the engine's
    own option error class, an ``OptionError`` too, so every engine refuses a
    bad option with the same ``OptionError`` (default: the ``OptionError`` itself)."""
    unknown = sorted(set(given) - set(declared) - retired)
    try:
        if unknown:
            public = sorted(name for name, option in declared.items() if not option.internal)
            close = difflib.get_close_matches(unknown[0], public, n=1, cutoff=0.6)
            if close:
                raise OptionError(N_("unknown option {name!r} for {game} (did you mean {close}?); the options are {known}"),
                                  name=unknown[0], game=game, close=close[0], known=", ".join(public))
            raise OptionError(N_("unknown option {name!r} for {game}; the options are {known}"), name=unknown[0],
                              game=game, known=", ".join(public))
        for name, value in given.items():
            if name in declared:
                declared[name].check(name, value)
    except OptionError as exc:
        if error is None:
            raise
        raise error(exc.reason, **exc.arguments) from None
    return {**{name: option.default for name, option in declared.items()},
            **{name: value for name, value in given.items() if name in declared}}


def fire_due(next_deadline_us: Callable[[], int | None], fire: Callable[[int], list[GameEvent]],
             now_us: int) -> list[GameEvent]:
    """Fire every deadline due by ``now_us``, each at its own time and in order
    (one that a firing sets fires too, if due), so an engine's outcome never
    depends on how often the runtime ticks. ``fire(due)`` must move the
    engine past that deadline."""
    events: list[GameEvent] = []
    while (due := next_deadline_us()) is not None and due <= now_us:
        events += fire(due)
    return events


@dataclass(frozen=True)
class LampContest:
    """A race for the first lamp, as the game's public view shows it: an input
    board with lockout lights the first press's lamp itself, at hardware speed,
    and the game's own decision then confirms or overrides it.

    ``key`` names one contest (a new key is a new contest); ``stations`` are
    the ones that may win it now; presses before ``start_us`` (game µs) never
    count; ``winners`` is the game's decision once made (None: still open; ()
    nobody); ``tie_window_us`` widens what the board lights as a tie."""

    key: str
    stations: tuple[int, ...]
    start_us: int
    winners: tuple[int, ...] | None = None
    tie_window_us: int = 0


#: a game's contest for the first lamp from its public view (None: no contest now)
LampContestRule = Callable[[Mapping[str, Any]], "LampContest | None"]

#: a game's public view as a scene and the pages read it (``public_view()``, frozen on the screen)
View = Mapping[str, Any]
#: the box's station strip (``Box.strip()``): one cell per station, its ``name``, ``status``, ``pressed`` ...
Strip = Sequence[Mapping[str, Any]]
#: how a game words the strip's cells from its public view (``GameSpec.strip_wording``)
StripWords = Callable[[View, Strip], Strip]


@dataclass(frozen=True)
class ClipCues:
    """Which of a game's own event kinds drive a question's clip (a pack's
    ``audio`` or ``video`` cell: controller/box/clips.py, the screen's video,
    the phones' "playing"), beside the common kinds the box knows (a
    ``winner``, a ``tie`` and the host's pause pause it; ``round_over`` and
    ``game_over`` stop it). A game without clips declares none."""

    #: a new question is on screen: its ``data`` holds the clip cells; the clip before it stops
    shown: frozenset[str] = frozenset()
    #: the buzzers open: the clip starts (one not started when shown); opened again
    #: (``data["rearmed"]``) or while paused, it plays on
    opening: frozenset[str] = frozenset()
    #: the clip pauses (it plays on at the next opening, or when the host carries on)
    pausing: frozenset[str] = frozenset()
    stopping: frozenset[str] = frozenset()


@dataclass(frozen=True)
class FirstPress:
    """An engine's promise for the race it is armed for, stated ahead of the
    presses (``first_press()``, an engine may offer it): the first ``action``
    by a player in ``stations`` (each from its own stamp on: a lockout's end)
    is given the turn and shows ``status``, ``wait_us`` after its stamp (or
    its precision, if coarser), by the first tick past that moment and past
    the engine's time, provided nothing else reaches the engine before that
    moment: no other input and no deadline of the engine's.

    The box lights that station's lamp the moment its horizon passes the
    decision, before the engine's own step (as a lockout board lights the
    first press); the engine then decides, its time moved to that moment, and
    a decision that differs there is a bug the box checks for
    (``Box.first_press_misses``). Unlike
    ``LampContest`` (the board's own race, a guess the game confirms or
    overrides), this one is exact: a case it does not cover is not declared."""

    stations: Mapping[int, int]  # station -> the first stamp its press counts from
    wait_us: int
    action: str = "buzz"
    status: str = "first"

    def decided_at_us(self, t_us: int, precision_us: int) -> int:
        """When a lone first press stamped ``t_us`` is decided."""
        return t_us + max(self.wait_us, precision_us, 1)


def _no_host(settings: GameSettings) -> HostBot | None:
    return None


#: the box's generic host buttons (keys c, w, n ... on the keyboard; the host page's and a remote's buttons): a game
#: takes each as its own action (``GameSpec.host_aliases``) or not at all (``GameSpec.host_buttons``)
GENERIC_HOST_BUTTONS: tuple[str, ...] = ("arm", "correct", "wrong", "undo", "next", "reset")


def _every_host_key_in_use(view: Mapping[str, Any]) -> tuple[str, ...]:
    return ()


def _no_scenario_step(step: Mapping[str, Any], t_us: int) -> Action | None:
    return None


@dataclass(frozen=True)
class GameSpec:
    """Everything the box needs to know about one game: how to start its
    engine, what its buttons mean, and the words it adds to the box's
    vocabulary (statuses, events, host buttons, options)."""

    name: str
    title: str
    min_players: int
    max_players: int
    new_engine: Callable[[GameSettings], Engine]
    buttons: ButtonMap
    new_bots: Callable[[GameSettings], Sequence[Bot | PhoneBot]]
    new_host: Callable[[GameSettings], HostBot | None] = _no_host
    scenario_step: ScenarioStep = _no_scenario_step
    #: scenario keys (besides game/players/seed/steps) copied into settings.options
    scenario_options: tuple[str, ...] = ()
    #: "module:Class" of the pygame scene, imported only when a screen is drawn
    scene: str | None = None
    #: every option the game takes; their defaults go into every game's settings
    options: Mapping[str, Option] = field(default_factory=dict)
    #: the rules in two short sentences for the start menu, in English and
    #: marked with ``N_`` (the menu shows it in the chosen language)
    summary: str = ""
    #: a full station's inputs (what the simulated players press; what a
    #: simulated input board must wire)
    inputs: tuple[str, ...] = (N_("bell"),)
    #: options the demo and ``simulate`` add so unattended games keep moving
    demo_options: Mapping[str, Any] = field(default_factory=dict)
    #: raised whenever a rules change would make the same presses end
    #: differently; journals keep it, so a replay can say it applies other rules
    rules_version: int = 1
    #: a generic host button (arm, next, reset ...) -> this game's action kinds
    #: for it, tried in order: the first the engine accepts now is sent
    host_aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the generic host buttons (``GENERIC_HOST_BUTTONS``) this game's engine takes, as themselves or through
    #: ``host_aliases``: the help overlay lists only their keys (a board game without a question lists no
    #: "correct"). Declare it in every game; a toy without it is taken to use them all
    host_buttons: tuple[str, ...] = GENERIC_HOST_BUTTONS
    #: keyboard keys (pygame key names) for this game's own host actions
    host_keys: Mapping[str, str] = field(default_factory=dict)
    #: a presenter clicker's "next step" by the public view's phase: this game's
    #: actions, tried in order (a phase not named: the ``arm`` button's)
    host_steps: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: which of this game's own host actions do nothing in this public view: the
    #: help overlay leaves their keys out then (the quiz's bowl marks outside a bowl round)
    unused_host_actions: Callable[[Mapping[str, Any]], Sequence[str]] = _every_host_key_in_use
    #: this game's own host actions -> what the host remote's button says
    #: (marked with ``N_``; default: the action's name)
    host_labels: Mapping[str, str] = field(default_factory=dict)
    #: this game's own phases (``public_view()["phase"]``) -> how the host
    #: remote and the scoreboard say them (marked with ``N_``)
    phase_labels: Mapping[str, str] = field(default_factory=dict)
    #: this game's own event kinds worth a log line (beside the common ones) -> how
    #: the log says it, marked with ``N_`` (``{player}``: the station's name)
    logged_events: Mapping[str, str] = field(default_factory=dict)
    #: this game's own event kinds -> the sound they make (beside the common ones)
    event_sounds: Mapping[str, SoundName] = field(default_factory=dict)
    #: this game's own statuses -> what a station's light does
    status_lights: Mapping[str, LightMode] = field(default_factory=dict)
    #: this game's own statuses -> what the strip cell says (default: the status in capitals)
    status_labels: Mapping[str, str] = field(default_factory=dict)
    #: the strip as this game words it (a cell's own ``label``: a reaction time, "RIGHT", a place in
    #: line; a status renamed): its scene's ``adjust_strip`` calls it for the HDMI screen, and the
    #: phones' server words the pages with it (``adjust_strip`` below) without importing the scene,
    #: so without pygame. It imports no pygame itself (``games/<game>/strip.py``). None: as is
    strip_wording: StripWords | None = None
    #: its scene draws its own end screen (``Scene.own_results``, the same): without one, a finished
    #: game is drawn by the results screen, whose strip the pages and the league's board say too
    #: (``games.toolkit.results_words``)
    own_results: bool = False
    #: the players' secret hands / words are on phones (the companion pages);
    #: ``no_phones_with`` lists option values under which the game plays without
    needs_phones: bool = False
    no_phones_with: Mapping[str, Any] = field(default_factory=dict)
    #: the languages whose catalogue has every text of this game: ``make i18n``
    #: and the catalogue tests list any text of another language still to
    #: translate (it falls back to English on screen) and keep these complete
    translated: tuple[str, ...] = ("en",)
    #: builds one seat's phone page from what that seat may see (``PhoneTable``);
    #: None: the generic page (the private view field by field, moves as text)
    phone_panel: Callable[[PhoneTable], PhonePanel] | None = None
    #: the first press wins the lamp: an input board with lockout lights it itself
    #: for the contest this reads from the public view (None: the box's lamps only)
    lamp_contest: LampContestRule | None = None
    #: which of this game's event kinds show, open, pause and stop a question's clip (none: no clips)
    clip_cues: ClipCues = ClipCues()

    def __post_init__(self) -> None:
        """A game whose option the start menu lists is named as one of the menu's own rows is refused as
        it is declared (its package fails to import, saying why in one line): the menu never takes the
        one for the other."""
        clash = menu_row_clash(self.options)
        if clash:
            raise ValueError(f"game {self.name!r}: option {clash[0]!r} is offered in the start menu under the "
                             f"name of one of the menu's own rows; give it another name (the menu's rows: {', '.join(sorted(MENU_ROWS))}, "
                             f"{MENU_ROW_PREFIX}<n>)")

    @property
    def default_options(self) -> dict[str, Any]:
        return {name: opt.default for name, opt in self.options.items() if opt.default is not None or opt.nullable}

    def settings(self, players: int, seed: int = 0, **options: Any) -> GameSettings:
        if not self.min_players <= players <= self.max_players:
            raise OptionError(N_("{game} takes {low}-{high} players, not {players}: pass --players between {low} "
                                 "and {high}"), game=self.title, low=self.min_players, high=self.max_players,
                              players=players)
        for name, value in options.items():
            if name in self.options:
                self.options[name].check(name, value)
        merged = {**self.default_options, **options}
        return GameSettings(players=players, seed=seed, options=merged)

    def phones_needed(self, options: Mapping[str, Any] | None = None) -> bool:
        """Whether a game with these options needs the players' phones."""
        if not self.needs_phones:
            return False
        chosen = {**self.default_options, **(options or {})}
        return not self.no_phones_with or any(chosen.get(k) != v for k, v in self.no_phones_with.items())

    def menu_starts(self) -> dict[str, Any]:
        """The values the start menu's rows start on in the box's language of
        the moment (the quiz: the shipped pack in that language); a row not
        named starts on the menu's own choice. By default none."""
        return {}

    def menu_fit(self, options: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The start menu's options as the game plays them, and a note (a
        catalogue text, worded when shown) for each change the host should
        read beside the rows: a plan the menu offers may not be kept in full
        with every other choice (the quiz's bowl night with a pack: tossups
        only). By default the options as chosen, nothing to say."""
        return dict(options), ()

    def host_kinds(self, button: str) -> tuple[str, ...]:
        return self.host_aliases.get(button, (button,))

    def logs(self, event_kind: str) -> bool:
        return event_kind in COMMON_LOGGED_EVENTS or event_kind in self.logged_events

    def sound_for(self, event_kind: str) -> SoundName | None:
        return self.event_sounds.get(event_kind) or COMMON_EVENT_SOUNDS.get(event_kind)

    def adjust_strip(self, view: View, strip: Strip) -> Strip:
        """The strip as this game's scene draws it on the HDMI screen (``strip_wording``; the strip
        itself without one): the spec stands in for the scene where none is drawn (a
        ``controller.box.views.StripWording``)."""
        return strip if self.strip_wording is None else self.strip_wording(view, strip)

    def status_light(self, status: str) -> LightMode:
        return self.status_lights.get(status) or COMMON_STATUS_LIGHTS.get(status, "off")
