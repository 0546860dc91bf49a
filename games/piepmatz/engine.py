"""The Piepmatz rules engine: sans-I/O, seeded, turn based (README.md has the rules).

Phases: ``play`` (the current player plays a bird behind a perch), ``crow``
(a crow struck: the player picks which bird of their largest species flies
off), ``lay`` (the sum was not greater: lay a hand card no higher than the
played bird), ``take`` (refill the hand from the offer), ``final`` (after the
last round every player lays two hand cards face down; nobody else sees
which until all have chosen, then they are turned up together), ``over``.

Player actions (``args``):

* ``play`` ``{"card": BIRD_ID, "perch": INDEX}``
* ``crow`` ``{"card": BIRD_ID}`` (a bird of the player's own collection)
* ``lay`` ``{"card": BIRD_ID}``
* ``take`` ``{"card": BIRD_ID}`` (a card of the offer)
* ``final`` ``{"cards": [BIRD_ID, BIRD_ID]}``
* ``propose`` ``{"move": {"kind": ..., "args": {...}}}``: hold one of the
  seat's legal moves until its station confirms it (a host-sent ``propose``
  with ``{"seat": S, "move": ...}``, or without a seat for the player to act,
  is the one phone a table passes around)
* ``confirm`` ``{}``: the station's button; applies the seat's held move

A step with no real choice (one bird the crow can take, one card that may be
laid, an offer the hand needs all of, two or fewer cards at the end) resolves
itself, so the phone never asks a question with one answer. Host actions
``shown`` and ``resume`` are accepted and change nothing (no timers).
``legal_moves(player)`` lists every concrete legal action with its args.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, TypeVar

from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    Action,
    GameEvent,
    GameSettings,
    Outcome,
    RuleError,
    checked_options,
)
from games.base import OptionError as ContractOptionError
from games.i18n import N_
from games.piepmatz.cards import (
    DEFAULT_SEED_CARDS,
    SPECIES,
    Bird,
    CardError,
    FeederCard,
    FeederKind,
    bird_deck,
    feeder_deck,
)
from games.piepmatz.options import OPTIONS, PEST_AND_CARD, SEED_CARDS_MAX, Majority
from games.rules_version import RULES_OPTION

CardT = TypeVar("CardT", Bird, FeederCard)

MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND_SIZE = 4
OFFER_SIZE = 3
ROW_SIZE = 4
FINAL_CARDS = 2
SQUIRREL_TAKES = 2


class Phase(str, Enum):
    PLAY = "play"
    CROW = "crow"
    LAY = "lay"
    TAKE = "take"
    FINAL = "final"
    OVER = "over"


class Status(str, Enum):
    TURN = "turn"  # this player must act now
    IDLE = "idle"
    WON = "won"


class EndReason(str, Enum):
    FEEDER_EMPTY = "feeder_empty"  # the seed row needed a card and the feeder deck was empty
    BIRDS_EMPTY = "birds_empty"  # a hand needed birds and offer and bird deck were empty


class OptionError(ContractOptionError):
    """A game option outside its allowed range; the message (an id with its
    arguments, worded in the reader's language) names the option and the fix."""


def default_perches(players: int) -> int:
    """2 perches for 2-3 players, 3 for 4 (the feeder card's two sides)."""
    return 3 if players >= 4 else 2


@dataclass(frozen=True)
class PiepmatzOptions:
    """Every option with its type, default and allowed range, checked in one place."""

    perches: int = 2
    seed_cards: tuple[int, int, int] = DEFAULT_SEED_CARDS
    crows: int = OPTIONS["crows"].default
    squirrels: int = OPTIONS["squirrels"].default
    pair_points: int = OPTIONS["pair_points"].default
    majority: Majority = Majority(OPTIONS["majority"].default)
    #: the species left out with 2 players (None: play with all six)
    removed_species: str | None = OPTIONS["removed_species"].default
    #: scenario/test seams: these card ids lie on top of their deck, in order
    #: (bird deal order: perches, offer, then 4 cards per player in seat order)
    bird_deck_top: tuple[str, ...] = ()
    feeder_deck_top: tuple[str, ...] = ()
    #: the rules version played (older ones replay old journals)
    rules_version: int = OPTIONS[RULES_OPTION].default

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any], players: int) -> PiepmatzOptions:
        values = checked_options(OPTIONS, options, "Piepmatz", error=OptionError)
        perches = values["perches"] if values["perches"] is not None else default_perches(players)
        seed_cards = _seed_cards_option(values["seed_cards"])
        try:
            majority = Majority(values["majority"])
        except ValueError:
            raise OptionError(N_("option 'majority' is {value!r}; use 'unpaired' or 'all'"),
                              value=values["majority"]) from None
        removed = values["removed_species"]
        if removed is not None and removed not in SPECIES:
            raise OptionError(N_("option 'removed_species' is {value!r}; use null or one of: {species}"),
                              value=removed, species=", ".join(SPECIES))
        return cls(
            perches=perches,
            seed_cards=seed_cards,
            crows=values["crows"],
            squirrels=values["squirrels"],
            pair_points=values["pair_points"],
            majority=majority,
            removed_species=removed,
            bird_deck_top=_id_list_option(options, "bird_deck_top"),
            feeder_deck_top=_id_list_option(options, "feeder_deck_top"),
            rules_version=values[RULES_OPTION],
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "perches": self.perches,
            "seed_cards": list(self.seed_cards),
            "crows": self.crows,
            "squirrels": self.squirrels,
            "pair_points": self.pair_points,
            "majority": self.majority.value,
            "removed_species": self.removed_species,
            RULES_OPTION: self.rules_version,
        }


