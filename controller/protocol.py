"""The messages between the deciding process and its peers (docs/processes.md).

Every message that crosses the channel (``controller.channel``) is one of
the frozen classes below, and nothing else does: the deciding process
publishes ``Opened`` (or ``Refused``), the roll call's ``RollCallView``, ``View`` and ``Ended``,
between an evening's games ``Between`` (what the stations do) and ``diag``'s table (``DiagView``); a screen,
the phones' server it relays,
``bench`` and a test send a new game's ``Start`` (an evening's game: ``Play``), the inputs (``EdgeInput`` ...
``WatermarkInput``), host keys, ``Shown``, ``Stop``, the phones' ``Seats``, a socket peer's ``Hello`` (what it
is) and ``PeerLine`` (a line on the screens) and, between an
evening's games, ``PressLamps`` (a press lights its station's lamp: the first start's test press) and
``SetLanguage`` (the menu's language, passed on to the phones' server).
What the deciding process owns and writes for the session (the players' names, the packs folder,
the first start's choices) is asked of it (``SaveNames``, ``UploadPack``, ``SaveSetup``) and answered (``Answered``), on the menu's channel of requests.
The phones' server's start-up speaks it too, framed as on a socket, over its pipes: its starter
writes the game it serves (``Serving``) on its stdin, it answers ``Listening`` (or ``Refused``) on its stdout.

On the wire a message is UTF-8 JSON: ``[PROTOCOL, tag, field, field, ...]``,
the fields in the class's order, the game's values (public view, strip,
event data) as the JSON they already are. No class is rebuilt from the
wire but these and the value objects they hold (``CODECS``), each field
checked as it is read: a frame that is not one is a ``ChannelError``, one
of another protocol a ``VersionMismatch`` that says so in one line.
Change a message's fields and ``PROTOCOL`` goes up by one (tests/core/test_protocol_pin.py
fails until it has, and prints the new pin).
"""

from __future__ import annotations

import json
import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, fields
from enum import Enum, StrEnum
from typing import Any, ClassVar, Union

from controller.box.press import Edge, InputNotice, Press, Watermark
from games.base import Action, BuzzerBoxError, GameEvent
from games.i18n import _

#: the channel's message format; both ends of a channel must speak the same one
PROTOCOL = 12


class ChannelError(BuzzerBoxError):
    """A message that is not one: too long, cut off, or not a message of this protocol."""


class VersionMismatch(ChannelError):
    """The other end speaks another protocol: two installs of the box mixed (one line, the fix)."""

    def __init__(self, theirs: object) -> None:
        self.theirs = theirs
        super().__init__(_("the other process speaks channel protocol {theirs}, this one {ours}: they come from "
                           "two installs of the box; stop both and start them again from the same install")
                         .format(theirs=theirs, ours=PROTOCOL))


@dataclass(frozen=True, slots=True)
class PhonesPanel:
    """What the big screen says of the phones (``screen.phones_panel``), as their server
    sees it now: its address, the seat picker's address (None: a game played
    on the buttons, no seat to join), which seats a phone holds or is taking,
    whether free seats want a phone now, and the host PIN only while the room
    may see it (no host page logged in yet, or a host asked): never otherwise."""

    base_url: str
    join_url: str | None
    held: tuple[bool, ...]
    phones_wanted: bool = True
    pin: str | None = None


