"""The Fiki Miki rules engine: sans-I/O, seeded, time passed in (variants I, IIA, IIB).

Player actions (what a phone page or a station sends)
- ``play`` args ``{"card": id}``: play this card from the hand (variant I: onto
  the stack of its kind; variant II: lead it, or add it to the led card).
- ``discard`` args ``{"card": id}`` (variant II): put this card out of the game
  (no matching and no blank card; or a wrong ring's penalty).
- ``ring``: the bell at the player's station (the station input ``bell``).

Host actions: ``shown`` (no effect: the bell is judged by stamps, see below)
and ``resume`` (the inputs were away: deadlines move by ``paused_us``).

``legal_moves(player)`` lists the concrete moves (kind + card) legal now, so a
phone page can offer them without guessing; ``legal_actions`` only their kinds.

Bell races. Rings are ranked by their source stamps with ``rank_by_time``
(ties honest to the coarser precision of two rings, or ``tie_window_us``).
The box hands actions over in stamp order up to its horizon, which is far
shorter than ``race_window_us``; the engine does not rely on that for a race:
it collects every ring stamped up to ``race_window_us`` after the first
correct ring (arrival order does not matter) and decides when that window has
passed. A ring that arrives after the decision but is stamped before it is
``late`` evidence: shown, never acted on. Outside a race the engine relies on
stamp order: a ring is judged against the table as it is when handled.

Variant I tie: the tied ringers draw for the stack with the engine's seeded
generator (each has the same chance; the draw is replayable from the journal).
The stack is a single prize, so one of them must take it: "nobody" would leave
an over-full stack as a bigger prize for the next race, rewarding a later ring.
Variant IIB tie: every ringer of the first group is spared (sparing is not a
scarce prize, so nobody needs to lose a tie).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from games.arbitration import Stamp, Stamped, rank_by_stamp
from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    Action,
    GameEvent,
    GameSettings,
    Outcome,
    RuleError,
    fire_due,
)
from games.fiki_miki.cards import Card, FikiMikiError
from games.fiki_miki.options import BAN_TO_OWN_TURN, PLAYERS, FikiMikiOptions, Variant
from games.i18n import N_, Nn_

PLAY = "play"
DISCARD = "discard"
RING = "ring"
PLAYER_ACTIONS = (PLAY, DISCARD, RING)
HOST_ACTIONS = (HOST_SHOWN, HOST_RESUME)


class Phase(str, Enum):
    """What the game waits for."""

    PLAY = "play"  # I: the turn player plays a card (the bell is open too)
    BELL = "bell"  # I: a card landed or a race runs; IIB: a card was led
    LEAD = "lead"  # II: the leader leads a picture card
    FOLLOW = "follow"  # II: a follower adds a card or discards
    OVER = "over"


class Status(str, Enum):
    """One player's state as the shared screen shows it."""

    IDLE = "idle"
    TURN = "turn"
    BANNED = "banned"  # I: rang wrong: loses the next turn and may not ring
    OUT = "out"  # II: could only lead a blank card
    EMPTY = "empty"  # no card in hand
    WINNER = "winner"
    DONE = "done"


@dataclass(frozen=True)
class Move:
    """One concrete legal move of a player: what a phone button sends."""

    kind: str
    card: int | None = None

    def args(self) -> dict[str, Any]:
        return {} if self.card is None else {"card": self.card}

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "args": self.args()}

    def action(self, player: int, t_us: int, precision_us: int = 1) -> Action:
        return Action(self.kind, t_us, player, self.args(), precision_us)


@dataclass(frozen=True)
class Ring(Stamped):
    player: int
    stamp: Stamp


