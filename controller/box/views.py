"""What the pages may see, published by the loop that owns the box.

After each step that changed something, the loop thread turns the engine's
views into JSON text (the encoding is the copy: nothing the server holds is
shared with the engine) and swaps in a new ``Snapshot`` under a lock. The
server thread only ever reads snapshots.

In the split design (docs/processes.md) the deciding process builds them
after the lamp is lit (nothing here imports aiohttp or pygame) and sends
them over the channel to the screen's process, whose server reads them from
a ``RelayedPublisher``.
"""

from __future__ import annotations

import inspect
import json
import logging
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from controller import protocol
from controller.box.clips import ClipPlayer
from controller.box.panels import panel_moves, seat_panel
from controller.box.runtime import Box
from games.base import (
    GENERIC_HOST_BUTTONS,
    HOST_ADJUST,
    HOST_RESUME,
    HOST_SHOWN,
    HOST_TEAM_NAME,
    EventKind,
    GameEvent,
    GameSettings,
    GameSpec,
)
from games.i18n import N_, _, format_number, ngettext, pgettext, refusal_text, word
from games.toolkit.results_words import drawn_strip
from games.toolkit.strip_words import COMMON_STATUS_WORDS, Strip, View, status_label

log = logging.getLogger("buzzerbox.web")

#: the host action that gives a tied turn: ``{"player": seat}`` names who, none draws fairly
PICK = "pick"
#: the generic host buttons (the keyboard's and the host box's), in page order
HOST_BUTTONS = GENERIC_HOST_BUTTONS
#: the host page's way back from a finished game's results (its "next" once the game takes it no more:
#: ``Box.leaves_results``), named for what it does: the menu's evening goes on, ``play`` ends with its game
LEAVE = "leave"
LEAVE_WORDS = {True: N_("Back to the menu"), False: N_("Close the results")}
#: what the host page may ask of the box itself, whatever the game (not the engine's)
BOX_HOST_ACTIONS: tuple[str, ...] = ("pause", "continue", "end")
#: host actions the box sends itself: never a button
BOX_SENT = frozenset({HOST_SHOWN, HOST_RESUME, HOST_ADJUST, HOST_TEAM_NAME})
#: the words for the host actions most games share; a game's own action is
#: shown as its ``GameSpec`` names it, else as the engine names it
ACTION_WORDS: dict[str, str] = {
    "arm": N_("Arm"), "correct": N_("Correct"), "wrong": N_("Wrong"), "undo": N_("Undo"), "next": N_("Next"),
    "reset": N_("Reset"), "pick": N_("Pick (tie)"), "start": N_("Start"), "stop": N_("Stop"),
}
#: the words for the phases most games share (a game's own: ``GameSpec.phase_labels``, its status labels, else its name)
PHASE_WORDS: dict[str, str] = {
    "idle": N_("Waiting"), "armed": N_("Armed: buzz now"), "answering": N_("Answering"), "tie": N_("Tie"),
    "round_over": N_("Round over"), "playing": N_("Playing"), "play": N_("Playing"), "over": N_("Game over"),
}
#: what the scoreboard stream's ``state`` messages look like (docs/companion.md)
BOARD_VERSION = 1
#: events the scoreboard stream keeps for a late joiner
RECENT_EVENTS = 20


