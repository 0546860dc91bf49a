"""Quiz buzzer: the box's own mode for bars, clubs and classrooms."""

from __future__ import annotations

import difflib
import logging
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.base import (
    GENERIC_HOST_BUTTONS,
    STATION_CHOICES,
    ClipCues,
    GameSettings,
    GameSpec,
    LampContest,
    OptionError,
)
from games.i18n import LANGUAGES, N_, Nn_, _, current_language
from games.quiz.allplay_scoring import ALL_PLAY, right_choice
from games.quiz.bots import new_bots, new_host
from games.quiz.bowl_scoring import BOWL, TOSSUPS_ONLY, bonuses_to_read
from games.quiz.buttons import BUTTONS
from games.quiz.engine import PRESETS, QuizEvent, QuizOptions, most_choices, new_quiz_engine
from games.quiz.options import OPTIONS, PACKS_DIR, RULES_VERSION, SHIPPED_PACKS, language_pack
from games.quiz.packs import Pack, load_pack
from games.quiz.phone import panel as phone_panel
from games.quiz.strip import worded_strip

log = logging.getLogger(__name__)


def pack_path(name: str) -> Path:
    """A shipped pack's file by its name, else the name as a path."""
    shipped = PACKS_DIR / f"{name}.csv"
    return shipped if name in SHIPPED_PACKS and shipped.is_file() else Path(name).expanduser()


def near_miss(name: str) -> None:
    """A pack name that is no file but close to a shipped pack's ("cs-genral"):
    one line naming the pack meant and the others."""
    if name in SHIPPED_PACKS or pack_path(name).exists():
        return
    close = difflib.get_close_matches(name, list(SHIPPED_PACKS), n=1, cutoff=0.6)
    if close:
        raise OptionError(N_("no question pack {name!r} (did you mean {close}?); the shipped packs are {known}, "
                             "or give a pack file's path"), name=name, close=close[0], known=", ".join(SHIPPED_PACKS))


def pack_questions(pack: Pack) -> list[dict[str, Any]]:
    """The pack as the engine asks it: plain JSON, so the journal's header
    holds every question and a replay needs no pack file (an image is named
    by its resolved path; a journaled game asks for its copy kept beside the
    journal by content, controller/box/media.py, so a replay elsewhere shows it)."""
    def clip(file: Path | None, start_s: float, length_s: float | None, on_show: bool) -> dict[str, Any]:
        return {"file": str(file), "start_s": start_s, "length_s": length_s, **({"play": "shown"} if on_show else {})}

    return [{"text": q.text, "answer": q.answer, "alternatives": list(q.alternatives), "category": q.category,
             "points": q.points, "image": None if q.image is None else str(q.image), "choices": list(q.choices),
             # an audio or video question's clip (only then: a pack without clips is journaled as before)
             **({} if q.audio is None else {"audio": clip(q.audio, q.audio_start_s, q.audio_length_s,
                                                          q.audio_on_show)}),
             **({} if q.video is None else {"video": clip(q.video, q.video_start_s, q.video_length_s,
                                                          q.audio_on_show)})}
            for q in pack.questions]


#: the quiz bowl moderator's marks: read past the power mark, read to the end
BOWL_MARKS = ("power", "read")


def unused_host_actions(view: Mapping[str, Any]) -> tuple[str, ...]:
    """The bowl marks mean something only while a bowl round (or a bowl quiz)
    is played: the help lists ``m`` and ``e`` then, never in another preset."""
    return () if view.get("bowl") is not None else BOWL_MARKS


#: who cannot win the lamp of an armed question: pressed too early, out, sitting it out
_NOT_COMPETING = frozenset({"locked", "out", "sitting"})


def lamp_contest(view: Mapping[str, Any]) -> LampContest | None:
    """An armed question is a race for the first lamp; it is decided when the
    turn is given (``answering``), a tie is called, or the question closes."""
    armed_at = view.get("armed_at_us")
    if armed_at is None:
        return None
    key = f"q{view.get('question')}@{armed_at}"
    phase = view.get("phase")
    if phase == "armed":
        status = view.get("status", [])
        return LampContest(key, tuple(s for s, st in enumerate(status) if st not in _NOT_COMPETING), armed_at)
    if phase == "answering":
        winners: tuple[int, ...] = (view["answering"],)
    elif phase == "tie":
        ties = view.get("ties") or [[]]
        winners = tuple(ties[0])
    else:
        winner = view.get("winner")
        winners = () if winner is None else (winner,)
    return LampContest(key, (), armed_at, winners)