def _seed_cards_option(value: Any) -> tuple[int, int, int]:
    refused = OptionError(N_("option 'seed_cards' is {value!r}; use three whole numbers 0-{most} (cards with 1, 2, "
                             "3 eggs) adding up to at least {least}, e.g. [10, 8, 6]"), value=value,
                          most=SEED_CARDS_MAX, least=ROW_SIZE)
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise refused
    counts = tuple(value)
    if (
        any(isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= SEED_CARDS_MAX for n in counts)
        or sum(counts) < ROW_SIZE
    ):
        raise refused
    return (counts[0], counts[1], counts[2])


def _id_list_option(options: Mapping[str, Any], name: str) -> tuple[str, ...]:
    value = options.get(name) or ()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise OptionError(N_("option {name!r} is {value!r}; use a list of card ids, top card first"), name=name,
                          value=value)
    twice = sorted({v for v in value if value.count(v) > 1})
    if twice:
        raise OptionError(N_("option {name!r} names {card!r} twice; list each card id once"), name=name, card=twice[0])
    return tuple(value)


# ---------------------------------------------------------------------- pure rules


@dataclass(frozen=True)
class ChainStep:
    """One perch change: the queue's sum beat the perched bird by ``diff``."""

    diff: int
    taken: Bird  # the perched bird, into the player's collection
    moved_up: Bird  # the queue's highest bird, now perched


def highest_in_queue(queue: Sequence[Bird]) -> int:
    """Index of the bird that moves up: the highest; on a tie the one that joined first."""
    best = 0
    for i, bird in enumerate(queue):
        if bird.value > queue[best].value:
            best = i
    return best


def chain_step(perched: Bird, queue: Sequence[Bird]) -> ChainStep | None:
    """The next perch change, or None when the queue's sum is not greater."""
    diff = sum(b.value for b in queue) - perched.value
    if diff <= 0:
        return None
    return ChainStep(diff, perched, queue[highest_in_queue(queue)])


def plan_chain(perched: Bird, queue: Sequence[Bird]) -> list[ChainStep]:
    """Every perch change that follows once ``queue`` (played bird included) stands behind ``perched``."""
    steps: list[ChainStep] = []
    rest = list(queue)
    step = chain_step(perched, rest)
    while step is not None:
        steps.append(step)
        rest.remove(step.moved_up)
        step = chain_step(step.moved_up, rest)
    return steps


@dataclass(frozen=True)
class Score:
    pairs: int  # points for pairs
    eggs: int
    majority: int
    pair_count: int

    @property
    def total(self) -> int:
        return self.pairs + self.eggs + self.majority

    def to_json(self) -> dict[str, int]:
        return {
            "pairs": self.pairs,
            "eggs": self.eggs,
            "majority": self.majority,
            "total": self.total,
            "pair_count": self.pair_count,
        }


def paired_birds(collection: Iterable[Bird]) -> set[Bird]:
    """Birds that are part of a pair (male and female of one species and value)."""
    by_key: dict[tuple[str, int], set[Bird]] = {}
    for bird in collection:
        by_key.setdefault(bird.pair_key, set()).add(bird)
    return {b for birds in by_key.values() if len(birds) == 2 for b in birds}


