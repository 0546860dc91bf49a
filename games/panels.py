"""The phone widgets: what a hidden-hand game's phone page is made of.

A game describes each seat's page as a few plain widgets (headings, a hand,
buttons, a guess pad, short texts) built from what that seat may see; one
renderer in the companion pages draws them for any game. The widgets say
what to show and which move a tap sends, never how to draw. Apart from the
engine contract (``games.base``): a game without phones never needs them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

#: an argument the player types: a move offered with TYPED in one argument's place
#: takes a short text there (the engine still checks it, as it checks any move)
TYPED = "\u2328typed"

#: how a short text should strike the eye (the renderer picks the colours)
Tone = Literal["plain", "good", "bad", "turn"]
#: how loud a button is: the move you most likely want, a side move, one you cannot undo
ButtonStyle = Literal["primary", "quiet", "danger"]


@dataclass(frozen=True)
class PhoneTable:
    """Everything a seat's panel may be built from: the public view, this
    seat's own private view and moves, and the players' names. Nothing of
    another seat's private view is here, so no panel can leak one."""

    seat: int
    names: tuple[str, ...]
    public: Mapping[str, Any]
    private: Mapping[str, Any]
    moves: tuple[Mapping[str, Any], ...]

    def name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else str(seat + 1)

    def has(self, kind: str, **args: Any) -> bool:
        """Whether the seat may send this exact move now."""
        return any(m.get("kind") == kind and dict(m.get("args") or {}) == args for m in self.moves)


@dataclass(frozen=True)
class PanelMove:
    """What a tap sends: one of the seat's moves, as ``legal_moves`` gives it."""

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": dict(self.args)}


@dataclass(frozen=True)
class PanelButton:
    """``confirm``: a move that cannot be taken back asks for a second tap, saying this."""

    label: str
    move: PanelMove
    detail: str = ""
    style: ButtonStyle = "primary"
    confirm: str = ""


@dataclass(frozen=True)
class PanelCard:
    """One card of a hand: its face, whether it may be played now, and the
    moves a tap on it offers (one: sent at once; several: shown to choose)."""

    label: str
    detail: str = ""
    mark: str = ""  # a colour family for the renderer (a kind, a species); no meaning of its own
    legal: bool = False
    actions: tuple[PanelButton, ...] = ()
    color: str = ""  # the card's colour on the big screen (``css_color``), so both show it alike


def css_color(rgb: tuple[int, int, int]) -> str:
    """An RGB colour as the phone page's CSS writes it (``#rrggbb``)."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


@dataclass(frozen=True)
class PanelChoice:
    """One numbered choice of a guess pad: ``move`` None = not available now."""

    label: str
    move: PanelMove | None = None
    chosen: bool = False


@dataclass(frozen=True)
class GuessRow:
    """The choices for one other player (who, and what may be guessed on them)."""

    label: str
    choices: tuple[PanelChoice, ...]


@dataclass(frozen=True)
class Heading:
    text: str
    detail: str = ""
    type: str = field(default="heading", init=False)


@dataclass(frozen=True)
class Note:
    text: str
    tone: Tone = "plain"
    type: str = field(default="note", init=False)


@dataclass(frozen=True)
class Hand:
    title: str
    cards: tuple[PanelCard, ...]
    empty: str = ""  # said when there is no card
    type: str = field(default="hand", init=False)


@dataclass(frozen=True)
class Buttons:
    title: str
    buttons: tuple[PanelButton, ...]
    type: str = field(default="buttons", init=False)


@dataclass(frozen=True)
class GuessPad:
    title: str
    rows: tuple[GuessRow, ...]
    type: str = field(default="guesses", init=False)


@dataclass(frozen=True)
class Facts:
    """Short label/value lines (a score, your guesses so far)."""

    title: str
    rows: tuple[tuple[str, str], ...]
    type: str = field(default="facts", init=False)


@dataclass(frozen=True)
class TextEntry:
    """A short text the player types and sends as argument ``arg`` of
    ``move`` (offered with ``TYPED`` there): a team's name, say."""

    title: str
    move: PanelMove
    arg: str
    button: str
    max_length: int
    value: str = ""
    type: str = field(default="text", init=False)


@dataclass(frozen=True)
class Chosen:
    """A choice this seat has made and can no longer change (an all-play answer locked
    in): ``title`` says what it was for, ``choice`` the choice, large. Built from the
    seat's own private view, so every phone and tab of that seat shows it, after a reload too."""

    title: str
    choice: str
    type: str = field(default="locked", init=False)


Widget = Heading | Note | Hand | Buttons | GuessPad | Facts | TextEntry | Chosen


@dataclass(frozen=True)
class PhonePanel:
    """A seat's phone page. ``hold`` names the game's action that holds a move
    for the seat's own station button to confirm (one phone passed round a
    table); the page then offers a switch, ``hold_label``, to send that instead."""

    widgets: tuple[Widget, ...]
    hold: str | None = None
    hold_label: str = ""

    def moves(self) -> list[PanelMove]:
        """Every move a tap on this panel can send (held ones included)."""
        found: list[PanelMove] = []
        for w in self.widgets:
            if isinstance(w, Buttons):
                found += [b.move for b in w.buttons]
            elif isinstance(w, Hand):
                found += [a.move for card in w.cards for a in card.actions]
            elif isinstance(w, GuessPad):
                found += [c.move for row in w.rows for c in row.choices if c.move is not None]
            elif isinstance(w, TextEntry):
                found.append(w.move)
        if self.hold:
            found += [self.held(m) for m in found]
        return found

    def held(self, move: PanelMove) -> PanelMove:
        assert self.hold is not None
        return PanelMove(self.hold, {"move": move.to_json()})

    def to_json(self) -> dict[str, Any]:
        return {"widgets": [asdict(w) for w in self.widgets], "hold": self.hold, "hold_label": self.hold_label}
