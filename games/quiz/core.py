"""The quiz's shared core: the round flow every mode plays, with the steps
that differ left to the round's mode (games/quiz/modes/: ``ClassicMode``,
the buzzer race of classic and its presets; ``AllPlayMode``; ``BowlMode``),
chosen once per round as the quiz is made.

Rules: README.md ("Quiz and reaction duel"); the presets in docs/quiz.md.
Arbitration (arming, early-buzz lockouts, ties, next-in-line queue) is the
shared ``Arbiter``, which the buzzer race (``ClassicMode``) plays; this core
adds the round flow, the questions of a pack, the rule presets, teams, scores,
reactions and undo.

The pack's questions come in the settings (``pack_questions``, filled in by
``QuizSpec.settings`` from a pack file), so a journal replays without the file.
"""

from __future__ import annotations

import bisect
import copy
import random
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar, Protocol

from games.arbitration import Arbiter, ArbiterOptions, ArbiterResult
from games.base import (
    HOST_ADJUST,
    HOST_RESUME,
    HOST_TEAM_NAME,
    Action,
    EventKind,
    FirstPress,
    GameEvent,
    GameSettings,
    KindEnum,
    OptionError,
    Outcome,
    RuleError,
    best_of,
    checked_options,
    fire_due,
    score_adjustment,
)
from games.i18n import N_
from games.panels import TYPED
from games.quiz.allplay_scoring import (
    ALL_PLAY,
    ALL_PLAY_PRESET,
    TEAM_MEAN,
    TEAM_SUM,
    AllPlayQuestion,
)
from games.quiz.bowl_scoring import (
    BOWL,
    BOWL_PRESET,
    Tossup,
    two_teams,
)
from games.quiz.options import OPTIONS, REBOUND_WHILE_READ, RULE_NAMES, RULES_VERSION
from games.quiz.teams import MAX_TEAM_NAME, checked_team_name, team_colour, team_name, teams_shown


class Phase(str, Enum):
    """Where a question stands (``public_view()["phase"]`` says its value)."""

    IDLE = "idle"
    ARMED = "armed"
    ANSWERING = "answering"
    TIE = "tie"
    ROUND_OVER = "round_over"
    ALL_PLAY = "all_play"  # an all-play question is open: everyone picks a choice
    BONUS = "bonus"  # quiz bowl: the team that got the tossup answers its bonus, no buzzing


class QuizEvent(KindEnum):
    """The quiz's own event kinds (beside the common ``EventKind``s it says:
    buzz, winner, tie, early, correct, wrong, time_up, timer_warning,
    round_over, game_over, adjusted, resumed). Each is its string, as journals and the
    quiz's results have always had it."""

    #: a new question is on screen (``data``: the question's record, its clips' cells among them)
    QUESTION = "question"
    ROUND_START = "round_start"
    #: the buzzers open (``data["rearmed"]``: again, for the same question)
    ARMED = "armed"
    #: the turn passes on after a wrong answer
    NEXT_IN_LINE = "next_in_line"
    REVEAL = "reveal"
    LEADERBOARD = "leaderboard"
    PODIUM = "podium"
    RESET = "reset"
    NEXT = "next"
    UNDO = "undo"
    #: a player joined a team (the lobby's move, ``TEAM_MOVE``); the host named a team
    TEAM = "team"
    TEAM_NAMED = "team_named"
    # all-play
    ALL_PLAY_OPEN = "all_play_open"
    LOCKED_IN = "locked_in"
    ALL_PLAY_REVEAL = "all_play_reveal"
    # quiz bowl
    POWER_MARK = "power_mark"
    READ = "read"
    LOCKED_OUT = "locked_out"
    BONUS = "bonus"
    BONUS_PART = "bonus_part"


#: each phase as a refusal words it to a host ("cannot wrong while armed"): the catalogue's words
PHASE_WORDS: dict[Phase, str] = {
    Phase.IDLE: N_("the question waits"), Phase.ARMED: N_("the buzzers are armed"),
    Phase.ANSWERING: N_("a player answers"), Phase.TIE: N_("a tie is being decided"),
    Phase.ROUND_OVER: N_("the question is over"), Phase.ALL_PLAY: N_("everyone is answering"),
    Phase.BONUS: N_("a bonus is being answered"),
}


class EndReason(Enum):
    """Why a quiz ended (the values are what ``round.over`` and the
    ``game_over`` event say)."""

    TARGET_REACHED = "won"  # a team reached the points to win
    LAST_STANDING = "last standing"  # every other team is out
    QUESTIONS_DONE = "questions done"  # the set number of questions was asked


HOST_ACTIONS = ("arm", "correct", "wrong", "next", "reset", "undo", "pick", "reveal", "leaderboard", "power", "read")
WARNING_SECONDS = 3  # a tick sound for each of the timer's last seconds
#: how many judgements back ``undo`` reaches (a host corrects the last few
#: slips, not the whole evening); each step keeps one question's state, so a
#: long quiz stays flat
UNDO_DEPTH = 20
#: how many past results ``public_view`` carries (the screen shows the last
#: few; ``summary`` and the journal have all of them)
VIEW_RESULTS = 10
#: reactions are kept as a count per whole millisecond (the median is told to
#: the millisecond), capped here: a player's record stays small however long
#: the evening
REACTION_CAP_MS = 60_000

#: rule presets (the ``rules`` option): each sets the defaults of the options
#: it names; an option given explicitly still wins. Documented in docs/quiz.md.
PRESETS: Mapping[str, Mapping[str, Any]] = {
    # first press answers; a wrong answer passes the turn to the next in line
    # (or, with nobody in line, everyone else may buzz again)
    "classic": {},
    # five right answers win the game; three wrong answers and a player is out
    "race": {"win_correct": 5, "out_wrong": 3},
    # a wrong answer sits the player out of the next question
    "sit-out": {"sit_out": 1},
    # a wrong answer costs a point
    "penalty": {"points_wrong": 1},
    # the first press answers for 2 points; the next in line may still answer, for 1
    "second-chance": {"points_correct": 2, "second_points": 50},
    # stations in pairs: one press per team, the team answers once
    "teams": {"team_size": 2},
    # everyone answers multiple choice at once; a right answer scores by its speed (games/quiz/allplay_scoring.py)
    ALL_PLAY: ALL_PLAY_PRESET,
    # quiz bowl: tossups with powers and negs, bonuses to the team that got the tossup (games/quiz/bowl_scoring.py)
    BOWL: BOWL_PRESET,
}