def score_table(
    collections: Sequence[Sequence[Bird]],
    seeds: Sequence[Sequence[FeederCard]],
    pair_points: int = 5,
    majority: Majority = Majority.UNPAIRED,
) -> list[Score]:
    """Scores of all players: pairs, eggs and, per species, the leaders' majority points."""
    paired = [paired_birds(c) for c in collections]
    counts = [Counter(b.species for b in c) for c in collections]
    majority_points = [0] * len(collections)
    for species in SPECIES:
        most = max((c[species] for c in counts), default=0)
        if most == 0:
            continue
        for p, collection in enumerate(collections):
            if counts[p][species] == most:
                majority_points[p] += sum(
                    1
                    for b in collection
                    if b.species == species and (majority is Majority.ALL or b not in paired[p])
                )
    return [
        Score(
            pairs=pair_points * (len(paired[p]) // 2),
            eggs=sum(card.eggs for card in seeds[p]),
            majority=majority_points[p],
            pair_count=len(paired[p]) // 2,
        )
        for p in range(len(collections))
    ]


def largest_species_birds(collection: Sequence[Bird]) -> list[Bird]:
    """The birds a crow may scare off: every bird of the largest species (all tied ones)."""
    counts = Counter(b.species for b in collection)
    if not counts:
        return []
    most = max(counts.values())
    return [b for b in collection if counts[b.species] == most]


@dataclass(frozen=True)
class Move:
    """One concrete legal action, ready to send: ``Action(kind, t, player, args)``."""

    kind: str
    args: Mapping[str, Any]
    preview: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "args": dict(self.args)}
        if self.preview:
            out["preview"] = dict(self.preview)
        return out


PLAYER_ACTIONS = ("play", "crow", "lay", "take", "final")
#: each step as a refusal says it to a person ("now: laying a card"), never the step's id
STEP_WORDS: dict[str, str] = {
    "play": N_("playing a bird behind a perch"), "crow": N_("choosing the bird the crow takes"),
    "lay": N_("laying a card"), "take": N_("taking a card from the offer"), "final": N_("laying the final two cards"),
}
#: hold a move until the seat's station confirms it; the station's button
PROPOSE, CONFIRM = "propose", "confirm"


# ---------------------------------------------------------------------- the engine


