"""Pictomania on the box: everyone draws on paper at once, guesses arrive from
phones, the station bell takes the bonus tokens (rules: README.md here).

``engine`` is the pure rules core (the word cards are passed in: ``new_engine``
loads the ``language`` option's list), ``bots`` the simulated players and host,
``words`` our own word lists, ``scene`` the shared screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSettings, GameSpec, Option
from games.i18n import N_
from games.pictomania import phone
from games.pictomania.bots import new_host, new_phone_bots
from games.pictomania.buttons import BUTTONS
from games.pictomania.engine import (
    ADMIT,
    GUESS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NEXT,
    REVEAL,
    START,
    SWAP,
    DeckPlan,
    PictomaniaEngine,
    PictomaniaOptions,
)
from games.pictomania.words import available_languages, load_words

_DEFAULTS = PictomaniaOptions()


def new_engine(settings: GameSettings) -> PictomaniaEngine:
    language = settings.options.get("language", _DEFAULTS.language)
    return PictomaniaEngine(settings, load_words(language))


def _flag(name: str, label: str) -> Option:
    default = getattr(_DEFAULTS, name)
    return Option(default, bool, label=label, choices=((default, "yes" if default else "no"),
                                                       (not default, "no" if default else "yes")))


#: every option; the defaults are the engine's own ``PictomaniaOptions``
OPTIONS: Mapping[str, Option] = {
    "language": Option(_DEFAULTS.language, str, label="Words",
                       choices=tuple((lang, lang) for lang in available_languages())),
    "deck_plan": Option(_DEFAULTS.deck_plan.value, str, label="Decks",
                        choices=tuple((p.value, p.value) for p in DeckPlan)),
    "harsher": _flag("harsher", "Harsher game"),
    "token_choice": _flag("token_choice", "Phone may take a lower token"),
    "learning_round": _flag("learning_round", "First round for learning"),
    "allow_swap": _flag("allow_swap", "Host may swap a card"),
    "guess_tie_us": Option(_DEFAULTS.guess_tie_us, int, low=0, high=1_000_000),
    "bell_tie_us": Option(_DEFAULTS.bell_tie_us, int, low=0, high=1_000_000),
    "bell_settle_us": Option(_DEFAULTS.bell_settle_us, int, low=0, high=2_000_000),
    "scoring_tokens": Option(list(_DEFAULTS.scoring_tokens), list),
    "bonus_tokens": Option(None, dict),  # per player count; None: the engine's table
}


def scenario_step(step: Mapping[str, Any], t_us: int) -> Action | None:
    """``{"guess": {"drawer": D, "number": N}, "player": P}`` from P's phone;
    ``{"start"|"reveal"|"next": true}``, ``{"swap": "A"}`` from the host."""
    if "guess" in step:
        return Action(GUESS, t_us, step.get("player"), dict(step["guess"]))
    if "swap" in step:
        return Action(SWAP, t_us, None, {"card": step["swap"]})
    for kind in (START, REVEAL, NEXT):
        if step.get(kind):
            return Action(kind, t_us)
    if "admit" in step:
        return Action(ADMIT, t_us, step["admit"])
    return None


SPEC = GameSpec(
    summary=N_("Everyone draws a word at once and guesses the other drawings on the phone; ring when done. Quick right guesses score, wrong ones cost."),
    name="pictomania",
    title="Pictomania",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new_engine=new_engine,
    buttons=BUTTONS,
    new_bots=new_phone_bots,
    new_host=new_host,
    scenario_step=scenario_step,
    scene="games.pictomania.scene:PictomaniaScene",
    options=OPTIONS,
    host_aliases={"arm": (START, NEXT, REVEAL), "next": (NEXT, START, REVEAL)},
    host_keys={"s": START, "v": REVEAL},  # space (arm) and n (next) go through host_aliases
    # the host remote's words (docs/companion.md)
    host_labels={START: N_("Start drawing"), REVEAL: N_("Reveal"), NEXT: N_("Next round")},
    phase_labels={"cards": N_("Word cards"), "drawing": N_("Drawing"), "review": N_("Review"),
                  "revealed": N_("Guesses revealed")},
    logged_events=frozenset({"bonus", "reveal", "admitted", "swapped", "bell"}),
    event_sounds={"bell": "bell", "bonus": "tick"},
    status_lights={"drawing": "off", "guessing": "off", "ringing": "blink", "done": "on", "waiting": "off"},
    status_labels={"drawing": "DRAWING", "guessing": "GUESSING", "ringing": "BELL", "done": "DONE", "waiting": ""},
    needs_phones=True,
    phone_panel=phone.panel,
)