#: what a round of ``rounds`` may set for itself (the rest is the quiz's):
#: its title, a preset, the timer, points, how many questions and of which categories
ROUND_KEYS: tuple[str, ...] = ("title", "rules", "questions", "answer_time_us", "buzz_window_us",
                               "points_correct", "points_wrong", "second_points", "sit_out", "categories",
                               "choices", "power_points", "neg_points", "bonus_parts", "bonus_points")
#: a player's move in a team quiz's lobby: join a team, and maybe name it (``QuizCore._team_move``)
TEAM_MOVE = "team"

#: the round's own values of the quiz's options
ROUND_OPTIONS: tuple[str, ...] = ("answer_time_us", "buzz_window_us", "points_correct", "points_wrong",
                                  "second_points", "sit_out", "choices", "power_points", "neg_points",
                                  "bonus_parts", "bonus_points")
#: the presets a round may use: teams are formed and races won for the whole quiz (a bowl
#: round plays with the quiz's teams)
ROUND_PRESETS: tuple[str, ...] = ("classic", "sit-out", "penalty", "second-chance", ALL_PLAY, BOWL)


def _listed(names: Any) -> str:
    """Names for a person (an error message), not a Python list."""
    return ", ".join(str(n) for n in names)


def most_choices(*limits: object) -> int | None:
    """The most choices an all-play question offers: the fewest any limit
    allows (a round's or the quiz's ``choices``, the stations' buttons);
    None and anything not a count (a round not checked yet) set no limit."""
    given = [n for n in limits if isinstance(n, int) and not isinstance(n, bool)]
    return min(given) if given else None


