"""Pictomania's options, declared once: type, default and range. The spec and
the start menu read this table; the engine checks its settings against it
(``games.base.checked_options``) and only turns the values into its own types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import TIE_WINDOW, Option, tie_window_option
from games.i18n import N_
from games.pictomania.words import available_languages
from games.rules_version import RULES_OPTION, rules_option

#: the rules version new games play (journals keep it; ``games.rules_version``):
#: 2 decided the bell race at the box's horizon; 3 gives the scoring tokens the
#: table below (rules 1-2: 4, 3, 3, 2, 2, the first n - 1 at n players)
RULES_VERSION = 3
#: the oldest rules version the engine still plays (rules 1's bell settle is gone)
OLDEST_RULES = 2
#: the first rules version that deals the scoring tokens from ``SCORING_TOKENS``
TOKEN_TABLE = 3

#: each player's scoring tokens by player count, highest first (rules 3). Five
#: tokens a colour, 4, 3, 2, 2, 1 (30 in 6 colours): all five at 6 players,
#: fewer players a subset. Every set ends in a 1, so a drawer one player
#: missed keeps a 1-star token, as in the rulebook's worked example
#: (5 for right guesses + 2 bonus - 1 kept = 6).
SCORING_TOKENS: dict[int, tuple[int, ...]] = {
    3: (3, 1),
    4: (3, 2, 1),
    5: (4, 3, 2, 1),
    6: (4, 3, 2, 2, 1),
}
#: rules 1-2: one list for every player count, n players use the first n - 1
SCORING_TOKENS_RULES_2: tuple[int, ...] = (4, 3, 3, 2, 2)

#: which deck each round deals from: "rising" (deck 1 to 4) or "easiest" (deck 1 every round),
#: and how the start menu says each
DECK_PLANS: dict[str, str] = {"rising": N_("deck 1 to 4 (harder each round)"), "easiest": N_("deck 1 every round")}
#: how the simulated players pace themselves: "table" as people do (20-60 s of
#: drawing), "demo" quick enough that a demo reaches a reveal within seconds.
#: Only the bots read it; the rules do not.
BOT_PACES = ("table", "demo")


def _flag(default: bool, label: str) -> Option:
    return Option(default, bool, label=label, choices=((default, N_("yes") if default else N_("no")),
                                                       (not default, N_("no") if default else N_("yes"))))


#: the word list when neither the option nor the box's language names one that exists
FALLBACK_WORDS = "en"
#: each word list's language as the start menu says it (a list added under ``words/`` names its language here)
WORD_LISTS: dict[str, str] = {"cs": N_("Czech"), "en": N_("English"), "pl": N_("Polish")}
#: the options' names in older journals -> their names now: the word list was "language", the name
#: of the start menu's own Language row (the menu took the one for the other: ``games.base.MENU_ROWS``)
OLD_NAMES: dict[str, str] = {"language": "words"}


def current_names(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` under today's names (an older journal's, an older ``--option language=cs``): an old
    name's value goes to its new name unless that is given too."""
    current = {name: value for name, value in options.items() if name not in OLD_NAMES}
    for old, new in OLD_NAMES.items():
        if old in options:
            current.setdefault(new, options[old])
    return current


OPTIONS: dict[str, Option] = {
    # names the word list the cards came from; None: the box's language where a list
    # exists, else English (the spec's settings resolve it, so the journal records a code)
    "words": Option(None, str, label=N_("Words"),
                    choices=((None, N_("the box's language")),
                             *((lang, WORD_LISTS.get(lang, lang)) for lang in available_languages()))),
    "deck_plan": Option("rising", str, label=N_("Decks"), choices=tuple(DECK_PLANS.items())),
    # one bonus token fewer; the round ends when the last is taken
    "harsher": _flag(False, N_("Harsher game")),
    # the rulebook lets a player take a lower bonus token or none (the phone's "done"
    # offers them); the bell always takes the highest left
    "token_choice": _flag(True, N_("Phone may take a lower token")),
    # the rulebook's first teaching round: no black sheep, nobody loses the bonus
    "learning_round": _flag(False, N_("First round for learning")),
    "allow_swap": _flag(True, N_("Host may swap a card")),
    # bells and guesses closer than this are a tie, on top of their stamps' precision
    TIE_WINDOW: tie_window_option(),
    # each player's scoring tokens, highest first. None: ``SCORING_TOKENS`` (a dict
    # {players: [n - 1 values]} replaces some of its rows); a list of 5 (how
    # journals of rules 1-2 carry it): n players use its first n - 1
    "scoring_tokens": Option(None, (list, dict)),
    # bonus tokens per player count, highest first; None: the engine's table
    "bonus_tokens": Option(None, dict),
    "bot_pace": Option("table", str),
    # the rules version to play (an old journal replays under its own)
    RULES_OPTION: rules_option(RULES_VERSION, oldest=OLDEST_RULES),
}

#: options of older journals (rules 1), accepted and no longer used: the phones'
#: own precision ties close guesses, the box's horizon waits for late bells
RETIRED = frozenset({"guess_tie_us", "bell_tie_us", "bell_settle_us"})