def messages() -> dict[str, str]:
    """Every text the pages show, in the box's language (the pages have no
    strings of their own, so the languages work translates them here)."""
    return {
        "box": _("Buzzer box"),
        "player_title": _("Your hand"),
        "host_title": _("Host remote"),
        "board_title": _("Scoreboard"),
        "connecting": _("Connecting to the box…"),
        "reconnecting": _("Connection lost: reconnecting…"),
        "pick_title": _("Choose your seat"),
        "second_host": _("Another host page just logged in (from {address}). If that is not a co-host, change the PIN."),
        "rotate_pin": _("Change the PIN"),
        "rotate_confirm": _("Change the PIN now? Other host pages are logged out. Tap again."),
        "new_pin": _("The new PIN is {pin}: only you see it here."),
        "pin_changed": _("The host changed the PIN: enter the new one."),
        "pick_note": _("Tap your seat. A seat another phone holds goes to you only when the host agrees."),
        "pick_free": _("free"),
        "pick_held": _("held: ask the host"),
        "pick_yours": _("yours: tap to rejoin"),
        "pick_asked": _("Asked the host. Your code is {code}: the host gives the seat to the phone with that code."),
        "pick_denied": _("The host kept that seat where it is: choose another."),
        "given_other": _("The host gave that seat to another phone: choose another."),
        "take_once": _("This phone has taken a seat already: reload the page to choose again."),
        "take_wait": _("Too many seats taken from this network address without joining: wait a minute."),
        "ask_lapsed": _("The host did not answer in time: ask again, or choose another seat."),
        "asks_full": _("Too many phones ask for this seat now: try again in a minute."),
        "full": _("The box is full: try again in a minute."),
        "lockouts": _("Wrong PINs: {addresses} must wait before trying again (other addresses can log in)."),
        "lost_seat": _("This phone no longer holds the seat: choose a seat again."),
        "takeover": _("A phone asks for {name}'s seat with code {code}"),
        "approve": _("Give it"),
        "deny": _("Keep it"),
        "refused": _("The box refused"),
        "bad_token": _("This seat's code is no longer valid: scan the QR code on the big screen again."),
        "no_moves": _("Nothing to do right now: wait for your turn."),
        "replaced": _("This seat was opened on another phone or tab. Tap here to take it back."),
        "your_moves": _("Your moves"),
        "no_private": _("This game is played on the buttons: nothing to show here."),
        "pin": _("Host PIN (shown on the big screen)"),
        "enter": pgettext("button", "Enter"),
        "wrong_pin": _("Wrong PIN."),
        "pin_locked": _("Too many wrong PINs: wait a minute."),
        "seats": _("Seats"),
        "reissue": _("New code"),
        "joined": _("joined"),
        "not_joined": _("not joined"),
        "score": _("Score"),
        "first": _("First"),
        "won": _(COMMON_STATUS_WORDS["won"]),
        "first_by": _("ahead by {time}"),
        "first_alone": _("the only bell"),
        "reaction": _("reaction {time}"),
        "thanks": _("Game over: thank you for playing!"),
        "final_scores": _("Final scores"),
        "by": _("by"),
        "phase": _("Phase"),
        "over": _("Game over"),
        "sent": _("Sent"),
        "seat": _("Seat"),
        "decimal": format_number(0.5, 1)[1],  # the decimal sign the language writes
        "pause": _("Pause"),
        "continue": _("Resume"),
        "end": _("End the game"),
        "end_confirm": _("End this game now? Tap again to end it."),
        "paused": _("Paused"),
        "clip_playing": _("♪ Clip playing"),
        "clip_paused": _("♪ Clip paused"),
        "paused_note": _("The game is paused: the clocks stand still and the bells do nothing."),
        "between": _("No game running: choose the next one in the menu on the big screen."),
        "starting": _("The game is about to start."),
        # the scoreboard between the menu's games: the closed game's final scores stay, none of its words
        "board_between": _("No game running"),
        "roll_call": _("Roll call: every station presses its button once. Not heard from yet: {missing}"),
        "names": _("Names"),
        "teams": _("Teams"),
        "rename": _("Save"),
        "cue_question": _("Question {number}"),
        "cue_answer": _("Answer"),
        "cue_also": _("Also right"),
        "cue_next": _("Next: question {number}"),
        "cue_round": _("Round {n} of {m}"),
        "next_game": _("Next game: {game}"),
        "next_note": _("Chosen here or in the menu; each option applies when that game starts."),
        "next_start": _("Start it now"),
        "evening": _("This evening's games"),
        "no_corrections": _("This game keeps no points the host can correct."),
        "show_pin": _("Show the PIN on the big screen"),
        "pin_shown": _("The big screen shows the PIN for a minute: another host can log in now."),
        "packs_title": _("Question packs"),
        "packs_note": _("Add a pack file (.csv, .json, .xlsx or .ods) to the box's packs folder: it is checked first, then the "
                        "menu's pack row offers it."),
        "pack_send": _("Upload the pack"),
        "pack_choose": _("Choose a pack file first."),
        "pack_saved": _("Pack saved: choose it in the menu's pack row."),
        # ``play`` (no menu): what an upload does there, said instead of the two above
        "packs_note_play": _("This game was started without the menu: a pack uploaded here is checked, then kept in "
                             "the box's packs folder, and the menu's pack row offers it the next time the box runs "
                             "its menu."),
        "pack_saved_play": _("Pack saved: the menu's pack row offers it the next time the box runs its menu."),
        "pack_refused": _("The pack was not saved: fix each problem below and upload it again."),
        "dismiss": _("Dismiss"),  # the host page's refused upload: its word and lines gone
        "tie_title": _("Tie: tap who answers"),
        "tie_note": _("Or let the box draw fairly (the screen's key {key})."),
        # the host page at a game's end: who won (as the menu's evening row says it), in place of the last first bell
        "result_won": _("{winner} won"),
        "result_none": _("No winner"),
    }


def has_seats(engine: Any) -> bool:
    """A game with phone seats: its engine offers ``legal_moves(seat)``
    (Viva Topo!'s ``legal_moves()``, the current player's board moves, is
    not a seat's hand)."""
    kind = type(engine)
    if kind not in _TAKES_A_SEAT:  # asked once per engine class: a snapshot is built after every change
        legal_moves = getattr(kind, "legal_moves", None)
        try:
            _TAKES_A_SEAT[kind] = callable(legal_moves) and inspect.signature(legal_moves).bind(None, 0) is not None
        except (TypeError, ValueError):
            _TAKES_A_SEAT[kind] = False
    return _TAKES_A_SEAT[kind]


_TAKES_A_SEAT: dict[type, bool] = {}