@dataclass
class QuizOptions:
    lockout_us: int = 250_000
    tie_window_us: int = 0
    queue_window_us: int | None = None
    #: the winner is announced at least this long after the first press. The
    #: box already holds every decision until all sources have reported
    #: (its decision horizon), so this adds nothing for late deliveries; the
    #: engine itself waits as long as a later press could still tie (see
    #: ``ClassicMode._decide_at``)
    settle_us: int = 0
    #: points for a right answer (with a pack: times the question's points)
    points_correct: int = 1
    points_wrong: int = 0
    after_wrong: str = "next"  # "next": next in line answers; "rearm": everyone else may buzz again
    answer_time_us: int | None = None
    buzz_window_us: int | None = None
    teams: list[int] | None = None
    questions: int | None = None
    #: the length of a quiz without a pack when ``questions`` is not given (the
    #: demo's and ``simulate``'s); a pack's quiz ends after its last question
    demo_questions: int | None = None
    #: the rule preset (PRESETS) whose values are the defaults of the rest
    rules: str = "classic"
    #: a right answer after someone else's wrong one earns this percentage of
    #: the question's points (rounded half up)
    second_points: int = 100
    #: this many right answers win the game (None: no such limit)
    win_correct: int | None = None
    #: this many wrong answers and a player (a team) is out of the game
    out_wrong: int | None = None
    #: after a wrong answer, sit out this many following questions
    sit_out: int = 0
    #: stations in teams of this size (station order), unless ``teams`` lists them
    team_size: int | None = None
    #: the leaderboard shows after every this many questions (and at the end)
    round_questions: int | None = None
    #: the pack chosen (a shipped pack's name or a file), for the record
    pack: str | None = None
    #: the pack's questions as the engine asks them (see ``question_record``)
    pack_questions: list[dict[str, Any]] | None = None
    pack_title: str | None = None
    #: how many of the pack's rows were left out for their problems (``pack check`` lists them)
    pack_left_out: int | None = None
    #: how the pack's questions were chosen (``QuizSpec.settings`` applied
    #: them to ``pack_questions``), kept for the record
    shuffle: bool | None = None
    categories: list[str] | None = None
    #: each team's name, in team order (None: "Team 1", "Team 2" ...)
    team_names: list[str] | None = None
    #: the quiz as rounds, each a dict of ROUND_KEYS (None: one round of every question)
    rounds: list[dict[str, Any]] | None = None
    #: quiz bowl (``bowl``): a tossup before the power mark, a wrong interrupt (taken), each bonus part
    power_points: int = 15
    neg_points: int = 5
    bonus_parts: int = 0
    bonus_points: int = 10
    #: all-play: the most choices a question offers (None: all it has)
    choices: int | None = None
    #: how many answer buttons (a, b ...) the smallest station has: the box reads
    #: it off the wiring profile (None: keyboard or simulated stations, no limit)
    station_choices: int | None = None
    #: the rules version played (options.py; an old journal replays its own)
    rules_version: int = RULES_VERSION
    #: all-play with teams: a team scores its members' ``mean`` (``sum``: adds them)
    team_points: str = TEAM_MEAN

    @property
    def most_choices(self) -> int | None:
        """The most choices an all-play question offers: no more than the
        round's ``choices`` allows, nor the stations have buttons for."""
        return most_choices(self.choices, self.station_choices)

    @classmethod
    def from_settings(cls, settings: GameSettings) -> QuizOptions:
        checked_options(OPTIONS, settings.options, "quiz")  # names, types and ranges: options.py
        preset_name = settings.options.get("rules") or "classic"
        if preset_name not in PRESETS:
            raise OptionError(N_("quiz: rules {name!r} is not a preset; use one of {known}"), name=preset_name,
                              known=_listed(PRESETS))
        given = {k: v for k, v in settings.options.items() if v is not None or k not in PRESETS[preset_name]}
        opts = cls(**{**PRESETS[preset_name], **given, "rules": preset_name})
        opts._check(settings)
        return opts

    def for_round(self, settings: GameSettings, number: int) -> QuizOptions:
        """The options of round ``number`` (1, 2 ...): the round's preset in
        place of the quiz's, the quiz's explicit options over any preset, the
        round's own values over everything."""
        spec = (self.rounds or [{}])[number - 1]
        preset = spec.get("rules") or self.rules
        explicit = {k for k, v in settings.options.items() if v is not None}
        defaults = type(self)()
        undone = {k: getattr(defaults, k) for k in PRESETS[self.rules] if k not in explicit and k != "team_size"}
        from_preset = {k: v for k, v in PRESETS[preset].items() if k not in explicit}
        mine = {k: v for k, v in spec.items() if k in ROUND_OPTIONS}
        return replace(self, **{**undone, **from_preset, **mine, "rules": preset})

    def _check(self, settings: GameSettings) -> None:
        opts = self
        if opts.rules == BOWL and opts.teams is None and opts.team_size is None:
            opts.teams = two_teams(settings.players)
        if opts.after_wrong not in ("next", "rearm"):
            raise OptionError(N_("quiz: after_wrong must be 'next' or 'rearm'"))
        if opts.team_points not in (TEAM_MEAN, TEAM_SUM):
            raise OptionError(N_("quiz: team_points must be 'mean' (a team scores its members' mean) or 'sum'; "
                                 "got {value!r}"), value=opts.team_points)
        if opts.teams is None and opts.team_size is not None:
            if settings.players < 2 * opts.team_size:
                raise OptionError(N_("quiz: teams of {size} need at least {least} stations; add stations or choose "
                                     "other rules"), size=opts.team_size, least=2 * opts.team_size)
            opts.teams = [s // opts.team_size for s in range(settings.players)]
        teams = opts.teams
        if teams is not None and (
            not isinstance(teams, list)
            or len(teams) != settings.players
            or not all(isinstance(t, int) and not isinstance(t, bool) and t >= 0 for t in teams)
        ):
            raise OptionError(N_("quiz: teams must list one team number (0, 1, ...) per station, {players} in all, "
                                 "e.g. [0, 0, 1, 1]; got {teams!r}"), players=settings.players, teams=teams)
        opts._check_counts()
        opts._check_pack()
        if opts.rounds is not None:
            check_rounds(opts.rounds, with_pack=opts.pack_questions is not None)
        names = opts.team_names
        if names is not None:
            team_count = max(opts.teams or list(range(settings.players))) + 1
            if not (isinstance(names, list) and len(names) == team_count
                    and all(isinstance(n, str) and 0 < len(n.strip()) <= MAX_TEAM_NAME for n in names)):
                raise OptionError(N_("quiz: team_names must name each of the {n} teams, in team order, at most "
                                     "{most} characters each, e.g. \"Owls\", \"Foxes\""), n=team_count,
                                  most=MAX_TEAM_NAME)

    def _check_counts(self) -> None:
        """The numbers of questions, answers and points the rules count with, each in its range."""
        opts = self
        for name in ("win_correct", "out_wrong", "round_questions"):
            value = getattr(opts, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise OptionError(N_("quiz: {name} must be a whole number from 1 (or null for none); got {value!r}"),
                                  name=name, value=value)
        if not isinstance(opts.sit_out, int) or isinstance(opts.sit_out, bool) or opts.sit_out < 0:
            raise OptionError(N_("quiz: sit_out must be a whole number of questions from 0; got {value!r}"),
                              value=opts.sit_out)
        if not isinstance(opts.second_points, int) or not 0 <= opts.second_points <= 100:
            raise OptionError(N_("quiz: second_points must be a percentage 0-100; got {value!r}"),
                              value=opts.second_points)

    def _check_pack(self) -> None:
        """The pack's questions are read (by the spec's settings) and are questions."""
        opts = self
        if opts.pack_questions is not None and not (
            isinstance(opts.pack_questions, list)
            and all(isinstance(q, dict) and isinstance(q.get("text"), str) for q in opts.pack_questions)
        ):
            raise OptionError(N_("quiz: pack_questions must list the questions as objects with their text; "
                                 "choose the pack with the 'pack' option instead"))
        if opts.pack is not None and opts.pack_questions is None:
            raise OptionError(N_("quiz: the pack {pack!r} was not read; start the quiz through its spec's settings "
                                 "({how}), which reads the pack"), pack=opts.pack,
                              how="games.registry.get('quiz').settings")


def check_rounds(rounds: Any, with_pack: bool) -> None:
    """``rounds``: a list of rounds, each naming only ROUND_KEYS, its preset
    one of ROUND_PRESETS; without a pack each says how many questions."""
    if not isinstance(rounds, list) or not rounds or not all(isinstance(r, dict) for r in rounds):
        raise OptionError(N_("quiz: rounds must list the rounds, e.g. {example}"),
                          example='[{"questions": 10}, {"rules": "penalty", "questions": 5}]')
    for k, spec in enumerate(rounds, 1):
        unknown = [key for key in spec if key not in ROUND_KEYS]
        if unknown:
            raise OptionError(N_("quiz: round {k} has {unknown}; a round may set {keys}"), k=k,
                              unknown=_listed(unknown), keys=_listed(ROUND_KEYS))
        if spec.get("rules") is not None and spec["rules"] not in ROUND_PRESETS:
            raise OptionError(N_("quiz: round {k}'s rules {rules!r}: a round may use {presets}"), k=k,
                              rules=spec["rules"], presets=_listed(ROUND_PRESETS))
        count = spec.get("questions")
        if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 1):
            raise OptionError(N_("quiz: round {k}'s questions must be a whole number from 1; got {value!r}"), k=k,
                              value=count)
        if count is None and not with_pack:
            raise OptionError(N_("quiz: round {k} needs its number of questions ({example}) without a pack"), k=k,
                              example='"questions": 10')
        most = spec.get("choices")
        if most is not None and (not isinstance(most, int) or isinstance(most, bool) or not 2 <= most <= 6):
            raise OptionError(N_("quiz: round {k}'s choices (the most a question offers: 2 for stations with "
                                 "buttons a and b) must be 2 to 6; got {value!r}"), k=k, value=most)
        for name in ROUND_OPTIONS:
            value = spec.get(name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise OptionError(N_("quiz: round {k}'s {name} must be a whole number from 0; got {value!r}"), k=k,
                                  name=name, value=value)


@dataclass
class _Round:
    """The state that undo restores."""

    phase: Phase = Phase.IDLE
    question: int = 1
    scores: list[int] = field(default_factory=list)
    answering: int | None = None  # station whose answer the host is judging
    decided_at_us: int | None = None
    answer_deadline_us: int | None = None
    warned: int = 0
    buzz_window_shift_us: int = 0  # pauses while armed lengthen the buzz window
    results: list[dict[str, Any]] = field(default_factory=list)
    #: per team: right and wrong answers in the whole game
    correct: list[int] = field(default_factory=list)
    wrong: list[int] = field(default_factory=list)
    #: teams out of the game (``out_wrong``)
    eliminated: list[int] = field(default_factory=list)
    #: per station: the last question it sits out (``sit_out``); 0: none
    sitting_until: list[int] = field(default_factory=list)
    #: someone answered this question wrong already (a later right answer is a second press)
    had_wrong: bool = False
    revealed: bool = False
    #: how the one answering got the turn from a tie: "drawn" (the host's fair draw, ``p``) or "chosen"
    #: (the host named the player); None: by the race (the screen's caption says which)
    tie_pick: str | None = None
    #: the leaderboard is on the screen (between questions)
    board: bool = False
    announced: int = 0  # the last question whose ``question`` event went out
    #: a new round's first question, not armed yet: the screen shows the round's card
    intro: bool = False
    over: str | None = None  # why the game ended early (a win, everyone out)
    tossup: Tossup = field(default_factory=Tossup)  # quiz bowl: this question's marks, buzzes and bonus


@dataclass
class _Reactions:
    """One station's reactions from arming to press: fastest exact, the rest
    as a count per millisecond (bounded), so the median costs no memory per press."""

    fastest_us: int | None = None
    count: int = 0
    per_ms: dict[int, int] = field(default_factory=dict)

    def add(self, us: int) -> None:
        self.fastest_us = us if self.fastest_us is None else min(self.fastest_us, us)
        self.count += 1
        ms = min(max(0, us) // 1000, REACTION_CAP_MS)
        self.per_ms[ms] = self.per_ms.get(ms, 0) + 1

    def median_us(self) -> int | None:
        """The median to the millisecond (the middle of its millisecond)."""
        if not self.count:
            return None
        half, seen = (self.count + 1) // 2, 0
        for ms in sorted(self.per_ms):
            seen += self.per_ms[ms]
            if seen >= half:  # never under the fastest (both shown to the millisecond)
                return max(ms * 1000 + 500, self.fastest_us or 0)
        return None  # pragma: no cover - the counts add up to count


def question_record(number: int, question: Mapping[str, Any] | None, points: int,
                    round_number: int | None = None) -> dict[str, Any]:
    """The ``question`` event's data (results and the journal read exactly
    this); ``round`` only in a quiz of rounds (a one-round quiz's stays as it was)."""
    q = question or {}
    record = {"number": number, "text": str(q.get("text", "")), "category": str(q.get("category", "")),
              "points": points, "answer": str(q.get("answer", ""))}
    for clip in ("audio", "video"):  # an audio or video question: the screen plays its clip (controller/box/clips.py)
        if isinstance(q.get(clip), Mapping):
            record[clip] = dict(q[clip])
    return record if round_number is None else {**record, "round": round_number}


class RoundMode(Protocol):
    """What the core asks of a round's mode where the modes differ (each is a
    class in games/quiz/modes/: ``ClassicMode`` plays them as the buzzer race)."""

    def round_card(self) -> dict[str, Any]: ...
    def result_record(self) -> dict[str, Any]: ...
    def tossup_view(self) -> dict[str, Any] | None: ...
    def choices_shown(self, question: Mapping[str, Any], choices: list[Any]) -> list[Any]: ...
    def press(self, action: Action) -> list[GameEvent]: ...
    def answer(self, action: Action) -> list[GameEvent]: ...
    def press_out(self, station: int, t: int) -> list[GameEvent]: ...
    def fire(self, now_us: int) -> list[GameEvent]: ...
    def deadline_us(self) -> int | None: ...
    def resume(self, paused_us: int) -> None: ...
    def status(self, station: int) -> str | None: ...
    def all_play_view(self) -> dict[str, Any] | None: ...
    def seat_view(self, station: int) -> dict[str, Any]: ...
    def host_moves(self, phase: Phase) -> list[str]: ...
    def mark(self, kind: str, t: int) -> list[GameEvent]: ...
    def arm(self, t: int) -> list[GameEvent]: ...
    def pick(self, action: Action, t: int) -> list[GameEvent]: ...
    def judge(self, correct: bool, t: int) -> list[GameEvent]: ...
    def reveal(self, t: int) -> list[GameEvent]: ...
    def first_press(self) -> FirstPress | None: ...


#: how a round's mode is made: from the quiz and the round's options
ModeClass = Callable[["QuizCore", "QuizOptions"], RoundMode]


class QuizCore:
    """Sans-I/O quiz, what every mode shares: rounds, the pack's questions,
    the host's actions, teams, scores, reactions, undo and the views. Players
    send ``buzz`` (a phone ``answer``); the host sends HOST_ACTIONS. Where the
    modes differ the core calls the round's mode (``self.mode``, one of
    ``self.modes``: games/quiz/modes/)."""

    #: the mode of each preset that has its own, and ``classic``'s (its buzzer race) for
    #: every other: the engine, which puts the core and the modes together, names them
    mode_classes: ClassVar[Mapping[str, ModeClass]]

    def __init__(self, settings: GameSettings) -> None:
        self.settings = settings
        self.options = QuizOptions.from_settings(settings)
        n = settings.players
        self.teams = list(self.options.teams or range(n))  # a copy: the lobby's team moves change it
        self.team_count = max(self.teams) + 1
        #: each team's own name ("": "Team N"); players may rename their team in the lobby
        self.team_names = [n.strip() for n in self.options.team_names or ()]
        #: before the first question is armed (or skipped): players may still change teams
        self.lobby = True
        self.pack: list[dict[str, Any]] = list(self.options.pack_questions or [])
        #: each round's options (one round: the quiz's) and its first question's number
        self.round_options = [self.options.for_round(settings, k + 1) for k in range(len(self.options.rounds or [{}]))]
        self.round_starts = self._round_starts()
        total = self.options.questions
        if self.pack:
            total = len(self.pack) if total is None else min(total, len(self.pack))
        elif self.options.rounds and total is None:
            total = sum(int(spec.get("questions") or 0) for spec in self.options.rounds)
        elif total is None and "questions" not in settings.options:  # "questions": None is "until stopped"
            total = self.options.demo_questions
        self.questions_total = total
        self.arbiter = Arbiter(
            n,
            ArbiterOptions(
                lockout_us=self.options.lockout_us,
                tie_window_us=self.options.tie_window_us,
                queue_window_us=self.options.queue_window_us,
            ),
        )
        t = self.team_count
        self.round = _Round(scores=[0] * t, correct=[0] * t, wrong=[0] * t, sitting_until=[0] * n)
        self.rng = random.Random(f"quiz-{settings.seed}")  # tie draws only
        self.now_us = 0
        #: before each judgement: the round (without its results), how many
        #: results there were, the question's arbiter, and when it was judged
        self._undo: deque[tuple[_Round, int, Arbiter, int]] = deque(maxlen=UNDO_DEPTH)
        #: reactions are what the players did, not a judgement: undo leaves them
        self.reactions = [_Reactions() for _ in range(n)]
        #: the host's score corrections per team (``HOST_ADJUST``): kept apart
        #: from the round, so an undo of a judgement never undoes a correction
        self.corrections = [0] * self.team_count
        #: each round's mode, made once (a night of rounds may change it round by round)
        self.modes = [self.mode_classes.get(opts.rules, self.mode_classes["classic"])(self, opts)
                      for opts in self.round_options]
        self.options, self.mode = self.round_options[0], self.modes[0]
        self.round.intro = len(self.round_options) > 1
        #: the open (or just closed) all-play question; None in a buzzer round
        self.allplay: AllPlayQuestion | None = None

    # -- rounds -------------------------------------------------------------
    def _round_starts(self) -> list[int]:
        """The number of each round's first question: from the pack's questions
        (``QuizSpec.settings`` marks each with its round), else the rounds' counts."""
        rounds = self.options.rounds
        if not rounds:
            return [1]
        if self.pack and all(isinstance(q.get("round"), int) for q in self.pack):
            starts: list[int] = []
            for k, q in enumerate(self.pack, 1):
                while len(starts) < min(int(q["round"]), len(rounds)):
                    starts.append(k)
            return starts + [len(self.pack) + 1] * (len(rounds) - len(starts))
        starts, at = [], 1
        for spec in rounds:
            starts.append(at)
            at += int(spec.get("questions") or 0)
        return starts

    def round_number(self, question: int | None = None) -> int:
        """The round (1, 2 ...) a question is in."""
        return max(1, bisect.bisect_right(self.round_starts, self.round.question if question is None else question))

    def _round_view(self, k: int) -> dict[str, Any]:
        spec = (self.options.rounds or [{}])[k - 1]
        first = self.round_starts[k - 1]
        last = (self.round_starts[k] - 1) if k < len(self.round_starts) else self.questions_total
        opts = self.round_options[k - 1]
        view = {"number": k, "of": len(self.round_options), "title": str(spec.get("title") or ""), "rules": opts.rules,
                "first": first, "questions": None if last is None else last - first + 1,
                "answer_time_us": opts.answer_time_us, "points_correct": opts.points_correct,
                "points_wrong": opts.points_wrong, "categories": list(spec.get("categories") or [])}
        return {**view, **self.modes[k - 1].round_card()}

    # -- the protocol -------------------------------------------------------
    @property
    def finished(self) -> bool:
        q = self.questions_total
        return self.round.over is not None or (q is not None and len(self.round.results) >= q)

    def handle(self, action: Action) -> list[GameEvent]:
        events = self.tick(action.t_us)
        events += self._announce(action.t_us)
        if action.player is None:
            events += self._host(action)
        elif action.kind == "buzz":
            events += self.mode.press(action)
        elif action.kind == "answer":
            events += self.mode.answer(action)
        elif action.kind == TEAM_MOVE:
            events += self._team_move(action)
        else:
            raise RuleError(N_("players only buzz in a quiz; {kind!r} is not a quiz action"), kind=action.kind)
        return events

    def tick(self, now_us: int) -> list[GameEvent]:
        """Fire every deadline due by now_us, each at its own time (``fire_due``):
        a late tick gives the same events, stamped the same, as many small ones."""
        if now_us <= self.now_us:
            return []
        events = fire_due(self.next_deadline_us, self._fire, now_us)
        self.now_us = max(self.now_us, now_us)
        return events

    def _fire(self, now_us: int) -> list[GameEvent]:
        """The deadline due at ``now_us`` (the round's mode knows its timers)."""
        self.now_us = max(self.now_us, now_us)
        return self.mode.fire(now_us)

    def next_deadline_us(self) -> int | None:
        return self.mode.deadline_us()

    def legal_actions(self, player: int | None) -> list[str]:
        if player is not None:
            return ["buzz"]
        r = self.round
        revealable = r.phase == Phase.ROUND_OVER and not r.revealed and bool(self._question().get("answer"))
        if self.finished:  # the final results: the last question's answer may still be shown, its last judgement undone
            return (["reveal"] if revealable else []) + (["undo"] if self._can_undo() else [])
        legal = self.mode.host_moves(r.phase)
        if revealable:
            legal = ["reveal", *legal]
        if r.phase in (Phase.IDLE, Phase.ROUND_OVER):
            legal = [*legal, "leaderboard"]
        return legal + (["undo"] if self._can_undo() else []) + [HOST_ADJUST] + ([HOST_TEAM_NAME] if self.team_quiz() else [])

    def _can_undo(self) -> bool:
        """Undo takes back a judgement of the question on the screen only:
        once the host has moved on, an undo would silently jump back a
        question, take its points and drop the new question's presses (a
        past question is corrected with a score correction instead)."""
        return bool(self._undo) and self._undo[-1][0].question == self.round.question

    # -- questions ----------------------------------------------------------
    def _question(self, number: int | None = None) -> dict[str, Any]:
        k = (self.round.question if number is None else number) - 1
        return self.pack[k] if 0 <= k < len(self.pack) else {}

    def _points(self, number: int | None = None) -> int:
        """What a right answer to this question is worth (before second-press credit)."""
        pack_points = self._question(number).get("points", 1)
        return int(pack_points if isinstance(pack_points, int) else 1) * self.options.points_correct

    def _announce(self, t: int) -> list[GameEvent]:
        """The ``question`` event, once per question, as it becomes the current one."""
        r = self.round
        if r.announced >= r.question or self.finished:
            return []
        r.announced = r.question
        k = self.round_number()
        events = []
        if len(self.round_options) > 1 and self.round_starts[k - 1] == r.question:
            events.append(GameEvent(QuizEvent.ROUND_START, t, None, self._round_view(k)))
        record = question_record(r.question, self._question(), self._points(), k if len(self.round_options) > 1 else None)
        return events + [GameEvent(QuizEvent.QUESTION, t, None, record)]

    # -- teams --------------------------------------------------------------
    def team_quiz(self) -> bool:
        """Teams play (a preset's or the options' teams), not one player a team."""
        return self.options.teams is not None

    def can_change_team(self) -> bool:
        return self.team_quiz() and self.lobby and not self.finished

    def _team_move(self, action: Action) -> list[GameEvent]:
        """A player joins team ``team`` (0-based) and, with ``name``, names it
        (a team's own name, within ``MAX_TEAM_NAME``). Only in a team quiz's
        lobby: once a question is armed the teams stand, their points theirs."""
        assert action.player is not None
        if not self.team_quiz():
            raise RuleError(N_("this quiz has no teams: everyone plays for themselves"))
        if not self.can_change_team():
            raise RuleError(N_("the teams are set once the first question is asked: stay in your team"))
        team, name = self._check_team(action.args.get("team")), action.args.get("name")
        name = None if name is None else checked_team_name(name)
        self.teams[action.player] = team
        data: dict[str, Any] = {"team": team, "teams": list(self.teams)}
        if name is not None:
            data["name"] = self._set_team_name(team, name)
        return [GameEvent(QuizEvent.TEAM, action.t_us, action.player, data)]

    def _check_team(self, team: object) -> int:
        if not isinstance(team, int) or isinstance(team, bool) or not 0 <= team < self.team_count:
            raise RuleError(N_("no such team: pick one of the {count} teams"), count=self.team_count)
        return team

    def _set_team_name(self, team: int, name: str) -> str:
        self.team_names = self.team_names or [""] * self.team_count
        self.team_names[team] = name
        return name

    def _name_team(self, action: Action) -> list[GameEvent]:
        """The host names a team (``HOST_TEAM_NAME``), in the lobby or later:
        only what the boards call it changes, never who plays in it."""
        if not self.team_quiz():
            raise RuleError(N_("this quiz has no teams: everyone plays for themselves"))
        if self.finished:
            raise RuleError(N_("the quiz is over: its teams keep their names"))
        team = self._check_team(action.args.get("team"))
        name = self._set_team_name(team, checked_team_name(action.args.get("name")))
        return [GameEvent(QuizEvent.TEAM_NAMED, action.t_us, None, {"team": team, "name": name})]

    def host_teams(self) -> list[dict[str, Any]]:
        """The teams the host may rename now, as the boards list them
        (``teams_shown``): each one's number, name, colour and stations, and
        how long a name may be (``most``)."""
        if HOST_TEAM_NAME not in self.legal_actions(None):
            return []
        return [{"team": t, "name": team_name(t, self.team_names), "colour": list(team_colour(t).rgb),
                 "most": MAX_TEAM_NAME, "members": [s for s, mine in enumerate(self.teams) if mine == t]}
                for t in teams_shown(self.teams, self.team_count, self.lobby)]

    def team_moves(self, seat: int) -> list[dict[str, Any]]:
        """In the lobby: joining each other team, and naming one's own (its
        name typed on the phone, in ``TYPED``'s place)."""
        if not self.can_change_team() or not 0 <= seat < len(self.teams):
            return []
        mine = self.teams[seat]
        return [*({"kind": TEAM_MOVE, "args": {"team": k}} for k in range(self.team_count) if k != mine),
                {"kind": TEAM_MOVE, "args": {"team": mine, "name": TYPED}}]

    # -- host ---------------------------------------------------------------
    def _host(self, action: Action) -> list[GameEvent]:
        """A host action: a pause's end, a score correction and a team's name at any moment;
        the quiz's own (arm, reveal, next, a judgement...) only where its phase allows (``_quiz_step``)."""
        kind, t = action.kind, action.t_us
        if kind == HOST_RESUME:
            return self._resume(int(action.args.get("paused_us", 0)), t)
        if kind == HOST_ADJUST:
            station, points = score_adjustment(action, self.settings.players)
            team = self.teams[station]
            self.corrections[team] += points
            return [GameEvent(EventKind.ADJUSTED, t, station, {"points": points, "score": self._team_scores()[team]})]
        if kind == HOST_TEAM_NAME:
            return self._name_team(action)
        if kind not in HOST_ACTIONS:
            raise RuleError(N_("unknown host action {kind!r}: the host may {choices}"), kind=kind,
                            choices=", ".join(HOST_ACTIONS))
        if kind not in self.legal_actions(None):
            raise RuleError(N_("the host cannot {kind} while {phase}; now: {choices}"), kind=kind,
                            choices=", ".join(self.legal_actions(None)) or N_("nothing (the quiz is over)"),
                            phase=PHASE_WORDS[self.round.phase])
        return self._quiz_step(action)

    def _quiz_step(self, action: Action) -> list[GameEvent]:
        """One of the quiz's own host actions, legal now: the answer and the board shown over the
        question as it stands; anything else clears the board and the round's intro first."""
        kind, t = action.kind, action.t_us
        r = self.round
        if kind in ("arm", "next"):
            self.lobby = False  # the quiz has begun: the teams are as they stand
        if kind == "reveal":
            return self.mode.reveal(t)
        if kind == "leaderboard":
            r.board = not r.board
            return [GameEvent(QuizEvent.LEADERBOARD, t, None, {"shown": r.board})] + (self._podium(t, final=False) if r.board else [])
        if kind in ("power", "read"):
            return self.mode.mark(kind, t)
        r.board = False
        r.intro = False
        if kind == "arm":
            return self.mode.arm(t)
        if kind == "reset":
            self.arbiter.disarm()
            r.phase = Phase.IDLE
            r.answering = None
            r.decided_at_us = None
            return [GameEvent(QuizEvent.RESET, t)]
        if kind == "next":
            return self._next_question(t)
        if kind == "pick":
            return self.mode.pick(action, t)
        if kind == "undo":
            return self._take_back(t)
        return self.mode.judge(kind == "correct", t)

    def _next_question(self, t: int) -> list[GameEvent]:
        """The host's next: a question left unanswered is recorded as skipped (the last one ends
        the quiz), then the next question."""
        r = self.round
        if r.phase != Phase.ROUND_OVER:
            r.results.append({"question": r.question, "winner": None, "result": "skipped", **self.mode.result_record()})
            if self.finished:  # the last question skipped: its buzz window and all-play timer end with it
                self._stop_question()
                self.allplay = None
                return [GameEvent(QuizEvent.NEXT, t, None, {"question": r.question}), *self._game_over(t)]
        return [GameEvent(QuizEvent.NEXT, t, None, {"question": r.question + 1}), *self._new_question(t)]

    def _take_back(self, t: int) -> list[GameEvent]:
        """The host's undo: the question as it stood before the last judgement (``_keep_for_undo``),
        its answer time as it was left then."""
        prev_round, results, prev_arbiter, judged_at = self._undo.pop()
        if prev_round.answer_deadline_us is not None:
            prev_round.answer_deadline_us += t - judged_at  # the answer time left when judged, again
            prev_round.warned = 0
        del self.round.results[results:]  # results are only ever appended: drop those since
        prev_round.results = self.round.results
        self.round, self.arbiter = prev_round, prev_arbiter
        return [GameEvent(QuizEvent.UNDO, t, None, {"phase": self.round.phase.value})]

    def _bench(self) -> None:
        """Stations out of the game or sitting out this question cannot buzz."""
        r = self.round
        for s in range(self.settings.players):
            if self.teams[s] in r.eliminated or r.sitting_until[s] >= r.question:
                self.arbiter.exclude(s)

    def _resume(self, paused_us: int, t: int) -> list[GameEvent]:
        """Stop the clocks for the pause: the answer timer and the buzz window
        get the time back; lockouts too."""
        r = self.round
        if r.answer_deadline_us is not None:
            r.answer_deadline_us += paused_us
        r.buzz_window_shift_us += paused_us
        self.mode.resume(paused_us)
        for station, until in self.arbiter.locked_until_us.items():
            if until > t:
                self.arbiter.locked_until_us[station] = until + paused_us
        return [GameEvent(EventKind.RESUMED, t, None, {"paused_us": paused_us})]

    def _keep_for_undo(self, t: int) -> None:
        """Before a judgement: one question's worth of state, whatever the length of the game."""
        r = self.round
        kept = replace(r, scores=list(r.scores), results=[], correct=list(r.correct), wrong=list(r.wrong),
                       eliminated=list(r.eliminated), sitting_until=list(r.sitting_until))
        self._undo.append((kept, len(r.results), copy.deepcopy(self.arbiter), t))

    def _stop_question(self) -> None:
        """No press, answer or timer counts in this question any more."""
        self.round.phase = Phase.ROUND_OVER
        self.round.answer_deadline_us = None
        self.arbiter.close()  # presses before the next arming are early again

    def _end_round(self, t: int, winner: int | None, why: str) -> list[GameEvent]:
        r = self.round
        self._stop_question()
        r.answering = winner
        r.results.append({"question": r.question, "winner": winner, "result": why, **self.mode.result_record()})
        # the whole order of presses, as it stood when the question ended (the
        # winner event told only those before the announcement)
        ranked = sorted(self.arbiter.buzzes, key=lambda b: (b.t_us, b.station))
        first = ranked[0].t_us if ranked else 0
        events = [GameEvent(EventKind.ROUND_OVER, t, winner, {"result": why, "order": [b.station for b in ranked],
                                                      "margins_us": [b.t_us - first for b in ranked]})]
        if self.finished:
            return events + self._game_over(t)
        every = self.options.round_questions
        round_done = len(self.round_options) > 1 and self.round_number(r.question + 1) != self.round_number()
        if round_done or (every is not None and len(r.results) % every == 0):
            r.board = True
            events += self._podium(t, final=False)
        return events

    def _game_over(self, t: int) -> list[GameEvent]:
        r = self.round
        data: dict[str, Any] = {"scores": self._team_scores()}
        if r.over is not None:
            data["reason"] = r.over
        return [GameEvent(EventKind.GAME_OVER, t, None, data), *self._podium(t, final=True)]

    def _podium(self, t: int, final: bool) -> list[GameEvent]:
        """The fanfare: the top three places (teams when teams play), everyone
        tied for one of them too, for the sound and the record."""
        top = [row["stations"] for row in self.standings() if row["place"] <= 3]
        return [GameEvent(QuizEvent.PODIUM, t, None, {"final": final, "top": top})]

    def _new_question(self, t: int) -> list[GameEvent]:
        self.arbiter.new_question()
        r = self.round
        r.phase = Phase.IDLE
        r.question += 1
        r.answering = None
        r.decided_at_us = None
        r.answer_deadline_us = None
        r.had_wrong = False
        r.revealed = False
        r.tossup = Tossup()
        self.allplay = None
        k = self.round_number()
        self.options, self.mode = self.round_options[k - 1], self.modes[k - 1]
        r.intro = len(self.round_options) > 1 and self.round_starts[k - 1] == r.question
        return self._announce(t)

    def _rules_3(self) -> bool:
        """Rules 3 (options.py): the bowl rebound, all-play's half second and its team mean."""
        return self.options.rules_version >= REBOUND_WHILE_READ

    # -- standings ----------------------------------------------------------
    def standings(self) -> list[dict[str, Any]]:
        """One row per team (a station is a team of one), best first: place
        (equal scores share it), stations, score, right and wrong answers."""
        r = self.round
        members: dict[int, list[int]] = {}
        for s, team in enumerate(self.teams):
            members.setdefault(team, []).append(s)
        scores = self._team_scores()
        rows = sorted(members.items(), key=lambda item: (-scores[item[0]], -r.correct[item[0]], item[0]))
        out: list[dict[str, Any]] = []
        for k, (team, stations) in enumerate(rows):
            score = scores[team]
            place = out[-1]["place"] if out and out[-1]["score"] == score else k + 1
            out.append({"place": place, "team": team, "stations": stations, "score": score,
                        "correct": r.correct[team], "wrong": r.wrong[team], "out": team in r.eliminated})
        return out

    def reaction_rows(self) -> list[dict[str, Any]]:
        """Each player's fastest and median reaction from arming to press."""
        return [{"player": s, "fastest_us": rec.fastest_us, "median_us": rec.median_us(), "presses": rec.count}
                for s, rec in enumerate(self.reactions)]

    # -- views --------------------------------------------------------------
    def _by_station(self, per_team: list[int]) -> list[int]:
        """A per-team count as each station's (a station is a team of one without teams)."""
        return [per_team[team] for team in self.teams]

    def _team_scores(self) -> list[int]:
        """Each team's points: judged, plus the host's corrections."""
        return [judged + fixed for judged, fixed in zip(self.round.scores, self.corrections, strict=True)]

    def _status(self, station: int) -> str:
        r = self.round
        own = self.mode.status(station)
        if own is not None:
            return own
        if self.arbiter.locked(station, self.now_us):
            return "locked"
        if self.teams[station] in r.eliminated:
            return "out"
        if r.sitting_until[station] >= r.question and station in self.arbiter.excluded and not self._answered(station):
            return "sitting"
        if station in self.arbiter.excluded:
            return "out"
        if r.answering == station and r.phase == Phase.ANSWERING:
            return "first"
        if any(b.station == station for b in self.arbiter.buzzes):
            return "queued"
        return "idle"

    def _buzz_left_us(self) -> int | None:
        """How long the buzzers stay open (``buzz_window_us``) while nobody has pressed."""
        r, armed_at, window = self.round, self.arbiter.armed_at_us, self.options.buzz_window_us
        if r.phase != Phase.ARMED or armed_at is None or window is None or self.arbiter.buzzes:
            return None
        return max(0, armed_at + window + r.buzz_window_shift_us - self.now_us)

    def _answered(self, station: int) -> bool:
        return any(b.station == station for b in self.arbiter.buzzes)

    def _question_view(self, number: int) -> dict[str, Any]:
        q = self._question(number)
        choices = list(q.get("choices", ()))
        choices = self.mode.choices_shown(q, choices)
        return {"text": str(q.get("text", "")), "category": str(q.get("category", "")), "points": self._points(number),
                "image": q.get("image"), "choices": choices, "audio": q.get("audio"),
                "video": q.get("video")}

    def first_press(self) -> FirstPress | None:
        """The race this question is now, stated ahead of the presses (``FirstPress``): the
        round's mode's (classic's buzzer race declares one; quiz bowl and all-play none)."""
        return self.mode.first_press()

    def station_statuses(self) -> list[str]:
        """Each station's status, as ``public_view()["status"]``: the lamps read
        it without the whole view (``Box.statuses``)."""
        return [self._status(s) for s in range(self.settings.players)]

    def public_view(self) -> dict[str, Any]:
        r = self.round
        result = self.arbiter.result()
        board = r.board or self.finished
        team_scores = self._team_scores()
        return {
            "game": "quiz",
            "phase": r.phase.value,
            "question": r.question,
            "questions_total": self.questions_total,
            "ask": self._question_view(r.question),
            "answer": str(self._question().get("answer", "")) if r.revealed else None,
            "revealed": r.revealed,
            "rules": self.options.rules,
            "second_points": self.options.second_points,
            "second_press": r.had_wrong,
            "armed": self.arbiter.armed,
            "armed_at_us": self.arbiter.armed_at_us,
            "answering": r.answering,
            "winner": r.answering if r.phase in (Phase.ANSWERING, Phase.ROUND_OVER) else result.winner,
            **self._in_line(result),
            "tie_pick": r.tie_pick if r.phase == Phase.ANSWERING else None,
            "margins_us": {str(b.station): b.t_us - (self.arbiter.first_time_us() or 0) for b in self.arbiter.buzzes},
            "ties": result.ties,
            "early": result.early,
            "lockouts_us": {
                str(s): until - self.now_us for s, until in self.arbiter.locked_until_us.items() if until > self.now_us
            },
            "teams": list(self.teams),
            "team_count": self.team_count,
            "team_names": list(self.team_names),
            "teams_shown": teams_shown(self.teams, self.team_count, self.lobby),
            "team_colors": [list(team_colour(t).rgb) for t in range(self.team_count)],
            "scores": self._by_station(team_scores),
            "team_scores": team_scores,
            "correct": self._by_station(r.correct),
            "wrong": self._by_station(r.wrong),
            "win_correct": self.options.win_correct,
            "out_wrong": self.options.out_wrong,
            "status": self.station_statuses(),
            "answer_left_us": None if r.answer_deadline_us is None else max(0, r.answer_deadline_us - self.now_us),
            "buzz_left_us": self._buzz_left_us(),
            "answer_time_us": self.options.answer_time_us,
            "results": r.results[-VIEW_RESULTS:],
            "questions_done": len(r.results),
            "board": board,
            "standings": self.standings() if board else [],
            "reactions": self.reaction_rows() if board else [],
            "finished": self.finished,
            "round": self._round_view(self.round_number()),
            "rounds": [self._round_view(k + 1) for k in range(len(self.round_options))],
            "round_intro": r.intro and r.phase == Phase.IDLE and not board,
            "all_play": self.mode.all_play_view(),
            "bowl": self.mode.tossup_view(),
        }

    def _in_line(self, result: ArbiterResult) -> dict[str, list[int]]:
        """Who answers after the one answering, in order (``queue``), and each one's place in line
        (``places``: 2 is next; players still tied share a place). After a tie's draw the others of
        the tie come first: they are next (the first of them, or a draw among them again)."""
        r = self.round
        groups = self.arbiter.ranking(contenders_only=True)
        mine = next((k for k, group in enumerate(groups) if any(b.station == r.answering for b in group)), None)
        queue: list[int] = []
        places: list[int] = []
        if mine is None:  # nobody of the presses answers (a tie waits for its draw): those after the first
            queue = [s for s in result.queue if s != r.answering and s not in self.arbiter.excluded]
            return {"queue": queue, "places": list(range(2, len(queue) + 2))}
        for group in groups[mine:]:
            rest = [b.station for b in group if b.station != r.answering]
            queue += rest
            places += [len(places) + 2] * len(rest)
        return {"queue": queue, "places": places}

    def private_view(self, player: int | None) -> dict[str, Any]:
        """A player sees nothing hidden but their own (the round's mode's ``seat_view``: an all-play
        answer locked in, for that seat's phones alone). The host (``None``) sees the answer
        from the start and the next question, to read ahead."""
        if player is not None:
            return self.mode.seat_view(player)
        r = self.round
        q = self._question()
        following = self._question(r.question + 1)
        nxt = None
        if following and not self.finished and (self.questions_total is None or r.question < self.questions_total):
            nxt = {"number": r.question + 1, **self._question_view(r.question + 1),
                   "answer": str(following.get("answer", ""))}
        return {
            "question": {"number": r.question, **self._question_view(r.question),
                         "answer": str(q.get("answer", "")), "alternatives": list(q.get("alternatives", ()))},
            "next": nxt,
            "pack": self.options.pack_title or self.options.pack,
            "legal": self.legal_actions(None),
            # the host reads the whole plan of the night: which round now, every round's rules
            "round": self._host_round_view(self.round_number()),
            "rounds": [self._host_round_view(k + 1) for k in range(len(self.round_options))],
        }

    def _host_round_view(self, k: int) -> dict[str, Any]:
        """A round for the host page: its preset also as the menu names it
        (``rules_name``, English: the page's publisher words it in the box's language)."""
        view = self._round_view(k)
        return {**view, "rules_name": RULE_NAMES.get(view["rules"], view["rules"])}

    def outcome(self) -> Outcome | None:
        """Who won and why (``games.base.Outcome``); None while the game goes on."""
        if not self.finished:
            return None
        scores = self._by_station(self._team_scores())
        reason = EndReason(self.round.over) if self.round.over is not None else EndReason.QUESTIONS_DONE
        return Outcome(best_of(scores), reason, tuple(scores))

    def won_by(self, names: Sequence[str]) -> list[str]:
        """Who won, named as the final results name them: a team quiz's winning teams (its
        stations play together), else the winners' ``names``; nobody while the game goes on
        or when nobody won (``outcome``). The host page and the menu's evening say these."""
        outcome = self.outcome()
        if outcome is None:
            return []
        if self.team_count < len(self.teams):  # as the podium: one row per team
            return [team_name(t, self.team_names) for t in dict.fromkeys(self.teams[s] for s in outcome.winners)]
        return [names[s] if s < len(names) else str(s + 1) for s in outcome.winners]

    def summary(self) -> dict[str, Any]:
        """``winner``/``queue``/``margins_us``/``ties``: the buzz ranking of the
        current question, every counted press on record (also those that then
        answered wrong), margins behind the very first; ``answering``: who has
        the turn now; ``results``: each question's judgement; ``standings``
        and ``reactions``: the leaderboard."""
        r = self.round
        result = self.arbiter.result()
        team_scores = self._team_scores()
        return {
            "winner": result.winner,
            "queue": result.queue,
            "margins_us": result.margins_us,
            "ties": result.ties,
            "early": result.early,
            "answering": r.answering if r.phase == Phase.ANSWERING else None,
            "scores": self._by_station(team_scores),
            "team_scores": team_scores,
            "correct": self._by_station(r.correct),
            "wrong": self._by_station(r.wrong),
            "out": [self.teams[s] in r.eliminated for s in range(self.settings.players)],
            "phase": r.phase.value,
            "question": r.question,
            "results": list(r.results),
            "standings": self.standings(),
            "reactions": self.reaction_rows(),
            "rules": self.options.rules,
            "finished": self.finished,
        }
