"""Quiz buzzer: the box's own mode for bars, clubs and classrooms."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.base import GameSettings, GameSpec, LampContest, OptionError
from games.i18n import LANGUAGES, N_
from games.quiz.allplay import ALL_PLAY
from games.quiz.bots import new_bots, new_host
from games.quiz.buttons import BUTTONS
from games.quiz.engine import PRESETS, new_quiz_engine
from games.quiz.options import OPTIONS, PACKS_DIR, SHIPPED_PACKS
from games.quiz.packs import Pack, load_pack
from games.quiz.phone import panel as phone_panel


def pack_path(name: str) -> Path:
    """A shipped pack's file by its name, else the name as a path."""
    shipped = PACKS_DIR / f"{name}.csv"
    return shipped if name in SHIPPED_PACKS and shipped.is_file() else Path(name).expanduser()


def pack_questions(pack: Pack) -> list[dict[str, Any]]:
    """The pack as the engine asks it: plain JSON, so the journal's header
    holds every question and a replay needs no pack file (an image is named
    by its resolved path; a journaled game asks for its copy kept beside the
    journal by content, controller/media.py, so a replay elsewhere shows it)."""
    return [{"text": q.text, "answer": q.answer, "alternatives": list(q.alternatives), "category": q.category,
             "points": q.points, "image": None if q.image is None else str(q.image), "choices": list(q.choices)}
            for q in pack.questions]


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
        size = options.get("team_size") or PRESETS.get(rules or "classic", {}).get("team_size")
        if isinstance(size, int) and options.get("teams") is None and players < 2 * size:
            raise OptionError(N_("teams of {size} need at least {least} stations, not {players}: add stations or "
                                 "choose other rules"), size=size, least=2 * size, players=players)
        name = options.get("pack")
        all_play_rounds = rules == ALL_PLAY or any(isinstance(r, dict) and r.get("rules") == ALL_PLAY
                                                   for r in options.get("rounds") or ())
        if all_play_rounds and name is None and options.get("pack_questions") is None:
            raise OptionError(N_("an all-play round asks multiple-choice questions: choose a pack that has some "
                                 "(option 'pack'), or other rules"))
        if name is not None and isinstance(name, str) and options.get("pack_questions") is None:
            pack = load_pack(pack_path(name))  # a PackError is one line naming the file, the line and the fix
            questions = chosen_questions(pack, options.get("categories"), bool(options.get("shuffle")), seed)
            if rules == ALL_PLAY:  # everyone answers on their buttons: multiple choice only
                questions = [q for q in questions if all_play_fits(q, None)]
                if not questions:
                    raise OptionError(N_("the pack {pack} has no multiple-choice question for an all-play quiz: "
                                         "give its questions choices, or choose other rules"), pack=pack.source.name)
            if isinstance(options.get("rounds"), list):
                questions = round_questions(questions, options["rounds"], pack)
            options = {**options, "pack_questions": questions, "pack_title": pack.title,
                       "pack_left_out": len(pack.left_out)}
        return super().settings(players, seed, **options)


def round_questions(questions: list[dict[str, Any]], rounds: list[Any], pack: Pack) -> list[dict[str, Any]]:
    """Each round's questions from the pack, in its order (or the shuffle's),
    none asked twice: of the round's categories (any without), as many as
    the round says (every one left without); each marked with its round."""
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
        if spec.get("rules") == ALL_PLAY:
            fits = [q for q in fits if all_play_fits(q, spec.get("choices"))]
        count = spec.get("questions")
        mine = fits[:count] if isinstance(count, int) and count > 0 else fits
        if not mine:
            raise OptionError(N_("round {k} has no question left in the pack {pack}: give it other categories or fewer "
                                 "questions to the rounds before it"), k=k, pack=pack.source.name)
        taken = {id(q) for q in mine}
        left = [q for q in left if id(q) not in taken]
        out += [{**q, "round": k} for q in mine]
    return out


def all_play_fits(question: dict[str, Any], most: Any) -> bool:
    """An all-play question is multiple choice, with at most ``most`` choices
    when the round says (2 for stations with two buttons, a and b)."""
    count = len(question.get("choices") or ())
    return count > 0 and (not isinstance(most, int) or count <= most)


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
    options=OPTIONS,  # games/quiz/options.py: defaults None, the engine's own (QuizOptions) apply
    # a demo without a pack ends after 12 questions; with a pack, after its last one
    demo_options={"buzz_window_us": 8_000_000, "answer_time_us": 6_000_000, "demo_questions": 12},
    rules_version=2,  # 2: packs, presets, the winner announced when no later press can tie (no fixed 2 ms settle)
    host_aliases={"next": ("reveal", "next")},  # the host's next button shows the answer first, then moves on
    # m and e: the quiz bowl moderator read past the power mark / to the end of the tossup
    host_keys={"p": "pick", "v": "reveal", "l": "leaderboard", "m": "power", "e": "read"},
    logged_events={
        "question": N_("a new question"), "reveal": N_("the answer is shown"), "podium": N_("the podium"),
        "round_start": N_("a new round begins"),
        "all_play_open": N_("an all-play question opens"), "all_play_reveal": N_("the all-play answers are shown"),
        "power_mark": N_("the reading passed the power mark"), "read": N_("the tossup was read to the end"),
        "bonus": N_("a bonus for the team that got the tossup"), "bonus_part": N_("a bonus part judged"),
        "team": N_("a player joined a team"),
    },
    event_sounds={"podium": "fanfare"},  # the podium: a rising C-E-G-C (controller/sound.py)
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