def won_by(engine: Any, names: Sequence[str]) -> list[str]:
    """Who won a finished game, by name, as its final results name them (the engine's ``won_by``:
    a team quiz's teams), else its outcome's winners' ``names``; nobody while it goes on, or when
    the game says nobody won. The host page's result and the menu's evening (``Played.won_by``)."""
    named = getattr(engine, "won_by", None)
    if callable(named):
        return [str(name) for name in named(names)]
    outcome = engine.outcome() if engine.finished and hasattr(engine, "outcome") else None
    return [] if outcome is None else [names[s] if 0 <= s < len(names) else str(s + 1) for s in outcome.winners]


def phones_wanted(engine: Any) -> bool:
    """Whether a game with seats wants phones now (its engine's ``phones_wanted``;
    a game without one always does): the join code stays on the big screen
    only while a phone has something to do."""
    wanted = getattr(engine, "phones_wanted", None)
    return bool(wanted()) if callable(wanted) else True


def teams_for_host(engine: Any, names: Sequence[str]) -> list[dict[str, Any]]:
    """The teams the host may rename now (an engine's ``host_teams``: those its
    boards list), each with its players' names for the host to tell them apart."""
    listed = getattr(engine, "host_teams", None)
    teams = list(listed()) if callable(listed) else []
    return [{**t, "members": [names[s] if 0 <= s < len(names) else str(s + 1) for s in t.get("members", ())]}
            for t in teams]


def station_kinds(spec: GameSpec) -> frozenset[str]:
    """The actions a station's buttons stand for (Fiki Miki's ring,
    Pictomania's done, Piepmatz's confirm): the bell stays on the stations,
    so no phone is offered them or may send them. A phone on Wi-Fi is no
    stopwatch, and a station is how the box knows who pressed."""
    return frozenset(bound[0] for bound in spec.buttons.bindings.values() if bound is not None)


def moves_of(engine: Any, seat: int, barred: frozenset[str] = frozenset()) -> list[dict[str, Any]] | None:
    """The concrete moves a seat may make now, as ``{"kind", "args"[, "preview"]}``,
    without those of a ``barred`` kind (``station_kinds``); None for a game
    played on the buttons only (no ``legal_moves``).

    Engines give ``legal_moves(seat)`` as objects with ``to_json()`` or as
    mappings; either way the page gets plain JSON and sends one back."""
    if not has_seats(engine):
        return None
    out = []
    for move in engine.legal_moves(seat):
        data = move.to_json() if hasattr(move, "to_json") else dict(move)
        if str(data["kind"]) in barred:
            continue
        entry: dict[str, Any] = {"kind": str(data["kind"]), "args": dict(data.get("args") or {})}
        if data.get("preview"):
            entry["preview"] = data["preview"]
        out.append(entry)
    return out


def move_key(kind: str, args: Mapping[str, Any]) -> str:
    """One move as comparable text: what a phone sent must equal an offered move."""
    return json.dumps([kind, args], sort_keys=True, separators=(",", ":"))


def phase_words(spec: GameSpec, phase: object) -> str:
    """A phase as the host and the scoreboard read it, in the box's language."""
    name = str(phase or "")
    if name in spec.phase_labels:
        return _(spec.phase_labels[name])
    if name in PHASE_WORDS:
        return _(PHASE_WORDS[name])
    if name in spec.status_labels and spec.status_labels[name]:
        return _(spec.status_labels[name]).capitalize()
    return name.replace("_", " ").capitalize()


def action_words(spec: GameSpec, kind: str) -> str:
    if kind in spec.host_labels:
        return _(spec.host_labels[kind])
    if kind in ACTION_WORDS:
        return _(ACTION_WORDS[kind])
    return kind.replace("_", " ").capitalize()


def host_buttons(box: Box, legal: Collection[str] | None = None, *, evening: bool = False) -> list[dict[str, str]]:
    """The host's buttons that make sense now: each generic button (and each
    of the game's own host keys) whose action the engine takes now, named
    for what it does in this game (reaction's arm starts), each action once.
    On a finished game's results, the game's own that it takes there (the last
    answer's reveal, an undo) and "next" once the game takes it no more: the way
    back, as the screen's keys go (``Box.leaves_results``), named for where it
    goes (``evening``: the menu's). ``legal``: the host's actions now, if the
    caller has asked the engine already."""
    spec = box.spec
    legal = set(box.engine.legal_actions(None)) if legal is None else legal
    buttons: list[dict[str, str]] = []
    done: set[str] = set()
    for name in (*HOST_BUTTONS, *dict.fromkeys(spec.host_keys.values())):
        kind = box.host_kind(name, legal)
        if kind in legal and kind not in done and kind not in BOX_SENT:
            done.add(kind)
            buttons.append({"name": name, "kind": kind, "label": action_words(spec, kind)})
    if box.leaves_results("next", legal):
        buttons.append({"name": "next", "kind": LEAVE, "label": _(LEAVE_WORDS[evening])})
    return buttons


