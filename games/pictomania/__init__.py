"""Pictomania on the box: everyone draws on paper at once, guesses arrive from
phones, the station bell takes the bonus tokens (rules: README.md here).

``engine`` is the pure rules core (the word cards are passed in: ``new_engine``
loads the ``words`` option's list), ``bots`` the simulated players and host,
``words`` our own word lists, ``scene`` the shared screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Action, GameSettings, GameSpec
from games.i18n import LANGUAGES, N_, current_language
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
    PictomaniaEngine,
)
from games.pictomania.options import FALLBACK_WORDS, OPTIONS, RULES_VERSION, current_names
from games.pictomania.strip import worded_strip
from games.pictomania.words import available_languages, load_words


def words_language(chosen: Any) -> str:
    """The word list to deal from: the chosen one, else the box's language
    where a list exists, else English."""
    if isinstance(chosen, str):
        return chosen
    box_language = current_language()
    return box_language if box_language in available_languages() else FALLBACK_WORDS


def new_engine(settings: GameSettings) -> PictomaniaEngine:
    # an older journal names the list "language" (``options.OLD_NAMES``)
    return PictomaniaEngine(settings, load_words(words_language(current_names(settings.options).get("words"))))


class PictomaniaSpec(GameSpec):
    """Pictomania's spec: its settings name the word list actually dealt from,
    so a journal replays the same cards whatever language the replaying box speaks. The list's
    older name (``--option language=cs``) is taken as ``words``."""

    def settings(self, players: int, seed: int = 0, **options: Any) -> GameSettings:
        options = current_names(options)
        return super().settings(players, seed, **{**options, "words": words_language(options.get("words"))})


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


SPEC = PictomaniaSpec(
    summary=N_("Everyone draws a word at once and guesses the other drawings on the phone; ring when done. Quick right guesses score, wrong ones cost."),
    name="pictomania",
    title="Pictomania",
    translated=LANGUAGES,  # complete in every language the box speaks (tests keep it so)
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    new_engine=new_engine,
    buttons=BUTTONS,
    new_bots=new_phone_bots,
    new_host=new_host,
    scenario_step=scenario_step,
    scene="games.pictomania.scene:PictomaniaScene",
    strip_wording=worded_strip,  # games/pictomania/strip.py: the scene's strip, and the phones' pages'
    options=OPTIONS,
    # the simulated players draw and guess in seconds, so a demo reaches a scored reveal soon
    demo_options={"bot_pace": "demo"},
    # 2: the bell race is decided as soon as no later press could tie (the box's horizon
    # waits for late deliveries), not 50 ms after the last press (bell_settle_us, retired);
    # 3: the scoring tokens by player count, each set ending in a 1 (options.SCORING_TOKENS)
    rules_version=RULES_VERSION,
    host_aliases={"arm": (START, NEXT, REVEAL), "next": (NEXT, START, REVEAL)},
    host_buttons=("arm", "next"),  # the players judge their own guesses: no correct, wrong, undo or reset
    host_keys={"s": START, "v": REVEAL},  # space (arm) and n (next) go through host_aliases
    # the host remote's words (docs/companion.md)
    host_labels={START: N_("Start drawing"), REVEAL: N_("Reveal"), NEXT: N_("Next round")},
    phase_labels={"cards": N_("Word cards"), "drawing": N_("Drawing"), "review": N_("Review"),
                  "revealed": N_("Guesses revealed")},
    # not "admitted": who said they drew the wrong word is private until the reveal (the scoreboard's events)
    logged_events={
        "bonus": N_("{player} won a bonus"), "reveal": N_("the guesses are revealed"),
        "swapped": N_("a word card was swapped"), "bell": N_("{player} rang the bell"),
    },
    event_sounds={"bell": "bell", "bonus": "tick"},
    status_lights={"drawing": "off", "guessing": "off", "ringing": "blink", "done": "on", "waiting": "off"},
    status_labels={"drawing": N_("DRAWING"), "guessing": N_("GUESSING"), "ringing": N_("BELL"), "done": N_("DONE"),
                   "waiting": ""},
    needs_phones=True,
    phone_panel=phone.panel,
)