@dataclass
class _State:
    """Everything that changes during a game (copied whole before a risky step)."""

    phase: Phase
    pile: list[Card]
    hands: list[list[Card]]
    collected: list[list[Card]]
    stacks: dict[str, list[Card]]
    now_us: int | None = None
    discards: list[Card] = field(default_factory=list)
    trick: list[tuple[int, Card]] = field(default_factory=list)
    turn: int | None = None  # whose move it is (None while the bell window runs in I)
    after: int = -1  # I: who played last (the next turn starts after them)
    leader: int = 0
    led_kind: str | None = None
    to_follow: list[int] = field(default_factory=list)
    landed: str | None = None  # I: the stack the newest card landed on
    landed_us: int | None = None  # I: when; II: when the card was led
    landed_taken: bool = False  # I: a faster ringer took that stack after the newest card
    skip_next: set[int] = field(default_factory=set)  # I: wrong ringers whose next turn is lost
    banned: set[int] = field(default_factory=set)  # I: wrong ringers who may not ring
    ban_lifts: set[int] = field(default_factory=set)  # I: lost turn passed: the ban lifts at their own turn
    out: set[int] = field(default_factory=set)
    owed: dict[int, int] = field(default_factory=dict)  # IIB: penalty discards still due
    spared: set[int] = field(default_factory=set)
    rang: set[int] = field(default_factory=set)  # IIB: rang after this lead
    rings: list[Ring] = field(default_factory=list)  # correct rings of the running race
    window_closes_us: int | None = None
    race_closes_us: int | None = None
    decided_us: int | None = None
    last_race: dict[str, Any] | None = None
    last_ring: list[dict[str, Any] | None] = field(default_factory=list)
    result: dict[str, Any] | None = None
    stats: dict[str, int] = field(default_factory=dict)

    def copy(self) -> _State:
        return replace(
            self,
            pile=list(self.pile),
            hands=[list(h) for h in self.hands],
            collected=[list(c) for c in self.collected],
            stacks={k: list(v) for k, v in self.stacks.items()},
            discards=list(self.discards),
            trick=list(self.trick),
            to_follow=list(self.to_follow),
            skip_next=set(self.skip_next),
            banned=set(self.banned),
            ban_lifts=set(self.ban_lifts),
            out=set(self.out),
            owed=dict(self.owed),
            spared=set(self.spared),
            rang=set(self.rang),
            rings=list(self.rings),
            last_race=None if self.last_race is None else dict(self.last_race),
            last_ring=list(self.last_ring),
            result=None if self.result is None else dict(self.result),
            stats=dict(self.stats),
        )


def _pictures(cards: Iterable[Card]) -> int:
    return sum(card.pictures for card in cards)


def _cards_json(cards: Iterable[Card]) -> list[dict[str, Any]]:
    return [card.to_json() for card in cards]


class EndReason(Enum):
    """Why a game of Fiki Miki ended (the summary keeps the rules' own words)."""

    HANDS_EMPTY = "hands_empty"  # variant I: all hands are empty
    NO_CARD_TO_LEAD = "no_card_to_lead"  # variant II: no player has a card left to lead
    ONLY_BLANKS = "only_blanks"  # variant IIB: a leader holds only blank cards
    HAND_EMPTY = "hand_empty"  # variant IIB: a player has no cards left

    @classmethod
    def of(cls, words: str) -> EndReason:
        """The reason the summary's words say."""
        if words == "all hands are empty":
            return cls.HANDS_EMPTY
        if words.endswith("could not lead (only blank cards)"):
            return cls.ONLY_BLANKS
        if words.endswith("has no cards left"):
            return cls.HAND_EMPTY
        if words == "no player has a card left to lead":
            return cls.NO_CARD_TO_LEAD
        raise ValueError(f"Fiki Miki: no end reason for {words!r}")


