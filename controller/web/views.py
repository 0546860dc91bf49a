"""What the pages may see, published by the loop that owns the box.

After each step that changed something, the loop thread turns the engine's
views into JSON text (the encoding is the copy: nothing the server holds is
shared with the engine) and swaps in a new ``Snapshot`` under a lock. The
server thread only ever reads snapshots.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from controller.runtime import Box
from controller.web.panels import panel_moves, seat_panel
from games.base import GameEvent
from games.i18n import _, format_number

log = logging.getLogger("buzzerbox.web")

#: the generic host buttons (the keyboard's and the host box's), in page order
HOST_BUTTONS: tuple[str, ...] = ("arm", "correct", "wrong", "undo", "next", "reset")
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
        "no_seat": _("This link has no seat: scan your seat's QR code on the big screen."),
        "refused": _("The box refused"),
        "bad_token": _("This seat's code is no longer valid: scan the QR code on the big screen again."),
        "no_moves": _("Nothing to do right now: wait for your turn."),
        "replaced": _("This seat was opened on another phone or tab. Tap here to take it back."),
        "your_moves": _("Your moves"),
        "no_private": _("This game is played on the buttons: nothing to show here."),
        "pin": _("Host PIN (shown on the big screen)"),
        "enter": _("Enter"),
        "wrong_pin": _("Wrong PIN."),
        "pin_locked": _("Too many wrong PINs: wait a minute."),
        "arm": _("Arm"),
        "correct": _("Correct"),
        "wrong": _("Wrong"),
        "undo": _("Undo"),
        "next": _("Next"),
        "reset": _("Reset"),
        "pick": _("Pick (tie)"),
        "seats": _("Seats"),
        "reissue": _("New code"),
        "joined": _("joined"),
        "not_joined": _("not joined"),
        "score": _("Score"),
        "first": _("First"),
        "by": _("by"),
        "phase": _("Phase"),
        "over": _("Game over"),
        "sent": _("Sent"),
        "seat": _("Seat"),
        "decimal": format_number(0.5, 1)[1],  # the decimal sign the language writes
        # the common phases' words (a game's own phase is shown as the engine names it)
        "phase_idle": _("Waiting"),
        "phase_armed": _("Armed: buzz now"),
        "phase_answering": _("Answering"),
        "phase_tie": _("Tie"),
        "phase_round_over": _("Round over"),
        "phase_playing": _("Playing"),
        "phase_over": _("Game over"),
    }


def moves_of(engine: Any, seat: int) -> list[dict[str, Any]] | None:
    """The concrete moves a seat may make now, as ``{"kind", "args"[, "preview"]}``;
    None for a game played on the buttons only (no ``legal_moves``).

    Engines give ``legal_moves(seat)`` as objects with ``to_json()`` or as
    mappings; either way the page gets plain JSON and sends one back."""
    legal_moves = getattr(engine, "legal_moves", None)
    if not callable(legal_moves):
        return None
    out = []
    for move in legal_moves(seat):
        data = move.to_json() if hasattr(move, "to_json") else dict(move)
        entry: dict[str, Any] = {"kind": str(data["kind"]), "args": dict(data.get("args") or {})}
        if data.get("preview"):
            entry["preview"] = data["preview"]
        out.append(entry)
    return out


def move_key(kind: str, args: Mapping[str, Any]) -> str:
    """One move as comparable text: what a phone sent must equal an offered move."""
    return json.dumps([kind, args], sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True)
class Snapshot:
    """One published state: JSON text per page, and the moves each seat may send."""

    version: int
    board: str
    host: str
    seats: tuple[str, ...]
    offered: tuple[frozenset[str], ...]
    uses_seats: bool
    host_actions: frozenset[str]


class Publisher:
    """Builds snapshots on the loop thread; ``latest`` is read from any thread."""

    def __init__(self, box: Box) -> None:
        self.box = box
        self._lock = threading.Lock()
        self._version = 0
        self._recent: list[dict[str, Any]] = []
        self._rejected: dict[int, str] = {}
        self.listeners: list[Callable[[Snapshot], None]] = []
        self._latest = self.build()

    @property
    def latest(self) -> Snapshot:
        with self._lock:
            return self._latest

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
        box = self.box
        self._rejected = {e.player: str(e.data.get("why", "")) for e in events
                          if e.kind == "rejected" and e.player is not None}
        for e in events:
            if box.spec.logs(e.kind):  # only what the log says in public
                self._recent.append({"kind": e.kind, "t_us": e.t_us, "player": e.player})
        del self._recent[:-RECENT_EVENTS]
        snap = self.build()
        with self._lock:
            self._latest = snap
        for listener in list(self.listeners):
            listener(snap)
        return snap

    def build(self) -> Snapshot:
        box, engine = self.box, self.box.engine
        self._version += 1
        view = engine.public_view()
        strip = box.strip()
        scores = list(view.get("scores") or [])
        players = [{"seat": i, "name": cell["name"], "status": cell["status"],
                    "score": scores[i] if i < len(scores) else None} for i, cell in enumerate(strip)]
        margins_view = view.get("margins_us")
        margins: Mapping[Any, Any] = margins_view if isinstance(margins_view, Mapping) else {}
        winner = view.get("winner")
        board = {"type": "state", "v": BOARD_VERSION, "version": self._version, "game": box.spec.name,
                 "title": box.spec.title, "phase": view.get("phase"), "finished": engine.finished,
                 "question": view.get("question"), "round": view.get("round"),
                 "first": winner if isinstance(winner, int) else None,
                 "margins_us": {str(k): int(v) for k, v in margins.items()},
                 "players": players, "events": list(self._recent)}
        legal = set(engine.legal_actions(None))
        buttons = [{"name": name, "legal": box.host_kind(name) in legal}
                   for name in (*HOST_BUTTONS, *dict.fromkeys(box.spec.host_keys.values()))]
        seat_texts, offered = [], []
        uses_seats = callable(getattr(engine, "legal_moves", None))
        for seat in range(box.settings.players):
            moves = moves_of(engine, seat) if uses_seats else None
            private = engine.private_view(seat) if uses_seats else {}
            panel = seat_panel(box, seat, view, private, moves or []) if uses_seats else None
            seat_texts.append(json.dumps({"type": "seat", "version": self._version, "seat": seat, "name": box.station_names[seat],
                                          "phase": view.get("phase"), "finished": engine.finished,
                                          "private": private, "moves": moves or [],
                                          "panel": None if panel is None else panel.to_json(),
                                          "rejected": self._rejected.get(seat)}, default=str))
            offered.append(frozenset(move_key(m["kind"], m["args"]) for m in moves or ())
                           | {move_key(m.kind, dict(m.args)) for m in panel_moves(panel)})
        host = {"type": "host", "version": self._version, "game": box.spec.name, "title": box.spec.title, "phase": view.get("phase"),
                "finished": engine.finished, "buttons": buttons, "uses_seats": uses_seats,
                "players": players}
        return Snapshot(self._version, json.dumps(board, default=str), json.dumps(host, default=str),
                        tuple(seat_texts), tuple(offered), uses_seats,
                        frozenset(str(b["name"]) for b in buttons))