class PiepmatzEngine:
    """Feeder, queues, seed row with pests, offer, hands and collections."""

    def __init__(self, settings: GameSettings) -> None:
        if not MIN_PLAYERS <= settings.players <= MAX_PLAYERS:
            raise OptionError(N_("{game} takes {low}-{high} players, not {players}: pass --players between {low} "
                                 "and {high}"), game="Piepmatz", low=MIN_PLAYERS, high=MAX_PLAYERS,
                              players=settings.players)
        self.settings = settings
        self.players = settings.players
        self.options = PiepmatzOptions.from_mapping(settings.options, self.players)
        self._rng = random.Random(settings.seed)
        self._now = 0
        opts = self.options

        species = SPECIES
        if self.players == 2 and opts.removed_species is not None:
            species = tuple(s for s in SPECIES if s != opts.removed_species)
        self.species = species
        self.bird_pile: list[Bird] = self._stack(
            bird_deck(species), opts.bird_deck_top, "bird_deck_top", Bird.from_id
        )
        feeder = feeder_deck(opts.seed_cards, opts.crows, opts.squirrels)
        by_id = {c.id: c for c in feeder}

        def feeder_card(card_id: object) -> FeederCard:
            if card_id not in by_id:
                raise CardError(
                    f"{card_id!r} is no feeder card of this game; use egg1-01.., crow-01.., squirrel-01.."
                )
            return by_id[str(card_id)]

        self.feeder_pile: list[FeederCard] = self._stack(
            feeder, opts.feeder_deck_top, "feeder_deck_top", feeder_card
        )
        self.total_birds = len(self.bird_pile)
        self.total_feeder = len(self.feeder_pile)

        self.perches: list[Bird] = [self.bird_pile.pop(0) for _ in range(opts.perches)]
        self.queues: list[list[Bird]] = [[] for _ in range(opts.perches)]
        self.offer: list[Bird] = [self.bird_pile.pop(0) for _ in range(OFFER_SIZE)]
        self.hands: list[list[Bird]] = [
            [self.bird_pile.pop(0) for _ in range(HAND_SIZE)] for _ in range(self.players)
        ]
        self.collections: list[list[Bird]] = [[] for _ in range(self.players)]
        self.seeds: list[list[FeederCard]] = [[] for _ in range(self.players)]
        self.bird_discard: list[Bird] = []
        self.feeder_discard: list[FeederCard] = []
        self.row: list[FeederCard | None] = [None] * ROW_SIZE
        self.pests: list[FeederCard | None] = [None] * ROW_SIZE
        self._set_up_row()

        self.phase = Phase.PLAY
        self.current = 0
        self.round = 1
        self.turns = 0
        self.played: Bird | None = None  # the bird played this turn
        self.pending_perch: int | None = None  # the chain waiting for the crow's choice
        self.end_reason: EndReason | None = None
        self.final_done: set[int] = set()
        #: seat -> the two cards it laid face down in the final lay (hidden until all have chosen)
        self.final_chosen: dict[int, list[Bird]] = {}
        self.winners: list[int] = []
        self.stats: Counter[str] = Counter()
        #: seat -> a legal move held until that seat's station confirms it
        self.proposed: dict[int, Move] = {}

    # ------------------------------------------------------------------ setup

    def _stack(
        self, cards: list[CardT], top: tuple[str, ...], name: str, parse: Callable[[object], CardT]
    ) -> list[CardT]:
        """The deck: the listed cards on top in order, the rest shuffled beneath."""
        try:
            chosen = [parse(card_id) for card_id in top]
        except CardError as exc:
            raise OptionError(N_("option {name!r}: {problem}"), name=name, problem=str(exc)) from None
        missing = [c.id for c in chosen if c not in cards]
        if missing:
            raise OptionError(N_("option {name!r}: {card!r} is not in this game's deck; remove it"), name=name,
                              card=missing[0])
        on_top = set(chosen)
        rest = [c for c in cards if c not in on_top]
        self._rng.shuffle(rest)
        return chosen + rest

    def _set_up_row(self) -> None:
        """Four seed cards; pests drawn while setting up go back into the pile at random."""
        set_aside: list[FeederCard] = []
        for position in range(ROW_SIZE):
            while True:
                card = self.feeder_pile.pop(0)  # options guarantee >= ROW_SIZE seed cards
                if card.is_pest:
                    set_aside.append(card)
                    continue
                self.row[position] = card
                break
        for card in set_aside:
            self.feeder_pile.insert(self._rng.randrange(len(self.feeder_pile) + 1), card)

    # ------------------------------------------------------------------ contract

    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    def next_deadline_us(self) -> int | None:
        return None

    def tick(self, now_us: int) -> list[GameEvent]:
        """No timeouts in this game: time only moves forward."""
        self._now = max(self._now, now_us)
        return []

    def to_act(self) -> list[int]:
        """Players who must act now (everyone still laying in the final phase)."""
        if self.phase is Phase.OVER:
            return []
        if self.phase is Phase.FINAL:
            return [p for p in range(self.players) if p not in self.final_done]
        return [self.current]

    def legal_moves(self, player: int) -> list[Move]:
        """Every concrete action ``player`` may send now, with its args."""
        if player not in self.to_act():
            return []
        hand = self.hands[player]
        if self.phase is Phase.PLAY:
            moves = []
            for bird in hand:
                for perch in range(len(self.perches)):
                    steps = plan_chain(self.perches[perch], [*self.queues[perch], bird])
                    moves.append(
                        Move(
                            "play",
                            {"card": bird.id, "perch": perch},
                            {
                                "sum": sum(b.value for b in self.queues[perch]) + bird.value,
                                "perched": self.perches[perch].value,
                                "diffs": [s.diff for s in steps],
                                "birds": [s.taken.id for s in steps],
                            },
                        )
                    )
            return moves
        if self.phase is Phase.CROW:
            return [Move("crow", {"card": b.id}) for b in self._crow_candidates()]
        if self.phase is Phase.LAY:
            return [Move("lay", {"card": b.id}) for b in self._lay_candidates()]
        if self.phase is Phase.TAKE:
            return [Move("take", {"card": b.id}) for b in self.offer]
        # FINAL: every choice of two hand cards
        return [
            Move("final", {"cards": [a.id, b.id]})
            for i, a in enumerate(hand)
            for b in hand[i + 1 :]
        ]

    def legal_actions(self, player: int | None) -> list[str]:
        if player is None:
            return [HOST_SHOWN, HOST_RESUME] + ([PROPOSE] if not self.finished else [])
        kinds: list[str] = []
        for move in self.legal_moves(player):
            if move.kind not in kinds:
                kinds.append(move.kind)
        return kinds

    def handle(self, action: Action) -> list[GameEvent]:
        """Apply one action; a RuleError leaves the state unchanged (all checks come first)."""
        self.tick(action.t_us)
        if action.kind == PROPOSE:
            return self._propose(action)
        if action.kind == CONFIRM and action.player is not None:
            return self._confirm(action)
        if action.player is None:
            if action.kind in (HOST_SHOWN, HOST_RESUME):
                return []  # no timers: nothing to show or to pause
            raise RuleError(N_("host action {kind!r} is unknown; the host may send {shown} or {resume}"),
                            kind=action.kind, shown=HOST_SHOWN, resume=HOST_RESUME)
        player = action.player
        if not 0 <= player < self.players:
            raise RuleError(N_("no player {n} in a {players}-player game (1..{players})"), n=player + 1, players=self.players)
        if action.kind not in PLAYER_ACTIONS:
            raise RuleError(N_("unknown action {kind!r}: players may {choices}"), kind=action.kind,
                            choices=", ".join(PLAYER_ACTIONS))
        if self.finished:
            raise RuleError(N_("the game is over"))
        if player not in self.to_act():
            if self.phase is Phase.FINAL:
                raise RuleError(N_("player {n} has laid their final cards; waiting for the others"), n=player + 1)
            raise RuleError(N_("it is player {turn}'s turn, not player {player}'s"), turn=self.current + 1, player=player + 1)
        if action.kind != self.phase.value:
            raise RuleError(N_("not now: {kind}; now: {step}"), step=STEP_WORDS[self.phase.value],
                            kind=STEP_WORDS[action.kind])
        events: list[GameEvent] = []
        self._step(player, action.args, events)
        self.proposed = {
            seat: move for seat, move in self.proposed.items() if seat != player and move in self.legal_moves(seat)
        }
        return events

    def _step(self, player: int, args: Mapping[str, Any], events: list[GameEvent]) -> None:
        """The checked action of ``player`` in the step the game is at (play, crow, lay, take, final):
        its card checked, then played; ``events`` get what happened."""
        if self.phase is Phase.PLAY:
            bird = self._card_in(self.hands[player], args.get("card"), N_("your hand"), secret=True)
            perch = args.get("perch")
            if isinstance(perch, bool) or not isinstance(perch, int) or not 0 <= perch < len(self.perches):
                raise RuleError(N_("perch {perch!r} does not exist; use a perch number 0..{last}"), perch=perch,
                                last=len(self.perches) - 1)
            self._play(bird, perch, events)
        elif self.phase is Phase.CROW:
            bird = self._card_in(self._crow_candidates(), args.get("card"), N_("your largest species"))
            self._crow_takes(bird, events)
            self._continue_chain(events)
        elif self.phase is Phase.LAY:
            assert self.played is not None
            bird = self._card_in(
                self._lay_candidates(),
                args.get("card"),
                N_("your hand at value <= {value}"),
                secret=True,
                value=self.played.value,
            )
            self._lay(bird, events)
            self._refill(events)
        elif self.phase is Phase.TAKE:
            bird = self._card_in(self.offer, args.get("card"), N_("the offer"))
            self._take_offer(bird, events)
            self._refill(events)
        else:
            self._final(player, args.get("cards"), events)

    def _propose(self, action: Action) -> list[GameEvent]:
        """Hold a legal move for a seat; nothing happens until its station confirms."""
        seat = action.player if action.player is not None else action.args.get("seat")
        if seat is None:
            if not self.to_act():
                raise RuleError(N_("the game is over: nothing to propose"))
            seat = self.to_act()[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise RuleError(N_("propose for seat {seat!r}: give a seat 0..{last}"), seat=seat, last=self.players - 1)
        wanted = action.args.get("move")
        if not isinstance(wanted, Mapping) or not isinstance(wanted.get("args", {}), Mapping):
            raise RuleError(N_('propose needs args {"move": {"kind": ..., "args": {...}}}, one of the legal moves'))
        move = next(
            (m for m in self.legal_moves(seat)
             if m.kind == wanted.get("kind") and dict(m.args) == dict(wanted.get("args", {}))),
            None,
        )
        if move is None:
            raise RuleError(N_("that move is not legal for player {n} now; pick one of the phone's moves"), n=seat + 1)
        self.proposed[seat] = move
        return [self._event("proposed", seat)]

    def _confirm(self, action: Action) -> list[GameEvent]:
        """The seat's station button: play the move held for it."""
        seat = action.player
        assert seat is not None
        move = self.proposed.get(seat)
        if move is None:
            raise RuleError(N_("player {n} has no move waiting: choose one on the phone first"), n=seat + 1)
        events = self.handle(Action(move.kind, action.t_us, seat, move.args, action.precision_us))
        return [self._event("confirmed", seat), *events]

    # ------------------------------------------------------------------ helpers

    def _event(self, kind: str, player: int | None = None, **data: Any) -> GameEvent:
        return GameEvent(kind, self._now, player, data)

    @staticmethod
    def _card_in(cards: Sequence[Bird], card_id: Any, where: str, secret: bool = False, **where_args: Any) -> Bird:
        """The card named; the refusal lists the choices unless they are a hand
        (an error may be shown where others can read it). ``where`` is a
        catalogue text (its ``where_args`` go with the refusal's)."""
        for bird in cards:
            if bird.id == card_id:
                return bird
        if secret:
            raise RuleError(N_("card {card!r} is not in {where}; pick one your phone lists"), card=card_id, where=where,
                            **where_args)
        choices = ", ".join(b.id for b in cards) or N_("none")
        raise RuleError(N_("card {card!r} is not in {where}; choose one of: {choices}"), card=card_id, where=where,
                        choices=choices, **where_args)

    def _crow_candidates(self) -> list[Bird]:
        return largest_species_birds(self.collections[self.current])

    def _lay_candidates(self) -> list[Bird]:
        assert self.played is not None
        return [b for b in self.hands[self.current] if b.value <= self.played.value]

    # ------------------------------------------------------------------ the turn

    def _play(self, bird: Bird, perch: int, events: list[GameEvent]) -> None:
        player = self.current
        self.hands[player].remove(bird)
        self.queues[perch].append(bird)
        self.played = bird
        queue_sum = sum(b.value for b in self.queues[perch])
        perched = self.perches[perch]
        events.append(
            self._event(
                "played", player, card=bird.id, perch=perch, sum=queue_sum, perched=perched.value
            )
        )
        if queue_sum > perched.value:
            self.pending_perch = perch
            self._continue_chain(events, take_perched=False)
            return
        candidates = self._lay_candidates()
        if not candidates:
            events.append(self._event("no_lay", player, max_value=bird.value))
            self._refill(events)
        elif len(candidates) == 1:
            self._lay(candidates[0], events)
            self._refill(events)
        else:
            self.phase = Phase.LAY

    def _continue_chain(self, events: list[GameEvent], take_perched: bool = True) -> None:
        """Perch changes while the sum exceeds; stops for the crow's choice."""
        perch = self.pending_perch
        assert perch is not None
        if take_perched:
            self._take_perched(perch, events)
        while (step := chain_step(self.perches[perch], self.queues[perch])) is not None:
            if self._feed(step.diff, events):
                self.phase = Phase.CROW
                return
            self._take_perched(perch, events)
        self.pending_perch = None
        self._refill(events)

    def _take_perched(self, perch: int, events: list[GameEvent]) -> None:
        player = self.current
        taken = self.perches[perch]
        queue = self.queues[perch]
        moved_up = queue.pop(highest_in_queue(queue))
        self.collections[player].append(taken)
        self.perches[perch] = moved_up
        self.stats["perch_changes"] += 1
        events.append(
            self._event("perch_change", player, perch=perch, taken=taken.id, moved_up=moved_up.id)
        )

    def _feed(self, diff: int, events: list[GameEvent]) -> bool:
        """The feeder card at the difference (>= 5: the pile's top). A pest lying
        at that position strikes after the player takes the seed card there
        (rules 1: it struck instead, and the seed card stayed). True when a
        crow waits for the player's choice."""
        player = self.current
        card: FeederCard | None = None
        pest: FeederCard | None = None
        if diff <= ROW_SIZE:
            position = diff - 1
            pest, self.pests[position] = self.pests[position], None
            if pest is None or self.options.rules_version >= PEST_AND_CARD:
                card, self.row[position] = self.row[position], None
        elif self.feeder_pile:
            card = self.feeder_pile.pop(0)
        if card is not None and card.is_pest:
            card, pest = None, card
        if card is not None:
            self.seeds[player].append(card)
            events.append(self._event("seed", player, card=card.id, eggs=card.eggs, diff=diff))
        if pest is None:
            if card is None:
                events.append(self._event("nothing_at", player, diff=diff))
            return False
        self.feeder_discard.append(pest)
        self.stats[f"{pest.kind.value}_strikes"] += 1
        events.append(self._event("strike", player, pest=pest.kind.value, card=pest.id, diff=diff))
        if pest.kind is FeederKind.SQUIRREL:
            own = self.seeds[player]
            lost = self._rng.sample(own, min(SQUIRREL_TAKES, len(own)))
            for seed in lost:
                own.remove(seed)
                self.feeder_discard.append(seed)
            self.stats["seeds_lost"] += len(lost)
            events.append(self._event("seeds_lost", player, cards=[c.id for c in lost]))
            return False
        candidates = self._crow_candidates()
        if len(candidates) > 1:
            return True
        if candidates:
            self._crow_takes(candidates[0], events)
        else:
            events.append(self._event("bird_lost", player, card=None))
        return False

    def _crow_takes(self, bird: Bird, events: list[GameEvent]) -> None:
        self.collections[self.current].remove(bird)
        self.bird_discard.append(bird)
        self.stats["birds_lost"] += 1
        events.append(self._event("bird_lost", self.current, card=bird.id))

    def _lay(self, bird: Bird, events: list[GameEvent]) -> None:
        self.hands[self.current].remove(bird)
        self.collections[self.current].append(bird)
        events.append(self._event("laid", self.current, card=bird.id))

    def _take_offer(self, bird: Bird, events: list[GameEvent]) -> None:
        self.offer.remove(bird)
        self.hands[self.current].append(bird)
        events.append(self._event("took_offer", self.current, card=bird.id))
        if self.bird_pile:
            new = self.bird_pile.pop(0)
            self.offer.append(new)
            events.append(self._event("offer", None, card=new.id))

    def _refill(self, events: list[GameEvent]) -> None:
        """Step 3: the hand from the offer (the player chooses unless forced), then the seed row."""
        self.phase = Phase.TAKE
        hand = self.hands[self.current]
        while len(hand) < HAND_SIZE and self.offer:
            forced = not self.bird_pile and len(self.offer) <= HAND_SIZE - len(hand)
            if not forced:
                return  # wait for the player's ``take``
            self._take_offer(self.offer[0], events)
        if len(hand) < HAND_SIZE:
            self._trigger_end(EndReason.BIRDS_EMPTY, events)
        self._refill_row(events)
        self._end_turn(events)

    def _refill_row(self, events: list[GameEvent]) -> None:
        for position in range(ROW_SIZE):
            while self.row[position] is None:
                if not self.feeder_pile:
                    self._trigger_end(EndReason.FEEDER_EMPTY, events)
                    return
                card = self.feeder_pile.pop(0)
                if not card.is_pest:
                    self.row[position] = card
                    events.append(self._event("row", None, position=position + 1, card=card.id))
                    continue
                free = [i for i, pest in enumerate(self.pests) if pest is None]
                if free:
                    self.pests[free[0]] = card
                    events.append(self._event("pest", None, position=free[0] + 1, card=card.id))
                else:
                    self.feeder_discard.append(card)
                    events.append(self._event("pest_discarded", None, card=card.id))

    def _trigger_end(self, reason: EndReason, events: list[GameEvent]) -> None:
        if self.end_reason is None:
            self.end_reason = reason
            events.append(self._event("end_triggered", self.current, reason=reason.value))

    def _end_turn(self, events: list[GameEvent]) -> None:
        self.played = None
        self.turns += 1
        while True:
            if self.end_reason is not None and self.current == self.players - 1:
                self._start_final(events)
                return
            self.current = (self.current + 1) % self.players
            if self.current == 0:
                self.round += 1
                events.append(self._event("round", None, round=self.round))
            self.phase = Phase.PLAY
            if self.hands[self.current]:
                events.append(self._event("turn", self.current, round=self.round))
                return
            # an empty hand (birds ran out): this player's turn passes
            events.append(self._event("pass", self.current))

    @property
    def last_round(self) -> bool:
        return self.end_reason is not None

    def _start_final(self, events: list[GameEvent]) -> None:
        self.phase = Phase.FINAL
        events.append(self._event("final", None))
        for player in range(self.players):
            if len(self.hands[player]) <= FINAL_CARDS:
                self._lay_final(player, list(self.hands[player]), events)
        self._maybe_over(events)

    def _final(self, player: int, card_ids: Any, events: list[GameEvent]) -> None:
        hand = self.hands[player]
        if (
            not isinstance(card_ids, (list, tuple))
            or not all(isinstance(c, str) for c in card_ids)
            or len(set(card_ids)) != FINAL_CARDS
            or len(card_ids) != FINAL_CARDS
        ):
            raise RuleError(N_("lay exactly {n} different hand cards: args {{'cards': [ID, ID]}}"), n=FINAL_CARDS)
        birds = [self._card_in(hand, card_id, N_("your hand"), secret=True) for card_id in card_ids]
        self._lay_final(player, birds, events)
        self._maybe_over(events)

    def _lay_final(self, player: int, birds: list[Bird], events: list[GameEvent]) -> None:
        """Lay the final cards face down: out of the hand, into no collection yet,
        and no card named where others see it."""
        for bird in birds:
            self.hands[player].remove(bird)
        self.final_chosen[player] = birds
        self.final_done.add(player)
        events.append(self._event("final_chosen", player))

    def _maybe_over(self, events: list[GameEvent]) -> None:
        """Once everyone has chosen, the final cards are turned up together and scored."""
        if len(self.final_done) < self.players:
            return
        for player in range(self.players):
            self.collections[player] += self.final_chosen.get(player, [])
        events.append(self._event("final_revealed", None, cards=[
            [b.id for b in self.final_chosen.get(p, [])] for p in range(self.players)]))
        self.phase = Phase.OVER
        totals = [s.total for s in self.scores()]
        best = max(totals)
        self.winners = [p for p, t in enumerate(totals) if t == best]
        events.append(self._event("game_over", None, scores=totals, winners=list(self.winners)))

    # ------------------------------------------------------------------ views

    def scores(self) -> list[Score]:
        """The score as it stands (the final score once the game is over)."""
        return score_table(
            self.collections, self.seeds, self.options.pair_points, self.options.majority
        )

    def _status(self, player: int) -> Status:
        if self.finished:
            return Status.WON if player in self.winners else Status.IDLE
        return Status.TURN if player in self.to_act() else Status.IDLE

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return [self._status(p).value for p in range(self.players)]

    def public_view(self) -> dict[str, Any]:
        scores = self.scores()
        return {
            "phase": self.phase.value,
            "scores": [s.total for s in scores],
            "score_parts": [s.to_json() for s in scores],
            "status": self.station_statuses(),
            "turn": None if self.phase in (Phase.FINAL, Phase.OVER) else self.current,
            "round": self.round,
            "turns": self.turns,
            "last_round": self.last_round,
            "end_reason": None if self.end_reason is None else self.end_reason.value,
            "perches": [
                {
                    "bird": self.perches[i].to_json(),
                    "queue": [b.to_json() for b in self.queues[i]],
                    "sum": sum(b.value for b in self.queues[i]),
                }
                for i in range(len(self.perches))
            ],
            "row": [None if c is None else c.to_json() for c in self.row],
            "pests": [None if c is None else c.to_json() for c in self.pests],
            "offer": [b.to_json() for b in self.offer],
            "played": None if self.played is None else self.played.to_json(),
            "collections": [[b.to_json() for b in c] for c in self.collections],
            "seeds": [[c.to_json() for c in s] for s in self.seeds],
            "hand_sizes": [len(h) for h in self.hands],
            "bird_pile": len(self.bird_pile),
            "feeder_pile": len(self.feeder_pile),
            "bird_discard": [b.to_json() for b in self.bird_discard],
            "feeder_discard": [c.to_json() for c in self.feeder_discard],
            "crow_choice": (
                [b.id for b in self._crow_candidates()] if self.phase is Phase.CROW else []
            ),
            "winners": list(self.winners),
            "options": self.options.to_json(),
            "awaiting_confirm": sorted(self.proposed),
            # who has laid their final cards face down (never which cards, before the reveal)
            "final_chosen": sorted(self.final_done) if self.phase is Phase.FINAL else [],
        }

    def private_view(self, player: int) -> dict[str, Any]:
        if not 0 <= player < self.players:
            raise RuleError(N_("no player {n} in a {players}-player game"), n=player + 1, players=self.players)
        return {
            "player": player,
            "hand": [b.to_json() for b in self.hands[player]],
            "your_turn": player in self.to_act(),
            "legal_moves": [m.to_json() for m in self.legal_moves(player)],
            "proposed": None if player not in self.proposed else self.proposed[player].to_json(),
            "final_chosen": [b.to_json() for b in self.final_chosen.get(player, [])] if self.phase is Phase.FINAL else [],
        }

    def locations(self) -> list[tuple[str, str]]:
        """(card id, place) for every card in the game: conservation checks and disputes."""
        places: list[tuple[str, Iterable[Bird | FeederCard | None]]] = [
            ("bird_pile", self.bird_pile),
            ("offer", self.offer),
            ("bird_discard", self.bird_discard),
            ("feeder_pile", self.feeder_pile),
            ("feeder_discard", self.feeder_discard),
            ("row", self.row),
            ("pests", self.pests),
        ]
        places += [(f"perch-{i}", [b]) for i, b in enumerate(self.perches)]
        places += [(f"queue-{i}", q) for i, q in enumerate(self.queues)]
        places += [(f"hand-{p}", h) for p, h in enumerate(self.hands)]
        places += [(f"collection-{p}", c) for p, c in enumerate(self.collections)]
        places += [(f"seeds-{p}", s) for p, s in enumerate(self.seeds)]
        if self.phase is Phase.FINAL:
            places += [(f"final-{p}", cards) for p, cards in self.final_chosen.items()]
        return [(card.id, place) for place, cards in places for card in cards if card is not None]

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        if not self.finished or self.end_reason is None:
            return None
        return Outcome(tuple(self.winners), self.end_reason, tuple(s.total for s in self.scores()))

    def summary(self) -> dict[str, Any]:
        scores = self.scores()
        return {
            "players": self.players,
            "finished": self.finished,
            "scores": [s.total for s in scores],
            "score_parts": [s.to_json() for s in scores],
            "winners": list(self.winners),
            "turns": self.turns,
            "rounds": self.round,
            "end_reason": None if self.end_reason is None else self.end_reason.value,
            "crow_strikes": self.stats["crow_strikes"],
            "squirrel_strikes": self.stats["squirrel_strikes"],
            "seeds_lost": self.stats["seeds_lost"],
            "birds_lost": self.stats["birds_lost"],
            "perch_changes": self.stats["perch_changes"],
            "options": self.options.to_json(),
        }