class FikiMikiEngine:
    """Deck, hands, stacks or tricks, the bell, scores: one seeded game."""

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.options = FikiMikiOptions.from_mapping(settings.options)
        variant = self.variant = self.options.variant
        low, high = PLAYERS[variant]
        n = self.players = settings.players
        if not low <= n <= high:
            raise FikiMikiError(f"Fiki Miki variant {variant.value} takes {low}-{high} players, not {n}")
        makeup = self.options.makeup
        assert makeup is not None
        self.kinds = makeup.kinds
        self.rng = random.Random(settings.seed)
        if self.options.deck is not None:
            deck = list(self.options.deck)
            if variant is Variant.I and any(card.blank for card in deck):
                raise FikiMikiError("option 'deck': variant I plays without blank cards; take them out of the deck")
        else:
            deck = makeup.cards(with_blanks=variant is not Variant.I)
            self.rng.shuffle(deck)
        hand = self.options.cards_per_hand
        if hand * n > len(deck):
            raise FikiMikiError(
                f"the deck has {len(deck)} cards, too few to deal {hand} to each of {n} players; "
                "lower 'hand_size' or add cards"
            )
        self.total_cards = len(deck)
        # dealt in blocks from the top (seat 0 first): same odds as dealing round
        # the table from a shuffled deck, and an explicit scenario deck reads easily
        hands = [deck[p * hand : (p + 1) * hand] for p in range(n)]
        self.state = _State(
            phase=Phase.PLAY if variant is Variant.I else Phase.LEAD,
            pile=deck[hand * n :],
            hands=hands,
            collected=[[] for _ in range(n)],
            stacks={kind: [] for kind in self.kinds} if variant is Variant.I else {},
            after=n - 1,
            last_ring=[None] * n,
            stats=dict.fromkeys(("moves", "tricks", "races", "ties", "rings", "wrong_rings", "late_rings"), 0),
        )
        # seat 0 starts (the rulebook: the youngest in I, the oldest in II)
        if variant is Variant.I:
            self._next_turn(0)
        else:
            self._start_lead(0, 0)

    # ------------------------------------------------------------------ time

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.OVER

    def next_deadline_us(self) -> int | None:
        s = self.state
        if s.phase is Phase.OVER:
            return None
        due = [t for t in (s.window_closes_us, s.race_closes_us) if t is not None]
        return min(due) if due else None

    def tick(self, now_us: int) -> list[GameEvent]:
        events = self._advance(now_us)
        s = self.state
        s.now_us = now_us if s.now_us is None else max(s.now_us, now_us)
        return events

    def _advance(self, now_us: int) -> list[GameEvent]:
        """Fire every deadline due by now_us at its own time (``fire_due``)."""
        return fire_due(self.next_deadline_us, self._fire, now_us)

    def _fire(self, due: int) -> list[GameEvent]:
        """The deadline at ``due``: a bell race is decided, or a bell window closes."""
        s = self.state
        s.now_us = due if s.now_us is None else max(s.now_us, due)
        if s.race_closes_us is not None and s.race_closes_us <= due:
            return self._resolve_race(due)
        if self.variant is Variant.IIB:
            return self._close_lead_window(due)
        s.window_closes_us = None
        return self._end_bell(due) if s.race_closes_us is None else []

    # --------------------------------------------------------------- actions

    def handle(self, action: Action) -> list[GameEvent]:
        """Apply one action; on RuleError nothing changes (time included)."""
        s = self.state
        saved_now = s.now_us
        moves_time = s.now_us is None or action.t_us > s.now_us
        due = self.next_deadline_us()
        saved = (s.copy(), self.rng.getstate()) if moves_time and due is not None and due <= action.t_us else None
        try:
            events: list[GameEvent] = []
            if moves_time:
                events += self._advance(action.t_us)
                self.state.now_us = action.t_us
            events += self._apply(action)
            return events
        except RuleError:
            if saved is not None:
                self.state = saved[0]
                self.rng.setstate(saved[1])
            self.state.now_us = saved_now
            raise

    def _apply(self, action: Action) -> list[GameEvent]:
        if action.player is None:
            return self._host(action)
        p = action.player
        if not 0 <= p < self.players:
            raise RuleError(N_("player {n} does not exist (1..{players})"), n=p + 1, players=self.players)
        if action.kind not in PLAYER_ACTIONS:
            raise RuleError(N_("unknown action {kind!r}: players may {choices}"), kind=action.kind,
                            choices=", ".join(PLAYER_ACTIONS))
        if self.state.phase is Phase.OVER:
            raise RuleError(N_("the game is over"))
        if action.kind == RING:
            return self._ring(action, p)
        card_id = action.args.get("card")
        if isinstance(card_id, bool) or not isinstance(card_id, int):
            raise RuleError(N_("{kind}: args 'card' is {card!r}; send the id of a card in your hand"), kind=action.kind,
                            card=card_id)
        card = next((c for c in self.state.hands[p] if c.id == card_id), None)
        if card is None:
            raise RuleError(N_("card {card} is not in player {n}'s hand"), card=card_id, n=p + 1)
        if Move(action.kind, card_id) not in self.legal_moves(p):
            raise self._why_not(p, action.kind, card)
        if self.variant is Variant.I:
            return self._play_stack(p, card, action.t_us)
        if self.state.phase is Phase.LEAD:
            return self._lead(p, card, action.t_us)
        return self._follow(p, action.kind, card, action.t_us)

    def _host(self, action: Action) -> list[GameEvent]:
        s = self.state
        if action.kind == HOST_SHOWN:
            return []  # the bell is judged by stamps from the moment a card lands
        if action.kind == HOST_RESUME:
            paused = action.args.get("paused_us", 0)
            if isinstance(paused, bool) or not isinstance(paused, int) or paused < 0:
                raise RuleError(N_("resume: 'paused_us' is {paused!r}; use microseconds >= 0"), paused=paused)
            if s.window_closes_us is not None:
                s.window_closes_us += paused
            if s.race_closes_us is not None:
                s.race_closes_us += paused
            return []
        raise RuleError(N_("unknown host action {kind!r}: the host may {choices}"), kind=action.kind,
                        choices=", ".join(HOST_ACTIONS))

    def _why_not(self, p: int, kind: str, card: Card) -> RuleError:
        """Why this play or discard is not legal now."""
        s = self.state
        if s.phase is Phase.BELL:
            return RuleError(N_("wait: the bell is open; the next card follows when it closes"))
        if s.turn is None:
            return RuleError(N_("it is nobody's turn now"))
        if s.turn != p:
            return RuleError(N_("it is player {turn}'s turn, not player {player}'s"), turn=s.turn + 1, player=p + 1)
        if kind == DISCARD and self.variant is Variant.I:
            return RuleError(N_("variant I has no discards: play a card onto its stack"))
        if s.phase is Phase.LEAD:
            if kind == DISCARD:
                return RuleError(N_("the leader leads a card; discards are for followers"))
            return RuleError(N_("a blank card cannot be led: lead a picture card"))
        if s.owed.get(p, 0):
            return RuleError(Nn_("discard {n} more card first (the penalty for a wrong ring)",
                                 "discard {n} more cards first (the penalty for a wrong ring)"), n=s.owed[p])
        options = self._follow_moves(p)
        return RuleError(N_("not a legal follow: {moves} would be"), moves=", ".join(f"{m.kind} {m.card}" for m in options))

    # ------------------------------------------------------------- variant I

    def _play_stack(self, p: int, card: Card, t_us: int) -> list[GameEvent]:
        s = self.state
        assert card.kind is not None
        s.hands[p].remove(card)
        stack = s.stacks[card.kind]
        stack.append(card)
        s.landed, s.landed_us, s.landed_taken = card.kind, t_us, False
        s.after, s.turn = p, None
        s.stats["moves"] += 1
        events = [
            GameEvent(
                "played",
                t_us,
                p,
                {"card": card.to_json(), "stack": card.kind, "stack_pictures": _pictures(stack)},
            )
        ]
        if s.pile:
            s.hands[p].append(s.pile.pop(0))
            events.append(GameEvent("drew", t_us, p, {"pile": len(s.pile)}))
        if self.options.bell_window_us > 0:
            s.phase = Phase.BELL
            s.window_closes_us = t_us + self.options.bell_window_us
            events.append(GameEvent("bell_open", t_us, data={"closes_us": s.window_closes_us}))
            return events
        return events + self._end_bell(t_us)

    def _landed_pictures(self) -> int:
        s = self.state
        return _pictures(s.stacks[s.landed]) if s.landed is not None else 0

    def _ring(self, action: Action, p: int) -> list[GameEvent]:
        s = self.state
        t_us = action.t_us
        if self.variant is Variant.IIA:
            raise RuleError(N_("variant IIA is played without the bell"))
        if s.decided_us is not None and s.landed_us is not None and s.landed_us <= t_us < s.decided_us:
            return self._late(p, t_us)
        if s.landed_us is not None and t_us < s.landed_us:
            return self._late(p, t_us)
        if self.variant is Variant.IIB:
            return self._ring_lead(action, p)
        if p in s.banned:
            raise self._ban_refusal(p)
        if any(r.player == p for r in s.rings):
            raise RuleError(N_("player {n} already rang in this race"), n=p + 1)
        s.stats["rings"] += 1
        pictures = self._landed_pictures()
        if pictures >= self.options.threshold:
            ring = Ring(p, replace(action.stamp, t_us=t_us))
            s.rings.append(ring)
            s.race_closes_us = min(r.t_us for r in s.rings) + self.options.race_window_us
            s.phase = Phase.BELL
            return [GameEvent("ring", t_us, p, {"race_closes_us": s.race_closes_us})]
        if s.landed_taken:
            s.last_ring[p] = {"t_us": t_us, "result": "slower"}
            why = f"the {s.landed} stack was right, but another player took it first"
            return [GameEvent("slower", t_us, p, {"why": why, "text": f"player {p + 1} rang too late: {why}"})]
        s.stats["wrong_rings"] += 1
        s.skip_next.add(p)
        s.banned.add(p)
        why = f"the {s.landed} stack holds {pictures} pictures, fewer than {self.options.threshold}"
        if s.landed is None:
            why = "no card has landed yet"
        s.last_ring[p] = {"t_us": t_us, "result": "wrong", "why": why}
        text = f"player {p + 1} rang wrong ({why}): loses the next turn and may not ring until then"
        if self.options.rules_version >= BAN_TO_OWN_TURN:
            text = f"player {p + 1} rang wrong ({why}): loses the next turn and may not ring until their turn after it"
        return [GameEvent("wrong", t_us, p, {"why": why, "text": text})]

    def _ban_refusal(self, p: int) -> RuleError:
        """Why a banned player's ring is refused, in the rules version played."""
        if self.options.rules_version >= BAN_TO_OWN_TURN:
            return RuleError(N_("player {n} rang wrong and may not ring until their own turn after the lost one"), n=p + 1)
        return RuleError(N_("player {n} rang wrong and may not ring until their skipped turn has passed"), n=p + 1)

    def _late(self, p: int, t_us: int) -> list[GameEvent]:
        """A ring stamped before the last decision (or before the newest card)
        that reached the engine after it: shown, never acted on."""
        s = self.state
        s.stats["late_rings"] += 1
        race = s.last_race
        would_win = bool(race and race.get("first_us") is not None and t_us < race["first_us"])
        why = "stamped before the decision it arrived after" if s.decided_us and t_us < s.decided_us else (
            "stamped before the newest card was played"
        )
        return [GameEvent("late", t_us, p, {"why": why, "would_have_won": would_win})]

    def _rank_rings(self) -> list[list[Ring]]:
        """The rings of the running race in stamp order; a group of two or more is a tie."""
        return rank_by_stamp(self.state.rings, self.options.tie_window_us)

    def _resolve_race(self, t_us: int) -> list[GameEvent]:
        """Variant I: the first ringer takes the stack the newest card landed on."""
        s = self.state
        groups = self._rank_rings()
        first = groups[0]
        tied = sorted(r.player for r in first)
        if len(first) == 1:
            winner, decided_by = first[0].player, "stamp"
        else:
            winner, decided_by = self.rng.choice(tied), "draw"
            s.stats["ties"] += 1
        winner_us = next(r.t_us for r in first if r.player == winner)
        margin = groups[1][0].t_us - max(r.t_us for r in first) if len(groups) > 1 else None
        assert s.landed is not None
        stack = s.stacks[s.landed]
        taken = len(stack)
        s.collected[winner] += stack
        s.stacks[s.landed] = []
        s.landed_taken = True
        s.stats["races"] += 1
        s.last_race = {
            "winner": winner,
            "tied": tied if len(tied) > 1 else [],
            "decided_by": decided_by,
            "margin_us": margin,
            "first_us": winner_us,
            "stack": s.landed,
            "cards": taken,
            "rings": [{"player": r.player, "t_us": r.t_us} for g in groups for r in g],
        }
        for group in groups:
            for r in group:
                won = r.player == winner
                s.last_ring[r.player] = {
                    "t_us": r.t_us,
                    "result": "won" if won else ("tie_lost" if r in first else "slower"),
                }
        s.rings, s.race_closes_us, s.window_closes_us, s.decided_us = [], None, None, t_us
        how = f"tied with {', '.join(str(p) for p in tied if p != winner)}, won the draw" if decided_by == "draw" else "first"
        events = [
            GameEvent(
                "winner",
                t_us,
                winner,
                {
                    "cards": taken,
                    "stack": s.last_race["stack"],
                    "decided_by": decided_by,
                    "tied": s.last_race["tied"],
                    "margin_us": margin,
                    "text": f"player {winner + 1} rang {how} and takes the {s.last_race['stack']} stack ({taken} cards)",
                },
            )
        ]
        return events + self._end_bell(t_us)

    def _end_bell(self, t_us: int) -> list[GameEvent]:
        """The bell window (and any race) is over: the game goes on."""
        s = self.state
        if s.turn is None:
            return self._next_turn(t_us)
        s.phase = Phase.PLAY
        return []

    def _next_turn(self, t_us: int) -> list[GameEvent]:
        """Variant I: the next player clockwise with cards plays; a wrong
        ringer's turn is skipped. Their bell ban lifts when the turn order
        comes round to them again after the lost turn, so it covers a full
        round wherever they sit (rules 1: it lifted with the lost turn)."""
        s = self.state
        events: list[GameEvent] = []
        if not any(s.hands):
            return self._end(t_us, "all hands are empty")
        p = s.after
        while True:
            p = (p + 1) % self.players
            if p in s.skip_next:
                s.skip_next.discard(p)
                if self.options.rules_version >= BAN_TO_OWN_TURN:
                    s.ban_lifts.add(p)
                else:
                    s.banned.discard(p)
                events.append(GameEvent("skipped", t_us, p, {"why": "rang wrong"}))
                continue
            if p in s.ban_lifts:
                s.ban_lifts.discard(p)
                s.banned.discard(p)
                events.append(GameEvent("ban_over", t_us, p))
            if not s.hands[p]:
                continue
            s.turn, s.phase = p, Phase.PLAY
            events.append(GameEvent("turn", t_us, p))
            return events

    # ------------------------------------------------------------ variant II

    def _start_lead(self, t_us: int, candidate: int) -> list[GameEvent]:
        """The next player clockwise from ``candidate`` who can lead leads; one
        whose hand holds only blank cards cannot, and is out."""
        s = self.state
        events: list[GameEvent] = []
        for offset in range(self.players):
            p = (candidate + offset) % self.players
            if p in s.out or not s.hands[p]:
                continue
            if all(card.blank for card in s.hands[p]):
                s.out.add(p)
                events.append(GameEvent("out", t_us, p, {"why": "only blank cards left: a blank card cannot be led"}))
                if self.variant is Variant.IIB:
                    return events + self._end(t_us, f"player {p + 1} could not lead (only blank cards)")
                continue
            s.leader, s.turn, s.phase = p, p, Phase.LEAD
            s.trick, s.led_kind = [], None
            events.append(GameEvent("turn", t_us, p, {"lead": True}))
            return events
        return events + self._end(t_us, "no player has a card left to lead")

    def _lead(self, p: int, card: Card, t_us: int) -> list[GameEvent]:
        s = self.state
        s.hands[p].remove(card)
        s.trick = [(p, card)]
        s.led_kind = card.kind
        s.landed_us = t_us
        s.stats["moves"] += 1
        s.to_follow = [(p + k) % self.players for k in range(1, self.players) if (p + k) % self.players not in s.out]
        s.spared, s.rang, s.owed = set(), set(), {}
        events = [GameEvent("led", t_us, p, {"card": card.to_json()})]
        if self.variant is Variant.IIB and self.options.bell_window_us > 0:
            s.phase, s.turn = Phase.BELL, None
            s.window_closes_us = t_us + self.options.bell_window_us
            events.append(GameEvent("bell_open", t_us, data={"closes_us": s.window_closes_us}))
            return events
        return events + self._next_follower(t_us)

    def _ring_lead(self, action: Action, p: int) -> list[GameEvent]:
        """Variant IIB: a player without the led kind rings to be spared."""
        s = self.state
        t_us = action.t_us
        if s.phase is not Phase.BELL:
            raise RuleError(N_("the bell counts only while it is open right after a card is led"))
        if p == s.leader:
            raise RuleError(N_("the leader led the card: only the other players may ring"))
        if p in s.out:
            raise RuleError(N_("player {n} is out of the game"), n=p + 1)
        if p in s.rang:
            raise RuleError(N_("player {n} already rang for this card"), n=p + 1)
        s.rang.add(p)
        s.stats["rings"] += 1
        if not any(card.kind == s.led_kind for card in s.hands[p]):
            s.rings.append(Ring(p, replace(action.stamp, t_us=t_us)))
            return [GameEvent("ring", t_us, p, {"closes_us": s.window_closes_us})]
        s.stats["wrong_rings"] += 1
        s.owed[p] = 2
        why = f"player {p + 1} holds a {s.led_kind} card"
        s.last_ring[p] = {"t_us": t_us, "result": "wrong", "why": why}
        return [GameEvent("wrong", t_us, p, {"why": why, "text": f"{why}: discards two cards as a penalty"})]

    def _close_lead_window(self, t_us: int) -> list[GameEvent]:
        """Variant IIB: the first correct ringer (every one of a tie) is spared."""
        s = self.state
        s.window_closes_us = None
        events: list[GameEvent] = []
        if s.rings:
            groups = self._rank_rings()
            first = groups[0]
            s.spared = {r.player for r in first}
            margin = groups[1][0].t_us - max(r.t_us for r in first) if len(groups) > 1 else None
            s.stats["races"] += 1
            if len(first) > 1:
                s.stats["ties"] += 1
            s.last_race = {
                "winner": first[0].player if len(first) == 1 else None,
                "tied": sorted(s.spared) if len(first) > 1 else [],
                "decided_by": "stamp",
                "margin_us": margin,
                "first_us": min(r.t_us for r in first),
                "rings": [{"player": r.player, "t_us": r.t_us} for g in groups for r in g],
            }
            for r in s.rings:
                result = "spared" if r.player in s.spared else "slower"
                s.last_ring[r.player] = {"t_us": r.t_us, "result": result}
            for p in sorted(s.spared):
                events.append(
                    GameEvent(
                        "winner",
                        t_us,
                        p,
                        {"spared": True, "margin_us": margin, "text": f"player {p + 1} rang first and is spared the discard"},
                    )
                )
        s.rings, s.decided_us = [], t_us
        return events + self._next_follower(t_us)

    def _follow_moves(self, p: int) -> list[Move]:
        s = self.state
        hand = s.hands[p]
        if s.owed.get(p, 0):
            return [Move(DISCARD, c.id) for c in hand]
        matching = [Move(PLAY, c.id) for c in hand if c.kind == s.led_kind]
        if matching:
            return matching
        blanks = [Move(PLAY, c.id) for c in hand if c.blank]
        return blanks if blanks else [Move(DISCARD, c.id) for c in hand]

    def _follow(self, p: int, kind: str, card: Card, t_us: int) -> list[GameEvent]:
        s = self.state
        s.hands[p].remove(card)
        s.stats["moves"] += 1
        if kind == PLAY:
            s.trick.append((p, card))
            events = [GameEvent("added", t_us, p, {"card": card.to_json()})]
        else:
            s.discards.append(card)  # face down: the screen shows only how many
            penalty = s.owed.get(p, 0) > 0
            events = [GameEvent("discarded", t_us, p, {"penalty": penalty, "discarded": len(s.discards)})]
            if penalty:
                s.owed[p] -= 1
                if s.owed[p] and s.hands[p]:
                    return events  # one more penalty discard
                s.owed.pop(p)
                return events + self._next_follower(t_us, keep_current=bool(s.hands[p]))
        return events + self._next_follower(t_us, done=p)

    def _next_follower(self, t_us: int, done: int | None = None, keep_current: bool = False) -> list[GameEvent]:
        """Pass the trick on to the next follower who can add; when none is
        left the leader takes the trick."""
        s = self.state
        events: list[GameEvent] = []
        if done is not None and s.to_follow and s.to_follow[0] == done:
            s.to_follow.pop(0)
        while s.to_follow:
            f = s.to_follow[0]
            if f in s.spared and not any(card.blank for card in s.hands[f]):
                s.to_follow.pop(0)  # spared the discard; one with a blank still adds it
                continue
            if not s.hands[f]:
                s.owed.pop(f, None)
                s.to_follow.pop(0)
                events.append(GameEvent("passed", t_us, f, {"why": "no cards left"}))
                continue
            s.turn, s.phase = f, Phase.FOLLOW
            if not keep_current:
                events.append(GameEvent("turn", t_us, f))
            return events
        return events + self._end_trick(t_us)

    def _end_trick(self, t_us: int) -> list[GameEvent]:
        s = self.state
        cards = [card for _, card in s.trick]
        s.collected[s.leader] += cards
        s.stats["tricks"] += 1
        events = [
            GameEvent(
                "trick",
                t_us,
                s.leader,
                {"cards": len(cards), "pictures": _pictures(cards), "text": f"player {s.leader + 1} takes {len(cards)} cards"},
            )
        ]
        drew = []
        for k in range(self.players):
            p = (s.leader + k) % self.players
            if p not in s.out and s.pile:
                s.hands[p].append(s.pile.pop(0))
                drew.append(p)
        if drew:
            events.append(GameEvent("drew", t_us, data={"players": drew, "pile": len(s.pile)}))
        s.trick, s.led_kind, s.spared, s.rang, s.owed = [], None, set(), set(), {}
        if self.variant is Variant.IIB:
            empty = [p for p in range(self.players) if not s.hands[p]]
            if empty:
                return events + self._end(t_us, f"player {empty[0] + 1} has no cards left")
        return events + self._start_lead(t_us, (s.leader + 1) % self.players)

    # ------------------------------------------------------------------ end

    def _end(self, t_us: int, reason: str) -> list[GameEvent]:
        s = self.state
        scores = self.scores(final=True)
        best = max(scores)
        winners = [p for p, score in enumerate(scores) if score == best]
        s.phase, s.turn = Phase.OVER, None
        s.window_closes_us = s.race_closes_us = None
        s.result = {"scores": scores, "winners": winners, "reason": reason}
        if self.variant is Variant.IIB:
            s.result["hand_pictures"] = [_pictures(hand) for hand in s.hands]
        return [GameEvent("game_over", t_us, data=dict(s.result))]

    # ----------------------------------------------------------------- views

    def scores(self, final: bool | None = None) -> list[int]:
        """I: collected cards. II: pictures on collected cards; IIB adds, at the
        end, the pictures left in each hand."""
        s = self.state
        if self.variant is Variant.I:
            return [len(c) for c in s.collected]
        scores = [_pictures(c) for c in s.collected]
        if final is None:
            final = s.phase is Phase.OVER
        if final and self.variant is Variant.IIB:
            scores = [score + _pictures(hand) for score, hand in zip(scores, s.hands, strict=True)]
        return scores

    def statuses(self) -> list[Status]:
        s = self.state
        out: list[Status] = []
        winners = s.result["winners"] if s.result else []
        for p in range(self.players):
            if s.phase is Phase.OVER:
                out.append(Status.WINNER if p in winners else Status.DONE)
            elif p in s.out:
                out.append(Status.OUT)
            elif s.turn == p:
                out.append(Status.TURN)
            elif p in s.banned:
                out.append(Status.BANNED)
            elif not s.hands[p]:
                out.append(Status.EMPTY)
            else:
                out.append(Status.IDLE)
        return out

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return [status.value for status in self.statuses()]

    def public_view(self) -> dict[str, Any]:
        s = self.state
        view: dict[str, Any] = {
            "variant": self.variant.value,
            "phase": s.phase.value,
            "scores": self.scores(),
            "status": self.station_statuses(),
            "turn": s.turn,
            "collected": [len(c) for c in s.collected],
            "collected_pictures": [_pictures(c) for c in s.collected],
            "hand_sizes": [len(h) for h in s.hands],
            "pile": len(s.pile),
            "discarded": len(s.discards),
            "bell_closes_us": s.race_closes_us if s.race_closes_us is not None else s.window_closes_us,
            "rings": [{"player": r.player, "t_us": r.t_us} for r in s.rings],
            "banned": sorted(s.banned),
            "skip_next": sorted(s.skip_next),
            "last_race": None if s.last_race is None else dict(s.last_race),
            "last_ring": list(s.last_ring),
            "result": None if s.result is None else dict(s.result),
            "moves": s.stats["moves"],
        }
        if self.variant is Variant.I:
            view["threshold"] = self.options.threshold
            view["stacks"] = [
                {"kind": kind, "cards": _cards_json(cards), "pictures": _pictures(cards)}
                for kind, cards in s.stacks.items()
            ]
            view["landed"] = s.landed
            if self.options.open_hands:
                view["hands"] = [_cards_json(hand) for hand in s.hands]
        else:
            view["leader"] = s.leader
            view["led_kind"] = s.led_kind
            view["trick"] = [{"player": p, "card": card.to_json()} for p, card in s.trick]
            view["out"] = sorted(s.out)
            view["spared"] = sorted(s.spared)
            view["owed_discards"] = [s.owed.get(p, 0) for p in range(self.players)]
        return view

    def private_view(self, player: int) -> dict[str, Any]:
        s = self.state
        if not 0 <= player < self.players:
            return {}
        return {
            "player": player,
            "hand": _cards_json(s.hands[player]),
            "moves": [move.to_json() for move in self.legal_moves(player)],
            "last_ring": s.last_ring[player],
        }

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        result = self.state.result
        if result is None:
            return None
        return Outcome(tuple(result["winners"]), EndReason.of(result["reason"]), tuple(result["scores"]))

    def summary(self) -> dict[str, Any]:
        s = self.state
        return {
            "variant": self.variant.value,
            "players": self.players,
            "scores": self.scores(),
            "finished": self.finished,
            "winners": list(s.result["winners"]) if s.result else [],
            "reason": s.result["reason"] if s.result else None,
            "collected": [len(c) for c in s.collected],
            "discarded": len(s.discards),
            "total_cards": self.total_cards,
            **s.stats,
        }

    def legal_moves(self, player: int) -> list[Move]:
        """Every concrete move this player may make now (the bell included)."""
        s = self.state
        if s.phase is Phase.OVER or not 0 <= player < self.players:
            return []
        moves: list[Move] = []
        if s.turn == player:
            hand = s.hands[player]
            if s.phase is Phase.PLAY:
                moves += [Move(PLAY, c.id) for c in hand]
            elif s.phase is Phase.LEAD:
                moves += [Move(PLAY, c.id) for c in hand if not c.blank]
            elif s.phase is Phase.FOLLOW:
                moves += self._follow_moves(player)
        if self._may_ring(player):
            moves.append(Move(RING))
        return moves

    def _may_ring(self, p: int) -> bool:
        s = self.state
        if self.variant is Variant.I:
            return p not in s.banned and all(r.player != p for r in s.rings)
        if self.variant is Variant.IIB:
            return s.phase is Phase.BELL and p != s.leader and p not in s.out and p not in s.rang
        return False

    def legal_actions(self, player: int | None) -> list[str]:
        if self.finished:
            return []
        if player is None:
            return list(HOST_ACTIONS)
        return list(dict.fromkeys(move.kind for move in self.legal_moves(player)))