# -- deciding process -> peers ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class View:
    """What a screen draws and the phones' server relays: the engine's public
    view, the strip and the box's state, with the events decided since the last."""

    TAG: ClassVar[str] = "view"
    version: int
    t_us: int
    offset_us: int
    public: Mapping[str, Any]
    strip: Sequence[Mapping[str, Any]]
    finished: bool
    paused: bool
    host_paused: bool
    names: tuple[str, ...]
    late_deliveries: int
    guard_us: int
    #: one line while the journal cannot be written (a full card), else None
    journal: str | None = None
    #: one line while a source has stalled (every decision waits the stall time for it) or is waited for
    #: by its stated delay, or for a while after the kernel dropped GPIO edges (``views.inputs_line``), else None
    inputs: str | None = None
    #: the newest decision: (decided, lamp lit) in game µs (a view is published after the lamp)
    decided: tuple[int, int | None] | None = None
    events: tuple[GameEvent, ...] = ()
    #: the phones' pages' snapshot as JSON data (``views.snapshot_message``): only to the screen serving them
    #: (the deciding process's outbox encodes it as it sends the view: ``channel.Outbox.publish``)
    companion: dict[str, Any] | None = None
    #: the pages' public board (JSON text, the hall's scoreboard's): only to a board follower (``Hello``),
    #: built after the lamp in a step that decided something; nothing secret (no private hand)
    board: str | None = None
    #: the lines the peers put on the screens (``PeerLine``), newest per source, in the box's language
    lines: tuple[str, ...] = ()
    #: what the big screen says of the phones (the address, the seats' QR code, the PIN while shown),
    #: as the phones' server last said it (``Panel``); None: no phones served
    phones: PhonesPanel | None = None


#: what a screen shows before the deciding process's first view
NO_VIEW = View(version=0, t_us=0, offset_us=0, public={}, strip=[], finished=False, paused=False, host_paused=False,
               names=(), late_deliveries=0, guard_us=0)


@dataclass(frozen=True, slots=True)
class Opened:
    """The deciding process holds the session's inputs and lamps (its first
    message): what it reads, as the start line names it ("" on keyboard stations)."""

    TAG: ClassVar[str] = "opened"
    inputs: str


@dataclass(frozen=True, slots=True)
class Refused:
    """The deciding process could not take the game (its inputs would not
    open, its journal is another's), or the phones' server could not serve
    (its port is taken: its answer to its starter): the one line saying why and the fix."""

    TAG: ClassVar[str] = "refused"
    line: str


@dataclass(frozen=True, slots=True)
class RollCallView:
    """What the roll call's screen draws: who answered, who is still missing,
    and the stations' strip (the deciding process runs the roll call on its inputs)."""

    TAG: ClassVar[str] = "rollcall"
    view: Mapping[str, Any]
    strip: Sequence[Mapping[str, Any]]


#: the host key that starts the game without the stations that did not answer the roll call
SKIP_ROLL_CALL = "skip roll call"
#: the host actions that skip the roll call too: a GPIO button, or a key of the profile's ``[keys]``
#: (a presenter clicker's next step)
SKIPS_ROLL_CALL = ("arm", "next", "step")
class EndReason(StrEnum):
    """Why a game ended (``Ended.reason``) or is asked to (``Stop.reason``): one
    of these and nothing else crosses the channel (as its text, so the wire
    form is the words it always was)."""

    #: played to its end (and its results shown), or the host left its results screen
    FINISHED = "finished"
    #: its time was up (``--seconds``)
    TIME = "time"
    #: the host went back to the menu (Esc, the host page's End)
    MENU = "menu"
    #: the window was closed
    QUIT = "quit"
    #: Ctrl+C or SIGTERM
    STOPPED = "stopped"
    #: the host left it in its roll call: it never began (no journal)
    NOT_BEGUN = "not begun"


#: the ``Stop`` reasons that end an evening's deciding process between its games
ENDS_EVENING = (EndReason.QUIT, EndReason.STOPPED)
#: the ``Ended`` reason of a game the host left in its roll call: it never began (no journal)
NOT_BEGUN = EndReason.NOT_BEGUN


