"""Pictomania rules engine: sans-I/O, seeded, everyone at once.

Players draw on paper; the box deals the secrets (a letter A/B/C and a number
1-7 per player), takes the guesses from the phones, ranks the bells for the
bonus tokens, and scores drawer by drawer in guess order. The rules as the box
plays them and every decision taken here: ``games/pictomania/README.md``.

Why the word cards are a constructor argument: the engine does no I/O, and the
word lists are package data read by ``games.pictomania.words.load_words``. The
``words`` option only names the list for the journal; whoever builds the
engine (the game's SPEC, the bots, the tests) loads and passes the cards.

Phases: ``cards`` (three word cards on show; the host may swap one nobody
knows, then ``start`` deals the secrets) -> ``drawing`` (draw, guess, ring the
bell) -> ``review`` (every player done: a drawer may admit a wrong drawing;
``reveal`` scores) -> ``revealed`` (``next`` goes to the next round) -> ``over``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from games.arbitration import Stamp, Stamped, rank_by_stamp, tie_threshold_us
from games.base import (
    HOST_RESUME,
    HOST_SHOWN,
    TIE_WINDOW,
    Action,
    BuzzerBoxError,
    EventKind,
    GameEvent,
    GameSettings,
    OptionError,
    Outcome,
    RuleError,
    checked_options,
    fire_due,
)
from games.i18n import N_
from games.pictomania.options import (
    FALLBACK_WORDS,
    OPTIONS,
    RETIRED,
    RULES_VERSION,
    SCORING_TOKENS,
    SCORING_TOKENS_RULES_2,
    TOKEN_TABLE,
    current_names,
)
from games.pictomania.words import DECKS, WORDS_PER_CARD, WordCard
from games.rules_version import RULES_OPTION

MIN_PLAYERS, MAX_PLAYERS = 3, 6
LETTERS: tuple[str, ...] = ("A", "B", "C")
#: the letter cards in the box: two of each, so six players get one each
LETTER_CARDS: tuple[str, ...] = ("A", "A", "B", "B", "C", "C")
NUMBERS: tuple[int, ...] = tuple(range(1, WORDS_PER_CARD + 1))

#: player actions
GUESS = "guess"  # args {"drawer": seat, "number": 1-7}
DRAWN = "drawn"  # optional: the drawing is finished, guessing from now on
DONE = "done"  # the bell (or the phone's "done"); args {"token": value} with token_choice
#: with token_choice: the token the player's bell will take, held until it rings (never a ring
#: itself: the bell stays on the station); args {"token": value} (0: none), {} = the highest left
CHOOSE = "choose_token"
ADMIT = "admit_wrong"  # "I drew the wrong word" (host may send it with args {"player": seat})
#: what a refusal calls a player's action, in the words a person reads (never the action's id:
#: "drawn" read as "rozegrany" in Polish)
ACTION_WORDS: dict[str, str] = {
    GUESS: N_("guessing"), DRAWN: N_("finishing a drawing"), DONE: N_("ringing the bell"),
    CHOOSE: N_("choosing a token"),
}
#: host actions
SWAP = "swap"  # args {"card": "A" | "B" | "C"}: replace a card nobody knows
START = "start"
REVEAL = "reveal"
NEXT = "next"


class Phase(str, Enum):
    CARDS = "cards"
    DRAWING = "drawing"
    REVIEW = "review"
    REVEALED = "revealed"
    OVER = "over"


#: where the game is, as a refusal says it ("…; now: the answers are revealed"), never the phase's id
PHASE_WORDS: dict[Phase, str] = {
    Phase.CARDS: N_("the word cards are on show"), Phase.DRAWING: N_("the players are drawing"),
    Phase.REVIEW: N_("the round waits for the reveal"), Phase.REVEALED: N_("the answers are revealed"),
    Phase.OVER: N_("the game is over"),
}


class Status(str, Enum):
    """Where each player is in a round (what the shared screen shows)."""

    WAITING = "waiting"  # cards on show, not dealt yet
    DRAWING = "drawing"
    GUESSING = "guessing"
    RINGING = "ringing"  # bell pressed, token not yet awarded (a later press could still tie)
    DONE = "done"
    OUT = "out"  # harsher game: the round ended before this player was done


class DeckPlan(str, Enum):
    """Which deck each round deals from."""

    RISING = "rising"  # round 1 deck 1 (easiest) ... round 4 deck 4 (hardest)
    EASIEST = "easiest"  # every round deck 1 (the rulebook's advice for small children)


class PictomaniaError(BuzzerBoxError, ValueError):
    """A game that cannot be set up: bad option, player count or word cards."""


class PictomaniaOptionError(PictomaniaError, OptionError):
    """An option the option table refuses: the contract's ``OptionError`` as every engine's."""


DEFAULT_BONUS_TOKENS: Mapping[int, tuple[int, ...]] = {
    3: (3, 2, 1),
    4: (3, 2, 2, 1),
    5: (4, 3, 2, 2, 1),
    6: (4, 3, 3, 2, 2, 1),
}


def _token_list(name: str, raw: Any, length: int) -> tuple[int, ...]:
    if (
        not isinstance(raw, (list, tuple))
        or len(raw) != length
        or not all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in raw)
        or list(raw) != sorted(raw, reverse=True)
    ):
        raise PictomaniaError(
            f"option {name}: {raw!r} is not {length} whole numbers 0-20 from highest to lowest; fix it"
        )
    return tuple(raw)


def _per_count(name: str, table: Mapping[int, tuple[int, ...]], given: Mapping[Any, Any],
               fewer: int) -> dict[int, tuple[int, ...]]:
    """A token table by player count with the given rows replacing its own
    (a row for n players holds n - ``fewer`` values)."""
    out = dict(table)
    for key, tokens in given.items():
        try:
            count = int(key)
        except (TypeError, ValueError):
            count = 0
        if not MIN_PLAYERS <= count <= MAX_PLAYERS:
            raise PictomaniaError(f"option {name}: {key!r} is not a player count 3-6")
        out[count] = _token_list(f"{name}[{count}]", tokens, count - fewer)
    return out


def _scoring_tokens(given: Any, rules_version: int) -> dict[int, tuple[int, ...]]:
    """Each player's scoring tokens by player count: the rules version's table,
    rows replaced by a dict, or one list of five whose first n - 1 are used."""
    if isinstance(given, list):
        tokens = _token_list("scoring_tokens", given, MAX_PLAYERS - 1)
        return {n: tokens[: n - 1] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    if rules_version >= TOKEN_TABLE:
        table = SCORING_TOKENS
    else:
        table = {n: SCORING_TOKENS_RULES_2[: n - 1] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
    return _per_count("scoring_tokens", table, given or {}, 1)


#: phone guesses are stamped when they reach the box: never ranked finer than this,
#: whatever precision the source claims (Wi-Fi delivery varies by tens of ms)
GUESS_PRECISION_US = 30_000


@dataclass(frozen=True)
class PictomaniaOptions:
    """The options in the engine's own types; declared (type, default, range) once
    in ``options.py``."""

    #: the list the words came from (the spec resolves "as the box" before a game
    #: starts; an engine made without it names the English list its caller loads)
    words: str = FALLBACK_WORDS
    deck_plan: DeckPlan = DeckPlan(OPTIONS["deck_plan"].default)
    harsher: bool = bool(OPTIONS["harsher"].default)
    token_choice: bool = bool(OPTIONS["token_choice"].default)
    learning_round: bool = bool(OPTIONS["learning_round"].default)
    allow_swap: bool = bool(OPTIONS["allow_swap"].default)
    tie_window_us: int = int(OPTIONS[TIE_WINDOW].default)
    #: each player's scoring tokens by player count, highest first
    scoring_tokens: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: dict(SCORING_TOKENS))
    bonus_tokens: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: dict(DEFAULT_BONUS_TOKENS))
    #: the rules version played (older ones replay old journals)
    rules_version: int = RULES_VERSION

    @classmethod
    def from_mapping(cls, options: Mapping[str, Any]) -> PictomaniaOptions:
        """Check the options one by one; the first bad one raises a one-line error."""
        # an older journal names the word list "language"
        values = checked_options(OPTIONS, current_names(options), "Pictomania", RETIRED, PictomaniaOptionError)
        lang = values["words"] if values["words"] is not None else cls.words
        if not 2 <= len(lang) <= 3 or not lang.isalpha():
            raise PictomaniaError(f"option words: {lang!r} is not a code like 'en' or 'cs'")
        try:
            deck_plan = DeckPlan(values["deck_plan"])
        except ValueError:
            raise PictomaniaError(
                f"option deck_plan: {values['deck_plan']!r} is not one of {', '.join(p.value for p in DeckPlan)}"
            ) from None
        bonus = _per_count("bonus_tokens", DEFAULT_BONUS_TOKENS, values["bonus_tokens"] or {}, 0)
        scoring = _scoring_tokens(values["scoring_tokens"], values[RULES_OPTION])
        return cls(words=lang, deck_plan=deck_plan, harsher=values["harsher"], token_choice=values["token_choice"],
                   learning_round=values["learning_round"], allow_swap=values["allow_swap"],
                   tie_window_us=values[TIE_WINDOW],
                   scoring_tokens=scoring, bonus_tokens=bonus, rules_version=values[RULES_OPTION])

    def to_json(self) -> dict[str, Any]:
        return {
            "words": self.words,
            "deck_plan": self.deck_plan.value,
            "harsher": self.harsher,
            "token_choice": self.token_choice,
            "learning_round": self.learning_round,
            "allow_swap": self.allow_swap,
            TIE_WINDOW: self.tie_window_us,
            "scoring_tokens": {str(k): list(v) for k, v in sorted(self.scoring_tokens.items())},
            "bonus_tokens": {str(k): list(v) for k, v in sorted(self.bonus_tokens.items())},
            RULES_OPTION: self.rules_version,
        }


@dataclass(frozen=True)
class Secret:
    """What one player draws this round: word number ``number`` on card ``letter``."""

    letter: str
    number: int


@dataclass(frozen=True)
class Guess(Stamped):
    """One guess card laid on a drawer's pile, stamped when it reached the box
    (on the box timeline: a guess keeps no board clock)."""

    guesser: int
    drawer: int
    number: int
    stamp: Stamp
    seq: int  # arrival order, keeps equal stamps stable


@dataclass(frozen=True)
class BellPress(Stamped):
    """A bell press (or phone 'done') waiting until no later press could tie with it."""

    player: int
    stamp: Stamp
    cap: int | None  # token_choice: take the highest left worth at most this; 0 = none


@dataclass
class RoundState:
    """One round: the cards on show, the secrets, the piles of guesses, the bonus race."""

    number: int  # 1-based
    deck: int
    cards: list[WordCard]
    secrets: list[Secret] = field(default_factory=list)
    guesses: list[Guess] = field(default_factory=list)
    bonus_left: list[int] = field(default_factory=list)
    bonus: list[int | None] = field(default_factory=list)  # value taken, None = none
    bonus_tie: list[bool] = field(default_factory=list)
    done_us: list[int | None] = field(default_factory=list)
    pending: list[BellPress] = field(default_factory=list)
    admitted: set[int] = field(default_factory=set)
    #: each player's held token choice (CHOOSE) for their bell; None = the highest left
    choice: list[int | None] = field(default_factory=list)
    started_drawing_guess: set[int] = field(default_factory=set)  # pressed "drawn" or guessed
    reveal: dict[str, Any] | None = None


class EndReason(Enum):
    """Why a game of Pictomania ended."""

    ROUNDS_PLAYED = "rounds_played"  # the set number of rounds was drawn and scored


class PictomaniaEngine:
    """The whole game and its rules. Deterministic given settings, cards and actions."""

    def __init__(self, settings: GameSettings, cards: Mapping[int, Sequence[WordCard]]) -> None:
        self.settings = settings
        if not MIN_PLAYERS <= settings.players <= MAX_PLAYERS:
            raise PictomaniaError(
                f"Pictomania takes {MIN_PLAYERS}-{MAX_PLAYERS} players, not {settings.players}; "
                "seat more or fewer players"
            )
        self.players = settings.players
        self.options = PictomaniaOptions.from_mapping(settings.options)
        self.rounds = len(DECKS)
        self.round_decks = [d if self.options.deck_plan is DeckPlan.RISING else DECKS[0] for d in DECKS]
        for deck in set(self.round_decks):
            needed = 3 * self.round_decks.count(deck)
            have = len(cards.get(deck, ()))
            if have < needed:
                raise PictomaniaError(
                    f"deck {deck} has {have} word cards but this game deals {needed} from it; "
                    "add cards or choose another deck plan"
                )
        self._rng = random.Random(settings.seed)
        #: the cards still to be dealt, per deck, shuffled once (dealt cards never return)
        self._pools: dict[int, list[WordCard]] = {}
        for deck in sorted(set(self.round_decks)):
            pool = list(cards[deck])
            self._rng.shuffle(pool)
            self._pools[deck] = pool
        self.scoring_tokens = self.options.scoring_tokens[self.players]
        bonus = self.options.bonus_tokens[self.players]
        self.bonus_tokens = bonus[:-1] if self.options.harsher else bonus
        self._now = 0
        self._seq = 0
        #: the coarsest precision a bell or phone "done" has had this game: a press that
        #: coarse, stamped after the latest one, could still be a tie with it
        self._coarsest_done_us = 1
        self.phase = Phase.CARDS
        self.totals = [0] * self.players
        self.history: list[dict[str, Any]] = []
        self.round = self._new_round(1)

    # ------------------------------------------------------------------ set-up
    def _new_round(self, number: int) -> RoundState:
        deck = self.round_decks[number - 1]
        pool = self._pools[deck]
        shown, self._pools[deck] = pool[:3], pool[3:]
        return RoundState(number=number, deck=deck, cards=shown)

    def _deal(self) -> None:
        r = self.round
        letters = list(LETTER_CARDS)
        numbers = list(NUMBERS)
        self._rng.shuffle(letters)
        self._rng.shuffle(numbers)
        n = self.players
        r.secrets = [Secret(letters[p], numbers[p]) for p in range(n)]
        r.bonus_left = list(self.bonus_tokens)
        r.bonus = [None] * n
        r.bonus_tie = [False] * n
        r.done_us = [None] * n
        r.choice = [None] * n

    # ------------------------------------------------------------------ time
    @property
    def finished(self) -> bool:
        return self.phase is Phase.OVER

    def next_deadline_us(self) -> int | None:
        """When the bell race can be decided. The box hands presses over in stamp
        order and only up to its horizon (every source's report delay passed), so
        waiting for late deliveries is its job; the engine waits only until no
        press stamped later could still tie with the latest one (its precision,
        the coarsest a done press has had this game, and the tie window)."""
        pending = self.round.pending
        if self.phase is not Phase.DRAWING or not pending:
            return None
        return max(p.t_us + tie_threshold_us(p.precision_us, self._coarsest_done_us, self.options.tie_window_us)
                   for p in pending)

    def tick(self, now_us: int) -> list[GameEvent]:
        """Fire every deadline due by now_us at its own time (``fire_due``), so a
        late tick decides the bell race as many small ones would."""
        self._now = max(self._now, now_us)
        return fire_due(self.next_deadline_us, self._award_bonus, now_us)

    def handle(self, action: Action) -> list[GameEvent]:
        """Apply one action; on RuleError nothing changes (time included), so
        the runtime's next tick still reports the tokens that fell due.

        Every action checks before it changes anything, so only a bell race
        decided on the way needs the round saved."""
        due = self.next_deadline_us()
        saved = None
        if due is not None and due <= action.t_us:
            saved = (copy.deepcopy(self.round), self._now, self.phase)
        try:
            events = self.tick(action.t_us) if action.t_us > self._now else []
            if action.player is None:
                events += self._host(action)
            else:
                self._check_seat(action.player)
                events += self._player(action)
        except RuleError:
            if saved is not None:
                self.round, self._now, self.phase = saved
            raise
        return events

    def _check_seat(self, player: int) -> None:
        if not 0 <= player < self.players:
            raise RuleError(N_("there is no player {n}; seats are 1-{players}"), n=player + 1, players=self.players)

    # ------------------------------------------------------------------ host
    def _host(self, action: Action) -> list[GameEvent]:
        kind, t = action.kind, action.t_us
        if kind in (HOST_SHOWN, HOST_RESUME):
            return []  # no clocks run in this game: paper and pencils do not pause
        if kind == SWAP:
            return self._swap(action)
        if kind == START:
            self._need(Phase.CARDS, N_("starting the round"))
            self._deal()
            self.phase = Phase.DRAWING
            return [GameEvent(EventKind.SHOW, t, data={"round": self.round.number, "deck": self.round.deck})]
        if kind == ADMIT:
            player = action.args.get("player")
            if not isinstance(player, int) or isinstance(player, bool):
                raise RuleError(N_('admit_wrong from the host needs args {"player": seat}'))
            self._check_seat(player)
            return self._admit(player, t)
        if kind == REVEAL:
            self._need(Phase.REVIEW, N_("revealing the answers"))
            return self._score(t)
        if kind == NEXT:
            self._need(Phase.REVEALED, N_("the next round"))
            if self.round.number == self.rounds:
                self.phase = Phase.OVER
                return [GameEvent("game_over", t, data={"totals": list(self.totals), "winners": self.winners()})]
            self.round = self._new_round(self.round.number + 1)
            self.phase = Phase.CARDS
            return [GameEvent("round_cards", t, data={"round": self.round.number, "deck": self.round.deck})]
        raise RuleError(N_("the host cannot {kind!r} here; now: {choices}"), kind=kind,
                        choices=", ".join(self.legal_actions(None)) or N_("nothing"))

    def _need(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise RuleError(N_("{what} only when {phase}; now: {now}"), what=what, phase=PHASE_WORDS[phase],
                            now=PHASE_WORDS[self.phase])

    def _swap(self, action: Action) -> list[GameEvent]:
        self._need(Phase.CARDS, N_("swapping a word card"))
        if not self.options.allow_swap:
            raise RuleError(N_("swapping word cards is off in this game (option allow_swap)"))
        letter = action.args.get("card")
        if letter not in LETTERS:
            raise RuleError(N_('swap needs args {{"card": "A", "B" or "C"}}, not {letter!r}'), letter=letter)
        r = self.round
        pool = self._pools[r.deck]
        if not pool:
            raise RuleError(N_("no card left in deck {deck} to swap in; play these cards"), deck=r.deck)
        index = LETTERS.index(letter)
        old = r.cards[index]
        r.cards[index], self._pools[r.deck] = pool[0], pool[1:]
        return [GameEvent("swapped", action.t_us, data={"card": letter, "out": old.theme,
                                                         "in": r.cards[index].theme})]

    # ------------------------------------------------------------------ players
    def _player(self, action: Action) -> list[GameEvent]:
        p, kind = action.player, action.kind
        assert p is not None
        if kind == ADMIT:
            return self._admit(p, action.t_us)
        if kind not in ACTION_WORDS:
            raise RuleError(N_("player {n} cannot {kind!r}; now: {choices}"), n=p + 1, kind=kind,
                            choices=", ".join(self.legal_actions(p)) or N_("nothing"))
        if self.phase is not Phase.DRAWING:
            raise RuleError(N_("{what} only while the players are drawing; now: {phase}"), what=ACTION_WORDS[kind],
                            phase=PHASE_WORDS[self.phase])
        r = self.round
        if r.done_us[p] is not None:
            raise RuleError(N_("player {n} is done this round: no more drawing or guessing"), n=p + 1)
        if kind == DRAWN:
            r.started_drawing_guess.add(p)
            return [GameEvent("drawn", action.t_us, p)]
        if kind == GUESS:
            return self._guess(action, p)
        if kind == DONE:
            return self._ring(action, p)
        return self._choose(action, p)  # CHOOSE: the last of ACTION_WORDS

    def _guess(self, action: Action, p: int) -> list[GameEvent]:
        r = self.round
        drawer, number = action.args.get("drawer"), action.args.get("number")
        if not isinstance(drawer, int) or isinstance(drawer, bool) or not 0 <= drawer < self.players:
            raise RuleError(N_('a guess needs args {{"drawer": seat 0-{last}, "number": 1-7}}'), last=self.players - 1)
        if not isinstance(number, int) or isinstance(number, bool) or number not in NUMBERS:
            raise RuleError(N_("guess number {number!r} is not 1-7; pick the word's number on the cards"), number=number)
        if drawer == p:
            raise RuleError(N_("nobody guesses their own drawing; pick another player"))
        mine = [g for g in r.guesses if g.guesser == p]
        if any(g.drawer == drawer for g in mine):
            raise RuleError(N_("player {n} has already guessed player {drawer}; a guess cannot be taken back"), n=p + 1, drawer=drawer + 1)
        if any(g.number == number for g in mine):
            raise RuleError(N_("player {n} has already laid guess card {number} on someone; each number is one card"), n=p + 1, number=number)
        self._seq += 1
        r.guesses.append(Guess(p, drawer, number, Stamp(action.t_us, max(action.precision_us, 1)), self._seq))
        r.started_drawing_guess.add(p)
        # the number stays secret until the reveal: the event only says a card was laid
        return [GameEvent("guess", action.t_us, p, {"drawer": drawer})]

    def _token_cap(self, action: Action) -> int | None:
        """The ``{"token": v}`` of a bell or a held choice (None: the highest left)."""
        if "token" not in action.args:
            return None
        if not self.options.token_choice:
            raise RuleError(N_("the bell takes the highest bonus token left; choosing one is off (option token_choice)"))
        cap = action.args["token"]
        if not isinstance(cap, int) or isinstance(cap, bool) or cap < 0:
            raise RuleError(N_("token {cap!r}: give a token value to take, or 0 for none"), cap=cap)
        return cap

    def _choose(self, action: Action, p: int) -> list[GameEvent]:
        """A phone's "take a lower token or none": only held, for the bell to apply."""
        if not self.options.token_choice:
            raise RuleError(N_("the bell takes the highest bonus token left; choosing one is off (option token_choice)"))
        self.round.choice[p] = self._token_cap(action)
        return [GameEvent("token_choice", action.t_us, p)]

    def _ring(self, action: Action, p: int) -> list[GameEvent]:
        r = self.round
        cap = self._token_cap(action) if "token" in action.args else r.choice[p]
        r.done_us[p] = action.t_us
        r.pending.append(BellPress(p, action.stamp, cap))
        self._coarsest_done_us = max(self._coarsest_done_us, action.precision_us)
        return [GameEvent("bell", action.t_us, p)]

    def _award_bonus(self, t_us: int) -> list[GameEvent]:
        """Rank the settled bell presses and hand out tokens; ties share the better place."""
        r = self.round
        presses, r.pending = r.pending, []
        groups = rank_by_stamp(presses, self.options.tie_window_us)
        events: list[GameEvent] = []
        for group in groups:
            tie = len(group) > 1
            highest = [b for b in group if b.cap is None]
            taken = r.bonus_left[: len(highest)]
            r.bonus_left = r.bonus_left[len(highest):]
            for b in highest:
                r.bonus[b.player] = taken[0] if taken else None
                r.bonus_tie[b.player] = tie
            for b in group:
                if b.cap is None:
                    continue
                fitting = [v for v in r.bonus_left if v <= b.cap and v > 0]
                if fitting:
                    r.bonus[b.player] = fitting[0]
                    r.bonus_left.remove(fitting[0])
                r.bonus_tie[b.player] = tie
            for b in group:
                events.append(GameEvent("bonus", t_us, b.player,
                                        {"token": r.bonus[b.player], "tie": tie}))
        return events + self._maybe_end_round(t_us)

    def _maybe_end_round(self, t_us: int) -> list[GameEvent]:
        r = self.round
        everyone_done = all(d is not None for d in r.done_us) and not r.pending
        last_token_gone = self.options.harsher and not r.bonus_left and not r.pending
        if not (everyone_done or last_token_gone):
            return []
        self.phase = Phase.REVIEW
        reason = "everyone done" if everyone_done else "last bonus token taken"
        return [GameEvent("round_over", t_us, data={"round": r.number, "reason": reason})]

    def _admit(self, p: int, t_us: int) -> list[GameEvent]:
        if self.phase not in (Phase.DRAWING, Phase.REVIEW):
            raise RuleError(N_("a wrong drawing is admitted before the reveal; now: {phase}"), phase=PHASE_WORDS[self.phase])
        self.round.admitted.add(p)
        return [GameEvent("admitted", t_us, p)]

    # ------------------------------------------------------------------ scoring
    def _guess_groups(self, drawer: int) -> list[list[Guess]]:
        """A drawer's pile in arrival order, closer arrivals grouped as ties."""
        pile = sorted((g for g in self.round.guesses if g.drawer == drawer), key=lambda g: (g.t_us, g.seq))
        return rank_by_stamp(pile, self.options.tie_window_us, min_precision_us=GUESS_PRECISION_US)

    def _score(self, t_us: int) -> list[GameEvent]:
        r = self.round
        n = self.players
        earned = [0] * n
        kept = [0] * n
        wrong = [0] * n
        guessed_right = [0] * n
        drawers: list[dict[str, Any]] = []
        for d in range(n):
            secret = r.secrets[d]
            tokens = list(self.scoring_tokens)
            admitted = d in r.admitted
            pile: list[dict[str, Any]] = []
            for group in self._guess_groups(d):
                right = [g for g in group if g.number == secret.number and not admitted]
                share = tokens[: len(right)]
                tokens = tokens[len(right):]
                for g in group:
                    correct = g.number == secret.number
                    token = share[0] if correct and not admitted and share else 0
                    if correct and not admitted:
                        earned[g.guesser] += token
                        guessed_right[d] += 1
                    elif not correct and not admitted:
                        wrong[g.guesser] += 1
                    pile.append({"guesser": g.guesser, "number": g.number, "correct": correct,
                                 "token": token, "tie": len(group) > 1, "t_us": g.t_us})
            kept[d] = sum(tokens)
            drawers.append({
                "drawer": d, "letter": secret.letter, "number": secret.number,
                "word": self._word(secret), "admitted": admitted, "guesses": pile,
                "kept": list(tokens),
            })
        learning = self.options.learning_round and r.number == 1
        most = max(wrong)
        sheep_candidates = [p for p in range(n) if wrong[p] == most] if most > 0 else []
        black_sheep = sheep_candidates[0] if len(sheep_candidates) == 1 and not learning else None
        bonus_score = [0] * n
        bonus_note = [""] * n
        for p in range(n):
            b = r.bonus[p] or 0
            if p in r.admitted:
                bonus_note[p] = "returned: wrong drawing"
            elif p == black_sheep:
                bonus_score[p], bonus_note[p] = -b, "black sheep"
            elif guessed_right[p] == 0 and not learning:
                bonus_note[p] = "lost: nobody guessed the drawing"
            else:
                bonus_score[p], bonus_note[p] = b, "kept"
        scores = [earned[p] + bonus_score[p] - kept[p] for p in range(n)]
        for p in range(n):
            self.totals[p] += scores[p]
        r.reveal = {
            "round": r.number,
            "drawers": drawers,
            "wrong_guesses": wrong,
            "black_sheep": black_sheep,
            "black_sheep_tied": sheep_candidates if len(sheep_candidates) > 1 else [],
            "bonus": list(r.bonus),
            "bonus_tie": list(r.bonus_tie),
            "bonus_score": bonus_score,
            "bonus_note": bonus_note,
            "earned": earned,
            "kept": kept,
            "scores": scores,
            "totals": list(self.totals),
        }
        self.history.append(r.reveal)
        self.phase = Phase.REVEALED
        return [GameEvent("reveal", t_us, data={"round": r.number, "scores": scores,
                                                 "black_sheep": black_sheep})]

    def _word(self, secret: Secret) -> str:
        return self.round.cards[LETTERS.index(secret.letter)].word(secret.number)

    def winners(self) -> list[int]:
        best = max(self.totals)
        return [p for p in range(self.players) if self.totals[p] == best]

    # ------------------------------------------------------------------ views
    def status(self, p: int) -> Status:
        r = self.round
        if self.phase is Phase.CARDS:
            return Status.WAITING
        if r.done_us[p] is not None:
            return Status.RINGING if any(b.player == p for b in r.pending) else Status.DONE
        if self.phase is not Phase.DRAWING:
            return Status.OUT
        return Status.GUESSING if p in r.started_drawing_guess else Status.DRAWING

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return [self.status(p).value for p in range(self.players)]

    def public_view(self) -> dict[str, Any]:
        """The shared screen: cards, who is where, tokens left; secrets only after the reveal."""
        r = self.round
        dealt = self.phase is not Phase.CARDS
        return {
            "phase": self.phase.value,
            "round": r.number,
            "rounds": self.rounds,
            "deck": r.deck,
            "cards": [{"letter": LETTERS[i], "theme": c.theme, "words": list(c.words)}
                      for i, c in enumerate(r.cards)],
            "scores": list(self.totals),
            "status": self.station_statuses(),
            "bonus_left": list(r.bonus_left) if dealt else list(self.bonus_tokens),
            "bonus": list(r.bonus) if dealt else [None] * self.players,
            "bonus_tie": list(r.bonus_tie) if dealt else [False] * self.players,
            # how many cards lie on each pile and how many each player laid: the
            # table sees the piles grow, never the numbers on them
            "guesses_on": [sum(1 for g in r.guesses if g.drawer == d) for d in range(self.players)],
            "guesses_made": [sum(1 for g in r.guesses if g.guesser == p) for p in range(self.players)],
            "admitted": sorted(r.admitted) if self.phase is not Phase.DRAWING else [],
            "scoring_tokens": list(self.scoring_tokens),
            "reveal": r.reveal if self.phase in (Phase.REVEALED, Phase.OVER) else None,
            "history": [{"round": h["round"], "scores": h["scores"]} for h in self.history],
            "winners": self.winners() if self.finished else [],
        }

    def private_view(self, player: int) -> dict[str, Any]:
        """One phone: this player's secret (letter, number, word) and own guesses only."""
        self._check_seat(player)
        r = self.round
        if self.phase is Phase.CARDS:
            return {"player": player, "secret": None, "guesses": [], "admitted": False, "token_choice": None}
        secret = r.secrets[player]
        return {
            "player": player,
            "secret": {"letter": secret.letter, "number": secret.number, "word": self._word(secret)},
            "guesses": [{"drawer": g.drawer, "number": g.number, "t_us": g.t_us}
                        for g in r.guesses if g.guesser == player],
            "admitted": player in r.admitted,
            "token_choice": r.choice[player],  # what this player's bell will take (None: the highest left)
        }

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        if not self.finished:
            return None
        return Outcome(tuple(self.winners()), EndReason.ROUNDS_PLAYED, tuple(self.totals))

    def summary(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "options": self.options.to_json(),
            "finished": self.finished,
            "rounds_played": len(self.history),
            "scores": list(self.totals),
            "winners": self.winners() if self.finished else [],
            "rounds": self.history,
        }

    # ------------------------------------------------------------------ moves
    def legal_moves(self, player: int | None) -> list[dict[str, Any]]:
        """Every concrete move with its args, so a phone page can offer buttons for them."""
        moves: list[dict[str, Any]] = []
        if player is None:
            if self.phase is Phase.CARDS:
                if self.options.allow_swap and self._pools[self.round.deck]:
                    moves += [{"kind": SWAP, "args": {"card": c}} for c in LETTERS]
                moves.append({"kind": START, "args": {}})
            if self.phase in (Phase.DRAWING, Phase.REVIEW):
                moves += [{"kind": ADMIT, "args": {"player": p}} for p in range(self.players)
                          if p not in self.round.admitted]
            if self.phase is Phase.REVIEW:
                moves.append({"kind": REVEAL, "args": {}})
            if self.phase is Phase.REVEALED:
                moves.append({"kind": NEXT, "args": {}})
            return moves
        self._check_seat(player)
        r = self.round
        if self.phase in (Phase.DRAWING, Phase.REVIEW) and player not in r.admitted:
            moves.append({"kind": ADMIT, "args": {}})
        if self.phase is not Phase.DRAWING or r.done_us[player] is not None:
            return moves
        if player not in r.started_drawing_guess:
            moves.append({"kind": DRAWN, "args": {}})
        mine = [g for g in r.guesses if g.guesser == player]
        guessed = {g.drawer for g in mine}
        used = {g.number for g in mine}
        for d in range(self.players):
            if d != player and d not in guessed:
                moves += [{"kind": GUESS, "args": {"drawer": d, "number": k}} for k in NUMBERS if k not in used]
        moves.append({"kind": DONE, "args": {}})
        if self.options.token_choice:
            moves += [{"kind": DONE, "args": {"token": v}} for v in sorted(set(r.bonus_left), reverse=True)[1:]]
            moves.append({"kind": DONE, "args": {"token": 0}})
            moves.append({"kind": CHOOSE, "args": {}})
            moves += [{"kind": CHOOSE, "args": {"token": v}} for v in sorted(set(r.bonus_left), reverse=True)[1:]]
            moves.append({"kind": CHOOSE, "args": {"token": 0}})
        return moves

    def legal_actions(self, player: int | None) -> list[str]:
        kinds: list[str] = []
        for move in self.legal_moves(player):
            if move["kind"] not in kinds:
                kinds.append(move["kind"])
        if player is None and not self.finished:
            kinds += [HOST_SHOWN, HOST_RESUME]
        return kinds


def play_actions(engine: PictomaniaEngine, actions: Sequence[Action],
                 after: Callable[[PictomaniaEngine], None] | None = None) -> list[GameEvent]:
    """Feed actions in order (a replay); RuleErrors propagate."""
    events: list[GameEvent] = []
    for action in actions:
        events += engine.handle(action)
        if after is not None:
            after(engine)
    return events