class StripWording(Protocol):
    """What the pages need of a game's scene: how it words a player's cell. A
    scene draws with pygame, so the deciding process never imports one; the
    game's own wording, which its scene calls, stands in for it where none is
    drawn (``GameSpec.adjust_strip``: the phones' server, the league's follower).
    A finished game without an end screen of its own is worded as the results
    screen words it instead (``strip_as_drawn``), unless the scene draws its own
    end screen (``own_results``; the spec says the same: ``GameSpec.own_results``)."""

    @property
    def own_results(self) -> bool: ...

    def adjust_strip(self, view: View, strip: Strip) -> Strip: ...


#: a page as a ``Pages`` holds it (plain data) or a ``Snapshot`` does (its JSON text)
PageT = TypeVar("PageT")


@dataclass(frozen=True)
class _Published(Generic[PageT]):
    """What one published state holds, its pages as data or as text: the
    fields a ``Pages`` and its ``Snapshot`` share, in the same order."""

    version: int
    board: PageT
    host: PageT
    seats: tuple[PageT, ...]
    offered: tuple[frozenset[str], ...]
    uses_seats: bool
    #: what the host may send now: button names and the box's own (pause, continue, end)
    host_actions: frozenset[str]
    #: the game takes score corrections now (``HOST_ADJUST``)
    adjust: bool = False
    #: a free seat is worth a phone now: the big screen shows its join code (``phones_wanted``)
    phones_wanted: bool = True
    #: the teams the host may rename now (``HOST_TEAM_NAME``), by number: those the boards list
    host_teams: tuple[int, ...] = ()
    #: the tied stations the host may give the turn to now (``PICK``), by seat
    tied: tuple[int, ...] = ()


@dataclass(frozen=True)
class Snapshot(_Published[str]):
    """One published state: JSON text per page, and the moves each seat may send."""


@dataclass(frozen=True)
class Pages(_Published[dict[str, Any]]):
    """One snapshot before its JSON: each page as plain data. Gathered while
    the box is locked (``Publisher.gather``) and encoded after (``snapshot``),
    on any thread: the deciding process holds ``box.lock`` only to copy the
    views, and its outbox's thread writes the text. The engines' views are
    fresh dicts per call (the outbox encodes them unlocked, as protocol messages), so
    nothing here changes once the lock is released."""

    def snapshot(self) -> Snapshot:
        """The pages as the phones get them: JSON text per page."""
        return Snapshot(self.version, json.dumps(self.board, default=str), json.dumps(self.host, default=str),
                        tuple(json.dumps(seat, default=str) for seat in self.seats), self.offered,
                        self.uses_seats, self.host_actions, self.adjust, self.phones_wanted, self.host_teams,
                        self.tied)