@dataclass(frozen=True, slots=True)
class Played:
    """A closed game as the screen's side tells of it (``play``'s summary line
    and ``--json``, the menu's "This evening" row): read off the box that
    played it, so that side needs no box of its own."""

    game: str
    names: tuple[str, ...]
    finished: bool
    #: the box's summary (``Box.summary``: the game, players, seed and the engine's summary)
    summary: dict[str, Any]
    #: each station's score (the outcome's, else the summary's)
    scores: tuple[Any, ...]
    #: the outcome's winners (None: the game has no outcome yet)
    winners: tuple[int, ...] | None
    #: the question it stood at and how many there are (games with questions), else None
    question: int | None = None
    questions_total: int | None = None
    #: who won, by name, as the final results name them (a team quiz's teams; none: nobody won)
    won_by: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Ended:
    """The game is closed (journal's end written, lamps off): why, and how it went."""

    TAG: ClassVar[str] = "ended"
    reason: EndReason
    summary: dict[str, Any] | None = None
    late_deliveries: int = 0
    worst_delivery_us: int = 0
    stalls: int = 0
    longest_wait_us: int = 0
    decided_by: dict[str, str] | None = None
    offset_us: int = 0
    stated_delay_us: int | None = None
    decisions: list[list[int | None]] | None = None
    decision_detail: list[dict[str, Any]] | None = None
    #: whether pygame and aiohttp were loaded in the deciding process (they must not be)
    loaded: dict[str, bool] | None = None
    dropped_views: int = 0
    #: records the journal's disk still refused at the close, and the file that keeps them (if any)
    unsaved: int = 0
    unsaved_path: str | None = None
    #: the game as it closed (None: closed before it began, or told by a screen that did not wait)
    played: Played | None = None
    #: the phones' pages as the game closed, offering no move (``views.snapshot_message``): only to the
    #: screen that serves the phones (private hands and all), which shows them between the menu's games
    pages: dict[str, Any] | None = None
    #: the files the deciding process wrote beside the journal at the close (a quiz's results)
    results: tuple[str, ...] = ()
    #: how often (µs) the deciding process's threads took turns at the interpreter (``process.SWITCH_INTERVAL_S``)
    switch_interval_us: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """Its fields by name (what ``play`` and the menu read of how a game ended)."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Between:
    """Between an evening's games (``--evening``): the stations' strip as the
    deciding process's monitor sees it, and the debounced presses since the
    last ``Between`` (the host station's too: they drive the menu's rows)."""

    TAG: ClassVar[str] = "between"
    strip: Sequence[Mapping[str, Any]]
    presses: tuple[Press, ...] = ()


@dataclass(frozen=True, slots=True)
class DiagView:
    """``buzzerbox diag``'s table, from the deciding process that holds the
    profile's inputs (``--diag``): each input's row as its monitor debounces
    it (``monitor.diag_view``: state, counts, bounce, the box µs of its last
    press) and the stations' strip. Sent when either changed and once a second."""

    TAG: ClassVar[str] = "diag"
    inputs: Sequence[Mapping[str, Any]]
    strip: Sequence[Mapping[str, Any]]


# -- peers -> deciding process ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bots:
    """Simulated players play every station (``demo``, the menu's simulated
    players' games): an input source of the deciding process
    (``controller/box/bots.py``), seeded by the game's seed; with
    ``board_sim`` their presses go through a simulated input board."""

    board_sim: bool = False


@dataclass(frozen=True, slots=True)
class NewGame:
    """A new game as its screen chose it: what the deciding process builds the
    journal's session header from (``session.started_box``), with its own
    profile's stations, debounce and name (the screen's process never builds
    a header nor writes a journal). ``station_names`` None: "Player n", in
    the deciding process's language; ``mode`` "demo": simulated players'."""

    game: str
    players: int
    seed: int
    options: dict[str, Any]
    station_names: tuple[str, ...] | None = None
    mode: str = "play"


@dataclass(frozen=True, slots=True)
class Start:
    """A new game: the first message to a deciding process started ``--new``,
    which journals it (header first); ``bots``: simulated players play it (None: people do)."""

    TAG: ClassVar[str] = "start"
    game: NewGame
    bots: Bots | None = None


