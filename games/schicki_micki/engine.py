"""The Schicki Micki rules engine: sans-I/O, seeded, time passed in.

Actions
- host ``turn``: turn the top deck card onto the table.
- host ``show_card`` (args ``card``: card JSON): show this card (taken out of
  the deck if it is there, else it enters the game from outside and the card
  total grows by one; used by scenarios).
- host ``shown`` (games.base.HOST_SHOWN): the frame with the newest card is on
  screen at ``t_us``; reaction times count from then (until then: turn time).
- host ``pace`` (args ``turn_interval_us``: int or None): change the pace;
  None means the host turns every card.
- player ``knock``, ``call`` (args ``accessory``; without it the call comes
  from a compact station and counts for the single pair on the table, if there
  is exactly one, else it is a wrong call), ``blue``, ``red``.
  One reaction per player and card: a call may be replaced by a later blue
  grab or knock (the rulebook's example 4); a grab or a knock is final, and
  presses the rule ignores give an ``ignored`` event ("already acted").

Events: ``show``, ``reaction``, ``window``, ``early``, ``winner``, ``wrong``,
``nothing`` (no gain, no loss), ``ignored`` (no effect),
``round_over``, ``game_over``.

Options: ``deck`` (card JSON list, top first: the whole deck), ``won``
(starting won-card counts), ``turn_interval_us`` (None: host turns),
``interval_shrink`` (factor per turned card), ``min_turn_interval_us`` (floor),
``start_us`` (the first auto turn falls due at start_us + interval),
``reaction_window_us``, ``final_window_us``, ``tie_window_us``.

Conservation: ``len(deck) + len(table) + sum(won piles) == total_cards`` at all
times, where total_cards = the starting deck + starting won cards (+ any card a
scenario shows from outside). Starting won cards are real faces (taken from
this seed's generated deck) so that a returned one can go under the deck.
The last card's window ends the game (the rulebook: one last chance, then the
game is over); cards it sends under the deck are never turned. Cards the deck
could not pay at the end are *owed*: they count in the final
score but are not cards, so they stay out of the conservation count.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from games.arbitration import Stamp, Stamped, rank_by_stamp
from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    Action,
    EventKind,
    GameEvent,
    GameSettings,
    Outcome,
    RuleError,
    checked_options,
    fire_due,
)
from games.i18n import N_
from games.schicki_micki.cards import ACCESSORIES, Card, CardError, card_from_json, cards_from_json
from games.schicki_micki.deck import new_deck
from games.schicki_micki.options import OPTIONS
from games.schicki_micki.situation import (
    IDENTICAL,
    ONE_PAIR,
    ROWS,
    SEVERAL_PAIRS,
    TWO_WORMS,
    Situation,
    judge,
)

REACTIONS = ("knock", "call", "blue", "red")
#: a reaction that replaces an earlier one of the same player: only a call can be
#: changed, to a blue grab or a knock (seed example 4); grabs and knocks are final
REPLACES_CALL = ("blue", "knock")
#: the most won cards a scenario may start a player with (ten decks)
MAX_WON = 640
HOST_ACTIONS = ("turn", "show_card", HOST_SHOWN, "pace", HOST_RESUME)



class Phase(str, Enum):
    """Where the turned card stands (``public_view()["phase"]`` says its value)."""

    WAITING = "waiting"
    SHOWING = "showing"
    WINDOW = "window"
    OVER = "over"


class EndReason(Enum):
    """Why a game of Schicki Micki ended."""

    FINAL_WINDOW_CLOSED = "final_window_closed"  # the last card's final window closed
    DECK_EMPTY = "deck_empty"  # the deck is empty after the last card's window
    OWED_CARD_UNPAID = "owed_card_unpaid"  # the deck could not pay a card that was owed


#: a verdict's result -> the reacting station's status, and the event it makes
VERDICT_STATUS = {"all": "won", "one": "won", "return": "returned", "nothing": "nothing", "ignored": "ignored"}
VERDICT_EVENT = {"all": "winner", "one": "winner", "return": "wrong", "nothing": "nothing", "ignored": "ignored"}

#: how the summary and the ``game_over`` event word each reason (journals keep these English
#: words; the screen shows them translated)
END_SENTENCES = {
    EndReason.FINAL_WINDOW_CLOSED: N_("the last card's final window closed"),
    EndReason.DECK_EMPTY: N_("the deck is empty after the last card's window"),
    EndReason.OWED_CARD_UNPAID: N_("the deck could not pay a card that was owed"),
}


@dataclass(frozen=True)
class Reaction(Stamped):
    """One reaction of a player to the newest card (``REPLACES_CALL`` says which may replace which)."""

    player: int
    kind: str
    stamp: Stamp
    accessory: str | None = None  # for calls; None = compact "call" button

    def words(self) -> str:
        if self.kind == "call":
            return f"called {self.accessory}" if self.accessory else "pressed call"
        return {"knock": "knocked", "blue": "grabbed blue", "red": "grabbed red"}[self.kind]


@dataclass
class _Verdict:
    reaction: Reaction
    result: str  # "all", "one", "return", "nothing", "ignored"
    why: str


def _int_option(options: Mapping[str, Any], name: str, allow_none: bool = False) -> int | None:
    """A whole-number option of the checked ones (``checked_options``: type and range in options.py)."""
    value = options[name]
    if value is None and allow_none:
        return None
    if value is None:
        raise ValueError(f"option {name!r} is null; use a whole number of microseconds >= 0")
    return int(value)


class SchickiMickiEngine:
    """Deck, table, won piles, pawns, reaction windows and the seed's outcome table."""

    def __init__(self, settings: GameSettings) -> None:
        if not 2 <= settings.players <= 7:
            raise ValueError(f"Schicki Micki takes 2-7 players, not {settings.players}")
        self.settings = settings
        options = checked_options(OPTIONS, settings.options, "Schicki Micki")
        self.players = settings.players
        try:
            self.deck: list[Card] = (
                cards_from_json(options["deck"], "deck") if options.get("deck") is not None else new_deck(settings.seed)
            )
        except CardError as exc:
            raise ValueError(f"scenario option {exc}") from None
        won = options.get("won")
        if won is None:
            won = [0] * self.players
        if (
            not isinstance(won, list)
            or len(won) != self.players
            or any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_WON for n in won)
        ):
            raise ValueError(
                f"option 'won' is {str(won)[:80]}; give one whole number 0..{MAX_WON} per player "
                f"({self.players} players)"
            )
        source = new_deck(settings.seed)
        self.piles: list[list[Card]] = [
            [source[(sum(won[:p]) + k) % len(source)] for k in range(n)] for p, n in enumerate(won)
        ]
        self.table: list[Card] = []
        self.owed = [0] * self.players
        self.total_cards = len(self.deck) + sum(won)
        self.blue_pawns = min(3, self.players - 1)

        self.turn_interval_us = _int_option(options, "turn_interval_us", allow_none=True)
        shrink = options["interval_shrink"]
        if isinstance(shrink, bool) or not isinstance(shrink, (int, float)) or not 0 < shrink <= 1:
            raise ValueError(f"option 'interval_shrink' is {shrink!r}; use a factor in (0, 1], e.g. 0.97")
        self.interval_shrink = float(shrink)
        self.min_turn_interval_us = _int_option(options, "min_turn_interval_us") or 0
        self.reaction_window_us = _int_option(options, "reaction_window_us") or 0
        self.final_window_us = _int_option(options, "final_window_us") or 0
        self.tie_window_us = _int_option(options, "tie_window_us") or 0
        start_us = _int_option(options, "start_us") or 0

        self.phase = Phase.WAITING
        self.now_us: int | None = None
        self.t_turn: int | None = None
        self.t_show: int | None = None
        self.shown_confirmed = False
        self.reactions: dict[int, Reaction] = {}
        #: every reaction of each player to the newest card, in stamp order
        self.history: dict[int, list[Reaction]] = {}
        #: players who pressed again after a final reaction (the screen says "already acted")
        self.already_acted: set[int] = set()
        #: the first reaction to the newest card opens the window (a replaced
        #: reaction does not move it)
        self.window_start_us: int | None = None
        #: players whose reaction is final (a grab or a knock): their later presses are ignored
        self.locked: set[int] = set()
        self.status = ["idle"] * self.players
        self.next_turn_us: int | None = (
            start_us + self.turn_interval_us if self.turn_interval_us is not None else None
        )
        self.final_deadline_us: int | None = None
        #: the newest card was the deck's last: its window is the game's last
        self.last_card_turned = False
        self.cards_turned = 0
        self.situations = {row: 0 for row in ROWS}
        self.outcomes: list[dict[str, Any]] = []
        self.last_resolution: dict[str, Any] | None = None
        self.result: dict[str, Any] | None = None
        self.end_reason: EndReason | None = None

    # ------------------------------------------------------------------ time

    @property
    def finished(self) -> bool:
        return self.phase == Phase.OVER

    def _window_deadline(self) -> int | None:
        if self.phase != Phase.WINDOW or self.window_start_us is None:
            return None
        return self.window_start_us + self.reaction_window_us

    def next_deadline_us(self) -> int | None:
        if self.phase == Phase.OVER:
            return None
        if self.phase == Phase.WINDOW:
            return self._window_deadline()
        if self.deck:
            return self.next_turn_us
        if self.phase == Phase.SHOWING:
            return self.final_deadline_us
        return None

    def tick(self, now_us: int) -> list[GameEvent]:
        events = self._advance(now_us)
        self.now_us = now_us if self.now_us is None else max(self.now_us, now_us)
        return events

    def _advance(self, now_us: int) -> list[GameEvent]:
        """Fire every timeout due by now_us, each at its own deadline (``fire_due``)."""
        return fire_due(self.next_deadline_us, self._fire, now_us)

    def _fire(self, due: int) -> list[GameEvent]:
        """The timeout at ``due``: a window closes, the next card turns, or the game ends."""
        self.now_us = due if self.now_us is None else max(self.now_us, due)
        if self.phase == Phase.WINDOW:
            return self._resolve(due)
        if self.deck:
            return self._turn(self.deck.pop(0), due)
        return self._end(due, EndReason.FINAL_WINDOW_CLOSED)

    # --------------------------------------------------------------- actions

    def handle(self, action: Action) -> list[GameEvent]:
        """Apply one action; on RuleError nothing changes (time included), so
        the runtime's next tick still reports whatever fell due."""
        saved = self._snapshot()
        try:
            events: list[GameEvent] = []
            if self.now_us is None or action.t_us > self.now_us:
                events += self._advance(action.t_us)
                self.now_us = action.t_us
            events += self._apply(action)
            return events
        except RuleError:
            self.__dict__.update(saved)
            raise

    def _snapshot(self) -> dict[str, Any]:
        """Copies of every mutable attribute (cards and reactions are frozen)."""
        saved: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key == "piles":
                saved[key] = [list(pile) for pile in value]
            elif isinstance(value, (list, dict, set)):
                saved[key] = copy.copy(value)
            else:
                saved[key] = value
        return saved

    def _apply(self, action: Action) -> list[GameEvent]:
        if action.player is None:
            return self._host(action)
        if not 0 <= action.player < self.players:
            raise RuleError(N_("player {n} does not exist (1..{players})"), n=action.player + 1, players=self.players)
        if action.kind not in REACTIONS:
            raise RuleError(N_("unknown action {kind!r}: players may {choices}"), kind=action.kind, choices=", ".join(REACTIONS))
        return self._react(action)

    def _host(self, action: Action) -> list[GameEvent]:
        kind = action.kind
        if kind == HOST_SHOWN:
            if self.phase in (Phase.SHOWING, Phase.WINDOW) and not self.shown_confirmed and self.t_turn is not None:
                self.t_show = max(action.t_us, self.t_turn)
                self.shown_confirmed = True
            return []
        if kind == HOST_RESUME:
            self._resume(int(action.args.get("paused_us", 0)))
            return []
        if kind == "pace":
            return self._pace(action)
        if kind not in ("turn", "show_card"):
            raise RuleError(N_("unknown host action {kind!r}: the host may {choices}"), kind=kind, choices=", ".join(HOST_ACTIONS))
        if self.phase == Phase.OVER:
            raise RuleError(N_("the game is over"))
        if self.phase == Phase.WINDOW:
            raise RuleError(N_("a reaction window is open: tick past its end before turning the next card"))
        if kind == "turn":
            if not self.deck:
                raise RuleError(N_("the deck is empty: no card left to turn"))
            return self._turn(self.deck.pop(0), action.t_us)
        return self._turn(self._shown_card(action), action.t_us)

    def _resume(self, paused: int) -> None:
        """The host's pause is over: the reaction window and the timers get the paused time back."""
        if self.window_start_us is not None:
            self.window_start_us += paused  # the window gets the paused time back
        if self.next_turn_us is not None:
            self.next_turn_us += paused
        if self.final_deadline_us is not None:
            self.final_deadline_us += paused

    def _pace(self, action: Action) -> list[GameEvent]:
        """The host sets how often a card turns by itself (None: only when the host turns one)."""
        if self.phase == Phase.OVER:
            raise RuleError(N_("the game is over"))
        interval = action.args.get("turn_interval_us")
        if interval is not None and (isinstance(interval, bool) or not isinstance(interval, int) or interval <= 0):
            raise RuleError(N_("pace: 'turn_interval_us' is {interval!r}; use microseconds > 0 or null"), interval=interval)
        self.turn_interval_us = interval
        self.next_turn_us = None if interval is None else action.t_us + interval
        return [GameEvent("message", action.t_us, data={"pace_us": interval})]

    def _shown_card(self, action: Action) -> Card:
        """The card a scenario's ``show_card`` turns: taken from the deck if it is there, else one more card."""
        try:
            card = card_from_json(action.args.get("card"), "show_card card")
        except CardError as exc:
            # a scenario author's card (the host action no player sends): the card format's own line
            raise RuleError(N_("show_card: {problem}"), problem=str(exc)) from None
        if card in self.deck:
            self.deck.remove(card)
        else:
            self.total_cards += 1
        return card

    def _turn(self, card: Card, t_us: int) -> list[GameEvent]:
        self.table.append(card)
        self.t_turn = self.t_show = t_us
        self.shown_confirmed = False
        self.reactions = {}
        self.history = {}
        self.already_acted = set()
        self.window_start_us = None
        self.locked = set()
        self.status = ["idle"] * self.players
        self.phase = Phase.SHOWING
        self.cards_turned += 1
        situation = judge(self.table)
        self.situations[situation.row] += 1
        if self.turn_interval_us is not None:
            self.next_turn_us = t_us + self._current_interval()
        self.last_card_turned = not self.deck
        if self.last_card_turned:
            self.final_deadline_us = t_us + self.final_window_us
        data = {
            "card": card.to_json(),
            "position": len(self.table) - 1,
            "deck": len(self.deck),
            "last": not self.deck,
        }
        return [GameEvent(EventKind.SHOW, t_us, data=data)]

    def _current_interval(self) -> int:
        assert self.turn_interval_us is not None
        shrunk = self.turn_interval_us * self.interval_shrink ** max(0, self.cards_turned - 1)
        return max(self.min_turn_interval_us, int(shrunk))

    def _react(self, action: Action) -> list[GameEvent]:
        player, t_us = action.player, action.t_us
        assert player is not None
        if self.phase not in (Phase.SHOWING, Phase.WINDOW) or self.t_turn is None:
            raise RuleError(N_("no new card to react to: wait for the next card"))
        if t_us < self.t_turn or (self.shown_confirmed and self.t_show is not None and t_us < self.t_show):
            raise RuleError(N_("pressed before the newest card was on screen"))
        accessory = action.args.get("accessory") if action.kind == "call" else None
        if accessory is not None and accessory not in ACCESSORIES:
            raise RuleError(N_("call: accessory {accessory!r} does not exist; use one of: {choices}"), accessory=accessory,
                            choices=", ".join(ACCESSORIES))
        reaction = Reaction(player, action.kind, replace(action.stamp, t_us=t_us), accessory)
        # In stamp order, a player's first reaction counts; a later one replaces it
        # only if that was a call and this is a blue grab or a knock.
        history = sorted([*self.history.get(player, []), reaction], key=lambda r: r.t_us)
        counts = history[0]
        for later in history[1:]:
            if counts.kind == "call" and later.kind in REPLACES_CALL:
                counts = later
        self.history[player] = history
        self.reactions[player] = counts
        if counts.kind != "call":
            self.locked.add(player)
        if counts is not reaction:
            if counts.kind == "call":
                why = f"already acted ({counts.words()}): a call can only be changed to a blue grab or a knock"
            else:
                why = f"already acted ({counts.words()}): a grab or a knock is final"
            self.already_acted.add(player)
            return [GameEvent("ignored", t_us, player, {"why": why, "reaction": action.kind})]
        self.window_start_us = t_us if self.window_start_us is None else min(self.window_start_us, t_us)
        self.status[player] = "reacted"
        events = []
        if self.phase == Phase.SHOWING:
            self.phase = Phase.WINDOW
            events.append(GameEvent("window", t_us, data={"closes_us": self._window_deadline()}))
        data: dict[str, Any] = {"reaction": action.kind, "reaction_us": t_us - (self.t_show or t_us)}
        if accessory:
            data["accessory"] = accessory
        events.append(GameEvent("reaction", t_us, player, data))
        return events

    # ------------------------------------------------------------ resolution

    def _rank(self, reactions: list[Reaction]) -> list[list[Reaction]]:
        return rank_by_stamp(reactions, self.tie_window_us)

    def _pawn_holders(self) -> tuple[list[Reaction], list[Reaction]]:
        """Who holds a pawn (blue: the first grab groups up to the number of
        pawns, a tie at the last pawn counts for all tied; red: the first group)
        and whose grab could not physically happen."""
        holders: list[Reaction] = []
        blue_groups = self._rank([r for r in self.reactions.values() if r.kind == "blue"])
        for group in blue_groups:
            if len([h for h in holders if h.kind == "blue"]) >= self.blue_pawns:
                break
            holders.extend(group)
        red_groups = self._rank([r for r in self.reactions.values() if r.kind == "red"])
        if red_groups:
            holders.extend(red_groups[0])
        grabs = [r for r in self.reactions.values() if r.kind in ("blue", "red")]
        no_pawn = [r for r in grabs if r not in holders]
        return holders, no_pawn

    def _verdict(self, r: Reaction, s: Situation) -> _Verdict:
        row = s.row
        if r.kind == "knock":
            if row == TWO_WORMS:
                return _Verdict(r, "all", "a two-worm hen lies")
            return _Verdict(r, "return", "no two-worm hen lies")
        if r.kind == "call":
            return self._call_verdict(r, s)
        if r.kind == "blue":
            return self._blue_verdict(r, s)
        # red
        if row == IDENTICAL:
            return _Verdict(r, "all", "two identical cards lie")
        if row == TWO_WORMS and s.identical:
            return _Verdict(r, "return", "identical cards lie, but so does a two-worm hen: knocking was right")
        return _Verdict(r, "return", "no two cards are identical")

    def _call_verdict(self, r: Reaction, s: Situation) -> _Verdict:
        """A called pair: right only when one pair lies and nothing overrides it (identical cards, a two-worm hen)."""
        row = s.row
        accessory = r.accessory
        if accessory is None:
            accessory = next(iter(s.paired_accessories)) if len(s.pairs) == 1 else None
            if accessory is None:
                why = "there is not exactly one pair to credit the call to"
                return _Verdict(r, "nothing" if row == IDENTICAL else "return", why)
        correct = accessory in s.paired_accessories
        if row == IDENTICAL:
            return _Verdict(r, "nothing", "identical cards lie")
        if not correct:
            return _Verdict(r, "return", f"{accessory} is no pair on the table")
        if row == TWO_WORMS:
            return _Verdict(r, "nothing", f"{accessory} is a pair, but a two-worm hen lies")
        if row == SEVERAL_PAIRS:
            return _Verdict(r, "nothing", "several pairs lie, not one")
        return _Verdict(r, "all", f"{accessory} is the one pair")

    def _blue_verdict(self, r: Reaction, s: Situation) -> _Verdict:
        """A grab of the blue pawn: right when several pairs lie."""
        row = s.row
        if row == TWO_WORMS:
            if len(s.pairs) >= 2:
                return _Verdict(r, "nothing", "several pairs lie, but so does a two-worm hen")
            return _Verdict(r, "return", "a two-worm hen lies and fewer than two pairs")
        if row == IDENTICAL:
            return _Verdict(r, "return", "identical cards lie")
        if row == SEVERAL_PAIRS:
            return _Verdict(r, "one", "several pairs lie")
        return _Verdict(r, "return", "only one pair lies" if row == ONE_PAIR else "no pair lies")

    def _resolve(self, t_us: int) -> list[GameEvent]:
        """Close the reaction window: apply the outcome table to every reaction.

        Order: winners take table cards (earliest first), leftovers go under
        the deck, unpaid winners take deck cards from the top (or are owed),
        then wrong reactions return one won card each under the deck.
        """
        shown = [card.to_json() for card in self.table]  # the screen keeps them in view while it explains
        situation = judge(self.table)
        t_show = self.t_show if self.t_show is not None else t_us
        events: list[GameEvent] = []
        verdicts = self._verdicts(situation, t_show, t_us, events)
        all_winner, payees, tied = self._first_takes_all(verdicts)
        changes, texts = self._pay(verdicts, all_winner, payees, t_us, events)
        first_r, ahead = self._first_and_lead(all_winner, payees)
        resolution_outcomes = self._announce(verdicts, changes, texts, t_show, t_us, events)
        self.outcomes.extend(resolution_outcomes)
        self.last_resolution = {
            "t_us": t_us,
            "situation": situation.row,
            "table": situation.describe(),
            "cards": shown,
            "first": first_r.player if first_r is not None and not tied else None,
            "tied": tied,
            "ahead_us": ahead,
            "outcomes": resolution_outcomes,
        }
        return events + self._close_window(t_us, situation.row, self.last_resolution["first"])

    def _verdicts(self, situation: Situation, t_show: int, t_us: int, events: list[GameEvent]) -> list[_Verdict]:
        """Every reaction of the window judged alone, in stamp order; a press
        before the card was on screen is ``early`` (its event added to ``events``)."""
        early = [r for r in self.reactions.values() if r.t_us < t_show]
        for r in early:
            del self.reactions[r.player]
            events.append(GameEvent("early", t_us, r.player, {"why": "pressed before the card was on screen"}))
        holders, no_pawn = self._pawn_holders()
        verdicts: list[_Verdict] = [_Verdict(r, "ignored", "no pawn was left to grab") for r in no_pawn]
        verdicts += [_Verdict(r, "ignored", "pressed before the card was on screen") for r in early]
        for r in self.reactions.values():
            if r.kind in ("knock", "call") or r in holders:
                verdicts.append(self._verdict(r, situation))
        verdicts.sort(key=lambda v: (v.reaction.t_us, v.reaction.player))
        return verdicts

    def _first_takes_all(self, verdicts: list[_Verdict]) -> tuple[_Verdict | None, list[_Verdict], list[int]]:
        """"First takes all": rank the correct claimants; a tie shares card by
        card. (the one who takes the table or None, those paid one card each,
        the players tied for first)."""
        claimants = [v for v in verdicts if v.result == "all"]
        all_winner: _Verdict | None = None
        tied: list[int] = []
        if claimants:
            groups = self._rank([v.reaction for v in claimants])
            first = {r.player for r in groups[0]}
            leaders = " and ".join(f"player {p + 1}" for p in sorted(first))
            for v in claimants:
                if v.reaction.player not in first:
                    verb = "was" if len(first) == 1 else "were"
                    v.result, v.why = "nothing", f"{v.why}, but {leaders} {verb} first"
            if len(groups[0]) == 1:
                all_winner = next(v for v in claimants if v.reaction.player in first)
            else:
                tied = sorted(first)
                for v in claimants:
                    if v.reaction.player in first:
                        v.result, v.why = "one", f"{v.why}, tied for first"
        return all_winner, [v for v in verdicts if v.result == "one"], tied

    def _pay(self, verdicts: list[_Verdict], all_winner: _Verdict | None, payees: list[_Verdict], t_us: int,
             events: list[GameEvent]) -> tuple[dict[int, int], dict[int, str]]:
        """Move the cards the verdicts say: (each player's change, what happened to them in words)."""
        changes = dict.fromkeys(range(self.players), 0)
        texts: dict[int, str] = {}
        if all_winner is not None:
            taken = len(self.table)
            self.piles[all_winner.reaction.player].extend(self.table)
            self.table = []
            changes[all_winner.reaction.player] += taken
            texts[all_winner.reaction.player] = f"takes all {taken} table cards"
        unpaid: list[_Verdict] = []
        if all_winner is None and payees:
            for v in payees:
                p = v.reaction.player
                if self.table:
                    self.piles[p].append(self.table.pop(0))
                    texts[p] = "takes 1 table card"
                    changes[p] += 1
                else:
                    unpaid.append(v)
            self.deck.extend(self.table)
            if self.table:
                events.append(GameEvent("message", t_us, data={"under_deck": len(self.table)}))
            self.table = []
        for v in verdicts:
            p = v.reaction.player
            if v.result == "return":
                if self.piles[p]:
                    self.deck.append(self.piles[p].pop())
                    changes[p] -= 1
                    texts[p] = "returns 1 card under the deck"
                else:
                    texts[p] = "has no card to return and owes nothing"
            elif v.result in ("nothing", "ignored"):
                texts[p] = "gets nothing" if v.result == "nothing" else "has no effect"
        # Winners the table could not pay take the top of the deck, after this
        # window's returned cards went under it; what the deck cannot pay is owed.
        for v in unpaid:
            p = v.reaction.player
            if self.deck:
                self.piles[p].append(self.deck.pop(0))
                texts[p] = "takes the top card of the deck"
                changes[p] += 1
            else:
                self.owed[p] += 1
                texts[p] = "is owed 1 card the deck cannot pay (counts in the final score)"
        return changes, texts

    def _first_and_lead(self, all_winner: _Verdict | None, payees: list[_Verdict]) -> tuple[Reaction | None, int | None]:
        """Who was first, and by how much (for the screen and disputes)."""
        ordered = sorted(self.reactions.values(), key=lambda r: (r.t_us, r.player))
        if all_winner is not None:
            first_r: Reaction | None = all_winner.reaction
        elif payees:
            first_r = payees[0].reaction
        else:
            first_r = ordered[0] if ordered else None
        ahead = None
        if first_r is not None:
            gaps = [r.t_us - first_r.t_us for r in ordered if r.player != first_r.player and r.t_us >= first_r.t_us]
            ahead = min(gaps) if gaps else None
        return first_r, ahead

    def _announce(self, verdicts: list[_Verdict], changes: dict[int, int], texts: dict[int, str], t_show: int,
                  t_us: int, events: list[GameEvent]) -> list[dict[str, Any]]:
        """Each reaction's outcome, as the record keeps it, its status and its event."""
        resolution_outcomes = []
        for v in verdicts:
            p = v.reaction.player
            outcome = {
                "player": p,
                "reaction": v.reaction.kind,
                "reaction_us": v.reaction.t_us - t_show,
                "change": changes[p],
                "result": v.result,
                "why": v.why,
                "text": f"player {p + 1} {v.reaction.words()}: {v.why}, so {texts[p]}",
            }
            if v.reaction.accessory:
                outcome["accessory"] = v.reaction.accessory
            resolution_outcomes.append(outcome)
            self.status[p] = VERDICT_STATUS[v.result]
            events.append(GameEvent(VERDICT_EVENT[v.result], t_us, p, {"change": changes[p], "text": outcome["text"]}))
        return resolution_outcomes

    def _close_window(self, t_us: int, row: str, first: int | None) -> list[GameEvent]:
        """The window is over: ready for the next card, or the game ends."""
        self.reactions = {}
        self.history = {}
        self.already_acted = set()
        self.window_start_us = None
        self.locked = set()
        self.phase = Phase.WAITING
        events = [GameEvent("round_over", t_us, data={"situation": row, "first": first})]
        if any(self.owed):
            events += self._end(t_us, EndReason.OWED_CARD_UNPAID)
        elif self.last_card_turned:
            # the rulebook: one last chance after the last card, then the game is
            # over; cards returned in this window stay under the deck, unturned
            events += self._end(t_us, EndReason.FINAL_WINDOW_CLOSED)
        elif not self.deck:
            events += self._end(t_us, EndReason.DECK_EMPTY)
        elif self.turn_interval_us is not None:
            self.next_turn_us = t_us + self._current_interval()
        return events

    def _end(self, t_us: int, why: EndReason) -> list[GameEvent]:
        reason = END_SENTENCES[why]
        self.end_reason = why
        scores = self.scores()
        best = max(scores)
        winners = [p for p, s in enumerate(scores) if s == best]
        self.phase = Phase.OVER
        self.result = {"scores": scores, "winners": winners, "reason": reason, "unturned": len(self.deck)}
        self.status = ["winner" if p in winners else "done" for p in range(self.players)]
        return [GameEvent("game_over", t_us, data=dict(self.result))]

    # ----------------------------------------------------------------- views

    def scores(self) -> list[int]:
        return [len(pile) + owed for pile, owed in zip(self.piles, self.owed, strict=True)]

    def pawns(self) -> dict[str, Any]:
        """Pawns as the table shows them right now (grabs beyond the pawns do nothing)."""
        holders, _ = self._pawn_holders()
        blue = sorted((r for r in holders if r.kind == "blue"), key=lambda r: (r.t_us, r.player))
        red = sorted((r for r in holders if r.kind == "red"), key=lambda r: (r.t_us, r.player))
        return {
            "blue": [blue[i].player if i < len(blue) else None for i in range(self.blue_pawns)],
            "red": red[0].player if red else None,
        }

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return list(self.status)

    def public_view(self) -> dict[str, Any]:
        return {
            "phase": self.phase.value,
            "scores": self.scores(),
            "won": [len(pile) for pile in self.piles],
            "owed": list(self.owed),
            "status": self.station_statuses(),
            "table": [card.to_json() for card in self.table],
            "deck": len(self.deck),
            "pawns": self.pawns(),
            "reactions": [
                {
                    "player": r.player,
                    "reaction": r.kind,
                    "accessory": r.accessory,
                    "t_us": r.t_us,
                    "already_acted": r.player in self.already_acted,
                }
                for r in sorted(self.reactions.values(), key=lambda r: (r.t_us, r.player))
            ],
            "t_show_us": self.t_show,
            "window_closes_us": self._window_deadline(),
            "next_turn_us": self.next_turn_us if self.deck and self.phase != Phase.OVER else None,
            "cards_turned": self.cards_turned,
            "last_resolution": copy.deepcopy(self.last_resolution),
            "result": copy.deepcopy(self.result),
        }

    def private_view(self, player: int) -> dict[str, Any]:
        return {}

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        if self.result is None or self.end_reason is None:
            return None
        return Outcome(tuple(self.result["winners"]), self.end_reason, tuple(self.result["scores"]))

    def summary(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "won": [len(pile) for pile in self.piles],
            "owed": list(self.owed),
            "scores": self.scores(),
            "deck": len(self.deck),
            "table": [card.to_json() for card in self.table],
            "outcomes": copy.deepcopy(self.outcomes),
            "finished": self.finished,
            "winners": list(self.result["winners"]) if self.result else [],
            "reason": self.result["reason"] if self.result else None,
            "cards_turned": self.cards_turned,
            "situations": dict(self.situations),
            "total_cards": self.total_cards,
        }

    def legal_actions(self, player: int | None) -> list[str]:
        if self.phase == Phase.OVER:
            return []
        if player is None:
            kinds = ["pace"]
            if self.phase in (Phase.WAITING, Phase.SHOWING):
                kinds += ["turn"] if self.deck else []
                kinds += ["show_card"]
            if self.phase in (Phase.SHOWING, Phase.WINDOW) and not self.shown_confirmed:
                kinds.append(HOST_SHOWN)
            return kinds
        if self.phase in (Phase.SHOWING, Phase.WINDOW) and player not in self.locked:
            return list(REPLACES_CALL) if player in self.reactions else list(REACTIONS)
        return []