class Publisher:
    """Builds snapshots on the deciding thread; ``latest`` is read from any thread.

    After the game (``detach``) the pages hear that none is running."""

    #: a game is about to start (``RelayedPublisher``: its deciding process starts, runs its roll call)
    starting = False
    #: the game is one of the menu's evening (its results close back to the menu), not ``play``'s
    evening = False

    def __init__(self, box: Box | GameAtStart, next_game: Callable[[], Mapping[str, Any] | None] | None = None, *,
                 evening: bool = False) -> None:
        self.box: Box | GameAtStart = box
        #: a game is running on ``box`` (False between the menu's games)
        self.live = True
        self.evening = evening
        #: the menu's next game and its options (``Menu.next_game``), for the host page; None outside the menu
        self.next_game = next_game
        #: the next game as the latest snapshot shows it (JSON): the server compares it with the menu's
        self.next_shown = "null"
        self._lock = threading.Lock()
        self._version = 0
        self._recent: list[dict[str, Any]] = []
        self._bells: list[tuple[int, int]] = []  # (seat, t_us) of the latest bells
        self._rejected: dict[int, str] = {}
        self.listeners: list[Callable[[Snapshot], None]] = []
        #: how the game's scene on the HDMI screen words a player's cell (the quiz's "RIGHT" between
        #: questions), so the pages say the same word: the game's spec (set by ``web.process``)
        self.scene: StripWording | None = None
        #: where the question's clip stands, as the screen's player keeps it (the same events, no mixer):
        #: the phones and the scoreboard say "playing" or "paused"
        self.clips = ClipPlayer(None, keys=("audio", "video"))
        self._latest = self.build()

    @property
    def latest(self) -> Snapshot:
        with self._lock:
            return self._latest

    def detach(self) -> Snapshot:
        """The game closed: the pages keep its last scores and say none is running."""
        with self.box.lock:
            self.live = False
            return self.publish()

    def on_events(self, events: list[GameEvent]) -> None:
        """The box's event hook: publish whenever the game said something.
        Runs on the loop thread inside the box's step: a view the pages cannot
        show is logged, never allowed to stop the game."""
        if events:
            try:
                self.publish(events)
            except Exception:  # noqa: BLE001 (the game goes on; the phones keep their last view)
                log.exception("companion: could not publish the views; the phones keep the last ones")

    def publish(self, events: Sequence[GameEvent] = ()) -> Snapshot:
        """The pages after ``events``, encoded, as the latest snapshot (and to the listeners)."""
        snap = self.gather(events).snapshot()
        with self._lock:
            self._latest = snap
        for listener in list(self.listeners):
            listener(snap)
        return snap

    def gather(self, events: Sequence[GameEvent] = (), view: View | None = None, strip: Strip | None = None) -> Pages:
        """The pages after ``events`` as plain data, not yet encoded (hold
        ``box.lock``): what the public log and the host's "first" keep of
        them is noted here, so each batch of events is gathered once.
        ``view`` and ``strip``: the engine's public view and the strip now,
        if the caller has them already (the deciding process's publish)."""
        self.note(events)
        return self.pages(view, strip)

    def note(self, events: Sequence[GameEvent]) -> None:
        """What the pages keep of ``events`` (hold ``box.lock``), without building them: the
        deciding process with nobody to send them to notes each batch all the same."""
        box = self.box
        self._rejected = {e.player: refusal_text(e.data) for e in events
                          if e.kind == EventKind.REJECTED and e.player is not None}
        for e in events:
            if box.spec.logs(e.kind):  # only what the log says in public
                self._recent.append({"kind": e.kind, "t_us": e.t_us, "player": e.player})
            if e.kind == EventKind.BUZZ and e.player is not None:  # a bell: when it rang is public (the host's big "first")
                self._bells.append((e.player, e.t_us))
        del self._recent[:-RECENT_EVENTS]
        del self._bells[:-RECENT_EVENTS]
        self.clips.on_events(events, box.spec.clip_cues)
        self.clips.poll(max((e.t_us for e in events), default=0))  # a clip with a length has ended by now

    def first_press(self, view: Mapping[str, Any], margins: Mapping[Any, Any],
                    players: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
        """The question's first bell for the host page, big: who, by how much
        ahead of the second, and how long after arming (the reaction time)."""
        seat = fastest_press(margins)
        if seat is None or not 0 <= seat < len(players):
            return None
        armed = view.get("armed_at_us")
        rang = [t for s, t in self._bells if s == seat and isinstance(armed, int) and t >= armed]
        return {"seat": seat, "name": players[seat]["name"], "lead_us": _lead_us(margins),
                "reaction_us": min(rang) - armed if rang and isinstance(armed, int) else None}

    def strip_as_shown(self, view: View, strip: Strip, finished: bool) -> Strip:
        """The strip as the HDMI screen draws it (the scene's own labels, the results
        screen's once a game without an end screen of its own is ``finished``), cell for cell."""
        if self.scene is None:
            return strip
        return strip_as_drawn(self.scene, view, strip, finished)

    def clip_state(self) -> str | None:
        """The question's clip for the pages: "playing", "paused", or None (none, or stopped)."""
        state = self.clips.state
        return state if self.live and state != "stopped" else None

    def build(self) -> Snapshot:
        """The pages now, encoded."""
        return self.pages().snapshot()

    def pages(self, view: View | None = None, strip: Strip | None = None) -> Pages:
        """The pages now as plain data (``gather`` without events)."""
        box, engine, spec = self.box, self.box.engine, self.box.spec
        self._version += 1
        view = engine.public_view() if view is None else view
        strip = box.strip(view) if strip is None else strip
        shown = self.strip_as_shown(view, strip, engine.finished)
        scores = list(view.get("scores") or [])
        players = [{"seat": i, "name": cell["name"], "status": cell["status"],
                    "label": status_label(shown[i], spec.status_labels),
                    "score": scores[i] if i < len(scores) else None} for i, cell in enumerate(strip)]
        margins_view = view.get("margins_us")
        margins: Mapping[Any, Any] = margins_view if isinstance(margins_view, Mapping) else {}
        winner = view.get("winner")
        outcome = engine.outcome() if engine.finished else None  # who won the game, as the game itself says
        phase_label = _("Game over") if engine.finished else phase_words(spec, view.get("phase"))
        clip = self.clip_state()
        board = {"type": "state", "v": BOARD_VERSION, "version": self._version, "game": spec.name,
                 "title": _(spec.title), "phase": view.get("phase"), "phase_label": phase_label,
                 "finished": engine.finished, "live": self.live, "paused": box.host_paused,
                 "question": view.get("question"), "round": view.get("round"), "clip": clip,
                 "first": winner if isinstance(winner, int) else None,
                 "winners": [] if outcome is None else [int(s) for s in outcome.winners],
                 "fastest": fastest_press(margins),
                 "margins_us": {str(k): int(v) for k, v in margins.items()},
                 "players": players, "events": list(self._recent)}
        playing = self.live and not engine.finished
        legal = set(engine.legal_actions(None)) if self.live else set()  # the host's actions now, asked once
        # the final results' too: the last answer, an undo, the way back (as the screen's keys there)
        buttons = (host_buttons(box, legal, evening=self.evening) if self.live and not box.host_paused
                   and isinstance(box, Box) else [])
        seat_pages: list[dict[str, Any]] = []
        offered: list[frozenset[str]] = []
        uses_seats = has_seats(engine)
        barred = station_kinds(spec)
        for seat in range(box.settings.players):
            moves = moves_of(engine, seat, barred) if uses_seats and self.live else None  # none between games
            private = engine.private_view(seat) if uses_seats else {}
            panel = seat_panel(spec, box.station_names, seat, view, private, moves or []) if uses_seats else None
            seat_pages.append({"type": "seat", "version": self._version, "seat": seat, "name": box.station_names[seat],
                                          "title": _(spec.title),
                                          "phase": view.get("phase"), "finished": engine.finished, "clip": clip,
                                          "private": private, "moves": moves or [],
                                          "panel": None if panel is None else panel.to_json(),
                                          "rejected": self._rejected.get(seat)})
            offered.append(frozenset(move_key(m["kind"], m["args"]) for m in moves or ())
                           | {move_key(m.kind, dict(m.args)) for m in panel_moves(panel) if m.kind not in barred})
        adjust = playing and HOST_ADJUST in legal
        tied = tied_seats(view, legal, len(players)) if playing and not box.host_paused else []
        teams = teams_for_host(engine, box.station_names) if playing and HOST_TEAM_NAME in legal else []
        next_game = None if self.next_game is None else self.next_game()
        self.next_shown = json.dumps(next_game, default=str)
        host = {"type": "host", "version": self._version, "game": spec.name, "title": _(spec.title),
                "phase": view.get("phase"), "phase_label": phase_label, "finished": engine.finished,
                "live": self.live, "paused": box.host_paused, "buttons": buttons, "adjust": adjust,
                "uses_seats": uses_seats, "players": players, "teams": teams,
                "next": next_game, "cue": host_cue(engine, uses_seats),
                "first_press": self.first_press(view, margins, players),
                "winners": board["winners"],
                "won_by": won_by(engine, box.station_names),  # the game's end: the host page says who won
                "tie": [{"seat": seat, "name": players[seat]["name"]} for seat in tied],
                "pick_keys": [key.upper() for key, action in spec.host_keys.items() if action == PICK],
                "journal": box.journal_notice()}  # one line while the journal cannot be written
        actions = {b["name"] for b in buttons}
        if self.live:
            actions |= {"continue"} if box.host_paused else {"pause"}
            actions.add("end")
        return Pages(self._version, board, host, tuple(seat_pages), tuple(offered), uses_seats,
                     frozenset(actions), adjust, uses_seats and phones_wanted(engine),
                     tuple(int(t["team"]) for t in teams), tuple(tied))


def watching(box: Box) -> Publisher:
    """A publisher of ``box``'s pages, publishing on the box's events (a game decided in this process)."""
    with box.lock:
        publisher = Publisher(box)
    box.on_events.append(publisher.on_events)
    return publisher


@dataclass
class GameAtStart:
    """A game as its pages show it before its deciding process's first
    snapshot: the engine as the game starts (or as its journal left it),
    nobody pressing, nothing offered. Not a box: the screen's process
    decides, journals and steps nothing through it."""

    spec: GameSpec
    settings: GameSettings
    engine: Any
    station_names: list[str]
    host_paused: bool = False
    lock: threading.RLock = field(default_factory=threading.RLock)

    @classmethod
    def new(cls, spec: GameSpec, settings: GameSettings, names: Sequence[str]) -> GameAtStart:
        """A new game from its settings (its seed deals what the deciding process's box deals)."""
        return cls(spec, settings, spec.new_engine(settings), list(names))

    def strip(self, view: View | None = None) -> list[dict[str, Any]]:
        """Each station as a box's strip has it before anyone pressed: the engine's status."""
        given = (self.engine.public_view() if view is None else view).get("status", [])
        return [{"name": name, "status": given[i] if i < len(given) else "idle", "pressed": False, "stuck": [],
                 "presses": 0} for i, name in enumerate(self.station_names)]

    def journal_notice(self) -> str | None:
        return None


def first_snapshot(game: Box | GameAtStart) -> Snapshot:
    """The pages of a game as it starts, offering no move: what a publisher in
    the screen's process shows until its deciding process's first snapshot."""
    with game.lock:
        publisher = Publisher(game)
        publisher.live = False
        return publisher.publish()


def snapshot_message(snap: Snapshot) -> dict[str, Any]:
    """A snapshot as JSON data, for the channel (``controller.protocol``: its sets as sorted lists)."""
    return {**asdict(snap), "seats": list(snap.seats), "offered": [sorted(moves) for moves in snap.offered],
            "host_actions": sorted(snap.host_actions), "host_teams": list(snap.host_teams)}


def snapshot_from(message: dict[str, Any]) -> Snapshot:
    """A snapshot back from the channel: the fields ``snapshot_message`` wrote."""
    return Snapshot(**{**message, "seats": tuple(message["seats"]),
                       "offered": tuple(frozenset(moves) for moves in message["offered"]),
                       "host_actions": frozenset(message["host_actions"]),
                       "host_teams": tuple(message.get("host_teams", ())), "tied": tuple(message.get("tied", ()))})


def relabelled(snap: Snapshot, labels: Sequence[str]) -> Snapshot:
    """``snap`` with each player's label as the HDMI screen's scene words it
    (the scene lives in the screen's process, the snapshot was built without it)."""
    return with_players(snap, "label", dict(enumerate(labels)))


def renamed(snap: Snapshot, names: Mapping[int, str]) -> Snapshot:
    """``snap`` with the players named ``names`` (by seat): the roll call's names, a rename in it included."""
    return with_players(snap, "name", names)


def with_players(snap: Snapshot, key: str, values: Mapping[int, str]) -> Snapshot:
    """``snap`` (both pages) with each player's ``key`` set from ``values`` (by seat)."""
    return replace(snap, board=page_with_players(snap.board, key, values),
                   host=page_with_players(snap.host, key, values))


def page_with_players(text: str, key: str, values: Mapping[int, str]) -> str:
    """One page's JSON with each player's ``key`` set from ``values`` (by seat)."""
    page = json.loads(text)
    for player in page.get("players") or []:
        seat = player.get("seat")
        if isinstance(seat, int) and seat in values:
            player[key] = values[seat]
    return json.dumps(page, default=str)


def strip_as_drawn(scene: StripWording, view: View, strip: Strip, finished: bool) -> Strip:
    """The strip as the HDMI screen draws it, cell for cell: ``scene``'s wording (the game's spec
    standing in for it), or the results screen's once the game is ``finished`` and ``scene`` draws
    no end screen of its own (``own_results``); ``strip`` itself if a wording lost a cell."""
    shown = drawn_strip(scene.adjust_strip, scene.own_results, view, strip, finished)
    return shown if len(shown) == len(strip) else strip


def board_as_shown(board: str, scene: StripWording, spec: GameSpec, view: View, strip: Strip, *,
                   finished: bool) -> str:
    """A board page (JSON) with each player's label as the HDMI screen's ``scene`` words
    the strip, the results screen's at a ``finished`` game's end (``strip_as_drawn``; a
    board follower's, built where no scene is: the deciding process)."""
    shown = strip_as_drawn(scene, view, strip, finished)
    if shown is strip:
        return board
    return page_with_players(board, "label", {i: status_label(cell, spec.status_labels) for i, cell in enumerate(shown)})


class RelayedPublisher(Publisher):
    """The publisher of the screen's process (split design): the deciding
    process builds each snapshot; this one hands the newest to the server
    (``update``), its strip worded as the HDMI screen's scene words it."""

    def __init__(self, box: Any, first: Snapshot) -> None:
        self.box = box
        #: False until the deciding process's first snapshot: nothing is taken before it runs
        self.live = False
        self.next_game = None
        self.next_shown = "null"
        self._lock = threading.Lock()
        self.listeners = []
        self.scene = None
        self._built = first
        self._view: tuple[View, Strip, bool] = ({}, [], False)
        #: the game is about to start (its deciding process starting, its roll call): not between games
        self.starting = True
        #: the deciding process's roll call (``RollCallView.view``): the host page says who is not heard from yet
        self.roll_call: Mapping[str, Any] | None = None
        self._latest = self.before_game(first)

    def update(self, snap: Snapshot, view: View, strip: Strip, *, finished: bool) -> Snapshot:
        """The deciding process's newest snapshot, and the view and strip it was built with
        (``finished``: the game is over, as the view that brought them says; required, so no
        caller words a finished game's strip with its last round's words by forgetting it)."""
        self._built, self._view, self.live = snap, (view, strip, finished), True
        return self.publish()

    def calling(self, roll_call: Mapping[str, Any]) -> Snapshot:
        """The deciding process's roll call now (before the game's first snapshot)."""
        self.roll_call = roll_call
        return self.publish()

    def detach(self) -> Snapshot:
        """The game closed (or never began): the pages say none is running."""
        self.starting, self.roll_call = False, None
        return super().detach()

    def closed(self, final: Snapshot, next_game: Callable[[], Mapping[str, Any] | None] | None) -> None:
        """The game closed: from now on the pages are ``final``, the deciding
        process's own of the closed game (no game running, its last scores, no
        move offered), with the menu's ``next_game`` on the host page."""
        self._built, self.next_game = final, next_game

    def before_game(self, snap: Snapshot) -> Snapshot:
        """``snap`` with the host page told that the game is about to start
        (and who the roll call still waits for), not "no game running"."""
        if self.live or not self.starting:
            return snap
        missing = None if self.roll_call is None else [str(name) for name in self.roll_call.get("missing") or ()]
        if self.roll_call is not None:  # a player the host renamed meanwhile: named so at once, not at the game's start
            snap = renamed(snap, {int(seat): str(name) for seat, name in self.roll_call.get("names") or ()})
        return replace(snap, host=json.dumps({**json.loads(snap.host), "starting": True,
                                              "roll_call": None if missing is None else {"missing": missing}}),
                       board=json.dumps({**json.loads(snap.board), "starting": True}))  # not "no game running"

    def on_events(self, events: list[GameEvent]) -> None:
        """Nothing: the snapshots come from the deciding process."""

    def publish(self, events: Sequence[GameEvent] = ()) -> Snapshot:
        snap, (view, strip, finished) = self.before_game(self._built), self._view
        if self.next_game is not None and not self.live:  # between the menu's games: the next one, as it stands
            next_game = self.next_game()
            self.next_shown = json.dumps(next_game, default=str)
            snap = replace(snap, host=json.dumps({**json.loads(snap.host), "next": next_game}, default=str))
        if self.scene is not None and strip:
            shown = self.strip_as_shown(view, strip, finished)
            if shown is not strip:
                snap = relabelled(snap, [status_label(cell, self.box.spec.status_labels) for cell in shown])
        with self._lock:
            self._latest = snap
        for listener in list(self.listeners):
            listener(snap)
        return snap


def tied_seats(view: Mapping[str, Any], legal: Collection[str], players: int) -> list[int]:
    """The stations tied for the turn that the host may give it to now: the
    first tie of the view's ``ties`` while the game takes ``pick`` (the
    screen's key draws one of them fairly; the host page names each)."""
    ties = view.get("ties")
    if PICK not in legal or not isinstance(ties, Sequence) or not ties or not isinstance(ties[0], Sequence):
        return []
    return [int(s) for s in ties[0] if isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players]


def _lead_us(margins: Mapping[Any, Any]) -> int | None:
    """By how much the first bell beat the second (None with one bell)."""
    behind = sorted(int(v) for v in margins.values())
    return behind[1] - behind[0] if len(behind) > 1 else None


def fastest_press(margins: Mapping[Any, Any]) -> int | None:
    """The seat whose press the margins are measured from (its margin is 0):
    the question's first bell, who may no longer be the one answering
    (``first``) after a wrong answer passed the question on."""
    if not margins:
        return None
    seat = str(min(margins, key=lambda k: (int(margins[k]), str(k))))
    return int(seat) if seat.isdigit() else None


def host_cue(engine: Any, uses_seats: bool) -> dict[str, Any] | None:
    """What only the host may read ahead: the engine's view for no seat
    (the quiz's question with its answer and the next question). A game with
    seats keeps ``private_view(None)`` for other uses, so only a game without
    seats is asked (or one that says its host view is the cue, the quiz with
    an all-play round); an empty view is no cue."""
    if (uses_seats and not getattr(engine, "host_cue_with_seats", False)) or not hasattr(engine, "private_view"):
        return None
    cue = engine.private_view(None)
    if not (isinstance(cue, dict) and cue.get("question")):
        return None
    rounds = [r for r in (cue.get("round"), *(cue.get("rounds") or ())) if isinstance(r, dict)]
    for r in rounds:  # a round's preset in the host's words (the quiz's "quiz bowl: tossups and bonuses")
        if isinstance(r.get("rules_name"), str):
            r["rules_name"] = word(r["rules_name"])
    return cue


#: how long after the kernel last dropped GPIO edge events the screen says so (game µs)
LOST_SHOWN_US = 30_000_000


def inputs_line(box: Box, t_us: int) -> str | None:
    """The screen's inputs line at ``t_us``: a source stalled or waited for by its stated delay
    (``Box.inputs_notice``), else, for ``LOST_SHOWN_US`` after it last did, the kernel dropping
    GPIO edge events (its queue overflowed: a press may be missing; the journal keeps each time)."""
    said = box.inputs_notice()
    if said or box.lost_edges_us is None or t_us - box.lost_edges_us > LOST_SHOWN_US:
        return said
    return ngettext("The kernel dropped button edges {n} time (the inputs' reader fell behind): a press "
                    "may be missing", "The kernel dropped button edges {n} times (the inputs' reader fell "
                    "behind): a press may be missing", box.lost_edges).format(n=box.lost_edges)


def view_of(box: Box, t_us: int, *, version: int = 0, public: Mapping[str, Any] | None = None,
            strip: Sequence[Mapping[str, Any]] | None = None,
            decided: tuple[int, int | None] | None = None) -> protocol.View:
    """What a screen draws of ``box`` now (hold ``box.lock``): the engine's
    public view, the strip and the box's state (``public`` and ``strip``:
    those views now, if already asked for). The deciding process publishes
    it; a screen in the box's own process draws it the same way."""
    return protocol.View(version=version, t_us=t_us, offset_us=box.time_offset_us,
                public=box.engine.public_view() if public is None else public,
                strip=box.strip() if strip is None else strip, finished=box.engine.finished,
                paused=box.paused, host_paused=box.host_paused, names=tuple(box.station_names),
                late_deliveries=box.late_deliveries, guard_us=box.latency_guard_us,
                journal=box.journal_notice(), inputs=inputs_line(box, t_us), decided=decided)