@dataclass(frozen=True, slots=True)
class Play:
    """An evening's next game (to a deciding process started ``--evening``,
    between games): its ``journal``, a new ``game`` (None:
    the journal's game is resumed, ``carry_on`` past an early end), whether
    the stations are called first (``roll_call``), whether its screen serves
    the phones (``web``), where the game is imported from (``register``:
    GAME=PACKAGE, one the deciding process knows already: ``registry.known``), how to start a screen for it again (``screen``) and
    whether simulated players play it (``bots``, as in ``Start``)."""

    TAG: ClassVar[str] = "play"
    journal: str
    game: NewGame | None
    register: str
    screen: tuple[str, ...] = ()
    roll_call: bool = False
    carry_on: bool = False
    web: bool = False
    #: with ``web``: the phones' pages of the game as it starts (``views.snapshot_message``), for the
    #: evening's phones' server until the game's first snapshot (``Serving``)
    pages: dict[str, Any] | None = None
    bots: Bots | None = None


@dataclass(frozen=True, slots=True)
class EdgeInput:
    """A station's raw edge, stamped where it happened (the keyboard read by a screen)."""

    TAG: ClassVar[str] = "edge"
    edge: Edge
    precision_us: int


@dataclass(frozen=True, slots=True)
class PressInput:
    TAG: ClassVar[str] = "press"
    press: Press


@dataclass(frozen=True, slots=True)
class NoticeInput:
    TAG: ClassVar[str] = "notice"
    notice: InputNotice


@dataclass(frozen=True, slots=True)
class ActionInput:
    """A phone's or the host page's action, stamped."""

    TAG: ClassVar[str] = "action"
    action: Action


@dataclass(frozen=True, slots=True)
class WatermarkInput:
    """How far a forwarding source (the keyboard read by the screen) has delivered."""

    TAG: ClassVar[str] = "watermark"
    mark: Watermark


@dataclass(frozen=True, slots=True)
class HostKey:
    """A host key by name, stamped ``t_us`` (game time)."""

    TAG: ClassVar[str] = "host"
    name: str
    t_us: int