@dataclass(frozen=True)
class QuizSpec(GameSpec):
    """The quiz's spec: its settings read the chosen pack into the options."""

    def settings(self, players: int, seed: int = 0, **options: Any) -> GameSettings:
        rules = options.get("rules")
        if rules is not None and rules not in PRESETS:
            raise OptionError(N_("option 'rules' is {value!r}: give one of {known} (see docs/quiz.md)"), value=rules,
                              known=", ".join(PRESETS))
        for read_here in ("choices", STATION_CHOICES):  # read below: their type and range first
            if read_here in options:
                OPTIONS[read_here].check(read_here, options[read_here])
        size = options.get("team_size") or PRESETS.get(rules or "classic", {}).get("team_size")
        if isinstance(size, int) and options.get("teams") is None and players < 2 * size:
            raise OptionError(N_("teams of {size} need at least {least} stations, not {players}: add stations or "
                                 "choose other rules"), size=size, least=2 * size, players=players)
        name = options.get("pack")
        given_rounds = options.get("rounds")
        rounds: list[Any] = given_rounds if isinstance(given_rounds, list) else []  # else: refused below
        all_play_rounds = rules == ALL_PLAY or any(isinstance(r, dict) and r.get("rules") == ALL_PLAY for r in rounds)
        if all_play_rounds and name is None and options.get("pack_questions") is None:
            raise OptionError(N_("an all-play round asks multiple-choice questions: choose a pack that has some "
                                 "(option 'pack'), or other rules"))
        buttons = options.get(STATION_CHOICES)
        if all_play_rounds and buttons is not None and buttons < 2:
            raise OptionError(N_("an all-play round is answered on each station's buttons a and b (c, d ...), and "
                                 "these stations have {n}: choose a wiring profile with answer buttons, or other "
                                 "rules"), n=buttons)
        if name is not None and isinstance(name, str) and options.get("pack_questions") is None:
            near_miss(name)
            pack = load_pack(pack_path(name))  # a PackError is one line naming the file, the line and the fix
            questions = chosen_questions(pack, options.get("categories"), bool(options.get("shuffle")), seed)
            fitted = FittedChoices()
            if rules == ALL_PLAY:  # everyone answers on their buttons: multiple choice only
                questions = multiple = [q for q in questions if q.get("choices")]
                if multiple and not isinstance(given_rounds, list):  # with rounds, each round fits its own
                    most = most_choices(options.get("choices"), buttons)
                    questions = [asked for _q, asked in fitted.take(multiple, most, asked_count(options))]
                    if not questions and most is not None:  # every answer lies past the choices offered
                        raise answers_past(most, buttons, pack)
                if not questions:
                    raise OptionError(N_("the pack {pack} has no multiple-choice question for an all-play quiz: "
                                         "give its questions choices, or choose other rules"), pack=pack.source.name)
            if isinstance(given_rounds, list):
                questions = round_questions(questions, given_rounds, pack, fitted, options)
            fitted.log()
            options = {**options, "pack_questions": questions, "pack_title": pack.title,
                       "pack_left_out": len(pack.left_out)}
        settings = super().settings(players, seed, **options)
        QuizOptions.from_settings(settings)  # the options' sense too, one line now, before any box is made
        return settings

    def menu_starts(self) -> dict[str, Any]:
        """The menu's pack row starts on the shipped pack in the box's language
        (a Polish box: the Polish pack), when the packs folder offers none of the host's own; in a
        language without one, the first shipped pack: the menu never starts a quiz without questions
        (``play``'s default, the host's own questions read aloud, is a row away)."""
        pack = language_pack(current_language()) or next(iter(SHIPPED_PACKS), None)
        return {} if pack is None else {"pack": pack}

    def menu_fit(self, options: Mapping[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
        """The menu's bowl night with a pack has no bonuses to read: its bowl
        rounds play tossups only (``bonus_parts`` 0, their card says so)
        rather than stopping at a bonus nobody can read, and the menu says
        so. A round that sets its own ``bonus_parts`` keeps it."""
        given = options.get("rounds")
        rounds: list[Any] = given if isinstance(given, list) else []
        bowl = [k for k, r in enumerate(rounds) if isinstance(r, dict) and r.get("rules") == BOWL
                and "bonus_parts" not in r]
        if not bowl or bonuses_to_read(options.get("pack")):
            return dict(options), ()
        fitted = [{**r, "bonus_parts": 0} if k in bowl else r for k, r in enumerate(rounds)]
        return {**options, "rounds": fitted}, (TOSSUPS_ONLY,)


def asked_count(options: Mapping[str, Any]) -> int | None:
    """How many questions a quiz of one round asks at most (its ``questions``;
    None: every one): the all-play fitting stops there, so the start's line
    names only questions that can be asked."""
    count = options.get("questions")
    return count if isinstance(count, int) and not isinstance(count, bool) and count > 0 else None


#: how much of a question's text the start's log line names it by
NAMED_LENGTH = 40


@dataclass
class FittedChoices:
    """The all-play questions fitted to the choices the stations can answer:
    a question with more keeps its first ones when its answer is among them
    (stations and phones alike see only those: nobody has a choice the others
    lack), else it is left out of the all-play round. Said once at the start."""

    #: the questions named in the log line, by the choices kept (ordered, each once)
    trimmed: dict[int, dict[str, None]] = field(default_factory=dict)
    left_out: dict[int, dict[str, None]] = field(default_factory=dict)

    def take(self, questions: list[dict[str, Any]], most: int | None,
             count: int | None = None) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """The first ``count`` (all without) multiple-choice questions of
        ``questions`` that fit ``most`` choices: each as (the pack's, as asked)."""
        taken: list[tuple[dict[str, Any], dict[str, Any]]] = []
        for question in questions:
            if count is not None and len(taken) >= count:
                break
            asked = self.fit(question, most)
            if asked is not None:
                taken.append((question, asked))
        return taken

    def fit(self, question: dict[str, Any], most: int | None) -> dict[str, Any] | None:
        """The question as an all-play round asks it (None: not at all)."""
        choices = list(question.get("choices") or ())
        if not choices:
            return None
        if most is None or len(choices) <= most:
            return question
        named = shortened(str(question.get("text", "")))
        if (right := right_choice(question)) is not None and right < most:
            self.trimmed.setdefault(most, {})[named] = None
            return {**question, "choices": choices[:most]}
        self.left_out.setdefault(most, {})[named] = None
        return None

    def log(self) -> None:
        """One line at the start: which questions were cut to fewer choices, which left out."""
        parts = [_("asked with only their first {n} choices: {questions}").format(n=n, questions=", ".join(names))
                 for n, names in sorted(self.trimmed.items())]
        parts += [_("left out of all-play, their answer is not among the first {n}: {questions}").format(
            n=n, questions=", ".join(names)) for n, names in sorted(self.left_out.items())]
        if parts:
            log.warning("%s", _("all-play questions with more choices than the stations' buttons (or the round) "
                                "allow: {parts}").format(parts="; ".join(parts)))


def answers_past(most: int, buttons: Any, pack: Pack, k: int | None = None) -> OptionError:
    """The refusal of an all-play quiz (round ``k``) whose every multiple-choice
    question was left out, its answer past the ``most`` choices offered: it
    names what limits them (the stations' buttons, else the choices given)
    and the fix, not "no choices" (the questions have choices)."""
    by_buttons = isinstance(buttons, int) and buttons <= most
    if k is None and by_buttons:
        return OptionError(Nn_("these stations have {n} answer button, and every multiple-choice question of the pack "
                               "{pack} chosen has its answer past it: choose a wiring profile with more answer "
                               "buttons, other categories, or other rules",
                               "these stations have {n} answer buttons, and every multiple-choice question of the "
                               "pack {pack} chosen has its answer past the first {n} choices: choose a wiring profile "
                               "with more answer buttons, other categories, or other rules"), n=most,
                           pack=pack.source.name)
    if k is None:
        return OptionError(Nn_("the quiz offers {n} choice (option 'choices'), and every multiple-choice question of "
                               "the pack {pack} chosen has its answer past it: give more choices, other categories, "
                               "or other rules",
                               "the quiz offers {n} choices (option 'choices'), and every multiple-choice question of "
                               "the pack {pack} chosen has its answer past them: give more choices, other categories, "
                               "or other rules"), n=most, pack=pack.source.name)
    if by_buttons:
        return OptionError(Nn_("round {k}: these stations have {n} answer button, and every multiple-choice question "
                               "left for the round has its answer past it: choose a wiring profile with more answer "
                               "buttons, other categories for the round, or other rules",
                               "round {k}: these stations have {n} answer buttons, and every multiple-choice question "
                               "left for the round has its answer past the first {n} choices: choose a wiring profile "
                               "with more answer buttons, other categories for the round, or other rules"), k=k, n=most)
    return OptionError(Nn_("round {k} offers {n} choice, and every multiple-choice question left for it has its answer "
                           "past it: give the round more choices, other categories, or other rules",
                           "round {k} offers {n} choices, and every multiple-choice question left for it has its "
                           "answer past them: give the round more choices, other categories, or other rules"),
                       k=k, n=most)


def shortened(text: str) -> str:
    """A question named in a log line: its text, quoted, cut short."""
    return repr(text if len(text) <= NAMED_LENGTH else text[: NAMED_LENGTH - 1] + "…")


def round_questions(questions: list[dict[str, Any]], rounds: list[Any], pack: Pack,
                    fitted: FittedChoices | None = None,
                    options: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """Each round's questions from the pack, in its order (or the shuffle's),
    none asked twice: of the round's categories (any without), as many as
    the round says (every one left without); each marked with its round. An
    all-play round's are fitted to its choices and the stations' buttons."""
    fitted, options = fitted or FittedChoices(), options or {}
    left = list(questions)
    out: list[dict[str, Any]] = []
    for k, spec in enumerate(rounds, 1):
        spec = spec if isinstance(spec, dict) else {}
        wanted = spec.get("categories")
        if wanted is not None:
            missing = [c for c in wanted if c not in pack.categories()] if isinstance(wanted, list) else [str(wanted)]
            if missing:
                raise OptionError(N_("round {k}: categories {missing} not in the pack {pack}; its categories: {known}"),
                                  k=k, missing=", ".join(map(str, missing)), pack=pack.source.name,
                                  known=", ".join(pack.categories()) or "-")
        fits = [q for q in left if wanted is None or q["category"] in wanted]
        count = spec.get("questions")
        count = count if isinstance(count, int) and count > 0 else None
        if (spec.get("rules") or options.get("rules")) == ALL_PLAY:
            most = most_choices(spec["choices"] if "choices" in spec else options.get("choices"),
                                options.get(STATION_CHOICES))
            mine = fitted.take(fits, most, count)
            if not mine and most is not None and any(q.get("choices") for q in fits):
                raise answers_past(most, options.get(STATION_CHOICES), pack, k)
        else:
            mine = [(q, q) for q in (fits if count is None else fits[:count])]
        if not mine:
            raise OptionError(N_("round {k} has no question left in the pack {pack}: give it other categories or fewer "
                                 "questions to the rounds before it"), k=k, pack=pack.source.name)
        taken = {id(q) for q, _asked in mine}
        left = [q for q in left if id(q) not in taken]
        out += [{**asked, "round": k} for _q, asked in mine]
    return out


def chosen_questions(pack: Pack, categories: Any, shuffle: bool, seed: int) -> list[dict[str, Any]]:
    """The pack's questions the quiz asks: those of the chosen categories (all
    without a choice), in the pack's order or shuffled by the game's seed. The
    result goes into the settings, so the journal's header keeps the very
    order asked and a replay asks the same without the pack or the seed's draw."""
    questions = pack_questions(pack)
    if categories is not None:
        wanted = [c for c in categories if isinstance(c, str)] if isinstance(categories, list) else []
        known = pack.categories()
        missing = [c for c in wanted if c not in known]
        if missing or not wanted:
            raise OptionError(N_("option 'categories': {missing} not in the pack {pack}; its categories: {known}"),
                              missing=", ".join(missing) or "-", pack=pack.source.name, known=", ".join(known) or "-")
        questions = [q for q in questions if q["category"] in wanted]
    if shuffle:
        random.Random(f"quiz-shuffle-{seed}").shuffle(questions)
    return questions


SPEC = QuizSpec(
    name="quiz",
    title=N_("Quiz buzzer"),
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=2,
    max_players=16,
    new_engine=new_quiz_engine,
    buttons=BUTTONS,
    new_bots=new_bots,
    new_host=new_host,
    scene="games.quiz.scene:QuizScene",
    strip_wording=worded_strip,  # games/quiz/strip.py: the scene's strip, and the phones' pages'
    own_results=True,  # its scene draws its own end screen (the scene's own_results)
    options=OPTIONS,  # games/quiz/options.py: defaults None, the engine's own (QuizOptions) apply
    # a demo without a pack ends after 12 questions; with a pack, after its last one
    demo_options={"buzz_window_us": 8_000_000, "answer_time_us": 6_000_000, "demo_questions": 12},
    rules_version=RULES_VERSION,  # options.py: what each version changed
    host_buttons=GENERIC_HOST_BUTTONS,  # arms, judges, undoes, moves on and resets: every generic button
    host_aliases={"next": ("reveal", "next")},  # the host's next button shows the answer first, then moves on
    # m and e: the quiz bowl moderator read past the power mark / to the end of the tossup
    host_keys={"p": "pick", "v": "reveal", "l": "leaderboard", "m": "power", "e": "read"},
    # a presenter clicker's next: arm the waiting question, reveal the judged one's answer, then move on
    # (armed, answering, a tie, a bonus: the host's own keys decide, the clicker does nothing)
    host_steps={"idle": ("arm",), "round_over": ("reveal", "next"), "all_play": ("reveal",),
                "armed": (), "answering": (), "tie": (), "bonus": ()},
    # the host page's buttons for the quiz's own actions (pick and next are the common words)
    host_labels={"reveal": N_("Reveal"), "leaderboard": N_("Leaderboard"), "power": N_("Power mark"),
                 "read": N_("Read to the end")},
    unused_host_actions=unused_host_actions,  # m and e are listed in the help only while bowl is played
    logged_events={
        QuizEvent.QUESTION: N_("a new question"), QuizEvent.REVEAL: N_("the answer is shown"),
        QuizEvent.PODIUM: N_("the podium"), QuizEvent.ROUND_START: N_("a new round begins"),
        QuizEvent.ALL_PLAY_OPEN: N_("an all-play question opens"),
        QuizEvent.ALL_PLAY_REVEAL: N_("the all-play answers are shown"),
        QuizEvent.POWER_MARK: N_("the reading passed the power mark"),
        QuizEvent.READ: N_("the tossup was read to the end"),
        QuizEvent.LOCKED_OUT: N_("{player} pressed, but their team answered this tossup wrong"),
        QuizEvent.BONUS: N_("a bonus for the team that got the tossup"), QuizEvent.BONUS_PART: N_("a bonus part judged"),
        QuizEvent.TEAM: N_("a player joined a team"),
        QuizEvent.TEAM_NAMED: N_("the host renamed a team"),
    },
    event_sounds={QuizEvent.PODIUM: "fanfare"},  # the podium: a rising C-E-G-C (controller/screen/sound.py)
    # an audio or video question's clip: it starts when the buzzers open (or as it is shown, as the pack
    # says), pauses while someone answers (the common winner, tie and host's pause, and these) and stops
    # once the answer is out
    clip_cues=ClipCues(
        shown=frozenset({QuizEvent.QUESTION}),
        opening=frozenset({QuizEvent.ARMED, QuizEvent.ALL_PLAY_OPEN}),
        pausing=frozenset({QuizEvent.NEXT_IN_LINE, QuizEvent.BONUS}),
        stopping=frozenset({QuizEvent.REVEAL, QuizEvent.NEXT, QuizEvent.ALL_PLAY_REVEAL, QuizEvent.PODIUM}),
    ),
    # all-play: a lit bell says "your answer is in"; after the reveal only the right ones stay lit
    status_labels={"queued": N_("IN LINE"), "sitting": N_("SITS OUT"), "answered": N_("ANSWERED"),
                   "right": N_("RIGHT"), "missed": N_("WRONG")},
    phase_labels={"all_play": N_("everyone answers"), "bonus": N_("bonus")},
    status_lights={"sitting": "off", "answered": "on", "right": "on", "missed": "off"},
    lamp_contest=lamp_contest,
    phone_panel=phone_panel,  # used by a quiz with phone seats: team sign-up, all-play answers
    summary=N_("The host asks, the first bell answers: the box decides who pressed first, to the microsecond, "
                "and keeps the others in line. A wrong answer passes the question to the next in line."),
)
