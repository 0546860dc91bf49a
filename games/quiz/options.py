"""The quiz's options, declared once: their names, types and ranges for the
spec, the start menu and the engine (which reads them through
``games.base.checked_options``). Every default here is None, so a journal's
header keeps only what was chosen; ``QuizOptions`` (engine.py) holds the
values the engine plays when an option is not set, under the rule preset's."""

from __future__ import annotations

from pathlib import Path

from games.base import STATION_CHOICES, TIE_WINDOW, Option
from games.i18n import N_
from games.rules_version import RULES_OPTION, rules_option

#: the rules version new games play (journals keep it; ``games.rules_version``):
#: 2 is packs, presets and the winner announced when no later press can tie;
#: 3 lets the other team buzz while a negged tossup is read on (quiz bowl, NAQT),
#: where 2 closed the buzzers until the moderator read it to the end; and in
#: all-play gives a right answer in the first half second all its points and a
#: team its members' mean (2: the formula from 0 s, the members' sum); 4: the host's reveal
#: while an all-play question is open closes it first (3 showed the answer with the question
#: still open, and a pick made after it scored)
RULES_VERSION = 4
#: the oldest rules version the engine still plays (1's fixed 2 ms settle is gone)
OLDEST_RULES = 2
#: the first rules version whose bowl buzzers stay open for the other team after a neg (and all-play's changes)
REBOUND_WHILE_READ = 3
#: the first rules version whose reveal closes an open all-play question
REVEAL_CLOSES_ALL_PLAY = 4

#: the packs that ship with the box, by name (the file's stem), and what the menu calls them
PACKS_DIR = Path(__file__).resolve().parent / "packs"
SHIPPED_PACKS: dict[str, str] = {
    "en-general": N_("general knowledge (English)"),
    "cs-general": N_("general knowledge (Czech)"),
    "pl-general": N_("general knowledge (Polish)"),
    "en-music": N_("music round (demo)"),
    "en-video": N_("video round (demo)"),
}


def language_pack(language: str) -> str | None:
    """The shipped pack in ``language`` (the menu starts on it): ``cs-general`` for "cs"."""
    name = f"{language}-general"
    return name if name in SHIPPED_PACKS else None
RULE_NAMES: dict[str, str] = {
    "classic": N_("classic"),
    "race": N_("5 right win, 3 wrong out"),
    "sit-out": N_("wrong: sit out a question"),
    "penalty": N_("wrong: minus a point"),
    "second-chance": N_("next in line for half"),
    "teams": N_("teams of two"),
    "all-play": N_("all play: everyone answers"),
    "bowl": N_("quiz bowl: tossups and bonuses"),
}

#: the menu's quiz bowl night: a warm-up under the quiz's rules, then tossups with
#: powers, negs and bonuses (tossups only when nobody has bonuses to read:
#: ``QuizSpec.menu_fit``)
BOWL_NIGHT: list[dict[str, object]] = [{"questions": 5}, {"rules": "bowl", "questions": 10}]

OPTIONS: dict[str, Option] = {
    # the menu starts on a shipped pack (``QuizSpec.menu_starts``), never on a quiz with no
    # questions (the menu puts the packs folder's own packs before these)
    "pack": Option(None, str, label=N_("Question pack"),
                   choices=(*((name, label) for name, label in SHIPPED_PACKS.items()),
                            (None, N_("host's own")))),
    "shuffle": Option(None, bool, label=N_("Question order"),
                      choices=((None, N_("as in the pack")), (True, N_("shuffled")))),
    "categories": Option(None, list),
    # the quiz as rounds, each with its preset, timer, points and questions (docs/quiz.md)
    "team_names": Option(None, list),
    # all-play: the most choices a question offers (a round's "choices" for one round), and
    # how many answer buttons the smallest station has (the box fills it in from the wiring profile)
    "choices": Option(None, int, low=2, high=6),
    STATION_CHOICES: Option(None, int, low=0, high=6, internal=True),
    "rounds": Option(None, list, label=N_("Rounds"),
                     choices=((None, N_("one round")), ([{"questions": 10}] * 2, N_("2 rounds of 10")),
                              ([{"questions": 5}] * 4, N_("4 rounds of 5")),
                              (BOWL_NIGHT, N_("5 warm-up, then 10 quiz bowl")))),
    "rules": Option(None, str, label=N_("Rules"),
                    choices=tuple((None if name == "classic" else name, label) for name, label in RULE_NAMES.items())),
    "answer_time_us": Option(None, int, low=0, label=N_("Answer timer"),
                             choices=((None, N_("off")), (10_000_000, N_("10 s")), (20_000_000, N_("20 s")), (30_000_000, N_("30 s")))),
    "questions": Option(None, int, low=1, label=N_("Questions"), choices=((None, N_("until stopped")), (10, "10"), (20, "20"))),
    "teams": Option(None, object, label=N_("Teams"), choices=((None, N_("off")), (2, N_("pairs")))),
    "demo_questions": Option(None, int, low=1),
    "pack_questions": Option(None, list, internal=True),
    "pack_title": Option(None, str, internal=True),
    "pack_left_out": Option(None, int, low=0, internal=True),
    "win_correct": Option(None, int, low=1, high=1000),
    "out_wrong": Option(None, int, low=1, high=1000),
    "sit_out": Option(None, int, low=0, high=100),
    "second_points": Option(None, int, low=0, high=100),
    "team_size": Option(None, int, low=2, high=8),
    "round_questions": Option(None, int, low=1, high=1000),
    "points_correct": Option(None, int, low=0, high=1000),
    "points_wrong": Option(None, int, low=0, high=1000),
    # quiz bowl (games/quiz/bowl_scoring.py): a power, a neg, the bonus's parts and each part's points
    "power_points": Option(None, int, low=0, high=1000),
    "neg_points": Option(None, int, low=0, high=1000),
    "bonus_parts": Option(None, int, low=0, high=10),
    "bonus_points": Option(None, int, low=0, high=1000),
    # the box's own timing and arbitration (``QuizOptions`` has their values)
    "lockout_us": Option(None, int, low=0),
    TIE_WINDOW: Option(None, int, low=0, high=1_000_000),
    "queue_window_us": Option(None, int, low=0),
    "settle_us": Option(None, int, low=0),
    "buzz_window_us": Option(None, int, low=0),
    "after_wrong": Option(None, str),
    # all-play with teams: a team scores its members' mean (None, the default) or their "sum"
    "team_points": Option(None, str),
    RULES_OPTION: rules_option(RULES_VERSION, oldest=OLDEST_RULES),
}