@dataclass(frozen=True, slots=True)
class Shown:
    """The frame with the newest card / GO flipped at ``t_us`` (game time)."""

    TAG: ClassVar[str] = "shown"
    t_us: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the game (``reason``: menu, quit, finished, stopped). Between an
    evening's games, "quit" and "stopped" end the evening (a "menu" or
    "finished" then came too late for the game it meant: ignored)."""

    TAG: ClassVar[str] = "stop"
    reason: EndReason = EndReason.MENU


@dataclass(frozen=True, slots=True)
class PressLamps:
    """Between an evening's games: from now on a station's press lights its
    bell's lamp and it stays lit (``on``), or every lamp goes dark and
    presses light none (the first start's test press: each station's lamp
    says it was heard, lit by the process that holds the lamps)."""

    TAG: ClassVar[str] = "presslamps"
    on: bool


@dataclass(frozen=True, slots=True)
class Seats:
    """The phones' server's seats' codes, PIN, replay counters and port
    (``CompanionServer.secrets``): sent whenever they change and to each
    deciding process it connects to (phones' server -> deciding), which keeps
    them for its whole life (an evening's every game) and hands them back to
    a phones' server that says hello (deciding -> phones' server; empty: none
    kept): one started again restores them, so its phones keep their seats."""

    TAG: ClassVar[str] = "seats"
    seats: dict[str, Any]


#: what a peer on the viewer socket is (``Hello.role``): a plain viewer (the views, as ``bench`` gets them),
#: a board follower (the views with the pages' public board: the league's link), the phones' server
#: (the views with the pages' snapshot, private hands and all, as the screen serving the phones gets them)
VIEWER, BOARD, PHONES = "viewer", "board", "phones"
ROLES = (VIEWER, BOARD, PHONES)


@dataclass(frozen=True, slots=True)
class Hello:
    """A peer on the viewer socket says what it is, first (``ROLES``; a peer
    that sends none is a plain viewer) and who it is (``name``, for the log)."""

    TAG: ClassVar[str] = "hello"
    role: str
    name: str = ""


@dataclass(frozen=True, slots=True)
class PeerLine:
    """A peer's one line on the screens, in the box's language (None: taken
    back): the deciding process keeps the newest per ``source`` and sends them
    in every view (``View.lines``), the screens show them as an aside."""

    TAG: ClassVar[str] = "peerline"
    source: str
    text: str | None = None
@dataclass(frozen=True, slots=True)
class Panel:
    """The phones' server's ``PhonesPanel`` changed (phones' server -> deciding):
    the next views carry it to every screen (None: it serves no more)."""

    TAG: ClassVar[str] = "panel"
    panel: PhonesPanel | None


@dataclass(frozen=True, slots=True)
class ShowPin:
    """The box's own key (k) asks for the host PIN on the big screen for a minute,
    and lets every address try the PIN again (screen -> deciding -> phones' server)."""

    TAG: ClassVar[str] = "showpin"


# -- the menu's evening and its phones' server (menu <-> evening's deciding process <-> phones' server) ----


@dataclass(frozen=True, slots=True)
class Serving:
    """The game a phones' server serves: where it is imported from (GAME=PACKAGE, one the server knows
    already: ``registry.known``) and its pages as it starts (until its first snapshot; a seat's page
    each). Its starter writes one on its stdin (the first game), and the evening's deciding process
    sends the evening's next game with phones as it takes the menu's ``Play`` (deciding -> phones'
    server): the server keeps its port, PIN and seats' codes."""

    TAG: ClassVar[str] = "serving"
    register: str
    pages: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Listening:
    """The phones' server listens (its answer to its starter, on its stdout, once it holds its
    seats): where the phones, the scoreboard and the host page are, the host PIN and the port it
    bound (its starter starts one again on it). Its refusal is a ``Refused``."""

    TAG: ClassVar[str] = "listening"
    url: str
    host: str
    pin: str
    port: int


@dataclass(frozen=True, slots=True)
class NextGame:
    """The menu's next game and its options as the host page shows them between games
    (menu -> deciding -> the evening's phones' server: ``Menu.next_game``), sent when it changes."""

    TAG: ClassVar[str] = "nextgame"
    next: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StartNext:
    """The host page's "start" between games (phones' server -> deciding -> menu): the menu starts
    its next game as its Start row would."""

    TAG: ClassVar[str] = "startnext"


@dataclass(frozen=True, slots=True)
class SetOption:
    """The host page chose an option of the menu's next game (phones' server -> deciding -> menu)."""

    TAG: ClassVar[str] = "setoption"
    key: str
    value: Any


@dataclass(frozen=True, slots=True)
class HostRenamed:
    """A player's name typed on the host page (phones' server -> deciding -> menu): the menu's next
    games use it (a game running journals it as its own notice too). Sent to the menu between games."""

    TAG: ClassVar[str] = "hostrenamed"
    seat: int
    name: str


#: what the host page asks of the menu through the evening's deciding process
MENU_ASKS = (StartNext, SetOption, HostRenamed)


@dataclass(frozen=True, slots=True)
class SetLanguage:
    """The box's language changed (the menu's Language row, the first start's walk-through): menu ->
    the evening's deciding process (its own texts, its views' words and a screen it starts speak it from
    now on) -> its phones' server (its pages too). Neither is started again: the inputs stay open, the
    phones keep their seats."""

    TAG: ClassVar[str] = "language"
    language: str


# -- what the deciding process owns, asked of it (the menu's requests) and answered ----------------


@dataclass(frozen=True, slots=True)
class SaveNames:
    """The players' names as the menu has them (its names editor, a rename on
    the host page): the deciding process keeps them in the names file for its profile."""

    TAG: ClassVar[str] = "names"
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SaveSetup:
    """The first start's choices (``controller/apps/first_run.py``): the box's
    language and its wiring profile (None: keyboard stations); the deciding
    process keeps them in the first start's marker, which it owns as the
    names file (the menu starts with them next time)."""

    TAG: ClassVar[str] = "setup"
    language: str | None
    profile: str | None


@dataclass(frozen=True, slots=True)
class UploadPack:
    """A pack sent from the host page: the file's ``name`` and its bytes as
    base64 (``data``); the deciding process checks it and saves it in its packs folder."""

    TAG: ClassVar[str] = "pack"
    name: str
    data: str


@dataclass(frozen=True, slots=True)
class Answered:
    """What became of a request: ``accepted``, the lines the host reads (a
    pack's: one per problem or remark; a refusal's: the one line saying why
    and the fix), and the name a pack was saved under (None: not saved)."""

    TAG: ClassVar[str] = "answered"
    accepted: bool
    lines: tuple[str, ...] = ()
    saved: str | None = None


Message = (View | Opened | Refused | RollCallView | Ended | Between | DiagView | Start | Play | EdgeInput | PressInput | NoticeInput | ActionInput | WatermarkInput | HostKey | Shown | Stop
           | PressLamps | Seats | Hello | PeerLine | SaveNames | SaveSetup | UploadPack | Answered | Panel | ShowPin
           | Serving | Listening | NextGame | StartNext | SetOption | HostRenamed | SetLanguage)
#: the inputs a screen keeps while no deciding process listens: the next one gets them
STATION_INPUTS = (EdgeInput, PressInput)
MESSAGES: tuple[type[Any], ...] = typing.get_args(Message)


# -- the value objects a message holds --------------------------------------------------------


def _int(value: Any) -> int:
    if type(value) is not int:
        raise TypeError(f"{value!r:.40} is not a whole number")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{value!r:.40} is not a text")
    return value


def _dict(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError(f"{value!r:.40} is not an object")
    return value


def _list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TypeError(f"{value!r:.40} is not a list")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{value!r:.40} is not true or false")
    return value


def _same(value: Any) -> Any:
    return value


def _event(data: Any) -> GameEvent:
    if not isinstance(data, dict):
        raise TypeError("an event is an object")
    player = data.get("player")
    return GameEvent(_str(data["kind"]), _int(data["t_us"]), None if player is None else _int(player),
                     _dict(data.get("data", {})))


#: how each value object a message holds goes on the wire and comes back (its journal form where it has one)
CODECS: dict[type[Any], tuple[Callable[[Any], Any], Callable[[Any], Any]]] = {
    GameEvent: (GameEvent.to_json, _event),
    Action: (Action.to_json, lambda data: Action.from_json(_dict(data))),
    Press: (Press.to_json, lambda data: Press.from_json(_dict(data))),
}


_Codec = tuple[Callable[[Any], Any] | None, Callable[[Any], Any]]


def _codec(hint: Any) -> _Codec:
    """(write, read) for a field of type ``hint``; write None: the value is its own JSON."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint in CODECS:
        return CODECS[hint]
    if origin in (Union, types.UnionType) and type(None) in args:
        (inner,) = [a for a in args if a is not type(None)]
        write, read = _codec(inner)
        if write is None:
            return None, lambda v: None if v is None else read(v)
        to = write
        return (lambda v: None if v is None else to(v)), (lambda v: None if v is None else read(v))
    if isinstance(hint, type) and issubclass(hint, Enum):  # as its value; another is refused as it is read
        kind = hint
        return (lambda v: kind(v).value), (lambda v: kind(_str(v)))
    if origin is tuple and args[-1] is Ellipsis:
        write, read = _codec(args[0])
        each = write
        return ((lambda v: list(v)) if each is None else (lambda v: [each(x) for x in v]),
                lambda v: tuple(read(x) for x in _list(v)))
    if origin is tuple:
        reads = [_codec(a)[1] for a in args]
        return (lambda v: list(v), lambda v: tuple(r(x) for r, x in zip(reads, _list(v), strict=True)))
    simple: dict[Any, Callable[[Any], Any]] = {int: _int, str: _str, bool: _bool, dict: _dict, Mapping: _dict,
                                               list: _list, Sequence: _list, Any: _same}
    return None, simple[origin or hint]


@dataclass(frozen=True)
class _Form:
    """One message class's wire form: its fields' codecs in order."""

    cls: type[Any]
    names: tuple[str, ...]
    writes: tuple[Callable[[Any], Any] | None, ...]
    reads: tuple[Callable[[Any], Any], ...]
    required: int


def _form(cls: type[Any]) -> _Form:
    hints = typing.get_type_hints(cls, vars(sys.modules[__name__]))
    names = tuple(f.name for f in fields(cls))
    codecs = [_codec(hints[name]) for name in names]
    required = sum(1 for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING)
    return _Form(cls, names, tuple(w for w, _r in codecs), tuple(r for _w, r in codecs), required)


def _value(cls: type[Any]) -> tuple[Callable[[Any], Any], Callable[[Any], Any]]:
    """A frozen dataclass of plain fields (each checked as a message's are) as the list of its fields."""
    form = _form(cls)

    def write(value: Any) -> list[Any]:
        return [getattr(value, name) if w is None else w(getattr(value, name))
                for name, w in zip(form.names, form.writes, strict=True)]

    def read(data: Any) -> Any:
        items = _list(data)
        if not form.required <= len(items) <= len(form.names):
            raise TypeError(f"a {cls.__name__} has {len(form.names)} fields")
        return cls(*(r(item) for r, item in zip(form.reads, items, strict=False)))

    return write, read


#: the value objects without a journal form of their own: the list of their fields
CODECS.update({cls: _value(cls) for cls in (Edge, InputNotice, Watermark, Played, PhonesPanel, Bots, NewGame)})
_FORMS: dict[str, _Form] = {cls.TAG: _form(cls) for cls in MESSAGES}
_FORM_OF: dict[type[Any], _Form] = {form.cls: form for form in _FORMS.values()}


def dumps(message: Message) -> bytes:
    """A message's body on the wire (``[PROTOCOL, tag, fields...]`` as UTF-8 JSON)."""
    form = _FORM_OF.get(type(message))
    if form is None:
        raise ChannelError(f"a {type(message).__name__} is not a message of the channel's protocol")
    out: list[Any] = [PROTOCOL, form.cls.TAG]
    try:
        for name, write in zip(form.names, form.writes, strict=True):
            value = getattr(message, name)
            out.append(value if write is None else write(value))
        return _ENCODER.encode(out).encode()
    except (TypeError, ValueError, RecursionError) as exc:
        raise ChannelError(f"a {form.cls.TAG} message holds something that is not plain data ({exc})") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON has")


#: made once: a JSON coder made per call costs as much as the coding of a small message
#: (no check for circular data: a game's views are JSON data, and a cycle is a RecursionError, refused)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False)
_DECODER = json.JSONDecoder(parse_constant=_no_constant)
#: how a pickle begins (protocol 2 and later): the channel's format before ``PROTOCOL`` 1
_PICKLE = b"\x80"


def loads(body: bytes) -> Message:
    """A message back from its body; ChannelError if it is not one (VersionMismatch: another protocol's)."""
    if body[:1] == _PICKLE:
        raise VersionMismatch(0)
    try:
        data = _DECODER.decode(body.decode())
    except (ValueError, RecursionError):
        raise ChannelError("a message that is not JSON: refused") from None
    if not isinstance(data, list) or len(data) < 2:
        raise ChannelError("a message without a protocol and a type: refused")
    if data[0] != PROTOCOL or type(data[0]) is not int:
        if type(data[0]) is int:
            raise VersionMismatch(data[0])
        raise ChannelError("a message without a protocol and a type: refused")
    form = _FORMS.get(data[1]) if isinstance(data[1], str) else None
    if form is None:
        raise ChannelError(f"a message of an unknown type {str(data[1])[:40]!r}: refused")
    items = data[2:]
    if not form.required <= len(items) <= len(form.names):
        raise ChannelError(f"a {form.cls.TAG} message with {len(items)} fields: refused")
    try:
        return form.cls(*(read(item) for read, item in zip(form.reads, items, strict=False)))  # type: ignore[no-any-return]
    except (TypeError, ValueError, KeyError, RecursionError) as exc:
        raise ChannelError(f"a {form.cls.TAG} message that is not one ({str(exc)[:80]}): refused") from None
